/* cuda_buffers.cu - device RayState allocation and the payload-compaction gather. nvcc. */
#include <string.h>

#include "cuda/backend/cuda_buffers.cuh"
#include "cuda/stages/kernels.cuh"

cudaError_t rs_cuda_alloc_rays(RsRayStateSoA* s, uint32_t n, int instances)
{
    memset(s, 0, sizeof *s);
    cudaError_t e = cudaSuccess;
#define RS_ALLOC(type, name, lanes)                                    \
    if (e == cudaSuccess)                                              \
        e = cudaMalloc((void**)&s->name, (size_t)(n ? n : 1) * sizeof(type));
    RS_RAY_STATE_CORE_FIELDS(RS_ALLOC)
    if (instances)
        RS_ALLOC(RsUint4, instance, "")
#undef RS_ALLOC
    if (e != cudaSuccess)
        rs_cuda_free_rays(s);
    return e;
}

void rs_cuda_free_rays(RsRayStateSoA* s)
{
#define RS_FREE(type, name, lanes) cudaFree(s->name);
    RS_RAY_STATE_FIELDS(RS_FREE)
#undef RS_FREE
    memset(s, 0, sizeof *s);
}

cudaError_t rs_cuda_alloc_shadows(RsShadowStateSoA* s, uint32_t n, int instances, int targets)
{
    memset(s, 0, sizeof *s);
    cudaError_t e = cudaSuccess;
#define RS_ALLOC(type, name, lanes)                                    \
    if (e == cudaSuccess)                                              \
        e = cudaMalloc((void**)&s->name, (size_t)(n ? n : 1) * sizeof(type));
    RS_SHADOW_STATE_CORE_FIELDS(RS_ALLOC)
    if (instances)
        RS_ALLOC(RsUint4, instance, "")
    if (targets)
        RS_ALLOC(RsUint4, target, "")
#undef RS_ALLOC
    if (e != cudaSuccess)
        rs_cuda_free_shadows(s);
    return e;
}

void rs_cuda_free_shadows(RsShadowStateSoA* s)
{
#define RS_FREE(type, name, lanes) cudaFree(s->name);
    RS_SHADOW_STATE_FIELDS(RS_FREE)
#undef RS_FREE
    memset(s, 0, sizeof *s);
}

__global__ void rs_kernel_gather_rows(RsRayStateSoA src, RsRayStateSoA dst, uint32_t* index, uint32_t n)
{
    uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n)
        return;
    rs_ray_move(&src, index[k], &dst, k);
    index[k] = k;
}

cudaError_t rs_launch_gather_rows(RsRayStateSoA src, RsRayStateSoA dst, uint32_t* index, uint32_t n,
                                  cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    rs_kernel_gather_rows<<<rs_blocks_for(n, RS_BLOCK), RS_BLOCK, 0, stream>>>(src, dst, index, n);
    return cudaGetLastError();
}
