/* test_light_tree_build.c - the light tree's builder (src/host/scene/light_tree.c): its shape, its
 * independence of the thread count, its depth bound, and its build time against the BVH's.
 * Host C11, host suite.
 *
 * 1. Over 20000 emissive triangles (random orientation, power over two decades): 2n - 1 nodes;
 *    every light's trail ends at a leaf that names it; every node's box holds its children's
 *    and its power is theirs; the same bytes built on one thread and on three (the tree may
 *    not depend on who built which subtree: every MPI rank and device must pick the same lights).
 * 2. Lights the binned split cannot balance (point lights at x = -2^-k, so that every split
 *    peels off a few; a few hundred in one place): past depth 32 nodes are halved, so no leaf is
 *    deeper than 63 (the trails' limit), and the probabilities still sum to 1.
 * 3. Build time, printed, not asserted (speed is a benchmark's business, and a sanitizer build or
 *    a loaded machine changes the ratio): a scene of 5000 emissive triangles alone and 5000
 *    among 100000 that do not emit, the best of five builds of each beside the BVH's (bvh8,
 *    every processor, as the tree); with RAYSTREAM_TREE_TIMING=1 also 250000 emissive triangles
 *    alone. The H100 host's figures are in tools/bench/results/quality/README.md.
 */
#include <stdlib.h>
#include <string.h>

#include "host/scene/scene.h"
#include "kernel/light/light_select.h"
#include "kernel/sampling/rng.h"
#include "tests/test.h"

static void random_triangles(RsScene* s, uint32_t count, uint32_t emitting, RsError* err)
{
    uint32_t grey = (uint32_t)rs_scene_add_material(
        s, "grey", rs_material_make(RS_MAT_DIFFUSE, rs_vec3_splat(0.5f), rs_vec3_splat(0.0f), 1.0f, 0), err);
    uint32_t lamps[8];
    for (uint32_t i = 0; i < 8; ++i) {
        char name[16];
        snprintf(name, sizeof name, "lamp%u", i);
        float r = powf(100.0f, (float)i / 7.0f) * 0.05f;
        lamps[i] = (uint32_t)rs_scene_add_material(
            s, name, rs_material_make(RS_MAT_DIFFUSE, rs_vec3_splat(0.5f), rs_vec3_splat(r), 1.0f, i == 3), err);
    }
    for (uint32_t i = 0; i < count; ++i) {
        uint32_t k = rs_rng_path_key(31, i, 0);
        RsVec3 c = rs_vec3(100.0f * rs_rng(k, 0, 0), 100.0f * rs_rng(k, 0, 1), 100.0f * rs_rng(k, 0, 2));
        RsVec3 a = rs_vec3(rs_rng(k, 1, 0) - 0.5f, rs_rng(k, 1, 1) - 0.5f, rs_rng(k, 1, 2) - 0.5f);
        RsVec3 b = rs_vec3(rs_rng(k, 2, 0) - 0.5f, rs_rng(k, 2, 1) - 0.5f, rs_rng(k, 2, 2) - 0.5f);
        rs_scene_add_triangle(s, c, rs_add(c, a), rs_add(c, b), i < emitting ? lamps[i % 8] : grey, err);
    }
}

static int box_holds(const RsFloat4* outer, const RsFloat4* inner)
{
    return outer[0].x <= inner[0].x && outer[0].y <= inner[0].y && outer[0].z <= inner[0].z &&
           outer[1].x >= inner[1].x && outer[1].y >= inner[1].y && outer[1].z >= inner[1].z;
}

static void check_shape(const RsSceneView* v)
{
    const RsLightSelectView* sel = &v->light_select;
    uint32_t lost = 0, loose = 0, bad_power = 0;
    for (uint32_t light = 0; light < v->light_count; ++light) {
        uint64_t trail = sel->trails[light];
        uint32_t node = 0;
        for (; trail > 1; trail >>= 1) {
            uint32_t bits = rs_float_as_uint(sel->nodes[4 * node + 3].x);
            if (bits & RS_LIGHT_TREE_LEAF)
                break;
            node = (trail & 1) ? bits : node + 1;
        }
        uint32_t bits = rs_float_as_uint(sel->nodes[4 * node + 3].x);
        lost += trail != 1 || bits != (RS_LIGHT_TREE_LEAF | light);
    }
    for (uint32_t node = 0; node < sel->node_count; ++node) {
        const RsFloat4* n = sel->nodes + 4 * node;
        uint32_t bits = rs_float_as_uint(n[3].x);
        if (bits & RS_LIGHT_TREE_LEAF)
            continue;
        const RsFloat4 *a = n + 4, *b = sel->nodes + 4 * (size_t)bits;
        loose += !box_holds(n, a) || !box_holds(n, b);
        bad_power += fabsf(n[0].w - (a[0].w + b[0].w)) > 1e-4f * n[0].w;
    }
    CHECK(sel->node_count == 2 * v->light_count - 1, "%u nodes for %u lights", sel->node_count, v->light_count);
    CHECK(lost == 0, "%u lights' trails do not lead to their leaves", lost);
    CHECK(loose == 0 && bad_power == 0, "%u nodes do not hold their children's boxes, %u lack their power", loose,
          bad_power);
}

static void test_shape_and_threads(void)
{
    RsError err = {{0}};
    RsScene s;
    rs_scene_init(&s);
    s.render.light_sampler = RS_LIGHT_SELECT_TREE;
    random_triangles(&s, 20000, 20000, &err);
    s.accel_options.threads = 1;
    CHECK(rs_scene_build(&s, &err) == 0, "%s", err.message);
    RsSceneView v = rs_scene_view(&s);
    check_shape(&v);
    size_t node_bytes = 4 * (size_t)v.light_select.node_count * sizeof(RsFloat4);
    RsFloat4* one = malloc(node_bytes);
    uint64_t* one_trails = malloc(v.light_count * sizeof(uint64_t));
    memcpy(one, v.light_select.nodes, node_bytes);
    memcpy(one_trails, v.light_select.trails, v.light_count * sizeof(uint64_t));
    s.accel_options.threads = 3;
    CHECK(rs_scene_select_lights(&s, RS_LIGHT_SELECT_TREE, &err) == 0, "%s", err.message);
    v = rs_scene_view(&s);
    CHECK(memcmp(one, v.light_select.nodes, node_bytes) == 0 &&
              memcmp(one_trails, v.light_select.trails, v.light_count * sizeof(uint64_t)) == 0,
          "the tree built on three threads differs from the one built on one");
    free(one);
    free(one_trails);
    rs_scene_free(&s);
}

static void test_depth_bound(void)
{
    RsError err = {{0}};
    RsScene s;
    rs_scene_init(&s);
    s.render.light_sampler = RS_LIGHT_SELECT_TREE;
    uint32_t grey = (uint32_t)rs_scene_add_material(
        &s, "grey", rs_material_make(RS_MAT_DIFFUSE, rs_vec3_splat(0.5f), rs_vec3_splat(0.0f), 1.0f, 0), &err);
    rs_scene_add_sphere(&s, rs_vec3(0, -2, 0), 1.0f, grey, &err);
    for (uint32_t i = 0; i < 3000; ++i) /* each bin but the last holds a few: the splits peel them off */
        rs_scene_add_point_light(&s, rs_vec3(-ldexpf(1.0f, -(int)(i % 120)) * (1.0f + 1e-3f * (float)(i / 120)), 0.0f, 0.0f),
                                 rs_vec3_splat(1.0f + (float)(i % 7)), &err);
    for (uint32_t i = 0; i < 300; ++i)
        rs_scene_add_point_light(&s, rs_vec3(5.0f, 1.0f, 0.0f), rs_vec3_splat(1.0f), &err);
    CHECK(rs_scene_build(&s, &err) == 0, "%s", err.message);
    RsSceneView v = rs_scene_view(&s);
    printf("lopsided lights: %u lights, depth %u\n", v.light_count, s.light_select.tree.depth);
    CHECK(s.light_select.tree.depth <= RS_LIGHT_TREE_MAX_DEPTH, "depth %u", s.light_select.tree.depth);
    check_shape(&v);
    const RsVec3 points[3] = {rs_vec3(1.5f, 0.1f, 0.0f), rs_vec3(5.0f, 1.0f, 0.0f), rs_vec3(1e4f, 3.0f, -2.0f)};
    for (int k = 0; k < 3; ++k) {
        double sum = 0.0;
        for (uint32_t i = 0; i < v.light_count; ++i)
            sum += rs_light_select_pmf(&v, rs_light_context(points[k], rs_vec3_splat(0.0f)), i);
        CHECK(fabs(sum - 1.0) <= 1e-4, "lopsided lights: the probabilities at point %d sum to %.7f", k, sum);
    }
    rs_scene_free(&s);
}

static void time_builds(uint32_t emitting, uint32_t other, double* bvh, double* tree)
{
    RsError err = {{0}};
    RsScene s;
    rs_scene_init(&s);
    s.render.light_sampler = RS_LIGHT_SELECT_TREE;
    random_triangles(&s, emitting + other, emitting, &err);
    *bvh = *tree = INFINITY;
    for (int r = 0; r < 5; ++r) {
        CHECK(rs_scene_build(&s, &err) == 0, "%s", err.message);
        *bvh = fmin(*bvh, s.accel.stats.build_seconds);
        *tree = fmin(*tree, s.light_select.build_seconds);
    }
    printf("%u emissive triangles among %u: BVH %.2f ms, light tree %.3f ms (%.1f%%), best of 5\n", emitting,
           emitting + other, 1e3 * *bvh, 1e3 * *tree, 100.0 * *tree / *bvh);
    rs_scene_free(&s);
}

int main(void)
{
    test_shape_and_threads();
    test_depth_bound();
    double bvh, tree;
    time_builds(5000, 0, &bvh, &tree);
    time_builds(5000, 100000, &bvh, &tree);
    if (getenv("RAYSTREAM_TREE_TIMING") && strcmp(getenv("RAYSTREAM_TREE_TIMING"), "1") == 0)
        time_builds(250000, 0, &bvh, &tree);
    return rs_test_finish("test_light_tree_build");
}
