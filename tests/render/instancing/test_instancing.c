/* test_instancing.c - a scene with instances renders as its flattened twin does (render suite).
 *
 *   test_instancing SCENE.json [cuda]
 *
 * The scene of instance_scene.h (rotated, non-uniformly scaled and mirrored instances of a
 * textured mesh with vertex normals, two instanced lamps, an instanced card with cut-outs) against the same triangles added
 * to the world: with bvh2 and bvh8 the same light table size and power, and the same image up
 * to the rounding of the transforms (a path whose arithmetic differs by an ulp can take another
 * turn, so pixels are compared through the image mean and the mean absolute difference, both
 * tightly). Then, on the scene with instances: every dead-ray strategy, payload moves and thread
 * count give the same image bit for bit; the grid flattens it with a warning; and a scene
 * without instances forced through the two-level path (--two-level) gives its flat image bit for
 * bit. With "cuda" (gpu suite), the GPU image of the scene with instances is compared with the
 * CPU's, and the GPU's strategies and payload moves with each other bit for bit (exit 77
 * without a device). SCENE.json (tests/data/instancing/instances.json) checks
 * the JSON form: its objects and instances arrive as such (not copied), and it renders as the
 * grid's flattened copy of it does.
 * Host C11.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host/import/json/scene_json.h"
#include "tests/render/instancing/instance_scene.h"
#include "tests/render/render_util.h"
#include "tests/test.h"

static const TestRender tr = {64, 48, 8, 4, RS_INTEGRATOR_PATH, 3, 0, 0};

static int build(RsScene* s, int twin, uint32_t accel, int two_level)
{
    RsError err = {{0}};
    rs_scene_init(s);
    s->accel_options.kind = accel;
    s->accel_options.two_level = two_level;
    if (instance_scene_make(s, twin, &err) || rs_scene_build(s, &err)) {
        CHECK(0, "building the %s scene: %s", twin ? "flattened" : "instanced", err.message);
        rs_scene_free(s);
        return -1;
    }
    return 0;
}

static RsFloat4* render(const RsScene* s, RsBackendConfig cfg)
{
    RsError err = {{0}};
    RsFloat4* film = test_render(s, &cfg, &tr, NULL, &err);
    CHECK(film != NULL, "render: %s", err.message);
    return film;
}

/* Mean of the image and mean absolute per-pixel difference, relative to the mean. */
static void compare(const char* what, const RsFloat4* a, const RsFloat4* b, double mean_tol, double diff_tol)
{
    uint32_t n = tr.width * tr.height;
    double ma[3], mb[3], diff = 0.0, sum = 0.0;
    film_mean(a, n, ma);
    film_mean(b, n, mb);
    for (uint32_t i = 0; i < n; ++i) {
        diff += fabs(a[i].x / a[i].w - b[i].x / b[i].w) + fabs(a[i].y / a[i].w - b[i].y / b[i].w) +
                fabs(a[i].z / a[i].w - b[i].z / b[i].w);
        sum += (a[i].x + a[i].y + a[i].z) / a[i].w;
    }
    printf("%s: means %.5f %.5f %.5f against %.5f %.5f %.5f, mean |difference| %.5f of the mean\n", what, ma[0], ma[1],
           ma[2], mb[0], mb[1], mb[2], diff / sum);
    for (int k = 0; k < 3; ++k)
        CHECK(fabs(ma[k] - mb[k]) <= mean_tol * mb[k], "%s: channel %d mean %.6f against %.6f", what, k, ma[k], mb[k]);
    CHECK(diff / sum <= diff_tol, "%s: mean |difference| %.5f of the mean (allowed %.5f)", what, diff / sum, diff_tol);
    CHECK(ma[0] > 0.01 && ma[1] > 0.01, "%s: the image is dark (%.4f, %.4f)", what, ma[0], ma[1]);
}

static void check_same(const char* what, const RsFloat4* a, const RsFloat4* b)
{
    size_t bytes = (size_t)tr.width * tr.height * sizeof(RsFloat4);
    CHECK(a && b && memcmp(a, b, bytes) == 0, "%s: not bit-identical", what);
}

static void check_scene_shape(const RsScene* inst, const RsScene* twin)
{
    CHECK(inst->light_count == twin->light_count, "light table: %u entries against %u", inst->light_count,
          twin->light_count);
    double pi = 0.0, pt = 0.0;
    /* (the environment's power follows the scene's bounds, which an instance's box overestimates) */
    for (uint32_t i = 0; i < inst->light_count && i < twin->light_count; ++i) {
        if (i == inst->env_light)
            continue;
        pi += inst->lights[i].z;
        pt += twin->lights[i].z;
        CHECK_NEAR(inst->lights[i].y, twin->lights[i].y, 1e-5 * twin->lights[i].y + 1e-7);
    }
    CHECK_NEAR(pi, pt, 1e-5 * pt);
    CHECK(inst->instance_records.count == INSTANCE_SCENE_BLOBS + INSTANCE_SCENE_LAMPS + INSTANCE_SCENE_CARDS,
          "%zu instance records",
          inst->instance_records.count);
    CHECK(inst->two_level.view.tlas_node_count > 0, "no TLAS");
    /* each object's BLAS is built once: its primitives, not the placed copies */
    CHECK(inst->two_level.blas_prim_count < twin->prims.count, "BLAS holds %u primitives, the flat scene %zu",
          inst->two_level.blas_prim_count, twin->prims.count);
}

/* The JSON scene: objects and instances as such (not copied), and the same image as the grid's
 * flattened copy of it within rounding. */
static void json_scene(const char* path, RsBackendConfig cfg)
{
    RsScene s, flat;
    RsError err = {{0}};
    RsAccelOptions bvh = rs_accel_options_default(), grid = rs_accel_options_default();
    bvh.kind = RS_ACCEL_BVH2;
    grid.kind = RS_ACCEL_GRID;
    if (rs_scene_load_json(path, &bvh, &s, &err)) {
        CHECK(0, "%s", err.message);
        return;
    }
    if (rs_scene_load_json(path, &grid, &flat, &err)) {
        CHECK(0, "%s", err.message);
        rs_scene_free(&s);
        return;
    }
    CHECK(s.objects.count == 3 && s.instances.count == 4, "%s: %zu objects, %zu instances", path, s.objects.count,
          s.instances.count);
    CHECK(s.prims.count == 10 && s.object_prims.count == 6, "%s: %zu world and %zu object primitives", path,
          s.prims.count, s.object_prims.count);
    CHECK(s.light_count == flat.light_count && s.light_count == 3, "%s: %u lights (flattened: %u)", path,
          s.light_count, flat.light_count);
    RsFloat4* a = render(&s, cfg);
    RsFloat4* b = render(&flat, cpu_config(RS_DEADRAY_STENCIL, 2, 0));
    if (a && b)
        compare("JSON scene: instances against the grid's flattened copy", a, b, 0.02, 0.05);
    free(a);
    free(b);
    rs_scene_free(&s);
    rs_scene_free(&flat);
}

int main(int argc, char** argv)
{
    RsBackendConfig gpu;
    int cuda;
    if (argc < 2) {
        fprintf(stderr, "usage: test_instancing SCENE.json [cuda]\n");
        return 2;
    }
    if (!test_backend(argc, argv, 2, "test_instancing", &gpu, &cuda))
        return RS_TEST_SKIP;
    json_scene(argv[1], cuda ? gpu : cpu_config(RS_DEADRAY_STENCIL, 2, 0));
    RsBackendConfig cpu = cpu_config(RS_DEADRAY_STENCIL, 2, 0);
    uint32_t kinds[2] = {RS_ACCEL_BVH2, RS_ACCEL_BVH8};
    for (int k = 0; k < 2; ++k) {
        RsScene inst, twin;
        if (build(&inst, 0, kinds[k], 0))
            continue;
        if (build(&twin, 1, kinds[k], 0)) {
            rs_scene_free(&inst);
            continue;
        }
        check_scene_shape(&inst, &twin);
        RsFloat4* a = render(&inst, cuda ? gpu : cpu);
        RsFloat4* b = render(cuda ? &inst : &twin, cpu); /* on a GPU: against the CPU's image */
        char what[64];
        snprintf(what, sizeof what, "%s: instances against %s", rs_accel_name(kinds[k]),
                 cuda ? "the CPU (cuda)" : "the flat twin");
        if (a && b)
            compare(what, a, b, 0.01, 0.03);
        if (cuda && a) { /* the GPU's strategies and payload moves: bit for bit */
            const RsDeadRay ds[3] = {RS_DEADRAY_FLAGS, RS_DEADRAY_COMPACT_WARP, RS_DEADRAY_PERSISTENT};
            for (int d = 0; d < 3; ++d) {
                RsBackendConfig g = gpu;
                g.deadray = ds[d];
                g.payload = d == 1;
                RsFloat4* c = render(&inst, g);
                char name[64];
                snprintf(name, sizeof name, "cuda %s %s%s", rs_accel_name(kinds[k]), rs_deadray_name(ds[d]),
                         g.payload ? " --payload" : "");
                check_same(name, a, c);
                free(c);
            }
        }
        if (!cuda && k == 0 && a) {
            /* strategies, payload moves and threads: bit for bit */
            const RsDeadRay ds[3] = {RS_DEADRAY_FLAGS, RS_DEADRAY_COMPACT_SCAN, RS_DEADRAY_PERSISTENT};
            for (int d = 0; d < 3; ++d) {
                RsFloat4* c = render(&inst, cpu_config(ds[d], d + 1, 0));
                check_same(rs_deadray_name(ds[d]), a, c);
                free(c);
            }
            RsFloat4* c = render(&inst, cpu_config(RS_DEADRAY_COMPACT_SCAN, 3, 1));
            check_same("compact-scan --payload", a, c);
            free(c);
            /* the flat scene forced through the two-level path: the same image */
            RsScene forced;
            if (build(&forced, 1, kinds[k], 1) == 0) {
                CHECK(forced.instance_records.count == 1 && forced.world_prim_count == 0,
                      "--two-level: %zu instances, %u world primitives", forced.instance_records.count,
                      forced.world_prim_count);
                RsFloat4* f = render(&forced, cpu);
                check_same("flat scene through the two-level path", b, f);
                free(f);
                rs_scene_free(&forced);
            }
        }
        free(a);
        free(b);
        rs_scene_free(&inst);
        rs_scene_free(&twin);
    }
    if (!cuda) { /* the grid: flattened, with a warning */
        RsScene grid, twin;
        if (build(&grid, 0, RS_ACCEL_GRID, 0) == 0 && build(&twin, 1, RS_ACCEL_GRID, 0) == 0) {
            CHECK(grid.warnings.count == 1 && strstr(grid.warnings.data[0], "grid") != NULL,
                  "grid: expected one warning about flattening, got %zu", grid.warnings.count);
            CHECK(grid.two_level.view.instance_count == 0, "grid: instances left in the view");
            RsFloat4* a = render(&grid, cpu);
            RsFloat4* b = render(&twin, cpu);
            if (a && b)
                compare("grid: flattened instances against the flat twin", a, b, 0.01, 0.03);
            free(a);
            free(b);
            rs_scene_free(&grid);
            rs_scene_free(&twin);
        }
    }
    return rs_test_finish("test_instancing");
}
