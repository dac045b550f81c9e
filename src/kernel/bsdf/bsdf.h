/* bsdf.h - the scattering models behind one sample/eval pair, in world space.
 *
 * Shared header (gcc C11, g++, nvcc). Directions point away from the surface. `ng` is the unit
 * geometric normal as stored (front side = triangle winding, outside of a sphere), `ns` the
 * shading normal (surface.h: interpolated vertex normals on ng's side; ng itself where there
 * are none). Each model lives in its own header and works in a local frame around ns (z = ns,
 * x = the tangent of rs_onb, which is the direction of alpha_x for anisotropic roughness):
 *   diffuse     Lambert, albedo = colour
 *   mirror      perfect specular reflection, reflectance = colour (no Fresnel term)
 *   conductor   kernel/bsdf/conductor.h: smooth or GGX-rough metal with a complex index
 *   dielectric  kernel/bsdf/dielectric.h: smooth or GGX-rough glass; front = outside
 *   plastic     kernel/bsdf/plastic.h: a diffuse base under a smooth or rough dielectric coat
 *   thin dielectric  kernel/bsdf/thin_dielectric.h: a thin pane, reflection or straight on (deltas)
 * Every model but the dielectric reflects on whichever side the ray arrived (two-sided, as pbrt
 * and Mitsuba do for their defaults): the local frame is mirrored when wo is on the back.
 *
 * Shading normals bend the local frame away from the real surface, so a direction can be a
 * reflection for one normal and a transmission for the other. Such pairs scatter nothing (the
 * rule of pbrt-v3's BSDF::f and Veach's thesis, section 5.3): otherwise light would leak through
 * a surface, or a surface would be lit from behind.
 *
 * rs_bsdf_eval covers the non-delta lobes only; a delta lobe (a smooth mirror, coat or glass)
 * can only be sampled, and its samples have pdf 0, which next-event estimation and MIS skip.
 * A material may have both kinds (smooth plastic: a delta coat over a diffuse base).
 */
#ifndef RS_KERNEL_BSDF_H
#define RS_KERNEL_BSDF_H

#include "kernel/bsdf/conductor.h"
#include "kernel/bsdf/dielectric.h"
#include "kernel/bsdf/plastic.h"
#include "kernel/bsdf/thin_dielectric.h"

/* 1 if the material has a delta (perfectly specular) lobe: a path whose last vertex is here
 * must trace one more segment for emission (stage_shade.h). */
RS_FN int rs_bsdf_has_delta(const RsMaterial* m)
{
    switch (rs_material_type(m)) {
    case RS_MAT_DIFFUSE:
        return 0;
    case RS_MAT_MIRROR:
    case RS_MAT_THIN_DIELECTRIC:
        return 1;
    case RS_MAT_DIELECTRIC:
        return rs_dielectric_is_smooth(m);
    default:
        return rs_ggx_is_smooth(rs_material_ggx(m));
    }
}

/* 1 if the material has a lobe with a density (not a delta), which rs_bsdf_eval sees: next-event
 * estimation is worth a shadow ray here. */
RS_FN int rs_bsdf_has_density(const RsMaterial* m)
{
    uint32_t type = rs_material_type(m);
    if (type == RS_MAT_DIFFUSE || type == RS_MAT_PLASTIC)
        return 1;
    if (type == RS_MAT_MIRROR || type == RS_MAT_THIN_DIELECTRIC)
        return 0;
    if (type == RS_MAT_DIELECTRIC)
        return !rs_dielectric_is_smooth(m);
    return !rs_ggx_is_smooth(rs_material_ggx(m));
}

typedef struct RsLocalFrame {
    RsVec3 t, b, n;
    float flip; /* -1 when wo is on the back of a two-sided model: local z is then -n */
} RsLocalFrame;

RS_FN RsLocalFrame rs_local_frame(const RsMaterial* m, RsVec3 ng, RsVec3 ns, RsVec3 wo)
{
    RsLocalFrame f;
    rs_onb(ns, &f.t, &f.b);
    f.n = ns;
    f.flip = (rs_material_type(m) != RS_MAT_DIELECTRIC && rs_dot(ng, wo) < 0.0f) ? -1.0f : 1.0f;
    return f;
}

/* 1 if wo and wi are on the same side of both normals or on opposite sides of both (the local
 * z components lo.z, li.z are ns's view of it). */
RS_FN int rs_sides_agree(RsVec3 ng, RsVec3 wo, RsVec3 wi, RsVec3 lo, RsVec3 li)
{
    return (rs_dot(wo, ng) * rs_dot(wi, ng) > 0.0f) == (lo.z * li.z > 0.0f);
}

RS_FN RsVec3 rs_to_local(const RsLocalFrame* f, RsVec3 w)
{
    return rs_vec3(rs_dot(w, f->t), rs_dot(w, f->b), f->flip * rs_dot(w, f->n));
}

RS_FN RsVec3 rs_from_local(const RsLocalFrame* f, RsVec3 w)
{
    return rs_to_world(rs_vec3(w.x, w.y, f->flip * w.z), f->t, f->b, f->n);
}

/* f * |cos(wi)| and the density with which rs_bsdf_sample would pick wi (non-delta lobes). */
RS_FN RsVec3 rs_bsdf_eval(const RsMaterial* m, RsVec3 ng, RsVec3 ns, RsVec3 wo, RsVec3 wi, float* pdf)
{
    *pdf = 0.0f;
    RsLocalFrame frame = rs_local_frame(m, ng, ns, wo);
    RsVec3 lo = rs_to_local(&frame, wo), li = rs_to_local(&frame, wi);
    if (!rs_sides_agree(ng, wo, wi, lo, li))
        return rs_vec3_splat(0.0f);
    switch (rs_material_type(m)) {
    case RS_MAT_DIFFUSE:
        if (li.z <= 0.0f)
            return rs_vec3_splat(0.0f);
        *pdf = li.z * RS_INV_PI;
        return rs_scale(rs_material_albedo(m), li.z * RS_INV_PI);
    case RS_MAT_CONDUCTOR:
        return rs_conductor_eval(m, lo, li, pdf);
    case RS_MAT_DIELECTRIC:
        return rs_dielectric_eval(m, lo, li, pdf);
    case RS_MAT_PLASTIC:
        return rs_plastic_eval(m, lo, li, pdf);
    default:
        return rs_vec3_splat(0.0f);
    }
}

/* Draws wi for wo. Returns 0 when the sample carries no energy (the path should end). */
RS_FN int rs_bsdf_sample(const RsMaterial* m, RsVec3 ng, RsVec3 ns, RsVec3 wo, float u1, float u2, float u_lobe,
                         RsBsdfSample* s)
{
    RsLocalFrame frame = rs_local_frame(m, ng, ns, wo);
    RsVec3 lo = rs_to_local(&frame, wo);
    int ok;
    s->eta2 = 1.0f;
    switch (rs_material_type(m)) {
    case RS_MAT_DIFFUSE:
        s->wi = rs_sample_cosine_hemisphere(u1, u2);
        s->pdf = s->wi.z * RS_INV_PI;
        s->weight = rs_material_albedo(m); /* (albedo/pi) * cos / (cos/pi) */
        ok = s->wi.z > 0.0f && !rs_is_black(s->weight);
        break;
    case RS_MAT_MIRROR:
        s->wi = rs_local_reflect(lo);
        s->pdf = 0.0f;
        s->weight = rs_material_albedo(m);
        ok = !rs_is_black(s->weight);
        break;
    case RS_MAT_CONDUCTOR:
        ok = rs_conductor_sample(m, lo, u1, u2, s);
        break;
    case RS_MAT_DIELECTRIC:
        ok = rs_dielectric_sample(m, lo, u1, u2, u_lobe, s);
        break;
    case RS_MAT_PLASTIC:
        ok = rs_plastic_sample(m, lo, u1, u2, u_lobe, s);
        break;
    case RS_MAT_THIN_DIELECTRIC:
        ok = rs_thin_dielectric_sample(m, lo, u_lobe, s);
        break;
    default:
        ok = 0;
    }
    if (!ok)
        return 0;
    RsVec3 li = s->wi;
    s->wi = rs_normalize(rs_from_local(&frame, li));
    return rs_sides_agree(ng, wo, s->wi, lo, li);
}

#endif /* RS_KERNEL_BSDF_H */
