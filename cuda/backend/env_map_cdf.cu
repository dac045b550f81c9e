/* env_map_cdf.cu - the environment map's CDF on the GPU (see env_map_cdf.cuh). nvcc.
 *
 * Three launches, one per step of src/kernel/light/env_map.h: every cell's weight (one thread per
 * cell); one block per row scanning it with rs_block_scan_array, writing the row's total to the
 * marginal and normalising the row; one block scanning and normalising the marginal. The CPU
 * runs the same weight and normalisation functions with a sequential sum, so the two tables
 * agree to float rounding (test_gpu_env_map).
 */
#include "cuda/backend/env_map_cdf.cuh"
#include "cuda/deadray/block_scan.cuh"

#define RS_ENV_CDF_THREADS 256

__global__ void rs_env_cdf_weights(RsEnvMapView map, float* row_cdf)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (size_t)map.width * map.height)
        return;
    uint32_t y = (uint32_t)(i / map.width), x = (uint32_t)(i % map.width);
    row_cdf[i] = rs_env_cdf_weight(&map, x, y);
}

__global__ void rs_env_cdf_rows(float* row_cdf, uint32_t width, float* marginal_cdf)
{
    float* row = row_cdf + (size_t)blockIdx.x * width;
    float total = rs_block_scan_array<float>(row, width, true);
    for (uint32_t x = threadIdx.x; x < width; x += blockDim.x)
        row[x] = rs_env_cdf_normalize(row[x], total, x, width);
    if (threadIdx.x == 0)
        marginal_cdf[blockIdx.x] = total;
}

__global__ void rs_env_cdf_marginal(float* marginal_cdf, uint32_t height)
{
    float total = rs_block_scan_array<float>(marginal_cdf, height, true);
    for (uint32_t y = threadIdx.x; y < height; y += blockDim.x)
        marginal_cdf[y] = rs_env_cdf_normalize(marginal_cdf[y], total, y, height);
}

cudaError_t rs_cuda_env_cdf_build(const RsEnvMapView* map, float* row_cdf, float* marginal_cdf, cudaStream_t stream)
{
    size_t cells = (size_t)map->width * map->height;
    if (cells == 0)
        return cudaSuccess;
    unsigned blocks = (unsigned)((cells + RS_ENV_CDF_THREADS - 1) / RS_ENV_CDF_THREADS);
    rs_env_cdf_weights<<<blocks, RS_ENV_CDF_THREADS, 0, stream>>>(*map, row_cdf);
    rs_env_cdf_rows<<<map->height, RS_ENV_CDF_THREADS, 0, stream>>>(row_cdf, map->width, marginal_cdf);
    rs_env_cdf_marginal<<<1, 1024, 0, stream>>>(marginal_cdf, map->height);
    return cudaGetLastError();
}
