/* precision_scene.h - one scene at any scale and camera distance, for the ray-offset tests.
 * Host C11, header-only; used by tests/render/test_precision.c and test_self_hits.c (CPU) and
 * by the gpu suite.
 *
 * A unit floor (x, z in [-0.5, 0.5], y = 0, two triangles) with a diffuse ball resting on it,
 * lit by a tilted area light outside the view and a dim constant sky, seen straight down from
 * `distance` floor sizes above, with the field of view that frames the floor exactly. Every
 * coordinate is multiplied by `scale`. Radiance does not change under uniform scaling, and the
 * floor plane maps to the same pixels from every distance, so every (scale, distance) gives
 * the same image in exact arithmetic, up to the ball's perspective (its silhouette shrinks by
 * its radius / distance, 0.5% at 10 floor sizes). What floating point adds is what the tests
 * measure: a hit point computed as origin + t dir is off the floor by about t ulps, which from
 * 10^4 floor sizes away put shadow rays under the floor they leave.
 */
#ifndef RS_TESTS_PRECISION_SCENE_H
#define RS_TESTS_PRECISION_SCENE_H

#include <math.h>

#include "host/scene/scene.h"
#include "kernel/sampling/sampler.h"

static inline RsVec3 precision_point(double scale, double x, double y, double z)
{
    return rs_vec3((float)(scale * x), (float)(scale * y), (float)(scale * z));
}

/* Returns 0 on success. */
static inline int precision_scene_build(RsScene* s, double scale, double distance, RsError* err)
{
    rs_scene_init(s);
    /* independent numbers: test_precision's noise model (image_compare.h) takes pixels' errors as
     * independent; Sobol's much smaller noise would make a sub-pixel shift of an edge between
     * two camera distances look like a difference of many standard errors */
    s->render.sampler = RS_SAMPLER_INDEPENDENT;
    s->camera.eye = precision_point(scale, 0.0, distance, 0.0);
    s->camera.look_at = precision_point(scale, 0.0, 0.0, 0.0);
    s->camera.up = rs_vec3(0.0f, 0.0f, -1.0f);
    s->camera.fov_degrees = (float)(2.0 * atan(0.5 / distance) * 180.0 / 3.14159265358979323846);
    s->env.zenith = rs_float4(0.2f, 0.2f, 0.2f, rs_uint_as_float(RS_ENV_CONSTANT));
    int32_t floor_m = rs_scene_add_material(s, "floor", rs_material_make(RS_MAT_DIFFUSE, rs_vec3(0.7f, 0.7f, 0.7f),
                                                                         rs_vec3_splat(0), 1.0f, 0), err);
    int32_t ball_m = rs_scene_add_material(s, "ball", rs_material_make(RS_MAT_DIFFUSE, rs_vec3(0.8f, 0.3f, 0.2f),
                                                                       rs_vec3_splat(0), 1.0f, 0), err);
    int32_t light_m = rs_scene_add_material(s, "light", rs_material_make(RS_MAT_DIFFUSE, rs_vec3_splat(0),
                                                                         rs_vec3(20.0f, 18.0f, 15.0f), 1.0f, 0), err);
    if (floor_m < 0 || ball_m < 0 || light_m < 0)
        return -1;
    RsVec3 f0 = precision_point(scale, -0.5, 0, -0.5), f1 = precision_point(scale, -0.5, 0, 0.5);
    RsVec3 f2 = precision_point(scale, 0.5, 0, 0.5), f3 = precision_point(scale, 0.5, 0, -0.5);
    /* the light: beyond the floor's +x edge, tilted 45 degrees to face the floor's centre */
    RsVec3 l0 = precision_point(scale, 0.6, 0.45, 0.15), l1 = precision_point(scale, 0.6, 0.45, -0.15);
    RsVec3 l2 = precision_point(scale, 0.8, 0.25, -0.15), l3 = precision_point(scale, 0.8, 0.25, 0.15);
    if (rs_scene_add_triangle(s, f0, f1, f2, (uint32_t)floor_m, err) ||
        rs_scene_add_triangle(s, f0, f2, f3, (uint32_t)floor_m, err) ||
        rs_scene_add_triangle(s, l0, l1, l2, (uint32_t)light_m, err) ||
        rs_scene_add_triangle(s, l0, l2, l3, (uint32_t)light_m, err) ||
        rs_scene_add_sphere(s, precision_point(scale, -0.15, 0.06, 0.1), (float)(0.06 * scale), (uint32_t)ball_m, err))
        return -1;
    return rs_scene_build(s, err);
}

#endif /* RS_TESTS_PRECISION_SCENE_H */
