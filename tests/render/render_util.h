/* render_util.h - rendering a scene into a film from a test, with any backend configuration.
 * Host C11; header-only helpers for tests/render/ and tests/gpu/. */
#ifndef RS_TESTS_RENDER_UTIL_H
#define RS_TESTS_RENDER_UTIL_H

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "host/render/renderer.h"
#include "host/scene/scene.h"

typedef struct TestRender {
    uint32_t width, height, spp, max_depth, integrator, seed;
    uint64_t wave_limit; /* 0: let the planner choose */
    uint32_t photons;    /* sppm: photons per pass; 0: the frame's default */
} TestRender;

/* Renders through the renderer layer on `devices` devices of config's kind (0: all) and
 * returns the film (width * height RsFloat4 per plane: one, or aov.h's planes when
 * config->aovs; caller frees), NULL on error. */
static inline RsFloat4* test_render_on(const RsScene* scene, const RsBackendConfig* config, int devices,
                                       const TestRender* tr, RsTraceStats* stats_out, RsError* err)
{
    RsRendererConfig rc;
    memset(&rc, 0, sizeof rc);
    rc.backend = *config;
    rc.device_count = devices;
    for (int i = 0; i < devices && i < RS_MAX_DEVICES; ++i)
        rc.devices[i] = i;
    RsRenderer* r = rs_renderer_create(scene, &rc, err);
    if (!r)
        return NULL;
    RsFrameDesc frame = rs_frame_from_scene(scene, tr->width, tr->height, tr->max_depth, tr->integrator, tr->seed);
    if (tr->photons)
        frame.photons_per_pass = tr->photons;
    uint64_t pixels = (uint64_t)tr->width * tr->height;
    RsFloat4* film = NULL;
    /* a planned size of wave_limit paths per device caps the waves at that */
    uint64_t planned = tr->wave_limit ? tr->wave_limit * (uint64_t)(devices > 0 ? devices : 1) : pixels * tr->spp;
    if (rs_renderer_begin(r, &frame, planned, err) || rs_renderer_trace(r, pixels * tr->spp, err))
        goto done;
    film = malloc(pixels * rs_renderer_film_planes(r) * sizeof *film);
    if (!film || rs_renderer_read_film(r, film, err)) {
        free(film);
        film = NULL;
        goto done;
    }
    if (stats_out)
        *stats_out = rs_renderer_stats(r);
done:
    rs_renderer_destroy(r);
    return film;
}

/* The same on one device. */
static inline RsFloat4* test_render(const RsScene* scene, const RsBackendConfig* config, const TestRender* tr,
                                    RsTraceStats* stats_out, RsError* err)
{
    return test_render_on(scene, config, 1, tr, stats_out, err);
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
