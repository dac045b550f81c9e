/* test_bvh.c - BVH structure and traversal (host suite).
 *
 * Validity: every primitive lies in exactly one leaf; every child box encloses what is below
 * it; the depth stays under the traversal stack. Correctness: closest-hit traversal returns
 * the same t as testing every primitive, and any-hit agrees with it, for random rays through
 * random triangle soups with spheres mixed in (including a one-primitive scene and many
 * coincident centroids, the builder's special cases). Host C11. */
#include <stdlib.h>

#include "../../src/host/bvh_build.h"
#include "../../src/host/scene.h"
#include "../../src/kernel/bvh_traverse.h"
#include "../../src/kernel/rng.h"
#include "../../src/kernel/sampling.h"
#include "../test.h"

typedef struct Walk {
    const RsScene* s;
    uint32_t* leaf_hits; /* per primitive: how many leaves reference it */
    int bad_boxes;
    uint32_t max_depth;
} Walk;

static int box_contains(RsFloat4 lo, RsFloat4 hi, RsVec3 plo, RsVec3 phi)
{
    return plo.x >= lo.x && plo.y >= lo.y && plo.z >= lo.z && phi.x <= hi.x && phi.y <= hi.y && phi.z <= hi.z;
}

/* Checks the child described by (lo, hi, ref, count) and recurses; returns its true bounds. */
static void walk_child(Walk* w, RsFloat4 lo, RsFloat4 hi, uint32_t ref, uint32_t count, uint32_t depth);

static void walk_node(Walk* w, uint32_t index, uint32_t depth)
{
    const RsBvhNode* n = &w->s->nodes[index];
    walk_child(w, n->lo_left, n->hi_left, rs_float_as_uint(n->lo_left.w), rs_float_as_uint(n->lo_right.w), depth + 1);
    walk_child(w, n->lo_right, n->hi_right, rs_float_as_uint(n->hi_left.w), rs_float_as_uint(n->hi_right.w), depth + 1);
}

static void check_subtree_inside(Walk* w, RsFloat4 lo, RsFloat4 hi, uint32_t node)
{
    const RsBvhNode* n = &w->s->nodes[node];
    w->bad_boxes += !box_contains(lo, hi, rs_xyz(n->lo_left), rs_xyz(n->hi_left));
    w->bad_boxes += !box_contains(lo, hi, rs_xyz(n->lo_right), rs_xyz(n->hi_right));
}

static void walk_child(Walk* w, RsFloat4 lo, RsFloat4 hi, uint32_t ref, uint32_t count, uint32_t depth)
{
    if (depth > w->max_depth)
        w->max_depth = depth;
    if (count == 0) {
        CHECK(ref < w->s->node_count, "child node %u out of range", ref);
        if (ref >= w->s->node_count)
            return;
        check_subtree_inside(w, lo, hi, ref);
        walk_node(w, ref, depth);
        return;
    }
    CHECK(ref + count <= w->s->prims.count, "leaf [%u, +%u) out of range", ref, count);
    for (uint32_t i = ref; i < ref + count && i < w->s->prims.count; ++i) {
        RsVec3 plo, phi;
        rs_prim_bounds(&w->s->prims.data[i], &plo, &phi);
        w->bad_boxes += !box_contains(lo, hi, plo, phi);
        w->leaf_hits[i]++;
    }
}

static void check_structure(const RsScene* s, const char* what)
{
    Walk w = {s, calloc(s->prims.count, sizeof(uint32_t)), 0, 0};
    walk_node(&w, 0, 0);
    uint32_t unreachable = 0, duplicated = 0;
    for (size_t i = 0; i < s->prims.count; ++i) {
        unreachable += w.leaf_hits[i] == 0;
        duplicated += w.leaf_hits[i] > 1;
    }
    /* the one-primitive scene references its leaf from both sides of the root, by design */
    CHECK(unreachable == 0, "%s: %u primitives in no leaf", what, unreachable);
    CHECK(duplicated == 0 || s->prims.count == 1, "%s: %u primitives in several leaves", what, duplicated);
    CHECK(w.bad_boxes == 0, "%s: %d boxes do not enclose their contents", what, w.bad_boxes);
    CHECK(w.max_depth < RS_BVH_MAX_DEPTH, "%s: depth %u", what, w.max_depth);
    free(w.leaf_hits);
}

static float brute_force(const RsSceneView* v, RsVec3 o, RsVec3 d, float tmax, uint32_t* prim)
{
    float best = tmax;
    *prim = RS_NO_HIT;
    for (uint32_t i = 0; i < v->prim_count; ++i) {
        float t, a, b;
        if (rs_intersect_prim(&v->prims[i], o, d, 0.0f, best, &t, &a, &b)) {
            best = t;
            *prim = i;
        }
    }
    return best;
}

static void check_traversal(const RsScene* s, const char* what, uint32_t seed)
{
    RsSceneView v = rs_scene_view(s);
    int mismatched = 0, any_wrong = 0, hits = 0;
    for (uint32_t i = 0; i < 4000; ++i) {
        uint32_t key = rs_rng_path_key(seed, i, 0);
        RsVec3 o = rs_vec3(-12.0f + 24.0f * rs_rng(key, 0, 0), -12.0f + 24.0f * rs_rng(key, 0, 1),
                           -12.0f + 24.0f * rs_rng(key, 0, 2));
        RsVec3 d = rs_sample_uniform_sphere(rs_rng(key, 0, 3), rs_rng(key, 0, 4));
        if (i % 2 == 0) { /* half the rays aim into a primitive's box, so small scenes get hit too */
            RsVec3 lo, hi;
            rs_prim_bounds(&v.prims[i / 2 % v.prim_count], &lo, &hi);
            RsVec3 target = rs_add(lo, rs_mul(rs_sub(hi, lo), rs_vec3(rs_rng(key, 1, 0), rs_rng(key, 1, 1),
                                                                     rs_rng(key, 1, 2))));
            d = rs_normalize(rs_sub(target, o));
        } else if (i % 7 == 0) { /* some axis-parallel rays */
            d = rs_vec3(i % 3 ? 1.0f : -1.0f, 0.0f, 0.0f);
        }
        float tmax = i % 5 == 0 ? 3.0f : INFINITY;
        uint32_t prim;
        float t_ref = brute_force(&v, o, d, tmax, &prim);
        RsHit hit;
        int found = rs_trace_closest(&v, o, d, tmax, RS_NO_HIT, &hit);
        hits += found;
        if (found != (prim != RS_NO_HIT) || (found && hit.t != t_ref))
            ++mismatched;
        if (rs_trace_any(&v, o, d, tmax, RS_NO_HIT) != (prim != RS_NO_HIT))
            ++any_wrong;
    }
    CHECK(mismatched == 0, "%s: %d of 4000 closest hits differ from brute force", what, mismatched);
    CHECK(any_wrong == 0, "%s: %d of 4000 any-hit answers differ from brute force", what, any_wrong);
    CHECK(hits > 400, "%s: only %d rays hit anything; the test would prove little", what, hits);
}

static void make_soup(RsScene* s, uint32_t triangles, uint32_t spheres, uint32_t seed, int clustered)
{
    RsError err = {{0}};
    rs_scene_init(s);
    rs_scene_add_material(s, "m", rs_material_make(RS_MAT_DIFFUSE, rs_vec3_splat(0.5f), rs_vec3_splat(0), 1, 0), &err);
    for (uint32_t i = 0; i < triangles; ++i) {
        uint32_t key = rs_rng_path_key(seed, i, 1);
        /* clustered: every triangle shares a centroid region of size 1e-3, forcing median splits */
        float spread = clustered ? 1e-3f : 16.0f;
        RsVec3 c = rs_vec3(spread * (rs_rng(key, 0, 0) - 0.5f), spread * (rs_rng(key, 0, 1) - 0.5f),
                           spread * (rs_rng(key, 0, 2) - 0.5f));
        RsVec3 v[3];
        for (int k = 0; k < 3; ++k)
            v[k] = rs_add(c, rs_scale(rs_sample_uniform_sphere(rs_rng(key, 1, (uint32_t)k), rs_rng(key, 2, (uint32_t)k)),
                                      0.2f + 1.5f * rs_rng(key, 3, (uint32_t)k)));
        rs_scene_add_triangle(s, v[0], v[1], v[2], 0, &err);
    }
    for (uint32_t i = 0; i < spheres; ++i) {
        uint32_t key = rs_rng_path_key(seed, i, 2);
        RsVec3 c = rs_vec3(16.0f * (rs_rng(key, 0, 0) - 0.5f), 16.0f * (rs_rng(key, 0, 1) - 0.5f),
                           16.0f * (rs_rng(key, 0, 2) - 0.5f));
        rs_scene_add_sphere(s, c, 0.1f + rs_rng(key, 0, 3), 0, &err);
    }
    CHECK(rs_scene_build(s, &err) == 0, "%s", err.message);
}

int main(void)
{
    struct {
        const char* what;
        uint32_t triangles, spheres;
        int clustered;
    } cases[] = {
        {"one triangle", 1, 0, 0},   {"one sphere", 0, 1, 0},       {"two primitives", 1, 1, 0},
        {"soup of 3000", 3000, 0, 0}, {"soup with spheres", 2000, 300, 0}, {"coincident centroids", 500, 0, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        RsScene s;
        make_soup(&s, cases[i].triangles, cases[i].spheres, (uint32_t)i + 1, cases[i].clustered);
        if (!s.built)
            continue;
        check_structure(&s, cases[i].what);
        check_traversal(&s, cases[i].what, (uint32_t)i + 100);
        rs_scene_free(&s);
    }
    return rs_test_finish("test_bvh");
}
