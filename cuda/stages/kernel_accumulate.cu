/* kernel_accumulate.cu - thin wrapper: one thread per pixel the wave touches ->
 * rs_stage_accumulate (that pixel's paths of the wave, in sample order). nvcc. */
#include "cuda/stages/kernels.cuh"
#include "kernel/stages/stage_accumulate.h"

__global__ void rs_kernel_accumulate(RsKernelParams kp)
{
    uint32_t lane = blockIdx.x * blockDim.x + threadIdx.x;
    if (lane < rs_accumulate_count(&kp))
        rs_stage_accumulate(&kp, lane);
}

cudaError_t rs_launch_accumulate(const RsKernelParams& kp, cudaStream_t stream)
{
    uint32_t count = rs_accumulate_count(&kp);
    if (count == 0)
        return cudaSuccess;
    rs_kernel_accumulate<<<rs_blocks_for(count, RS_BLOCK), RS_BLOCK, 0, stream>>>(kp);
    return cudaGetLastError();
}
