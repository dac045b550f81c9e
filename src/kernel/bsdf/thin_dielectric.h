/* thin_dielectric.h - a thin pane of glass (Mitsuba 3's thindielectric): two parallel smooth
 * boundaries so close together that light leaves where it entered, reflected or going straight
 * on, never bent.
 *
 * Shared header (gcc C11, g++, nvcc). Local frame; both faces alike (bsdf.h mirrors the frame
 * for a ray arriving from the back). With R the Fresnel reflectance of one boundary at the
 * incident angle (index ior) and T = 1 - R, light bouncing between the two boundaries any
 * number of times sums to the geometric series
 *     R' = R + T^2 R (1 + R^2 + R^4 + ...) = R + T^2 R / (1 - R^2) = 2 R / (1 + R)
 *     T' = 1 - R'
 * (the second boundary's reflectance inside equals the first's outside, by Stokes' relations,
 * and its transmitted angle equals the incident one, so no radiance scaling: eta^2 = 1). Both
 * lobes are deltas: the mirror direction with weight 1 (reflected light is not tinted), and
 * wi = -wo with weight colour (the transmission tint, Mitsuba's specular_transmittance), each
 * chosen with its own probability R' or T'. A white pane keeps all energy: R' + T' = 1.
 */
#ifndef RS_KERNEL_BSDF_THIN_DIELECTRIC_H
#define RS_KERNEL_BSDF_THIN_DIELECTRIC_H

#include "kernel/bsdf/fresnel.h"
#include "kernel/bsdf/lobe.h"

/* R' for light arriving at |cos_i| to a pane of index ior. */
RS_FN float rs_thin_dielectric_reflectance(float cos_i, float ior)
{
    float r = rs_fresnel_dielectric(fabsf(cos_i), ior);
    return r < 1.0f ? 2.0f * r / (1.0f + r) : 1.0f;
}

RS_FN int rs_thin_dielectric_sample(const RsMaterial* m, RsVec3 wo, float u_lobe, RsBsdfSample* s)
{
    float reflectance = rs_thin_dielectric_reflectance(wo.z, rs_material_ior(m));
    s->pdf = 0.0f;
    if (u_lobe < reflectance) {
        s->wi = rs_local_reflect(wo);
        s->weight = rs_vec3_splat(1.0f); /* R' / P(reflect) */
        return wo.z != 0.0f;
    }
    s->wi = rs_neg(wo);
    s->weight = rs_material_albedo(m); /* colour T' / P(transmit) */
    return wo.z != 0.0f && !rs_is_black(s->weight);
}

#endif /* RS_KERNEL_BSDF_THIN_DIELECTRIC_H */
