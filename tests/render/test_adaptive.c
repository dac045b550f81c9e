/* test_adaptive.c - adaptive sampling through the renderer (render suite on the CPU; the gpu
 * suite runs it again with "cuda"), on the mirrors scene: lamp, glass, mirror, walls and a
 * black background that converges at once.
 *
 * 1. Pixels stop: with a threshold, fewer camera rays are traced than pixels x spp (exactly the
 *    samples taken: a stopped pixel's paths trace nothing); every pixel holds at least min_spp
 *    samples and at most spp, a stopped one a decision pass's number; visits (the albedo plane's
 *    w) are spp for every pixel.
 * 2. Judged from the pixel's own film: every stopped pixel's error estimate at the samples it
 *    holds is below the threshold, and no pixel still going at the end is judged too late
 *    (pixels that ran to spp were above the threshold at the last decision pass, which the test
 *    cannot see, so this checks only the stopped ones).
 * 3. Close to the full render: the adaptive image's mean is within noise of a non-adaptive
 *    render's with another seed at the same spp (adaptive sampling is not unbiased: a pixel that
 *    stops before it sees a rare bright path stays too dark; at this threshold that is below the
 *    noise).
 * 4. Bit-identical across dead-ray strategies, waves that cut passes, two CPU devices, and a
 *    render stopped half-way and resumed from its film (rs_renderer_resume); and the lean film
 *    (film_stats, what render uses) agrees with the full AOV film (--aov) on everything
 *    adaptive sampling reads.
 *
 * usage: test_adaptive SCENE.json [cuda]   (scenes/mirrors.json)
 */
#include "host/import/json/scene_json.h"
#include "kernel/film/adaptive.h"
#include "render_util.h"
#include "tests/test.h"

enum { SIZE = 32, PIXELS = SIZE * SIZE, DEPTH = 5, SPP = 64, MIN_SPP = 8 };
static const float THRESHOLD = 0.03f;

static RsBackendConfig config;

static uint32_t seed = 7;
static int with_aovs; /* the full AOV film instead of film_stats */

static RsFloat4* render(RsScene* scene, float threshold, uint32_t spp, RsDeadRay deadray, int devices,
                        uint64_t wave_limit, RsTraceStats* stats)
{
    RsError err = {{0}};
    RsBackendConfig cfg = config;
    cfg.deadray = deadray;
    cfg.film_stats = !with_aovs;
    cfg.aovs = with_aovs;
    scene->render.noise_threshold = threshold;
    scene->render.min_spp = MIN_SPP;
    TestRender tr = {SIZE, SIZE, spp, DEPTH, RS_INTEGRATOR_PATH, seed, wave_limit, 0};
    RsFloat4* film = test_render_on(scene, &cfg, devices, &tr, stats, &err);
    CHECK(film != NULL, "%s", err.message);
    return film;
}

static double pixel_value(const RsFloat4* film, int i)
{
    return film[i].w > 0.0f ? ((double)film[i].x + film[i].y + film[i].z) / film[i].w : 0.0;
}

/* A render stopped after `first` passes and resumed to SPP from its film on a new renderer. */
static RsFloat4* render_resumed(RsScene* scene, uint32_t first)
{
    RsError err = {{0}};
    RsFloat4* half = render(scene, THRESHOLD, first, RS_DEADRAY_STENCIL, 1, 0, NULL);
    if (!half)
        return NULL;
    RsRendererConfig rc;
    memset(&rc, 0, sizeof rc);
    rc.backend = config;
    rc.backend.film_stats = 1;
    rc.device_count = 1;
    RsRenderer* r = rs_renderer_create(scene, &rc, &err);
    RsFrameDesc frame = rs_frame_from_scene(scene, SIZE, SIZE, DEPTH, RS_INTEGRATOR_PATH, 7);
    RsFloat4* film = malloc((size_t)PIXELS * RS_FILM_PLANES_AOV * sizeof *film);
    int ok = r && film && rs_renderer_begin(r, &frame, (uint64_t)PIXELS * SPP, &err) == 0 &&
             rs_renderer_resume(r, half, SPP, &err) == 0 && rs_renderer_trace(r, (uint64_t)PIXELS * SPP, &err) == 0 &&
             rs_renderer_read_film(r, film, &err) == 0;
    CHECK(ok, "resume: %s", err.message);
    if (r)
        rs_renderer_destroy(r);
    free(half);
    if (!ok) {
        free(film);
        return NULL;
    }
    return film;
}

/* The decision schedule: next_decision finds the next pass that decides_at accepts and skips
 * none; steps grow, so that the gaps stay at most an eighth of the pass (or 4). */
static void test_schedule(void)
{
    const uint32_t mins[] = {1, 2, 5, 16, 100};
    for (int m = 0; m < 5; ++m) {
        uint32_t min_spp = mins[m];
        for (uint32_t p = 0; p < 5000; ++p) {
            uint32_t next = rs_adaptive_next_decision(p, min_spp);
            CHECK(next > p && rs_adaptive_decides_at(next, min_spp), "min %u: after %u comes %u, not a decision",
                  min_spp, p, next);
            for (uint32_t b = p + 1; b < next; ++b)
                CHECK(!rs_adaptive_decides_at(b, min_spp), "min %u: %u decides but next_decision(%u) is %u",
                      min_spp, b, p, next);
            CHECK(next - p <= (p / 8 > 4 ? p / 8 : 4) + (p < min_spp ? min_spp : 0) + 1,
                  "min %u: a gap of %u passes after %u", min_spp, next - p, p);
        }
    }
}

int main(int argc, char** argv)
{
    test_schedule();
    if (argc < 2) {
        fprintf(stderr, "usage: test_adaptive SCENE.json [cuda]\n");
        return 2;
    }
    int cuda = 0;
    if (!test_backend(argc, argv, 2, "test_adaptive", &config, &cuda))
        return RS_TEST_SKIP;
    RsScene scene;
    RsError err = {{0}};
    RsAccelOptions accel = rs_accel_options_default();
    CHECK(rs_scene_load_json(argv[1], &accel, &scene, &err) == 0, "%s", err.message);
    if (err.message[0])
        return rs_test_finish("test_adaptive");

    RsTraceStats full_stats, stats;
    seed = 8; /* independent of the adaptive render's samples, so that their difference is noise */
    RsFloat4* full = render(&scene, 0.0f, SPP, RS_DEADRAY_STENCIL, 1, 0, &full_stats);
    seed = 7;
    RsFloat4* film = render(&scene, THRESHOLD, SPP, RS_DEADRAY_STENCIL, 1, 0, &stats);
    if (!full || !film)
        return rs_test_finish("test_adaptive");

    /* 1 and 2 */
    uint32_t stopped = 0, taken = 0;
    for (int i = 0; i < PIXELS; ++i) {
        float n = film[i].w, book = film[RS_PLANE_ALBEDO * PIXELS + i].w;
        RsFloat4 squares = film[RS_PLANE_SQUARES * PIXELS + i];
        taken += (uint32_t)n;
        CHECK(n >= MIN_SPP && n <= SPP && n == floorf(n), "pixel %d holds %g samples", i, n);
        CHECK(rs_adaptive_visits(book) == (float)SPP, "pixel %d: %g visits, not %d", i, book, SPP);
        CHECK((book < 0.0f) == (n < SPP) || (book < 0.0f && n == SPP), "pixel %d: %g samples, bookkeeping %g", i,
              n, book);
        if (book < 0.0f) {
            ++stopped;
            float error = rs_adaptive_error(film[i], squares);
            CHECK(error < THRESHOLD, "pixel %d stopped at %g samples with error %g", i, n, error);
        }
        if (book < 0.0f) { /* stopped at a decision pass, and only there */
            uint32_t pass = (uint32_t)n;
            CHECK(rs_adaptive_decides_at(pass, MIN_SPP), "pixel %d stopped after %u samples, not a decision pass", i,
                  pass);
        }
    }
    printf("test_adaptive: %u of %d pixels stopped; %u of %d samples taken; camera rays %llu of %llu\n", stopped,
           PIXELS, taken, PIXELS * SPP, (unsigned long long)stats.camera_rays,
           (unsigned long long)full_stats.camera_rays);
    CHECK(stopped > PIXELS / 10 && stopped < PIXELS, "%u of %d pixels stopped", stopped, PIXELS);
    CHECK(stats.camera_rays == taken, "camera rays traced %llu, samples taken %u: stopped pixels traced rays",
          (unsigned long long)stats.camera_rays, taken);
    CHECK(full_stats.camera_rays == (uint64_t)PIXELS * SPP, "the full render traced %llu camera rays",
          (unsigned long long)full_stats.camera_rays);

    /* 3: the means, against the spread of the full render's pixels around the adaptive one's */
    double mean_full = 0.0, mean_adaptive = 0.0, sq = 0.0;
    for (int i = 0; i < PIXELS; ++i) {
        double a = pixel_value(film, i), b = pixel_value(full, i);
        mean_adaptive += a / PIXELS;
        mean_full += b / PIXELS;
        sq += (a - b) * (a - b) / PIXELS;
    }
    double se = sqrt(sq / PIXELS);
    CHECK(fabs(mean_adaptive - mean_full) < 4.0 * se + 1e-6, "image mean %.5f adaptive, %.5f full (%.1f sigma)",
          mean_adaptive, mean_full, fabs(mean_adaptive - mean_full) / se);

    /* 4 */
    size_t bytes = (size_t)PIXELS * RS_FILM_PLANES_AOV * sizeof *film;
    /* auto: generate's drop of stopped paths comes before its first pick's conversion */
    const RsDeadRay strategies[] = {RS_DEADRAY_FLAGS, RS_DEADRAY_PERSISTENT, RS_DEADRAY_COMPACT_SCAN,
                                    RS_DEADRAY_COMPACT_BLOCK, RS_DEADRAY_AUTO};
    for (int k = 0; k < 8; ++k) {
        if (cuda && k == 6)
            continue; /* one GPU on the test host */
        RsFloat4* other = k < 5    ? render(&scene, THRESHOLD, SPP, strategies[k], 1, 0, NULL)
                          : k == 5 ? render(&scene, THRESHOLD, SPP, RS_DEADRAY_STENCIL, 1, 333, NULL)
                          : k == 6 ? render(&scene, THRESHOLD, SPP, RS_DEADRAY_STENCIL, 2, 0, NULL)
                                   : render_resumed(&scene, 21);
        CHECK(other && memcmp(film, other, bytes) == 0, "case %d: the adaptive film differs from the stencil one's", k);
        free(other);
    }
    /* with the full AOV film (--aov): the same beauty, squares and visits */
    with_aovs = 1;
    RsFloat4* aov = render(&scene, THRESHOLD, SPP, RS_DEADRAY_STENCIL, 1, 0, NULL);
    with_aovs = 0;
    for (int i = 0; aov && i < PIXELS; ++i)
        CHECK(memcmp(&film[i], &aov[i], sizeof *film) == 0 &&
                  memcmp(&film[RS_PLANE_SQUARES * PIXELS + i], &aov[RS_PLANE_SQUARES * PIXELS + i], sizeof *film) == 0 &&
                  film[RS_PLANE_ALBEDO * PIXELS + i].w == aov[RS_PLANE_ALBEDO * PIXELS + i].w,
              "pixel %d: the AOV film's adaptive sampling differs from the lean film's", i);
    free(aov);
    free(film);
    free(full);
    rs_scene_free(&scene);
    return rs_test_finish("test_adaptive");
}
