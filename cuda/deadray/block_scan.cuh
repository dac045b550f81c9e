/* block_scan.cuh - the project's prefix sum on the device: a warp's inclusive sum by shuffles
 * (Hillis-Steele), a block's exclusive sum from its warps' totals, and one block scanning a
 * whole array in chunks with a running carry.
 *
 * nvcc. Templated on the element type: uint32 counts for stream compaction (deadray_compact.cu)
 * and floats for the environment map's sampling CDF (env_map_cdf.cu), so both run the same scan.
 */
#ifndef RS_CUDA_BLOCK_SCAN_CUH
#define RS_CUDA_BLOCK_SCAN_CUH

#include <stdint.h>

/* Inclusive prefix sum across the 32 lanes of a warp. */
template <class V>
__device__ __forceinline__ V rs_warp_inclusive_sum(V x)
{
    const uint32_t lane = threadIdx.x & 31u;
#pragma unroll
    for (uint32_t d = 1; d < 32; d <<= 1) {
        V y = __shfl_up_sync(0xffffffffu, x, d);
        if (lane >= d)
            x += y;
    }
    return x;
}

/* Block-wide exclusive sum of one value per thread of a Warps-warp block; *total gets the
 * block's sum. warp_totals: Warps entries of shared memory. */
template <int Warps, class V>
__device__ __forceinline__ V rs_block_exclusive_sum(V x, V* warp_totals, V* total)
{
    const uint32_t lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    V inclusive = rs_warp_inclusive_sum(x);
    if (lane == 31)
        warp_totals[warp] = inclusive;
    __syncthreads();
    V before = 0, sum = 0;
#pragma unroll
    for (uint32_t w = 0; w < Warps; ++w) {
        V c = warp_totals[w];
        before += w < warp ? c : V(0);
        sum += c;
    }
    *total = sum;
    return before + inclusive - x;
}

/* The calling block scans data[0, n) in place, blockDim.x entries at a time (a multiple of 32,
 * at most 1024), carrying each chunk's total into the next: inclusive or exclusive. Returns
 * the grand total to every thread. Every thread of the block must call it. */
template <class V>
__device__ V rs_block_scan_array(V* data, uint32_t n, bool inclusive)
{
    __shared__ V warp_totals[32];
    __shared__ V carry;
    const uint32_t lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    if (threadIdx.x == 0)
        carry = 0;
    __syncthreads();
    for (uint32_t chunk = 0; chunk < n; chunk += blockDim.x) {
        uint32_t i = chunk + threadIdx.x;
        V v = i < n ? data[i] : V(0);
        V x = rs_warp_inclusive_sum(v);
        if (lane == 31)
            warp_totals[warp] = x;
        __syncthreads();
        V before = carry;
        for (uint32_t w = 0; w < warp; ++w)
            before += warp_totals[w];
        if (i < n)
            data[i] = inclusive ? before + x : before + x - v;
        __syncthreads();
        if (threadIdx.x == blockDim.x - 1)
            carry = before + x;
        __syncthreads();
    }
    return carry;
}

#endif /* RS_CUDA_BLOCK_SCAN_CUH */
