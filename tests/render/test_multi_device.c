/* test_multi_device.c - the renderer with several devices (render suite: CPU instances; the gpu
 * suite runs it with "cuda" on every GPU of the host).
 *
 * What must hold (renderer.h): the film is bit-identical to one device's for every strategy
 * and any number of devices; the queue shares the work (every device traces some); a render
 * stopped at the pass or mid-wave and resumed on a different number of devices ends
 * bit-identical; a device that fails mid-render makes rs_renderer_trace fail with an error
 * naming it, while the film keeps every sample completed, each pixel equal to a render with
 * exactly its sample count.
 *
 * usage: test_multi_device SCENE.json [cuda]
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include "host/import/json/scene_json.h"
#include "render_util.h"
#include "tests/test.h"

#include <time.h>

static const uint32_t W = 61, H = 43, SPP = 5; /* 2623 pixels: no multiple of a band, a tile or a warp */

static int same_film(const RsFloat4* a, const RsFloat4* b, uint32_t pixels, uint32_t* first_diff)
{
    for (uint32_t i = 0; i < pixels; ++i)
        if (memcmp(&a[i], &b[i], sizeof a[i]) != 0) {
            *first_diff = i;
            return 0;
        }
    return 1;
}

/* ---- a backend that fails, or raises a stop flag, on cue (and may slow its waves): wraps the
 * real one ---- */

typedef struct CueBackend {
    RsBackend base;
    RsBackend* inner;
    int waves_left; /* the cue: when this reaches 0 in generate */
} CueBackend;

static int cue_device = -1; /* which device's backend has the cue (by its config.device; -2: all) */
static int cue_waves = 0;
static volatile sig_atomic_t* cue_flag = NULL; /* set: raise this flag at the cue instead of failing */
static long wave_delay_ns = 0; /* every wave of the cued devices takes at least this long */

#define INNER(b) (((CueBackend*)(b))->inner)
static void f_destroy(RsBackend* b)
{
    rs_backend_destroy(INNER(b));
    free(b);
}
static int f_set_scene(RsBackend* b, const RsSceneView* s, RsError* e) { return INNER(b)->ops->set_scene(INNER(b), s, e); }
static int f_set_frame(RsBackend* b, const RsFrameDesc* f, uint32_t w, RsError* e)
{
    return INNER(b)->ops->set_frame(INNER(b), f, w, e);
}
static int f_generate(RsBackend* b, const RsWaveRange* w, RsError* e)
{
    CueBackend* f = (CueBackend*)b;
    if (wave_delay_ns > 0) {
        struct timespec t = {0, wave_delay_ns};
        nanosleep(&t, NULL);
    }
    if (f->waves_left-- == 0) {
        if (!cue_flag)
            return rs_error_set(e, "injected failure");
        *cue_flag = 1; /* a stop arriving while this wave is in flight */
    }
    return f->inner->ops->generate(f->inner, w, e);
}
static int f_sort(RsBackend* b, RsError* e) { return INNER(b)->ops->sort(INNER(b), e); }
static int f_sort_materials(RsBackend* b, RsError* e) { return INNER(b)->ops->sort_materials(INNER(b), e); }
static int f_extend(RsBackend* b, RsError* e) { return INNER(b)->ops->extend(INNER(b), e); }
static int f_shade(RsBackend* b, RsError* e) { return INNER(b)->ops->shade(INNER(b), e); }
static int f_connect(RsBackend* b, RsError* e) { return INNER(b)->ops->connect(INNER(b), e); }
static int f_drop_dead(RsBackend* b, RsError* e) { return INNER(b)->ops->drop_dead(INNER(b), e); }
static int f_read_counts(RsBackend* b, RsBounceCounts* c, RsError* e) { return INNER(b)->ops->read_counts(INNER(b), c, e); }
static int f_accumulate(RsBackend* b, RsError* e) { return INNER(b)->ops->accumulate(INNER(b), e); }
static int f_read_film(RsBackend* b, RsFloat4* f, RsError* e) { return INNER(b)->ops->read_film(INNER(b), f, e); }
static int f_write_film(RsBackend* b, const RsFloat4* f, RsError* e) { return INNER(b)->ops->write_film(INNER(b), f, e); }
static int f_read_span(RsBackend* b, uint32_t first, uint32_t n, RsFloat4* v, RsError* e)
{
    return INNER(b)->ops->read_film_span(INNER(b), first, n, v, e);
}
static int f_write_span(RsBackend* b, uint32_t first, uint32_t n, const RsFloat4* v, RsError* e)
{
    return INNER(b)->ops->write_film_span(INNER(b), first, n, v, e);
}
static int f_display(RsBackend* b, const RsDisplaySettings* s, uint8_t* rgba, RsDisplayStats* st, RsError* e)
{
    return INNER(b)->ops->display(INNER(b), s, rgba, st, e);
}
static int f_make_image(RsBackend* b, const RsImageRequest* r, RsError* e)
{
    return INNER(b)->ops->make_image(INNER(b), r, e);
}
static int f_read_image(RsBackend* b, RsFloat4* image, RsError* e) { return INNER(b)->ops->read_image(INNER(b), image, e); }
static int f_finish(RsBackend* b, RsError* e) { return INNER(b)->ops->finish(INNER(b), e); }
static int f_take_times(RsBackend* b, double s[RS_STAGE_COUNT], RsError* e)
{
    return INNER(b)->ops->take_stage_times ? INNER(b)->ops->take_stage_times(INNER(b), s, e) : 0;
}
static uint64_t f_bytes(const RsBackend* b) { return INNER(b)->ops->bytes_per_path(INNER(b)); }
#undef INNER

static RsBackendOps cue_ops = {
    .destroy = f_destroy,
    .set_scene = f_set_scene,
    .set_frame = f_set_frame,
    .generate = f_generate,
    .sort = f_sort,
    .sort_materials = f_sort_materials,
    .extend = f_extend,
    .shade = f_shade,
    .connect = f_connect,
    .drop_dead = f_drop_dead,
    .read_counts = f_read_counts,
    .accumulate = f_accumulate,
    .read_film = f_read_film,
    .write_film = f_write_film,
    .read_film_span = f_read_span,
    .write_film_span = f_write_span,
    .make_image = f_make_image,
    .read_image = f_read_image,
    .display = f_display,
    .finish = f_finish,
    .take_stage_times = NULL,
    .bytes_per_path = f_bytes,
};

static RsBackend* cue_create(const RsBackendConfig* c, RsError* err)
{
    RsBackend* inner = rs_backend_create(c, err);
    if (!inner || (c->device != cue_device && cue_device != -2))
        return inner;
    CueBackend* f = calloc(1, sizeof *f);
    f->base = *inner;
    cue_ops.take_stage_times = inner->ops->take_stage_times ? f_take_times : NULL;
    f->base.ops = &cue_ops;
    f->inner = inner;
    f->waves_left = cue_waves;
    return &f->base;
}

static RsRenderer* make(const RsScene* scene, const RsBackendConfig* cfg, int devices, uint32_t spans_per_device,
                        RsBackend* (*create)(const RsBackendConfig*, RsError*), uint64_t planned, RsError* err)
{
    RsRendererConfig rc;
    memset(&rc, 0, sizeof rc);
    rc.backend = *cfg;
    rc.device_count = devices;
    for (int i = 0; i < devices; ++i)
        rc.devices[i] = i;
    rc.spans_per_device = spans_per_device;
    rc.create_backend = create;
    RsRenderer* r = rs_renderer_create(scene, &rc, err);
    RsFrameDesc frame = rs_frame_from_scene(scene, W, H, 6, RS_INTEGRATOR_PATH, 7);
    if (r && rs_renderer_begin(r, &frame, planned, err)) {
        rs_renderer_destroy(r);
        return NULL;
    }
    return r;
}

static RsFloat4* read_film(RsRenderer* r)
{
    RsError err = {{0}};
    RsFloat4* film = malloc((size_t)W * H * rs_renderer_film_planes(r) * sizeof *film);
    CHECK(film && rs_renderer_read_film(r, film, &err) == 0, "read film: %s", err.message);
    return film;
}

int main(int argc, char** argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_multi_device SCENE.json [cuda]\n");
        return 2;
    }
    RsBackendConfig base;
    int cuda = 0;
    if (!test_backend(argc, argv, 2, "test_multi_device", &base, &cuda))
        return 77;
    RsError err = {{0}};
    RsScene scene;
    RsAccelOptions accel = rs_accel_options_default();
    accel.kind = cuda ? RS_ACCEL_BVH8 : RS_ACCEL_BVH2;
    if (rs_scene_load_json(argv[1], &accel, &scene, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    const uint32_t pixels = W * H;
    int most = cuda ? rs_cuda_device_count() : 3;
    if (most > RS_MAX_DEVICES)
        most = RS_MAX_DEVICES;
    if (cuda && most < 2)
        printf("test_multi_device: one GPU; the several-device cases run with 1\n");

    /* references: one device, 0..SPP samples (the failure case compares pixels to these) */
    RsFloat4* ref[8] = {0};
    for (uint32_t spp = 1; spp <= SPP; ++spp) {
        RsRenderer* r = make(&scene, &base, 1, 0, NULL, (uint64_t)pixels * SPP, &err);
        CHECK(r && rs_renderer_trace(r, (uint64_t)pixels * spp, &err) == 0, "reference %u spp: %s", spp, err.message);
        ref[spp] = r ? read_film(r) : calloc(pixels, sizeof(RsFloat4));
        rs_renderer_destroy(r);
    }
    ref[0] = calloc(pixels, sizeof(RsFloat4));

    /* 1. several devices, several strategies: bit-identical, and the queue shares the work */
    RsDeadRay strategies[] = {RS_DEADRAY_STENCIL, RS_DEADRAY_PERSISTENT, RS_DEADRAY_COMPACT_WARP, RS_DEADRAY_FLAGS,
                              RS_DEADRAY_AUTO};
    for (size_t s = 0; s < sizeof strategies / sizeof strategies[0]; ++s) {
        for (int devices = 2; devices <= (most > 2 ? most : 2); ++devices) {
            int n = devices <= most ? devices : most;
            RsBackendConfig cfg = base;
            cfg.deadray = strategies[s];
            /* small waves (planned 600 paths a device): many pieces, spans cut mid-pass; every
             * other strategy with the automatic span count */
            RsRenderer* r = make(&scene, &cfg, n, s % 2 ? 0 : 4, NULL, 600ull * (uint64_t)n, &err);
            CHECK(r != NULL, "%s on %d devices: %s", rs_deadray_name(cfg.deadray), n, err.message);
            if (!r)
                continue;
            CHECK(rs_renderer_trace(r, (uint64_t)pixels * SPP, &err) == 0, "trace: %s", err.message);
            RsFloat4* film = read_film(r);
            uint32_t at = 0;
            CHECK(same_film(film, ref[SPP], pixels, &at), "%s on %d devices: pixel %u differs from one device's",
                  rs_deadray_name(cfg.deadray), n, at);
            uint64_t sum = 0;
            for (int d = 0; d < n; ++d) {
                uint64_t p = rs_renderer_device_paths(r, d);
                sum += p;
            }
            CHECK(sum == (uint64_t)pixels * SPP && rs_renderer_paths_done(r) == sum,
                  "%s on %d devices: %llu paths traced, %llu counted, expected %u", rs_deadray_name(cfg.deadray), n,
                  (unsigned long long)sum, (unsigned long long)rs_renderer_paths_done(r), pixels * SPP);
            RsTraceStats st = rs_renderer_stats(r);
            CHECK(st.camera_rays == (uint64_t)pixels * SPP, "camera rays %llu over the devices, expected %u",
                  (unsigned long long)st.camera_rays, pixels * SPP);
            free(film);
            rs_renderer_destroy(r);
        }
    }

    /* the queue shares the work: with every wave taking 2 ms (so that no device can take the
     * whole queue before the others' threads wake), each of the devices traces some of it */
    {
        int n = most >= 2 ? most : 1;
        cue_flag = NULL;
        cue_device = -2;
        cue_waves = -1; /* never the cue */
        wave_delay_ns = 2000000;
        RsRenderer* r = make(&scene, &base, n, 4, cue_create, 600ull * (uint64_t)n, &err);
        CHECK(r && rs_renderer_trace(r, (uint64_t)pixels * SPP, &err) == 0, "sharing: %s", err.message);
        for (int d = 0; r && d < n; ++d)
            CHECK(n == 1 || rs_renderer_device_paths(r, d) > 0, "device %d of %d traced nothing of 22 waves", d, n);
        rs_renderer_destroy(r);
        wave_delay_ns = 0;
    }

    /* 2. stopped at the pass on 3 devices, resumed on 2: bit-identical; and stopped mid-wave
     *    on 2 devices (spans then hold a prefix with one sample more), resumed on 1 */
    for (int mode = 0; mode < 2; ++mode) {
        int first = mode == 0 ? (most >= 3 ? 3 : most) : (most >= 2 ? 2 : 1), second = mode == 0 ? 2 : 1;
        if (second > most)
            second = most;
        static volatile sig_atomic_t stop;
        stop = 0;
        cue_flag = &stop;
        cue_device = -2; /* whichever device reaches its third wave first raises the stop */
        cue_waves = 2;
        RsRenderer* r = make(&scene, &base, first, 3, cue_create, 700ull * (uint64_t)first, &err);
        CHECK(r != NULL, "stop case: %s", err.message);
        if (!r)
            continue;
        if (mode == 0)
            rs_renderer_set_stop(r, &stop, NULL);
        else
            rs_renderer_set_stop(r, NULL, &stop);
        int status = rs_renderer_trace(r, (uint64_t)pixels * SPP, &err);
        uint64_t done = rs_renderer_paths_done(r);
        CHECK(status == RS_WAVEFRONT_STOPPED && done < (uint64_t)pixels * SPP,
              "stop %s: status %d, %llu of %u paths", mode ? "mid-wave" : "at the pass", status,
              (unsigned long long)done, pixels * SPP);
        RsFloat4* partial = read_film(r);
        rs_renderer_destroy(r);
        double counted = 0.0;
        for (uint32_t i = 0; i < pixels; ++i)
            counted += partial[i].w;
        CHECK(counted == (double)done, "stopped film holds %.0f samples, the renderer counted %llu", counted,
              (unsigned long long)done);
        printf("stopped %s on %d devices at %.3f spp; resuming on %d\n", mode ? "mid-wave" : "at the pass", first,
               (double)done / pixels, second);
        RsRenderer* again = make(&scene, &base, second, 5, NULL, 900ull * (uint64_t)second, &err);
        CHECK(again && rs_renderer_resume(again, partial, SPP, &err) == 0 &&
                  rs_renderer_trace(again, (uint64_t)pixels * SPP, &err) == 0,
              "resume on %d devices: %s", second, err.message);
        if (again) {
            RsFloat4* film = read_film(again);
            uint32_t at = 0;
            CHECK(same_film(film, ref[SPP], pixels, &at),
                  "stopped %s on %d devices at %llu paths, resumed on %d: pixel %u differs",
                  mode ? "mid-wave" : "at the pass", first, (unsigned long long)done, second, at);
            free(film);
        }
        rs_renderer_destroy(again);
        free(partial);
    }

    /* 3. a device fails mid-render: the error names it, and every pixel of the film equals the
     *    one-device render with exactly its sample count */
    if (most >= 2) {
        cue_flag = NULL;
        cue_device = 1;
        cue_waves = 3;
        RsRenderer* r = make(&scene, &base, 2, 4, cue_create, 500ull * 2, &err);
        CHECK(r != NULL, "failing device: %s", err.message);
        if (r) {
            rs_error_clear(&err);
            int status = rs_renderer_trace(r, (uint64_t)pixels * SPP, &err);
            CHECK(status == -1 && strstr(err.message, "device 1") && strstr(err.message, "injected failure"),
                  "a failing device: status %d, '%s'", status, err.message);
            RsFloat4* film = read_film(r);
            uint32_t bad = 0, pixel = 0;
            double counted = 0.0;
            for (uint32_t i = 0; i < pixels; ++i) {
                uint32_t c = (uint32_t)film[i].w;
                counted += film[i].w;
                if (c > SPP || memcmp(&film[i], &ref[c][i], sizeof film[i]) != 0) {
                    bad++;
                    pixel = i;
                }
            }
            CHECK(bad == 0, "%u pixels (e.g. %u) are not a whole-sample render after the failure", bad, pixel);
            CHECK(counted == (double)rs_renderer_paths_done(r) && counted > 0.0,
                  "after the failure the film holds %.0f samples, the renderer counts %llu", counted,
                  (unsigned long long)rs_renderer_paths_done(r));
            free(film);
            rs_renderer_destroy(r);
        }
    }

    for (uint32_t spp = 0; spp <= SPP; ++spp)
        free(ref[spp]);
    rs_scene_free(&scene);
    return rs_test_finish("test_multi_device");
}
