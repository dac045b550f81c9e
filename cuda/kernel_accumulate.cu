/* kernel_accumulate.cu - thin wrapper: pixel -> rs_stage_accumulate (the wave's paths of this
 * pixel, in sample order). nvcc. */
#include "../src/kernel/stage_accumulate.h"
#include "kernels.cuh"

__global__ void rs_kernel_accumulate(RsKernelParams kp)
{
    uint32_t pixel = blockIdx.x * blockDim.x + threadIdx.x;
    if (pixel < kp.width * kp.height)
        rs_stage_accumulate(&kp, pixel);
}

cudaError_t rs_launch_accumulate(const RsKernelParams& kp, cudaStream_t stream)
{
    rs_kernel_accumulate<<<rs_blocks_for((unsigned long long)kp.width * kp.height, RS_BLOCK), RS_BLOCK, 0, stream>>>(kp);
    return cudaGetLastError();
}
