/* sppm.cu - stochastic progressive photon mapping's per-chunk and per-pass steps on the GPU (see
 * sppm.cuh). nvcc, compiled with --fmad=false (cuda/meson.build).
 *
 * Resolve, all on one stream with one wait (for the photon count, which sizes the sort):
 *   max radius  one thread per pixel, a warp's max by shuffles, then atomicMax on the float's
 *               bits (radii are never negative, so their bits order as integers do; a max is the
 *               same whatever the order of the atomics)
 *   grid setup  one thread turns the max into the grid's cell size (photon_grid.h) in device
 *               memory, so the host never waits for it
 *   keys        one thread per photon: (bucket << 32) | order key
 *   sort        cub::DeviceRadixSort::SortPairs on bits [0, 32 + table bits)
 *   ranges      the tables zeroed, then one thread per sorted photon marks its bucket's run
 *               start and end (rs_photon_grid_mark_runs)
 *   gather      one thread per pixel, summing its photons sequentially in the fixed order
 * The per-item code is photon_grid.h's, as on the CPU (host/backend/cpu/sppm_cpu.c). This file
 * is compiled without fused multiply-adds so that the gather's arithmetic (the surface rebuilt
 * by shade_surface.h, the BSDF, the distance test) and the update round as gcc's do: the same
 * bits as the CPU for the same photons, which test_gpu_sppm checks. (Only a textured material's
 * lookups call the math library, atan2f and acosf for a sphere's coordinates, whose rounding
 * the two libraries need not share: there the backends may differ in the last bits, as their
 * images already do.)
 */
#include <cub/device/device_radix_sort.cuh>
#include <string.h>

#include "cuda/post/sppm.cuh"
#include "kernel/particle/photon_grid.h"

#define RS_SPPM_BLOCK 256

/* Every call below is checked; the first failure is returned (the launchers' convention). */
#define RS_SPPM_TRY(call)                  \
    do {                                   \
        cudaError_t rs_e_ = (call);        \
        if (rs_e_ != cudaSuccess)          \
            return rs_e_;                  \
    } while (0)

typedef struct SppmGpu {
    uint64_t* keys[2];   /* sort keys, double-buffered for the radix sort */
    uint32_t* index[2];  /* photon slots, sorted along */
    void* cub_temp;
    size_t cub_bytes;
    uint32_t* begin;     /* bucket ranges: 2^max_bits entries each */
    uint32_t* end;
    RsPhotonGrid* grid;  /* device: the chunk's grid, its cell set by the setup kernel */
    uint32_t* rmax_bits; /* device: the largest gather radius, as float bits */
    uint64_t* readback;  /* pinned host memory for the photon count */
    uint32_t capacity, max_bits;
} SppmGpu;

__global__ void rs_kernel_sppm_max_radius(const __grid_constant__ RsKernelParams kp, uint32_t pixels, uint32_t* rmax_bits)
{
    uint32_t p = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t bits = p < pixels ? rs_float_as_uint(rs_sppm_gather_radius(&kp, p)) : 0u;
    for (int offset = 16; offset > 0; offset >>= 1) {
        uint32_t other = __shfl_xor_sync(0xffffffffu, bits, offset);
        bits = other > bits ? other : bits;
    }
    if ((threadIdx.x & 31u) == 0 && bits)
        atomicMax(rmax_bits, bits);
}

__global__ void rs_kernel_sppm_grid_setup(RsPhotonGrid grid, const uint32_t* rmax_bits, RsPhotonGrid* out)
{
    rs_photon_grid_set_cell(&grid, rs_uint_as_float(*rmax_bits));
    *out = grid;
}

__global__ void rs_kernel_sppm_keys(const RsPhotonGrid* grid, uint32_t n, uint64_t* keys, uint32_t* index)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    RsPhotonGrid g = *grid;
    keys[i] = rs_photon_grid_key(&g, i);
    index[i] = i;
}

__global__ void rs_kernel_sppm_ranges(const uint64_t* keys, uint32_t n, uint32_t* begin, uint32_t* end)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        rs_photon_grid_mark_runs(keys, i, n, begin, end);
}

__global__ void rs_kernel_sppm_gather(const __grid_constant__ RsKernelParams kp, const RsPhotonGrid* grid, const uint32_t* sorted,
                                      uint32_t pixels)
{
    uint32_t p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= pixels)
        return;
    RsPhotonGrid g = *grid;
    g.sorted = sorted;
    rs_sppm_gather(&kp, &g, p);
}

__global__ void rs_kernel_sppm_update(const __grid_constant__ RsKernelParams kp, uint32_t pixels)
{
    uint32_t p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p < pixels)
        rs_sppm_update(&kp, p);
}

static void sppm_state_free(SppmGpu* g)
{
    for (int i = 0; i < 2; ++i) {
        cudaFree(g->keys[i]);
        cudaFree(g->index[i]);
    }
    cudaFree(g->cub_temp);
    cudaFree(g->begin);
    cudaFree(g->end);
    cudaFree(g->grid);
    cudaFree(g->rmax_bits);
    cudaFreeHost(g->readback);
    free(g);
}

cudaError_t rs_sppm_scratch_alloc(RsSppmScratch* s, uint32_t photon_capacity, uint32_t pixels)
{
    (void)pixels; /* every per-pixel step works in place on the kernel parameters' planes */
    memset(s, 0, sizeof *s);
    SppmGpu* g = (SppmGpu*)calloc(1, sizeof *g);
    if (!g)
        return cudaErrorMemoryAllocation;
    g->capacity = photon_capacity;
    g->max_bits = rs_photon_grid_bits(photon_capacity);
    size_t n = photon_capacity ? photon_capacity : 1;
    size_t buckets = (size_t)1 << g->max_bits;
    cudaError_t e = cudaSuccess;
    for (int i = 0; i < 2 && e == cudaSuccess; ++i) {
        e = cudaMalloc(&g->keys[i], n * sizeof(uint64_t));
        if (e == cudaSuccess)
            e = cudaMalloc(&g->index[i], n * sizeof(uint32_t));
    }
    if (e == cudaSuccess)
        e = cudaMalloc(&g->begin, buckets * sizeof(uint32_t));
    if (e == cudaSuccess)
        e = cudaMalloc(&g->end, buckets * sizeof(uint32_t));
    if (e == cudaSuccess)
        e = cudaMalloc(&g->grid, sizeof(RsPhotonGrid));
    if (e == cudaSuccess)
        e = cudaMalloc(&g->rmax_bits, sizeof(uint32_t));
    if (e == cudaSuccess)
        e = cudaMallocHost(&g->readback, sizeof(uint64_t));
    if (e == cudaSuccess) { /* the most a sort of `capacity` keys on all 64 bits asks for */
        cub::DoubleBuffer<uint64_t> keys(g->keys[0], g->keys[1]);
        cub::DoubleBuffer<uint32_t> values(g->index[0], g->index[1]);
        e = cub::DeviceRadixSort::SortPairs(nullptr, g->cub_bytes, keys, values, (int)photon_capacity, 0, 64);
    }
    if (e == cudaSuccess)
        e = cudaMalloc(&g->cub_temp, g->cub_bytes ? g->cub_bytes : 1);
    if (e != cudaSuccess) {
        sppm_state_free(g);
        return e;
    }
    s->state = g;
    return cudaSuccess;
}

void rs_sppm_scratch_free(RsSppmScratch* s)
{
    if (s->state)
        sppm_state_free((SppmGpu*)s->state);
    s->state = NULL;
}

cudaError_t rs_launch_sppm_resolve(const RsKernelParams* kp, RsSppmScratch* s, uint64_t* photons,
                                   cudaStream_t stream)
{
    SppmGpu* g = (SppmGpu*)s->state;
    *photons = 0;
    if (!g || kp->photons.capacity > g->capacity)
        return cudaErrorInvalidValue;
    RS_SPPM_TRY(cudaMemcpyAsync(g->readback, kp->photons.count, sizeof(uint64_t), cudaMemcpyDeviceToHost, stream));
    RS_SPPM_TRY(cudaMemsetAsync(kp->photons.count, 0, sizeof(uint64_t), stream));
    RS_SPPM_TRY(cudaStreamSynchronize(stream));
    *photons = *g->readback;
    if (*photons == 0 || *photons > kp->photons.capacity)
        return cudaSuccess;

    uint32_t n = (uint32_t)*photons, pixels = rs_pixel_count(kp);
    if (pixels == 0)
        return cudaSuccess; /* no pixel to gather at */
    uint32_t bits = s->table_bits ? s->table_bits : rs_photon_grid_bits(n);
    bits = bits < g->max_bits ? bits : g->max_bits;
    unsigned photon_blocks = (n + RS_SPPM_BLOCK - 1) / RS_SPPM_BLOCK;
    unsigned pixel_blocks = (pixels + RS_SPPM_BLOCK - 1) / RS_SPPM_BLOCK;

    RS_SPPM_TRY(cudaMemsetAsync(g->rmax_bits, 0, sizeof(uint32_t), stream));
    rs_kernel_sppm_max_radius<<<pixel_blocks, RS_SPPM_BLOCK, 0, stream>>>(*kp, pixels, g->rmax_bits);
    RS_SPPM_TRY(cudaGetLastError());
    RsPhotonGrid grid;
    memset(&grid, 0, sizeof grid);
    grid.photons = kp->photons.entries;
    grid.begin = g->begin;
    grid.end = g->end;
    grid.origin = kp->scene.bounds_lo;
    grid.bits = bits;
    grid.count = n;
    rs_kernel_sppm_grid_setup<<<1, 1, 0, stream>>>(grid, g->rmax_bits, g->grid);
    RS_SPPM_TRY(cudaGetLastError());
    rs_kernel_sppm_keys<<<photon_blocks, RS_SPPM_BLOCK, 0, stream>>>(g->grid, n, g->keys[0], g->index[0]);
    RS_SPPM_TRY(cudaGetLastError());

    cub::DoubleBuffer<uint64_t> keys(g->keys[0], g->keys[1]);
    cub::DoubleBuffer<uint32_t> values(g->index[0], g->index[1]);
    int key_bits = 32 + (int)bits;
    size_t bytes = 0;
    RS_SPPM_TRY(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, values, (int)n, 0, key_bits, stream));
    if (bytes > g->cub_bytes)
        return cudaErrorMemoryAllocation; /* CUB asked for more than the capacity's sort did */
    RS_SPPM_TRY(cub::DeviceRadixSort::SortPairs(g->cub_temp, bytes, keys, values, (int)n, 0, key_bits, stream));

    size_t buckets = (size_t)1 << bits;
    RS_SPPM_TRY(cudaMemsetAsync(g->begin, 0, buckets * sizeof(uint32_t), stream));
    RS_SPPM_TRY(cudaMemsetAsync(g->end, 0, buckets * sizeof(uint32_t), stream));
    rs_kernel_sppm_ranges<<<photon_blocks, RS_SPPM_BLOCK, 0, stream>>>(keys.Current(), n, g->begin, g->end);
    RS_SPPM_TRY(cudaGetLastError());
    rs_kernel_sppm_gather<<<pixel_blocks, RS_SPPM_BLOCK, 0, stream>>>(*kp, g->grid, values.Current(), pixels);
    RS_SPPM_TRY(cudaGetLastError());
    return cudaSuccess;
}

cudaError_t rs_launch_sppm_update(const RsKernelParams* kp, cudaStream_t stream)
{
    uint32_t pixels = rs_pixel_count(kp);
    if (pixels == 0)
        return cudaSuccess;
    rs_kernel_sppm_update<<<(pixels + RS_SPPM_BLOCK - 1) / RS_SPPM_BLOCK, RS_SPPM_BLOCK, 0, stream>>>(*kp, pixels);
    return cudaGetLastError();
}
