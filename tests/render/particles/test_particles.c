/* test_particles.c - the particle integrators, light tracing and SPPM, against the path tracer
 * and against themselves (render suite on the CPU; the gpu suite runs it with `cuda`). Host C11.
 *
 *   test_particles [cpu|cuda]
 *
 * 1. Same estimate: a small room (an area light facing down, a point light, a diffuse sphere,
 *    coloured walls) at depth 4. Light tracing's image mean agrees with the path tracer's within
 *    5 standard errors (estimated over seeds) and 2%, and so do the left and right halves (the
 *    red and the green wall), so light does not only add up but lands where it should. SPPM,
 *    biased but consistent, agrees within 5% after its radius has shrunk.
 * 2. Bit for bit: every dead-ray strategy of the backend, one or three threads (CPU), and waves
 *    of 1000 particles give the same film for light tracing and SPPM (chunks are sorted by their
 *    order keys, never summed in arrival order).
 * 3. SPPM resumes: 3 passes, then a new renderer resumed from that film (its state planes
 *    included) to 6, equals 6 passes straight, bit for bit: what a checkpoint relies on.
 * 4. Refusals: several devices, adaptive sampling, depth 0, SPPM options out of range.
 */
#include <math.h>
#include <string.h>

#include "host/render/particle_trace.h"
#include "host/scene/settings.h"
#include "tests/render/render_util.h"
#include "tests/test.h"

static uint32_t material(RsScene* s, const char* name, RsVec3 albedo, RsVec3 emission, RsError* err)
{
    return (uint32_t)rs_scene_add_material(s, name, rs_material_make(RS_MAT_DIFFUSE, albedo, emission, 1.0f, 0), err);
}

static void quad(RsScene* s, RsVec3 a, RsVec3 b, RsVec3 c, RsVec3 d, uint32_t m, RsError* err)
{
    rs_scene_add_triangle(s, a, b, c, m, err);
    rs_scene_add_triangle(s, a, c, d, m, err);
}

static void room(RsScene* s, RsError* err)
{
    rs_scene_init(s);
    s->camera.eye = rs_vec3(0.0f, 1.0f, 3.2f);
    s->camera.look_at = rs_vec3(0.0f, 0.9f, 0.0f);
    s->camera.up = rs_vec3(0.0f, 1.0f, 0.0f);
    s->camera.fov_degrees = 55.0f;
    uint32_t white = material(s, "white", rs_vec3_splat(0.7f), rs_vec3_splat(0.0f), err);
    uint32_t red = material(s, "red", rs_vec3(0.7f, 0.1f, 0.1f), rs_vec3_splat(0.0f), err);
    uint32_t green = material(s, "green", rs_vec3(0.1f, 0.7f, 0.1f), rs_vec3_splat(0.0f), err);
    uint32_t lamp = material(s, "lamp", rs_vec3_splat(0.0f), rs_vec3(12.0f, 11.0f, 9.0f), err);
    /* floor, ceiling, back wall facing the room; red left, green right */
    quad(s, rs_vec3(-1, 0, -1), rs_vec3(-1, 0, 1), rs_vec3(1, 0, 1), rs_vec3(1, 0, -1), white, err);
    quad(s, rs_vec3(-1, 2, -1), rs_vec3(1, 2, -1), rs_vec3(1, 2, 1), rs_vec3(-1, 2, 1), white, err);
    quad(s, rs_vec3(-1, 0, -1), rs_vec3(1, 0, -1), rs_vec3(1, 2, -1), rs_vec3(-1, 2, -1), white, err);
    quad(s, rs_vec3(-1, 0, -1), rs_vec3(-1, 2, -1), rs_vec3(-1, 2, 1), rs_vec3(-1, 0, 1), red, err);
    quad(s, rs_vec3(1, 0, -1), rs_vec3(1, 0, 1), rs_vec3(1, 2, 1), rs_vec3(1, 2, -1), green, err);
    quad(s, rs_vec3(-0.3f, 1.98f, -0.3f), rs_vec3(0.3f, 1.98f, -0.3f), rs_vec3(0.3f, 1.98f, 0.3f),
         rs_vec3(-0.3f, 1.98f, 0.3f), lamp, err);
    rs_scene_add_sphere(s, rs_vec3(0.3f, 0.35f, -0.2f), 0.35f, white, err);
    rs_scene_add_point_light(s, rs_vec3(-0.5f, 1.2f, 0.4f), rs_vec3(0.6f, 0.5f, 0.8f), err);
    rs_scene_build(s, err);
}

enum { W = 32, H = 24, PHOTONS = 2048 /* per pass: the default (a chunk) would make the test slow */ };

static RsFloat4* render(const RsScene* s, RsBackendConfig cfg, uint32_t integrator, uint32_t spp, uint32_t seed,
                        uint64_t wave_limit)
{
    RsError err = {{0}};
    cfg.particles = 1;
    TestRender tr = {W, H, spp, 4, integrator, seed, wave_limit, PHOTONS};
    RsFloat4* film = test_render(s, &cfg, &tr, NULL, &err);
    CHECK(film != NULL, "%s", err.message);
    return film;
}

/* Luminance means of the whole image, its left and its right third. */
static void means(const RsFloat4* film, double out[3])
{
    out[0] = out[1] = out[2] = 0.0;
    for (uint32_t y = 0; y < H; ++y)
        for (uint32_t x = 0; x < W; ++x) {
            RsFloat4 p = film[y * W + x];
            double l = p.w > 0.0f ? (0.2126 * p.x + 0.7152 * p.y + 0.0722 * p.z) / p.w : 0.0;
            out[0] += l / (W * H);
            if (x < W / 3)
                out[1] += l / (W / 3 * H);
            if (x >= W - W / 3)
                out[2] += l / (W / 3 * H);
        }
}

static void test_same_estimate(const RsScene* s, RsBackendConfig cfg, int cuda)
{
    enum { SEEDS = 6 };
    const uint32_t integrators[3] = {RS_INTEGRATOR_PATH, RS_INTEGRATOR_LIGHT, RS_INTEGRATOR_SPPM};
    const uint32_t spp[3] = {cuda ? 1024u : 96u, cuda ? 1024u : 96u, cuda ? 256u : 48u};
    double mean[3][3], se[3];
    for (int k = 0; k < 3; ++k) {
        double sum[3] = {0, 0, 0}, sum2 = 0.0;
        for (uint32_t seed = 0; seed < SEEDS; ++seed) {
            RsFloat4* film = render(s, cfg, integrators[k], spp[k], 40 + seed, 0);
            double m[3] = {0, 0, 0};
            if (film)
                means(film, m);
            free(film);
            for (int j = 0; j < 3; ++j)
                sum[j] += m[j];
            sum2 += m[0] * m[0];
        }
        for (int j = 0; j < 3; ++j)
            mean[k][j] = sum[j] / SEEDS;
        se[k] = sqrt(fmax(0.0, (sum2 - sum[0] * sum[0] / SEEDS) / (SEEDS - 1)) / SEEDS);
        printf("%-5s mean %.5f +- %.5f, left %.5f, right %.5f\n", rs_integrator_name(integrators[k]), mean[k][0],
               se[k], mean[k][1], mean[k][2]);
    }
    double diff = fabs(mean[1][0] - mean[0][0]);
    CHECK(diff <= 5.0 * sqrt(se[0] * se[0] + se[1] * se[1]) && diff <= 0.02 * mean[0][0],
          "light tracing's mean %.5f +- %.5f differs from the path tracer's %.5f +- %.5f", mean[1][0], se[1],
          mean[0][0], se[0]);
    for (int j = 1; j < 3; ++j)
        CHECK(fabs(mean[1][j] / mean[0][j] - 1.0) <= 0.04, "light tracing's %s third %.5f, the path tracer's %.5f",
              j == 1 ? "left" : "right", mean[1][j], mean[0][j]);
    for (int j = 0; j < 3; ++j)
        CHECK(fabs(mean[2][j] / mean[0][j] - 1.0) <= 0.05, "SPPM's %s %.5f, the path tracer's %.5f",
              j == 0 ? "mean" : j == 1 ? "left third" : "right third", mean[2][j], mean[0][j]);
}

static int same_film(const RsFloat4* a, const RsFloat4* b, size_t entries)
{
    return a && b && memcmp(a, b, entries * sizeof *a) == 0;
}

static void test_bit_identical(const RsScene* s, RsBackendConfig cfg, int cuda)
{
    const uint32_t integrators[2] = {RS_INTEGRATOR_LIGHT, RS_INTEGRATOR_SPPM};
    for (int k = 0; k < 2; ++k) {
        uint32_t spp = 3;
        size_t entries = (size_t)W * H * (1 + 2); /* the beauty and SPPM's two planes */
        RsBackendConfig base = cfg;
        base.deadray = RS_DEADRAY_STENCIL;
        RsFloat4* ref = render(s, base, integrators[k], spp, 9, 0);
        for (int d = 0; d < RS_DEADRAY_COUNT; ++d) {
            RsBackendConfig c = cfg;
            c.deadray = (RsDeadRay)d;
            if (!rs_deadray_supported(c.deadray, cuda ? RS_BACKEND_CUDA : RS_BACKEND_CPU))
                continue;
            RsFloat4* film = render(s, c, integrators[k], spp, 9, d == RS_DEADRAY_COMPACT_SCAN ? 1000 : 0);
            CHECK(same_film(ref, film, entries), "%s: %s%s differs from stencil", rs_integrator_name(integrators[k]),
                  rs_deadray_name(c.deadray), d == RS_DEADRAY_COMPACT_SCAN ? " in waves of 1000" : "");
            free(film);
        }
        if (!cuda) {
            for (uint32_t threads = 1; threads <= 3; threads += 2) {
                RsBackendConfig c = base;
                c.threads = threads;
                RsFloat4* film = render(s, c, integrators[k], spp, 9, 0);
                CHECK(same_film(ref, film, entries), "%s: %u threads differ", rs_integrator_name(integrators[k]),
                      threads);
                free(film);
            }
        }
        free(ref);
    }
}

static void test_resume(const RsScene* s, RsBackendConfig cfg)
{
    RsError err = {{0}};
    cfg.particles = 1;
    RsRendererConfig rc;
    memset(&rc, 0, sizeof rc);
    rc.backend = cfg;
    rc.device_count = 1;
    uint64_t pixels = (uint64_t)W * H;
    RsFrameDesc frame = rs_frame_from_scene(s, W, H, 4, RS_INTEGRATOR_SPPM, 5);
    frame.photons_per_pass = PHOTONS;
    RsFloat4* straight = render(s, cfg, RS_INTEGRATOR_SPPM, 6, 5, 0);
    RsRenderer* r = rs_renderer_create(s, &rc, &err);
    size_t entries = (size_t)pixels * 3;
    RsFloat4* film = malloc(entries * sizeof *film);
    CHECK(r && film, "%s", err.message);
    if (!r || !film)
        return;
    CHECK(rs_film_planes(&rc.backend) == 3, "SPPM's film has %u planes", rs_film_planes(&rc.backend));
    CHECK(rs_renderer_begin(r, &frame, pixels * 3, &err) == 0 && rs_renderer_trace(r, pixels * 3, &err) == 0 &&
              rs_renderer_read_film(r, film, &err) == 0,
          "%s", err.message);
    rs_renderer_destroy(r);
    r = rs_renderer_create(s, &rc, &err);
    CHECK(r != NULL, "%s", err.message);
    CHECK(rs_renderer_begin(r, &frame, pixels * 6, &err) == 0 && rs_renderer_resume(r, film, 6, &err) == 0 &&
              rs_renderer_trace(r, pixels * 6, &err) == 0 && rs_renderer_read_film(r, film, &err) == 0,
          "%s", err.message);
    CHECK(same_film(straight, film, entries), "3 passes resumed to 6 differ from 6 straight");
    rs_renderer_destroy(r);
    free(film);
    free(straight);
}

static void expect_refused(const RsScene* s, RsBackendConfig cfg, int devices, RsFrameDesc frame, const char* want)
{
    RsError err = {{0}};
    cfg.particles = 1;
    RsRendererConfig rc;
    memset(&rc, 0, sizeof rc);
    rc.backend = cfg;
    rc.device_count = devices;
    for (int i = 0; i < devices; ++i)
        rc.devices[i] = i;
    RsRenderer* r = rs_renderer_create(s, &rc, &err);
    CHECK(r != NULL, "%s", err.message);
    int failed = r && rs_renderer_begin(r, &frame, 1000, &err) != 0;
    CHECK(failed && strstr(err.message, want), "expected an error naming '%s', got '%s'", want, err.message);
    rs_renderer_destroy(r);
}

static void test_refusals(const RsScene* s, RsBackendConfig cfg, int cuda)
{
    RsFrameDesc f = rs_frame_from_scene(s, W, H, 4, RS_INTEGRATOR_LIGHT, 1);
    if (!cuda)
        expect_refused(s, cfg, 2, f, "one device");
    RsFrameDesc g = f;
    g.noise_threshold = 0.01f;
    expect_refused(s, cfg, 1, g, "--noise-threshold");
    g = f;
    g.max_depth = 0;
    expect_refused(s, cfg, 1, g, "depth");
    g = rs_frame_from_scene(s, W, H, 4, RS_INTEGRATOR_SPPM, 1);
    g.sppm_alpha = 1.0f;
    expect_refused(s, cfg, 1, g, "--sppm-alpha");
    g.sppm_alpha = 0.5f;
    g.sppm_radius = 0.0f;
    expect_refused(s, cfg, 1, g, "--sppm-radius");
    RsScene dark;
    RsError err = {{0}};
    rs_scene_init(&dark);
    rs_scene_add_sphere(&dark, rs_vec3(0, 0, 0), 1.0f, material(&dark, "grey", rs_vec3_splat(0.5f),
                                                                 rs_vec3_splat(0.0f), &err), &err);
    CHECK(rs_scene_build(&dark, &err) == 0, "%s", err.message);
    CHECK(rs_particles_check_scene(&dark, RS_INTEGRATOR_LIGHT, &err) != 0 && strstr(err.message, "no light"),
          "a scene without light: '%s'", err.message);
    rs_scene_free(&dark);
}

int main(int argc, char** argv)
{
    RsBackendConfig cfg;
    int cuda;
    if (!test_backend(argc, argv, 1, "test_particles", &cfg, &cuda))
        return RS_TEST_SKIP;
    RsError err = {{0}};
    RsScene s;
    room(&s, &err);
    CHECK(err.message[0] == 0, "%s", err.message);
    test_refusals(&s, cfg, cuda);
    test_bit_identical(&s, cfg, cuda);
    test_resume(&s, cfg);
    test_same_estimate(&s, cfg, cuda);
    rs_scene_free(&s);
    return rs_test_finish("test_particles");
}
