/* kernel_connect.cu - thin wrapper: queue entry -> rs_stage_connect (any-hit shadow ray).
 * The queue is dense, so no dead-ray strategy applies; the launch covers an upper bound and
 * each thread checks the true count, which stays on the device. nvcc. */
#include "../src/kernel/stage_connect.h"
#include "kernels.cuh"

__global__ void rs_kernel_connect(RsKernelParams kp, const uint32_t* shadow_count)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < *shadow_count)
        rs_stage_connect(&kp, i);
}

cudaError_t rs_launch_connect(const RsKernelParams& kp, const uint32_t* shadow_count, uint32_t max_shadows,
                              cudaStream_t stream)
{
    if (max_shadows == 0)
        return cudaSuccess;
    rs_kernel_connect<<<rs_blocks_for(max_shadows, RS_BLOCK), RS_BLOCK, 0, stream>>>(kp, shadow_count);
    return cudaGetLastError();
}
