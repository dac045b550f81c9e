/* test_gpu_sobol.cu - the sampler's numbers on the GPU equal the CPU's bit for bit, for each
 * sampler (gpu suite; exits 77 without a CUDA device). nvcc.
 *
 * sampler.h and sobol.h are shared code, but the device pass takes other branches (the bit
 * reversal is __brev there, a swap network on the host), so the same (seed, pixel, sample,
 * bounce, dimension) is drawn on both sides over sample indices up to 2^32 - 1.
 */
#include <stdio.h>
#include <string.h>

#include <vector>

#include "cuda_ok.cuh"
#include "tests/test.h"

#include "kernel/sampling/sampler.h"

enum { DRAWS = 1 << 16 };

/* draw i's arguments, the same on both sides */
RS_FN void draw_args(uint32_t i, uint32_t* seed, uint32_t* pixel, uint32_t* index, uint32_t* bounce, uint32_t* dim)
{
    uint32_t h = rs_hash_u32(i);
    *seed = h & 3u;
    *pixel = rs_hash_u32(h) & 0xfffffu;
    /* small indices, then everything up to 2^32 - 1 */
    *index = i < DRAWS / 2 ? i & 1023u : rs_hash_u32(h ^ 0x55u);
    *bounce = (h >> 8) & 15u;
    *dim = (h >> 12) % RS_DIM_COUNT;
}

__global__ void draw_kernel(uint32_t kind, float* out)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= DRAWS)
        return;
    uint32_t seed, pixel, index, bounce, dim;
    draw_args(i, &seed, &pixel, &index, &bounce, &dim);
    RsPathSampler ps = rs_sampler_path(kind, seed, pixel, index);
    out[i] = rs_sampler_1d(&ps, bounce, dim);
}

int main(void)
{
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        printf("no CUDA device: skipped\n");
        return 77;
    }
    float* d_out = NULL;
    CUDA_OK(cudaMalloc((void**)&d_out, DRAWS * sizeof(float)));
    std::vector<float> gpu(DRAWS);
    for (uint32_t kind = 0; kind < RS_SAMPLER_COUNT; ++kind) {
        draw_kernel<<<DRAWS / 256, 256>>>(kind, d_out);
        CUDA_OK(cudaGetLastError());
        CUDA_OK(cudaMemcpy(gpu.data(), d_out, DRAWS * sizeof(float), cudaMemcpyDeviceToHost));
        int differ = 0;
        for (uint32_t i = 0; i < DRAWS; ++i) {
            uint32_t seed, pixel, index, bounce, dim;
            draw_args(i, &seed, &pixel, &index, &bounce, &dim);
            RsPathSampler ps = rs_sampler_path(kind, seed, pixel, index);
            differ += rs_sampler_1d(&ps, bounce, dim) != gpu[i];
        }
        CHECK(differ == 0, "sampler %u: %d of %d numbers differ between the GPU and the CPU", kind, differ, (int)DRAWS);
    }
    CUDA_OK(cudaFree(d_out));
    return rs_test_finish("test_gpu_sobol");
}
