/* light_tree.h - RS_LIGHT_SELECT_TREE: picking a light by walking a BVH over the emitters
 * (Conty Estevez & Kulla 2018, "Importance Sampling of Many Lights with Adaptive Tree
 * Splitting"; the same idea as pbrt-v4's BVHLightSampler and Cycles' light tree), and the exact
 * probability of each pick.
 *
 * Shared header (gcc C11, g++, nvcc), read through light_select.h. The host builds the arrays
 * (src/host/scene/light_tree.c); docs/architecture.md, section 10.2, describes the method.
 *
 * Nodes are four RsFloat4 each, in depth-first order, so a node's first child is the next node:
 *   [0] = box lo .xyz | power (luminance of the emitted power of every light below)
 *   [1] = box hi .xyz | cos theta_o (the cone around the axis that holds every emitter's normal)
 *   [2] = axis .xyz   | cos theta_e (how far past theta_o light still leaves)
 *   [3] = x: bits, a leaf: RS_LIGHT_TREE_LEAF | its entry in the light table; otherwise the
 *            index of the second child
 *         y: bits, RS_LIGHT_TREE_TWO_SIDED when some emitter below emits from both faces (the
 *            cone then bounds the axis up to sign)
 *         z: sin theta_o; w: unused
 * A trail per light (uint64) says how to reach its leaf: bit d is the choice at depth d (1: the
 * second child), above the last bit a single 1 marks the depth; 0 for a light not in the tree
 * (the environment, a light of no power). The environment is picked beside the tree with the
 * fixed probability env_prob (its share of the scene's power). With directional lights, the
 * lights at infinity (the table's entries from infinite_first on: directional lights and the
 * environment) share env_prob, the share of their summed power, and one of them is drawn by
 * its power through the selection view's cdf and pmf (light_select.h); a directional light
 * reaches every point alike, so no bound of the tree would tell them apart.
 *
 * The walk draws one child per level with probability proportional to its importance at the
 * shading point: power * cos(theta') / d^2 (pbrt-v4's LightBounds::Importance without the
 * receiver's cosine, which light_select.h's rule forbids: only ctx.p may be used). d is the
 * distance to the box's centre, clamped to the radius of the box's bounding sphere; theta' is
 * the angle between the node's cone and the direction from the box to the point, less the angle
 * the box subtends (from inside the bounding sphere every direction counts). It is continuous in
 * p but for jumps at that sphere and at theta_o + theta_e, where NEE's point and the ray origin
 * (a few ulps apart, light_select.h) could fall on two sides: a set of measure zero. Two
 * children of zero (or undefined) importance fall back to their power. Each multiply-add is
 * rounded on its own (rs_mul_rn): the result decides which light is picked, and nvcc may fuse
 * differently in two kernels, which would break the bit-identity of the dead-ray strategies
 * (compat.h).
 */
#ifndef RS_KERNEL_LIGHT_TREE_H
#define RS_KERNEL_LIGHT_TREE_H

#include "kernel/scene/scene_view.h"

#define RS_LIGHT_TREE_LEAF 0x80000000u
#define RS_LIGHT_TREE_TWO_SIDED 1u
#define RS_LIGHT_TREE_MAX_DEPTH 63 /* a trail's bits and its end marker fit 64 bits */
/* Squared distances below this count as this: a point at a point light gets a huge but finite
 * importance. Shares are at most 1, so an importance stays below 1e30 and two of them sum. */
#define RS_LIGHT_TREE_MIN_DIST2 1e-30f

/* The largest float below 1: where the walk's rescaled random number is kept. */
#define RS_LIGHT_TREE_ONE_MINUS 0.99999994f

RS_FN float rs_light_tree_dot(RsVec3 a, RsVec3 b)
{
    return rs_add_rn(rs_add_rn(rs_mul_rn(a.x, b.x), rs_mul_rn(a.y, b.y)), rs_mul_rn(a.z, b.z));
}

/* share * cos(theta') / d^2 for node `n` at p; 0 where no emitter below can send light to p. */
RS_FN float rs_light_tree_importance(const RsFloat4* n, RsVec3 p, float share)
{
    RsFloat4 lo = n[0], hi = n[1], axis = n[2], extra = n[3];
    RsVec3 half = rs_vec3(rs_mul_rn(rs_sub_rn(hi.x, lo.x), 0.5f), rs_mul_rn(rs_sub_rn(hi.y, lo.y), 0.5f),
                          rs_mul_rn(rs_sub_rn(hi.z, lo.z), 0.5f));
    RsVec3 v = rs_vec3(rs_sub_rn(p.x, rs_add_rn(lo.x, half.x)), rs_sub_rn(p.y, rs_add_rn(lo.y, half.y)),
                       rs_sub_rn(p.z, rs_add_rn(lo.z, half.z)));
    float r2 = rs_light_tree_dot(half, half);
    float d2 = rs_light_tree_dot(v, v);
    float cos_p = 1.0f; /* theta' = 0 until shown otherwise */
    if (d2 > r2) {
        float cos_w = rs_light_tree_dot(rs_xyz(axis), v) / sqrtf(d2);
        if (rs_float_as_uint(extra.y) & RS_LIGHT_TREE_TWO_SIDED)
            cos_w = fabsf(cos_w);
        cos_w = rs_clampf(cos_w, -1.0f, 1.0f);
        float cos_o = hi.w, sin_o = extra.z;
        if (cos_w < cos_o) { /* the point lies outside the emitters' cone: theta_x = theta_w - theta_o */
            float sin_w = sqrtf(rs_maxf(0.0f, rs_sub_rn(1.0f, rs_mul_rn(cos_w, cos_w))));
            float cos_x = rs_add_rn(rs_mul_rn(cos_w, cos_o), rs_mul_rn(sin_w, sin_o));
            float sin_x = rs_maxf(0.0f, rs_sub_rn(rs_mul_rn(sin_w, cos_o), rs_mul_rn(cos_w, sin_o)));
            float sin2_b = r2 / d2; /* the box's bounding sphere subtends theta_b */
            float cos_b = sqrtf(rs_sub_rn(1.0f, sin2_b)), sin_b = sqrtf(sin2_b);
            if (cos_x < cos_b)
                cos_p = rs_add_rn(rs_mul_rn(cos_x, cos_b), rs_mul_rn(sin_x, sin_b));
        }
    }
    if (!(cos_p > axis.w)) /* beyond theta_o + theta_e, or NaN: nothing arrives */
        return 0.0f;
    return rs_mul_rn(share, cos_p) / rs_maxf(rs_maxf(d2, r2), RS_LIGHT_TREE_MIN_DIST2);
}

/* The probabilities of taking interior node `node`'s first and second child at p (*second_prob);
 * *second gets the second child's index. Each is its own quotient, not 1 minus the other, so a
 * child of tiny importance beside a huge one keeps a probability above 0. Never NaN. */
RS_FN float rs_light_tree_child_probs(const RsFloat4* nodes, uint32_t node, RsVec3 p, uint32_t* second,
                                      float* second_prob)
{
    uint32_t right = rs_float_as_uint(nodes[4 * (size_t)node + 3].x);
    const RsFloat4* a = nodes + 4 * ((size_t)node + 1);
    const RsFloat4* b = nodes + 4 * (size_t)right;
    *second = right;
    float power_a = a[0].w, power_b = b[0].w; /* positive and at most 1e30 (the builder's) */
    float total = rs_add_rn(power_a, power_b);
    float share_a = power_a / total, share_b = power_b / total;
    float ia = rs_light_tree_importance(a, p, share_a);
    float ib = rs_light_tree_importance(b, p, share_b);
    float sum = rs_add_rn(ia, ib);
    if (!(sum > 0.0f)) { /* nothing below either child reaches p, or p is NaN: by power */
        *second_prob = share_b;
        return share_a;
    }
    *second_prob = ib / sum;
    return ia / sum;
}

/* The light at infinity that u in [0, 1) picks by power, when there are directional lights:
 * the first of the group whose cumulative share exceeds u. */
RS_FN uint32_t rs_light_tree_infinite(const RsSceneView* s, float u)
{
    const float* cdf = s->light_select.cdf;
    uint32_t lo = s->infinite_first, hi = s->light_count - 1;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (u < cdf[mid])
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* RS_LIGHT_SELECT_TREE's rs_light_select_sample. Returns 0 with *pmf = 0 only when no light has
 * any power (the table never holds such a scene). */
RS_FN uint32_t rs_light_tree_sample(const RsSceneView* s, RsVec3 p, float u, float* pmf)
{
    const RsLightSelectView* sel = &s->light_select;
    float env = sel->env_prob;
    if (env > 0.0f) {
        if (u < env) {
            if (sel->cdf) { /* directional lights beside the environment */
                uint32_t light = rs_light_tree_infinite(s, rs_minf(u / env, RS_LIGHT_TREE_ONE_MINUS));
                *pmf = sel->pmf[light];
                return light;
            }
            *pmf = env;
            return s->env_light;
        }
        u = rs_minf((u - env) / (1.0f - env), RS_LIGHT_TREE_ONE_MINUS);
    }
    float prob = 1.0f - env;
    if (sel->node_count == 0) {
        *pmf = 0.0f;
        return 0;
    }
    uint32_t node = 0;
    for (;;) {
        uint32_t bits = rs_float_as_uint(sel->nodes[4 * (size_t)node + 3].x);
        if (bits & RS_LIGHT_TREE_LEAF) {
            *pmf = prob;
            return bits & ~RS_LIGHT_TREE_LEAF;
        }
        uint32_t second;
        float other;
        float first = rs_light_tree_child_probs(sel->nodes, node, p, &second, &other);
        if (u < first) {
            prob *= first;
            u = rs_minf(u / first, RS_LIGHT_TREE_ONE_MINUS);
            node = node + 1;
        } else {
            prob *= other;
            u = rs_minf(rs_maxf(u - first, 0.0f) / other, RS_LIGHT_TREE_ONE_MINUS);
            node = second;
        }
    }
}

/* RS_LIGHT_SELECT_TREE's rs_light_select_pmf: the walk of rs_light_tree_sample along the light's
 * trail, the same products in the same order, so the two agree to the bit. */
RS_FN float rs_light_tree_pmf(const RsSceneView* s, RsVec3 p, uint32_t light)
{
    const RsLightSelectView* sel = &s->light_select;
    float env = sel->env_prob;
    if (sel->cdf && light >= s->infinite_first)
        return sel->pmf[light];
    if (light == s->env_light)
        return env;
    uint64_t trail = sel->trails[light];
    if (trail == 0)
        return 0.0f;
    float prob = 1.0f - env;
    uint32_t node = 0;
    for (; trail > 1; trail >>= 1) {
        uint32_t second;
        float other;
        float first = rs_light_tree_child_probs(sel->nodes, node, p, &second, &other);
        if (trail & 1) {
            prob *= other;
            node = second;
        } else {
            prob *= first;
            node = node + 1;
        }
    }
    return prob;
}

#endif /* RS_KERNEL_LIGHT_TREE_H */
