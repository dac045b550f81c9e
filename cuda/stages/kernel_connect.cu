/* kernel_connect.cu - thin wrapper: queue entry -> rs_stage_connect (any-hit shadow ray), one
 * kernel per acceleration structure. The queue is dense, so no dead-ray strategy applies; the
 * launch covers an upper bound and each thread checks the true count, which stays on the
 * device. nvcc. */
#include "cuda/stages/kernels.cuh"
#include "cuda/stages/trace_stack.cuh"
#include "kernel/stages/stage_connect.h"

template <int Accel>
__global__ void __launch_bounds__(RS_TRACE_BLOCK) rs_kernel_connect(const __grid_constant__ RsKernelParams kp, const uint32_t* shadow_count)
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
    /* a scene without cut-outs gets kernels compiled without the test (accel.h); a scene with
     * instances, the two-level kernels */
    const uint32_t plain = rs_accel_has_cutouts(&kp.scene.accel) ? 0u : RS_ACCEL_NO_CUTOUTS;
#define RS_CONNECT(a) rs_kernel_connect<a><<<grid, RS_TRACE_BLOCK, 0, stream>>>(kp, shadow_count)
    switch (rs_accel_run_kind(&kp.scene.accel) | plain) {
    case RS_ACCEL_BVH8 | RS_ACCEL_INSTANCES: RS_CONNECT(RS_ACCEL_BVH8 | RS_ACCEL_INSTANCES); break;
    case RS_ACCEL_BVH8 | RS_ACCEL_INSTANCES | RS_ACCEL_NO_CUTOUTS:
        RS_CONNECT(RS_ACCEL_BVH8 | RS_ACCEL_INSTANCES | RS_ACCEL_NO_CUTOUTS);
        break;
    case RS_ACCEL_BVH2 | RS_ACCEL_INSTANCES: RS_CONNECT(RS_ACCEL_BVH2 | RS_ACCEL_INSTANCES); break;
    case RS_ACCEL_BVH2 | RS_ACCEL_INSTANCES | RS_ACCEL_NO_CUTOUTS:
        RS_CONNECT(RS_ACCEL_BVH2 | RS_ACCEL_INSTANCES | RS_ACCEL_NO_CUTOUTS);
        break;
    case RS_ACCEL_BVH8: RS_CONNECT(RS_ACCEL_BVH8); break;
    case RS_ACCEL_BVH8 | RS_ACCEL_NO_CUTOUTS: RS_CONNECT(RS_ACCEL_BVH8 | RS_ACCEL_NO_CUTOUTS); break;
    case RS_ACCEL_GRID: RS_CONNECT(RS_ACCEL_GRID); break;
    case RS_ACCEL_GRID | RS_ACCEL_NO_CUTOUTS: RS_CONNECT(RS_ACCEL_GRID | RS_ACCEL_NO_CUTOUTS); break;
    case RS_ACCEL_BVH2 | RS_ACCEL_NO_CUTOUTS: RS_CONNECT(RS_ACCEL_BVH2 | RS_ACCEL_NO_CUTOUTS); break;
    default: RS_CONNECT(RS_ACCEL_BVH2); break;
    }
#undef RS_CONNECT
    return cudaGetLastError();
}
