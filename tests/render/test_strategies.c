/* test_strategies.c - every dead-ray strategy, thread count, payload mode and wave size gives
 * the same film bit for bit, and the same live-ray counts per bounce (render suite, CPU).
 *
 * DESIGN.md section 3: random numbers depend only on (seed, pixel, sample, bounce, dimension)
 * and each path owns its accumulator, so nothing may depend on which rows are visited in
 * which order. A strategy that drops a live ray, runs a dead one or mixes up rows changes the
 * image or the counts. The image size (45 x 37 = 1665 pixels) is deliberately not a multiple
 * of 32 (batch / stencil word) nor of 256 (compact-block's block), and one configuration
 * splits the frame into waves of 1000 paths, which also cut sample passes in the middle.
 *
 * usage: test_strategies SCENE.json
 */
#include "../../src/host/scene_json.h"
#include "../test.h"
#include "render_util.h"

static void compare_stats(const RsTraceStats* a, const RsTraceStats* b, const char* what)
{
    int same = a->camera_rays == b->camera_rays && a->bounce_rays == b->bounce_rays &&
               a->shadow_rays == b->shadow_rays &&
               memcmp(a->live_at_depth, b->live_at_depth, sizeof a->live_at_depth) == 0 &&
               memcmp(a->shadow_at_depth, b->shadow_at_depth, sizeof a->shadow_at_depth) == 0;
    CHECK(same, "%s: ray counts differ (bounce %llu vs %llu, shadow %llu vs %llu)", what,
          (unsigned long long)a->bounce_rays, (unsigned long long)b->bounce_rays,
          (unsigned long long)a->shadow_rays, (unsigned long long)b->shadow_rays);
}

int main(int argc, char** argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_strategies SCENE.json\n");
        return 2;
    }
    RsScene scene;
    RsError err = {{0}};
    if (rs_scene_load_json(argv[1], NULL, &scene, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    const uint32_t w = 45, h = 37, pixels = w * h;
    const uint32_t integrators[2] = {RS_INTEGRATOR_PATH, RS_INTEGRATOR_WHITTED};
    for (int ii = 0; ii < 2; ++ii) {
        TestRender tr = {w, h, 3, 8, integrators[ii], 5, 0};
        RsBackendConfig ref_cfg = cpu_config(RS_DEADRAY_FLAGS, 1, 0);
        RsTraceStats ref_stats, stats;
        RsFloat4* ref = test_render(&scene, &ref_cfg, &tr, &ref_stats, &err);
        CHECK(ref != NULL, "%s", err.message);
        if (!ref)
            break;
        /* the reference must be worth comparing: light reached, and paths that go deep */
        double mean[3];
        film_mean(ref, pixels, mean);
        CHECK(mean[0] + mean[1] + mean[2] > 0.01, "reference image is black");
        CHECK(ref_stats.live_at_depth[2] > 0, "no path survived the first bounce");
        if (integrators[ii] == RS_INTEGRATOR_PATH)
            CHECK(ref_stats.live_at_depth[8] > 0, "no path reached depth 8 (the scene should have deep paths)");
        /* whitted: one ray per path, so the live count can only fall */
        for (int d = 2; integrators[ii] == RS_INTEGRATOR_WHITTED && d <= 8; ++d)
            CHECK(ref_stats.live_at_depth[d] <= ref_stats.live_at_depth[d - 1], "whitted live rays grew at depth %d", d);

        RsFloat4* again = test_render(&scene, &ref_cfg, &tr, NULL, &err);
        CHECK(again && memcmp(ref, again, pixels * sizeof *ref) == 0, "two identical runs differ");
        free(again);

        for (int d = 0; d < RS_DEADRAY_COMPACT_CUB; ++d) {
            for (uint32_t threads = 1; threads <= 3; ++threads) {
                for (int payload = 0; payload <= rs_deadray_is_compaction((RsDeadRay)d); ++payload) {
                    for (int split = 0; split < 2; ++split) {
                        RsBackendConfig cfg = cpu_config((RsDeadRay)d, threads, payload);
                        TestRender t2 = tr;
                        t2.wave_limit = split ? 1000 : 0;
                        char what[160];
                        snprintf(what, sizeof what, "%s %s, %u threads%s%s", rs_integrator_name(integrators[ii]),
                                 rs_deadray_name((RsDeadRay)d), threads, payload ? ", payload" : "",
                                 split ? ", waves of 1000" : "");
                        rs_error_clear(&err);
                        RsFloat4* film = test_render(&scene, &cfg, &t2, &stats, &err);
                        CHECK(film != NULL, "%s: %s", what, err.message);
                        if (!film)
                            continue;
                        CHECK(memcmp(ref, film, pixels * sizeof *ref) == 0, "%s: image differs from flags/1 thread",
                              what);
                        compare_stats(&ref_stats, &stats, what);
                        free(film);
                    }
                }
            }
        }
        free(ref);
    }
    rs_scene_free(&scene);
    return rs_test_finish("test_strategies");
}
