/* pbrt_textures.c - pbrt-v4's Texture directive and texture-valued material parameters.
 * Host C11.
 *
 * "imagemap" (PNG or JPEG through texture.c; "encoding" sRGB or linear, as pbrt-v4 applies it:
 * to PNG files only, float textures included, JPEG files being sRGB; "wrap" repeat or
 * clamp), "checkerboard" (2D, constant tex1 and tex2, through rs_scene_add_checkerboard),
 * "constant", and "scale" of one of those by a constant: exact for constants and checkerboards;
 * an image scaled by anything but 1 (or with its own "scale") is baked, since raystream's
 * textures have no multiplier: decoded, each texel multiplied in linear light, stored again in
 * 8 bits (with a warning; values beyond 1 are clipped). uscale, vscale,
 * udelta, vdelta become the material's uv_transform: pbrt-v4 reads (su u + du, sv v + dv), with
 * the image's t running upwards as raystream's v does. pbrt's checkerboard squares are one unit
 * of (s, t), raystream's half a unit: the transform carries the factor of 1/2.
 *
 * A texture raystream cannot make is refused where a material or shape uses it, not where it is
 * defined: scenes define textures for parameters that are ignored with a warning (a material's
 * "displacement"), and those should not stop the scene.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "host/import/pbrt/pbrt_context.h"
#include "host/import/pbrt/pbrt_spectra.h"
#include "host/io/image_decode.h"
#include "host/io/safe_file.h"

static int find_texture(const RsPbrtContext* ctx, const char* name, int is_float)
{
    for (size_t i = ctx->textures.count; i-- > 0;)
        if (ctx->textures.data[i].is_float == is_float && strcmp(ctx->textures.data[i].name, name) == 0)
            return (int)i;
    return -1;
}

static int refuse(RsPbrtTexture* t, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

/* A constant of the texture's kind: a float or a colour, or the name of a constant texture;
 * another texture here makes `into` refused. */
static int constant_of(RsPbrtContext* ctx, RsPbrtParams* params, const char* name, int is_float, RsVec3* out,
                       int* found, RsPbrtTexture* into)
{
    RsPbrtParam* p = rs_pbrt_param(params, name);
    *found = 0;
    if (!p)
        return 0;
    if (strcmp(p->type, "texture") == 0) {
        int t = p->string_count == 1 ? find_texture(ctx, p->strings[0], is_float) : -1;
        if (t < 0)
            return rs_pbrt_param_fail(params, p, ctx->err, "no %s texture of that name", is_float ? "float" : "spectrum");
        if (ctx->textures.data[t].kind != RS_PBRT_TEX_CONSTANT || ctx->textures.data[t].refused)
            return refuse(into, "\"%s\": only a constant is supported here", p->name);
        *out = ctx->textures.data[t].value;
        *found = 1;
        return 0;
    }
    p->used = 0;
    return rs_pbrt_get_colour(params, name, RS_PBRT_REFLECTANCE, out, found, ctx->err);
}

/* Records why the texture cannot be made (the first reason); returns 0 so that reading goes on. */
static int refuse(RsPbrtTexture* t, const char* fmt, ...)
{
    if (t->refused)
        return 0;
    char message[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    t->refused = strdup(message);
    return 0;
}

/* Fills *t (whose allocations the caller frees on failure). */
static int define(RsPbrtContext* ctx, const char* value_type, const char* class_name, RsPbrtParams* params,
                  RsPbrtTexture* out)
{
    int is_float = strcmp(value_type, "float") == 0;
    RsPbrtTexture t = *out;
    double su = 1.0, sv = 1.0, du = 0.0, dv = 0.0;
    const char* mapping = NULL;
    if (rs_pbrt_get_float(params, "uscale", &su, ctx->err) || rs_pbrt_get_float(params, "vscale", &sv, ctx->err) ||
        rs_pbrt_get_float(params, "udelta", &du, ctx->err) || rs_pbrt_get_float(params, "vdelta", &dv, ctx->err) ||
        rs_pbrt_get_string(params, "mapping", &mapping, ctx->err))
        return -1;
    if (mapping && strcmp(mapping, "uv") != 0)
        refuse(&t, "mapping \"%s\" is not supported (only \"uv\")", mapping);
    float uv[6] = {(float)su, 0.0f, (float)du, 0.0f, (float)sv, (float)dv};
    int found = 0;
    if (strcmp(class_name, "imagemap") == 0) {
        const char* file = NULL;
        const char* encoding = NULL;
        const char* wrap = "repeat";
        double scale = 1.0;
        int invert = 0;
        if (rs_pbrt_get_string(params, "filename", &file, ctx->err) ||
            rs_pbrt_get_string(params, "encoding", &encoding, ctx->err) ||
            rs_pbrt_get_string(params, "wrap", &wrap, ctx->err) || rs_pbrt_get_float(params, "scale", &scale, ctx->err) ||
            rs_pbrt_get_bool(params, "invert", &invert, ctx->err))
            return *out = t, -1;
        t.value = rs_vec3_splat((float)scale);
        rs_pbrt_param(params, "filter"); /* raystream filters trilinearly, with ray cones */
        rs_pbrt_param(params, "maxanisotropy");
        if (!file)
            return *out = t, rs_pbrt_fail(params, ctx->err, "needs \"string filename\"");
        if (!(scale >= 0.0))
            refuse(&t, "\"scale\" must be >= 0 (got %g)", scale);
        if (invert)
            refuse(&t, "\"invert\" is not supported");
        t.kind = RS_PBRT_TEX_IMAGE;
        /* as pbrt-v4 reads 8-bit images, float textures too: a PNG by its "encoding" (sRGB unless
         * it says linear), a JPEG always as sRGB */
        size_t length = strlen(file);
        int png = length >= 4 && strcasecmp(file + length - 4, ".png") == 0;
        t.flags = RS_TEXTURE_SRGB;
        if (encoding && strcmp(encoding, "linear") == 0 && png)
            t.flags = 0u;
        else if (encoding && strcmp(encoding, "linear") != 0 && strcmp(encoding, "sRGB") != 0)
            refuse(&t, "encoding \"%s\" is not supported (sRGB or linear)", encoding);
        if (strcmp(wrap, "clamp") == 0)
            t.flags |= RS_TEXTURE_CLAMP;
        else if (strcmp(wrap, "repeat") != 0)
            refuse(&t, "wrap \"%s\" is not supported (repeat or clamp)", wrap);
        char path[4096];
        if (rs_pbrt_resolve(rs_pbrt_lexer_file(&ctx->lexer), file, path, sizeof path))
            return *out = t, rs_pbrt_fail(params, ctx->err, "the file name is too long");
        t.file = strdup(path);
        if (!t.file)
            return *out = t, rs_pbrt_fail(params, ctx->err, "out of memory");
    } else if (strcmp(class_name, "checkerboard") == 0) {
        long dimension = 2;
        int found1 = 0, found2 = 0;
        t.colour0 = rs_vec3_splat(1.0f);
        t.colour1 = rs_vec3_splat(0.0f);
        if (rs_pbrt_get_int(params, "dimension", &dimension, ctx->err) ||
            constant_of(ctx, params, "tex1", is_float, &t.colour0, &found1, &t) ||
            constant_of(ctx, params, "tex2", is_float, &t.colour1, &found2, &t))
            return *out = t, -1;
        if (dimension != 2)
            refuse(&t, "only 2D checkerboards are supported");
        t.kind = RS_PBRT_TEX_CHECKER;
        for (int i = 0; i < 6; ++i)
            uv[i] *= 0.5f;
    } else if (strcmp(class_name, "constant") == 0) {
        t.kind = RS_PBRT_TEX_CONSTANT;
        t.value = rs_vec3_splat(1.0f);
        if (constant_of(ctx, params, "value", is_float, &t.value, &found, &t))
            return *out = t, -1;
    } else if (strcmp(class_name, "scale") == 0) {
        RsVec3 scale = rs_vec3_splat(1.0f);
        if (constant_of(ctx, params, "scale", 1, &scale, &found, &t))
            return *out = t, -1;
        RsPbrtParam* p = rs_pbrt_param(params, "tex");
        int base = p && strcmp(p->type, "texture") == 0 && p->string_count == 1
                       ? find_texture(ctx, p->strings[0], is_float)
                       : -1;
        if (p && strcmp(p->type, "texture") == 0 && base < 0)
            return *out = t, rs_pbrt_fail(params, ctx->err, "\"tex\": no %s texture named \"%s\"", value_type,
                                          p->string_count ? p->strings[0] : "");
        if (base >= 0) {
            char* refused = t.refused; /* a refused scale stays refused, whatever the base */
            t = ctx->textures.data[base];
            t.file = t.file ? strdup(t.file) : NULL;
            t.refused = refused ? refused : t.refused ? strdup(t.refused) : NULL;
            if (t.kind == RS_PBRT_TEX_CONSTANT) {
                t.value = rs_mul(t.value, scale);
            } else if (t.kind == RS_PBRT_TEX_CHECKER) {
                t.colour0 = rs_mul(t.colour0, scale);
                t.colour1 = rs_mul(t.colour1, scale);
                t.index = -1;
            } else {
                t.value = rs_mul(t.value, scale); /* baked where it is used */
                t.index = -1;
            }
            memcpy(uv, t.uv_transform, sizeof uv);
        } else {
            RsVec3 value = rs_vec3_splat(1.0f);
            if (p)
                p->used = 0;
            if (constant_of(ctx, params, "tex", is_float, &value, &found, &t))
                return *out = t, -1;
            t.kind = RS_PBRT_TEX_CONSTANT;
            t.value = rs_mul(value, scale);
        }
        t.is_float = is_float;
    } else {
        refuse(&t, "not supported (raystream reads imagemap, checkerboard, constant and scale textures)");
        for (size_t i = 0; i < params->count; ++i)
            params->items[i].used = 1; /* named when the texture is used, if it ever is */
    }
    memcpy(t.uv_transform, uv, sizeof uv);
    t.is_float = is_float;
    *out = t;
    return 0;
}

int rs_pbrt_texture(RsPbrtContext* ctx, const char* name, const char* value_type, const char* class_name,
                    RsPbrtParams* params)
{
    int is_float = strcmp(value_type, "float") == 0;
    if (!is_float && strcmp(value_type, "spectrum") != 0 && strcmp(value_type, "color") != 0)
        return rs_pbrt_fail(params, ctx->err, "the value type must be \"float\" or \"spectrum\"");
    RsPbrtTexture t;
    memset(&t, 0, sizeof t);
    t.index = -1;
    int status = define(ctx, value_type, class_name, params, &t);
    if (!status) {
        t.name = strdup(name);
        t.where = strdup(params->where);
        if (!t.name || !t.where || rs_array_push(&ctx->textures, t, ctx->err))
            status = rs_pbrt_fail(params, ctx->err, "out of memory");
    }
    if (status) {
        free(t.name);
        free(t.where);
        free(t.file);
        free(t.refused);
    }
    return status;
}

static uint8_t srgb_encode(float linear)
{
    float c = linear <= 0.0f ? 0.0f : linear >= 1.0f ? 1.0f : linear;
    float e = c <= 0.0031308f ? 12.92f * c : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
    return (uint8_t)(e * 255.0f + 0.5f);
}

/* The image of t multiplied by t->value, as a new texture (see the top). */
static int32_t bake(RsPbrtContext* ctx, RsPbrtTexture* t, uint32_t flags)
{
    char why[256];
    size_t size = 0;
    unsigned char* bytes = (unsigned char*)rs_file_read_all(t->file, RS_TEXTURE_MAX_FILE_BYTES, &size, why, sizeof why);
    if (!bytes)
        return rs_error_set(ctx->err, "%s: texture '%s': cannot read: %s", t->where, t->file, why);
    RsImageLimits limits = {RS_TEXTURE_MAX_SIZE, RS_TEXTURE_MAX_SIZE, RS_TEXTURE_MAX_BYTES};
    RsImage image;
    RsError decode = {{0}};
    int status = rs_image_decode(bytes, size, &limits, &image, &decode);
    free(bytes);
    if (status)
        return rs_error_set(ctx->err, "%s: texture '%s': %s", t->where, t->file, decode.message);
    if (rs_file_list_add(ctx->files, t->file, ctx->err)) {
        rs_image_free(&image);
        return -1;
    }
    if (!image.rgba8) {
        rs_image_free(&image);
        return rs_error_set(ctx->err, "%s: texture '%s': textures are 8-bit PNG or JPEG images", t->where, t->file);
    }
    const float scale[3] = {t->value.x, t->value.y, t->value.z};
    size_t clipped = 0;
    for (size_t i = 0, n = (size_t)image.width * image.height; i < n; ++i)
        for (int c = 0; c < 3; ++c) {
            uint8_t* v = &image.rgba8[4 * i + (size_t)c];
            float linear = (flags & RS_TEXTURE_SRGB) ? rs_srgb_decode(*v / 255.0f) * scale[c] : *v / 255.0f * scale[c];
            clipped += linear > 1.0f;
            *v = (flags & RS_TEXTURE_SRGB) ? srgb_encode(linear)
                                           : (uint8_t)(fminf(fmaxf(linear, 0.0f), 1.0f) * 255.0f + 0.5f);
        }
    char name[4400];
    snprintf(name, sizeof name, "%s*%g,%g,%g", t->file, scale[0], scale[1], scale[2]);
    int32_t index = rs_texture_add_rgba8(&ctx->scene->textures, name, image.rgba8, image.width, image.height, flags,
                                         ctx->err);
    rs_image_free(&image);
    if (index >= 0)
        rs_scene_warn(ctx->scene, "%s: the image '%s' times (%g, %g, %g) is baked into a new 8-bit texture%s", t->where,
                      t->file, scale[0], scale[1], scale[2], clipped ? "; texels beyond 1 are clipped" : "");
    return index;
}

int rs_pbrt_texture_param(RsPbrtContext* ctx, RsPbrtParams* params, const char* name, int is_float,
                          uint32_t load_flags, uint32_t* texture, float uv_transform[6], RsVec3* value, int* found)
{
    static const float identity[6] = {1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f};
    memcpy(uv_transform, identity, sizeof identity);
    *texture = RS_NO_TEXTURE;
    *found = 0;
    RsPbrtParam* p = rs_pbrt_param(params, name);
    if (!p)
        return 0;
    if (strcmp(p->type, "texture") != 0) {
        p->used = 0;
        return rs_pbrt_get_colour(params, name, RS_PBRT_REFLECTANCE, value, found, ctx->err);
    }
    if (p->string_count != 1)
        return rs_pbrt_param_fail(params, p, ctx->err, "must name one texture");
    int i = find_texture(ctx, p->strings[0], is_float);
    if (i < 0)
        return rs_pbrt_param_fail(params, p, ctx->err, "no %s texture named \"%s\"", is_float ? "float" : "spectrum",
                                  p->strings[0]);
    RsPbrtTexture* t = &ctx->textures.data[i];
    *found = 1;
    if (t->refused)
        return rs_pbrt_param_fail(params, p, ctx->err, "%s: %s", t->where, t->refused);
    if (t->kind == RS_PBRT_TEX_CONSTANT) {
        *value = t->value;
        return 0;
    }
    if (t->kind == RS_PBRT_TEX_CHECKER) {
        if (load_flags & RS_TEXTURE_LOAD_MASK)
            return rs_pbrt_param_fail(params, p, ctx->err, "a checkerboard as a cut-out mask is not supported");
        if (t->index < 0) {
            RsError err = {{0}};
            t->index = rs_scene_add_checkerboard(ctx->scene, t->colour0, t->colour1, &err);
            if (t->index < 0)
                return rs_pbrt_param_fail(params, p, ctx->err, "%s: %s", t->where, err.message);
        }
        *texture = (uint32_t)t->index;
        memcpy(uv_transform, t->uv_transform, 6 * sizeof(float));
        return 0;
    }
    uint32_t flags = (load_flags & RS_TEXTURE_LOAD_MASK) ? (t->flags & RS_TEXTURE_CLAMP) | RS_TEXTURE_LOAD_MASK
                                                        : t->flags;
    if (t->value.x != 1.0f || t->value.y != 1.0f || t->value.z != 1.0f) {
        if (load_flags & RS_TEXTURE_LOAD_MASK)
            return rs_pbrt_param_fail(params, p, ctx->err, "%s: a scaled image as a cut-out mask is not supported",
                                      t->where);
        if (t->index < 0)
            t->index = bake(ctx, t, flags);
        if (t->index < 0)
            return -1;
        *texture = (uint32_t)t->index;
        memcpy(uv_transform, t->uv_transform, 6 * sizeof(float));
        return 0;
    }
    int32_t index = rs_texture_load(&ctx->scene->textures, t->file, flags, t->where, ctx->err);
    if (index < 0 || rs_file_list_add(ctx->files, t->file, ctx->err))
        return -1;
    *texture = (uint32_t)index;
    memcpy(uv_transform, t->uv_transform, 6 * sizeof(float));
    return 0;
}
