/* dielectric.h - glass and water: smooth or GGX-rough reflection and refraction.
 *
 * Shared header (gcc C11, g++, nvcc). Local frame; the front (z > 0) is outside, ior is the
 * inside's index over the outside's. The colour tints transmission only (Mitsuba's
 * specular_transmittance). Radiance is scaled by 1/eta^2 on refraction (pbrt-v4,
 * TransportMode::Radiance), eta being the ratio across the boundary from the side wi is on to
 * the side wo is on, so a camera path through a closed glass object keeps its energy.
 *   smooth: reflection or refraction chosen with the exact Fresnel term F: both are delta lobes
 *           with weight 1 and colour / eta^2.
 *   rough:  Walter et al. 2007, "Microfacet Models for Refraction through Rough Surfaces", with
 *           the generalised half vector m = normalize(wo + eta' wi) and the Jacobian
 *           |wi.m| / (wi.m + wo.m / eta')^2 of the refracted direction; m is sampled from the
 *           normals visible to wo and reflection is chosen with probability F(wo.m). The
 *           arrangement follows pbrt-v4's DielectricBxDF.
 */
#ifndef RS_KERNEL_BSDF_DIELECTRIC_H
#define RS_KERNEL_BSDF_DIELECTRIC_H

#include "kernel/bsdf/fresnel.h"
#include "kernel/bsdf/lobe.h"

/* 1 if the dielectric has only delta lobes: smooth, or of index 1 (pbrt-v4's rule), where a
 * refraction goes straight on and the generalised half vector wo + wi is 0 for every pair, so
 * the rough lobe's density would be a delta: sampling it divided by zero. */
RS_FN int rs_dielectric_is_smooth(const RsMaterial* m)
{
    return rs_ggx_is_smooth(rs_material_ggx(m)) || rs_material_ior(m) == 1.0f;
}

/* Below this, the refraction Jacobian's denominator (wi.m + wo.m / eta')^2 is treated as 0:
 * wo and wi are so nearly opposite (an index close to 1) that 1 / denominator would overflow
 * the density and the value to infinity; such a pair scatters nothing, as a degenerate half
 * vector does. */
#define RS_DIELECTRIC_MIN_DENOM 1e-20f

/* Refracts w (away from the surface, on the side of n or not) through a boundary with normal n
 * and relative index eta = eta(back of n) / eta(front of n). Returns 0 under total internal
 * reflection; *eta_rel is the ratio for the side w is on (eta or 1/eta). */
RS_FN int rs_refract(RsVec3 w, RsVec3 n, float eta, float* eta_rel, RsVec3* out)
{
    float cos_i = rs_dot(n, w);
    if (cos_i < 0.0f) {
        eta = 1.0f / eta;
        cos_i = -cos_i;
        n = rs_neg(n);
    }
    float sin2_t = rs_maxf(0.0f, 1.0f - cos_i * cos_i) / (eta * eta);
    if (sin2_t >= 1.0f)
        return 0;
    float cos_t = sqrtf(1.0f - sin2_t);
    *out = rs_add(rs_scale(w, -1.0f / eta), rs_scale(n, cos_i / eta - cos_t));
    *eta_rel = eta;
    return 1;
}

/* The microfacet normal shared by wo and wi, facing +z, and eta' (1 for a reflection). Returns
 * 0 for a degenerate pair or when either direction sees the back of that microfacet. */
RS_FN int rs_dielectric_half_vector(RsVec3 wo, RsVec3 wi, float ior, RsVec3* wm, float* eta_rel)
{
    int reflect = wo.z * wi.z > 0.0f;
    *eta_rel = reflect ? 1.0f : (wo.z > 0.0f ? ior : 1.0f / ior);
    RsVec3 h = rs_add(rs_scale(wi, *eta_rel), wo);
    float len2 = rs_dot(h, h);
    if (wo.z == 0.0f || wi.z == 0.0f || len2 == 0.0f)
        return 0;
    h = rs_scale(h, 1.0f / sqrtf(len2));
    if (h.z < 0.0f)
        h = rs_neg(h);
    if (rs_dot(h, wi) * wi.z < 0.0f || rs_dot(h, wo) * wo.z < 0.0f)
        return 0;
    *wm = h;
    return 1;
}

/* f * |cos_i| and the sampling density of wi (rough only; a smooth dielectric returns 0). */
RS_FN RsVec3 rs_dielectric_eval(const RsMaterial* m, RsVec3 wo, RsVec3 wi, float* pdf)
{
    *pdf = 0.0f;
    RsGgx g = rs_material_ggx(m);
    float ior = rs_material_ior(m);
    RsVec3 wm;
    float eta_rel;
    if (rs_dielectric_is_smooth(m) || !rs_dielectric_half_vector(wo, wi, ior, &wm, &eta_rel))
        return rs_vec3_splat(0.0f);
    float wo_m = rs_dot(wo, wm), wi_m = rs_dot(wi, wm);
    float fresnel = rs_fresnel_dielectric(wo_m, ior);
    float d = rs_ggx_d(g, wm), visible = rs_ggx_pdf_visible(g, wo, wm);
    if (wo.z * wi.z > 0.0f) { /* reflection */
        *pdf = visible / (4.0f * fabsf(wo_m)) * fresnel;
        return rs_vec3_splat(d * rs_ggx_g(g, wo, wi) * fresnel / (4.0f * fabsf(wo.z)));
    }
    float denom = wi_m + wo_m / eta_rel;
    denom *= denom;
    if (!(denom > RS_DIELECTRIC_MIN_DENOM))
        return rs_vec3_splat(0.0f);
    *pdf = visible * fabsf(wi_m) / denom * (1.0f - fresnel);
    float ft = d * (1.0f - fresnel) * rs_ggx_g(g, wo, wi) * fabsf(wi_m * wo_m / (wo.z * denom));
    return rs_scale(rs_material_albedo(m), ft / (eta_rel * eta_rel));
}

RS_FN int rs_dielectric_sample(const RsMaterial* m, RsVec3 wo, float u1, float u2, float u_lobe,
                               RsBsdfSample* s)
{
    RsGgx g = rs_material_ggx(m);
    float ior = rs_material_ior(m);
    if (rs_dielectric_is_smooth(m)) {
        RsVec3 n = rs_vec3(0.0f, 0.0f, 1.0f);
        float fresnel = rs_fresnel_dielectric(wo.z, ior);
        s->pdf = 0.0f;
        float eta_rel;
        if (u_lobe < fresnel || !rs_refract(wo, n, ior, &eta_rel, &s->wi)) {
            s->wi = rs_local_reflect(wo);
            s->weight = rs_vec3_splat(1.0f); /* F / P(reflect) = 1 */
            return 1;
        }
        s->weight = rs_scale(rs_material_albedo(m), 1.0f / (eta_rel * eta_rel)); /* (1-F)/P(refract) = 1 */
        s->eta2 = eta_rel * eta_rel;
        return !rs_is_black(s->weight);
    }
    if (wo.z == 0.0f)
        return 0;
    RsVec3 wm = rs_ggx_sample_visible(g, wo, u1, u2);
    float wo_m = rs_dot(wo, wm);
    float fresnel = rs_fresnel_dielectric(wo_m, ior);
    float visible = rs_ggx_pdf_visible(g, wo, wm);
    if (u_lobe < fresnel) {
        s->wi = rs_reflect_about(wo, wm);
        if (s->wi.z * wo.z <= 0.0f)
            return 0;
        s->pdf = visible / (4.0f * fabsf(wo_m)) * fresnel;
        /* f cos_i / pdf = D G F / (4 |cos_o|) / (G1 D |wo.m| / |cos_o| / (4 |wo.m|) F) = G / G1 */
        s->weight = rs_vec3_splat(rs_ggx_g_over_g1(g, wo, s->wi));
        return s->pdf > 0.0f;
    }
    float eta_rel;
    if (!rs_refract(wo, wm, ior, &eta_rel, &s->wi) || s->wi.z * wo.z >= 0.0f)
        return 0;
    float wi_m = rs_dot(s->wi, wm);
    float denom = wi_m + wo_m / eta_rel;
    denom *= denom;
    if (!(denom > RS_DIELECTRIC_MIN_DENOM))
        return 0;
    s->pdf = visible * fabsf(wi_m) / denom * (1.0f - fresnel);
    /* f cos_i / pdf: D, (1 - F), |wi.m| and the denominator cancel, leaving G / G1 */
    s->weight = rs_scale(rs_material_albedo(m), rs_ggx_g_over_g1(g, wo, s->wi) / (eta_rel * eta_rel));
    s->eta2 = eta_rel * eta_rel;
    return s->pdf > 0.0f && !rs_is_black(s->weight);
}

#endif /* RS_KERNEL_BSDF_DIELECTRIC_H */
