/* pbrt_lights.c - pbrt-v4's LightSource and AreaLightSource. Host C11.
 *
 * Intensities follow pbrt-v4's normalisation (pbrt_spectra.h): an "rgb" value is used as it is,
 * a spectrum or blackbody is scaled to luminance 1, then "scale" multiplies; "power" sets a
 * point light's intensity to power / 4pi and a spot light's to power over its cone's solid
 * angle (pbrt-v4's formulas), and a distant light's "illuminance" multiplies its radiance. A
 * constant infinite light is a constant environment; an image infinite light is an equal-area
 * octahedral environment map (pbrt-v4's form, src/kernel/light/env_octahedral.h) in the light's
 * frame: pbrt-v4 looks the image up at (light from world) * direction, +z at the image's centre,
 * so the map's world-to-map frame is the inverse of the placement (raystream world from light,
 * the importer's mirror included), which must be a rotation or reflection times a uniform scale.
 * Its "illuminance" sets the scale so that an upward (+z in the light's frame) patch receives
 * that much, as pbrt-v4 normalises it. Goniometric and projection lights are refused.
 */
#include <math.h>
#include <string.h>

#include "host/import/pbrt/pbrt_context.h"
#include "host/import/pbrt/pbrt_lexer.h"
#include "host/import/pbrt/pbrt_spectra.h"
#include "host/util/file_list.h"

static int emitted(RsPbrtContext* ctx, RsPbrtParams* params, const char* name, RsVec3* out)
{
    double scale = 1.0;
    int found = 0;
    *out = rs_vec3_splat(1.0f); /* pbrt-v4's default: the colour space's illuminant, luminance 1 */
    if (rs_pbrt_get_colour(params, name, RS_PBRT_ILLUMINANT, out, &found, ctx->err) ||
        rs_pbrt_get_float(params, "scale", &scale, ctx->err))
        return -1;
    if (!(scale >= 0.0))
        return rs_pbrt_fail(params, ctx->err, "\"scale\" must be >= 0 (got %g)", scale);
    *out = rs_scale(*out, (float)scale);
    return 0;
}

static RsVec3 placed_point(const RsPbrtContext* ctx, const double p[3])
{
    RsPbrtMatrix a = rs_pbrt_placement(ctx);
    double w[3];
    rs_pbrt_point(&a, p, w);
    return rs_vec3((float)w[0], (float)w[1], (float)w[2]);
}

static RsVec3 placed_vector(const RsPbrtContext* ctx, const double v[3])
{
    RsPbrtMatrix a = rs_pbrt_placement(ctx);
    double w[3];
    rs_pbrt_vector(&a, v, w);
    return rs_vec3((float)w[0], (float)w[1], (float)w[2]);
}

/* Illuminance an upward (+z of the map's frame) patch receives from an octahedral map, before
 * scale: every texel covers 4 pi / (w h) steradians. */
static double map_illuminance(const RsEnvMap* m)
{
    double sum = 0.0;
    for (uint32_t y = 0; y < m->height; ++y)
        for (uint32_t x = 0; x < m->width; ++x) {
            RsVec3 d = rs_equal_area_square_to_sphere((x + 0.5f) / (float)m->width, (y + 0.5f) / (float)m->height);
            if (d.z > 0.0f)
                sum += rs_luminance(rs_xyz(m->texels[(size_t)y * m->width + x])) * d.z;
        }
    return sum * 4.0 * 3.14159265358979323846 / ((double)m->width * m->height);
}

/* LightSource "infinite" "string filename": pbrt-v4's equal-area octahedral image. */
static int image_light(RsPbrtContext* ctx, RsPbrtParams* params, const char* file)
{
    double scale = 1.0, illuminance = -1.0;
    int has_l = 0;
    RsVec3 l;
    if (rs_pbrt_get_colour(params, "L", RS_PBRT_ILLUMINANT, &l, &has_l, ctx->err) ||
        rs_pbrt_get_float(params, "scale", &scale, ctx->err) ||
        rs_pbrt_get_float(params, "illuminance", &illuminance, ctx->err))
        return -1;
    if (has_l)
        return rs_pbrt_fail(params, ctx->err, "both \"L\" and \"filename\" given (pbrt-v4 takes one)");
    if (!(scale >= 0.0))
        return rs_pbrt_fail(params, ctx->err, "\"scale\" must be >= 0 (got %g)", scale);
    RsEnvironment* env = &ctx->scene->env;
    if (ctx->scene->env_map.width > 0 ||
        (rs_float_as_uint(env->zenith.w) == RS_ENV_CONSTANT &&
         (env->zenith.x > 0.0f || env->zenith.y > 0.0f || env->zenith.z > 0.0f)))
        return rs_pbrt_fail(params, ctx->err, "an image infinite light beside another infinite light is not "
                                              "supported (raystream has one environment)");
    RsPbrtMatrix a = rs_pbrt_placement(ctx);
    double uniform = 1.0;
    if (!rs_pbrt_is_similarity(&a, &uniform) || !(uniform > 0.0))
        return rs_pbrt_fail(params, ctx->err, "an image infinite light under a transform that is not a rotation "
                                              "times a uniform scale is not supported");
    double frame[3][3]; /* world to map: the inverse of the placement's rotation, its transpose */
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            frame[i][j] = a.m[j][i] / uniform;
    char path[4096];
    if (rs_pbrt_resolve(rs_pbrt_lexer_file(&ctx->lexer), file, path, sizeof path))
        return rs_pbrt_fail(params, ctx->err, "the file name is too long");
    RsError err = {{0}};
    RsEnvMap* m = &ctx->scene->env_map;
    if (rs_env_map_load(m, path, "\"string filename\"", &err)) /* rs_pbrt_fail adds the file and line */
        return rs_pbrt_fail(params, ctx->err, "%s", err.message);
    if (m->width != m->height) {
        uint32_t w = m->width, h = m->height;
        rs_env_map_free(m);
        return rs_pbrt_fail(params, ctx->err, "\"%s\" is %ux%u: pbrt-v4's equal-area environment images must "
                                              "be square", path, w, h);
    }
    if (rs_env_map_set_octahedral(m, frame, "the light's transform", &err) || rs_file_list_add(ctx->files, path, &err)) {
        rs_env_map_free(m);
        return rs_pbrt_fail(params, ctx->err, "%s", err.message);
    }
    if (illuminance > 0.0) {
        double e = map_illuminance(m);
        if (e > 0.0)
            scale *= illuminance / e;
        else
            rs_scene_warn(ctx->scene, "%s: \"illuminance\" ignored: the image sends no light to +z", params->where);
    }
    env->zenith = rs_pack(rs_vec3_splat((float)scale), rs_uint_as_float(RS_ENV_MAP));
    env->horizon = rs_float4(1.0f, 0.0f, 0.0f, 0.0f);
    env->ground = rs_float4(0.0f, 0.0f, 0.0f, 0.0f);
    return 0;
}

int rs_pbrt_light(RsPbrtContext* ctx, const char* type, RsPbrtParams* params)
{
    double from[3] = {0.0, 0.0, 0.0}, to[3] = {0.0, 0.0, 1.0}, power = -1.0;
    RsVec3 colour;
    ++ctx->light_count;
    if (ctx->open_object >= 0)
        return rs_pbrt_fail(params, ctx->err, "a light inside ObjectBegin is not supported");
    if (strcmp(type, "point") == 0 || strcmp(type, "spot") == 0) {
        double cone = 30.0, delta = 5.0;
        if (emitted(ctx, params, "I", &colour) || rs_pbrt_get_point3(params, "from", from, ctx->err) ||
            rs_pbrt_get_float(params, "power", &power, ctx->err))
            return -1;
        if (type[0] == 'p') {
            if (power > 0.0)
                colour = rs_scale(colour, (float)(power / (4.0 * 3.14159265358979323846)));
            return rs_scene_add_point_light(ctx->scene, placed_point(ctx, from), colour, ctx->err);
        }
        if (rs_pbrt_get_point3(params, "to", to, ctx->err) || rs_pbrt_get_float(params, "coneangle", &cone, ctx->err) ||
            rs_pbrt_get_float(params, "conedeltaangle", &delta, ctx->err))
            return -1;
        if (!(cone > 0.0 && cone <= 90.0) || !(delta >= 0.0 && delta <= cone))
            return rs_pbrt_fail(params, ctx->err, "needs 0 < coneangle <= 90 and 0 <= conedeltaangle <= coneangle "
                                                  "(got %g and %g)", cone, delta);
        if (power > 0.0) {
            double end = cos(cone * 3.14159265358979323846 / 180.0);
            double start = cos((cone - delta) * 3.14159265358979323846 / 180.0);
            double k = 2.0 * 3.14159265358979323846 * ((1.0 - start) + (start - end) / 2.0);
            colour = rs_scale(colour, (float)(power / k));
        }
        double axis[3] = {to[0] - from[0], to[1] - from[1], to[2] - from[2]};
        RsVec3 dir = placed_vector(ctx, axis);
        if (!(rs_length(dir) > 0.0f))
            return rs_pbrt_fail(params, ctx->err, "\"from\" and \"to\" coincide");
        return rs_scene_add_spot_light(ctx->scene, placed_point(ctx, from), dir, colour, (float)cone, (float)delta,
                                       ctx->err);
    }
    if (strcmp(type, "distant") == 0) {
        double illuminance = -1.0;
        if (emitted(ctx, params, "L", &colour) || rs_pbrt_get_point3(params, "from", from, ctx->err) ||
            rs_pbrt_get_point3(params, "to", to, ctx->err) ||
            rs_pbrt_get_float(params, "illuminance", &illuminance, ctx->err))
            return -1;
        if (illuminance > 0.0)
            colour = rs_scale(colour, (float)illuminance);
        double axis[3] = {to[0] - from[0], to[1] - from[1], to[2] - from[2]}, w[3];
        RsPbrtMatrix a = rs_pbrt_placement(ctx);
        rs_pbrt_vector(&a, axis, w);
        double len = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
        if (!(len > 0.0))
            return rs_pbrt_fail(params, ctx->err, "\"from\" and \"to\" coincide");
        /* normalised in double, as the JSON loader does, so that a JSON twin renders identically */
        RsVec3 dir = rs_vec3((float)(w[0] / len), (float)(w[1] / len), (float)(w[2] / len));
        RsError err = {{0}};
        if (rs_scene_add_directional_light(ctx->scene, dir, colour, &err))
            return rs_pbrt_fail(params, ctx->err, "%s", err.message);
        return 0;
    }
    if (strcmp(type, "infinite") == 0) {
        const char* file = NULL;
        double illuminance = -1.0;
        if (rs_pbrt_get_string(params, "filename", &file, ctx->err))
            return -1;
        rs_pbrt_param(params, "portal");
        if (file)
            return image_light(ctx, params, file);
        if (emitted(ctx, params, "L", &colour) || rs_pbrt_get_float(params, "illuminance", &illuminance, ctx->err))
            return -1;
        if (illuminance > 0.0) /* a constant L gives an upward patch the illuminance pi L */
            colour = rs_scale(colour, (float)(illuminance / 3.14159265358979323846));
        RsEnvironment* env = &ctx->scene->env;
        if (rs_float_as_uint(env->zenith.w) == RS_ENV_CONSTANT &&
            (env->zenith.x > 0.0f || env->zenith.y > 0.0f || env->zenith.z > 0.0f)) {
            rs_scene_warn(ctx->scene, "%s: a second infinite light is added to the first", params->where);
            colour = rs_add(colour, rs_xyz(env->zenith));
        }
        env->zenith = rs_pack(colour, rs_uint_as_float(RS_ENV_CONSTANT));
        return 0;
    }
    return rs_pbrt_fail(params, ctx->err, "not supported (raystream reads point, spot, distant and constant "
                                          "infinite lights)");
}

int rs_pbrt_area_light(RsPbrtContext* ctx, const char* type, RsPbrtParams* params)
{
    if (strcmp(type, "diffuse") != 0)
        return rs_pbrt_fail(params, ctx->err, "not supported (only \"diffuse\" area lights)");
    const char* file = NULL;
    double power = -1.0;
    if (rs_pbrt_get_string(params, "filename", &file, ctx->err) || rs_pbrt_get_float(params, "power", &power, ctx->err))
        return -1;
    if (file)
        return rs_pbrt_fail(params, ctx->err, "an image-textured area light is not supported");
    if (power > 0.0)
        return rs_pbrt_fail(params, ctx->err, "\"power\" is not supported (give \"L\" and \"scale\")");
    RsPbrtAreaLight light = {rs_vec3_splat(1.0f), 0};
    if (emitted(ctx, params, "L", &light.radiance) || rs_pbrt_get_bool(params, "twosided", &light.two_sided, ctx->err))
        return -1;
    if (rs_array_push(&ctx->area_lights, light, ctx->err))
        return -1;
    ctx->gs.area_light = (int32_t)(ctx->area_lights.count - 1);
    return 0;
}
