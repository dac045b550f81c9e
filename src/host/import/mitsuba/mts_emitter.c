/* mts_emitter.c - Mitsuba emitters that are not shapes: point, spot, directional, constant
 * and envmap (area emitters become their shape's emission: mts_bsdf.c). Host C11.
 *
 * Units agree: point and spot intensity in W/sr, directional irradiance in W/m^2, radiance.
 * spot: Mitsuba's falloff is linear in angle from beam_width to cutoff_angle, raystream's a
 * smoothstep over the same range (pbrt-v4's), with a warning when they differ. envmap: the
 * direction mapping is Mitsuba 3's (scenes/README.md); raystream turns the map about +y only, so
 * a to_world that is a rotation about +y is exact, any other rotation is made one by turning the
 * whole scene (m->world, mitsuba_loader.c), and anything else (scaling, mirroring) is refused.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "host/import/mitsuba/mts_internal.h"

static int non_negative(RsMts* m, const RsMtsNode* n, const char* what, RsVec3 c)
{
    if (!(c.x >= 0.0f && c.y >= 0.0f && c.z >= 0.0f))
        return rs_mts_fail(m, n, "%s: must not be negative (got %g, %g, %g)", what, c.x, c.y, c.z);
    return 0;
}

static int envmap(RsMts* m, RsMtsNode* n)
{
    const char* filename = NULL;
    double scale = 1.0;
    RsTransform xf;
    if (rs_mts_get_string(m, n, "filename", &filename) || rs_mts_get_float(m, n, "scale", &scale) ||
        rs_mts_get_transform(m, n, "to_world", &xf))
        return -1;
    if (!filename)
        return rs_mts_fail(m, n, "envmap: needs a filename");
    xf = rs_transform_compose(&m->world, &xf);
    if (!(scale >= 0.0))
        return rs_mts_fail(m, n, "envmap: scale must be >= 0");
    /* a rotation about +y: [[c, 0, s], [0, 1, 0], [-s, 0, c]] and no translation (which an
     * environment ignores anyway) */
    const float(*a)[4] = xf.m;
    float c = a[0][0], s = a[0][2];
    const float eps = 1e-5f;
    if (!(fabsf(a[1][1] - 1.0f) < eps && fabsf(a[0][1]) < eps && fabsf(a[1][0]) < eps && fabsf(a[1][2]) < eps &&
          fabsf(a[2][1]) < eps && fabsf(a[2][2] - c) < eps && fabsf(a[2][0] + s) < eps &&
          fabsf(c * c + s * s - 1.0f) < 1e-4f))
        return rs_mts_fail(m, n, "envmap: its to_world is not a rotation about +y, the only turn raystream's "
                                 "environment maps take");
    char path[4096], where[4200];
    if (rs_mts_resolve_path(m, n, filename, path, sizeof path))
        return -1;
    snprintf(where, sizeof where, "%s:%d: envmap", n->file, n->line);
    if (m->scene->env_map.width)
        return rs_mts_fail(m, n, "envmap: raystream takes one environment map");
    if (rs_env_map_load(&m->scene->env_map, path, where, m->err) || rs_file_list_add(m->files, path, m->err))
        return -1;
    m->scene->env.zenith = rs_pack(rs_vec3_splat((float)scale), rs_uint_as_float(RS_ENV_MAP));
    m->scene->env.horizon = rs_float4(c, s, 0.0f, 0.0f);
    m->scene->env.ground = rs_float4(0.0f, 0.0f, 0.0f, 0.0f);
    rs_mts_child(m, n, "filter_type");
    rs_mts_child(m, n, "mis_compensation");
    return 0;
}

int rs_mts_read_emitter(RsMts* m, RsMtsNode* n)
{
    const char* type = rs_mts_attr(n, "type");
    if (!type)
        return rs_mts_fail(m, n, "emitter: needs a type");
    if (strcmp(type, "area") == 0 && rs_mts_attr(n, "id"))
        return 0; /* declared for shapes that refer to it: made with them */
    m->have_light = 1;
    RsScene* scene = m->scene;
    RsTransform xf;
    if (rs_mts_get_transform(m, n, "to_world", &xf))
        return -1;
    xf = rs_transform_compose(&m->world, &xf);
    if (strcmp(type, "point") == 0 || strcmp(type, "spot") == 0) {
        RsVec3 intensity = rs_vec3_splat(1.0f);
        RsVec3 position = rs_transform_point(&xf, rs_vec3(0.0f, 0.0f, 0.0f));
        RsVec3 p = position;
        int has_position = rs_mts_child(m, n, "position") != NULL;
        if (has_position) {
            rs_mts_child(m, n, "position")->used = 0;
            if (rs_mts_get_point(m, n, "position", &p))
                return -1;
            position = rs_transform_point(&m->world, p);
        }
        if (rs_mts_get_colour(m, n, "intensity", 1, &intensity, NULL) || non_negative(m, n, "intensity", intensity))
            return -1;
        rs_mts_child(m, n, "sampling_weight");
        if (type[0] == 'p') {
            rs_mts_warn_unused(m, n, type);
            return rs_scene_add_point_light(scene, position, intensity, m->err) ? rs_mts_rethrow(m, n, "point")
                                                                                : 0;
        }
        double cutoff = 20.0, beam = NAN;
        if (rs_mts_get_float(m, n, "cutoff_angle", &cutoff) || rs_mts_get_float(m, n, "beam_width", &beam))
            return -1;
        if (isnan(beam))
            beam = cutoff * 3.0 / 4.0;
        if (!(cutoff > 0.0 && cutoff <= 90.0))
            return rs_mts_fail(m, n, "spot: cutoff_angle must be in (0, 90] degrees (got %g)", cutoff);
        if (!(beam >= 0.0))
            return rs_mts_fail(m, n, "spot: beam_width must be >= 0 (got %g)", beam);
        if (beam > cutoff)
            beam = cutoff;
        if (beam < cutoff)
            rs_mts_warn(m, n, "spot: the falloff from beam_width to cutoff_angle is a smoothstep in raystream, "
                              "linear in angle in Mitsuba");
        RsVec3 axis = rs_sub(rs_transform_point(&xf, rs_vec3(0.0f, 0.0f, 1.0f)), rs_transform_point(&xf, rs_vec3(0.0f, 0.0f, 0.0f)));
        if (!(rs_length(axis) > 0.0f))
            return rs_mts_fail(m, n, "spot: its to_world has no direction");
        for (uint32_t i = 0; i < n->child_count; ++i)
            if (strcmp(n->children[i]->tag, "texture") == 0)
                return rs_mts_fail(m, n->children[i], "spot: a projected texture is not supported");
        rs_mts_warn_unused(m, n, type);
        if (rs_scene_add_spot_light(scene, position, axis, intensity, (float)cutoff, (float)(cutoff - beam), m->err))
            return rs_mts_rethrow(m, n, "spot");
        return 0;
    }
    if (strcmp(type, "directional") == 0) {
        RsVec3 irradiance = rs_vec3_splat(1.0f), dir = rs_vec3(0.0f, 0.0f, 1.0f);
        if (rs_mts_get_colour(m, n, "irradiance", 1, &irradiance, NULL) ||
            non_negative(m, n, "irradiance", irradiance))
            return -1;
        if (rs_mts_child(m, n, "direction")) {
            rs_mts_child(m, n, "direction")->used = 0;
            if (rs_mts_get_point(m, n, "direction", &dir))
                return -1;
            dir = rs_sub(rs_transform_point(&m->world, dir), rs_transform_point(&m->world, rs_vec3(0.0f, 0.0f, 0.0f)));
        } else {
            dir = rs_sub(rs_transform_point(&xf, dir), rs_transform_point(&xf, rs_vec3(0.0f, 0.0f, 0.0f)));
        }
        /* normalised in double, as the JSON loader does, so that both give the same light */
        double length = sqrt((double)dir.x * dir.x + (double)dir.y * dir.y + (double)dir.z * dir.z);
        if (!(length > 0.0))
            return rs_mts_fail(m, n, "directional: the direction must not be zero");
        dir = rs_vec3((float)(dir.x / length), (float)(dir.y / length), (float)(dir.z / length));
        rs_mts_warn_unused(m, n, type);
        if (rs_scene_add_directional_light(scene, dir, irradiance, m->err))
            return rs_mts_rethrow(m, n, "directional");
        return 0;
    }
    if (strcmp(type, "constant") == 0) {
        RsVec3 radiance = rs_vec3_splat(1.0f);
        if (rs_mts_get_colour(m, n, "radiance", 1, &radiance, NULL) || non_negative(m, n, "radiance", radiance))
            return -1;
        if (m->scene->env_map.width)
            return rs_mts_fail(m, n, "constant: raystream takes one environment (there is an envmap already)");
        scene->env.zenith = rs_pack(radiance, rs_uint_as_float(RS_ENV_CONSTANT));
        rs_mts_warn_unused(m, n, type);
        return 0;
    }
    if (strcmp(type, "envmap") == 0) {
        if (envmap(m, n))
            return -1;
        rs_mts_warn_unused(m, n, type);
        return 0;
    }
    if (strcmp(type, "area") == 0)
        return rs_mts_fail(m, n, "area: an area emitter must be inside a shape");
    return rs_mts_fail(m, n, "emitter '%s': not supported (raystream reads area, point, spot, directional, "
                             "constant and envmap)", type);
}
