/* cuda_buffers.cuh - RayState and shadow-queue arrays in device memory, generated from the same
 * field lists as everything else (src/kernel/state/ray_state_fields.h). cudaMalloc returns 256-byte
 * aligned memory, so every field array meets the 16-byte alignment of 128-bit loads.
 * Device-side host glue (nvcc). */
#ifndef RS_CUDA_CUDA_BUFFERS_CUH
#define RS_CUDA_CUDA_BUFFERS_CUH

#include <cuda_runtime.h>

#include "kernel/state/ray_state.h"

/* `instances`: the instance lane too (a scene with instances; ray_state_fields.h). `targets`:
 * the shadow queue's target lane too (a backend that may trace particles: rs_shadow_store
 * stores it wherever it is allocated; shadow_state_fields.h). */
cudaError_t rs_cuda_alloc_rays(RsRayStateSoA* s, uint32_t n, int instances);
void rs_cuda_free_rays(RsRayStateSoA* s);
cudaError_t rs_cuda_alloc_shadows(RsShadowStateSoA* s, uint32_t n, int instances, int targets);
void rs_cuda_free_shadows(RsShadowStateSoA* s);

/* Payload compaction: rows index[k] of src move to row k of dst, and index[k] becomes k. */
cudaError_t rs_launch_gather_rows(RsRayStateSoA src, RsRayStateSoA dst, uint32_t* index, uint32_t n,
                                  cudaStream_t stream);

#endif /* RS_CUDA_CUDA_BUFFERS_CUH */
