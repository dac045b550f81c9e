/* test_denoise.c - the denoiser (src/kernel/film/denoise.h) on synthetic AOV films (render suite on
 * the CPU; the gpu suite runs it with `cuda`, comparing the CUDA kernels with the CPU). Host C11.
 *
 *   test_denoise [cpu|cuda]
 *
 * 1. A constant image comes out unchanged to the bit, at 1 and 16 spp, and so do black and
 *    white ones, and a 1x1 image.
 * 2. No NaN or Inf ever: a film with a NaN pixel, an Inf pixel and pixels without samples
 *    gives finite values everywhere; the bad pixels take values inside their neighbours' range.
 * 3. It denoises: a flat, evenly lit plane with noise (known truth) loses at least 90% of its
 *    mean squared error at 1 and 4 spp.
 * 4. It keeps edges: two halves with different normals and brightness stay apart (the column
 *    next to the edge keeps its own half's value within 10%).
 * 5. Albedo is not blurred: a checkerboard texture under even light keeps its contrast.
 * 6. (cuda) the CUDA kernels agree with the CPU on a rendered Cornell box film with AOVs, within
 *    1e-3 relative (expf/powf round differently) at every pixel.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host/backend/cpu/denoise_cpu.h"
#include "host/import/json/scene_json.h"
#include "render_util.h"
#include "tests/test.h"

typedef struct Film {
    uint32_t w, h;
    RsFloat4* planes; /* RS_FILM_PLANES_AOV planes */
} Film;

static Film film_new(uint32_t w, uint32_t h)
{
    Film f = {w, h, calloc((size_t)w * h * RS_FILM_PLANES_AOV, sizeof(RsFloat4))};
    return f;
}

static RsFloat4* plane(const Film* f, int p) { return f->planes + (size_t)p * f->w * f->h; }

/* Sets a pixel as if n samples of radiance c[k] (k < n) had hit a surface with albedo a,
 * normal nrm at depth z. */
static void put(Film* f, uint32_t i, int n, const RsVec3* c, RsVec3 a, RsVec3 nrm, float z)
{
    RsFloat4 b = {0, 0, 0, (float)n}, sq = {0, 0, 0, 0};
    for (int k = 0; k < n; ++k) {
        b.x += c[k].x;
        b.y += c[k].y;
        b.z += c[k].z;
        float l = rs_luminance(c[k]);
        sq = rs_float4(sq.x + c[k].x * c[k].x, sq.y + c[k].y * c[k].y, sq.z + c[k].z * c[k].z, sq.w + l * l);
    }
    plane(f, RS_PLANE_BEAUTY)[i] = b;
    plane(f, RS_PLANE_SQUARES)[i] = sq;
    plane(f, RS_PLANE_ALBEDO)[i] = rs_pack(rs_scale(a, (float)n), 0.0f);
    plane(f, RS_PLANE_NORMAL)[i] = rs_pack(rs_scale(nrm, (float)n), (float)n);
    plane(f, RS_PLANE_POSITION)[i] = rs_float4(0, 0, 0, z * (float)n);
}

static uint32_t rng_state = 12345u;
static float uniform(void)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return (float)(rng_state >> 8) / 16777216.0f;
}

static RsFloat4* denoise(const Film* f)
{
    RsFloat4* out = malloc((size_t)f->w * f->h * sizeof *out);
    RsDenoiseScratch scratch = {0};
    RsError err = {{0}};
    RsDenoiseSettings s = rs_denoise_defaults();
    CHECK(rs_denoise_cpu(NULL, f->planes, f->w, f->h, &s, &scratch, out, &err) == 0, "%s", err.message);
    rs_denoise_scratch_free(&scratch);
    return out;
}

static void test_constant(uint32_t w, uint32_t h, int n, RsVec3 c, RsVec3 a)
{
    Film f = film_new(w, h);
    RsVec3 samples[16];
    for (int k = 0; k < n; ++k)
        samples[k] = c;
    for (uint32_t i = 0; i < w * h; ++i)
        put(&f, i, n, samples, a, rs_vec3(0, 0, 1), 2.0f);
    RsFloat4* out = denoise(&f);
    int same = 1;
    for (uint32_t i = 0; i < w * h; ++i) {
        RsVec3 in = rs_film_pixel(plane(&f, RS_PLANE_BEAUTY)[i]);
        same &= out[i].x == in.x && out[i].y == in.y && out[i].z == in.z;
    }
    CHECK(same, "%ux%u at %d spp, colour (%g %g %g): the constant image changed", w, h, n, c.x, c.y, c.z);
    free(out);
    free(f.planes);
}

static void test_bad_pixels(void)
{
    uint32_t w = 32, h = 24;
    Film f = film_new(w, h);
    for (uint32_t i = 0; i < w * h; ++i) {
        RsVec3 c[2] = {rs_vec3_splat(uniform()), rs_vec3_splat(uniform())};
        put(&f, i, 2, c, rs_vec3_splat(0.5f), rs_vec3(0, 0, 1), 3.0f);
    }
    uint32_t nan_pixel = 5 * w + 7, inf_pixel = 12 * w + 20, empty = 20 * w + 3;
    plane(&f, RS_PLANE_BEAUTY)[nan_pixel].y = NAN;
    plane(&f, RS_PLANE_BEAUTY)[inf_pixel].x = INFINITY;
    plane(&f, RS_PLANE_SQUARES)[inf_pixel].x = INFINITY;
    memset(&plane(&f, RS_PLANE_BEAUTY)[empty], 0, sizeof(RsFloat4));
    plane(&f, RS_PLANE_ALBEDO)[4].x = NAN; /* a bad guide as well */
    RsFloat4* out = denoise(&f);
    int finite = 1;
    for (uint32_t i = 0; i < w * h; ++i)
        finite &= rs_is_finite(out[i].x) && rs_is_finite(out[i].y) && rs_is_finite(out[i].z);
    CHECK(finite, "the denoised image has a NaN or Inf");
    /* the NaN and Inf pixels keep their albedo (0.5): their neighbours' colours are in [0, 1];
     * the empty one has none, so it shows their lighting (colour / 0.5, in [0, 2]) */
    uint32_t bad[3] = {nan_pixel, inf_pixel, empty};
    for (int k = 0; k < 3; ++k)
        CHECK(out[bad[k]].x >= 0.0f && out[bad[k]].x <= (k < 2 ? 1.0f : 2.0f), "pixel %u: %g, outside its neighbours' range",
              bad[k], out[bad[k]].x);
    free(out);
    free(f.planes);
}

static double mse(const RsFloat4* img, const Film* f, const float* truth, int noisy)
{
    double e = 0.0;
    for (uint32_t i = 0; i < f->w * f->h; ++i) {
        float v = noisy ? rs_film_pixel(plane(f, RS_PLANE_BEAUTY)[i]).y : img[i].y;
        e += (v - truth[i]) * (v - truth[i]);
    }
    return e / (f->w * f->h);
}

/* A plane lit evenly (truth 0.5 x albedo), each sample 0 or 1 / p with probability p: the
 * noise of a path tracer that finds the light now and then. */
static void test_noise(int spp)
{
    uint32_t w = 64, h = 48;
    Film f = film_new(w, h);
    float* truth = malloc(w * h * sizeof *truth);
    for (uint32_t i = 0; i < w * h; ++i) {
        RsVec3 c[16];
        for (int k = 0; k < spp; ++k)
            c[k] = rs_vec3_splat(uniform() < 0.25f ? 0.5f * 0.6f / 0.25f : 0.0f);
        put(&f, i, spp, c, rs_vec3_splat(0.6f), rs_vec3(0, 0, 1), 2.0f);
        truth[i] = 0.5f * 0.6f;
    }
    RsFloat4* out = denoise(&f);
    double before = mse(NULL, &f, truth, 1), after = mse(out, &f, truth, 0);
    CHECK(after < 0.1 * before, "%d spp: MSE %.4g -> %.4g, less than 90%% removed", spp, before, after);
    free(out);
    free(truth);
    free(f.planes);
}

static void test_edge(void)
{
    uint32_t w = 48, h = 32;
    Film f = film_new(w, h);
    for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x) {
            int left = x < w / 2;
            float value = left ? 0.8f : 0.1f;
            RsVec3 c[4];
            for (int k = 0; k < 4; ++k)
                c[k] = rs_vec3_splat(value * (0.5f + uniform()));
            put(&f, y * w + x, 4, c, rs_vec3_splat(1.0f), left ? rs_vec3(0, 0, 1) : rs_vec3(1, 0, 0), 2.0f);
        }
    RsFloat4* out = denoise(&f);
    double l = 0.0, r = 0.0;
    for (uint32_t y = 0; y < h; ++y) {
        l += out[y * w + w / 2 - 1].x;
        r += out[y * w + w / 2].x;
    }
    l /= h;
    r /= h;
    CHECK(fabs(l - 0.8) < 0.08 && fabs(r - 0.1) < 0.01, "edge columns %.4f | %.4f, expected 0.8 | 0.1", l, r);
    free(out);
    free(f.planes);
}

static void test_texture(void)
{
    uint32_t w = 32, h = 32;
    Film f = film_new(w, h);
    for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x) {
            float a = ((x / 2 + y / 2) & 1) ? 0.9f : 0.1f;
            RsVec3 c[2];
            for (int k = 0; k < 2; ++k)
                c[k] = rs_vec3_splat(a * (0.6f + 0.8f * uniform()));
            put(&f, y * w + x, 2, c, rs_vec3_splat(a), rs_vec3(0, 0, 1), 2.0f);
        }
    RsFloat4* out = denoise(&f);
    double bright = 0.0, dark = 0.0;
    for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x)
            *(((x / 2 + y / 2) & 1) ? &bright : &dark) += out[y * w + x].x;
    bright /= w * h / 2;
    dark /= w * h / 2;
    CHECK(fabs(bright - 0.9) < 0.05 && fabs(dark - 0.1) < 0.01, "checkerboard %.4f / %.4f, expected 0.9 / 0.1", bright,
          dark);
    free(out);
    free(f.planes);
}

/* The CUDA backend's denoiser against the CPU's on a rendered film. */
static void test_gpu_agrees(const char* scene_path)
{
    RsScene scene;
    RsError err = {{0}};
    RsAccelOptions accel = rs_accel_options_default();
    CHECK(rs_scene_load_json(scene_path, &accel, &scene, &err) == 0, "%s", err.message);
    if (err.message[0])
        return;
    RsBackendConfig cpu = cpu_config(RS_DEADRAY_STENCIL, 0, 0);
    cpu.aovs = 1;
    TestRender tr = {96, 72, 2, 5, RS_INTEGRATOR_PATH, 3, 0, 0};
    RsFloat4* film = test_render(&scene, &cpu, &tr, NULL, &err);
    CHECK(film != NULL, "%s", err.message);
    uint32_t pixels = tr.width * tr.height;
    RsFloat4* want = malloc(pixels * sizeof *want);
    RsFloat4* got = malloc(pixels * sizeof *got);
    RsDenoiseScratch scratch = {0};
    RsDenoiseSettings settings = rs_denoise_defaults();
    CHECK(film && rs_denoise_cpu(NULL, film, tr.width, tr.height, &settings, &scratch, want, &err) == 0, "%s",
          err.message);
    RsRendererConfig rc;
    memset(&rc, 0, sizeof rc);
    rc.backend = cpu;
    rc.backend.kind = RS_BACKEND_CUDA;
    rc.device_count = 1;
    RsRenderer* r = rs_renderer_create(&scene, &rc, &err);
    RsFrameDesc frame = rs_frame_from_scene(&scene, tr.width, tr.height, tr.max_depth, tr.integrator, tr.seed);
    RsImageRequest request = {RS_LAYER_BEAUTY, 0, 1, settings};
    /* the CPU's film, resumed on the GPU: both denoise the same input */
    int ok = r && film && rs_renderer_begin(r, &frame, (uint64_t)pixels * tr.spp, &err) == 0 &&
             rs_renderer_resume(r, film, tr.spp, &err) == 0 && rs_renderer_image(r, &request, got, &err) == 0;
    CHECK(ok, "%s", err.message);
    double worst = 0.0;
    for (uint32_t i = 0; ok && i < pixels; ++i) {
        const float g[3] = {got[i].x, got[i].y, got[i].z}, w[3] = {want[i].x, want[i].y, want[i].z};
        for (int c = 0; c < 3; ++c) {
            double d = fabs((double)g[c] - w[c]) / (fabs((double)w[c]) + 1e-3);
            worst = d > worst ? d : worst;
        }
    }
    CHECK(worst <= 1e-3, "CUDA vs CPU denoiser: worst relative difference %.3g", worst);
    printf("test_denoise: CUDA vs CPU, worst relative difference %.3g over %u pixels\n", worst, pixels);
    /* the layers too: the same function on both sides */
    for (uint32_t l = RS_LAYER_ALBEDO; ok && l < RS_LAYER_COUNT; ++l) {
        RsImageRequest lr = {l, 0, 0, settings};
        RsFloat4* ref = malloc(pixels * sizeof *ref);
        rs_film_layer_cpu(NULL, film, tr.width, tr.height, l, 0, ref);
        CHECK(rs_renderer_image(r, &lr, got, &err) == 0, "%s", err.message);
        int same = 1;
        for (uint32_t i = 0; i < pixels; ++i) {
            /* the variance is a difference of sums of squares: its rounding scales with them */
            RsVec3 m = rs_film_pixel(film[i]);
            float scale = 1.0f + fabsf(ref[i].x) + (l == RS_LAYER_VARIANCE ? m.x * m.x : 0.0f);
            same &= fabsf(got[i].x - ref[i].x) <= 1e-5f * scale || (isinf(got[i].x) && isinf(ref[i].x));
        }
        CHECK(same, "layer %s differs between CUDA and the CPU", rs_layer_name(l));
        free(ref);
    }
    rs_renderer_destroy(r);
    rs_denoise_scratch_free(&scratch);
    free(want);
    free(got);
    free(film);
    rs_scene_free(&scene);
}

int main(int argc, char** argv)
{
    RsBackendConfig config;
    int cuda = 0;
    if (!test_backend(argc, argv, 2, "test_denoise", &config, &cuda))
        return RS_TEST_SKIP;
    if (cuda) {
        test_gpu_agrees(argv[1]);
        return rs_test_finish("test_denoise (cuda)");
    }
    test_constant(40, 30, 1, rs_vec3(0.3f, 0.6f, 0.2f), rs_vec3(0.5f, 0.7f, 0.1f));
    test_constant(40, 30, 16, rs_vec3(0.3f, 0.6f, 0.2f), rs_vec3(0.5f, 0.005f, 1.0f));
    test_constant(17, 9, 4, rs_vec3_splat(0.0f), rs_vec3_splat(0.0f));
    test_constant(17, 9, 4, rs_vec3_splat(1.0f), rs_vec3_splat(1.0f));
    test_constant(1, 1, 1, rs_vec3(0.25f, 0.5f, 2.0f), rs_vec3_splat(0.8f));
    test_bad_pixels();
    test_noise(1);
    test_noise(4);
    test_edge();
    test_texture();
    return rs_test_finish("test_denoise");
}
