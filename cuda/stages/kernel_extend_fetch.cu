/* kernel_extend_fetch.cu - extend through bvh8 walks that whole warps step together
 * (fetch_loop.cuh): by persistent warps with dynamic ray fetch (--trace-kernel persistent), or
 * one ray per thread (the plain launch on flat bvh8 scenes; kernel_extend.cu has the other
 * structures and scenes with instances). The live rows come from the strategy's live set, and
 * a row that is dead (flags, stencil) is simply dropped. nvcc.
 */
#include "cuda/deadray/deadray_live.cuh"
#include "cuda/stages/fetch_loop.cuh"
#include "cuda/stages/kernels.cuh"
#include "cuda/stages/trace_stack.cuh"
#include "kernel/stages/stage_extend.h"

template <int Mode, bool Cutouts, bool Refetch>
__global__ void RS_FETCH_LAUNCH_BOUNDS rs_kernel_extend_fetch(const __grid_constant__ RsKernelParams kp, RsLiveSet set)
{
    RS_TRACE_STACK_DECLARE(RS_ACCEL_BVH8, stack);
    RsBvh8View view = kp.scene.accel.bvh8;
    if (!Cutouts) /* compiled out of the walk when the scene has none (accel.h) */
        view.cutouts = nullptr;
    uint32_t row = 0;
    auto begin = [&](uint32_t ticket, RsBvh8Walk* walk) {
        row = Mode == RS_LIVE_INDEX ? set.index[ticket] : ticket;
        if (!rs_row_is_live<Mode>(set, row))
            return false;
        rs_stage_extend_walk_begin(&kp, row, walk);
        return true;
    };
    auto finish = [&](const RsBvh8Walk* walk) { rs_stage_extend_walk_end(&kp, row, walk); };
    rs_fetch_walks<0, Refetch>(&set.counters[RS_CTR_FETCH], set.n, view, stack, begin, finish);
}

template <bool Refetch>
static cudaError_t launch(const RsKernelParams& kp, const RsLiveSet& set, int mode, RsGridCache* grids,
                          cudaStream_t stream)
{
    if (Refetch) {
        cudaError_t e = cudaMemsetAsync(&set.counters[RS_CTR_FETCH], 0, sizeof(uint32_t), stream);
        if (e != cudaSuccess)
            return e;
    }
    const bool cut = rs_accel_has_cutouts(&kp.scene.accel);
#define RS_FETCH_LAUNCH(m, c)                                                                                \
    do {                                                                                                     \
        const void* kernel = (const void*)rs_kernel_extend_fetch<m, c, Refetch>;                             \
        unsigned grid = Refetch ? rs_persistent_grid_cached(grids, kernel, RS_TRACE_BLOCK)                   \
                                : rs_blocks_for(set.n, RS_TRACE_BLOCK);                                     \
        rs_kernel_extend_fetch<m, c, Refetch><<<grid, RS_TRACE_BLOCK, 0, stream>>>(kp, set);                 \
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

cudaError_t rs_launch_extend_fetch(const RsKernelParams& kp, const RsLiveSet& set, int mode, RsGridCache* grids,
                                   cudaStream_t stream)
{
    return launch<true>(kp, set, mode, grids, stream);
}

cudaError_t rs_launch_extend_warps(const RsKernelParams& kp, const RsLiveSet& set, int mode, cudaStream_t stream)
{
    return launch<false>(kp, set, mode, nullptr, stream);
}
