/* test_sobol_image.c - the Sobol sampler in a real render: the Cornell box through the renderer
 * with each sampler (render suite on the CPU; the gpu suite runs it again with "cuda").
 *
 * 1. The scene's render.sampler reaches the frame: a Sobol image differs from the independent
 *    one at the same seed.
 * 2. Unbiased: each sampler's image mean is within noise of a high-spp independent reference
 *    (4 standard errors of the mean, taken from the measured per-pixel error, which pixels do
 *    not share: every pixel's sequence is scrambled on its own).
 * 3. Less noise: Sobol's per-pixel mean squared error against the reference, summed over
 *    several seeds, is well below the independent sampler's at the same spp (about 0.15x here:
 *    small pixels over edges and a lamp whose direct light is a smooth 2D integral).
 * 4. Bit-identical: Sobol images are equal across dead-ray strategies, small waves that cut
 *    passes, and two CPU devices (its numbers depend on no thread, slot, wave or device).
 *
 * usage: test_sobol_image SCENE.json [cuda]   (the Cornell box)
 */
#include "host/import/json/scene_json.h"
#include "kernel/sampling/sampler.h"
#include "render_util.h"
#include "tests/test.h"

enum { SIZE = 24, PIXELS = SIZE * SIZE, DEPTH = 5, SPP = 32, REF_SPP = 2048, SEEDS = 4 };

static RsBackendConfig config;

static RsFloat4* render(RsScene* scene, uint32_t sampler, uint32_t spp, uint32_t seed, RsDeadRay deadray,
                        int devices, uint64_t wave_limit)
{
    RsError err = {{0}};
    RsBackendConfig cfg = config;
    cfg.deadray = deadray;
    TestRender tr = {SIZE, SIZE, spp, DEPTH, RS_INTEGRATOR_PATH, seed, wave_limit, 0};
    scene->render.sampler = sampler;
    RsFloat4* film = test_render_on(scene, &cfg, devices, &tr, NULL, &err);
    CHECK(film != NULL, "%s", err.message);
    return film;
}

/* The pixel's average over its samples, summed over the colour channels. */
static double pixel_value(const RsFloat4* film, int i)
{
    return film[i].w > 0.0f ? ((double)film[i].x + film[i].y + film[i].z) / film[i].w : 0.0;
}

static double image_mean(const RsFloat4* film)
{
    double sum = 0.0;
    for (int i = 0; i < PIXELS; ++i)
        sum += pixel_value(film, i);
    return sum / PIXELS;
}

static double image_mse(const RsFloat4* film, const RsFloat4* ref)
{
    double sum = 0.0;
    for (int i = 0; i < PIXELS; ++i) {
        double d = pixel_value(film, i) - pixel_value(ref, i);
        sum += d * d;
    }
    return sum / PIXELS;
}

int main(int argc, char** argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_sobol_image SCENE.json [cuda]\n");
        return 2;
    }
    int cuda = 0;
    if (!test_backend(argc, argv, 2, "test_sobol_image", &config, &cuda))
        return RS_TEST_SKIP;
    RsScene scene;
    RsError err = {{0}};
    RsAccelOptions accel = rs_accel_options_default();
    CHECK(rs_scene_load_json(argv[1], &accel, &scene, &err) == 0, "%s", err.message);
    if (err.message[0])
        return rs_test_finish("test_sobol_image");

    RsFloat4* ref = render(&scene, RS_SAMPLER_INDEPENDENT, REF_SPP, 1000, RS_DEADRAY_STENCIL, 1, 0);
    double ref_mean = ref ? image_mean(ref) : 0.0;
    double mse[RS_SAMPLER_COUNT] = {0};
    const char* names[RS_SAMPLER_COUNT] = {"independent", "sobol"};
    for (uint32_t seed = 1; ref && seed <= SEEDS; ++seed) {
        RsFloat4* film[RS_SAMPLER_COUNT];
        for (uint32_t k = 0; k < RS_SAMPLER_COUNT; ++k)
            film[k] = render(&scene, k, SPP, seed, RS_DEADRAY_STENCIL, 1, 0);
        if (!film[0] || !film[1]) {
            free(film[0]);
            free(film[1]);
            break;
        }
        CHECK(memcmp(film[0], film[1], PIXELS * sizeof *film[0]) != 0,
              "seed %u: the Sobol image equals the independent one: render.sampler did not reach the frame", seed);
        for (uint32_t k = 0; k < RS_SAMPLER_COUNT; ++k) {
            double m = image_mse(film[k], ref), mean = image_mean(film[k]);
            /* the error of the mean: pixels' errors are independent, so the image mean's variance
             * is the mean squared error over the pixel count (the reference's noise included) */
            double stderr_mean = sqrt(m / PIXELS);
            CHECK(fabs(mean - ref_mean) < 4.0 * stderr_mean, "seed %u, %s: image mean %.5f, reference %.5f (%.2f sigma)",
                  seed, names[k], mean, ref_mean, fabs(mean - ref_mean) / stderr_mean);
            mse[k] += m;
        }
        free(film[0]);
        free(film[1]);
    }
    /* the reference adds the same noise (about 1/64 of the independent one's) to both */
    printf("per-pixel MSE against the %d-spp reference at %d spp, depth %d: independent %.4g, sobol %.4g (ratio %.3f)\n",
           REF_SPP, SPP, DEPTH, mse[0] / SEEDS, mse[1] / SEEDS, mse[1] / mse[0]);
    CHECK(mse[1] < 0.6 * mse[0], "Sobol's per-pixel MSE %.4g is not below independent's %.4g", mse[1] / SEEDS,
          mse[0] / SEEDS);
    free(ref);

    /* bit-identical across strategies, a wave size that cuts passes, and two CPU devices */
    RsFloat4* first = render(&scene, RS_SAMPLER_SOBOL, 5, 3, RS_DEADRAY_STENCIL, 1, 0);
    const RsDeadRay strategies[] = {RS_DEADRAY_FLAGS, RS_DEADRAY_PERSISTENT, RS_DEADRAY_COMPACT_SCAN};
    for (int k = 0; first && k < (cuda ? 4 : 5); ++k) {
        RsFloat4* other = k < 3   ? render(&scene, RS_SAMPLER_SOBOL, 5, 3, strategies[k], 1, 0)
                          : k == 3 ? render(&scene, RS_SAMPLER_SOBOL, 5, 3, RS_DEADRAY_STENCIL, 1, 333)
                                   : render(&scene, RS_SAMPLER_SOBOL, 5, 3, RS_DEADRAY_STENCIL, 2, 0);
        CHECK(other && memcmp(first, other, PIXELS * sizeof *first) == 0,
              "case %d: the Sobol image differs from the stencil strategy's on one device", k);
        free(other);
    }
    free(first);
    rs_scene_free(&scene);
    return rs_test_finish("test_sobol_image");
}
