/* microfacet.h - the GGX (Trowbridge-Reitz) microfacet distribution, isotropic or anisotropic,
 * with visible-normal sampling.
 *
 * Shared header (gcc C11, g++, nvcc). Everything is in the local shading frame: z is the
 * surface normal, x the direction whose roughness is alpha_x. Directions point away from the
 * surface and may lie on either side (transmission).
 *
 *   D(m)     = 1 / (pi ax ay (mx^2/ax^2 + my^2/ay^2 + mz^2)^2)   for mz > 0
 *   Lambda(w) = (sqrt(1 + (ax^2 wx^2 + ay^2 wy^2) / wz^2) - 1) / 2  (Smith, GGX)
 *   G1(w) = 1 / (1 + Lambda(w)),  G(wo, wi) = 1 / (1 + Lambda(wo) + Lambda(wi))
 *            (height-correlated masking-shadowing: Heitz 2014, "Understanding the
 *            Masking-Shadowing Function in Microfacet-Based BRDFs")
 *   D_wo(m)  = G1(wo) max(0, wo.m) D(m) / |wo.z|: the density of normals that wo sees, which is
 *            what rs_ggx_sample_visible draws from (Heitz 2018, "Sampling the GGX Distribution
 *            of Visible Normals", JCGT 7(4)): stretch wo to the unit-roughness configuration,
 *            sample the projected half disk, unstretch.
 * The projected areas of the visible microfacets sum to the macro surface's (the "weak white
 * furnace"): the integral of G1(wo) D(m) / (4 |wo.z|) over the sphere of reflected directions
 * is 1 for every wo and roughness; test_bsdf checks it.
 */
#ifndef RS_KERNEL_MICROFACET_H
#define RS_KERNEL_MICROFACET_H

#include "kernel/sampling/warp.h"

typedef struct RsGgx {
    float ax, ay; /* alpha along x and y of the local frame; scene.c stores roughness^2 */
} RsGgx;

/* Below this alpha the distribution is treated as a perfect specular (delta) lobe: its peak
 * would be too narrow for float sampling, and the delta path is exact and cheaper. */
#define RS_GGX_SMOOTH_ALPHA 1e-3f

/* The smallest alpha of either direction of a rough lobe. A lobe is smooth only when both
 * alphas are below RS_GGX_SMOOTH_ALPHA; an anisotropic one with roughness_u 0 and roughness_v
 * 0.5 is rough, and D, Lambda and the sampling stretch divide by alpha_x. Raising the small
 * one to this floor (pbrt-v4's TrowbridgeReitzDistribution does the same) keeps D below
 * 1 / (pi 1e-4 1e-3) ~ 3e6 and every term finite; it changes only alphas below 1e-4, i.e.
 * roughness below 0.01, of lobes that are rough in the other direction. NaN (from a broken
 * roughness texture) becomes the floor too. */
#define RS_GGX_MIN_ALPHA 1e-4f

RS_FN RsGgx rs_ggx(float ax, float ay)
{
    RsGgx g;
    g.ax = ax >= RS_GGX_MIN_ALPHA ? ax : RS_GGX_MIN_ALPHA;
    g.ay = ay >= RS_GGX_MIN_ALPHA ? ay : RS_GGX_MIN_ALPHA;
    return g;
}

RS_FN int rs_ggx_is_smooth(RsGgx g) { return rs_maxf(g.ax, g.ay) < RS_GGX_SMOOTH_ALPHA; }

RS_FN float rs_ggx_d(RsGgx g, RsVec3 m)
{
    if (m.z <= 0.0f)
        return 0.0f;
    float x = m.x / g.ax, y = m.y / g.ay;
    float s = x * x + y * y + m.z * m.z;
    return 1.0f / (RS_PI * g.ax * g.ay * s * s);
}

RS_FN float rs_ggx_lambda(RsGgx g, RsVec3 w)
{
    float z2 = w.z * w.z;
    if (z2 == 0.0f)
        return RS_INFINITY;
    float a2_tan2 = (g.ax * g.ax * w.x * w.x + g.ay * g.ay * w.y * w.y) / z2;
    return 0.5f * (sqrtf(1.0f + a2_tan2) - 1.0f);
}

RS_FN float rs_ggx_g1(RsGgx g, RsVec3 w) { return 1.0f / (1.0f + rs_ggx_lambda(g, w)); }

RS_FN float rs_ggx_g(RsGgx g, RsVec3 wo, RsVec3 wi)
{
    return 1.0f / (1.0f + rs_ggx_lambda(g, wo) + rs_ggx_lambda(g, wi));
}

/* G(wo, wi) / G1(wo), the weight of a sample drawn from wo's visible normals: 0 where wo is so
 * grazing that G1(wo) is 0 (G / G1 would be 0 / 0). */
RS_FN float rs_ggx_g_over_g1(RsGgx g, RsVec3 wo, RsVec3 wi)
{
    float g1 = rs_ggx_g1(g, wo);
    return g1 > 0.0f ? rs_ggx_g(g, wo, wi) / g1 : 0.0f;
}

/* Density of visible normal m seen from w (per unit solid angle of m). */
RS_FN float rs_ggx_pdf_visible(RsGgx g, RsVec3 w, RsVec3 m)
{
    float cos_w = fabsf(w.z);
    float w_dot_m = rs_dot(w, m);
    if (cos_w == 0.0f || w_dot_m * w.z <= 0.0f)
        return 0.0f;
    return rs_ggx_g1(g, w) * fabsf(w_dot_m) * rs_ggx_d(g, m) / cos_w;
}

/* A normal drawn from D_w (visible from w; w on either side, as seen from the side it is on). */
RS_FN RsVec3 rs_ggx_sample_visible(RsGgx g, RsVec3 w, float u1, float u2)
{
    /* stretch to the hemisphere configuration (alpha = 1), on the upper side */
    RsVec3 wh = rs_normalize(rs_vec3(g.ax * w.x, g.ay * w.y, w.z));
    if (wh.z < 0.0f)
        wh = rs_neg(wh);
    /* an orthonormal basis around wh, with t1 horizontal */
    RsVec3 t1 = wh.z < 0.99999f ? rs_normalize(rs_cross(rs_vec3(0.0f, 0.0f, 1.0f), wh)) : rs_vec3(1.0f, 0.0f, 0.0f);
    RsVec3 t2 = rs_cross(wh, t1);
    /* a point of the unit disk, its far half squeezed to the part of the disk that the
     * hemisphere's projection along wh covers */
    float px, py;
    rs_sample_disk(u1, u2, &px, &py);
    float h = sqrtf(rs_maxf(0.0f, 1.0f - px * px));
    float s = 0.5f * (1.0f + wh.z);
    py = (1.0f - s) * h + s * py;
    float pz = sqrtf(rs_maxf(0.0f, 1.0f - px * px - py * py));
    RsVec3 nh = rs_add(rs_add(rs_scale(t1, px), rs_scale(t2, py)), rs_scale(wh, pz));
    /* unstretch: normals transform with the inverse transpose */
    return rs_normalize(rs_vec3(g.ax * nh.x, g.ay * nh.y, rs_maxf(1e-6f, nh.z)));
}

#endif /* RS_KERNEL_MICROFACET_H */
