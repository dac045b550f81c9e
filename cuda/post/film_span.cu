/* film_span.cu - one span of the film (a run of pass-order indices, pixel_order.h) to or from a
 * packed buffer: how the renderer moves a span's samples between devices and the host when
 * several devices share an image; every plane of the film (aov.h) moves with it. nvcc. */
#include "cuda/stages/kernels.cuh"
#include "kernel/film/pixel_order.h"

/* Entry k of the packed buffer (plane k / pixels of the span's pixel k % pixels) in the film. */
static __device__ size_t rs_span_entry(uint32_t k, uint32_t width, uint32_t height, uint32_t first, uint32_t pixels)
{
    uint32_t plane = k / pixels, i = k - plane * pixels;
    return (size_t)plane * width * height + rs_pixel_of_index(first + i, width, height);
}

__global__ void rs_kernel_film_span_gather(const RsFloat4* film, uint32_t width, uint32_t height, uint32_t entries,
                                           uint32_t first, uint32_t pixels, RsFloat4* packed)
{
    uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < entries)
        packed[k] = film[rs_span_entry(k, width, height, first, pixels)];
}

__global__ void rs_kernel_film_span_scatter(RsFloat4* film, uint32_t width, uint32_t height, uint32_t entries,
                                            uint32_t first, uint32_t pixels, const RsFloat4* packed)
{
    uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < entries)
        film[rs_span_entry(k, width, height, first, pixels)] = packed[k];
}

cudaError_t rs_launch_film_span_gather(const RsFloat4* film, uint32_t width, uint32_t height, uint32_t planes,
                                       uint32_t first, uint32_t pixels, RsFloat4* packed, cudaStream_t stream)
{
    uint32_t entries = planes * pixels;
    if (entries == 0)
        return cudaSuccess;
    rs_kernel_film_span_gather<<<rs_blocks_for(entries, RS_BLOCK), RS_BLOCK, 0, stream>>>(film, width, height, entries,
                                                                                           first, pixels, packed);
    return cudaGetLastError();
}

cudaError_t rs_launch_film_span_scatter(RsFloat4* film, uint32_t width, uint32_t height, uint32_t planes,
                                        uint32_t first, uint32_t pixels, const RsFloat4* packed, cudaStream_t stream)
{
    uint32_t entries = planes * pixels;
    if (entries == 0)
        return cudaSuccess;
    rs_kernel_film_span_scatter<<<rs_blocks_for(entries, RS_BLOCK), RS_BLOCK, 0, stream>>>(
        film, width, height, entries, first, pixels, packed);
    return cudaGetLastError();
}
