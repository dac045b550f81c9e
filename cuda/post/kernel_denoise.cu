/* kernel_denoise.cu - thin wrappers: one thread per pixel for each pass of denoise.h, and for
 * the layer images of aov.h. Blocks are 16 x 16 pixels so that a block's taps share cache
 * lines in both directions. nvcc. */
#include <string.h>

#include "cuda/post/denoise.cuh"

#define RS_DENOISE_TILE 16

static __device__ bool rs_denoise_pixel(const RsDenoiseBuffers& d, uint32_t* x, uint32_t* y)
{
    *x = blockIdx.x * blockDim.x + threadIdx.x;
    *y = blockIdx.y * blockDim.y + threadIdx.y;
    return *x < d.width && *y < d.height;
}

__global__ void rs_kernel_denoise_prepare(RsDenoiseBuffers d)
{
    uint32_t x, y;
    if (rs_denoise_pixel(d, &x, &y))
        rs_denoise_prepare(&d, x, y);
}

__global__ void rs_kernel_denoise_variance(RsDenoiseBuffers d, RsDenoiseSettings s)
{
    uint32_t x, y;
    if (rs_denoise_pixel(d, &x, &y))
        rs_denoise_variance(&d, &s, x, y);
}

__global__ void rs_kernel_denoise_atrous(RsDenoiseBuffers d, RsDenoiseSettings s, uint32_t from, uint32_t step_log2)
{
    uint32_t x, y;
    if (rs_denoise_pixel(d, &x, &y))
        rs_denoise_atrous(&d, &s, from, step_log2, x, y);
}

__global__ void rs_kernel_denoise_finish(RsDenoiseBuffers d, uint32_t final_buffer)
{
    uint32_t x, y;
    if (rs_denoise_pixel(d, &x, &y))
        rs_denoise_finish(&d, final_buffer, x, y);
}

__global__ void rs_kernel_film_layer(RsDenoiseBuffers d, uint32_t layer, int for_display)
{
    uint32_t x, y;
    if (!rs_denoise_pixel(d, &x, &y))
        return;
    uint32_t pixel = y * d.width + x, pixels = d.width * d.height;
    d.out[pixel] = for_display ? rs_film_layer_display(d.film, pixels, pixel, layer)
                               : rs_film_layer(d.film, pixels, pixel, layer);
}

cudaError_t rs_denoise_scratch_gpu_reserve(RsDenoiseScratchGpu* s, uint32_t pixels)
{
    if (s->pixels == pixels && s->guide)
        return cudaSuccess;
    rs_denoise_scratch_gpu_free(s);
    RsFloat4** all[] = {&s->guide, &s->factor, &s->moments, &s->lighting[0], &s->lighting[1]};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) {
        cudaError_t e = cudaMalloc((void**)all[i], (size_t)pixels * sizeof(RsFloat4));
        if (e != cudaSuccess) {
            rs_denoise_scratch_gpu_free(s);
            return e;
        }
    }
    s->pixels = pixels;
    return cudaSuccess;
}

void rs_denoise_scratch_gpu_free(RsDenoiseScratchGpu* s)
{
    cudaFree(s->guide);
    cudaFree(s->factor);
    cudaFree(s->moments);
    cudaFree(s->lighting[0]);
    cudaFree(s->lighting[1]);
    memset(s, 0, sizeof *s);
}

static dim3 rs_denoise_grid(uint32_t width, uint32_t height)
{
    return dim3((width + RS_DENOISE_TILE - 1) / RS_DENOISE_TILE, (height + RS_DENOISE_TILE - 1) / RS_DENOISE_TILE);
}

cudaError_t rs_launch_denoise(const RsFloat4* film, uint32_t width, uint32_t height, const RsDenoiseSettings* settings,
                              RsDenoiseScratchGpu* s, RsFloat4* out, cudaStream_t stream)
{
    if (width == 0 || height == 0)
        return cudaSuccess;
    RsDenoiseBuffers d = {width, height, film, s->guide, s->factor, s->moments, {s->lighting[0], s->lighting[1]}, out};
    dim3 grid = rs_denoise_grid(width, height), block(RS_DENOISE_TILE, RS_DENOISE_TILE);
    rs_kernel_denoise_prepare<<<grid, block, 0, stream>>>(d);
    rs_kernel_denoise_variance<<<grid, block, 0, stream>>>(d, *settings);
    for (uint32_t i = 0; i < settings->iterations; ++i)
        rs_kernel_denoise_atrous<<<grid, block, 0, stream>>>(d, *settings, i & 1u, i);
    rs_kernel_denoise_finish<<<grid, block, 0, stream>>>(d, settings->iterations & 1u);
    return cudaGetLastError();
}

cudaError_t rs_launch_film_layer(const RsFloat4* film, uint32_t width, uint32_t height, uint32_t layer,
                                 int for_display, RsFloat4* out, cudaStream_t stream)
{
    if (width == 0 || height == 0)
        return cudaSuccess;
    RsDenoiseBuffers d = {width, height, film, NULL, NULL, NULL, {NULL, NULL}, out};
    rs_kernel_film_layer<<<rs_denoise_grid(width, height), dim3(RS_DENOISE_TILE, RS_DENOISE_TILE), 0, stream>>>(
        d, layer, for_display);
    return cudaGetLastError();
}
