/* plastic.h - a diffuse base under a smooth or GGX-rough dielectric coat.
 *
 * Shared header (gcc C11, g++, nvcc). Local frame, wo.z > 0 (two-sided, like diffuse). The
 * coat (index ior, uncoloured) reflects specularly; what it transmits reaches the base, whose
 * albedo is the colour R, scatters diffusely, and bounces between base and coat until it
 * leaves. Summing those bounces (the model of Weidlich & Wilkie 2007 and Mitsuba's plastic
 * with nonlinear = true):
 *   f_diffuse = (1 - F(cos_i)) (1 - F(cos_o)) R / (pi eta^2 (1 - R Fdr_in))
 * where Fdr_in is the coat's reflectance for diffuse light from inside. It satisfies
 * 1 - Fdr_in = (1 - Fdr_out) / eta^2, with Fdr_out the cosine-weighted average of F(cos)
 * outside; scene.c integrates Fdr_out numerically with the same Fresnel function, so a white
 * base under a smooth coat reflects exactly all the light (test_bsdf checks it).
 *   smooth coat: a delta lobe with weight F(cos_o) / P(specular), plus the diffuse term;
 *   rough coat:  f_specular = D G F(wo.m) / (4 cos_o cos_i) (the rough dielectric's reflection)
 *                plus the diffuse term with the smooth coat's transmittance, which neglects
 *                the light that the rough coat's own reflection loses to masking: a rough
 *                coat's albedo stays a little below one.
 * The specular lobe is chosen with probability F(cos_o) / (F(cos_o) + (1 - F(cos_o)) A), A the
 * largest channel of the diffuse term's albedo R / (1 - R Fdr_in) (1 - Fdr_out) / eta^2.
 */
#ifndef RS_KERNEL_BSDF_PLASTIC_H
#define RS_KERNEL_BSDF_PLASTIC_H

#include "kernel/bsdf/fresnel.h"
#include "kernel/bsdf/lobe.h"

/* Fdr_in and Fdr_out, which scene.c stores in c.x and c.y */
RS_FN float rs_plastic_fdr_inside(const RsMaterial* m) { return m->c.x; }
RS_FN float rs_plastic_fdr_outside(const RsMaterial* m) { return m->c.y; }

/* The diffuse term's radiance factor R / (pi eta^2 (1 - R Fdr_in)), per channel. */
RS_FN RsVec3 rs_plastic_base(const RsMaterial* m)
{
    RsVec3 r = rs_material_albedo(m);
    float fdr = rs_plastic_fdr_inside(m), ior = rs_material_ior(m);
    float s = RS_INV_PI / (ior * ior);
    return rs_vec3(s * r.x / (1.0f - r.x * fdr), s * r.y / (1.0f - r.y * fdr), s * r.z / (1.0f - r.z * fdr));
}

RS_FN float rs_plastic_specular_probability(const RsMaterial* m, float fresnel_o)
{
    /* albedo of the diffuse term at normal incidence, up to (1 - F(cos_o)): pi * base * (1 - Fdr_out) */
    float diffuse = rs_max_component(rs_plastic_base(m)) * RS_PI * (1.0f - rs_plastic_fdr_outside(m)) *
                    (1.0f - fresnel_o);
    float total = fresnel_o + diffuse;
    return total > 0.0f ? fresnel_o / total : 0.0f;
}

/* f * cos_i and the density of wi (the diffuse term, and the rough coat's reflection), for a wo
 * whose F(cos_o) and specular probability the caller has already: sampling needs both before it
 * has wi. */
RS_FN RsVec3 rs_plastic_eval_at(const RsMaterial* m, RsVec3 wo, RsVec3 wi, float fresnel_o, float p_specular,
                                float* pdf)
{
    *pdf = 0.0f;
    if (wo.z <= 0.0f || wi.z <= 0.0f)
        return rs_vec3_splat(0.0f);
    float ior = rs_material_ior(m);
    float fresnel_i = rs_fresnel_dielectric(wi.z, ior);
    RsVec3 f = rs_scale(rs_plastic_base(m), (1.0f - fresnel_i) * (1.0f - fresnel_o) * wi.z);
    *pdf = (1.0f - p_specular) * wi.z * RS_INV_PI;
    RsGgx g = rs_material_ggx(m);
    if (!rs_ggx_is_smooth(g)) {
        RsVec3 wm = rs_half_vector(wo, wi);
        float wo_m = rs_dot(wo, wm);
        if (wo_m > 0.0f) {
            float spec = rs_ggx_d(g, wm) * rs_ggx_g(g, wo, wi) * rs_fresnel_dielectric(wo_m, ior) / (4.0f * wo.z);
            f = rs_add(f, rs_vec3_splat(spec));
            *pdf += p_specular * rs_ggx_pdf_visible(g, wo, wm) / (4.0f * wo_m);
        }
    }
    return f;
}

/* f * cos_i and the density of wi. */
RS_FN RsVec3 rs_plastic_eval(const RsMaterial* m, RsVec3 wo, RsVec3 wi, float* pdf)
{
    float fresnel_o = rs_fresnel_dielectric(wo.z, rs_material_ior(m));
    return rs_plastic_eval_at(m, wo, wi, fresnel_o, rs_plastic_specular_probability(m, fresnel_o), pdf);
}

RS_FN int rs_plastic_sample(const RsMaterial* m, RsVec3 wo, float u1, float u2, float u_lobe, RsBsdfSample* s)
{
    if (wo.z <= 0.0f)
        return 0;
    float fresnel_o = rs_fresnel_dielectric(wo.z, rs_material_ior(m));
    float p_specular = rs_plastic_specular_probability(m, fresnel_o);
    RsGgx g = rs_material_ggx(m);
    if (u_lobe < p_specular) {
        if (rs_ggx_is_smooth(g)) {
            s->wi = rs_local_reflect(wo);
            s->pdf = 0.0f;
            s->weight = rs_vec3_splat(fresnel_o / p_specular);
            return 1;
        }
        s->wi = rs_reflect_about(wo, rs_ggx_sample_visible(g, wo, u1, u2));
    } else {
        s->wi = rs_sample_cosine_hemisphere(u1, u2);
    }
    if (s->wi.z <= 0.0f)
        return 0;
    RsVec3 f = rs_plastic_eval_at(m, wo, s->wi, fresnel_o, p_specular, &s->pdf);
    if (!(s->pdf > 0.0f))
        return 0;
    s->weight = rs_scale(f, 1.0f / s->pdf);
    return !rs_is_black(s->weight);
}

#endif /* RS_KERNEL_BSDF_PLASTIC_H */
