/* kernel_shade.cu - shade's launch (kernel_shade.cuh): a particle wave's kernel, a plain
 * scene's (kernel_shade_plain.cu) or the general one, for the wave's dead-ray mode. nvcc. */
#include "cuda/stages/kernel_shade.cuh"

cudaError_t rs_launch_shade(const RsKernelParams& kp, const RsLiveSet& set, int mode, RsGridCache* grids,
                            cudaStream_t stream)
{
    if (kp.particles.phase == RS_PHASE_PARTICLES)
        rs_launch_shade_kind<RS_SHADE_PARTICLES>(kp, set, mode, grids, stream);
    else if (rs_scene_is_plain(&kp.scene))
        rs_launch_shade_plain(kp, set, mode, grids, stream);
    else
        rs_launch_shade_kind<RS_SHADE_CAMERA>(kp, set, mode, grids, stream);
    return cudaGetLastError();
}
