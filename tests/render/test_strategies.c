/* test_strategies.c - every dead-ray strategy, thread count, payload mode, wave size and ray
 * order (--sort-rays before extend, --sort-materials before shade, both) gives the same film bit
 * for bit, and the same live-ray counts per bounce, with each acceleration structure (bvh8 with
 * and without its camera tree); and the structures give the same image within 0.2% (render
 * suite, CPU).
 *
 * docs/architecture.md, section 8: random numbers depend only on (seed, pixel, sample, bounce, dimension)
 * and each path owns its accumulator, so nothing may depend on which rows are visited in
 * which order. A strategy that drops a live ray, runs a dead one or mixes up rows changes the
 * image or the counts. The image size (45 x 37 = 1665 pixels) is deliberately not a multiple
 * of 32 (batch / stencil word) nor of 256 (compact-block's block), and one configuration
 * splits the frame into waves of 1000 paths, which also cut sample passes in the middle. The
 * full matrix runs on the default structure (bvh8); bvh2 and the grid run every strategy once.
 * Across structures the rays are the same, so images differ only where two primitives are hit
 * at the same distance (a shared edge) and the structures pick different ones.
 *
 * usage: test_strategies SCENE.json
 */
#include "host/import/json/scene_json.h"
#include "render_util.h"
#include "tests/test.h"

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

/* --deadray auto's switches (backend.h, set_deadray): forced schedules that change family on
 * every call (the stencil family <-> the index family, so every bounce converts the live set,
 * the first one between generate and bounce 1) and within families, with payload, sorting and
 * waves that cut passes; the image and counts must be the reference's. */
static void check_schedules(const RsScene* scene, const TestRender* tr, const RsFloat4* ref,
                            const RsTraceStats* ref_stats, int full)
{
    static const RsDeadRay schedules[][4] = {
        {RS_DEADRAY_STENCIL, RS_DEADRAY_COMPACT_WARP, RS_DEADRAY_PERSISTENT, RS_DEADRAY_COMPACT_SCAN},
        {RS_DEADRAY_COMPACT_SCAN, RS_DEADRAY_PERSISTENT, RS_DEADRAY_COMPACT_BLOCK, RS_DEADRAY_STENCIL},
        {RS_DEADRAY_COMPACT_WARP, RS_DEADRAY_COMPACT_SCAN, RS_DEADRAY_STENCIL, RS_DEADRAY_PERSISTENT},
    };
    RsError err = {{0}};
    uint32_t pixels = tr->width * tr->height;
    for (int k = 0; k < 3; ++k) {
        for (int variant = 0; variant < (full ? 4 : 1); ++variant) {
            RsBackendConfig cfg = cpu_config(RS_DEADRAY_AUTO, 2, variant & 1);
            cfg.sort_rays = (variant & 2) != 0;
            memcpy(cfg.deadray_schedule, schedules[k], sizeof schedules[k]);
            cfg.schedule_length = 4;
            TestRender t2 = *tr;
            t2.wave_limit = k == 2 ? 1000 : 0;
            char what[200];
            snprintf(what, sizeof what, "%s auto, schedule %d%s%s%s", rs_accel_name(scene->accel.view.kind), k,
                     cfg.payload ? ", payload" : "", cfg.sort_rays ? ", sorted rays" : "",
                     t2.wave_limit ? ", waves of 1000" : "");
            rs_error_clear(&err);
            RsTraceStats stats;
            RsFloat4* film = test_render(scene, &cfg, &t2, &stats, &err);
            CHECK(film != NULL, "%s: %s", what, err.message);
            if (!film)
                continue;
            CHECK(memcmp(ref, film, pixels * sizeof *ref) == 0, "%s: image differs from flags/1 thread", what);
            compare_stats(ref_stats, &stats, what);
            /* the schedule ran: bounce 1 (the second call, after generate's) took its second entry */
            CHECK(stats.deadray_at_depth[1][schedules[k][1]] > 0, "%s: bounce 1 did not run %s", what,
                  rs_deadray_name(schedules[k][1]));
            free(film);
        }
    }
}

static void check_strategies(const RsScene* scene, uint32_t integrator, int full, double* mean_out)
{
    RsError err = {{0}};
    const uint32_t w = 45, h = 37, pixels = w * h;
    const char* accel = rs_accel_name(scene->accel.view.kind);
    TestRender tr = {w, h, 3, 8, integrator, 5, 0, 0};
    RsBackendConfig ref_cfg = cpu_config(RS_DEADRAY_FLAGS, 1, 0);
    RsTraceStats ref_stats, stats;
    RsFloat4* ref = test_render(scene, &ref_cfg, &tr, &ref_stats, &err);
    CHECK(ref != NULL, "%s", err.message);
    if (!ref)
        return;
    /* the reference must be worth comparing: light reached, and paths that go deep */
    double mean[3];
    film_mean(ref, pixels, mean);
    *mean_out = mean[0] + mean[1] + mean[2];
    CHECK(*mean_out > 0.01, "%s: reference image is black", accel);
    CHECK(ref_stats.live_at_depth[2] > 0, "%s: no path survived the first bounce", accel);
    if (integrator == RS_INTEGRATOR_PATH)
        CHECK(ref_stats.live_at_depth[8] > 0, "%s: no path reached depth 8 (the scene should have deep paths)",
              accel);
    /* whitted: one ray per path, so the live count can only fall */
    for (int d = 2; integrator == RS_INTEGRATOR_WHITTED && d <= 8; ++d)
        CHECK(ref_stats.live_at_depth[d] <= ref_stats.live_at_depth[d - 1], "whitted live rays grew at depth %d", d);

    RsFloat4* again = test_render(scene, &ref_cfg, &tr, NULL, &err);
    CHECK(again && memcmp(ref, again, pixels * sizeof *ref) == 0, "%s: two identical runs differ", accel);
    free(again);

    for (int d = 0; d < RS_DEADRAY_COUNT; ++d) {
        if (!rs_deadray_supported((RsDeadRay)d, RS_BACKEND_CPU))
            continue;
        int compaction = rs_deadray_may_compact((RsDeadRay)d);
        for (uint32_t threads = full ? 1 : 2; threads <= (full ? 3u : 2u); ++threads) {
            for (int payload = 0; payload <= compaction; ++payload) {
                for (int split = 0; split < (full ? 2 : 1); ++split) {
                    /* sort: bit 0 --sort-rays, bit 1 --sort-materials (with 2 threads only, which
                     * every structure runs: the thread count and the sort are independent) */
                    for (int sort = 0; sort <= (compaction ? (threads == 2 ? 3 : 1) : 0); ++sort) {
                        RsBackendConfig cfg = cpu_config((RsDeadRay)d, threads, payload);
                        cfg.sort_rays = sort & 1;
                        cfg.sort_materials = sort >> 1;
                        TestRender t2 = tr;
                        t2.wave_limit = split ? 1000 : 0;
                        char what[200];
                        snprintf(what, sizeof what, "%s %s %s, %u threads%s%s%s%s", accel, rs_integrator_name(integrator),
                                 rs_deadray_name((RsDeadRay)d), threads, payload ? ", payload" : "",
                                 split ? ", waves of 1000" : "", sort & 1 ? ", sorted rays" : "",
                                 sort & 2 ? ", sorted by material" : "");
                        rs_error_clear(&err);
                        RsFloat4* film = test_render(scene, &cfg, &t2, &stats, &err);
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
    }
    check_schedules(scene, &tr, ref, &ref_stats, full);
    free(ref);
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
    const uint32_t integrators[2] = {RS_INTEGRATOR_PATH, RS_INTEGRATOR_WHITTED};
    /* bvh8 with its camera tree (the default), bvh2, the grid, and bvh8 whose camera rays walk
     * the 8-wide nodes too (--no-camera-tree) */
    const uint32_t accels[4] = {RS_ACCEL_BVH8, RS_ACCEL_BVH2, RS_ACCEL_GRID, RS_ACCEL_BVH8};
    const char* names[4] = {"bvh8", "bvh2", "grid", "bvh8 --no-camera-tree"};
    for (int ii = 0; ii < 2; ++ii) {
        double means[4] = {0, 0, 0, 0};
        for (int a = 0; a < 4; ++a) {
            scene.accel_options.kind = accels[a];
            scene.accel_options.camera_tree = a != 3;
            if (rs_scene_build(&scene, &err)) {
                CHECK(0, "%s", err.message);
                continue;
            }
            /* (a scene with instances traces camera rays through its TLAS: no camera tree) */
            CHECK(scene.accel.view.camera_tree == (accels[a] == RS_ACCEL_BVH8 && a != 3 && scene.instances.count == 0),
                  "%s: camera tree %u", names[a], scene.accel.view.camera_tree);
            check_strategies(&scene, integrators[ii], a == 0, &means[a]);
        }
        for (int a = 1; a < 4; ++a)
            CHECK(fabs(means[a] / means[0] - 1.0) <= 2e-3, "%s: %s image mean %.6f, bvh8 %.6f (more than 0.2%% apart)",
                  rs_integrator_name(integrators[ii]), names[a], means[a], means[0]);
    }
    rs_scene_free(&scene);
    return rs_test_finish("test_strategies");
}
