/* kernel_connect.cu - thin wrapper: queue entry -> rs_stage_connect (any-hit shadow ray), one
 * kernel per acceleration structure. The queue is dense, so no dead-ray strategy applies; the
 * launch covers an upper bound and each thread checks the true count, which stays on the
 * device. nvcc. */
#include "../src/kernel/stage_connect.h"
#include "kernels.cuh"
#include "trace_stack.cuh"

template <int Accel>
__global__ void __launch_bounds__(RS_TRACE_BLOCK) rs_kernel_connect(RsKernelParams kp, const uint32_t* shadow_count)
{
    RS_TRACE_STACK_DECLARE(Accel, stack);
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < *shadow_count)
        rs_stage_connect_with(&kp, i, Accel, stack);
}

cudaError_t rs_launch_connect(const RsKernelParams& kp, const uint32_t* shadow_count, uint32_t max_shadows,
                              cudaStream_t stream)
{
    if (max_shadows == 0)
        return cudaSuccess;
    unsigned grid = rs_blocks_for(max_shadows, RS_TRACE_BLOCK);
    switch (kp.scene.accel.kind) {
    case RS_ACCEL_BVH8: rs_kernel_connect<RS_ACCEL_BVH8><<<grid, RS_TRACE_BLOCK, 0, stream>>>(kp, shadow_count); break;
    case RS_ACCEL_GRID: rs_kernel_connect<RS_ACCEL_GRID><<<grid, RS_TRACE_BLOCK, 0, stream>>>(kp, shadow_count); break;
    default: rs_kernel_connect<RS_ACCEL_BVH2><<<grid, RS_TRACE_BLOCK, 0, stream>>>(kp, shadow_count); break;
    }
    return cudaGetLastError();
}
