/* device_query.cu - what the program asks of CUDA without a backend (is it built, how many
 * devices, their description and properties), and the persistent-threads grid size the stage
 * launchers ask for, worked out per device.
 *
 * Device-side host glue (nvcc).
 */
#include <stdio.h>
#include <string.h>

#include "cuda/stages/kernels.cuh"

extern "C" {
#include "host/backend/backend.h"
}

unsigned rs_persistent_grid_cached(RsGridCache* cache, const void* kernel, unsigned block)
{
    for (int i = 0; i < cache->count; ++i)
        if (cache->kernel[i] == kernel)
            return cache->grid[i];
    unsigned grid = rs_persistent_grid(kernel, block);
    if (cache->count < RS_GRID_CACHE_SIZE) {
        cache->kernel[cache->count] = kernel;
        cache->grid[cache->count++] = grid;
    }
    return grid;
}

unsigned rs_persistent_grid(const void* kernel, unsigned block)
{
    int device = 0, sms = 0, per_sm = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, (int)block, 0) != cudaSuccess)
        return 1;
    return (unsigned)(sms * (per_sm > 0 ? per_sm : 1));
}

extern "C" int rs_cuda_built(void) { return 1; }

extern "C" int rs_cuda_device_count(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError(); /* clear the sticky "no driver" error */
        return 0;
    }
    return n;
}

extern "C" int rs_cuda_describe(char* out, size_t size)
{
    int runtime = 0, driver = 0, n = 0;
    cudaRuntimeGetVersion(&runtime);
    cudaDriverGetVersion(&driver);
    cudaError_t e = cudaGetDeviceCount(&n);
    size_t used = (size_t)snprintf(out, size, "CUDA runtime %d.%d, driver %d.%d\n", runtime / 1000,
                                   runtime % 1000 / 10, driver / 1000, driver % 1000 / 10);
    if (e != cudaSuccess) {
        cudaGetLastError();
        snprintf(out + used, size > used ? size - used : 0, "no CUDA device: %s\n", cudaGetErrorString(e));
        return 0;
    }
    for (int i = 0; i < n && used < size; ++i) {
        cudaDeviceProp p;
        if (cudaGetDeviceProperties(&p, i) != cudaSuccess)
            continue;
        used += (size_t)snprintf(out + used, size - used,
                                 "CUDA device %d: %s, %d SMs, %.1f GiB, compute capability %d.%d, L2 %d MiB\n", i,
                                 p.name, p.multiProcessorCount, p.totalGlobalMem / 1073741824.0, p.major, p.minor,
                                 p.l2CacheSize >> 20);
    }
    return 0;
}

extern "C" int rs_cuda_device_info(int device, RsDeviceInfo* info)
{
    int n = 0;
    cudaDeviceProp p;
    if (cudaGetDeviceCount(&n) != cudaSuccess || device < 0 || device >= n ||
        cudaGetDeviceProperties(&p, device) != cudaSuccess) {
        cudaGetLastError();
        return -1;
    }
    memset(info, 0, sizeof *info);
    snprintf(info->name, sizeof info->name, "%s", p.name);
    info->sm_count = p.multiProcessorCount;
    info->cc_major = p.major;
    info->cc_minor = p.minor;
    info->memory_bytes = p.totalGlobalMem;
    cudaDriverGetVersion(&info->driver_version);
    cudaRuntimeGetVersion(&info->runtime_version);
    return 0;
}
