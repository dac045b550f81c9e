/* sppm.cuh - stochastic progressive photon mapping's per-chunk and per-pass steps on the GPU:
 * the photon grid built by sorting a chunk's photons (cub radix sort: the counting sorts of the
 * seed, digit by digit) with bucket ranges from a histogram and a scan, each pixel's gather, and
 * the per-pixel update at the end of a pass. The per-item code is kernel/particle/photon_grid.h,
 * which the CPU backend (host/backend/cpu/sppm_cpu.c) runs too: the same bits for the same
 * photons. Device-side host glue (nvcc).
 */
#ifndef RS_CUDA_POST_SPPM_CUH
#define RS_CUDA_POST_SPPM_CUH

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/state/kernel_params.h"

/* Sized for a photon capacity and a pixel count, reused by every chunk. */
typedef struct RsSppmScratch {
    void* state; /* owned by sppm.cu */
    uint32_t table_bits; /* 0 (what alloc sets): the photon grid's table from the photon count;
                            else 2^table_bits buckets, at most the capacity's (tests force tiny
                            tables with it) */
} RsSppmScratch;

cudaError_t rs_sppm_scratch_alloc(RsSppmScratch* s, uint32_t photon_capacity, uint32_t pixels);
void rs_sppm_scratch_free(RsSppmScratch* s);

/* After a photon chunk (kp holds device pointers): builds the grid from kp->photons, gathers
 * at every pixel's visible point into kp->sppm_pass and empties the queue, all on `stream`.
 * Waits for the stream once, for the photon count; *photons receives it (more than
 * kp->photons.capacity: overflow, and nothing was gathered: the caller reports it). */
cudaError_t rs_launch_sppm_resolve(const RsKernelParams* kp, RsSppmScratch* s, uint64_t* photons,
                                   cudaStream_t stream);

/* At the end of a pass: the per-pixel update, film plane 0 from the state, the pass's sums and
 * visible points cleared. */
cudaError_t rs_launch_sppm_update(const RsKernelParams* kp, cudaStream_t stream);

#endif /* RS_CUDA_POST_SPPM_CUH */
