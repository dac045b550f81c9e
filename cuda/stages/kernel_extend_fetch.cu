/* kernel_extend_fetch.cu - extend by persistent warps with dynamic ray fetch, for bvh8
 * (--trace-kernel persistent), next to the plain one-thread-per-ray launch of kernel_extend.cu.
 *
 * Aila and Laine, "Understanding the Efficiency of Ray Traversal on GPUs" (HPG 2009) keep warps
 * resident and let them take rays from a global counter; their Kepler/Fermi addendum (Aila,
 * Laine, Karras 2012) adds dynamic fetch: a warp whose lanes run walks of very different length
 * idles most lanes at the end of each batch, so as soon as fewer than RS_REFETCH_LANES lanes
 * still have a ray, the idle lanes fetch new ones (one atomicAdd per warp) and the warp goes on
 * stepping. Walks advance one node visit at a time (rs_bvh8_walk_step), which is what lets a
 * lane swap a finished ray for a new one between steps. The live rows come from the strategy's
 * live set; a fetched row that is dead (flags, stencil) is simply dropped. nvcc.
 */
#include "cuda/stages/kernels.cuh"
#include "cuda/stages/trace_stack.cuh"
#include "kernel/stages/stage_extend.h"

#define RS_REFETCH_LANES 20

template <int Mode>
__device__ __forceinline__ bool rs_row_is_live(const RsLiveSet& set, uint32_t row)
{
    if (Mode == RS_LIVE_FLAGS)
        return set.alive[row] != 0;
    if (Mode == RS_LIVE_STENCIL || Mode == RS_LIVE_PERSISTENT)
        return (set.stencil[row >> 5] >> (row & 31u)) & 1u;
    return true;
}

template <int Mode, bool Cutouts>
__global__ void __launch_bounds__(RS_TRACE_BLOCK) rs_kernel_extend_fetch(const __grid_constant__ RsKernelParams kp, RsLiveSet set)
{
    RS_TRACE_STACK_DECLARE(RS_ACCEL_BVH8, stack);
    RsBvh8View view = kp.scene.accel.bvh8;
    if (!Cutouts) /* compiled out of the walk when the scene has none (accel.h) */
        view.cutouts = nullptr;
    const uint32_t lane = threadIdx.x & 31u;
    const uint32_t lanes_below = (1u << lane) - 1u;
    uint32_t* counter = &set.counters[RS_CTR_FETCH];
    RsBvh8Walk walk;
    uint32_t row = 0;
    bool busy = false, exhausted = false;
    for (;;) {
        uint32_t busy_lanes = __ballot_sync(RS_FULL_WARP, busy);
        if (!exhausted && __popc(busy_lanes) < RS_REFETCH_LANES) {
            uint32_t idle = ~busy_lanes, wanted = (uint32_t)__popc(idle), first = 0;
            if (lane == 0)
                first = atomicAdd(counter, wanted);
            first = __shfl_sync(RS_FULL_WARP, first, 0);
            exhausted = first + wanted >= set.n; /* the same in every lane */
            if (!busy) {
                uint32_t ticket = first + (uint32_t)__popc(idle & lanes_below);
                if (ticket < set.n) {
                    row = Mode == RS_LIVE_INDEX ? set.index[ticket] : ticket;
                    if (rs_row_is_live<Mode>(set, row)) {
                        rs_stage_extend_walk_begin(&kp, row, &walk);
                        busy = true;
                    }
                }
            }
            busy_lanes = __ballot_sync(RS_FULL_WARP, busy);
        }
        if (busy_lanes == 0 && exhausted)
            break;
        if (busy && rs_bvh8_walk_step(&view, &walk, stack)) {
            rs_stage_extend_walk_end(&kp, row, &walk);
            busy = false;
        }
    }
}

cudaError_t rs_launch_extend_fetch(const RsKernelParams& kp, const RsLiveSet& set, int mode, RsGridCache* grids,
                                   cudaStream_t stream)
{
    cudaError_t e = cudaMemsetAsync(&set.counters[RS_CTR_FETCH], 0, sizeof(uint32_t), stream);
    if (e != cudaSuccess)
        return e;
    const bool cut = rs_accel_has_cutouts(&kp.scene.accel);
#define RS_FETCH_LAUNCH(m, c)                                                                                \
    do {                                                                                                     \
        unsigned grid = rs_persistent_grid_cached(grids, (const void*)rs_kernel_extend_fetch<m, c>, RS_TRACE_BLOCK); \
        rs_kernel_extend_fetch<m, c><<<grid, RS_TRACE_BLOCK, 0, stream>>>(kp, set);                          \
    } while (0)
#define RS_FETCH_CASE(m)                                                                               \
    case m:                                                                                            \
        if (cut)                                                                                       \
            RS_FETCH_LAUNCH(m, true);                                                                  \
        else                                                                                           \
            RS_FETCH_LAUNCH(m, false);                                                                 \
        break;
    switch (mode) {
        RS_FETCH_CASE(RS_LIVE_FLAGS)
        RS_FETCH_CASE(RS_LIVE_STENCIL)
        RS_FETCH_CASE(RS_LIVE_PERSISTENT)
        RS_FETCH_CASE(RS_LIVE_INDEX)
    }
#undef RS_FETCH_CASE
#undef RS_FETCH_LAUNCH
    return cudaGetLastError();
}
