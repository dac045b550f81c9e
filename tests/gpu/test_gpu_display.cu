/* test_gpu_display.cu - the display pipeline's GPU kernels (luminance reduction, histogram,
 * tone mapping) against the host versions on random films, including sizes that are not
 * multiples of the block size (gpu suite; exits 77 without a CUDA device). nvcc.
 * Tolerances: log-average 1e-5 relative (float block partials vs one double sum), maximum
 * 1e-6 relative (nvcc fuses the luminance's multiply-adds), counts exact, histogram bins may differ only where log2f rounds across a bin edge (at most
 * 1 pixel in 10^4), tone-mapped bytes by at most one level (powf on the GPU vs glibc). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "cuda_ok.cuh"
#include "tests/test.h"

#include "cuda/post/display.cuh"
extern "C" {
#include "host/backend/cpu/display_cpu.h"
}


int main()
{
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        printf("no CUDA device: skipped\n");
        return 77;
    }
    const uint32_t sizes[] = {1, 255, 257, 100003, 1280 * 720 + 5};
    for (uint32_t n : sizes) {
        std::vector<RsFloat4> film(n);
        srand(n);
        for (uint32_t i = 0; i < n; ++i) {
            float w = (float)(rand() % 5);
            float l = rand() % 7 == 0 ? 0.0f : powf(2.0f, (float)rand() / RAND_MAX * 20.0f - 14.0f); /* 0, 2^-14..2^6 */
            film[i] = rs_float4(l * w, 0.3f * l * w, 1.7f * l * w, w);
        }
        RsFloat4* d_film;
        CUDA_OK(cudaMalloc(&d_film, n * sizeof(RsFloat4)));
        CUDA_OK(cudaMemcpy(d_film, film.data(), n * sizeof(RsFloat4), cudaMemcpyHostToDevice));
        RsDisplayScratch s;
        CUDA_OK(rs_display_scratch_alloc(&s, n));
        for (uint32_t curve = 0; curve < RS_TONE_COUNT; ++curve) {
            RsDisplaySettings settings = {0.25f, 1, curve, RS_LAYER_BEAUTY, 0};
            CUDA_OK(rs_launch_display(d_film, n, settings.exposure, settings.auto_exposure, curve, &s, 0));
            RsDeviceDisplayStats g;
            std::vector<uint8_t> rgba(n * 4), ref(n * 4);
            CUDA_OK(cudaMemcpy(&g, s.stats, sizeof g, cudaMemcpyDeviceToHost));
            CUDA_OK(cudaMemcpy(rgba.data(), s.rgba, n * 4, cudaMemcpyDeviceToHost));
            RsDisplayStats c;
            rs_display_stats_cpu(film.data(), n, &c);
            float ev = rs_display_exposure(&settings, &c);
            rs_display_tonemap_cpu(film.data(), 0, n, ev, curve, ref.data());
            CHECK(g.pixels == c.pixels, "n=%u: %u pixels vs %u", n, g.pixels, c.pixels);
            CHECK(fabs(g.log_average - c.log_average) <= 1e-5 * c.log_average, "n=%u: log-average %.9g vs %.9g", n,
                  g.log_average, c.log_average);
            CHECK(fabsf(g.max_luminance - c.max_luminance) <= 1e-6f * c.max_luminance, "n=%u: max %.9g vs %.9g", n,
                  g.max_luminance, c.max_luminance);
            CHECK(fabsf(g.exposure - ev) <= 1e-4f, "n=%u: exposure %g vs %g", n, g.exposure, ev);
            uint32_t moved = 0, total = 0;
            for (int b = 0; b < RS_HIST_BINS; ++b) {
                moved += (uint32_t)abs((int)g.histogram[b] - (int)c.histogram[b]);
                total += g.histogram[b];
            }
            CHECK(total == c.pixels && moved <= 2 + c.pixels / 10000, "n=%u: histogram differs in %u counts", n, moved);
            int worst = 0;
            for (uint32_t i = 0; i < n * 4; ++i)
                worst = abs((int)rgba[i] - (int)ref[i]) > worst ? abs((int)rgba[i] - (int)ref[i]) : worst;
            CHECK(worst <= 1, "n=%u curve %u: tone-mapped bytes differ by %d levels", n, curve, worst);
        }
        rs_display_scratch_free(&s);
        cudaFree(d_film);
    }
    return rs_test_finish("test_gpu_display");
}
