/* splat.cu - the splat film's resolve on the GPU (see splat.cuh). nvcc.
 *
 * The run kernel gives a run to the thread of its first record; that thread walks the run
 * sequentially, since the order of the additions is what makes the bits. A pixel with many
 * splats (a caustic) makes one long walk while its warp's other lanes idle: the price of the
 * fixed order, paid once per chunk. rs_splat_resolve_run adds with rs_add_rn (__fadd_rn), so
 * nvcc can neither fuse nor reorder those additions.
 */
#include <cub/device/device_radix_sort.cuh>
#include <string.h>

#include "cuda/post/splat.cuh"

#define RS_SPLAT_BLOCK 256

/* Every call below is checked; the first failure is returned (the launchers' convention). */
#define RS_SPLAT_TRY(call)                 \
    do {                                   \
        cudaError_t rs_e_ = (call);        \
        if (rs_e_ != cudaSuccess)          \
            return rs_e_;                  \
    } while (0)

typedef struct RsSplatReadback {
    uint64_t count;
    uint32_t faults[2]; /* bad pixels, duplicates */
} RsSplatReadback;

__global__ void rs_kernel_splat_keys(const RsSplat* entries, uint32_t n, uint32_t pixels, uint64_t* keys,
                                     uint32_t* index, uint32_t* faults)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint64_t key = entries[i].key;
    if (rs_splat_key_pixel(key) >= pixels)
        atomicAdd(&faults[0], 1u);
    keys[i] = rs_splat_sort_key(key, pixels);
    index[i] = i;
}

__global__ void rs_kernel_splat_runs(const uint64_t* keys, const uint32_t* index, const RsSplat* entries,
                                     uint32_t n, uint32_t pixels, RsFloat4* plane, uint32_t* faults)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint64_t key = keys[i];
    if (rs_splat_key_pixel(key) >= pixels) /* the sentinel run of bad records: counted, not added */
        return;
    if (i > 0 && key == keys[i - 1])
        atomicAdd(&faults[1], 1u);
    if (rs_splat_run_starts(keys, i))
        rs_splat_resolve_run(keys, index, entries, i, n, plane);
}

cudaError_t rs_splat_scratch_alloc(RsSplatScratch* s, uint32_t capacity)
{
    memset(s, 0, sizeof *s);
    s->capacity = capacity;
    size_t n = capacity ? capacity : 1;
    cudaError_t e = cudaSuccess;
    for (int i = 0; i < 2 && e == cudaSuccess; ++i) {
        e = cudaMalloc(&s->keys[i], n * sizeof(uint64_t));
        if (e == cudaSuccess)
            e = cudaMalloc(&s->index[i], n * sizeof(uint32_t));
    }
    if (e == cudaSuccess)
        e = cudaMalloc(&s->faults, 2 * sizeof(uint32_t));
    if (e == cudaSuccess)
        e = cudaMallocHost(&s->readback, sizeof(RsSplatReadback));
    if (e == cudaSuccess) { /* the most a sort of `capacity` keys on all 64 bits asks for */
        cub::DoubleBuffer<uint64_t> keys(s->keys[0], s->keys[1]);
        cub::DoubleBuffer<uint32_t> values(s->index[0], s->index[1]);
        e = cub::DeviceRadixSort::SortPairs(nullptr, s->cub_bytes, keys, values, capacity, 0, 64);
    }
    if (e == cudaSuccess)
        e = cudaMalloc(&s->cub_temp, s->cub_bytes ? s->cub_bytes : 1);
    if (e != cudaSuccess)
        rs_splat_scratch_free(s);
    return e;
}

void rs_splat_scratch_free(RsSplatScratch* s)
{
    for (int i = 0; i < 2; ++i) {
        cudaFree(s->keys[i]);
        cudaFree(s->index[i]);
    }
    cudaFree(s->cub_temp);
    cudaFree(s->faults);
    cudaFreeHost(s->readback);
    memset(s, 0, sizeof *s);
}

cudaError_t rs_launch_splat_resolve(RsSplatQueue queue, RsFloat4* plane, uint32_t pixels, RsSplatScratch* s,
                                    RsSplatResolveStats* stats, cudaStream_t stream)
{
    memset(stats, 0, sizeof *stats);
    if (queue.capacity > s->capacity)
        return cudaErrorInvalidValue;
    RsSplatReadback* rb = (RsSplatReadback*)s->readback;
    RS_SPLAT_TRY(cudaMemcpyAsync(&rb->count, queue.count, sizeof rb->count, cudaMemcpyDeviceToHost, stream));
    RS_SPLAT_TRY(cudaMemsetAsync(queue.count, 0, sizeof(uint64_t), stream));
    RS_SPLAT_TRY(cudaStreamSynchronize(stream));
    stats->count = rb->count;
    if (stats->count == 0 || stats->count > queue.capacity)
        return cudaSuccess;

    uint32_t n = (uint32_t)stats->count;
    unsigned blocks = (n + RS_SPLAT_BLOCK - 1) / RS_SPLAT_BLOCK;
    RS_SPLAT_TRY(cudaMemsetAsync(s->faults, 0, 2 * sizeof(uint32_t), stream));
    rs_kernel_splat_keys<<<blocks, RS_SPLAT_BLOCK, 0, stream>>>(queue.entries, n, pixels, s->keys[0], s->index[0],
                                                                 s->faults);
    RS_SPLAT_TRY(cudaGetLastError());

    cub::DoubleBuffer<uint64_t> keys(s->keys[0], s->keys[1]);
    cub::DoubleBuffer<uint32_t> values(s->index[0], s->index[1]);
    int bits = rs_splat_sort_bits(pixels);
    size_t bytes = 0;
    RS_SPLAT_TRY(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, values, n, 0, bits, stream));
    if (bytes > s->cub_bytes)
        return cudaErrorMemoryAllocation; /* CUB asked for more than the capacity's sort did */
    RS_SPLAT_TRY(cub::DeviceRadixSort::SortPairs(s->cub_temp, bytes, keys, values, n, 0, bits, stream));

    rs_kernel_splat_runs<<<blocks, RS_SPLAT_BLOCK, 0, stream>>>(keys.Current(), values.Current(), queue.entries, n,
                                                                 pixels, plane, s->faults);
    RS_SPLAT_TRY(cudaGetLastError());
    RS_SPLAT_TRY(cudaMemcpyAsync(rb->faults, s->faults, sizeof rb->faults, cudaMemcpyDeviceToHost, stream));
    RS_SPLAT_TRY(cudaStreamSynchronize(stream));
    stats->bad_pixels = rb->faults[0];
    stats->duplicates = rb->faults[1];
    return cudaSuccess;
}
