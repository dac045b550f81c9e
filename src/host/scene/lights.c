/* lights.c - the scene's light table (see lights.h). Host C11. */
#include "host/scene/lights.h"

#include <stdlib.h>

static int is_directional(const RsPointLight* l) { return rs_float_as_uint(l->a.w) == RS_POINT_LIGHT_DIRECTIONAL; }

/* Power of a point or spot light (pbrt-v4's Phi): 4 pi I, or 2 pi I times the cone's share
 * of the sphere with the falloff band counted half; of a directional light, its irradiance on
 * the scene's bounding disc, pi r^2 E (pbrt-v4's DistantLight::Phi). */
static double point_light_power(const RsPointLight* l, double radius)
{
    double intensity = rs_luminance(rs_xyz(l->b));
    if (is_directional(l))
        return RS_PI * radius * radius * intensity;
    if (rs_float_as_uint(l->a.w) == RS_POINT_LIGHT_SPOT)
        return 2.0 * RS_PI * intensity * (1.0 - 0.5 * ((double)l->c.w + (double)l->b.w));
    return 4.0 * RS_PI * intensity;
}

static float prim_area(const RsPrim* p)
{
    if (rs_prim_type(p) == RS_PRIM_SPHERE)
        return 4.0f * RS_PI * p->b.x * p->b.x;
    return 0.5f * rs_length(rs_cross(rs_xyz(p->b), rs_xyz(p->c)));
}

static float env_mean_luminance(const RsEnvironment* env, const RsEnvMap* map)
{
    float zenith = rs_luminance(rs_xyz(env->zenith));
    if (rs_float_as_uint(env->zenith.w) == RS_ENV_CONSTANT)
        return zenith;
    if (rs_float_as_uint(env->zenith.w) == RS_ENV_MAP)
        return zenith * (float)rs_env_map_mean_luminance(map);
    return (zenith + rs_luminance(rs_xyz(env->horizon)) + rs_luminance(rs_xyz(env->ground))) / 3.0f;
}

/* Luminance of a material's emission, averaged over its emission texture if it has one. */
static float emitted_luminance(const RsScene* scene, const RsMaterial* m)
{
    RsVec3 e = rs_material_emission(m);
    uint32_t texture = rs_material_emission_texture(m);
    if (texture != RS_NO_TEXTURE)
        e = rs_mul(e, rs_texture_mean(&scene->textures, texture));
    return rs_luminance(e);
}

int rs_scene_build_lights(RsScene* scene, float scene_radius, double** power_out, RsError* err)
{
    *power_out = NULL;
    uint32_t prim_count;
    RsPrim* prims = (RsPrim*)rs_scene_view_prims(scene, &prim_count);
    uint32_t world = scene->world_prim_count;
    for (uint32_t i = 0; i < prim_count; ++i)
        prims[i].b.w = rs_uint_as_float(RS_NO_LIGHT);
    /* an object's emitters are numbered within it (their light bits); each instance of it gets
     * that many entries from its meta.y on (kernel/accel/instance.h) */
    uint32_t object_count = (uint32_t)(scene->object_ranges.count / 2);
    uint32_t* emitters = calloc(object_count ? object_count : 1, sizeof *emitters);
    if (!emitters)
        return rs_error_set(err, "out of memory building the light table");
    for (uint32_t o = 0; o < object_count; ++o) {
        uint32_t first = scene->object_ranges.data[2 * o], n = scene->object_ranges.data[2 * o + 1];
        for (uint32_t i = first; i < first + n; ++i)
            if (emitted_luminance(scene, &scene->materials.data[rs_prim_material(&prims[i])]) > 0.0f)
                prims[i].b.w = rs_uint_as_float(emitters[o]++);
    }
    uint64_t count = 0;
    float env_lum = env_mean_luminance(&scene->env, &scene->env_map);
    for (uint32_t i = 0; i < world; ++i)
        count += emitted_luminance(scene, &scene->materials.data[rs_prim_material(&prims[i])]) > 0.0f;
    for (size_t i = 0; i < scene->instance_records.count; ++i)
        count += emitters[rs_instance_object(&scene->instance_records.data[i])];
    count += env_lum > 0.0f;
    double r = scene_radius > 0.0f ? scene_radius : 1.0;
    for (size_t i = 0; i < scene->point_lights.count; ++i)
        count += point_light_power(&scene->point_lights.data[i], r) > 0.0;
    if (count >= 0x7fffffffu) {
        free(emitters);
        return rs_error_set(err, "too many lights: %llu emitters (instances count each of theirs)",
                            (unsigned long long)count);
    }
    scene->light_count = (uint32_t)count;
    scene->infinite_first = (uint32_t)count;
    scene->env_light = RS_NO_LIGHT;
    if (count == 0) {
        free(emitters);
        return 0;
    }
    scene->lights = rs_alloc_aligned(count, sizeof(RsFloat4), 16);
    double* power = malloc(count * sizeof *power);
    if (!scene->lights || !power) {
        free(power);
        free(emitters);
        return rs_error_set(err, "out of memory building the light table (%llu lights)", (unsigned long long)count);
    }
    const float no_instance = 0.0f; /* w: the instance + 1 (kernel/light/light.h) */
    uint32_t k = 0;
    for (uint32_t i = 0; i < world; ++i) {
        const RsMaterial* m = &scene->materials.data[rs_prim_material(&prims[i])];
        float lum = emitted_luminance(scene, m);
        if (!(lum > 0.0f))
            continue;
        float area = prim_area(&prims[i]);
        power[k] = RS_PI * area * lum * (rs_material_two_sided(m) ? 2.0 : 1.0);
        scene->lights[k] = rs_float4(rs_uint_as_float(i), area, (float)power[k], no_instance);
        prims[i].b.w = rs_uint_as_float(k++);
    }
    for (size_t n = 0; n < scene->instance_records.count; ++n) {
        RsInstance* in = &scene->instance_records.data[n];
        uint32_t o = rs_instance_object(in);
        in->meta.y = emitters[o] ? k : RS_NO_LIGHT;
        uint32_t first = scene->object_ranges.data[2 * o], size = scene->object_ranges.data[2 * o + 1];
        for (uint32_t i = first; i < first + size && emitters[o]; ++i) {
            if (rs_prim_light(&prims[i]) == RS_NO_LIGHT)
                continue;
            const RsMaterial* m = &scene->materials.data[rs_prim_material(&prims[i])];
            RsPrim placed = rs_instance_prim(in, &prims[i]);
            float area = prim_area(&placed);
            power[k] = RS_PI * area * emitted_luminance(scene, m) * (rs_material_two_sided(m) ? 2.0 : 1.0);
            scene->lights[k] = rs_float4(rs_uint_as_float(i), area, (float)power[k], rs_uint_as_float((uint32_t)n + 1u));
            k++;
        }
    }
    free(emitters);
    /* point and spot lights, then (from infinite_first on) directional lights */
    for (int directional = 0; directional < 2; ++directional) {
        if (directional)
            scene->infinite_first = k;
        for (size_t i = 0; i < scene->point_lights.count; ++i) {
            const RsPointLight* l = &scene->point_lights.data[i];
            double phi = point_light_power(l, r);
            if (!(phi > 0.0) || is_directional(l) != directional)
                continue;
            power[k] = phi;
            scene->lights[k++] = rs_float4(rs_uint_as_float(RS_LIGHT_POINT_BIT | (uint32_t)i), 0.0f, (float)phi, no_instance);
        }
    }
    if (env_lum > 0.0f) {
        power[k] = 4.0 * RS_PI * RS_PI * r * r * env_lum;
        scene->env_light = k;
        scene->lights[k] = rs_float4(rs_uint_as_float(RS_LIGHT_ENVIRONMENT), 0.0f, (float)power[k], no_instance);
        k++;
    }
    *power_out = power;
    return 0;
}
