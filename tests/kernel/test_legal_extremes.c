/* test_legal_extremes.c - every legal input renders finite samples (render suite on the CPU;
 * the gpu suite runs it with `cuda`). Host C11.
 *
 *   test_legal_extremes [cpu|cuda]
 *
 * One JSON scene (written to a temporary folder, loaded by the scene reader, so only what the
 * reader accepts is tried) with a sphere per material at the documented bounds of its
 * parameters (scenes/README.md): roughness_u and roughness_v 0, 0.5 and 1 in every combination
 * that mixes 0 with a rough direction, ior 0.01, 1 and 100, colours 0 and 1, a conductor's eta
 * 0.0101 (the reader refuses 0.01 itself for now: issue 24, kind 7) and 100 and k 0 and 100, an
 * emitter at 1e18; lit by a point light of intensity 1e18, a
 * 1e18 emissive sphere and an environment map whose texels are at the RGBE maximum (1.7e38)
 * under scale 1e18. With AOVs on (the squares plane), a few samples must give a film with
 * every component finite and no path dropped by accumulate (RsTraceStats.nonfinite_paths).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/import/json/scene_json.h"
#include "kernel/film/aov.h"
#include "tests/render/render_util.h"
#include "tests/test.h"

static int spheres;

static void sphere(FILE* f, const char* material)
{
    int x = spheres % 12, y = spheres / 12;
    fprintf(f, "%s{\"type\": \"sphere\", \"center\": [%d, %d, 0], \"radius\": 0.45, \"material\": \"%s\"}",
            spheres ? ", " : "", x - 6, y - 5, material);
    spheres++;
}

/* materials and the shapes that use them, one sphere each */
static void write_scene(const char* path, const char* env)
{
    FILE* f = fopen(path, "w");
    CHECK(f != NULL, "cannot write %s", path);
    if (!f)
        return;
    static const float rough[][2] = {{0, 0}, {0, 0.5f}, {0.5f, 0}, {0, 1}, {1, 0}, {1, 1}, {0.5f, 0.5f}};
    static const float iors[] = {0.01f, 1.0f, 100.0f};
    static const float colours[] = {0.0f, 1.0f};
    fprintf(f, "{\"version\": 1, \"camera\": {\"eye\": [0, 0, 30], \"look_at\": [0, 0, 0], \"fov\": 30},\n"
               "\"environment\": {\"type\": \"map\", \"file\": \"%s\", \"scale\": 1e18},\n"
               "\"lights\": [{\"type\": \"point\", \"position\": [0, 0, 2], \"intensity\": [1e18, 1e18, 1e18]}],\n"
               "\"materials\": [{\"name\": \"sun\", \"type\": \"emissive\", \"emission\": [1e18, 1e18, 1e18]}",
            env);
    char names[256][32];
    int n = 0;
    for (size_t r = 0; r < sizeof rough / sizeof rough[0]; ++r)
        for (size_t c = 0; c < 2; ++c) {
            for (size_t i = 0; i < 3; ++i) {
                snprintf(names[n], sizeof names[n], "d%zu%zu%zu", r, c, i);
                fprintf(f, ",\n{\"name\": \"%s\", \"type\": \"dielectric\", \"ior\": %g, \"color\": [%g, %g, %g], "
                           "\"roughness_u\": %g, \"roughness_v\": %g}",
                        names[n++], iors[i], colours[c], colours[c], colours[c], rough[r][0], rough[r][1]);
                snprintf(names[n], sizeof names[n], "p%zu%zu%zu", r, c, i);
                fprintf(f, ",\n{\"name\": \"%s\", \"type\": \"plastic\", \"ior\": %g, \"color\": [%g, %g, %g], "
                           "\"roughness_u\": %g, \"roughness_v\": %g}",
                        names[n++], iors[i], colours[c], colours[c], colours[c], rough[r][0], rough[r][1]);
            }
            snprintf(names[n], sizeof names[n], "c%zu%zu", r, c);
            fprintf(f, ",\n{\"name\": \"%s\", \"type\": \"conductor\", \"color\": [%g, %g, %g], "
                       "\"roughness_u\": %g, \"roughness_v\": %g}",
                    names[n++], colours[c], colours[c], colours[c], rough[r][0], rough[r][1]);
            snprintf(names[n], sizeof names[n], "e%zu%zu", r, c);
            fprintf(f, ",\n{\"name\": \"%s\", \"type\": \"conductor\", \"eta\": [%g, %g, %g], \"k\": [%g, %g, %g], "
                       "\"roughness_u\": %g, \"roughness_v\": %g}",
                    names[n++], c ? 100.0 : 0.0101, c ? 0.0101 : 100.0, c ? 100.0 : 0.0101, c ? 0.0 : 100.0,
                    c ? 100.0 : 0.0, 50.0, rough[r][0], rough[r][1]);
        }
    for (size_t c = 0; c < 2; ++c) {
        snprintf(names[n], sizeof names[n], "l%zu", c);
        fprintf(f, ",\n{\"name\": \"%s\", \"type\": \"diffuse\", \"albedo\": [%g, %g, %g], \"emission\": [1e18, 0, 1e18]}",
                names[n++], colours[c], colours[c], colours[c]);
        snprintf(names[n], sizeof names[n], "m%zu", c);
        fprintf(f, ",\n{\"name\": \"%s\", \"type\": \"mirror\", \"color\": [%g, %g, %g]}", names[n++], colours[c],
                colours[c], colours[c]);
    }
    fprintf(f, "],\n\"shapes\": [");
    spheres = 0;
    sphere(f, "sun");
    for (int i = 0; i < n; ++i)
        sphere(f, names[i]);
    fprintf(f, "]}\n");
    fclose(f);
}

/* A 4x2 flat Radiance file, every texel at RGBE's largest value (mantissas 255, exponent 255). */
static void write_env(const char* path)
{
    FILE* f = fopen(path, "wb");
    CHECK(f != NULL, "cannot write %s", path);
    if (!f)
        return;
    fprintf(f, "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 2 +X 4\n");
    for (int i = 0; i < 8; ++i)
        fputc(255, f), fputc(255, f), fputc(255, f), fputc(255, f);
    fclose(f);
}

int main(int argc, char** argv)
{
    RsBackendConfig cfg;
    int cuda;
    if (!test_backend(argc, argv, 1, "test_legal_extremes", &cfg, &cuda))
        return RS_TEST_SKIP;
    char dir[] = "/tmp/rs_legal_XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    char scene_path[64], env_path[64];
    snprintf(scene_path, sizeof scene_path, "%s/extremes.json", dir);
    snprintf(env_path, sizeof env_path, "%s/max.hdr", dir);
    write_env(env_path);
    write_scene(scene_path, "max.hdr");
    RsScene scene;
    RsError err = {{0}};
    int loaded = rs_scene_load_json(scene_path, NULL, &scene, &err) == 0;
    CHECK(loaded, "%s", err.message);
    if (loaded) {
        cfg.aovs = 1; /* the squares plane too */
        for (uint32_t integrator = 0; integrator < 2; ++integrator) {
            TestRender tr = {48, 40, 4, 6, integrator ? RS_INTEGRATOR_WHITTED : RS_INTEGRATOR_PATH, 7, 0, 0};
            RsTraceStats stats;
            RsFloat4* film = test_render(&scene, &cfg, &tr, &stats, &err);
            CHECK(film != NULL, "%s", err.message);
            if (!film)
                break;
            size_t entries = (size_t)tr.width * tr.height * RS_FILM_PLANES_AOV, bad = 0;
            for (size_t i = 0; i < entries; ++i)
                bad += !(rs_is_finite(film[i].x) && rs_is_finite(film[i].y) && rs_is_finite(film[i].z) &&
                         rs_is_finite(film[i].w));
            CHECK(bad == 0, "%zu film entries are not finite", bad);
            CHECK(stats.nonfinite_paths == 0, "%llu paths were not finite", (unsigned long long)stats.nonfinite_paths);
            free(film);
            tr.seed++;
        }
        rs_scene_free(&scene);
    }
    unlink(scene_path);
    unlink(env_path);
    rmdir(dir);
    return rs_test_finish("test_legal_extremes");
}
