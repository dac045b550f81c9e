/* bvh_traverse.h - closest-hit and any-hit traversal of the two-wide BVH of scene_data.h.
 *
 * Shared header (gcc C11, g++, nvcc). A stack-based loop in the style of Aila & Laine,
 * "Understanding the Efficiency of Ray Traversal on GPUs" (HPG 2009): each visit tests both
 * child boxes stored in the parent, intersects leaf children at once, descends into the
 * nearer interior child and pushes the farther one. The builder (src/host/bvh_build.c)
 * guarantees a depth below RS_BVH_MAX_DEPTH, so the fixed stack cannot overflow.
 *
 * Hits are accepted for 0 < t < tmax. `skip` is a primitive that is never reported: the
 * triangle a ray leaves (surface.h explains why), RS_NO_HIT for none.
 */
#ifndef RS_KERNEL_BVH_TRAVERSE_H
#define RS_KERNEL_BVH_TRAVERSE_H

#include "intersect.h"

#define RS_BVH_MAX_DEPTH 64

typedef struct RsHit {
    float t, u, v;
    uint32_t prim; /* RS_NO_HIT on a miss */
} RsHit;

/* 1/d with zero components replaced by +-1e-20: the inverse stays finite (+-1e20), so the
 * slab test never computes 0 * inf = NaN and can use plain compare-and-select min/max, which
 * are single instructions on both the CPU and the GPU. */
RS_FN float rs_safe_rcp(float x) { return 1.0f / (fabsf(x) > 1e-20f ? x : copysignf(1e-20f, x)); }

RS_FN RsVec3 rs_safe_inverse(RsVec3 d) { return rs_vec3(rs_safe_rcp(d.x), rs_safe_rcp(d.y), rs_safe_rcp(d.z)); }

/* Shrinks hit->t to the nearest primitive of the leaf, if any is nearer. */
RS_FN void rs_leaf_closest(const RsSceneView* s, uint32_t first, uint32_t count, RsVec3 o, RsVec3 d, uint32_t skip,
                           RsHit* hit)
{
    for (uint32_t i = first; i < first + count; ++i) {
        float t, u, v;
        if (i != skip && rs_intersect_prim(&s->prims[i], o, d, 0.0f, hit->t, &t, &u, &v)) {
            hit->t = t;
            hit->u = u;
            hit->v = v;
            hit->prim = i;
        }
    }
}

RS_FN int rs_leaf_any(const RsSceneView* s, uint32_t first, uint32_t count, RsVec3 o, RsVec3 d,
                      uint32_t skip, float tmax)
{
    for (uint32_t i = first; i < first + count; ++i) {
        float t, u, v;
        if (i != skip && rs_intersect_prim(&s->prims[i], o, d, 0.0f, tmax, &t, &u, &v))
            return 1;
    }
    return 0;
}

/* Returns 1 only when an any-hit query is answered; closest hits just shrink hit->t. */
RS_FN int rs_visit_leaf(const RsSceneView* s, uint32_t first, uint32_t count, RsVec3 o, RsVec3 d,
                        uint32_t skip, int any, RsHit* hit)
{
    if (any) {
        if (rs_leaf_any(s, first, count, o, d, skip, hit->t)) {
            hit->prim = first; /* any primitive of the leaf: callers only ask "blocked?" */
            return 1;
        }
        return 0;
    }
    rs_leaf_closest(s, first, count, o, d, skip, hit);
    return 0;
}

/* Shared loop; `any` selects shadow-ray semantics (stop at the first hit). */
RS_FN int rs_traverse(const RsSceneView* s, RsVec3 o, RsVec3 d, float tmax, uint32_t skip, int any,
                      RsHit* hit)
{
    hit->t = tmax;
    hit->u = 0.0f;
    hit->v = 0.0f;
    hit->prim = RS_NO_HIT;
    if (s->node_count == 0)
        return 0;
    RsVec3 inv_d = rs_safe_inverse(d);
    RsVec3 o_inv = rs_mul(o, inv_d);
    uint32_t stack[RS_BVH_MAX_DEPTH];
    int sp = 0;
    uint32_t node = 0;
    for (;;) {
        const RsBvhNode* n = &s->nodes[node];
        RsFloat4 lo_l = n->lo_left, hi_l = n->hi_left, lo_r = n->lo_right, hi_r = n->hi_right;
        float t_l, t_r;
        int hit_l = rs_intersect_box(lo_l, hi_l, inv_d, o_inv, 0.0f, hit->t, &t_l);
        int hit_r = rs_intersect_box(lo_r, hi_r, inv_d, o_inv, 0.0f, hit->t, &t_r);
        uint32_t ref_l = rs_float_as_uint(lo_l.w), ref_r = rs_float_as_uint(hi_l.w);
        uint32_t count_l = rs_float_as_uint(lo_r.w), count_r = rs_float_as_uint(hi_r.w);
        if (hit_l && count_l != 0) {
            if (rs_visit_leaf(s, ref_l, count_l, o, d, skip, any, hit))
                return 1;
            hit_l = 0;
        }
        if (hit_r && count_r != 0) {
            if (rs_visit_leaf(s, ref_r, count_r, o, d, skip, any, hit))
                return 1;
            hit_r = 0;
        }
        if (hit_l && hit_r) {
            uint32_t near_ref = t_l <= t_r ? ref_l : ref_r;
            uint32_t far_ref = t_l <= t_r ? ref_r : ref_l;
            stack[sp++] = far_ref;
            node = near_ref;
        } else if (hit_l) {
            node = ref_l;
        } else if (hit_r) {
            node = ref_r;
        } else {
            if (sp == 0)
                break;
            node = stack[--sp];
        }
    }
    return hit->prim != RS_NO_HIT;
}

RS_FN int rs_trace_closest(const RsSceneView* s, RsVec3 o, RsVec3 d, float tmax, uint32_t skip, RsHit* hit)
{
    return rs_traverse(s, o, d, tmax, skip, 0, hit);
}

RS_FN int rs_trace_any(const RsSceneView* s, RsVec3 o, RsVec3 d, float tmax, uint32_t skip)
{
    RsHit hit;
    return rs_traverse(s, o, d, tmax, skip, 1, &hit);
}

#endif /* RS_KERNEL_BVH_TRAVERSE_H */
