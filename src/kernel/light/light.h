/* light.h - emitters: area lights (emissive primitives), point and spot lights, and the
 * environment.
 *
 * Shared header (gcc C11, g++, nvcc). Next-event estimation picks one light of the scene's light
 * table through light_select.h (which light, with what probability), then a point uniformly by
 * area on it (pdf 1/area), or for the environment a direction: in proportion to its image for
 * an environment map (env_map.h), uniformly (pdf 1/(4 pi)) for the constant colour and the sky
 * gradient. rs_light_pdf_* give the same densities, in solid angle, for a direction that BSDF
 * sampling found, which is what MIS needs; both sides ask light_select.h for the selection
 * probability, so they agree by construction. Point and spot lights are delta lights: one
 * direction, radiance I / d^2 (times the spot's falloff), found by NEE only, so their samples
 * are marked `delta` and take no MIS weight. A directional light is a delta light at infinity:
 * its irradiance E plays that radiance, along the one direction it comes from.
 * An emitting primitive of an object is a light in
 * every instance: one table entry per (instance, primitive), with the world-space area, whose
 * points are sampled on the instance's world-space copy of the primitive (rs_light_prim).
 */
#ifndef RS_KERNEL_LIGHT_H
#define RS_KERNEL_LIGHT_H

#include "kernel/geometry/surface.h"
#include "kernel/light/environment.h"
#include "kernel/light/light_select.h"
#include "kernel/sampling/warp.h"
#include "kernel/texture/coords.h"

typedef struct RsLightSample {
    RsVec3 dir;           /* unit, from the shading point towards the light */
    RsVec3 radiance;      /* emitted radiance arriving along -dir */
    float pdf;            /* solid-angle density, selection included */
    int at_infinity;      /* the environment: a direction, no point */
    int delta;            /* a point or spot light: no BSDF sample can find it, so no MIS */
    RsSurfacePoint point; /* the sampled point on an area light, with its error bound */
    float point_b1, point_b2; /* its barycentrics on a triangle (rs_light_emission_texture) */
    uint32_t instance;        /* the instance whose primitive it is, or RS_NO_HIT */
} RsLightSample;

/* The instance of light-table entry `light`, or RS_NO_HIT: world primitives, point lights and
 * the environment. The w lane holds the instance + 1, so that 0 (every entry of a scene without
 * instances) means none. An emitting primitive of an object has one entry per instance. */
RS_FN uint32_t rs_light_instance(RsFloat4 light) { return rs_float_as_uint(light.w) - 1u; }

/* Primitive `index` as the light code sees it: in world space (instance.h's copy for an
 * instance's primitive, whose light bits then name that instance's entry). */
RS_FN RsPrim rs_light_prim(const RsSceneView* s, uint32_t index, uint32_t instance)
{
    if (instance == RS_NO_HIT)
        return s->prims[index];
    return rs_instance_prim(&s->accel.inst.instances[instance], &s->prims[index]);
}

/* Radiance leaving an emitter of material m towards `towards` (unit), surface normal n. */
RS_FN RsVec3 rs_emitted(const RsMaterial* m, RsVec3 n, RsVec3 towards)
{
    if (!rs_material_two_sided(m) && rs_dot(n, towards) <= 0.0f)
        return rs_vec3_splat(0.0f);
    return rs_material_emission(m);
}

/* Solid-angle density with which NEE at ctx would have sampled `light_point` on prim p:
 * (P(select) / area) * dist^2 / |cos at the light|; 0 for a primitive that does not emit. */
RS_FN float rs_light_pdf_prim(const RsSceneView* s, RsLightContext ctx, const RsPrim* p, RsVec3 light_point,
                              RsVec3 light_normal)
{
    uint32_t light = rs_prim_light(p);
    if (light == RS_NO_LIGHT)
        return 0.0f;
    float factor = rs_light_select_pmf(s, ctx, light) / rs_light_area(s->lights[light]);
    RsVec3 to = rs_sub(light_point, ctx.p);
    float dist2 = rs_dot(to, to);
    float cos_l = fabsf(rs_dot(light_normal, to)) / sqrtf(dist2);
    return cos_l > 0.0f ? factor * dist2 / cos_l : 0.0f;
}

/* Solid-angle density with which NEE at ctx would have sampled direction `dir` of the
 * environment; 0 when the environment is no light. */
RS_FN float rs_light_pdf_env(const RsSceneView* s, RsLightContext ctx, RsVec3 dir)
{
    if (s->env_light == RS_NO_LIGHT)
        return 0.0f;
    float select = rs_light_select_pmf(s, ctx, s->env_light);
    if (rs_env_type(&s->env) == RS_ENV_MAP)
        return select * rs_env_map_pdf(&s->env_map, rs_env_map_from_world(&s->env, &s->env_map, dir));
    return select * RS_INV_4PI;
}

/* pbrt-v4's spot falloff: 1 inside the inner cone, 0 outside the cone, smoothstep between. */
RS_FN float rs_spot_falloff(const RsPointLight* l, RsVec3 from_light)
{
    float cos_theta = rs_dot(from_light, rs_xyz(l->c));
    float cos_end = l->b.w, cos_start = l->c.w;
    if (cos_theta >= cos_start)
        return 1.0f;
    if (cos_theta <= cos_end)
        return 0.0f;
    float t = (cos_theta - cos_end) / (cos_start - cos_end);
    return t * t * (3.0f - 2.0f * t);
}

/* ls->radiance scaled by the light's emission texture at the sampled point, if it has one. At
 * full resolution: a light sample has no pixel footprint, and the noise averages out. Kept out
 * of rs_light_sample on purpose: folding it in changed how nvcc contracted that function's
 * arithmetic into fused multiply-adds in the persistent kernels only, and images stopped being
 * bit-identical across dead-ray strategies (test_gpu_render caught it). */
RS_FN void rs_light_emission_texture(const RsSceneView* s, RsLightSample* ls)
{
    if (ls->at_infinity || ls->delta)
        return;
    RsPrim prim = rs_light_prim(s, ls->point.prim, ls->instance);
    const RsPrim* p = &prim;
    uint32_t texture = rs_material_emission_texture(&s->materials[rs_prim_material(p)]);
    if (texture == RS_NO_TEXTURE)
        return;
    RsTexturePoint t = rs_texture_point(s, p, ls->point.prim, ls->point_b1, ls->point_b2, ls->point.p);
    RsFloat4 c = rs_texture_lookup(&s->textures, texture, t.u, t.v, 0.0f);
    ls->radiance = rs_mul(ls->radiance, rs_vec3(c.x, c.y, c.z));
}

/* Returns 0 if there is no light or the sampled point sends nothing towards `from`. The shadow
 * ray towards ls->point is made by rs_spawn_ray_to (surface.h), which keeps it off both ends. */
RS_FN int rs_light_sample(const RsSceneView* s, RsLightContext ctx, float u_pick, float u1, float u2,
                          RsLightSample* ls)
{
    if (s->light_count == 0)
        return 0;
    RsVec3 from = ctx.p;
    float select_pdf;
    RsFloat4 light = s->lights[rs_light_select_sample(s, ctx, u_pick, &select_pdf)];
    if (!(select_pdf > 0.0f)) /* no light can be picked (light_select.h) */
        return 0;
    uint32_t emitter = rs_light_emitter(light);
    ls->delta = 0;
    ls->instance = RS_NO_HIT;
    if (emitter != RS_LIGHT_ENVIRONMENT && (emitter & RS_LIGHT_POINT_BIT)) {
        const RsPointLight* l = &s->point_lights[emitter & ~RS_LIGHT_POINT_BIT];
        if (rs_float_as_uint(l->a.w) == RS_POINT_LIGHT_DIRECTIONAL) {
            /* one direction from everywhere: E arrives as if its radiance were a delta in
             * solid angle, so E takes the place of radiance; the shadow ray runs to infinity */
            ls->at_infinity = 1;
            ls->delta = 1;
            ls->dir = rs_neg(rs_xyz(l->a));
            ls->radiance = rs_xyz(l->b);
            ls->pdf = select_pdf;
            ls->point.p = ls->point.n = ls->point.error = rs_vec3_splat(0.0f);
            ls->point.prim = ls->point.skip = RS_NO_HIT;
            return !rs_is_black(ls->radiance);
        }
        RsVec3 to = rs_sub(rs_xyz(l->a), from);
        float dist2 = rs_dot(to, to);
        if (!(dist2 > 0.0f))
            return 0;
        ls->at_infinity = 0;
        ls->delta = 1;
        ls->dir = rs_scale(to, 1.0f / sqrtf(dist2));
        float falloff = rs_float_as_uint(l->a.w) == RS_POINT_LIGHT_SPOT ? rs_spot_falloff(l, rs_neg(ls->dir)) : 1.0f;
        /* intensity / dist2 overflows for a bright light very close to the point */
        ls->radiance = rs_vmin(rs_scale(rs_xyz(l->b), falloff / dist2), rs_vec3_splat(RS_LIGHT_RADIANCE_MAX));
        ls->pdf = select_pdf;
        /* an exact point in space: no rounding error to step over, nothing there to skip */
        ls->point.p = rs_xyz(l->a);
        ls->point.n = rs_neg(ls->dir);
        ls->point.error = rs_vec3_splat(0.0f);
        ls->point.prim = ls->point.skip = RS_NO_HIT;
        return !rs_is_black(ls->radiance);
    }
    if (emitter == RS_LIGHT_ENVIRONMENT) {
        ls->at_infinity = 1;
        /* no point; filled so that no caller can read an undefined one */
        ls->point.p = ls->point.n = ls->point.error = rs_vec3_splat(0.0f);
        ls->point.prim = ls->point.skip = RS_NO_HIT;
        if (rs_env_type(&s->env) == RS_ENV_MAP) {
            float pdf;
            ls->dir = rs_env_map_to_world(&s->env, &s->env_map, rs_env_map_sample(&s->env_map, u1, u2, &pdf));
            if (!(pdf > 0.0f))
                return 0;
            ls->pdf = select_pdf * pdf;
        } else {
            ls->dir = rs_sample_uniform_sphere(u1, u2);
            ls->pdf = select_pdf * RS_INV_4PI;
        }
        ls->radiance = rs_env_radiance(s, ls->dir);
        return !rs_is_black(ls->radiance);
    }
    ls->at_infinity = 0;
    ls->instance = rs_light_instance(light);
    RsPrim prim = rs_light_prim(s, emitter, ls->instance);
    const RsPrim* p = &prim;
    float b1 = 0.0f, b2 = 0.0f;
    if (rs_prim_type(p) == RS_PRIM_SPHERE) {
        RsVec3 unit = rs_sample_uniform_sphere(u1, u2);
        ls->point = rs_surface_on_sphere(p, emitter, rs_madd(rs_xyz(p->a), unit, p->b.x));
    } else {
        rs_sample_triangle(u1, u2, &b1, &b2);
        ls->point = rs_surface_on_triangle(p, emitter, b1, b2);
    }
    /* the shadow ray meets the object-space surface: the transforms' rounding (instance.h) */
    if (ls->instance != RS_NO_HIT) {
        const RsInstance* in = &s->accel.inst.instances[ls->instance];
        if (!(rs_instance_flags(in) & RS_INSTANCE_IDENTITY))
            ls->point.error = rs_add(ls->point.error, rs_instance_error(in, &s->prims[emitter], ls->point.p));
    }
    RsVec3 to = rs_sub(ls->point.p, from);
    float dist2 = rs_dot(to, to);
    if (!(dist2 > 0.0f))
        return 0;
    ls->dir = rs_scale(to, 1.0f / sqrtf(dist2));
    float cos_l = fabsf(rs_dot(ls->point.n, ls->dir));
    if (cos_l <= 0.0f)
        return 0;
    ls->radiance = rs_emitted(&s->materials[rs_prim_material(p)], ls->point.n, rs_neg(ls->dir));
    ls->pdf = select_pdf / rs_light_area(light) * dist2 / cos_l;
    ls->point_b1 = b1;
    ls->point_b2 = b2;
    return !rs_is_black(ls->radiance);
}

#endif /* RS_KERNEL_LIGHT_H */
