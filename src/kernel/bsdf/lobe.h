/* lobe.h - what every scattering model shares: the sample record and the local frame.
 *
 * Shared header (gcc C11, g++, nvcc). Models (bsdf_*.h) work in a local frame whose z axis is
 * the surface normal; bsdf.h moves directions in and out of it. All directions point away from
 * the surface.
 */
#ifndef RS_KERNEL_BSDF_LOBE_H
#define RS_KERNEL_BSDF_LOBE_H

#include "kernel/bsdf/microfacet.h"
#include "kernel/scene/scene_data.h"

typedef struct RsBsdfSample {
    RsVec3 wi;
    RsVec3 weight; /* f * |cos(wi)| / pdf: what the path throughput is multiplied by */
    float pdf;     /* solid-angle density of wi; 0 for a delta lobe */
    float eta2;    /* the square of the relative index a refraction crossed (1 otherwise): weight
                      carries radiance's 1/eta^2, which Russian roulette undoes (stage_shade.h) */
} RsBsdfSample;

RS_FN RsGgx rs_material_ggx(const RsMaterial* m) { return rs_ggx(rs_material_alpha_x(m), rs_material_alpha_y(m)); }

/* Mirror image of w about the local normal (0, 0, 1). */
RS_FN RsVec3 rs_local_reflect(RsVec3 w) { return rs_vec3(-w.x, -w.y, w.z); }

/* Mirror image of w about the unit vector m. */
RS_FN RsVec3 rs_reflect_about(RsVec3 w, RsVec3 m) { return rs_sub(rs_scale(m, 2.0f * rs_dot(w, m)), w); }

/* The half vector of a reflection, or 0 when wo and wi cancel. */
RS_FN RsVec3 rs_half_vector(RsVec3 wo, RsVec3 wi)
{
    RsVec3 h = rs_add(wo, wi);
    float len2 = rs_dot(h, h);
    return len2 > 0.0f ? rs_scale(h, 1.0f / sqrtf(len2)) : rs_vec3_splat(0.0f);
}

#endif /* RS_KERNEL_BSDF_LOBE_H */
