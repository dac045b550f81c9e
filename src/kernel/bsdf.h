/* bsdf.h - the scattering models: diffuse (Lambert), mirror, smooth dielectric.
 *
 * Shared header (gcc C11, g++, nvcc). Directions point away from the surface. `n` is the unit
 * geometric normal as stored (front side = triangle winding, outside of a sphere); each model
 * decides what the two sides mean for it:
 *   diffuse     reflects on whichever side the ray arrived (two-sided, as pbrt and Mitsuba do
 *               for their default diffuse), albedo = reflectance;
 *   mirror      perfect specular reflection on either side, colour = reflectance;
 *   dielectric  front = outside; reflection or refraction chosen with the exact Fresnel term,
 *               colour tints transmission only (Mitsuba's specular_transmittance), and radiance
 *               is scaled by 1/eta^2 on refraction (pbrt-v4, TransportMode::Radiance) so a
 *               camera path through a closed glass object keeps its energy.
 * `weight` is f * |cos| / pdf, what the path throughput is multiplied by. pdf 0 marks a delta
 * lobe, which next-event estimation and MIS must skip.
 */
#ifndef RS_KERNEL_BSDF_H
#define RS_KERNEL_BSDF_H

#include "sampling.h"
#include "scene_data.h"

typedef struct RsBsdfSample {
    RsVec3 wi;
    RsVec3 weight;
    float pdf; /* solid-angle density of wi; 0 for a delta lobe */
} RsBsdfSample;

RS_FN int rs_bsdf_is_delta(const RsMaterial* m) { return rs_material_type(m) != RS_MAT_DIFFUSE; }

/* Unpolarised Fresnel reflectance of a smooth dielectric boundary. cos_i >= 0 on the incident
 * side; eta = eta_transmitted / eta_incident. Returns 1 under total internal reflection. */
RS_FN float rs_fresnel_dielectric(float cos_i, float eta)
{
    float sin2_t = (1.0f - cos_i * cos_i) / (eta * eta);
    if (sin2_t >= 1.0f)
        return 1.0f;
    float cos_t = sqrtf(1.0f - sin2_t);
    float r_parallel = (eta * cos_i - cos_t) / (eta * cos_i + cos_t);
    float r_perpendicular = (cos_i - eta * cos_t) / (cos_i + eta * cos_t);
    return 0.5f * (r_parallel * r_parallel + r_perpendicular * r_perpendicular);
}

/* f * |cos(wi)| and the density with which rs_bsdf_sample would pick wi (non-delta lobes). */
RS_FN RsVec3 rs_bsdf_eval(const RsMaterial* m, RsVec3 n, RsVec3 wo, RsVec3 wi, float* pdf)
{
    *pdf = 0.0f;
    if (rs_material_type(m) != RS_MAT_DIFFUSE)
        return rs_vec3_splat(0.0f);
    float side = rs_dot(n, wo) >= 0.0f ? 1.0f : -1.0f;
    float cos_i = side * rs_dot(n, wi);
    if (cos_i <= 0.0f)
        return rs_vec3_splat(0.0f);
    *pdf = cos_i * RS_INV_PI;
    return rs_scale(rs_material_albedo(m), cos_i * RS_INV_PI);
}

/* Draws wi for wo. Returns 0 when the sample carries no energy (the path should end). */
RS_FN int rs_bsdf_sample(const RsMaterial* m, RsVec3 n, RsVec3 wo, float u1, float u2,
                         float u_lobe, RsBsdfSample* s)
{
    float cos_o = rs_dot(n, wo);
    RsVec3 facing = cos_o >= 0.0f ? n : rs_neg(n);
    uint32_t type = rs_material_type(m);
    if (type == RS_MAT_DIFFUSE) {
        RsVec3 t, b;
        rs_onb(facing, &t, &b);
        RsVec3 local = rs_sample_cosine_hemisphere(u1, u2);
        s->wi = rs_to_world(local, t, b, facing);
        s->pdf = local.z * RS_INV_PI;
        s->weight = rs_material_albedo(m); /* (albedo/pi) * cos / (cos/pi) */
        return local.z > 0.0f && !rs_is_black(s->weight);
    }
    s->pdf = 0.0f;
    if (type == RS_MAT_MIRROR) {
        s->wi = rs_reflect(wo, facing);
        s->weight = rs_material_albedo(m);
        return !rs_is_black(s->weight);
    }
    /* Dielectric. eta is the ratio across the boundary in the direction light goes to the eye:
     * from the side wi ends up on to the side wo is on. */
    float ior = rs_material_ior(m);
    float eta = cos_o >= 0.0f ? ior : 1.0f / ior;
    float cos_i = fabsf(cos_o);
    float fresnel = rs_fresnel_dielectric(cos_i, eta);
    if (u_lobe < fresnel) {
        s->wi = rs_reflect(wo, facing);
        s->weight = rs_vec3_splat(1.0f); /* F / P(reflect) = 1 */
        return 1;
    }
    float sin2_t = (1.0f - cos_i * cos_i) / (eta * eta);
    float cos_t = sqrtf(rs_maxf(0.0f, 1.0f - sin2_t));
    /* Snell: wi = -wo/eta + (cos_i/eta - cos_t) * facing, a unit vector on the far side. */
    s->wi = rs_normalize(rs_add(rs_scale(wo, -1.0f / eta), rs_scale(facing, cos_i / eta - cos_t)));
    s->weight = rs_scale(rs_material_albedo(m), 1.0f / (eta * eta)); /* (1-F)/P(refract) = 1 */
    return !rs_is_black(s->weight);
}

#endif /* RS_KERNEL_BSDF_H */
