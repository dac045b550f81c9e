/* convert_material.c - the scene's materials as JSON, from their descriptions (material.h),
 * with their textures cited by path or written out as PNG files (see convert_plan.h). Host
 * C11, application layer.
 *
 * A texture is cited by the path it was loaded from when the load read that file and the
 * JSON key it goes under loads it the same way (sRGB or linear, wrap); a texture made in
 * memory (an embedded glTF image) is written as a PNG of its full-resolution texels, and so is
 * a roughness read from another channel than the first (glTF keeps it in green): its channel
 * becomes a grey image, since scene JSON reads roughness from the first. The mip chains the
 * loader builds from those texels are then the same as the scene's. Anything else that JSON
 * cannot say (a description never recorded, a texture kind it has no key for) is an error
 * naming the material.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/convert/convert_plan.h"
#include "host/scene/material.h"
#include "host/scene/texture.h"

typedef enum Role { ROLE_COLOUR, ROLE_ALPHA, ROLE_EMISSION, ROLE_ROUGHNESS, ROLE_NORMAL, ROLE_BUMP } Role;

static const char* role_name(Role r)
{
    static const char* const names[] = {"colour", "alpha (cut-out)", "emission", "roughness", "normal map", "bump map"};
    return names[r];
}

/* The flags the JSON reader loads a texture of this role with, as the texture keeps them
 * (RS_TEXTURE_SRGB, RS_TEXTURE_CLAMP; a mask keeps no flag) and as its key names them (a mask
 * is loaded with RS_TEXTURE_LOAD_MASK, which the key records). */
static uint32_t stored_flags_of(Role r) { return r == ROLE_COLOUR || r == ROLE_EMISSION ? RS_TEXTURE_SRGB : 0u; }
static uint32_t key_flags_of(Role r) { return r == ROLE_ALPHA ? RS_TEXTURE_LOAD_MASK : stored_flags_of(r); }

/* The PNG of texture `t`'s first mip level: as it is, or (channel > 0) that channel as grey. */
static int png_of(RsConvertPlan* plan, const char* material, uint32_t t, uint32_t channel, const char** name,
                  RsError* err)
{
    int32_t* known = &plan->texture_written[t * 8 + channel];
    if (*known) {
        *name = strrchr(plan->files[*known - 1].path, '/') + 1;
        return 0;
    }
    const RsTextureSet* set = &plan->scene->textures;
    RsUint4 d = set->descriptors.data[t];
    uint32_t w = d.y, h = d.z;
    uint8_t* rgba = malloc((size_t)w * h * 4);
    char* role = malloc(strlen(material) + strlen(set->keys.data[t]) + 96);
    if (!rgba || !role) {
        free(rgba);
        free(role);
        return rs_error_set(err, "out of memory");
    }
    for (size_t i = 0; i < (size_t)w * h; ++i) {
        uint32_t texel = set->texels.data[d.x + i];
        for (int c = 0; c < 4; ++c)
            rgba[4 * i + c] = (uint8_t)(texel >> (8 * (channel ? channel : (uint32_t)c)));
        if (channel)
            rgba[4 * i + 3] = 255;
    }
    sprintf(role, "texture of material '%s' (%s%s)", material, set->keys.data[t] + strcspn(set->keys.data[t], ":") + 1,
            channel ? ", one channel" : "");
    RsConvertFile f = {RS_CONVERT_PNG, NULL, role, NULL, 0, rgba, NULL, w, h};
    char suffix[48];
    snprintf(suffix, sizeof suffix, ".texture-%u.png", plan->texture_count++);
    if (rs_convert_add_file(plan, &f, suffix, name, err)) {
        free(rgba);
        free(role);
        return -1;
    }
    *known = (int32_t)plan->file_count;
    return 0;
}

/* {"checkerboard": [colour0, colour1]} for checkerboard `t` (kernel/texture/texture.h keeps
 * its two colours as float bits), added to `node`. Scene JSON reads a checkerboard as a colour
 * or an emission, each of its colours in [0, 1]. */
static int add_checkerboard(RsConvertPlan* plan, const char* material, Role r, uint32_t t, cJSON* node, RsError* err)
{
    const RsTextureSet* set = &plan->scene->textures;
    const char* file = plan->scene->file ? plan->scene->file : "scene";
    if (r != ROLE_COLOUR && r != ROLE_EMISSION)
        return rs_error_set(err, "%s: material '%s': its %s texture is a checkerboard, and scene JSON has a "
                            "checkerboard only as a colour or an emission", file, material, role_name(r));
    const uint32_t* texels = set->texels.data + set->descriptors.data[t].x;
    cJSON* pair = cJSON_AddArrayToObject(node, "checkerboard");
    for (int c = 0; c < 2; ++c) {
        float v[3];
        for (int k = 0; k < 3; ++k) {
            v[k] = rs_uint_as_float(texels[4 * c + k]);
            if (!(v[k] >= 0.0f && v[k] <= 1.0f))
                return rs_error_set(err, "%s: material '%s': its %s checkerboard's colour %d has a channel of %g, and "
                                    "scene JSON's checkerboard colours are in [0, 1]", file, material, role_name(r),
                                    c, (double)v[k]);
        }
        cJSON_AddItemToArray(pair, rs_convert_vec3(rs_vec3(v[0], v[1], v[2])));
    }
    return 0;
}

/* {"texture": PATH} (and "wrap": "clamp" for a clamped colour) for texture `t` in role `r`,
 * added to `node`; channel: which channel a roughness is read from. A checkerboard becomes
 * {"checkerboard": ...}. */
static int add_texture(RsConvertPlan* plan, const char* material, Role r, uint32_t t, uint32_t channel, cJSON* node,
                       RsError* err)
{
    const RsTextureSet* set = &plan->scene->textures;
    const char* file = plan->scene->file ? plan->scene->file : "scene";
    if (t >= set->descriptors.count)
        return rs_error_set(err, "%s: material '%s': its %s texture (%u) does not exist", file, material, role_name(r), t);
    uint32_t stored = set->descriptors.data[t].w >> 8;
    if (stored & RS_TEXTURE_CHECKER)
        return add_checkerboard(plan, material, r, t, node, err);
    const char* key = set->keys.data[t];
    char* end = NULL;
    unsigned long key_flags = strtoul(key, &end, 10);
    const char* path = end && *end == ':' ? end + 1 : key;
    /* a colour may be clamped; a cut-out reads only the alpha channel, which is linear in every
     * texture (texture.c), so one loaded as sRGB colour (glTF's base colour doubling as its
     * alpha) reads the same as the mask scene JSON loads */
    uint32_t allowed = r == ROLE_COLOUR ? RS_TEXTURE_CLAMP : r == ROLE_ALPHA ? RS_TEXTURE_SRGB : 0u;
    if ((stored & ~(uint32_t)(RS_TEXTURE_SRGB | RS_TEXTURE_CLAMP)) || (key_flags & ~0x83ul))
        return rs_error_set(err, "%s: material '%s': its %s texture '%s' is of a kind that scene JSON cannot name",
                            file, material, role_name(r), path);
    if ((stored & ~allowed) != (stored_flags_of(r) & ~allowed))
        return rs_error_set(err, "%s: material '%s': its %s texture '%s' is read as %s%s, and scene JSON reads a %s "
                            "texture as %s%s", file, material, role_name(r), path,
                            (stored & RS_TEXTURE_SRGB) ? "sRGB colour" : "linear values",
                            (stored & RS_TEXTURE_CLAMP) ? " clamped at the edges" : "", role_name(r),
                            stored_flags_of(r) ? "sRGB colour" : "linear values",
                            r == ROLE_COLOUR ? "" : " with the image repeated");
    if (channel > 3)
        return rs_error_set(err, "%s: material '%s': roughness channel %u does not exist", file, material, channel);
    int from_file = rs_file_list_contains(plan->files_read, path) && (key_flags & ~(unsigned long)RS_TEXTURE_CLAMP) ==
                                                                        key_flags_of(r);
    const char* name = NULL;
    char* cited = NULL;
    if (from_file && channel == 0) {
        cited = rs_convert_cite(plan, path, err);
        if (!cited)
            return -1;
        name = cited;
    } else if (png_of(plan, material, t, channel, &name, err)) {
        return -1;
    }
    cJSON_AddStringToObject(node, "texture", name);
    free(cited);
    if (r == ROLE_COLOUR && (stored & RS_TEXTURE_CLAMP))
        cJSON_AddStringToObject(node, "wrap", "clamp");
    return 0;
}

/* key: [r, g, b], or {"texture": ...} when the colour is an image. */
static int add_colour(RsConvertPlan* plan, const char* name, const RsMaterialDesc* d, const char* key, cJSON* node,
                      RsError* err)
{
    if (d->colour_texture == RS_NO_TEXTURE) {
        cJSON_AddItemToObject(node, key, rs_convert_vec3(d->colour));
        return 0;
    }
    cJSON* t = cJSON_AddObjectToObject(node, key);
    return add_texture(plan, name, ROLE_COLOUR, d->colour_texture, 0, t, err);
}

static int add_roughness(RsConvertPlan* plan, const char* name, const RsMaterialDesc* d, cJSON* node, RsError* err)
{
    if (d->roughness_texture != RS_NO_TEXTURE) {
        cJSON* t = cJSON_AddObjectToObject(node, "roughness");
        return add_texture(plan, name, ROLE_ROUGHNESS, d->roughness_texture, d->roughness_channel, t, err);
    }
    if (d->roughness_u == d->roughness_v) {
        if (d->roughness_u != 0.0f)
            cJSON_AddItemToObject(node, "roughness", rs_convert_number(d->roughness_u));
    } else {
        cJSON_AddItemToObject(node, "roughness_u", rs_convert_number(d->roughness_u));
        cJSON_AddItemToObject(node, "roughness_v", rs_convert_number(d->roughness_v));
    }
    return 0;
}

static int add_emission(RsConvertPlan* plan, const char* name, const RsMaterialDesc* d, cJSON* node, RsError* err)
{
    if (d->emission_texture != RS_NO_TEXTURE) {
        cJSON* t = cJSON_AddObjectToObject(node, "emission");
        if (add_texture(plan, name, ROLE_EMISSION, d->emission_texture, 0, t, err))
            return -1;
        cJSON_AddItemToObject(t, "scale", rs_convert_vec3(d->emission));
    } else if (d->emission.x != 0.0f || d->emission.y != 0.0f || d->emission.z != 0.0f) {
        cJSON_AddItemToObject(node, "emission", rs_convert_vec3(d->emission));
    }
    return 0;
}

/* "uv_transform", "alpha_mode", "alpha_cutoff", "opacity": keys every type has, the emissive one
 * too. A blend ignores the cutoff (kernel/accel/cutout.h), and scene JSON refuses one with it, so
 * a blend's is not written. */
static int add_uv_and_alpha(RsConvertPlan* plan, const char* name, const RsMaterialDesc* d, cJSON* node, RsError* err)
{
    const char* file = plan->scene->file ? plan->scene->file : "scene";
    const float identity[6] = {1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f};
    if (memcmp(d->uv_transform, identity, sizeof identity) != 0) {
        cJSON* m = cJSON_AddArrayToObject(node, "uv_transform");
        for (int i = 0; i < 6; ++i)
            cJSON_AddItemToArray(m, rs_convert_number(d->uv_transform[i]));
    }
    if (d->alpha_mode == RS_ALPHA_BLEND)
        cJSON_AddStringToObject(node, "alpha_mode", "blend");
    else if (d->alpha_mode != RS_ALPHA_MASK)
        return rs_error_set(err, "%s: material '%s': alpha mode %u has no name in scene JSON", file, name, d->alpha_mode);
    if (d->alpha_mode == RS_ALPHA_MASK && d->alpha_cutoff != 0.5f) {
        if (!(d->alpha_cutoff >= 0.0f && d->alpha_cutoff <= 1.0f))
            return rs_error_set(err, "%s: material '%s': alpha cutoff %g, and scene JSON's is in [0, 1]", file, name,
                                (double)d->alpha_cutoff);
        cJSON_AddItemToObject(node, "alpha_cutoff", rs_convert_number(d->alpha_cutoff));
    }
    if (d->opacity != 1.0f) {
        if (!(d->opacity >= 0.0f && d->opacity <= 1.0f))
            return rs_error_set(err, "%s: material '%s': opacity %g, and scene JSON's is in [0, 1]", file, name,
                                (double)d->opacity);
        cJSON_AddItemToObject(node, "opacity", rs_convert_number(d->opacity));
    }
    return 0;
}

/* The keys every material but a pure emitter may have: maps, cut-out, texture transform, alpha. */
static int add_surface(RsConvertPlan* plan, const char* name, const RsMaterialDesc* d, int cut_outs, cJSON* node,
                       RsError* err)
{
    const char* file = plan->scene->file ? plan->scene->file : "scene";
    if (d->normal_map != RS_NO_TEXTURE && d->bump_map != RS_NO_TEXTURE)
        return rs_error_set(err, "%s: material '%s' has both a normal map and a bump map, which scene JSON cannot say",
                            file, name);
    if (d->normal_map != RS_NO_TEXTURE &&
        add_texture(plan, name, ROLE_NORMAL, d->normal_map, 0, cJSON_AddObjectToObject(node, "normal_map"), err))
        return -1;
    if (d->bump_map != RS_NO_TEXTURE) {
        cJSON* t = cJSON_AddObjectToObject(node, "bump_map");
        if (add_texture(plan, name, ROLE_BUMP, d->bump_map, 0, t, err))
            return -1;
        cJSON_AddItemToObject(t, "scale", rs_convert_number(d->bump_scale));
    }
    if (d->alpha_texture != RS_NO_TEXTURE) {
        if (!cut_outs)
            return rs_error_set(err, "%s: material '%s': a cut-out (alpha) texture on this type of material, which scene "
                                "JSON allows only on diffuse and plastic ones", file, name);
        if (add_texture(plan, name, ROLE_ALPHA, d->alpha_texture, 0, cJSON_AddObjectToObject(node, "alpha"), err))
            return -1;
    }
    return add_uv_and_alpha(plan, name, d, node, err);
}

/* A black diffuse surface that emits: scene JSON's "emissive" type, which has the texture
 * transform and alpha keys but no maps and no cut-out texture. */
static int pure_emitter(const RsMaterialDesc* d)
{
    return d->type == RS_MAT_DIFFUSE && d->colour.x == 0.0f && d->colour.y == 0.0f && d->colour.z == 0.0f &&
           d->colour_texture == RS_NO_TEXTURE && d->alpha_texture == RS_NO_TEXTURE && d->normal_map == RS_NO_TEXTURE &&
           d->bump_map == RS_NO_TEXTURE &&
           (d->emission_texture != RS_NO_TEXTURE || d->emission.x > 0.0f || d->emission.y > 0.0f || d->emission.z > 0.0f);
}

static int add_material(RsConvertPlan* plan, uint32_t i, cJSON* materials, RsError* err)
{
    const RsScene* s = plan->scene;
    const char* file = s->file ? s->file : "scene";
    const char* name = s->material_names.data[i];
    const RsMaterialDesc* d = &s->material_descs.data[i];
    if (d->type == RS_MATERIAL_DESC_UNKNOWN)
        return rs_error_set(err, "%s: material '%s' was made without a description (as kernel blocks only), so "
                            "raystream convert cannot write it", file, name);
    cJSON* node = cJSON_CreateObject();
    if (!node)
        return rs_error_set(err, "out of memory");
    cJSON_AddItemToArray(materials, node);
    cJSON_AddStringToObject(node, "name", name);
    int status = 0;
    if (pure_emitter(d)) {
        cJSON_AddStringToObject(node, "type", "emissive");
        status = add_emission(plan, name, d, node, err) || add_uv_and_alpha(plan, name, d, node, err);
    } else {
        switch (d->type) {
        case RS_MAT_DIFFUSE:
            cJSON_AddStringToObject(node, "type", "diffuse");
            status = add_colour(plan, name, d, "albedo", node, err) || add_surface(plan, name, d, 1, node, err);
            break;
        case RS_MAT_MIRROR:
            cJSON_AddStringToObject(node, "type", "mirror");
            status = add_colour(plan, name, d, "color", node, err) || add_surface(plan, name, d, 0, node, err);
            break;
        case RS_MAT_CONDUCTOR:
            cJSON_AddStringToObject(node, "type", "conductor");
            if (d->has_eta_k && d->colour_texture == RS_NO_TEXTURE) {
                cJSON_AddItemToObject(node, "eta", rs_convert_vec3(d->eta));
                cJSON_AddItemToObject(node, "k", rs_convert_vec3(d->k));
            } else {
                status = add_colour(plan, name, d, "color", node, err);
            }
            status = status || add_roughness(plan, name, d, node, err) || add_surface(plan, name, d, 0, node, err);
            break;
        case RS_MAT_DIELECTRIC:
            cJSON_AddStringToObject(node, "type", "dielectric");
            cJSON_AddItemToObject(node, "ior", rs_convert_number(d->ior));
            status = add_colour(plan, name, d, "color", node, err) || add_roughness(plan, name, d, node, err) ||
                     add_surface(plan, name, d, 0, node, err);
            break;
        case RS_MAT_PLASTIC:
            cJSON_AddStringToObject(node, "type", "plastic");
            cJSON_AddItemToObject(node, "ior", rs_convert_number(d->ior));
            status = add_colour(plan, name, d, "color", node, err) || add_roughness(plan, name, d, node, err) ||
                     add_surface(plan, name, d, 1, node, err);
            break;
        case RS_MAT_THIN_DIELECTRIC:
            cJSON_AddStringToObject(node, "type", "thin_dielectric");
            cJSON_AddItemToObject(node, "ior", rs_convert_number(d->ior));
            status = add_colour(plan, name, d, "color", node, err) || add_surface(plan, name, d, 0, node, err);
            break;
        default:
            return rs_error_set(err, "%s: material '%s' is of a type (%u) that scene JSON cannot name", file, name,
                                d->type);
        }
        status = status || add_emission(plan, name, d, node, err);
    }
    if (!status && d->two_sided)
        cJSON_AddTrueToObject(node, "two_sided");
    return status ? -1 : 0;
}

int rs_convert_materials(RsConvertPlan* plan, cJSON* materials, RsError* err)
{
    const RsScene* s = plan->scene;
    if (s->material_descs.count != s->materials.count)
        return rs_error_set(err, "%s: internal error: %zu material descriptions for %zu materials",
                            s->file ? s->file : "scene", s->material_descs.count, s->materials.count);
    for (uint32_t i = 0; i < (uint32_t)s->materials.count; ++i)
        if (add_material(plan, i, materials, err))
            return -1;
    return 0;
}
