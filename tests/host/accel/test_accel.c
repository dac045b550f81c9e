/* test_accel.c - every acceleration structure is sound and agrees with brute force (host suite).
 *
 *   test_accel [--rays N] [SCENE.json...]
 *
 * For bvh2, bvh8 and grid (the BVHs also with spatial splits), over random triangle soups with
 * spheres mixed in (one big enough for the builder's parallel top-level splits), a
 * one-primitive scene, coincident centroids, and every scene file given:
 *  - soundness: every primitive is reachable (in some leaf or cell); every child box encloses
 *    what lies below it (bvh8: its quantized boxes, decoded exactly as traversal decodes them);
 *    the depth fits the traversal stack;
 *  - traversal: for random rays (from inside and outside the scene, aimed at primitives, some
 *    axis-parallel, some with a finite tmax), the closest hit's t equals brute force's within
 *    1e-6 relative, and any-hit gives the same verdict. (The hit primitive may differ where two
 *    are hit at the same t, on a shared edge.)
 *  - bvh8's camera tree (its binary tree flattened for camera rays, kernel/accel/accel.h): the
 *    same soundness and traversal checks as a bvh2.
 * Host C11.
 */
#include <stdlib.h>
#include <string.h>

#include "host/accel/bvh_binary.h"
#include "host/import/json/scene_json.h"
#include "kernel/accel/accel.h"
#include "kernel/geometry/surface.h"
#include "kernel/sampling/rng.h"
#include "kernel/sampling/warp.h"
#include "random_rays.h"
#include "tests/test.h"

static int encloses(RsVec3 lo, RsVec3 hi, RsVec3 plo, RsVec3 phi)
{
    return plo.x >= lo.x && plo.y >= lo.y && plo.z >= lo.z && phi.x <= hi.x && phi.y <= hi.y && phi.z <= hi.z;
}

typedef struct Check {
    const RsScene* s;
    uint32_t* reached; /* per scene primitive */
    int bad_boxes;
    uint32_t depth;
    int thin_margins; /* bvh8 boxes closer than half a grid step to their contents */
} Check;

/* Marks the trace primitive and checks the box holds it (without spatial splits only: a split
 * reference's box holds just its piece). */
static void visit_prim(Check* c, const RsPrim* trace, RsVec3 lo, RsVec3 hi, int whole)
{
    uint32_t index = rs_trace_prim_index(trace);
    CHECK(index < c->s->prims.count, "trace primitive names scene primitive %u of %zu", index, c->s->prims.count);
    if (index >= c->s->prims.count)
        return;
    c->reached[index]++;
    RsVec3 plo, phi;
    rs_prim_bounds(&c->s->prims.data[index], &plo, &phi);
    c->bad_boxes += whole && !encloses(lo, hi, plo, phi);
}

static void check_bvh2(Check* c, const RsBvh2View* v, uint32_t node, uint32_t depth, RsVec3 lo, RsVec3 hi, int whole)
{
    if (depth > c->depth)
        c->depth = depth;
    const RsBvh2Node* n = &v->nodes[node];
    RsFloat4 los[2] = {n->lo_left, n->lo_right}, his[2] = {n->hi_left, n->hi_right};
    uint32_t refs[2] = {rs_float_as_uint(n->lo_left.w), rs_float_as_uint(n->hi_left.w)};
    uint32_t counts[2] = {rs_float_as_uint(n->lo_right.w), rs_float_as_uint(n->hi_right.w)};
    for (int k = 0; k < 2; ++k) {
        RsVec3 clo = rs_xyz(los[k]), chi = rs_xyz(his[k]);
        c->bad_boxes += depth > 0 && !encloses(lo, hi, clo, chi);
        if (counts[k] == 0) {
            CHECK(refs[k] < v->node_count, "bvh2 child node %u out of range", refs[k]);
            if (refs[k] < v->node_count)
                check_bvh2(c, v, refs[k], depth + 1, clo, chi, whole);
        } else {
            CHECK(refs[k] + counts[k] <= v->prim_count, "bvh2 leaf [%u, +%u) out of range", refs[k], counts[k]);
            for (uint32_t i = refs[k]; i < refs[k] + counts[k] && i < v->prim_count; ++i)
                visit_prim(c, &v->prims[i], clo, chi, whole);
        }
    }
}

static uint32_t byte_of(uint32_t w, uint32_t k) { return (w >> (8 * k)) & 0xffu; }

/* Decodes slot s of bvh8 node n as traversal does: p + q * 2^(e - 127). */
static void bvh8_child_box(const RsBvh8Node* n, uint32_t s, RsVec3* lo, RsVec3* hi)
{
    uint32_t w[20];
    memcpy(w, n, sizeof w);
    float p[3] = {rs_uint_as_float(w[0]), rs_uint_as_float(w[1]), rs_uint_as_float(w[2])}, l[3], h[3];
    for (uint32_t k = 0; k < 3; ++k) {
        float step = rs_uint_as_float(byte_of(w[3], k) << 23);
        uint32_t ql = byte_of(w[8 + 2 * k + s / 4], s % 4), qh = byte_of(w[14 + 2 * k + s / 4], s % 4);
        l[k] = (float)((double)p[k] + (double)ql * step); /* rounded like the traversal's planes */
        h[k] = (float)((double)p[k] + (double)qh * step);
    }
    *lo = rs_vec3(l[0], l[1], l[2]);
    *hi = rs_vec3(h[0], h[1], h[2]);
}

/* Walks bvh8 node `node`; grows glo and ghi by the bounds of the primitives below it, and checks
 * that every slot's decoded box holds the primitives below that slot (whole primitives only,
 * within rounding: traversal pads far planes the same way). */
static void check_bvh8(Check* c, const RsBvh8View* v, uint32_t node, uint32_t depth, RsVec3* glo, RsVec3* ghi,
                       int whole)
{
    if (depth > c->depth)
        c->depth = depth;
    const RsBvh8Node* n = &v->nodes[node];
    uint32_t imask = n->b0.w >> 24, child = n->b1.x, prim_base = n->b1.y, interior = 0;
    for (uint32_t s = 0; s < 8; ++s) {
        uint32_t meta = byte_of(s < 4 ? n->b1.z : n->b1.w, s % 4);
        if (meta == 0) {
            CHECK(!((imask >> s) & 1u), "bvh8 node %u: empty slot %u marked interior", node, s);
            continue;
        }
        RsVec3 clo, chi, slo = rs_vec3_splat(INFINITY), shi = rs_vec3_splat(-INFINITY);
        bvh8_child_box(n, s, &clo, &chi);
        if ((imask >> s) & 1u) {
            CHECK(meta == 0x38u + s, "bvh8 node %u slot %u: interior meta 0x%x", node, s, meta);
            uint32_t index = child + interior++;
            CHECK(index < v->node_count, "bvh8 child node %u out of range", index);
            if (index < v->node_count)
                check_bvh8(c, v, index, depth + 1, &slo, &shi, whole);
        } else {
            uint32_t count = meta >> 5 == 1 ? 1 : (meta >> 5 == 3 ? 2 : (meta >> 5 == 7 ? 3 : 0));
            CHECK(count > 0, "bvh8 node %u slot %u: leaf meta 0x%x is not a unary count", node, s, meta);
            for (uint32_t i = 0; i < count; ++i) {
                uint32_t t = prim_base + (meta & 31u) + i;
                CHECK(t < v->prim_count, "bvh8 leaf primitive %u out of range", t);
                if (t >= v->prim_count)
                    continue;
                RsVec3 plo, phi;
                rs_prim_bounds(&v->prims[t], &plo, &phi);
                slo = rs_vmin(slo, plo);
                shi = rs_vmax(shi, phi);
                visit_prim(c, &v->prims[t], clo, chi, 0);
            }
        }
        RsVec3 pad = rs_vec3_splat(1e-6f * (1.0f + rs_max_abs_component(rs_vmax(rs_vabs(clo), rs_vabs(chi)))));
        c->bad_boxes += whole && !encloses(rs_sub(clo, pad), rs_add(chi, pad), slo, shi);
        /* and half a grid step beyond them, the margin for the box test's rounding
         * (host/accel/bvh8_build.c, PLANE_MARGIN) */
        RsVec3 half = rs_vec3(0.5f * rs_uint_as_float((n->b0.w & 0xffu) << 23),
                              0.5f * rs_uint_as_float(((n->b0.w >> 8) & 0xffu) << 23),
                              0.5f * rs_uint_as_float(((n->b0.w >> 16) & 0xffu) << 23));
        RsVec3 inner = rs_sub(half, pad);
        c->thin_margins += whole && !encloses(rs_add(clo, inner), rs_sub(chi, inner), slo, shi);
        *glo = rs_vmin(*glo, slo);
        *ghi = rs_vmax(*ghi, shi);
    }
}

static void check_grid(Check* c, const RsGridView* g)
{
    CHECK(g->cells[g->cell_count] == g->ref_count, "grid: last offset %u, %u entries", g->cells[g->cell_count],
          g->ref_count);
    for (uint32_t cell = 0; cell < g->cell_count; ++cell) {
        CHECK(g->cells[cell] <= g->cells[cell + 1], "grid: cell %u offsets decrease", cell);
        uint32_t x = cell % g->res.x, y = cell / g->res.x % g->res.y, z = cell / g->res.x / g->res.y;
        RsVec3 lo = rs_add(rs_xyz(g->lo), rs_mul(rs_vec3((float)x, (float)y, (float)z), rs_xyz(g->cell)));
        RsVec3 hi = rs_add(lo, rs_xyz(g->cell));
        for (uint32_t i = g->cells[cell]; i < g->cells[cell + 1]; ++i) {
            const RsPrim* p = &g->prims[g->refs[i]];
            RsVec3 plo, phi;
            rs_prim_bounds(p, &plo, &phi);
            /* listed only where its box reaches (one cell of slack for rounding at a boundary) */
            RsVec3 slack = rs_xyz(g->cell);
            c->bad_boxes += !(plo.x <= hi.x + slack.x && phi.x >= lo.x - slack.x && plo.y <= hi.y + slack.y &&
                              phi.y >= lo.y - slack.y && plo.z <= hi.z + slack.z && phi.z >= lo.z - slack.z);
            c->reached[rs_trace_prim_index(p)]++;
        }
    }
}

static void check_structure(const RsScene* s, const char* what)
{
    Check c = {s, calloc(s->prims.count, sizeof(uint32_t)), 0, 0, 0};
    const RsAccelView* a = &s->accel.view;
    int whole = !s->accel_options.spatial_splits;
    RsVec3 inf = rs_vec3_splat(INFINITY);
    if (a->kind == RS_ACCEL_BVH2)
        check_bvh2(&c, &a->bvh2, 0, 0, rs_neg(inf), inf, whole);
    else if (a->kind == RS_ACCEL_BVH8) {
        RsVec3 glo = inf, ghi = rs_neg(inf);
        check_bvh8(&c, &a->bvh8, 0, 0, &glo, &ghi, whole);
    }
    else
        check_grid(&c, &a->grid);
    uint32_t unreachable = 0, repeated = 0;
    for (size_t i = 0; i < s->prims.count; ++i) {
        unreachable += c.reached[i] == 0;
        repeated += c.reached[i] > 1;
    }
    CHECK(unreachable == 0, "%s: %u primitives cannot be reached", what, unreachable);
    /* leaves list a primitive once, unless split (or a lone primitive filling the bvh2 root) */
    CHECK(a->kind == RS_ACCEL_GRID || !whole || repeated == 0 || s->prims.count == 1,
          "%s: %u primitives in several leaves without spatial splits", what, repeated);
    CHECK(c.bad_boxes == 0, "%s: %d boxes do not enclose their contents", what, c.bad_boxes);
    CHECK(c.thin_margins == 0, "%s: %d bvh8 boxes keep less than half a grid step around their contents", what,
          c.thin_margins);
    if (a->kind == RS_ACCEL_BVH8)
        CHECK(c.depth < RS_BVH8_STACK, "%s: depth %u", what, c.depth);
    if (a->kind == RS_ACCEL_BVH2)
        CHECK(c.depth < RS_BVH2_MAX_DEPTH, "%s: depth %u", what, c.depth);
    free(c.reached);
    /* bvh8 keeps its binary tree for camera rays, as sound as a bvh2 of its own */
    CHECK(a->kind != RS_ACCEL_BVH8 || a->camera_tree, "%s: bvh8 without its camera tree by default", what);
    if (a->kind == RS_ACCEL_BVH8 && a->camera_tree) {
        Check t = {s, calloc(s->prims.count, sizeof(uint32_t)), 0, 0, 0};
        check_bvh2(&t, &a->bvh2, 0, 0, rs_neg(inf), inf, whole);
        uint32_t missing = 0, twice = 0;
        for (size_t i = 0; i < s->prims.count; ++i) {
            missing += t.reached[i] == 0;
            twice += t.reached[i] > 1;
        }
        CHECK(missing == 0, "%s camera tree: %u primitives cannot be reached", what, missing);
        CHECK(!whole || twice == 0 || s->prims.count == 1, "%s camera tree: %u primitives in several leaves", what,
              twice);
        CHECK(t.bad_boxes == 0, "%s camera tree: %d boxes do not enclose their contents", what, t.bad_boxes);
        CHECK(t.depth < RS_BVH2_MAX_DEPTH, "%s camera tree: depth %u", what, t.depth);
        free(t.reached);
    }
}

/* Traversal of the structure `kind` names in s's view against brute force. */
static void check_traversal_of(const RsScene* s, uint32_t kind, const char* what, uint32_t seed, uint32_t rays)
{
    RsSceneView v = rs_scene_view(s);
    uint64_t stack_mem[RS_BVH8_STACK], spill_mem[RS_BVH8_STACK];
    int mismatched = 0, any_wrong = 0, hits = 0;
    for (uint32_t i = 0; i < rays; ++i) {
        /* every other ray keeps only 2 stack entries at base and the rest in the spill array, as
         * the GPU keeps its first entries in shared memory (bvh8.h, RsTraceStack) */
        RsTraceStack stack = rs_trace_stack_local(stack_mem);
        if (i % 2) {
            stack.near = 2;
            stack.spill = spill_mem;
        }
        TestRay r;
        if (!random_ray(s, seed, i, &r))
            continue;
        uint32_t prim;
        float t_ref = brute_force(s, &r, &prim);
        RsHit hit;
        int found = rs_accel_closest(kind, &v.accel, r.o, r.d, r.tmax, RS_NO_HIT, &hit, stack);
        hits += found;
        if (found != (prim != RS_NO_HIT) || (found && !(fabsf(hit.t - t_ref) <= 1e-6f * t_ref))) {
            if (mismatched < 3)
                fprintf(stderr, "%s ray %u: closest t %.9g (prim %u), brute force %.9g (prim %u)\n", what, i,
                        found ? hit.t : -1.0f, hit.prim, prim != RS_NO_HIT ? t_ref : -1.0f, prim);
            ++mismatched;
        }
        if (rs_accel_any(kind, &v.accel, r.o, r.d, r.tmax, RS_NO_HIT, stack) != (prim != RS_NO_HIT))
            ++any_wrong;
    }
    CHECK(mismatched == 0, "%s: %d of %u closest hits differ from brute force", what, mismatched, rays);
    CHECK(any_wrong == 0, "%s: %d of %u any-hit answers differ from brute force", what, any_wrong, rays);
    CHECK(hits > (int)rays / 10, "%s: only %d rays hit anything; the test would prove little", what, hits);
}

static void check_traversal(const RsScene* s, const char* what, uint32_t seed, uint32_t rays)
{
    check_traversal_of(s, s->accel.view.kind, what, seed, rays);
    if (s->accel.view.camera_tree) {
        char name[200];
        snprintf(name, sizeof name, "%s camera tree", what);
        check_traversal_of(s, RS_ACCEL_BVH2, name, seed, rays);
    }
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
        /* every fourth triangle long and thin, where spatial splits matter */
        float length = i % 4 == 0 ? 6.0f : 1.5f;
        for (int k = 0; k < 3; ++k)
            v[k] = rs_add(c, rs_scale(rs_sample_uniform_sphere(rs_rng(key, 1, (uint32_t)k), rs_rng(key, 2, (uint32_t)k)),
                                      0.2f + length * rs_rng(key, 3, (uint32_t)k)));
        rs_scene_add_triangle(s, v[0], v[1], v[2], 0, &err);
    }
    for (uint32_t i = 0; i < spheres; ++i) {
        uint32_t key = rs_rng_path_key(seed, i, 2);
        RsVec3 c = rs_vec3(16.0f * (rs_rng(key, 0, 0) - 0.5f), 16.0f * (rs_rng(key, 0, 1) - 0.5f),
                           16.0f * (rs_rng(key, 0, 2) - 0.5f));
        rs_scene_add_sphere(s, c, 0.1f + rs_rng(key, 0, 3), 0, &err);
    }
}

typedef struct Variant {
    uint32_t kind;
    int spatial;
} Variant;

static const Variant variants[] = {
    {RS_ACCEL_BVH2, 0}, {RS_ACCEL_BVH2, 1}, {RS_ACCEL_BVH8, 0}, {RS_ACCEL_BVH8, 1}, {RS_ACCEL_GRID, 0},
};

static void check_all(RsScene* s, const char* what, uint32_t seed, uint32_t rays)
{
    for (size_t k = 0; k < sizeof variants / sizeof variants[0]; ++k) {
        RsError err = {{0}};
        s->accel_options.kind = variants[k].kind;
        s->accel_options.spatial_splits = variants[k].spatial;
        if (rs_scene_build(s, &err)) {
            CHECK(0, "%s: %s", what, err.message);
            continue;
        }
        char name[160];
        snprintf(name, sizeof name, "%s, %s%s", what, rs_accel_name(variants[k].kind),
                 variants[k].spatial ? " sbvh" : "");
        const RsAccelStats* st = &s->accel.stats;
        printf("%-44s %8u nodes %9llu refs  depth %3u  SAH %8.2f  %6.3f s\n", name, st->nodes,
               (unsigned long long)st->references, st->depth, st->sah_cost, st->build_seconds);
        check_structure(s, name);
        check_traversal(s, name, seed, rays);
    }
}

int main(int argc, char** argv)
{
    uint32_t rays = 3000;
    int first_scene = 1;
    if (argc > 2 && strcmp(argv[1], "--rays") == 0) {
        rays = (uint32_t)strtoul(argv[2], NULL, 10);
        first_scene = 3;
    }
    struct {
        const char* what;
        uint32_t triangles, spheres;
        int clustered;
    } cases[] = {
        {"one triangle", 1, 0, 0},   {"one sphere", 0, 1, 0},       {"two primitives", 1, 1, 0},
        {"soup of 3000", 3000, 0, 0}, {"soup with spheres", 2000, 300, 0}, {"coincident centroids", 500, 0, 1},
        /* above RS_BINARY_TOP_MIN_REFS: the top of the tree is split by every worker together */
        {"soup of 40000", 40000, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        RsScene s;
        make_soup(&s, cases[i].triangles, cases[i].spheres, (uint32_t)i + 1, cases[i].clustered);
        /* brute force tests every primitive: fewer rays over the big soup keep the test fast */
        check_all(&s, cases[i].what, (uint32_t)i + 100, cases[i].triangles > 10000 ? rays / 10 : rays);
        rs_scene_free(&s);
    }
    for (int i = first_scene; i < argc; ++i) {
        RsScene s;
        RsError err = {{0}};
        if (rs_scene_load_json(argv[i], NULL, &s, &err)) {
            CHECK(0, "%s", err.message);
            continue;
        }
        const char* base = strrchr(argv[i], '/');
        check_all(&s, base ? base + 1 : argv[i], (uint32_t)i + 200, rays);
        rs_scene_free(&s);
    }
    return rs_test_finish("test_accel");
}
