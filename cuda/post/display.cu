/* display.cu - luminance reduction, histogram and tone mapping kernels (see display.cuh). nvcc. */
#include <string.h>

#include "cuda/post/display.cuh"
#include "cuda/stages/kernels.cuh"

__global__ void rs_kernel_luminance(const RsFloat4* film, uint32_t pixels, float* partial_sum, float* partial_max,
                                    uint32_t* partial_count, uint32_t* partial_lit, uint32_t* histogram)
{
    __shared__ uint32_t bins[RS_HIST_BINS];
    __shared__ float warp_sum[RS_BLOCK / 32], warp_max[RS_BLOCK / 32];
    __shared__ uint32_t warp_count[RS_BLOCK / 32], warp_lit[RS_BLOCK / 32];
    for (uint32_t b = threadIdx.x; b < RS_HIST_BINS; b += blockDim.x)
        bins[b] = 0;
    __syncthreads();
    float sum = 0.0f, mx = 0.0f;
    uint32_t count = 0, lit = 0;
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < pixels; i += gridDim.x * blockDim.x) {
        RsFloat4 f = film[i];
        if (!(f.w > 0.0f))
            continue;
        float lum = rs_luminance(rs_film_pixel(f));
        if (lum > 0.0f) {
            sum += logf(RS_LOG_DELTA + lum);
            lit++;
        }
        mx = fmaxf(mx, lum);
        count++;
        atomicAdd(&bins[rs_hist_bin(lum)], 1u); /* scatter into the block's own histogram */
    }
    /* block reduction: shuffles inside each warp, then the warps' results */
    for (int d = 16; d > 0; d >>= 1) {
        sum += __shfl_down_sync(0xffffffffu, sum, d);
        mx = fmaxf(mx, __shfl_down_sync(0xffffffffu, mx, d));
        count += __shfl_down_sync(0xffffffffu, count, d);
        lit += __shfl_down_sync(0xffffffffu, lit, d);
    }
    uint32_t lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    if (lane == 0) {
        warp_sum[warp] = sum;
        warp_max[warp] = mx;
        warp_count[warp] = count;
        warp_lit[warp] = lit;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        float s = 0.0f, m = 0.0f;
        uint32_t c = 0, l = 0;
        for (uint32_t w = 0; w < blockDim.x / 32; ++w) {
            s += warp_sum[w];
            m = fmaxf(m, warp_max[w]);
            c += warp_count[w];
            l += warp_lit[w];
        }
        partial_sum[blockIdx.x] = s;
        partial_max[blockIdx.x] = m;
        partial_count[blockIdx.x] = c;
        partial_lit[blockIdx.x] = l;
    }
    for (uint32_t b = threadIdx.x; b < RS_HIST_BINS; b += blockDim.x)
        if (bins[b])
            atomicAdd(&histogram[b], bins[b]);
}

/* One thread sums the block partials in order (at most RS_DISPLAY_MAX_BLOCKS): deterministic. */
__global__ void rs_kernel_finish_stats(const float* partial_sum, const float* partial_max,
                                       const uint32_t* partial_count, const uint32_t* partial_lit, uint32_t blocks,
                                       float manual_ev, int auto_exposure, RsDeviceDisplayStats* stats)
{
    double sum = 0.0;
    float mx = 0.0f;
    uint32_t count = 0, lit = 0;
    for (uint32_t b = 0; b < blocks; ++b) {
        sum += partial_sum[b];
        mx = fmaxf(mx, partial_max[b]);
        count += partial_count[b];
        lit += partial_lit[b];
    }
    stats->sum_log = sum;
    stats->log_average = lit ? exp(sum / lit) : 0.0;
    stats->max_luminance = mx;
    stats->pixels = count;
    stats->exposure = rs_exposure_ev(manual_ev, auto_exposure, stats->log_average);
}

__global__ void rs_kernel_tonemap(const RsFloat4* film, uint32_t pixels, uint32_t curve,
                                  const RsDeviceDisplayStats* stats, uchar4* rgba)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= pixels)
        return;
    uint8_t c[3];
    rs_tonemap_rgb(rs_film_pixel(film[i]), exp2f(stats->exposure), curve, c);
    rgba[i] = make_uchar4(c[0], c[1], c[2], 255);
}

cudaError_t rs_display_scratch_alloc(RsDisplayScratch* s, uint32_t pixels)
{
    memset(s, 0, sizeof *s);
    cudaError_t e = cudaMalloc(&s->partial_sum, RS_DISPLAY_MAX_BLOCKS * sizeof(float));
    if (e == cudaSuccess) e = cudaMalloc(&s->partial_max, RS_DISPLAY_MAX_BLOCKS * sizeof(float));
    if (e == cudaSuccess) e = cudaMalloc(&s->partial_count, RS_DISPLAY_MAX_BLOCKS * sizeof(uint32_t));
    if (e == cudaSuccess) e = cudaMalloc(&s->partial_lit, RS_DISPLAY_MAX_BLOCKS * sizeof(uint32_t));
    if (e == cudaSuccess) e = cudaMalloc(&s->stats, sizeof(RsDeviceDisplayStats));
    if (e == cudaSuccess) e = cudaMalloc(&s->rgba, (size_t)pixels * 4);
    if (e != cudaSuccess)
        rs_display_scratch_free(s);
    else
        s->capacity = pixels;
    return e;
}

void rs_display_scratch_free(RsDisplayScratch* s)
{
    cudaFree(s->partial_sum);
    cudaFree(s->partial_max);
    cudaFree(s->partial_count);
    cudaFree(s->partial_lit);
    cudaFree(s->stats);
    cudaFree(s->rgba);
    memset(s, 0, sizeof *s);
}

cudaError_t rs_launch_display(const RsFloat4* film, uint32_t pixels, float manual_ev, int auto_exposure,
                              uint32_t curve, RsDisplayScratch* s, cudaStream_t stream)
{
    unsigned blocks = rs_blocks_for(pixels, RS_BLOCK);
    blocks = blocks < RS_DISPLAY_MAX_BLOCKS ? (blocks ? blocks : 1) : RS_DISPLAY_MAX_BLOCKS;
    cudaError_t e = cudaMemsetAsync(s->stats, 0, sizeof(RsDeviceDisplayStats), stream);
    if (e != cudaSuccess)
        return e;
    rs_kernel_luminance<<<blocks, RS_BLOCK, 0, stream>>>(film, pixels, s->partial_sum, s->partial_max,
                                                          s->partial_count, s->partial_lit, s->stats->histogram);
    rs_kernel_finish_stats<<<1, 1, 0, stream>>>(s->partial_sum, s->partial_max, s->partial_count, s->partial_lit,
                                                blocks, manual_ev, auto_exposure, s->stats);
    if (s->rgba)
        rs_kernel_tonemap<<<rs_blocks_for(pixels, RS_BLOCK), RS_BLOCK, 0, stream>>>(film, pixels, curve, s->stats,
                                                                                    (uchar4*)s->rgba);
    return cudaGetLastError();
}
