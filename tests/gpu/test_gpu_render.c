/* test_gpu_render.c - the CUDA backend renders what the CPU backend renders (gpu suite; exits
 * 77 without a CUDA device). Host C11.
 *
 *  1. All GPU strategies, auto included (and payload compaction, sorted rays, rays sorted by
 *     material before shade, both, and for bvh8 the persistent dynamic-fetch extend) give the
 *     same film bit for bit as GPU flags, with the same live-ray counts per bounce, also when
 *     the frame is cut into small waves (without the material sort); for every acceleration
 *     structure. So does auto forced through schedules that switch between the stencil and the
 *     index family on every bounce (deadray_convert.cu's conversions).
 *  2. GPU vs CPU at equal spp, per scene and integrator. They may differ only through
 *     floating-point contraction (nvcc fuses multiply-adds) and math-library rounding; most
 *     paths come out the same to a few ulps, and the few whose discrete choices flip (a
 *     Russian-roulette draw, a Fresnel pick, a grazing hit) become different, equally valid
 *     samples. So the test bounds (a) the relative difference of the image means, 1%, and
 *     (b) the mean absolute per-pixel difference relative to the mean, 2%, and it reports the
 *     largest per-pixel difference, which a single flipped firefly can make large.
 *
 * usage: test_gpu_render SCENE.json...
 */
#include <math.h>

#include "host/import/json/scene_json.h"
#include "tests/render/render_util.h"
#include "tests/test.h"

static RsBackendConfig gpu_config(RsDeadRay d, int payload)
{
    RsBackendConfig c;
    memset(&c, 0, sizeof c);
    c.kind = RS_BACKEND_CUDA;
    c.deadray = d;
    c.payload = payload;
    return c;
}

static void compare_cpu_gpu(const RsScene* scene, const char* file, uint32_t integrator)
{
    RsError err = {{0}};
    TestRender tr = {128, 96, 16, 8, integrator, 3, 0, 0};
    RsBackendConfig cpu = cpu_config(RS_DEADRAY_FLAGS, 0, 0), gpu = gpu_config(RS_DEADRAY_COMPACT_WARP, 0);
    RsFloat4* a = test_render(scene, &cpu, &tr, NULL, &err);
    RsFloat4* b = test_render(scene, &gpu, &tr, NULL, &err);
    CHECK(a && b, "%s", err.message);
    if (a && b) {
        uint32_t pixels = tr.width * tr.height;
        double mean_a = 0, mean_b = 0, abs_diff = 0, max_diff = 0;
        for (uint32_t i = 0; i < pixels; ++i) {
            double la = (a[i].x + a[i].y + a[i].z) / (3.0 * a[i].w), lb = (b[i].x + b[i].y + b[i].z) / (3.0 * b[i].w);
            mean_a += la;
            mean_b += lb;
            abs_diff += fabs(la - lb);
            max_diff = fmax(max_diff, fabs(la - lb));
        }
        mean_a /= pixels;
        mean_b /= pixels;
        abs_diff /= pixels;
        printf("%s %s %s: mean cpu %.6f gpu %.6f (rel %.2e), mean |diff| %.2e (rel %.2e), max |diff| %.3g\n", file,
               rs_accel_name(scene->accel.view.kind), rs_integrator_name(integrator), mean_a, mean_b, fabs(mean_a - mean_b) / mean_a, abs_diff,
               abs_diff / mean_a, max_diff);
        CHECK(fabs(mean_a - mean_b) <= 0.01 * mean_a, "%s %s: image means differ by more than 1%%", file,
              rs_integrator_name(integrator));
        CHECK(abs_diff <= 0.02 * mean_a, "%s %s: mean per-pixel difference above 2%% of the mean", file,
              rs_integrator_name(integrator));
    }
    free(a);
    free(b);
}

/* Renders with cfg and checks film and ray counts against the GPU flags reference; returns
 * whether it rendered (stats then hold the render's). */
static int matches_reference(const RsScene* scene, const RsBackendConfig* cfg, const TestRender* tr,
                             const RsFloat4* ref, const RsTraceStats* ref_stats, const char* what, RsTraceStats* stats)
{
    RsError err = {{0}};
    RsFloat4* film = test_render(scene, cfg, tr, stats, &err);
    CHECK(film != NULL, "%s: %s", what, err.message);
    if (!film)
        return 0;
    CHECK(memcmp(film, ref, (size_t)tr->width * tr->height * sizeof *ref) == 0, "%s: image differs from GPU flags",
          what);
    CHECK(memcmp(stats->live_at_depth, ref_stats->live_at_depth, sizeof stats->live_at_depth) == 0 &&
              stats->shadow_rays == ref_stats->shadow_rays,
          "%s: ray counts differ from GPU flags", what);
    free(film);
    return 1;
}

static void compare_strategies(const RsScene* scene, const char* file, uint32_t integrator)
{
    RsError err = {{0}};
    TestRender tr = {97, 61, 4, 8, integrator, 11, 0, 0}; /* 5917 pixels: not a multiple of 32 */
    RsBackendConfig ref_cfg = gpu_config(RS_DEADRAY_FLAGS, 0);
    RsTraceStats ref_stats, stats;
    RsFloat4* ref = test_render(scene, &ref_cfg, &tr, &ref_stats, &err);
    CHECK(ref != NULL, "%s", err.message);
    if (!ref)
        return;
    const char* accel = rs_accel_name(scene->accel.view.kind);
    int kernels = scene->accel.view.kind == RS_ACCEL_BVH8 ? 2 : 1;
    for (int d = 0; d < RS_DEADRAY_COUNT; ++d) {
        int compaction = rs_deadray_may_compact((RsDeadRay)d);
        for (int payload = 0; payload <= compaction; ++payload) {
            for (int split = 0; split < 2; ++split) {
                /* sort: bit 0 --sort-rays, bit 1 --sort-materials (in whole frames only) */
                for (int sort = 0; sort <= (compaction ? (split ? 1 : 3) : 0); ++sort) {
                    for (int kernel = 0; kernel < kernels; ++kernel) {
                        RsBackendConfig cfg = gpu_config((RsDeadRay)d, payload);
                        cfg.sort_rays = sort & 1;
                        cfg.sort_materials = sort >> 1;
                        cfg.trace_kernel = kernel ? RS_TRACE_PERSISTENT : RS_TRACE_PLAIN;
                        TestRender t2 = tr;
                        t2.wave_limit = split ? 4000 : 0;
                        char what[200];
                        snprintf(what, sizeof what, "%s %s %s %s%s%s%s%s%s", file, accel, rs_integrator_name(integrator),
                                 rs_deadray_name((RsDeadRay)d), payload ? " payload" : "", split ? " waves of 4000" : "",
                                 sort & 1 ? " sorted" : "", sort & 2 ? " by material" : "",
                                 kernel ? " persistent extend" : "");
                        matches_reference(scene, &cfg, &t2, ref, &ref_stats, what, &stats);
                    }
                }
            }
        }
    }
    /* forced switches: every call changes family, the first between generate and bounce 1 */
    static const RsDeadRay schedules[][4] = {
        {RS_DEADRAY_STENCIL, RS_DEADRAY_COMPACT_CUB, RS_DEADRAY_PERSISTENT, RS_DEADRAY_COMPACT_WARP},
        {RS_DEADRAY_COMPACT_SCAN, RS_DEADRAY_PERSISTENT, RS_DEADRAY_COMPACT_BLOCK, RS_DEADRAY_STENCIL},
    };
    for (int k = 0; k < 2; ++k) {
        for (int variant = 0; variant < 4; ++variant) {
            RsBackendConfig cfg = gpu_config(RS_DEADRAY_AUTO, variant & 1);
            cfg.sort_rays = (variant & 2) != 0;
            memcpy(cfg.deadray_schedule, schedules[k], sizeof schedules[k]);
            cfg.schedule_length = 4;
            TestRender t2 = tr;
            t2.wave_limit = k ? 4000 : 0;
            char what[200];
            snprintf(what, sizeof what, "%s %s %s auto schedule %d%s%s", file, accel, rs_integrator_name(integrator), k,
                     cfg.payload ? " payload" : "", cfg.sort_rays ? " sorted" : "");
            if (matches_reference(scene, &cfg, &t2, ref, &ref_stats, what, &stats))
                CHECK(stats.deadray_at_depth[1][schedules[k][1]] > 0, "%s: bounce 1 did not run %s", what,
                      rs_deadray_name(schedules[k][1]));
        }
    }
    free(ref);
}

int main(int argc, char** argv)
{
    if (!rs_cuda_built() || rs_cuda_device_count() == 0) {
        printf("no CUDA device: skipped\n");
        return RS_TEST_SKIP;
    }
    for (int i = 1; i < argc; ++i) {
        RsScene scene;
        RsError err = {{0}};
        if (rs_scene_load_json(argv[i], NULL, &scene, &err)) {
            CHECK(0, "%s", err.message);
            continue;
        }
        const char* base = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
        for (uint32_t accel = 0; accel < RS_ACCEL_COUNT; ++accel) {
            scene.accel_options.kind = accel;
            if (rs_scene_build(&scene, &err)) {
                CHECK(0, "%s", err.message);
                continue;
            }
            for (uint32_t integrator = 0; integrator < 2; ++integrator) {
                compare_strategies(&scene, base, integrator);
                compare_cpu_gpu(&scene, base, integrator);
            }
        }
        rs_scene_free(&scene);
    }
    return rs_test_finish("test_gpu_render");
}
