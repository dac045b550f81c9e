/* deadray_compact.cu - the compaction and counting kernels of deadray_compact.cuh. nvcc.
 *
 * SCAN and BLOCK work on tiles of T threads x Items entries; each thread owns Items consecutive
 * entries, read with 128-bit loads, counts its kept ones, and one block-wide exclusive sum of
 * those counts (warp shuffles, then the warps' totals in shared memory; block_scan.cuh) gives
 * every thread its output position. One scan per tile, not one per entry, is what keeps these
 * kernels near the memory bandwidth.
 */
#include <cub/device/device_select.cuh>
#include <string.h>

#include "cuda/deadray/block_scan.cuh"
#include "cuda/deadray/deadray_compact.cuh"

#define T RS_COMPACT_THREADS
#define WARPS (T / 32)

/* Loads entries [i, i + Items) of keep and in: 128-bit loads where the run is whole and
 * aligned (i is a multiple of 4 whenever Items is), element loads at the stream's end. */
template <int Items>
__device__ __forceinline__ void rs_load_run(const uint32_t* keep, const uint32_t* in, uint32_t n, uint32_t i,
                                            uint32_t (&k)[Items], uint32_t (&v)[Items])
{
    if (Items % 4 == 0 && i + Items <= n) {
#pragma unroll
        for (int j = 0; j < Items; j += 4) {
            uint4 kk = *reinterpret_cast<const uint4*>(keep + i + j);
            k[j] = kk.x, k[j + 1] = kk.y, k[j + 2] = kk.z, k[j + 3] = kk.w;
        }
#pragma unroll
        for (int j = 0; j < Items; j += 4) {
            if (k[j] | k[j + 1] | k[j + 2] | k[j + 3]) { /* skip the payload read of an all-dead quad */
                uint4 vv = *reinterpret_cast<const uint4*>(in + i + j);
                v[j] = vv.x, v[j + 1] = vv.y, v[j + 2] = vv.z, v[j + 3] = vv.w;
            }
        }
    } else {
#pragma unroll
        for (int j = 0; j < Items; ++j) {
            k[j] = i + j < n ? keep[i + j] : 0u;
            v[j] = k[j] ? in[i + j] : 0u;
        }
    }
}

/* ---- SCAN: count per tile, scan tile counts, rank + scatter ---- */

template <int Items>
__global__ void rs_tile_count(const uint32_t* keep, uint32_t n, uint32_t* tile_sums)
{
    __shared__ uint32_t warp_totals[WARPS];
    uint32_t i = blockIdx.x * (T * Items) + threadIdx.x * Items;
    uint32_t count = 0;
    if (Items % 4 == 0 && i + Items <= n) {
#pragma unroll
        for (int j = 0; j < Items; j += 4) {
            uint4 kk = *reinterpret_cast<const uint4*>(keep + i + j);
            count += (kk.x != 0u) + (kk.y != 0u) + (kk.z != 0u) + (kk.w != 0u);
        }
    } else {
#pragma unroll
        for (int j = 0; j < Items; ++j)
            count += i + j < n && keep[i + j] != 0u;
    }
    uint32_t total;
    rs_block_exclusive_sum<WARPS>(count, warp_totals, &total);
    if (threadIdx.x == 0)
        tile_sums[blockIdx.x] = total;
}

/* One block scans all tile sums in place (exclusive) and writes the grand total. */
__global__ void rs_scan_tile_sums(uint32_t* sums, uint32_t tiles, uint32_t* count)
{
    uint32_t total = rs_block_scan_array<uint32_t>(sums, tiles, false);
    if (threadIdx.x == 0)
        *count = total;
}

/* Writes a tile's kept entries (ranked by rs_block_exclusive_sum) to dst[0, total): through
 * shared memory, so that the global stores are consecutive across the warp (coalesced) instead
 * of each thread writing its own short run. */
template <int Items>
__device__ __forceinline__ void rs_store_tile(const uint32_t (&k)[Items], const uint32_t (&v)[Items], uint32_t rank,
                                              uint32_t total, uint32_t* stage, uint32_t* dst)
{
#pragma unroll
    for (int j = 0; j < Items; ++j)
        if (k[j])
            stage[rank++] = v[j];
    __syncthreads();
    for (uint32_t q = threadIdx.x; q < total; q += T)
        dst[q] = stage[q];
}

template <int Items>
__global__ void rs_tile_scatter(const uint32_t* in, const uint32_t* keep, uint32_t n, const uint32_t* tile_offsets,
                                uint32_t* out)
{
    __shared__ uint32_t warp_totals[WARPS];
    __shared__ uint32_t stage[T * Items];
    uint32_t i = blockIdx.x * (T * Items) + threadIdx.x * Items;
    uint32_t k[Items], v[Items];
    rs_load_run<Items>(keep, in, n, i, k, v);
    uint32_t count = 0;
#pragma unroll
    for (int j = 0; j < Items; ++j)
        count += k[j] != 0u;
    uint32_t total;
    uint32_t rank = rs_block_exclusive_sum<WARPS>(count, warp_totals, &total);
    rs_store_tile<Items>(k, v, rank, total, stage, out + tile_offsets[blockIdx.x]);
}

/* ---- BLOCK (Roger et al.): reduce each block into its own run, scan run lengths, concatenate ---- */

template <int Items>
__global__ void rs_block_reduce(const uint32_t* in, const uint32_t* keep, uint32_t n, uint32_t* runs,
                                uint32_t* run_lengths)
{
    __shared__ uint32_t warp_totals[WARPS];
    __shared__ uint32_t stage[T * Items];
    uint32_t base = blockIdx.x * (T * Items);
    uint32_t k[Items], v[Items];
    rs_load_run<Items>(keep, in, n, base + threadIdx.x * Items, k, v);
    uint32_t count = 0;
#pragma unroll
    for (int j = 0; j < Items; ++j)
        count += k[j] != 0u;
    uint32_t total;
    uint32_t rank = rs_block_exclusive_sum<WARPS>(count, warp_totals, &total);
    rs_store_tile<Items>(k, v, rank, total, stage, runs + base);
    if (threadIdx.x == 0)
        run_lengths[blockIdx.x] = total;
}

template <int Items>
__global__ void rs_block_concat(const uint32_t* runs, const uint32_t* run_offsets, const uint32_t* count,
                                uint32_t tiles, uint32_t* out)
{
    uint32_t b = blockIdx.x;
    uint32_t begin = run_offsets[b];
    uint32_t end = b + 1 < tiles ? run_offsets[b + 1] : *count;
    const uint32_t* run = runs + (size_t)b * (T * Items);
    for (uint32_t j = threadIdx.x; j < end - begin; j += T)
        out[begin + j] = run[j];
}

/* ---- WARP: one pass; each warp takes 32 lanes x 4 entries x RS_WARP_ROUNDS rounds (1024
 * entries), ranks them with per-round lane scans, and reserves its output with ONE atomicAdd.
 * Fewer, bigger reservations matter: all warps add to one address, and same-address atomics
 * serialise in L2 (about 1 ns each on an H200: one per 128 entries cost 0.13 ms at 16M). ---- */

#define RS_WARP_ROUNDS 8
#define RS_WARP_CHUNK (32u * 4u * RS_WARP_ROUNDS)

__global__ void rs_warp_compact(const uint32_t* in, const uint32_t* keep, uint32_t n, uint32_t* out, uint32_t* count)
{
    const uint32_t lane = threadIdx.x & 31u;
    uint32_t warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    uint32_t warps = (gridDim.x * blockDim.x) >> 5;
    for (uint32_t base = warp * RS_WARP_CHUNK; base < n; base += warps * RS_WARP_CHUNK) {
        uint32_t k[RS_WARP_ROUNDS][4], v[RS_WARP_ROUNDS][4], rank[RS_WARP_ROUNDS];
        uint32_t total = 0;
#pragma unroll
        for (int r = 0; r < RS_WARP_ROUNDS; ++r) {
            rs_load_run<4>(keep, in, n, base + r * 128u + lane * 4u, k[r], v[r]);
            uint32_t c = (k[r][0] != 0u) + (k[r][1] != 0u) + (k[r][2] != 0u) + (k[r][3] != 0u);
            uint32_t inclusive = rs_warp_inclusive_sum(c);
            rank[r] = total + inclusive - c; /* round-major: each round's output is contiguous */
            total += __shfl_sync(0xffffffffu, inclusive, 31);
        }
        uint32_t offset = 0;
        if (lane == 0 && total)
            offset = atomicAdd(count, total);
        offset = __shfl_sync(0xffffffffu, offset, 0);
#pragma unroll
        for (int r = 0; r < RS_WARP_ROUNDS; ++r) {
            uint32_t at = offset + rank[r];
#pragma unroll
            for (int j = 0; j < 4; ++j)
                if (k[r][j])
                    out[at++] = v[r][j];
        }
    }
}

/* ---- counts ---- */

__global__ void rs_count_flags_kernel(const uint32_t* alive, uint32_t n, uint32_t* count)
{
    uint32_t sum = 0;
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += alive[i] != 0u;
    for (int d = 16; d > 0; d >>= 1)
        sum += __shfl_down_sync(0xffffffffu, sum, d);
    if ((threadIdx.x & 31u) == 0 && sum)
        atomicAdd(count, sum);
}

__global__ void rs_count_stencil_kernel(const uint32_t* words, uint32_t n, uint32_t* count)
{
    uint32_t sum = 0;
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += __popc(words[i]);
    for (int d = 16; d > 0; d >>= 1)
        sum += __shfl_down_sync(0xffffffffu, sum, d);
    if ((threadIdx.x & 31u) == 0 && sum)
        atomicAdd(count, sum);
}

/* ---- host glue ---- */

static unsigned grid_stride_blocks(uint32_t n)
{
    unsigned blocks = (n + T - 1) / T;
    return blocks < 4096 ? (blocks ? blocks : 1) : 4096;
}

cudaError_t rs_count_flags(const uint32_t* alive, uint32_t n, uint32_t* count, cudaStream_t stream)
{
    rs_count_flags_kernel<<<grid_stride_blocks(n), T, 0, stream>>>(alive, n, count);
    return cudaGetLastError();
}

cudaError_t rs_count_stencil(const uint32_t* words, uint32_t n_words, uint32_t* count, cudaStream_t stream)
{
    rs_count_stencil_kernel<<<grid_stride_blocks(n_words), T, 0, stream>>>(words, n_words, count);
    return cudaGetLastError();
}

size_t rs_compact_scratch_bytes_per_entry(void) { return sizeof(uint32_t) + sizeof(uint32_t) / T; }

cudaError_t rs_compact_scratch_alloc(RsCompactScratch* s, uint32_t capacity)
{
    memset(s, 0, sizeof *s);
    s->capacity = capacity;
    uint32_t tiles = capacity / T + 2; /* the smallest tile is T entries */
    cudaError_t e = cudaMalloc(&s->tile_sums, tiles * sizeof(uint32_t));
    if (e == cudaSuccess)
        e = cudaMalloc(&s->runs, (size_t)(capacity + T * 16) * sizeof(uint32_t));
    if (e == cudaSuccess)
        e = cub::DeviceSelect::Flagged(nullptr, s->cub_bytes, (const uint32_t*)nullptr, (const uint32_t*)nullptr,
                                       (uint32_t*)nullptr, (uint32_t*)nullptr, (int64_t)capacity);
    if (e == cudaSuccess)
        e = cudaMalloc(&s->cub_temp, s->cub_bytes ? s->cub_bytes : 1);
    if (e != cudaSuccess)
        rs_compact_scratch_free(s);
    return e;
}

void rs_compact_scratch_free(RsCompactScratch* s)
{
    cudaFree(s->tile_sums);
    cudaFree(s->runs);
    cudaFree(s->cub_temp);
    memset(s, 0, sizeof *s);
}

template <int Items>
static cudaError_t compact_tiles(RsCompactMethod method, const uint32_t* in, const uint32_t* keep, uint32_t n,
                                 uint32_t* out, uint32_t* count, RsCompactScratch* s, cudaStream_t stream)
{
    uint32_t tiles = (n + T * Items - 1) / (T * Items);
    if (method == RS_COMPACT_SCAN) {
        rs_tile_count<Items><<<tiles, T, 0, stream>>>(keep, n, s->tile_sums);
        rs_scan_tile_sums<<<1, 1024, 0, stream>>>(s->tile_sums, tiles, count);
        rs_tile_scatter<Items><<<tiles, T, 0, stream>>>(in, keep, n, s->tile_sums, out);
    } else {
        rs_block_reduce<Items><<<tiles, T, 0, stream>>>(in, keep, n, s->runs, s->tile_sums);
        rs_scan_tile_sums<<<1, 1024, 0, stream>>>(s->tile_sums, tiles, count);
        rs_block_concat<Items><<<tiles, T, 0, stream>>>(s->runs, s->tile_sums, count, tiles, out);
    }
    return cudaGetLastError();
}

cudaError_t rs_compact(RsCompactMethod method, const uint32_t* in, const uint32_t* keep, uint32_t n, uint32_t* out,
                       uint32_t* count, RsCompactScratch* scratch, int items, cudaStream_t stream)
{
    if (n == 0)
        return cudaMemsetAsync(count, 0, sizeof(uint32_t), stream);
    if (n > scratch->capacity)
        return cudaErrorInvalidValue;
    switch (method) {
    case RS_COMPACT_WARP: {
        cudaError_t e = cudaMemsetAsync(count, 0, sizeof(uint32_t), stream);
        if (e != cudaSuccess)
            return e;
        uint32_t warps_needed = (n + RS_WARP_CHUNK - 1) / RS_WARP_CHUNK;
        unsigned blocks = (warps_needed * 32 + T - 1) / T;
        rs_warp_compact<<<blocks < 8192 ? blocks : 8192, T, 0, stream>>>(in, keep, n, out, count);
        return cudaGetLastError();
    }
    case RS_COMPACT_CUB:
        return cub::DeviceSelect::Flagged(scratch->cub_temp, scratch->cub_bytes, in, keep, out, count, (int64_t)n,
                                          stream);
    default:
        switch (items) {
        case 1: return compact_tiles<1>(method, in, keep, n, out, count, scratch, stream);
        case 2: return compact_tiles<2>(method, in, keep, n, out, count, scratch, stream);
        case 4: return compact_tiles<4>(method, in, keep, n, out, count, scratch, stream);
        case 16: return compact_tiles<16>(method, in, keep, n, out, count, scratch, stream);
        default: return compact_tiles<8>(method, in, keep, n, out, count, scratch, stream);
        }
    }
}
