/* ray_sort.cu - keys and CUB radix sort of the live index list (see ray_sort.cuh). nvcc. */
#include <string.h>

#include <cub/device/device_radix_sort.cuh>

#include "cuda/stages/kernels.cuh"
#include "cuda/stages/ray_sort.cuh"
#include "kernel/stages/material_sort.h"
#include "kernel/stages/ray_sort.h"

#define RS_SORT_KEY_BITS 30

__global__ void rs_kernel_sort_keys(const __grid_constant__ RsKernelParams kp, const uint32_t* index, uint32_t n, uint32_t* keys)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint32_t row = index[i];
    RsVec3 scale = rs_sort_scale(kp.scene.bounds_lo, kp.scene.bounds_hi);
    keys[i] = rs_ray_sort_key(rs_xyz(kp.rays.origin[row]), rs_xyz(kp.rays.direction[row]),
                              rs_xyz(kp.scene.bounds_lo), scale);
}

__global__ void rs_kernel_material_keys(const __grid_constant__ RsKernelParams kp, const uint32_t* index, uint32_t n,
                                        uint32_t* keys)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        keys[i] = rs_material_sort_key(&kp.scene, kp.rays.hit[index[i]]);
}

cudaError_t rs_sort_scratch_alloc(RsSortScratch* s, uint32_t n)
{
    memset(s, 0, sizeof *s);
    cudaError_t e = cudaMalloc((void**)&s->keys[0], (size_t)(n ? n : 1) * sizeof(uint32_t));
    if (e == cudaSuccess)
        e = cudaMalloc((void**)&s->keys[1], (size_t)(n ? n : 1) * sizeof(uint32_t));
    if (e == cudaSuccess) {
        cub::DoubleBuffer<uint32_t> k(s->keys[0], s->keys[1]), v(NULL, NULL);
        e = cub::DeviceRadixSort::SortPairs(NULL, s->temp_bytes, k, v, (int)n, 0, RS_SORT_KEY_BITS);
        /* the material sort looks at fewer bits (fewer passes), but ask for the most it can take */
        size_t full = 0;
        if (e == cudaSuccess)
            e = cub::DeviceRadixSort::SortPairs(NULL, full, k, v, (int)n, 0, 32);
        if (full > s->temp_bytes)
            s->temp_bytes = full;
    }
    if (e == cudaSuccess)
        e = cudaMalloc(&s->temp, s->temp_bytes ? s->temp_bytes : 1);
    if (e != cudaSuccess)
        rs_sort_scratch_free(s);
    return e;
}

void rs_sort_scratch_free(RsSortScratch* s)
{
    cudaFree(s->keys[0]);
    cudaFree(s->keys[1]);
    cudaFree(s->temp);
    memset(s, 0, sizeof *s);
}

/* Sorts *index by s->keys[0] (already written) over key bits [0, bits). */
static cudaError_t sort_by_keys(uint32_t** index, uint32_t** spare, uint32_t n, int bits, RsSortScratch* s,
                                cudaStream_t stream)
{
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess)
        return e;
    cub::DoubleBuffer<uint32_t> k(s->keys[0], s->keys[1]), v(*index, *spare);
    size_t bytes = s->temp_bytes;
    e = cub::DeviceRadixSort::SortPairs(s->temp, bytes, k, v, (int)n, 0, bits, stream);
    if (e == cudaSuccess && v.Current() != *index) {
        uint32_t* t = *index;
        *index = *spare;
        *spare = t;
    }
    return e;
}

cudaError_t rs_launch_sort_rays(const RsKernelParams& kp, uint32_t** index, uint32_t** spare, uint32_t n,
                                RsSortScratch* s, cudaStream_t stream)
{
    if (n < 2)
        return cudaSuccess;
    rs_kernel_sort_keys<<<rs_blocks_for(n, RS_BLOCK), RS_BLOCK, 0, stream>>>(kp, *index, n, s->keys[0]);
    return sort_by_keys(index, spare, n, RS_SORT_KEY_BITS, s, stream);
}

cudaError_t rs_launch_sort_materials(const RsKernelParams& kp, uint32_t** index, uint32_t** spare, uint32_t n,
                                     RsSortScratch* s, cudaStream_t stream)
{
    int bits = (int)rs_material_sort_bits(kp.scene.material_count);
    if (n < 2 || bits == 0) /* one key (no material: every ray misses): nothing to order */
        return cudaSuccess;
    rs_kernel_material_keys<<<rs_blocks_for(n, RS_BLOCK), RS_BLOCK, 0, stream>>>(kp, *index, n, s->keys[0]);
    return sort_by_keys(index, spare, n, bits, s, stream);
}
