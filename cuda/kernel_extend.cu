/* kernel_extend.cu - thin wrapper: live row -> rs_stage_extend (closest hit). nvcc. */
#include "../src/kernel/stage_extend.h"
#include "deadray_live.cuh"
#include "kernels.cuh"

template <int Mode>
__global__ void rs_kernel_extend(RsKernelParams kp, RsLiveSet set)
{
    auto body = [&](uint32_t row) {
        rs_stage_extend(&kp, row);
        return true;
    };
    rs_for_live<Mode, false>(set, body);
}

cudaError_t rs_launch_extend(const RsKernelParams& kp, const RsLiveSet& set, int mode, cudaStream_t stream)
{
    unsigned grid = rs_blocks_for(set.n, RS_BLOCK);
    switch (mode) {
    case RS_LIVE_FLAGS: rs_kernel_extend<RS_LIVE_FLAGS><<<grid, RS_BLOCK, 0, stream>>>(kp, set); break;
    case RS_LIVE_STENCIL: rs_kernel_extend<RS_LIVE_STENCIL><<<grid, RS_BLOCK, 0, stream>>>(kp, set); break;
    case RS_LIVE_PERSISTENT: {
        static unsigned persistent_grid = 0;
        if (!persistent_grid)
            persistent_grid = rs_persistent_grid((const void*)rs_kernel_extend<RS_LIVE_PERSISTENT>, RS_BLOCK);
        rs_kernel_extend<RS_LIVE_PERSISTENT><<<persistent_grid, RS_BLOCK, 0, stream>>>(kp, set);
        break;
    }
    default: rs_kernel_extend<RS_LIVE_INDEX><<<grid, RS_BLOCK, 0, stream>>>(kp, set); break;
    }
    return cudaGetLastError();
}
