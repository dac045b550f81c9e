/* test_gpu_splat.cu - the splat film's GPU resolve (cuda/post/splat.cu) against the CPU resolve
 * (host/backend/cpu/splat_cpu.c) of the same set of synthetic splats (tests/host/backend/
 * splat_synth.h), bit for bit: appended by a kernel from many threads with a scrambled
 * thread-to-splat mapping, for several block sizes, plane sizes and chunkings; overflow and
 * an empty queue leave the plane alone (gpu suite; exits 77 without a CUDA device). nvcc.
 * Every comparison prints what it compared (splats, pixels, runs, block size, pixels that
 * differ, the largest difference and the first differing pixel), so a failure on a GPU host
 * can be read from the log alone.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "cuda_ok.cuh"
#include "plane_compare.cuh"
#include "tests/test.h"

#include "cuda/post/splat.cuh"
#include "tests/host/backend/splat_synth.h"
extern "C" {
#include "host/backend/cpu/splat_cpu.h"
}

/* Thread t of the grid appends splats first + (t * stride + offset) mod n, then t + threads, ...
 * (stride coprime to n: a bijection that scatters neighbouring threads far apart). */
__global__ void append_kernel(RsSplatQueue q, uint32_t first, uint32_t n, uint32_t pixels, uint32_t stride,
                              uint32_t offset)
{
    uint32_t threads = gridDim.x * blockDim.x;
    for (uint32_t t = blockIdx.x * blockDim.x + threadIdx.x; t < n; t += threads) {
        uint32_t k = (uint32_t)(((uint64_t)t * stride + offset) % n);
        splat_synth_add(q, first + k, pixels);
    }
}

static uint32_t gcd(uint32_t a, uint32_t b)
{
    while (b) {
        uint32_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

static uint32_t coprime_stride(uint32_t n)
{
    uint32_t s = 2654435761u % (n ? n : 1);
    while (n > 1 && gcd(s, n) != 1)
        ++s;
    return s ? s : 1;
}

struct DeviceQueue {
    RsSplat* entries = nullptr;
    uint64_t* count = nullptr;
    RsSplatQueue view;
    explicit DeviceQueue(uint32_t capacity)
    {
        CUDA_OK(cudaMalloc(&entries, (capacity ? capacity : 1) * sizeof(RsSplat)));
        CUDA_OK(cudaMalloc(&count, sizeof(uint64_t)));
        CUDA_OK(cudaMemset(count, 0, sizeof(uint64_t)));
        view.entries = entries;
        view.count = count;
        view.capacity = capacity;
    }
    ~DeviceQueue()
    {
        cudaFree(entries);
        cudaFree(count);
    }
};

static std::vector<RsFloat4> base_plane(uint32_t pixels)
{
    std::vector<RsFloat4> plane(pixels);
    for (uint32_t p = 0; p < pixels; ++p)
        plane[p] = splat_synth_base(p);
    return plane;
}

/* The CPU resolve of chunks [bounds[c], bounds[c + 1]) one after another, appended in order. */
static void cpu_resolve(std::vector<RsFloat4>& plane, const std::vector<uint32_t>& bounds, uint32_t pixels,
                        RsSplatResolveStats* stats)
{
    std::vector<RsSplat> entries(bounds.back() + 1);
    uint64_t count = 0;
    RsSplatQueue q = {entries.data(), &count, (uint32_t)entries.size()};
    RsSplatCpuScratch scratch = {};
    RsError err = {};
    memset(stats, 0, sizeof *stats);
    for (size_t c = 0; c + 1 < bounds.size(); ++c) {
        for (uint32_t i = bounds[c]; i < bounds[c + 1]; ++i)
            splat_synth_add(q, i, pixels);
        RsSplatResolveStats s;
        CHECK(rs_splat_resolve_cpu(NULL, q, plane.data(), pixels, &scratch, &s, &err) == 0, "cpu: %s", err.message);
        stats->count += s.count;
    }
    rs_splat_cpu_scratch_free(&scratch);
}

static uint32_t count_runs(const std::vector<uint32_t>& bounds, uint32_t pixels)
{
    std::vector<uint8_t> hit(pixels, 0);
    uint32_t runs = 0;
    for (size_t c = 0; c + 1 < bounds.size(); ++c) {
        std::fill(hit.begin(), hit.end(), 0);
        for (uint32_t i = bounds[c]; i < bounds[c + 1]; ++i) {
            uint32_t p = splat_synth_pixel(i, pixels);
            runs += !hit[p];
            hit[p] = 1;
        }
    }
    return runs;
}

/* Resolves chunks on the GPU (each appended by a kernel of `block` threads a block) and
 * compares with the CPU. */
static void check_set(uint32_t n, uint32_t pixels, uint32_t chunks, uint32_t block, RsSplatScratch* scratch,
                      DeviceQueue& q)
{
    std::vector<uint32_t> bounds;
    for (uint32_t c = 0; c <= chunks; ++c)
        bounds.push_back((uint32_t)((uint64_t)n * c / chunks));
    std::vector<RsFloat4> plane = base_plane(pixels), expect = base_plane(pixels);
    RsSplatResolveStats cpu_stats;
    cpu_resolve(expect, bounds, pixels, &cpu_stats);

    RsFloat4* d_plane;
    CUDA_OK(cudaMalloc(&d_plane, pixels * sizeof(RsFloat4)));
    CUDA_OK(cudaMemcpy(d_plane, plane.data(), pixels * sizeof(RsFloat4), cudaMemcpyHostToDevice));
    uint64_t appended = 0;
    for (uint32_t c = 0; c < chunks; ++c) {
        uint32_t m = bounds[c + 1] - bounds[c];
        uint32_t blocks = (m + block - 1) / block;
        blocks = blocks > 96 ? blocks / 3 : (blocks ? blocks : 1); /* most threads append several */
        append_kernel<<<blocks, block>>>(q.view, bounds[c], m, pixels, coprime_stride(m), c * 7919u);
        CUDA_OK(cudaGetLastError());
        RsSplatResolveStats stats;
        CUDA_OK(rs_launch_splat_resolve(q.view, d_plane, pixels, scratch, &stats, 0));
        RsError err = {};
        CHECK(rs_splat_check(&stats, q.view.capacity, pixels, &err) == 0, "gpu: %s", err.message);
        CHECK(stats.count == m, "gpu chunk %u: %llu splats appended of %u", c, (unsigned long long)stats.count, m);
        appended += stats.count;
    }
    uint64_t left = 1;
    CUDA_OK(cudaMemcpy(&left, q.count, sizeof left, cudaMemcpyDeviceToHost));
    CHECK(left == 0, "the resolve leaves %llu in the queue", (unsigned long long)left);
    CUDA_OK(cudaMemcpy(plane.data(), d_plane, pixels * sizeof(RsFloat4), cudaMemcpyDeviceToHost));
    CUDA_OK(cudaFree(d_plane));

    char what[256];
    snprintf(what, sizeof what, "%u splats (gpu %llu, cpu %llu) on %u pixels, %u runs, %u chunk(s), block %u", n,
             (unsigned long long)appended, (unsigned long long)cpu_stats.count, pixels, count_runs(bounds, pixels),
             chunks, block);
    CHECK(appended == cpu_stats.count, "%s: counts differ", what);
    compare_planes(what, plane, expect.data());
}

/* Overflow: counted, nothing added, reported by name; then an empty queue changes nothing. */
static void check_overflow(RsSplatScratch* scratch)
{
    const uint32_t pixels = 4099, n = 3000;
    DeviceQueue q(1000);
    std::vector<RsFloat4> base = base_plane(pixels), plane(pixels);
    RsFloat4* d_plane;
    CUDA_OK(cudaMalloc(&d_plane, pixels * sizeof(RsFloat4)));
    CUDA_OK(cudaMemcpy(d_plane, base.data(), pixels * sizeof(RsFloat4), cudaMemcpyHostToDevice));
    append_kernel<<<8, 128>>>(q.view, 0, n, pixels, coprime_stride(n), 0);
    CUDA_OK(cudaGetLastError());
    RsSplatResolveStats stats;
    CUDA_OK(rs_launch_splat_resolve(q.view, d_plane, pixels, scratch, &stats, 0));
    RsError err = {};
    CHECK(rs_splat_check(&stats, q.view.capacity, pixels, &err) == -1, "overflow accepted");
    printf("overflow: %llu splats for a capacity of %u: \"%s\"\n", (unsigned long long)stats.count, q.view.capacity,
           err.message);
    CHECK(strcmp(err.message, "splat queue overflow: 3000 splats for a capacity of 1000") == 0, "message: %s",
          err.message);
    CUDA_OK(cudaMemcpy(plane.data(), d_plane, pixels * sizeof(RsFloat4), cudaMemcpyDeviceToHost));
    compare_planes("overflow leaves the plane alone", plane, base.data());

    CUDA_OK(rs_launch_splat_resolve(q.view, d_plane, pixels, scratch, &stats, 0));
    CHECK(stats.count == 0, "the overflowing resolve left %llu in the queue", (unsigned long long)stats.count);
    CUDA_OK(cudaMemcpy(plane.data(), d_plane, pixels * sizeof(RsFloat4), cudaMemcpyDeviceToHost));
    compare_planes("an empty queue leaves the plane alone", plane, base.data());
    CUDA_OK(cudaFree(d_plane));
}

int main()
{
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        printf("no CUDA device: skipped\n");
        return RS_TEST_SKIP;
    }
    const uint32_t capacity = 1u << 21;
    RsSplatScratch scratch;
    CUDA_OK(rs_splat_scratch_alloc(&scratch, capacity)); /* sized once, reused by every resolve */
    DeviceQueue q(capacity);
    const uint32_t blocks[] = {32, 96, 256, 1024};
    for (uint32_t block : blocks) {
        check_set(200003, 4099, 1, block, &scratch, q);
        check_set(200003, 1000003, 1, block, &scratch, q);
    }
    check_set(1u << 21, 1920 * 1080, 1, 256, &scratch, q);
    check_set(1000003, 65537, 3, 128, &scratch, q);
    check_set(5000, 257, 2, 64, &scratch, q);
    check_set(7, 3, 1, 32, &scratch, q);
    check_set(1, 1, 1, 32, &scratch, q);
    check_overflow(&scratch);
    rs_splat_scratch_free(&scratch);
    return rs_test_finish("test_gpu_splat");
}
