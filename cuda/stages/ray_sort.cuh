/* ray_sort.cuh - --sort-rays and --sort-materials on the GPU: the live index list reordered by
 * ray_sort.h's or material_sort.h's key with CUB's radix sort. Device-side host glue (nvcc). */
#ifndef RS_CUDA_RAY_SORT_CUH
#define RS_CUDA_RAY_SORT_CUH

#include <cuda_runtime.h>

#include "kernel/state/kernel_params.h"

typedef struct RsSortScratch {
    uint32_t* keys[2];
    void* temp;
    size_t temp_bytes;
} RsSortScratch;

cudaError_t rs_sort_scratch_alloc(RsSortScratch* s, uint32_t n);
void rs_sort_scratch_free(RsSortScratch* s);

/* Sorts the n entries of *index by their rays' keys, using *spare as the other buffer; on return
 * *index holds the sorted list and *spare the other buffer (the two may have swapped). */
cudaError_t rs_launch_sort_rays(const RsKernelParams& kp, uint32_t** index, uint32_t** spare, uint32_t n,
                                RsSortScratch* s, cudaStream_t stream);

/* The same by material_sort.h's key, looking at its low rs_material_sort_bits bits only (a few
 * radix passes); stable, so within a material the rays keep their order. */
cudaError_t rs_launch_sort_materials(const RsKernelParams& kp, uint32_t** index, uint32_t** spare, uint32_t n,
                                     RsSortScratch* s, cudaStream_t stream);

#endif /* RS_CUDA_RAY_SORT_CUH */
