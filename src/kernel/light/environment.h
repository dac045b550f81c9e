/* environment.h - the light at infinity: a constant colour, a sky gradient or a map (env_map.h):
 * equirectangular, turned about +y, or equal-area octahedral in any orthogonal frame.
 *
 * Shared header (gcc C11, g++, nvcc). What an escaped ray sees (rs_env_radiance) and the
 * map's frame; sampling it for next-event estimation is light.h's.
 */
#ifndef RS_KERNEL_ENVIRONMENT_H
#define RS_KERNEL_ENVIRONMENT_H

#include "kernel/scene/scene_view.h"

RS_FN uint32_t rs_env_type(const RsEnvironment* env) { return rs_float_as_uint(env->zenith.w); }

/* A world direction in an environment map's frame, and back: turned about +y (equirectangular),
 * or by the map's orthogonal frame (octahedral; its inverse is its transpose). */
RS_FN RsVec3 rs_env_map_from_world(const RsEnvironment* env, const RsEnvMapView* m, RsVec3 d)
{
    if (rs_env_map_octahedral(m))
        return rs_vec3(rs_dot(rs_xyz(m->frame[0]), d), rs_dot(rs_xyz(m->frame[1]), d), rs_dot(rs_xyz(m->frame[2]), d));
    float c = env->horizon.x, s = env->horizon.y;
    return rs_vec3(c * d.x - s * d.z, d.y, s * d.x + c * d.z);
}

RS_FN RsVec3 rs_env_map_to_world(const RsEnvironment* env, const RsEnvMapView* m, RsVec3 d)
{
    if (rs_env_map_octahedral(m))
        return rs_add(rs_add(rs_scale(rs_xyz(m->frame[0]), d.x), rs_scale(rs_xyz(m->frame[1]), d.y)),
                      rs_scale(rs_xyz(m->frame[2]), d.z));
    float c = env->horizon.x, s = env->horizon.y;
    return rs_vec3(c * d.x + s * d.z, d.y, -s * d.x + c * d.z);
}

/* Radiance arriving from the environment along -dir (dir: unit, towards the environment). */
RS_FN RsVec3 rs_env_radiance(const RsSceneView* s, RsVec3 dir)
{
    const RsEnvironment* env = &s->env;
    RsVec3 zenith = rs_xyz(env->zenith);
    uint32_t type = rs_env_type(env);
    if (type == RS_ENV_CONSTANT)
        return zenith;
    if (type == RS_ENV_MAP) {
        RsVec3 radiance = rs_env_map_eval(&s->env_map, rs_env_map_from_world(env, &s->env_map, dir));
        /* scale times texel: up to 1e18 * 1e30, beyond float (RS_LIGHT_RADIANCE_MAX) */
        return rs_vmin(rs_mul(zenith, radiance), rs_vec3_splat(RS_LIGHT_RADIANCE_MAX));
    }
    RsVec3 horizon = rs_xyz(env->horizon), ground = rs_xyz(env->ground);
    if (dir.y >= 0.0f) {
        float t = sqrtf(dir.y); /* a sky gradient that whitens quickly towards the horizon */
        return rs_add(rs_scale(horizon, 1.0f - t), rs_scale(zenith, t));
    }
    float t = rs_minf(1.0f, -dir.y * 10.0f); /* a short blend band below the horizon */
    return rs_add(rs_scale(horizon, 1.0f - t), rs_scale(ground, t));
}

#endif /* RS_KERNEL_ENVIRONMENT_H */
