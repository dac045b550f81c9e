/* test_gpu_sppm.cu - SPPM's GPU resolve and update (cuda/post/sppm.cu) against the CPU's
 * (host/backend/cpu/sppm_cpu.c) for the same photons on sppm_fixture.h's scene, bit for bit:
 * photons appended by a kernel from many threads in a scrambled order, in several chunks, with
 * the table the photon count gives and a forced tiny one; then the update's film plane and
 * state. Overflow gathers nothing and reports the count. (gpu suite; exits 77 without a CUDA
 * device.) nvcc. Every comparison prints what it compared, so a failure on a GPU host can be
 * read from the log alone.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "cuda_ok.cuh"
#include "plane_compare.cuh"
#include "tests/test.h"

#include "cuda/post/sppm.cuh"
#include "tests/kernel/particle/sppm_fixture.h"
extern "C" {
#include "host/backend/cpu/sppm_cpu.h"
}

enum { WIDTH = 64, HEIGHT = 40, PHOTONS = 90000 };

/* Thread t appends photons first + (t * stride + offset) mod n, then t + threads, ... */
__global__ void append_kernel(RsPhotonQueue q, const RsPhoton* photons, uint32_t first, uint32_t n, uint32_t stride,
                              uint32_t offset)
{
    uint32_t threads = gridDim.x * blockDim.x;
    for (uint32_t t = blockIdx.x * blockDim.x + threadIdx.x; t < n; t += threads) {
        const RsPhoton* p = &photons[first + (uint32_t)(((uint64_t)t * stride + offset) % n)];
        rs_photon_add(q, rs_xyz(p->position), rs_xyz(p->direction), rs_xyz(p->power), rs_photon_order(p));
    }
}

static uint32_t coprime_stride(uint32_t n)
{
    uint32_t s = 2654435761u % (n ? n : 1);
    for (;;) {
        uint32_t a = s, b = n;
        while (b) {
            uint32_t r = a % b;
            a = b;
            b = r;
        }
        if (a == 1 || n <= 1)
            return s ? s : 1;
        ++s;
    }
}

template <typename T> static T* upload(const T* host, size_t count)
{
    T* device = NULL;
    CUDA_OK(cudaMalloc(&device, (count ? count : 1) * sizeof(T)));
    if (count)
        CUDA_OK(cudaMemcpy(device, host, count * sizeof(T), cudaMemcpyHostToDevice));
    return device;
}

template <typename T> static std::vector<T> download(const T* device, size_t count)
{
    std::vector<T> host(count);
    CUDA_OK(cudaMemcpy(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
}

/* The fixture's kernel parameters with every array the resolve and update touch on the device. */
struct DeviceParams {
    RsKernelParams kp;
    RsPhoton* photons; /* the fixture's photons, the append kernel's source */
    explicit DeviceParams(const SppmFixture& f)
    {
        kp = f.kp;
        const RsSceneView& s = f.kp.scene;
        kp.scene.prims = upload(s.prims, s.prim_count);
        kp.scene.materials = upload(s.materials, s.material_count);
        kp.scene.shading = s.shading ? upload(s.shading, s.prim_count) : NULL;
        kp.film = upload(f.kp.film, f.pixels);
        kp.sppm_state = upload(f.kp.sppm_state, 2 * (size_t)f.pixels);
        kp.sppm_pass = upload(f.kp.sppm_pass, f.pixels);
        kp.visible.origin = upload(f.kp.visible.origin, f.pixels);
        kp.visible.direction = upload(f.kp.visible.direction, f.pixels);
        kp.visible.hit = upload(f.kp.visible.hit, f.pixels);
        kp.visible.weight = upload(f.kp.visible.weight, f.pixels);
        kp.photons.entries = upload(f.kp.photons.entries, f.kp.photons.capacity);
        uint64_t zero = 0;
        kp.photons.count = upload(&zero, 1);
        photons = upload(f.photons, f.photon_count);
    }
    ~DeviceParams()
    {
        cudaFree((void*)kp.scene.prims);
        cudaFree((void*)kp.scene.materials);
        cudaFree((void*)kp.scene.shading);
        cudaFree(kp.film);
        cudaFree(kp.sppm_state);
        cudaFree(kp.sppm_pass);
        cudaFree(kp.visible.origin);
        cudaFree(kp.visible.direction);
        cudaFree(kp.visible.hit);
        cudaFree(kp.visible.weight);
        cudaFree(kp.photons.entries);
        cudaFree(kp.photons.count);
        cudaFree(photons);
    }
};

/* One pass in `chunks` chunks with a table of 2^table_bits buckets (0: the count's) on both
 * backends, compared after the gathers and after the update. */
static void check_pass(uint32_t chunks, uint32_t table_bits, uint32_t block, uint64_t seed)
{
    SppmFixture cpu, gpu_host;
    sppm_fixture_init(&cpu, WIDTH, HEIGHT, 0.85, PHOTONS, seed);
    sppm_fixture_init(&gpu_host, WIDTH, HEIGHT, 0.85, PHOTONS, seed);
    DeviceParams dev(gpu_host);
    RsSppmScratch scratch;
    CUDA_OK(rs_sppm_scratch_alloc(&scratch, dev.kp.photons.capacity, gpu_host.pixels));
    scratch.table_bits = table_bits;
    RsSppmCpuScratch cpu_scratch = {NULL, table_bits};

    uint64_t hits = 0;
    for (uint32_t c = 0; c < chunks; ++c) {
        uint32_t first = (uint32_t)((uint64_t)PHOTONS * c / chunks);
        uint32_t n = (uint32_t)((uint64_t)PHOTONS * (c + 1) / chunks) - first;
        sppm_fixture_append(&cpu, first, n, NULL);
        RsError err = {{0}};
        CHECK(rs_sppm_resolve_cpu(NULL, &cpu.kp, &cpu_scratch, &err) == 0, "cpu: %s", err.message);
        uint32_t blocks = (n + block - 1) / block;
        blocks = blocks > 96 ? blocks / 3 : (blocks ? blocks : 1);
        append_kernel<<<blocks, block>>>(dev.kp.photons, dev.photons, first, n, coprime_stride(n), c * 7919u);
        CUDA_OK(cudaGetLastError());
        uint64_t count = 0;
        CUDA_OK(rs_launch_sppm_resolve(&dev.kp, &scratch, &count, 0));
        CHECK(count == n, "gpu chunk %u: %llu photons of %u", c, (unsigned long long)count, n);
    }
    std::vector<RsFloat4> pass = download(dev.kp.sppm_pass, cpu.pixels);
    for (uint32_t p = 0; p < cpu.pixels; ++p)
        hits += (uint64_t)cpu.kp.sppm_pass[p].w;
    char what[160];
    snprintf(what, sizeof what, "gather: %u photons in %u chunk(s), %u buckets, append block %u, %llu photon hits",
             PHOTONS, chunks, table_bits ? 1u << table_bits : 1u << rs_photon_grid_bits(PHOTONS / chunks), block,
             (unsigned long long)hits);
    CHECK(hits > 10000, "%s: too few hits to test anything", what);
    compare_planes(what, pass, cpu.kp.sppm_pass);

    rs_sppm_update_cpu(NULL, &cpu.kp);
    CUDA_OK(rs_launch_sppm_update(&dev.kp, 0));
    CUDA_OK(cudaDeviceSynchronize());
    compare_planes("update: film plane 0", download(dev.kp.film, cpu.pixels), cpu.kp.film);
    compare_planes("update: state (Ld_sum | N, tau | R)", download(dev.kp.sppm_state, 2 * (size_t)cpu.pixels),
            cpu.kp.sppm_state);
    compare_planes("update: the pass's sums cleared", download(dev.kp.sppm_pass, cpu.pixels), cpu.kp.sppm_pass);
    compare_planes("update: visible points cleared", download(dev.kp.visible.hit, cpu.pixels), cpu.kp.visible.hit);

    rs_sppm_scratch_free(&scratch);
    rs_sppm_cpu_scratch_free(&cpu_scratch);
    sppm_fixture_free(&cpu);
    sppm_fixture_free(&gpu_host);
}

/* Overflow: the count comes back, nothing is gathered, the queue is emptied. */
static void check_overflow(void)
{
    SppmFixture f;
    sppm_fixture_init(&f, 16, 8, 0.9, 3000, 5);
    DeviceParams dev(f);
    RsSppmScratch scratch;
    CUDA_OK(rs_sppm_scratch_alloc(&scratch, 3000, f.pixels));
    dev.kp.photons.capacity = 1000;
    append_kernel<<<8, 128>>>(dev.kp.photons, dev.photons, 0, 3000, coprime_stride(3000), 0);
    CUDA_OK(cudaGetLastError());
    uint64_t count = 0;
    CUDA_OK(rs_launch_sppm_resolve(&dev.kp, &scratch, &count, 0));
    printf("overflow: %llu photons for a capacity of %u\n", (unsigned long long)count, dev.kp.photons.capacity);
    CHECK(count == 3000, "overflow: %llu photons reported", (unsigned long long)count);
    compare_planes("overflow gathers nothing", download(dev.kp.sppm_pass, f.pixels), f.kp.sppm_pass);
    CUDA_OK(rs_launch_sppm_resolve(&dev.kp, &scratch, &count, 0));
    CHECK(count == 0, "the overflowing resolve left %llu in the queue", (unsigned long long)count);
    rs_sppm_scratch_free(&scratch);
    sppm_fixture_free(&f);
}

int main()
{
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        printf("no CUDA device: skipped\n");
        return RS_TEST_SKIP;
    }
    check_pass(1, 0, 256, 2026);
    check_pass(3, 0, 96, 7);
    check_pass(2, 2, 1024, 11); /* 4 buckets: most cells share one */
    check_overflow();
    return rs_test_finish("test_gpu_sppm");
}
