/* conductor.h - metals: smooth or GGX-rough reflection with the complex Fresnel term.
 *
 * Shared header (gcc C11, g++, nvcc). Local frame, wo.z > 0 (bsdf.h mirrors the frame for a ray
 * arriving on the back, so conductors reflect on both sides, as pbrt's and Mitsuba's do).
 *   smooth: a delta lobe, wi = reflect(wo), weight F(cos_o)
 *   rough:  f = D(m) F(wo.m) G(wo, wi) / (4 cos_o cos_i), m the half vector; sampled through the
 *           visible normals of wo (microfacet.h), pdf = D_wo(m) / (4 wo.m), so the sample weight
 *           f cos_i / pdf reduces to F G / G1(wo): near 1 unless masking bites (the single-
 *           scattering energy loss of rough metals, as in pbrt-v4 and Mitsuba 3).
 */
#ifndef RS_KERNEL_BSDF_CONDUCTOR_H
#define RS_KERNEL_BSDF_CONDUCTOR_H

#include "kernel/bsdf/fresnel.h"
#include "kernel/bsdf/lobe.h"

RS_FN RsVec3 rs_conductor_fresnel(const RsMaterial* m, float cos_i)
{
    return rs_fresnel_conductor(cos_i, rs_material_eta(m), rs_material_k(m));
}

/* f * cos_i and the sampling density of wi (rough lobe only; a smooth conductor returns 0). */
RS_FN RsVec3 rs_conductor_eval(const RsMaterial* m, RsVec3 wo, RsVec3 wi, float* pdf)
{
    *pdf = 0.0f;
    RsGgx g = rs_material_ggx(m);
    if (rs_ggx_is_smooth(g) || wo.z <= 0.0f || wi.z <= 0.0f)
        return rs_vec3_splat(0.0f);
    RsVec3 wm = rs_half_vector(wo, wi);
    float wo_m = rs_dot(wo, wm);
    if (wo_m <= 0.0f)
        return rs_vec3_splat(0.0f);
    *pdf = rs_ggx_pdf_visible(g, wo, wm) / (4.0f * wo_m);
    float dg = rs_ggx_d(g, wm) * rs_ggx_g(g, wo, wi) / (4.0f * wo.z);
    return rs_scale(rs_conductor_fresnel(m, wo_m), dg);
}

RS_FN int rs_conductor_sample(const RsMaterial* m, RsVec3 wo, float u1, float u2, RsBsdfSample* s)
{
    RsGgx g = rs_material_ggx(m);
    if (rs_ggx_is_smooth(g)) {
        s->wi = rs_local_reflect(wo);
        s->pdf = 0.0f;
        s->weight = rs_conductor_fresnel(m, wo.z);
        return !rs_is_black(s->weight);
    }
    RsVec3 wm = rs_ggx_sample_visible(g, wo, u1, u2);
    float wo_m = rs_dot(wo, wm);
    s->wi = rs_reflect_about(wo, wm);
    if (s->wi.z <= 0.0f || wo_m <= 0.0f)
        return 0;
    s->pdf = rs_ggx_pdf_visible(g, wo, wm) / (4.0f * wo_m);
    s->weight = rs_scale(rs_conductor_fresnel(m, wo_m), rs_ggx_g_over_g1(g, wo, s->wi));
    return s->pdf > 0.0f && !rs_is_black(s->weight);
}

#endif /* RS_KERNEL_BSDF_CONDUCTOR_H */
