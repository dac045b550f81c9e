/* deadray_convert.cu - `--deadray auto`'s switch between families inside a wave
 * (deadray_compact.cuh): the live rows as stencil bits <-> as an index list. nvcc.
 *
 * Cheap next to a bounce: one pass over the stencil words (one warp per word, one atomic per
 * non-empty word) or over the live entries (one atomicOr each), after a memset of the words.
 * The list comes out in whatever order the warps reach the counter, as compact-warp's does:
 * no result depends on the order of rays.
 */
#include "cuda/deadray/deadray_compact.cuh"
#include "cuda/deadray/live_set.cuh"

#define RS_CONVERT_BLOCK 256

__global__ void rs_kernel_stencil_to_index(const uint32_t* words, uint32_t paths, uint32_t* index, uint32_t* cursor)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t lane = threadIdx.x & 31u;
    /* one word per warp, read by every lane: the tests below are warp-uniform (bits of rows
     * past the wave are clear: generate and shade write them so) */
    uint32_t word = (i & ~31u) < paths ? words[i >> 5] : 0u;
    if (word == 0)
        return;
    uint32_t base = 0;
    if (lane == 0)
        base = atomicAdd(cursor, (uint32_t)__popc(word));
    base = __shfl_sync(RS_FULL_WARP, base, 0);
    if ((word >> lane) & 1u)
        index[base + (uint32_t)__popc(word & ((1u << lane) - 1u))] = i;
}

__global__ void rs_kernel_index_to_stencil(const uint32_t* index, uint32_t n, uint32_t* words)
{
    uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n) {
        uint32_t row = index[k];
        atomicOr(&words[row >> 5], 1u << (row & 31u));
    }
}

static unsigned blocks_for(uint32_t threads)
{
    uint32_t rounded = (threads + 31u) / 32u * 32u;
    return (rounded + RS_CONVERT_BLOCK - 1u) / RS_CONVERT_BLOCK;
}

cudaError_t rs_stencil_to_index(const uint32_t* words, uint32_t paths, uint32_t* index, uint32_t* cursor,
                                cudaStream_t stream)
{
    cudaError_t e = cudaMemsetAsync(cursor, 0, sizeof(uint32_t), stream);
    if (e != cudaSuccess || paths == 0)
        return e;
    rs_kernel_stencil_to_index<<<blocks_for(paths), RS_CONVERT_BLOCK, 0, stream>>>(words, paths, index, cursor);
    return cudaGetLastError();
}

cudaError_t rs_index_to_stencil(const uint32_t* index, uint32_t n, uint32_t paths, uint32_t* words,
                                cudaStream_t stream)
{
    cudaError_t e = cudaMemsetAsync(words, 0, (size_t)((paths + 31u) / 32u) * sizeof(uint32_t), stream);
    if (e != cudaSuccess || n == 0)
        return e;
    rs_kernel_index_to_stencil<<<blocks_for(n), RS_CONVERT_BLOCK, 0, stream>>>(index, n, words);
    return cudaGetLastError();
}
