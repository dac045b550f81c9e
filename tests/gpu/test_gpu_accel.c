/* test_gpu_accel.c - every acceleration structure's GPU traversal agrees with brute force
 * (gpu suite; exits 77 without a CUDA device). Host C11.
 *
 *   test_gpu_accel [--rays N] SCENE.json...
 *
 * The rays of tests/host/accel/random_rays.h, traced on the GPU by the same per-ray code and stack
 * placement as the trace kernels, against brute force over every primitive, also on the GPU:
 * the closest hit's t within 1e-6 relative and the same any-hit verdict. For bvh8, the walks that
 * whole warps step together (the trace kernels' warp-shared leaf tests, with and without refetch)
 * must give every ray exactly the per-thread traversal's hit: t, u, v, primitive, verdict; its
 * camera tree (the binary tree camera rays walk, kernel/accel/accel.h) is checked as a bvh2,
 * walked per thread and by warp packets (cuda/stages/bvh2_packet.cuh). Brute force runs on the
 * GPU because the triangle test's own rounding differs between the CPU and the GPU (nvcc fuses
 * multiply-adds): at grazing angles t moves by a few 1e-6 for the same triangle, which says
 * nothing about the structures. A hit within that tolerance of tmax counts either way.
 */
#include <stdlib.h>
#include <string.h>

#include "accel_probe_kernel.h"
#include "host/backend/backend.h"
#include "host/import/json/scene_json.h"
#include "tests/host/accel/random_rays.h"
#include "tests/test.h"

/* The warp-stepped bvh8 walks against the per-thread ones (closest, any), bit for bit. */
static void check_warp_walks(const RsScene* s, const char* name, const RsFloat4* o, const RsFloat4* d, uint32_t n,
                             const RsFloat4* closest, const uint32_t* any)
{
    RsFloat4* warp_closest = malloc(n * sizeof *warp_closest);
    uint32_t* warp_any = malloc(n * sizeof *warp_any);
    for (int refetch = 0; refetch < 2; ++refetch) {
        gpu_trace_rays_warps(&s->accel.view, o, d, n, refetch, warp_closest, warp_any);
        int differ = 0;
        for (uint32_t i = 0; i < n; ++i) {
            int same = memcmp(&warp_closest[i], &closest[i], sizeof closest[i]) == 0 && warp_any[i] == any[i];
            if (!same && differ++ < 3)
                fprintf(stderr, "%s bvh8 warp walks (refetch %d) ray %u: t %.9g prim %u any %u, per thread %.9g %u %u\n",
                        name, refetch, i, warp_closest[i].x, rs_float_as_uint(warp_closest[i].w), warp_any[i],
                        closest[i].x, rs_float_as_uint(closest[i].w), any[i]);
        }
        printf("%s bvh8 warp walks (refetch %d): %d of %u rays differ from per-thread walks\n", name, refetch, differ, n);
        CHECK(differ == 0, "%s: %d of %u warp-stepped bvh8 walks (refetch %d) differ from per-thread ones", name,
              differ, n, refetch);
    }
    free(warp_closest);
    free(warp_any);
}

/* The GPU's traversal of `view` against the brute-force answers (t_ref, prim_ref); `packets`:
 * by the camera tree's warp packets, closest hit only. */
static void check_view(const RsAccelView* view, int packets, const char* name, const char* label, const RsFloat4* o,
                       const RsFloat4* d, uint32_t n, const float* t_ref, const uint32_t* prim_ref, RsFloat4* closest,
                       uint32_t* any)
{
    if (packets)
        gpu_trace_rays_packets(view, o, d, n, closest);
    else
        gpu_trace_rays(view, o, d, n, closest, any);
    int mismatched = 0, any_wrong = 0, hits = 0;
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t prim = rs_float_as_uint(closest[i].w);
        int found = prim != RS_NO_HIT, expected = prim_ref[i] != RS_NO_HIT;
        float tol = 1e-6f * t_ref[i];
        int borderline = expected && o[i].w - t_ref[i] <= tol;
        hits += found;
        if (!borderline && (found != expected || (found && !(fabsf(closest[i].x - t_ref[i]) <= tol)))) {
            if (mismatched < 3)
                fprintf(stderr, "%s %s ray %u: GPU t %.9g (prim %u), brute force %.9g (prim %u)\n", name, label, i,
                        closest[i].x, prim, t_ref[i], prim_ref[i]);
            ++mismatched;
        }
        any_wrong += !packets && !borderline && (int)any[i] != expected;
    }
    printf("%s %s: %u rays, %d hits, %d closest and %d any-hit disagreements\n", name, label, n, hits, mismatched,
           any_wrong);
    CHECK(mismatched == 0, "%s %s: %d of %u GPU closest hits differ from brute force", name, label, mismatched, n);
    CHECK(any_wrong == 0, "%s %s: %d of %u GPU any-hit answers differ from brute force", name, label, any_wrong, n);
    CHECK(hits > (int)n / 10, "%s %s: only %d of %u rays hit anything", name, label, hits, n);
}

static void check_scene(RsScene* s, const char* name, uint32_t rays)
{
    RsFloat4* o = malloc(rays * sizeof *o);
    RsFloat4* d = malloc(rays * sizeof *d);
    RsFloat4* closest = malloc(rays * sizeof *closest);
    uint32_t* any = malloc(rays * sizeof *any);
    float* t_ref = malloc(rays * sizeof *t_ref);
    uint32_t* prim_ref = malloc(rays * sizeof *prim_ref);
    uint32_t n = 0;
    for (uint32_t i = 0; n < rays && i < 4 * rays; ++i) {
        TestRay r;
        if (!random_ray(s, 77, i, &r))
            continue;
        o[n] = rs_pack(r.o, r.tmax);
        d[n] = rs_pack(r.d, 0.0f);
        ++n;
    }
    gpu_brute_force(s->prims.data, (uint32_t)s->prims.count, o, d, n, closest);
    for (uint32_t i = 0; i < n; ++i) {
        t_ref[i] = closest[i].x;
        prim_ref[i] = rs_float_as_uint(closest[i].w);
    }
    for (uint32_t k = 0; k < RS_ACCEL_COUNT; ++k) {
        RsError err = {{0}};
        s->accel_options.kind = k;
        if (rs_scene_build(s, &err)) {
            CHECK(0, "%s: %s", name, err.message);
            continue;
        }
        /* bvh8's camera tree, walked as the bvh2 it is (its view without the 8-wide arrays) */
        if (s->accel.view.camera_tree) {
            RsAccelView camera = s->accel.view;
            camera.kind = RS_ACCEL_BVH2;
            camera.camera_tree = 0;
            check_view(&camera, 0, name, "bvh8 camera tree", o, d, n, t_ref, prim_ref, closest, any);
            check_view(&camera, 1, name, "bvh8 camera tree, warp packets", o, d, n, t_ref, prim_ref, closest, any);
        }
        check_view(&s->accel.view, 0, name, rs_accel_name(k), o, d, n, t_ref, prim_ref, closest, any);
        if (k == RS_ACCEL_BVH8)
            check_warp_walks(s, name, o, d, n, closest, any);
    }
    free(o);
    free(d);
    free(closest);
    free(any);
    free(t_ref);
    free(prim_ref);
}

int main(int argc, char** argv)
{
    if (!rs_cuda_built() || rs_cuda_device_count() <= 0) {
        printf("test_gpu_accel: no CUDA device, skipped\n");
        return RS_TEST_SKIP;
    }
    uint32_t rays = 20000;
    int first = 1;
    if (argc > 2 && strcmp(argv[1], "--rays") == 0) {
        rays = (uint32_t)strtoul(argv[2], NULL, 10);
        first = 3;
    }
    for (int i = first; i < argc; ++i) {
        RsScene s;
        RsError err = {{0}};
        if (rs_scene_load_json(argv[i], NULL, &s, &err)) {
            CHECK(0, "%s", err.message);
            continue;
        }
        const char* base = strrchr(argv[i], '/');
        check_scene(&s, base ? base + 1 : argv[i], rays);
        rs_scene_free(&s);
    }
    return rs_test_finish("test_gpu_accel");
}
