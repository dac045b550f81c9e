/* test_precision.c - the same scene at every scale and camera distance gives the same image up
 * to noise (render suite on the CPU; the gpu suite runs it with `cuda`). Host C11.
 *
 *   test_precision [cpu|cuda]
 *
 * precision_scene.h at scales 1e-3, 1, 1e3, 1e4, each seen from 10, 100, 10^3 and 10^4 floor
 * sizes away, against the scene at scale 1 from 10 sizes: image mean within 4 standard errors
 * and the RMS of the 16x16 block z-scores below 1.5 (image_compare.h; 1.0 is pure noise). Before
 * hit points came from the primitive, the far views came out darker (shadow rays under the
 * floor they leave), and scale 1e4 from 10^4 sizes lost nearly all direct light.
 */
#include <string.h>

#include "image_compare.h"
#include "precision_scene.h"
#include "render_util.h"
#include "tests/test.h"

static RsFloat4* render(const RsScene* s, const RsBackendConfig* cfg, uint32_t spp, uint32_t seed)
{
    RsError err = {{0}};
    TestRender tr = {128, 128, spp, 3, RS_INTEGRATOR_PATH, seed, 0, 0};
    RsFloat4* film = test_render(s, cfg, &tr, NULL, &err);
    CHECK(film != NULL, "%s", err.message);
    return film;
}

int main(int argc, char** argv)
{
    RsBackendConfig cfg;
    int cuda;
    if (!test_backend(argc, argv, 1, "test_precision", &cfg, &cuda))
        return RS_TEST_SKIP;
    uint32_t spp = cuda ? 256 : 24;
    const double scales[] = {1e-3, 1.0, 1e3, 1e4};
    const double distances[] = {10.0, 100.0, 1e3, 1e4};

    RsError err = {{0}};
    RsScene ref_scene;
    CHECK(precision_scene_build(&ref_scene, 1.0, 10.0, &err) == 0, "%s", err.message);
    RsFloat4* ref1 = render(&ref_scene, &cfg, spp, 1);
    RsFloat4* ref2 = render(&ref_scene, &cfg, spp, 2);
    rs_scene_free(&ref_scene);
    if (!ref1 || !ref2)
        return rs_test_finish("test_precision");

    printf("%-8s %-9s %8s %8s %8s %8s\n", "scale", "distance", "ratio", "sigmas", "z rms", "worst z");
    uint32_t seed = 3;
    for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 4; ++j, seed += 2) {
            RsScene s;
            CHECK(precision_scene_build(&s, scales[i], distances[j], &err) == 0, "%s", err.message);
            RsFloat4* a = render(&s, &cfg, spp, seed);
            RsFloat4* b = render(&s, &cfg, spp, seed + 1);
            rs_scene_free(&s);
            if (!a || !b) {
                free(a);
                free(b);
                continue;
            }
            ImageCompare c = image_compare(a, b, ref1, ref2, 128, 128);
            printf("%-8g %-9g %8.4f %8.2f %8.2f %8.2f\n", scales[i], distances[j], c.ratio, c.ratio_sigmas,
                   c.block_z_rms, c.worst_z);
            CHECK(c.ratio_sigmas <= 4.0 && c.block_z_rms < 1.5,
                  "scale %g seen from %g sizes: mean ratio %.4f (%.1f standard errors), block z rms %.2f, worst "
                  "block at (%u, %u) z %.1f", scales[i], distances[j], c.ratio, c.ratio_sigmas, c.block_z_rms,
                  c.worst_x, c.worst_y, c.worst_z);
            free(a);
            free(b);
        }
    }
    free(ref1);
    free(ref2);
    return rs_test_finish("test_precision");
}
