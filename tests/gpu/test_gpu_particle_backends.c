/* test_gpu_particle_backends.c - the particle integrators (light tracing, SPPM) on the CUDA
 * backend against the CPU's, on shipped scenes (gpu suite; exits 77 without a CUDA device).
 * test_particles (run with `cuda` as test_gpu_particles) checks the estimates on a hand-made
 * room; this one adds payload compaction, the CPU comparison and scenes from scenes/. Host C11.
 *
 *  1. Every GPU dead-ray strategy (and payload compaction for the compactions), whole chunks
 *     in one wave and chunks cut into waves of 1000, gives the film of GPU flags bit for bit,
 *     every plane (SPPM's state planes too): the splats and photons are summed in key order,
 *     so neither the strategy nor the wave size may change a bit.
 *  2. GPU and CPU agree on the image mean within 3%: the same particles from the same random
 *     numbers, which may differ only where nvcc's fused multiply-adds flip a discrete choice,
 *     so the means are much closer than the noise of a few passes would allow.
 *
 * usage: test_gpu_particle_backends SCENE.json...
 */
#include <math.h>

#include "host/import/json/scene_json.h"
#include "host/scene/settings.h"
#include "tests/render/render_util.h"
#include "tests/test.h"

static RsBackendConfig particle_config(RsBackendKind kind, RsDeadRay d, int payload)
{
    RsBackendConfig c;
    memset(&c, 0, sizeof c);
    c.kind = kind;
    c.deadray = d;
    c.payload = payload;
    c.particles = 1;
    return c;
}

static double film_luminance(const RsFloat4* film, uint32_t pixels)
{
    double mean[3];
    film_mean(film, pixels, mean);
    return (mean[0] + mean[1] + mean[2]) / 3.0;
}

static void check_particles(const RsScene* scene, const char* file, uint32_t integrator)
{
    RsError err = {{0}};
    TestRender tr = {61, 37, 4, 6, integrator, 5, 0, 0}; /* 2257 pixels: not a multiple of 32 */
    uint32_t pixels = tr.width * tr.height;
    const char* name = rs_integrator_name(integrator);
    RsBackendConfig ref_cfg = particle_config(RS_BACKEND_CUDA, RS_DEADRAY_FLAGS, 0);
    RsFloat4* ref = test_render(scene, &ref_cfg, &tr, NULL, &err);
    CHECK(ref != NULL, "%s %s, GPU flags: %s", file, name, err.message);
    if (!ref)
        return;
    size_t film_bytes = (size_t)pixels * rs_film_planes(&ref_cfg) * sizeof *ref;
    double lum = film_luminance(ref, pixels);
    CHECK(lum > 0.0 && isfinite(lum), "%s %s: GPU image mean %g", file, name, lum);

    for (int d = 0; d < RS_DEADRAY_COUNT; ++d) {
        if (!rs_deadray_supported((RsDeadRay)d, RS_BACKEND_CUDA))
            continue;
        int compaction = rs_deadray_is_compaction((RsDeadRay)d);
        for (int payload = 0; payload <= compaction; ++payload) {
            for (int split = 0; split < 2; ++split) {
                RsBackendConfig cfg = particle_config(RS_BACKEND_CUDA, (RsDeadRay)d, payload);
                TestRender t2 = tr;
                t2.wave_limit = split ? 1000 : 0;
                rs_error_clear(&err);
                RsFloat4* film = test_render(scene, &cfg, &t2, NULL, &err);
                CHECK(film != NULL, "%s %s %s%s%s: %s", file, name, rs_deadray_name((RsDeadRay)d),
                      payload ? " payload" : "", split ? " waves of 1000" : "", err.message);
                if (!film)
                    continue;
                CHECK(memcmp(film, ref, film_bytes) == 0, "%s %s %s%s%s: film differs from GPU flags", file, name,
                      rs_deadray_name((RsDeadRay)d), payload ? " payload" : "", split ? " waves of 1000" : "");
                free(film);
            }
        }
    }

    RsBackendConfig cpu_cfg = particle_config(RS_BACKEND_CPU, RS_DEADRAY_STENCIL, 0);
    rs_error_clear(&err);
    RsFloat4* cpu = test_render(scene, &cpu_cfg, &tr, NULL, &err);
    CHECK(cpu != NULL, "%s %s, CPU: %s", file, name, err.message);
    if (cpu) {
        double cpu_lum = film_luminance(cpu, pixels);
        printf("%s %s: mean cpu %.6f gpu %.6f (rel %.2e)\n", file, name, cpu_lum, lum,
               cpu_lum > 0.0 ? fabs(cpu_lum - lum) / cpu_lum : 0.0);
        CHECK(fabs(cpu_lum - lum) <= 0.03 * cpu_lum, "%s %s: CPU and GPU image means differ by more than 3%%", file,
              name);
        free(cpu);
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
        if (rs_scene_build(&scene, &err)) {
            CHECK(0, "%s", err.message);
            rs_scene_free(&scene);
            continue;
        }
        const char* base = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
        check_particles(&scene, base, RS_INTEGRATOR_LIGHT);
        check_particles(&scene, base, RS_INTEGRATOR_SPPM);
        rs_scene_free(&scene);
    }
    return rs_test_finish("test_gpu_particle_backends");
}
