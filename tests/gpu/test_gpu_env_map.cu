/* test_gpu_env_map.cu - the environment map's CDF built on the GPU equals the CPU's (gpu suite;
 * exits 77 without a CUDA device). nvcc.
 *
 * The two run the same weight and normalisation code (src/kernel/light/env_map.h) and differ only in
 * the order of the prefix sums (the GPU's block scan against the CPU's loop), so every entry
 * of the row CDFs and the marginal must agree within float rounding, 2e-5. Maps: SKY_HDR
 * (128x64), random images whose rows are longer than a block's chunk (3000 x 5), whose
 * marginal is longer (7 x 2500), with odd sizes and black rows (1001 x 333), and a single
 * lit texel; the same as equal-area octahedral maps (pbrt-v4's; a random 300 x 300 map, one
 * lit texel on the border, whose weights reach across the wrapped edge). The GPU's table is then
 * sampled on the host: its samples report the density rs_env_map_pdf gives them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "cuda_ok.cuh"
#include "tests/test.h"

#include "cuda/backend/env_map_cdf.cuh"
extern "C" {
#include "host/scene/env_map.h"
}
#include "kernel/sampling/rng.h"

static void compare(const char* name, RsEnvMap* m)
{
    RsError err;
    memset(&err, 0, sizeof err);
    CHECK(rs_env_map_build_cdf(m, &err) == 0, "%s: %s", name, err.message);
    size_t cells = (size_t)m->width * m->height;
    RsFloat4* texels = NULL;
    float *rows = NULL, *marginal = NULL;
    CUDA_OK(cudaMalloc((void**)&texels, cells * sizeof(RsFloat4)));
    CUDA_OK(cudaMalloc((void**)&rows, cells * sizeof(float)));
    CUDA_OK(cudaMalloc((void**)&marginal, m->height * sizeof(float)));
    CUDA_OK(cudaMemcpy(texels, m->texels, cells * sizeof(RsFloat4), cudaMemcpyHostToDevice));
    RsEnvMapView device = rs_env_map_view(m);
    device.texels = texels;
    CUDA_OK(rs_cuda_env_cdf_build(&device, rows, marginal, 0));
    CUDA_OK(cudaDeviceSynchronize());
    std::vector<float> gpu_rows(cells), gpu_marginal(m->height);
    CUDA_OK(cudaMemcpy(gpu_rows.data(), rows, cells * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(gpu_marginal.data(), marginal, m->height * sizeof(float), cudaMemcpyDeviceToHost));
    double worst_row = 0.0, worst_marginal = 0.0;
    for (size_t i = 0; i < cells; ++i)
        worst_row = fmax(worst_row, fabs((double)gpu_rows[i] - m->row_cdf[i]));
    for (uint32_t y = 0; y < m->height; ++y)
        worst_marginal = fmax(worst_marginal, fabs((double)gpu_marginal[y] - m->marginal_cdf[y]));
    CHECK(worst_row <= 2e-5 && worst_marginal <= 2e-5, "%s: GPU and CPU CDFs differ by %.3g (rows), %.3g (marginal)",
          name, worst_row, worst_marginal);

    /* the GPU's table, sampled on the host, is self-consistent */
    RsEnvMapView host = rs_env_map_view(m);
    host.row_cdf = gpu_rows.data();
    host.marginal_cdf = gpu_marginal.data();
    uint32_t mismatched = 0, n = 20000;
    for (uint32_t i = 0; i < n; ++i) {
        float pdf;
        RsVec3 d = rs_env_map_sample(&host, rs_rng(7, i, 0), rs_rng(7, i, 1), &pdf);
        mismatched += pdf > 0.0f && fabsf(rs_env_map_pdf(&host, d) - pdf) > 1e-3f * pdf;
    }
    CHECK(mismatched < n / 1000, "%s: %u of %u samples of the GPU's table report another density", name, mismatched, n);
    printf("test_gpu_env_map: %-10s %5ux%-5u largest difference %.2g (rows) %.2g (marginal)\n", name, m->width,
           m->height, worst_row, worst_marginal);
    cudaFree(texels);
    cudaFree(rows);
    cudaFree(marginal);
}

static void random_map(RsEnvMap* m, uint32_t w, uint32_t h, uint32_t seed, int black_rows)
{
    std::vector<float> rgb((size_t)w * h * 3);
    for (size_t i = 0; i < (size_t)w * h; ++i) {
        uint32_t y = (uint32_t)(i / w);
        float scale = black_rows && y % 5 == 2 ? 0.0f : 1.0f;
        float spike = rs_rng(seed, (uint32_t)i, 3) < 0.001f ? 500.0f : 1.0f;
        for (int k = 0; k < 3; ++k)
            rgb[3 * i + k] = scale * spike * rs_rng(seed, (uint32_t)i, (uint32_t)k);
    }
    RsError err;
    memset(&err, 0, sizeof err);
    CHECK(rs_env_map_from_rgb(m, rgb.data(), w, h, &err) == 0, "%s", err.message);
}

int main(int argc, char** argv)
{
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        printf("no CUDA device: skipped\n");
        return 77;
    }
    if (argc != 2) {
        fprintf(stderr, "usage: test_gpu_env_map SKY_HDR\n");
        return 2;
    }
    RsEnvMap m;
    memset(&m, 0, sizeof m);
    RsError err;
    memset(&err, 0, sizeof err);
    CHECK(rs_env_map_load(&m, argv[1], "test", &err) == 0, "%s", err.message);
    if (m.width)
        compare("sky.hdr", &m);
    random_map(&m, 3000, 5, 1, 0);
    compare("long rows", &m);
    random_map(&m, 7, 2500, 2, 0);
    compare("tall", &m);
    random_map(&m, 1001, 333, 3, 1);
    compare("odd", &m);
    std::vector<float> one(16 * 8 * 3, 0.0f);
    one[(3 * 16 + 5) * 3] = 1.0f;
    CHECK(rs_env_map_from_rgb(&m, one.data(), 16, 8, &err) == 0, "%s", err.message);
    compare("one texel", &m);
    const double identity[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    random_map(&m, 300, 300, 4, 1);
    CHECK(rs_env_map_set_octahedral(&m, identity, "test", &err) == 0, "%s", err.message);
    compare("octahedral", &m);
    std::vector<float> edge(16 * 16 * 3, 0.0f);
    edge[(5 * 16 + 0) * 3 + 1] = 1.0f;
    CHECK(rs_env_map_from_rgb(&m, edge.data(), 16, 16, &err) == 0 &&
              rs_env_map_set_octahedral(&m, identity, "test", &err) == 0,
          "%s", err.message);
    compare("oct. edge", &m);
    rs_env_map_free(&m);
    return rs_test_finish("test_gpu_env_map");
}
