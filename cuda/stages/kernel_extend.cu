/* kernel_extend.cu - thin wrapper: live row -> rs_stage_extend (closest hit), one kernel per
 * acceleration structure and dead-ray iteration mode; bvh8's camera tree is walked by the bvh2
 * kernels. nvcc. */
#include "cuda/deadray/deadray_live.cuh"
#include "cuda/stages/kernels.cuh"
#include "cuda/stages/trace_stack.cuh"
#include "kernel/stages/stage_extend.h"

template <int Accel, int Mode>
__global__ void RS_TRACE_LAUNCH_BOUNDS rs_kernel_extend(const __grid_constant__ RsKernelParams kp, RsLiveSet set)
{
    RS_TRACE_STACK_DECLARE(Accel, stack);
    auto body = [&](uint32_t row) {
        rs_stage_extend_with(&kp, row, Accel, stack);
        return true;
    };
    rs_for_live<Mode, false>(set, body);
}

template <int Accel>
static void launch(const RsKernelParams& kp, const RsLiveSet& set, int mode, RsGridCache* grids, cudaStream_t stream)
{
    unsigned grid = rs_blocks_for(set.n, RS_TRACE_BLOCK);
    switch (mode) {
    case RS_LIVE_FLAGS: rs_kernel_extend<Accel, RS_LIVE_FLAGS><<<grid, RS_TRACE_BLOCK, 0, stream>>>(kp, set); break;
    case RS_LIVE_STENCIL:
        rs_kernel_extend<Accel, RS_LIVE_STENCIL><<<grid, RS_TRACE_BLOCK, 0, stream>>>(kp, set);
        break;
    case RS_LIVE_PERSISTENT: {
        unsigned persistent_grid =
            rs_persistent_grid_cached(grids, (const void*)rs_kernel_extend<Accel, RS_LIVE_PERSISTENT>, RS_TRACE_BLOCK);
        rs_kernel_extend<Accel, RS_LIVE_PERSISTENT><<<persistent_grid, RS_TRACE_BLOCK, 0, stream>>>(kp, set);
        break;
    }
    default: rs_kernel_extend<Accel, RS_LIVE_INDEX><<<grid, RS_TRACE_BLOCK, 0, stream>>>(kp, set); break;
    }
}

cudaError_t rs_launch_extend(const RsKernelParams& kp, const RsLiveSet& set, uint32_t kind, int mode,
                             RsGridCache* grids, cudaStream_t stream)
{
    /* a scene without cut-outs gets kernels compiled without the test (accel.h); a scene with
     * instances, the two-level kernels (which test cut-outs when there are any) */
    const uint32_t plain = rs_accel_has_cutouts(&kp.scene.accel) ? 0u : RS_ACCEL_NO_CUTOUTS;
    switch (kind | plain) {
    case RS_ACCEL_BVH8 | RS_ACCEL_INSTANCES: launch<RS_ACCEL_BVH8 | RS_ACCEL_INSTANCES>(kp, set, mode, grids, stream); break;
    case RS_ACCEL_BVH8 | RS_ACCEL_INSTANCES | RS_ACCEL_NO_CUTOUTS:
        launch<RS_ACCEL_BVH8 | RS_ACCEL_INSTANCES | RS_ACCEL_NO_CUTOUTS>(kp, set, mode, grids, stream);
        break;
    case RS_ACCEL_BVH2 | RS_ACCEL_INSTANCES: launch<RS_ACCEL_BVH2 | RS_ACCEL_INSTANCES>(kp, set, mode, grids, stream); break;
    case RS_ACCEL_BVH2 | RS_ACCEL_INSTANCES | RS_ACCEL_NO_CUTOUTS:
        launch<RS_ACCEL_BVH2 | RS_ACCEL_INSTANCES | RS_ACCEL_NO_CUTOUTS>(kp, set, mode, grids, stream);
        break;
    case RS_ACCEL_BVH8: launch<RS_ACCEL_BVH8>(kp, set, mode, grids, stream); break;
    case RS_ACCEL_BVH8 | RS_ACCEL_NO_CUTOUTS: launch<RS_ACCEL_BVH8 | RS_ACCEL_NO_CUTOUTS>(kp, set, mode, grids, stream); break;
    case RS_ACCEL_GRID: launch<RS_ACCEL_GRID>(kp, set, mode, grids, stream); break;
    case RS_ACCEL_GRID | RS_ACCEL_NO_CUTOUTS: launch<RS_ACCEL_GRID | RS_ACCEL_NO_CUTOUTS>(kp, set, mode, grids, stream); break;
    case RS_ACCEL_BVH2 | RS_ACCEL_NO_CUTOUTS: launch<RS_ACCEL_BVH2 | RS_ACCEL_NO_CUTOUTS>(kp, set, mode, grids, stream); break;
    default: launch<RS_ACCEL_BVH2>(kp, set, mode, grids, stream); break;
    }
    return cudaGetLastError();
}
