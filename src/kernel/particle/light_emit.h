/* light_emit.h - particles leaving the lights: which light (in proportion to power), where on
 * it and in which direction, and with what weight.
 *
 * Shared header (gcc C11, g++, nvcc). Used by light tracing and SPPM's photon pass
 * (stage_particle.h). A particle's weight is its share of the light's power: emitted radiance x
 * |cos| / (P(light) x p(point) x p(direction)), so the weights of many particles sum to the
 * scene's power, and rgb flux arriving anywhere is their sum (Veach 1997, ch. 4; pbrt-v4's
 * Light::SampleLe). Per light:
 *   triangle, sphere  a point uniform by area (p = 1 / area) and a cosine-weighted direction
 *                     about the normal (p = |cos| / pi), on the front only, or on a side drawn
 *                     with probability 1/2 for a two-sided emitter; the weight is
 *                     Le x pi x area (x 2) / P(light), Le looked up in its emission texture;
 *   point             a direction uniform on the sphere: I x 4 pi / P(light);
 *   spot              a direction uniform in the outer cone: I x falloff x 2 pi (1 - cos) / P;
 *   directional       its direction, from a point uniform on the disc of the scene's bounding
 *                     sphere, seen along it: E x pi r^2 / P (pbrt-v4's DistantLight);
 *   environment       a direction towards the sky as NEE draws it (the map's density or the
 *                     sphere), a point on the bounding disc across it: L x pi r^2 / (p(w) P).
 * The emission vertex of an emitting surface can be connected to the camera, which is how light
 * tracing draws those lights themselves: `has_vertex`, `point` and `vertex_weight` describe it.
 */
#ifndef RS_KERNEL_LIGHT_EMIT_H
#define RS_KERNEL_LIGHT_EMIT_H

#include "kernel/light/light.h"

typedef struct RsEmission {
    RsVec3 origin;        /* where the particle's first ray starts (pushed off the surface) */
    RsVec3 dir;           /* unit */
    RsVec3 weight;        /* see the top of the file */
    uint32_t skip;        /* the primitive the first ray leaves (RS_NO_HIT: none) */
    uint32_t instance;    /* the instance the first ray leaves (RS_NO_HIT: world) */
    /* the emission vertex, for the camera connection */
    int has_vertex;       /* an emitting surface: a point the camera can see. Point and spot lights
                             are not seen directly, as the path tracer cannot hit them (pbrt-v4
                             and Mitsuba 3 show them as black too) */
    RsSurfacePoint point; /* the vertex; point.n is 0 for point and spot lights */
    float b1, b2;         /* its barycentrics on a triangle (the emission texture's lookup) */
    uint32_t light;       /* its light-table entry */
    float vertex_weight;  /* 1 / (P(light) p(point)) */
} RsEmission;

/* What the emission vertex sends towards unit direction w: Le(w) |cos| for a surface, I(w) for
 * a point or spot light (the vertex's share of the connection before the camera's factor). */
RS_FN RsVec3 rs_emission_towards(const RsSceneView* s, const RsEmission* e, RsVec3 w)
{
    RsFloat4 light = s->lights[e->light];
    uint32_t emitter = rs_light_emitter(light);
    if (emitter & RS_LIGHT_POINT_BIT) {
        const RsPointLight* l = &s->point_lights[emitter & ~RS_LIGHT_POINT_BIT];
        float falloff = rs_float_as_uint(l->a.w) == RS_POINT_LIGHT_SPOT ? rs_spot_falloff(l, w) : 1.0f;
        return rs_scale(rs_xyz(l->b), falloff);
    }
    RsPrim prim = rs_light_prim(s, emitter, e->instance);
    RsLightSample ls; /* rs_light_emission_texture's view of the vertex */
    ls.at_infinity = ls.delta = 0;
    ls.point = e->point;
    ls.instance = e->instance;
    ls.point_b1 = e->b1;
    ls.point_b2 = e->b2;
    ls.radiance = rs_emitted(&s->materials[rs_prim_material(&prim)], e->point.n, w);
    rs_light_emission_texture(s, &ls);
    return rs_scale(ls.radiance, fabsf(rs_dot(e->point.n, w)));
}

/* A point uniform on the disc of radius r about c, across unit direction d. */
RS_FN RsVec3 rs_emit_disc_point(RsVec3 c, float r, RsVec3 d, float u1, float u2)
{
    RsVec3 t, b;
    rs_onb(d, &t, &b);
    float x, y;
    rs_sample_disk(u1, u2, &x, &y);
    return rs_add(c, rs_add(rs_scale(t, x * r), rs_scale(b, y * r)));
}

/* Draws a particle. u_pick picks the light; (u1, u2) the point (or, at infinity, the disc
 * point); (u3, u4) the direction; u_side the face of a two-sided emitter. Returns 0 when there
 * is no light with power or the particle carries nothing. */
RS_FN int rs_light_emit(const RsSceneView* s, float u_pick, float u1, float u2, float u3, float u4, float u_side,
                        RsEmission* e)
{
    if (s->light_count == 0 || !s->light_select.power_cdf)
        return 0;
    uint32_t index = rs_light_select_power_find(s->light_select.power_cdf, s->light_count, u_pick);
    float pick = s->light_select.power_pmf[index];
    if (!(pick > 0.0f))
        return 0;
    RsFloat4 light = s->lights[index];
    uint32_t emitter = rs_light_emitter(light);
    e->light = index;
    e->skip = RS_NO_HIT;
    e->instance = RS_NO_HIT;
    e->has_vertex = 0;
    e->vertex_weight = 0.0f;
    e->point.p = e->point.n = e->point.error = rs_vec3_splat(0.0f);
    e->point.prim = e->point.skip = RS_NO_HIT;
    e->b1 = e->b2 = 0.0f;
    RsVec3 centre = rs_scale(rs_add(rs_xyz(s->bounds_lo), rs_xyz(s->bounds_hi)), 0.5f);
    float radius = 0.5f * rs_length(rs_sub(rs_xyz(s->bounds_hi), rs_xyz(s->bounds_lo))) * 1.01f + 1e-6f;
    if (emitter == RS_LIGHT_ENVIRONMENT) {
        float pdf;
        RsVec3 towards_sky;
        if (rs_env_type(&s->env) == RS_ENV_MAP) {
            towards_sky = rs_env_map_to_world(&s->env, &s->env_map, rs_env_map_sample(&s->env_map, u3, u4, &pdf));
        } else {
            towards_sky = rs_sample_uniform_sphere(u3, u4);
            pdf = RS_INV_4PI;
        }
        if (!(pdf > 0.0f))
            return 0;
        e->dir = rs_neg(towards_sky);
        e->origin = rs_emit_disc_point(rs_madd(centre, towards_sky, radius), radius, towards_sky, u1, u2);
        e->weight = rs_scale(rs_env_radiance(s, towards_sky), RS_PI * radius * radius / (pdf * pick));
        return !rs_is_black(e->weight);
    }
    if (emitter & RS_LIGHT_POINT_BIT) {
        const RsPointLight* l = &s->point_lights[emitter & ~RS_LIGHT_POINT_BIT];
        uint32_t type = rs_float_as_uint(l->a.w);
        if (type == RS_POINT_LIGHT_DIRECTIONAL) {
            RsVec3 d = rs_xyz(l->a);
            e->dir = d;
            e->origin = rs_emit_disc_point(rs_madd(centre, d, -radius), radius, d, u1, u2);
            e->weight = rs_scale(rs_xyz(l->b), RS_PI * radius * radius / pick);
            return !rs_is_black(e->weight);
        }
        float dir_pdf;
        if (type == RS_POINT_LIGHT_SPOT) {
            /* uniform in the cone of cos_end about the axis */
            float cos_end = l->b.w;
            float cos_t = 1.0f - u3 * (1.0f - cos_end);
            float sin_t = sqrtf(rs_maxf(0.0f, 1.0f - cos_t * cos_t));
            float phi = 2.0f * RS_PI * u4;
            RsVec3 t, b, axis = rs_xyz(l->c);
            rs_onb(axis, &t, &b);
            e->dir = rs_to_world(rs_vec3(sin_t * cosf(phi), sin_t * sinf(phi), cos_t), t, b, axis);
            dir_pdf = 1.0f / (2.0f * RS_PI * (1.0f - cos_end));
        } else {
            e->dir = rs_sample_uniform_sphere(u3, u4);
            dir_pdf = RS_INV_4PI;
        }
        e->origin = rs_xyz(l->a);
        e->point.p = e->origin; /* no vertex to connect: see has_vertex */
        float falloff = type == RS_POINT_LIGHT_SPOT ? rs_spot_falloff(l, e->dir) : 1.0f;
        e->weight = rs_scale(rs_xyz(l->b), falloff / (dir_pdf * pick));
        return !rs_is_black(e->weight) && rs_is_finite(dir_pdf);
    }
    /* an emitting primitive (of an instance: its world-space copy) */
    e->instance = rs_light_instance(light);
    RsPrim prim = rs_light_prim(s, emitter, e->instance);
    const RsPrim* p = &prim;
    if (rs_prim_type(p) == RS_PRIM_SPHERE) {
        e->point = rs_surface_on_sphere(p, emitter, rs_madd(rs_xyz(p->a), rs_sample_uniform_sphere(u1, u2), p->b.x));
    } else {
        float b1, b2;
        rs_sample_triangle(u1, u2, &b1, &b2);
        e->point = rs_surface_on_triangle(p, emitter, b1, b2);
        e->b1 = b1;
        e->b2 = b2;
    }
    if (e->instance != RS_NO_HIT) {
        const RsInstance* in = &s->accel.inst.instances[e->instance];
        if (!(rs_instance_flags(in) & RS_INSTANCE_IDENTITY))
            e->point.error = rs_add(e->point.error, rs_instance_error(in, &s->prims[emitter], e->point.p));
    }
    const RsMaterial* m = &s->materials[rs_prim_material(p)];
    RsVec3 n = e->point.n;
    float sides = 1.0f;
    if (rs_material_two_sided(m)) {
        sides = 2.0f;
        if (u_side < 0.5f)
            n = rs_neg(n);
    }
    RsVec3 t, b;
    rs_onb(n, &t, &b);
    e->dir = rs_to_world(rs_sample_cosine_hemisphere(u3, u4), t, b, n);
    if (!(rs_dot(e->dir, n) > 0.0f))
        return 0;
    float area = rs_light_area(light);
    e->has_vertex = 1;
    e->vertex_weight = area / pick;
    /* Le |cos| / (P(light) (1 / area) (|cos| / (sides pi))) */
    RsVec3 le = rs_emission_towards(s, e, e->dir);
    e->weight = rs_scale(le, sides * RS_PI * area / (pick * fabsf(rs_dot(e->point.n, e->dir))));
    e->origin = rs_spawn_origin(&e->point, e->dir);
    e->skip = e->point.skip;
    return !rs_is_black(e->weight) && rs_is_finite3(e->weight);
}

#endif /* RS_KERNEL_LIGHT_EMIT_H */
