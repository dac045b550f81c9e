/* test_self_hits.c - no ray hits the surface it leaves, no shadow ray hits the light it aims
 * at (render suite on the CPU; built with RS_TEST_GPU it is test_gpu_self_hits, the same
 * probe in a CUDA kernel, in the gpu suite). Host C11.
 *
 *   test_self_hits SCENE.json...
 *
 * Runs tests/kernel/self_hit_probe.h over every pixel of each scene given, of precision_scene.h
 * at its extreme scales and distances, and of a floor of long thin triangles (aspect 200:1)
 * far from the origin, whose slivers are where a triangle test's rounding is worst. Asserts that
 * the self-hit counts are 0. The counts without the triangle self-skip are printed too: they
 * show what the error-bound offset achieves alone.
 */
#include <string.h>

#include "host/import/json/scene_json.h"
#include "precision_scene.h"
#include "render_util.h"
#include "sliver_scene.h"
#include "tests/kernel/self_hit_probe.h"
#include "tests/test.h"
#ifdef RS_TEST_GPU
#include "tests/gpu/self_hit_probe_kernel.h"
#endif

static void probe_scene(const char* name, const RsScene* scene, uint32_t width, uint32_t height, uint32_t spp)
{
    RsKernelParams kp;
    memset(&kp, 0, sizeof kp);
    kp.scene = rs_scene_view(scene);
    RsFrameDesc frame = rs_frame_from_scene(scene, width, height, 8, RS_INTEGRATOR_PATH, 7);
    rs_kernel_params_set_frame(&kp, &frame);
    uint32_t counts[PROBE_COUNT] = {0};
#ifdef RS_TEST_GPU
    gpu_probe_paths(&kp, spp, counts);
#else
    for (uint32_t s = 0; s < spp; ++s)
        for (uint32_t p = 0; p < width * height; ++p)
            rs_probe_path(&kp, p, s, counts);
#endif
    printf("%-28s %9u %6u %8u %6u %9u %6u %8u\n", name, counts[PROBE_SHADOW], counts[PROBE_SHADOW_OWN],
           counts[PROBE_SHADOW_OWN_NOSKIP], counts[PROBE_SHADOW_LIGHT], counts[PROBE_LEAVE], counts[PROBE_LEAVE_OWN],
           counts[PROBE_LEAVE_OWN_NOSKIP]);
    CHECK(counts[PROBE_SHADOW] > 0 && counts[PROBE_LEAVE] > 0, "%s: no rays were probed", name);
    CHECK(counts[PROBE_SHADOW_OWN] == 0, "%s: %u of %u shadow rays hit the surface they leave", name,
          counts[PROBE_SHADOW_OWN], counts[PROBE_SHADOW]);
    CHECK(counts[PROBE_SHADOW_LIGHT] == 0, "%s: %u of %u shadow rays hit the light they aim at", name,
          counts[PROBE_SHADOW_LIGHT], counts[PROBE_SHADOW]);
    CHECK(counts[PROBE_LEAVE_OWN] == 0, "%s: %u of %u continuation rays hit the surface they leave", name,
          counts[PROBE_LEAVE_OWN], counts[PROBE_LEAVE]);
}

int main(int argc, char** argv)
{
#ifdef RS_TEST_GPU
    if (rs_cuda_device_count() <= 0) {
        printf("test_gpu_self_hits: no CUDA device, skipped\n");
        return RS_TEST_SKIP;
    }
    const uint32_t spp = 64; /* 1M paths per scene */
#else
    const uint32_t spp = 8;
#endif
    printf("%-28s %9s %6s %8s %6s %9s %6s %8s\n", "scene", "shadow", "own", "own(ns)", "light", "leaving", "own",
           "own(ns)");
    RsError err = {{0}};
    for (int i = 1; i < argc; ++i) {
        RsScene s;
        if (rs_scene_load_json(argv[i], NULL, &s, &err)) {
            CHECK(0, "%s", err.message);
            continue;
        }
        const char* base = strrchr(argv[i], '/');
        probe_scene(base ? base + 1 : argv[i], &s, 128, 128, spp);
        rs_scene_free(&s);
    }
    const double configs[][2] = {{1e-3, 10.0}, {1.0, 1e4}, {1e4, 10.0}, {1e4, 1e4}};
    for (int i = 0; i < 4; ++i) {
        RsScene s;
        char name[64];
        snprintf(name, sizeof name, "precision %g from %g", configs[i][0], configs[i][1]);
        CHECK(precision_scene_build(&s, configs[i][0], configs[i][1], &err) == 0, "%s", err.message);
        probe_scene(name, &s, 128, 128, spp);
        rs_scene_free(&s);
    }
    RsScene slivers;
    CHECK(sliver_scene_build(&slivers, &err) == 0, "%s", err.message);
    probe_scene("slivers", &slivers, 128, 128, 4 * spp);
    rs_scene_free(&slivers);
#ifdef RS_TEST_GPU
    return rs_test_finish("test_gpu_self_hits");
#else
    return rs_test_finish("test_self_hits");
#endif
}
