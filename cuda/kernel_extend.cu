/* kernel_extend.cu - thin wrapper: live row -> rs_stage_extend (closest hit), one kernel per
 * acceleration structure and dead-ray iteration mode. nvcc. */
#include "../src/kernel/stage_extend.h"
#include "deadray_live.cuh"
#include "kernels.cuh"
#include "trace_stack.cuh"

template <int Accel, int Mode>
__global__ void __launch_bounds__(RS_TRACE_BLOCK) rs_kernel_extend(RsKernelParams kp, RsLiveSet set)
{
    RS_TRACE_STACK_DECLARE(Accel, stack);
    auto body = [&](uint32_t row) {
        rs_stage_extend_with(&kp, row, Accel, stack);
        return true;
    };
    rs_for_live<Mode, false>(set, body);
}

template <int Accel>
static void launch(const RsKernelParams& kp, const RsLiveSet& set, int mode, cudaStream_t stream)
{
    unsigned grid = rs_blocks_for(set.n, RS_TRACE_BLOCK);
    switch (mode) {
    case RS_LIVE_FLAGS: rs_kernel_extend<Accel, RS_LIVE_FLAGS><<<grid, RS_TRACE_BLOCK, 0, stream>>>(kp, set); break;
    case RS_LIVE_STENCIL:
        rs_kernel_extend<Accel, RS_LIVE_STENCIL><<<grid, RS_TRACE_BLOCK, 0, stream>>>(kp, set);
        break;
    case RS_LIVE_PERSISTENT: {
        static unsigned persistent_grid = 0;
        if (!persistent_grid)
            persistent_grid =
                rs_persistent_grid((const void*)rs_kernel_extend<Accel, RS_LIVE_PERSISTENT>, RS_TRACE_BLOCK);
        rs_kernel_extend<Accel, RS_LIVE_PERSISTENT><<<persistent_grid, RS_TRACE_BLOCK, 0, stream>>>(kp, set);
        break;
    }
    default: rs_kernel_extend<Accel, RS_LIVE_INDEX><<<grid, RS_TRACE_BLOCK, 0, stream>>>(kp, set); break;
    }
}

cudaError_t rs_launch_extend(const RsKernelParams& kp, const RsLiveSet& set, int mode, cudaStream_t stream)
{
    switch (kp.scene.accel.kind) {
    case RS_ACCEL_BVH8: launch<RS_ACCEL_BVH8>(kp, set, mode, stream); break;
    case RS_ACCEL_GRID: launch<RS_ACCEL_GRID>(kp, set, mode, stream); break;
    default: launch<RS_ACCEL_BVH2>(kp, set, mode, stream); break;
    }
    return cudaGetLastError();
}
