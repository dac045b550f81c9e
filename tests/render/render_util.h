/* render_util.h - rendering a scene into a film from a test, with any backend configuration.
 * Host C11; header-only helpers for tests/render/ and tests/gpu/. */
#ifndef RS_TESTS_RENDER_UTIL_H
#define RS_TESTS_RENDER_UTIL_H

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "../../src/host/scene.h"
#include "../../src/host/wavefront.h"

typedef struct TestRender {
    uint32_t width, height, spp, max_depth, integrator, seed;
    uint64_t wave_limit; /* 0: let the planner choose */
} TestRender;

/* Renders and returns the film (width * height RsFloat4, caller frees), NULL on error. */
static inline RsFloat4* test_render(const RsScene* scene, const RsBackendConfig* config, const TestRender* tr,
                             RsTraceStats* stats_out, RsError* err)
{
    RsBackend* b = rs_backend_create(config, err);
    if (!b)
        return NULL;
    RsSceneView view = rs_scene_view(scene);
    RsFrameDesc frame = rs_frame_from_scene(scene, tr->width, tr->height, tr->max_depth, tr->integrator, tr->seed);
    uint64_t pixels = (uint64_t)tr->width * tr->height;
    uint32_t wave = 0;
    RsWavefront wf;
    RsFloat4* film = NULL;
    if (b->ops->set_scene(b, &view, err) || rs_wavefront_plan(b, pixels * tr->spp, &wave, err))
        goto done;
    if (tr->wave_limit && wave > tr->wave_limit)
        wave = (uint32_t)tr->wave_limit;
    if (rs_wavefront_begin(&wf, b, &frame, wave, err) || rs_wavefront_trace(&wf, 0, pixels * tr->spp, err))
        goto done;
    film = malloc(pixels * sizeof *film);
    if (!film || b->ops->read_film(b, film, err)) {
        free(film);
        film = NULL;
        goto done;
    }
    if (stats_out)
        *stats_out = wf.stats;
done:
    rs_backend_destroy(b);
    return film;
}

/* Mean of the per-pixel averages, per channel. */
static inline void film_mean(const RsFloat4* film, uint32_t pixels, double mean[3])
{
    mean[0] = mean[1] = mean[2] = 0.0;
    for (uint32_t i = 0; i < pixels; ++i) {
        double inv = film[i].w > 0.0f ? 1.0 / film[i].w : 0.0;
        mean[0] += film[i].x * inv;
        mean[1] += film[i].y * inv;
        mean[2] += film[i].z * inv;
    }
    for (int k = 0; k < 3; ++k)
        mean[k] /= pixels;
}

static inline RsBackendConfig cpu_config(RsDeadRay d, uint32_t threads, int payload)
{
    RsBackendConfig c;
    memset(&c, 0, sizeof c);
    c.kind = RS_BACKEND_CPU;
    c.deadray = d;
    c.threads = threads;
    c.payload = payload;
    return c;
}

/* Means of the red channel's per-pixel averages over the left and the right half of a square
 * size x size film, leaving out a border of 2 pixels and the 4 columns around the middle (where
 * halves meet). */
static inline void film_half_means(const RsFloat4* film, int size, double* left, double* right)
{
    double l = 0.0, r = 0.0;
    int n = 0;
    for (int y = 2; y < size - 2; ++y)
        for (int x = 2; x < size / 2 - 2; ++x, ++n) {
            l += film[y * size + x].x / film[y * size + x].w;
            r += film[y * size + size - 1 - x].x / film[y * size + size - 1 - x].w;
        }
    *left = l / n;
    *right = r / n;
}

/* The backend of a render test that the gpu suite runs again with the argument "cuda": the CPU
 * with the stencil strategy, or CUDA when argv[arg] is "cuda". *cuda says which. Returns 0 (after
 * saying so) when CUDA is asked for but there is no device: the test is then skipped. */
static inline int test_backend(int argc, char** argv, int arg, const char* name, RsBackendConfig* cfg, int* cuda)
{
    *cuda = argc > arg && strcmp(argv[arg], "cuda") == 0;
    *cfg = cpu_config(RS_DEADRAY_STENCIL, 0, 0);
    if (*cuda && (!rs_cuda_built() || rs_cuda_device_count() <= 0)) {
        printf("%s: no CUDA device, skipped\n", name);
        return 0;
    }
    if (*cuda)
        cfg->kind = RS_BACKEND_CUDA;
    return 1;
}

#endif /* RS_TESTS_RENDER_UTIL_H */
