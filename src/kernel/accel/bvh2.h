/* bvh2.h - the binary BVH: node layout, closest-hit and any-hit traversal.
 *
 * Shared header (gcc C11, g++, nvcc). The baseline structure: a binned-SAH binary tree
 * (src/host/accel/bvh2_build.c) whose nodes hold both child boxes, traversed with a stack in
 * the style of Aila & Laine, "Understanding the Efficiency of Ray Traversal on GPUs" (HPG
 * 2009): each visit tests both child boxes, intersects leaf children at once, descends into the
 * nearer interior child and pushes the farther one. The stack is a local array (on the GPU,
 * local memory); bvh8 is the structure that keeps it out of memory.
 *
 * RsBvh2Node, 64 bytes, four 16-byte blocks (Aila & Laine's layout: one visit tests both
 * children, and a leaf costs no node fetch of its own):
 *   offset  0  lo_left.xyz   float x3 | left child ref   (uint32 bits)
 *   offset 16  hi_left.xyz   float x3 | right child ref  (uint32 bits)
 *   offset 32  lo_right.xyz  float x3 | left prim count  (uint32 bits)
 *   offset 48  hi_right.xyz  float x3 | right prim count (uint32 bits)
 * A child with count 0 is an interior node (ref = node index); otherwise ref is its first trace
 * primitive and the leaf holds `count` of them. An empty box (lo > hi) is never entered. The
 * root is node 0 and always interior. The builder keeps the depth below RS_BVH2_MAX_DEPTH, so
 * the fixed stack cannot overflow.
 */
#ifndef RS_KERNEL_ACCEL_BVH2_H
#define RS_KERNEL_ACCEL_BVH2_H

#include "kernel/accel/trace_hit.h"

#define RS_BVH2_MAX_DEPTH 64

typedef struct RsBvh2Node {
    RsFloat4 lo_left, hi_left, lo_right, hi_right;
} RsBvh2Node;

RS_STATIC_ASSERT(sizeof(RsBvh2Node) == 64, "RsBvh2Node is four 16-byte blocks");

typedef struct RsBvh2View {
    const RsBvh2Node* nodes;
    const RsPrim* prims; /* trace primitives (trace_hit.h), leaves are contiguous ranges */
    const RsCutouts* cutouts; /* alpha cut-outs, or NULL (cutout.h) */
    uint32_t node_count, prim_count;
} RsBvh2View;

/* Node n as a copy. The GPU reads its four blocks through the read-only data path
 * (ld.global.nc), as bvh8 does its nodes: nodes never change during a launch. */
RS_FN RsBvh2Node rs_bvh2_load_node(const RsBvh2Node* n)
{
#if RS_DEVICE_CODE
    const float4* f = (const float4*)n;
    float4 a = __ldg(f), b = __ldg(f + 1), c = __ldg(f + 2), d = __ldg(f + 3);
    RsBvh2Node r = {{a.x, a.y, a.z, a.w}, {b.x, b.y, b.z, b.w}, {c.x, c.y, c.z, c.w}, {d.x, d.y, d.z, d.w}};
    return r;
#else
    return *n;
#endif
}

/* Runs a leaf; returns 1 only when an any-hit query is answered. */
RS_FN int rs_bvh2_leaf(const RsBvh2View* s, uint32_t first, uint32_t count, RsVec3 o, RsVec3 d, uint32_t skip,
                       int any, RsHit* hit)
{
    for (uint32_t i = first; i < first + count; ++i)
        if (rs_hit_prim(&s->prims[i], o, d, skip, s->cutouts, hit) && any)
            return 1;
    return 0;
}

/* Shared loop; `any` selects shadow-ray semantics (stop at the first hit). */
RS_FN int rs_bvh2_traverse(const RsBvh2View* s, RsVec3 o, RsVec3 d, float tmax, uint32_t skip, int any,
                           RsHit* hit)
{
    rs_hit_init(hit, tmax);
    if (s->node_count == 0)
        return 0;
    RsVec3 inv_d = rs_safe_inverse(d);
    RsVec3 o_inv = rs_mul(o, inv_d);
    uint32_t stack[RS_BVH2_MAX_DEPTH];
    int sp = 0;
    uint32_t node = 0;
    for (;;) {
        RsBvh2Node n = rs_bvh2_load_node(&s->nodes[node]);
        RsFloat4 lo_l = n.lo_left, hi_l = n.hi_left, lo_r = n.lo_right, hi_r = n.hi_right;
        float t_l, t_r;
        int hit_l = rs_intersect_box(lo_l, hi_l, inv_d, o_inv, 0.0f, hit->t, &t_l);
        int hit_r = rs_intersect_box(lo_r, hi_r, inv_d, o_inv, 0.0f, hit->t, &t_r);
        uint32_t ref_l = rs_float_as_uint(lo_l.w), ref_r = rs_float_as_uint(hi_l.w);
        uint32_t count_l = rs_float_as_uint(lo_r.w), count_r = rs_float_as_uint(hi_r.w);
        if (hit_l && count_l != 0) {
            if (rs_bvh2_leaf(s, ref_l, count_l, o, d, skip, any, hit))
                return 1;
            hit_l = 0;
        }
        if (hit_r && count_r != 0) {
            if (rs_bvh2_leaf(s, ref_r, count_r, o, d, skip, any, hit))
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

RS_FN int rs_bvh2_closest(const RsBvh2View* s, RsVec3 o, RsVec3 d, float tmax, uint32_t skip, RsHit* hit)
{
    return rs_bvh2_traverse(s, o, d, tmax, skip, 0, hit);
}

RS_FN int rs_bvh2_any(const RsBvh2View* s, RsVec3 o, RsVec3 d, float tmax, uint32_t skip)
{
    RsHit hit;
    return rs_bvh2_traverse(s, o, d, tmax, skip, 1, &hit);
}

#endif /* RS_KERNEL_ACCEL_BVH2_H */
