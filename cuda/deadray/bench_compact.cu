/* bench_compact.cu - the stream-compaction micro-benchmark (see src/host/backend/bench_compact.h).
 * nvcc.
 *
 * Inputs: an index list 0..n-1 (what the renderer compacts) and verdicts drawn by a stateless
 * hash at the requested fill ratio, so every method sees the same data. Each measurement is
 * the median of `repeats` launches timed with CUDA events after one warm-up launch. Bytes
 * counted are the least any compaction must move: read n indices and n verdicts, write the
 * kept indices (4n + 4n + 4k); the payload variant adds what moving the kept RayState rows
 * costs (read the k new indices, read and write k rows of 80 bytes, rewrite the k indices).
 * The copy baseline moves n 4-byte words device to device (read + write = 8n bytes).
 */
#include <algorithm>
#include <vector>

#include "cuda/backend/cuda_buffers.cuh"
#include "cuda/deadray/deadray_compact.cuh"

extern "C" {
#include "host/backend/bench_compact.h"
#include "kernel/sampling/rng.h"
}

__global__ void rs_bench_fill(uint32_t* in, uint32_t* keep, uint32_t n, float fill, uint32_t seed)
{
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        in[i] = i;
        keep[i] = rs_rng(rs_rng_path_key(seed, i, 0), 0, 0) < fill ? 1u : 0u;
    }
}

namespace {

struct Buffers {
    uint32_t *in = nullptr, *keep = nullptr, *out = nullptr, *count = nullptr, *copy = nullptr;
    RsRayStateSoA rows[2] = {};
    RsCompactScratch scratch = {};
};

#define BENCH_CUDA(call)                                                                        \
    do {                                                                                        \
        cudaError_t e_ = (call);                                                                \
        if (e_ != cudaSuccess)                                                                  \
            return rs_error_set(err, "bench-compact: %s failed: %s", #call, cudaGetErrorString(e_)); \
    } while (0)

/* Median time of `repeats` runs of fn, after one warm-up. */
template <class Fn>
int time_median(Fn fn, int repeats, cudaEvent_t a, cudaEvent_t b, double* ms, RsError* err)
{
    std::vector<float> t;
    BENCH_CUDA(fn());
    for (int r = 0; r < repeats; ++r) {
        BENCH_CUDA(cudaEventRecord(a));
        BENCH_CUDA(fn());
        BENCH_CUDA(cudaEventRecord(b));
        BENCH_CUDA(cudaEventSynchronize(b));
        float x = 0;
        BENCH_CUDA(cudaEventElapsedTime(&x, a, b));
        t.push_back(x);
    }
    std::sort(t.begin(), t.end());
    *ms = t[t.size() / 2];
    return 0;
}

struct Method {
    const char* name;
    RsCompactMethod method;
};
const Method methods[] = {{"compact-scan", RS_COMPACT_SCAN},
                          {"compact-block", RS_COMPACT_BLOCK},
                          {"compact-warp", RS_COMPACT_WARP},
                          {"compact-cub", RS_COMPACT_CUB}};

int measure(Buffers& buf, const char* sweep, uint32_t n, double fill, int items, bool payload, int method_mask,
            int repeats, cudaEvent_t a, cudaEvent_t b, RsCompactBenchEmit emit, void* ctx, RsError* err)
{
    BENCH_CUDA((rs_bench_fill<<<1024, 256>>>(buf.in, buf.keep, n, (float)fill, 7u), cudaGetLastError()));
    BENCH_CUDA(cudaDeviceSynchronize());
    double copy_ms = 0;
    if (time_median([&] { return cudaMemcpyAsync(buf.copy, buf.in, (size_t)n * 4, cudaMemcpyDeviceToDevice); },
                    repeats, a, b, &copy_ms, err))
        return -1;
    double copy_gbps = 8.0 * n / (copy_ms * 1e-3) / 1e9;
    RsCompactBenchRow row = {sweep, "copy", 0, n, fill, 0, 0, copy_ms, copy_gbps, copy_gbps, n / (copy_ms * 1e-3) / 1e9};
    if (method_mask & 16)
        emit(&row, ctx);
    for (int m = 0; m < 4; ++m) {
        if (!(method_mask & (1 << m)))
            continue;
        bool tiled = methods[m].method == RS_COMPACT_SCAN || methods[m].method == RS_COMPACT_BLOCK;
        double ms = 0;
        auto run = [&]() -> cudaError_t {
            cudaError_t e = rs_compact(methods[m].method, buf.in, buf.keep, n, buf.out, buf.count, &buf.scratch, items, 0);
            if (e != cudaSuccess || !payload)
                return e;
            /* payload: the renderer reads the count back, then moves the rows */
            uint32_t k = 0;
            e = cudaMemcpy(&k, buf.count, 4, cudaMemcpyDeviceToHost);
            return e != cudaSuccess ? e : rs_launch_gather_rows(buf.rows[0], buf.rows[1], buf.out, k, 0);
        };
        if (time_median(run, repeats, a, b, &ms, err))
            return -1;
        uint32_t kept = 0;
        BENCH_CUDA(cudaMemcpy(&kept, buf.count, 4, cudaMemcpyDeviceToHost));
        double bytes = 8.0 * n + 4.0 * kept + (payload ? kept * (4.0 + 2.0 * RS_RAY_STATE_CORE_BYTES_PER_RAY + 4.0) : 0.0);
        RsCompactBenchRow r = {sweep, methods[m].name, payload, n, fill, tiled ? (uint32_t)(256 * items) : 0u, kept,
                               ms, bytes / (ms * 1e-3) / 1e9, copy_gbps, n / (ms * 1e-3) / 1e9};
        emit(&r, ctx);
    }
    return 0;
}

void release(Buffers& buf)
{
    cudaFree(buf.in);
    cudaFree(buf.keep);
    cudaFree(buf.out);
    cudaFree(buf.count);
    cudaFree(buf.copy);
    rs_cuda_free_rays(&buf.rows[0]);
    rs_cuda_free_rays(&buf.rows[1]);
    rs_compact_scratch_free(&buf.scratch);
}

} // namespace

extern "C" int rs_cuda_bench_compact(const RsCompactBenchConfig* c, RsCompactBenchEmit emit, void* ctx, RsError* err)
{
    uint32_t max_n = std::max(c->fill_sweep_n, c->block_sweep_n);
    for (int i = 0; i < c->size_count; ++i)
        max_n = std::max(max_n, c->sizes[i]);
    Buffers buf;
    cudaEvent_t a = nullptr, b = nullptr;
    int status = -1;
    cudaError_t e = cudaMalloc(&buf.in, (size_t)max_n * 4);
    if (e == cudaSuccess) e = cudaMalloc(&buf.keep, (size_t)max_n * 4);
    if (e == cudaSuccess) e = cudaMalloc(&buf.out, (size_t)max_n * 4);
    if (e == cudaSuccess) e = cudaMalloc(&buf.copy, (size_t)max_n * 4);
    if (e == cudaSuccess) e = cudaMalloc(&buf.count, 4);
    if (e == cudaSuccess) e = rs_cuda_alloc_rays(&buf.rows[0], max_n, 0);
    if (e == cudaSuccess) e = rs_cuda_alloc_rays(&buf.rows[1], max_n, 0);
    if (e == cudaSuccess) e = rs_compact_scratch_alloc(&buf.scratch, max_n);
    if (e == cudaSuccess) e = cudaEventCreate(&a);
    if (e == cudaSuccess) e = cudaEventCreate(&b);
    if (e != cudaSuccess) {
        rs_error_set(err, "bench-compact: cannot allocate buffers for %u entries: %s", max_n, cudaGetErrorString(e));
        goto done;
    }
    /* 1. cost against stream length: every method, index and payload, at fill 0.5 */
    for (int i = 0; i < c->size_count; ++i)
        for (int payload = 0; payload < 2; ++payload)
            if (measure(buf, "size", c->sizes[i], 0.5, RS_COMPACT_DEFAULT_ITEMS, payload, payload ? 15 : 31,
                        c->repeats, a, b, emit, ctx, err))
                goto done;
    /* 2. block size: the tiled methods at every items-per-thread */
    for (int i = 0; i < c->item_count; ++i)
        if (measure(buf, "block_size", c->block_sweep_n, 0.5, c->items[i], false, i == 0 ? 1 | 2 | 16 : 1 | 2,
                    c->repeats, a, b, emit, ctx, err))
            goto done;
    /* 3. fill ratio: every method */
    for (int i = 0; i < c->fill_count; ++i)
        if (measure(buf, "fill", c->fill_sweep_n, c->fills[i], RS_COMPACT_DEFAULT_ITEMS, false, 31, c->repeats, a, b,
                    emit, ctx, err))
            goto done;
    status = 0;
done:
    if (a)
        cudaEventDestroy(a);
    if (b)
        cudaEventDestroy(b);
    release(buf);
    return status;
}
