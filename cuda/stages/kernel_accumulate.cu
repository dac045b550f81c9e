/* kernel_accumulate.cu - thin wrappers: one thread per pixel the wave touches ->
 * rs_stage_accumulate (that pixel's paths of the wave, in sample order); and one per pixel of
 * a span at an adaptive-sampling decision pass -> rs_adaptive_update. nvcc. */
#include "cuda/stages/kernels.cuh"
#include "kernel/film/adaptive.h"
#include "kernel/stages/stage_accumulate.h"

__global__ void rs_kernel_accumulate(const __grid_constant__ RsKernelParams kp)
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

__global__ void rs_kernel_adaptive_update(const __grid_constant__ RsKernelParams kp, uint32_t span_pixels)
{
    uint32_t lane = blockIdx.x * blockDim.x + threadIdx.x;
    if (lane < span_pixels)
        rs_adaptive_update(&kp, lane);
}

cudaError_t rs_launch_adaptive_update(const RsKernelParams& kp, uint32_t span_pixels, cudaStream_t stream)
{
    if (span_pixels == 0)
        return cudaSuccess;
    rs_kernel_adaptive_update<<<rs_blocks_for(span_pixels, RS_BLOCK), RS_BLOCK, 0, stream>>>(kp, span_pixels);
    return cudaGetLastError();
}
