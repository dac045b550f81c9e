/* kernel_generate.cu - thin wrapper: thread -> slot -> rs_stage_generate, plus the dead-ray
 * strategy's fresh state for the wave: every row alive, but for the paths of pixels that
 * adaptive sampling stopped (rs_stage_generate's verdict); compaction then drops those in the
 * drop_dead that follows generate (host/render/wavefront.c). nvcc. */
#include "cuda/stages/kernels.cuh"
#include "kernel/stages/stage_generate.h"

template <int Mode>
__global__ void rs_kernel_generate(const __grid_constant__ RsKernelParams kp, RsLiveSet set)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    bool in_wave = i < kp.wave_paths;
    bool alive = in_wave && rs_stage_generate(&kp, i);
    if (Mode == RS_LIVE_FLAGS) {
        if (in_wave)
            set.alive[i] = alive ? 1u : 0u;
    } else if (Mode == RS_LIVE_STENCIL || Mode == RS_LIVE_PERSISTENT) {
        /* every lane reaches the ballot; lanes past the wave contribute a clear bit */
        uint32_t word = __ballot_sync(RS_FULL_WARP, alive);
        if ((threadIdx.x & 31u) == 0 && i < kp.wave_paths)
            set.stencil[i >> 5] = word;
    } else if (in_wave) {
        set.index[i] = i;
        set.keep[i] = alive ? 1u : 0u;
    }
}

cudaError_t rs_launch_generate(const RsKernelParams& kp, const RsLiveSet& set, int mode, cudaStream_t stream)
{
    unsigned grid = rs_blocks_for(kp.wave_paths, RS_BLOCK);
    switch (mode) {
    case RS_LIVE_FLAGS: rs_kernel_generate<RS_LIVE_FLAGS><<<grid, RS_BLOCK, 0, stream>>>(kp, set); break;
    case RS_LIVE_STENCIL: rs_kernel_generate<RS_LIVE_STENCIL><<<grid, RS_BLOCK, 0, stream>>>(kp, set); break;
    case RS_LIVE_PERSISTENT: rs_kernel_generate<RS_LIVE_PERSISTENT><<<grid, RS_BLOCK, 0, stream>>>(kp, set); break;
    default: rs_kernel_generate<RS_LIVE_INDEX><<<grid, RS_BLOCK, 0, stream>>>(kp, set); break;
    }
    return cudaGetLastError();
}
