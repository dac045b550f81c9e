/* film_span.cu - one span of the film (a run of pass-order indices, pixel_order.h) to or from a
 * packed buffer: how the renderer moves a span's samples between devices and the host when
 * several devices share an image. nvcc. */
#include "../src/kernel/pixel_order.h"
#include "kernels.cuh"

__global__ void rs_kernel_film_span_gather(const RsFloat4* film, uint32_t width, uint32_t height, uint32_t first,
                                           uint32_t pixels, RsFloat4* packed)
{
    uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < pixels)
        packed[k] = film[rs_pixel_of_index(first + k, width, height)];
}

__global__ void rs_kernel_film_span_scatter(RsFloat4* film, uint32_t width, uint32_t height, uint32_t first,
                                            uint32_t pixels, const RsFloat4* packed)
{
    uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < pixels)
        film[rs_pixel_of_index(first + k, width, height)] = packed[k];
}

cudaError_t rs_launch_film_span_gather(const RsFloat4* film, uint32_t width, uint32_t height, uint32_t first,
                                       uint32_t pixels, RsFloat4* packed, cudaStream_t stream)
{
    if (pixels == 0)
        return cudaSuccess;
    rs_kernel_film_span_gather<<<rs_blocks_for(pixels, RS_BLOCK), RS_BLOCK, 0, stream>>>(film, width, height, first,
                                                                                          pixels, packed);
    return cudaGetLastError();
}

cudaError_t rs_launch_film_span_scatter(RsFloat4* film, uint32_t width, uint32_t height, uint32_t first,
                                        uint32_t pixels, const RsFloat4* packed, cudaStream_t stream)
{
    if (pixels == 0)
        return cudaSuccess;
    rs_kernel_film_span_scatter<<<rs_blocks_for(pixels, RS_BLOCK), RS_BLOCK, 0, stream>>>(film, width, height, first,
                                                                                           pixels, packed);
    return cudaGetLastError();
}
