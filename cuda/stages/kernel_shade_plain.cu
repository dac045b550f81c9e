/* kernel_shade_plain.cu - the plain scene's shade kernels (kernel_shade.cuh: no textures, no
 * instances), in a file of their own so that nvcc compiles them beside the others. nvcc. */
#include "cuda/stages/kernel_shade.cuh"

void rs_launch_shade_plain(const RsKernelParams& kp, const RsLiveSet& set, int mode, RsGridCache* grids,
                           cudaStream_t stream)
{
    rs_launch_shade_kind<RS_SHADE_CAMERA_PLAIN>(kp, set, mode, grids, stream);
}
