/* kernel_extend_camera.cu - extend for a camera wave's own rays through bvh8's camera tree
 * (kernel/accel/accel.h), by warp packets (bvh2_packet.cuh): every lane of a warp takes one
 * ticket of the live set and the warp walks the tree as one. Flat scenes only, as the camera
 * tree is. nvcc. */
#include "cuda/deadray/deadray_live.cuh"
#include "cuda/stages/bvh2_packet.cuh"
#include "cuda/stages/kernels.cuh"
#include "cuda/stages/trace_stack.cuh"
#include "kernel/stages/stage_extend.h"

template <int Mode, bool Cutouts>
__global__ void __launch_bounds__(RS_TRACE_BLOCK) rs_kernel_extend_camera(const __grid_constant__ RsKernelParams kp,
                                                                         RsLiveSet set)
{
    const uint32_t ticket = blockIdx.x * blockDim.x + threadIdx.x;
    if ((ticket & ~31u) >= set.n)
        return; /* the whole warp is past the end */
    uint32_t row = 0;
    bool live = false;
    if (ticket < set.n) {
        row = Mode == RS_LIVE_INDEX ? set.index[ticket] : ticket;
        live = rs_row_is_live<Mode>(set, row);
    }
    if (!__any_sync(RS_FULL_WARP, live))
        return;
    RsBvh2View view = kp.scene.accel.bvh2;
    if (!Cutouts) /* compiled out of the walk when the scene has none (accel.h) */
        view.cutouts = nullptr;
    RsFloat4 o = live ? kp.rays.origin[row] : rs_float4(0.0f, 0.0f, 0.0f, 0.0f);
    RsFloat4 d = live ? kp.rays.direction[row] : rs_float4(0.0f, 0.0f, 1.0f, 0.0f);
    RsHit hit;
    rs_bvh2_packet_closest(view, rs_xyz(o), rs_xyz(d), d.w, rs_float_as_uint(o.w), live, &hit);
    if (live)
        rs_stage_extend_store(&kp, row, &hit);
}

template <int Mode>
static void launch(const RsKernelParams& kp, const RsLiveSet& set, cudaStream_t stream)
{
    unsigned grid = rs_blocks_for(set.n, RS_TRACE_BLOCK);
    if (rs_accel_has_cutouts(&kp.scene.accel))
        rs_kernel_extend_camera<Mode, true><<<grid, RS_TRACE_BLOCK, 0, stream>>>(kp, set);
    else
        rs_kernel_extend_camera<Mode, false><<<grid, RS_TRACE_BLOCK, 0, stream>>>(kp, set);
}

cudaError_t rs_launch_extend_camera(const RsKernelParams& kp, const RsLiveSet& set, int mode, cudaStream_t stream)
{
    switch (mode) {
    case RS_LIVE_FLAGS: launch<RS_LIVE_FLAGS>(kp, set, stream); break;
    case RS_LIVE_STENCIL: launch<RS_LIVE_STENCIL>(kp, set, stream); break;
    case RS_LIVE_PERSISTENT: launch<RS_LIVE_PERSISTENT>(kp, set, stream); break; /* its stencil bits */
    default: launch<RS_LIVE_INDEX>(kp, set, stream); break;
    }
    return cudaGetLastError();
}
