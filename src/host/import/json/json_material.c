/* json_material.c - reading material objects of a JSON scene (see json_material.h).
 * Host C11.
 *
 * Each type has its list of keys; every key is optional except where stated (scenes/README.md
 * has the table). Roughness is perceptual, as in glTF, Blender and Unreal: GGX alpha =
 * roughness^2 (material.c); "roughness" sets both directions, "roughness_u" and "roughness_v"
 * (both or neither) make it anisotropic. A diffuse albedo or plastic colour may be an image
 * ({"texture": ...}), any emission too ({"texture": ..., "scale": ...}), and diffuse and plastic
 * materials may carry a cut-out mask ("alpha"); every type but emissive may carry a normal map
 * ("normal_map": {"texture": ...}) or a bump map ("bump_map": {"texture": ..., "scale": s});
 * images load through texture.c, once per file.
 */
#include "host/import/json/json_material.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "host/scene/settings.h"

static int32_t load_texture(const RsJsonReader* r, const char* where, const char* name, const char* file,
                            uint32_t flags);

/* A texture object {"texture": "file", ...} at `where`, allowed `keys` (any besides "texture"
 * are the caller's to read): its image loaded with `flags`, its index in *out. */
static int read_texture_object(const RsJsonReader* r, const cJSON* value, const char* where, const char* name,
                               const char* const* keys, uint32_t flags, uint32_t* out)
{
    const char* file = NULL;
    if (rs_json_check_keys(r, value, where, keys) || rs_json_get_string(r, value, where, "texture", 1, &file))
        return -1;
    int32_t texture = load_texture(r, where, name, file, flags);
    if (texture < 0)
        return -1;
    *out = (uint32_t)texture;
    return 0;
}

/* "roughness": {"texture": "r.png"}: perceptual roughness per point, the image's first channel
 * read linearly (isotropic). */
static int read_roughness_texture(const RsJsonReader* r, const cJSON* value, const char* path, const char* name,
                                  RsMaterialDesc* d)
{
    char where[RS_PATH_MAX];
    rs_json_join_key(where, path, "roughness");
    static const char* const keys[] = {"texture", NULL};
    return read_texture_object(r, value, where, name, keys, 0, &d->roughness_texture);
}

static int read_roughness(const RsJsonReader* r, const cJSON* node, const char* path, const char* name,
                          RsMaterialDesc* d)
{
    const cJSON* item = cJSON_GetObjectItemCaseSensitive(node, "roughness");
    if (cJSON_IsObject(item)) {
        if (cJSON_GetObjectItemCaseSensitive(node, "roughness_u") || cJSON_GetObjectItemCaseSensitive(node, "roughness_v")) {
            char where[RS_PATH_MAX];
            rs_json_join_key(where, path, "roughness");
            return rs_json_fail(r, where, "give either roughness or roughness_u and roughness_v, not both");
        }
        return read_roughness_texture(r, item, path, name, d);
    }
    double both = 0.0, u = -1.0, v = -1.0;
    int has_both = cJSON_GetObjectItemCaseSensitive(node, "roughness") != NULL;
    int has_u = cJSON_GetObjectItemCaseSensitive(node, "roughness_u") != NULL;
    int has_v = cJSON_GetObjectItemCaseSensitive(node, "roughness_v") != NULL;
    if (rs_json_get_number(r, node, path, "roughness", 0, &both) ||
        rs_json_get_number(r, node, path, "roughness_u", 0, &u) ||
        rs_json_get_number(r, node, path, "roughness_v", 0, &v))
        return -1;
    char where[RS_PATH_MAX];
    if (has_both && (has_u || has_v)) {
        rs_json_join_key(where, path, has_u ? "roughness_u" : "roughness_v");
        return rs_json_fail(r, where, "give either roughness or roughness_u and roughness_v, not both");
    }
    if (has_u != has_v)
        return rs_json_fail(r, path, "roughness_u and roughness_v go together (%s is missing)",
                            has_u ? "roughness_v" : "roughness_u");
    if (!has_u)
        u = v = both;
    const char* keys[2] = {has_u ? "roughness_u" : "roughness", "roughness_v"};
    double values[2] = {u, v};
    for (int i = 0; i < 2; ++i) {
        if (!(values[i] >= 0.0 && values[i] <= 1.0)) {
            rs_json_join_key(where, path, keys[i]);
            return rs_json_fail(r, where, "must be in [0, 1] (got %g)", values[i]);
        }
    }
    d->roughness_u = (float)u;
    d->roughness_v = (float)v;
    return 0;
}

static int read_ior(const RsJsonReader* r, const cJSON* node, const char* path, RsMaterialDesc* d)
{
    double ior = d->ior;
    if (rs_json_get_number(r, node, path, "ior", 0, &ior))
        return -1;
    if (!(ior >= RS_SCENE_MIN_IOR && ior <= RS_SCENE_MAX_IOR)) {
        char where[RS_PATH_MAX];
        rs_json_join_key(where, path, "ior");
        return rs_json_fail(r, where, "must be in [%g, %g] (got %g)", RS_SCENE_MIN_IOR, RS_SCENE_MAX_IOR, ior);
    }
    d->ior = (float)ior;
    return 0;
}

static int read_colour(const RsJsonReader* r, const cJSON* node, const char* path, const char* key, int required,
                       RsMaterialDesc* d)
{
    return rs_json_get_vec3(r, node, path, key, required, &d->colour) ||
           rs_json_check_colour_range(r, path, key, d->colour, 1.0f);
}

/* The image `file` (relative to the scene) of the texture object at `where`, loaded with
 * `flags`; its index, or -1 with an error naming the scene, the JSON path, the material and the
 * file. */
static int32_t load_texture(const RsJsonReader* r, const char* where, const char* name, const char* file,
                            uint32_t flags)
{
    char full[4096], file_where[RS_PATH_MAX], message_where[RS_PATH_MAX + 512];
    rs_json_join_key(file_where, where, "texture");
    if (rs_json_resolve_path(r, file_where, file, full, sizeof full))
        return -1;
    snprintf(message_where, sizeof message_where, "%s: %s (material '%.200s')", r->file, file_where, name);
    int32_t texture = rs_texture_load(&r->scene->textures, full, flags, message_where, r->err);
    return texture < 0 || rs_file_list_add(r->files, full, r->err) ? -1 : texture;
}

/* A colour that may be an image: [r, g, b], or {"texture": "file.png", "wrap": "repeat" or
 * "clamp"}. The image is sRGB-encoded colour, as PNG and JPEG files are. */
/* {"checkerboard": [[r, g, b], [r, g, b]]} at `where` (allowed `keys`): colour0 where
 * floor(2u) + floor(2v) is even, colour1 elsewhere, each in [0, 1] as a colour is; its texture
 * goes into d->colour_texture. */
static int read_checkerboard(const RsJsonReader* r, const cJSON* value, const char* where, const char* const* keys,
                             RsMaterialDesc* d)
{
    if (rs_json_check_keys(r, value, where, keys))
        return -1;
    const cJSON* pair = cJSON_GetObjectItemCaseSensitive(value, "checkerboard");
    char at[RS_PATH_MAX];
    rs_json_join_key(at, where, "checkerboard");
    if (!cJSON_IsArray(pair) || cJSON_GetArraySize(pair) != 2)
        return rs_json_fail(r, at, "must be two colours [[r, g, b], [r, g, b]]");
    RsVec3 c[2];
    for (int i = 0; i < 2; ++i) {
        char item[RS_PATH_MAX];
        rs_json_join_index(item, at, i);
        const cJSON* colour = cJSON_GetArrayItem(pair, i);
        if (!cJSON_IsArray(colour) || cJSON_GetArraySize(colour) != 3)
            return rs_json_fail(r, item, "must be an array of 3 numbers");
        double v[3];
        for (int k = 0; k < 3; ++k) {
            char elem[RS_PATH_MAX];
            rs_json_join_index(elem, item, k);
            if (rs_json_read_number(r, cJSON_GetArrayItem(colour, k), elem, &v[k]))
                return -1;
            if (!(v[k] >= 0.0 && v[k] <= 1.0))
                return rs_json_fail(r, elem, "must be in [0, 1] (got %g)", v[k]);
        }
        c[i] = rs_vec3((float)v[0], (float)v[1], (float)v[2]);
    }
    int32_t texture = rs_scene_add_checkerboard(r->scene, c[0], c[1], r->err);
    if (texture < 0)
        return -1;
    d->colour = rs_vec3_splat(1.0f);
    d->colour_texture = (uint32_t)texture;
    return 0;
}

static int read_colour_or_texture(const RsJsonReader* r, const cJSON* node, const char* path, const char* name,
                                  const char* key, int required, RsMaterialDesc* d)
{
    const cJSON* value = cJSON_GetObjectItemCaseSensitive(node, key);
    if (!cJSON_IsObject(value))
        return read_colour(r, node, path, key, required, d);
    char where[RS_PATH_MAX];
    rs_json_join_key(where, path, key);
    static const char* const checker_keys[] = {"checkerboard", NULL};
    if (cJSON_GetObjectItemCaseSensitive(value, "checkerboard"))
        return read_checkerboard(r, value, where, checker_keys, d);
    static const char* const keys[] = {"texture", "wrap", NULL};
    const char* file = NULL;
    const char* wrap = "repeat";
    if (rs_json_check_keys(r, value, where, keys) || rs_json_get_string(r, value, where, "texture", 1, &file) ||
        rs_json_get_string(r, value, where, "wrap", 0, &wrap))
        return -1;
    uint32_t flags = RS_TEXTURE_SRGB;
    if (strcmp(wrap, "clamp") == 0) {
        flags |= RS_TEXTURE_CLAMP;
    } else if (strcmp(wrap, "repeat") != 0) {
        char at[RS_PATH_MAX];
        rs_json_join_key(at, where, "wrap");
        return rs_json_fail(r, at, "must be \"repeat\" or \"clamp\" (got \"%s\")", wrap);
    }
    int32_t texture = load_texture(r, where, name, file, flags);
    if (texture < 0)
        return -1;
    d->colour = rs_vec3_splat(1.0f);
    d->colour_texture = (uint32_t)texture;
    return 0;
}

/* "alpha": {"texture": "mask.png"}: a cut-out mask (cutout.h), its alpha channel or, for an
 * image without one, its grey level; where it is below 0.5 the surface is not there. */
static int read_alpha(const RsJsonReader* r, const cJSON* node, const char* path, const char* name,
                      RsMaterialDesc* d)
{
    const cJSON* value = cJSON_GetObjectItemCaseSensitive(node, "alpha");
    if (!value)
        return 0;
    char where[RS_PATH_MAX];
    rs_json_join_key(where, path, "alpha");
    if (!cJSON_IsObject(value))
        return rs_json_fail(r, where, "must be an object {\"texture\": \"file\"}");
    static const char* const keys[] = {"texture", NULL};
    return read_texture_object(r, value, where, name, keys, RS_TEXTURE_LOAD_MASK, &d->alpha_texture);
}

/* "normal_map": {"texture": "n.png"} (tangent-space normals, linear) and "bump_map":
 * {"texture": "h.png", "scale": s} (height in the first channel, linear; s >= 0, default 1),
 * as src/kernel/texture/normal_map.h reads them. A material may have one or the other. */
static int read_surface_maps(const RsJsonReader* r, const cJSON* node, const char* path, const char* name,
                             RsMaterialDesc* d)
{
    const cJSON* normal = cJSON_GetObjectItemCaseSensitive(node, "normal_map");
    const cJSON* bump = cJSON_GetObjectItemCaseSensitive(node, "bump_map");
    if (normal && bump)
        return rs_json_fail(r, path, "give normal_map or bump_map, not both");
    if (!normal && !bump)
        return 0;
    const char* key = normal ? "normal_map" : "bump_map";
    char where[RS_PATH_MAX];
    rs_json_join_key(where, path, key);
    const cJSON* value = normal ? normal : bump;
    if (!cJSON_IsObject(value))
        return rs_json_fail(r, where, "must be an object {\"texture\": \"file\"%s}", normal ? "" : ", \"scale\": s");
    static const char* const normal_keys[] = {"texture", NULL};
    static const char* const bump_keys[] = {"texture", "scale", NULL};
    if (normal)
        return read_texture_object(r, value, where, name, normal_keys, 0, &d->normal_map);
    double scale = 1.0;
    if (read_texture_object(r, value, where, name, bump_keys, 0, &d->bump_map) ||
        rs_json_get_number(r, value, where, "scale", 0, &scale))
        return -1;
    if (!(scale >= 0.0)) {
        char scale_where[RS_PATH_MAX];
        rs_json_join_key(scale_where, where, "scale");
        return rs_json_fail(r, scale_where, "must be >= 0 (got %g)", scale);
    }
    d->bump_scale = (float)scale;
    return 0;
}

/* A conductor's colour: "color" (normal-incidence reflectance), "metal" (a named metal) or
 * "eta" and "k" (its complex index), one of the three. */
static int read_colour_or_texture(const RsJsonReader* r, const cJSON* node, const char* path, const char* name,
                                  const char* key, int required, RsMaterialDesc* d);

static int read_conductor_colour(const RsJsonReader* r, const cJSON* node, const char* path, const char* name,
                                 RsMaterialDesc* d)
{
    int has_colour = cJSON_GetObjectItemCaseSensitive(node, "color") != NULL;
    int has_metal = cJSON_GetObjectItemCaseSensitive(node, "metal") != NULL;
    int has_eta = cJSON_GetObjectItemCaseSensitive(node, "eta") != NULL;
    int has_k = cJSON_GetObjectItemCaseSensitive(node, "k") != NULL;
    if (has_colour + has_metal + (has_eta || has_k) > 1)
        return rs_json_fail(r, path, "give one of color, metal, or eta and k");
    if (has_eta != has_k)
        return rs_json_fail(r, path, "eta and k go together (%s is missing)", has_eta ? "k" : "eta");
    if (has_metal) {
        const char* metal = NULL;
        if (rs_json_get_string(r, node, path, "metal", 1, &metal))
            return -1;
        if (!rs_metal_index(metal, &d->eta, &d->k)) {
            char where[RS_PATH_MAX];
            rs_json_join_key(where, path, "metal");
            return rs_json_fail(r, where, "must be one of %s (got \"%s\")", rs_metal_names(), metal);
        }
        d->has_eta_k = 1;
        return 0;
    }
    if (has_eta) {
        d->has_eta_k = 1;
        /* the bounds are checked on the numbers as written, before they become floats: the
         * float nearest 0.01 is below 0.01, which refused the documented minimum */
        return rs_json_get_vec3_in(r, node, path, "eta", 1, RS_SCENE_MIN_IOR, RS_SCENE_MAX_IOR, &d->eta) ||
               rs_json_get_vec3_in(r, node, path, "k", 1, 0.0, RS_SCENE_MAX_IOR, &d->k);
    }
    return read_colour_or_texture(r, node, path, name, "color", 0, d);
}

/* "emission": [r, g, b] radiance, or {"texture": "file.png", "scale": s or [r, g, b]}: the
 * image's colour (sRGB-decoded) times scale (default 1). */
static int read_emission(const RsJsonReader* r, const cJSON* node, const char* path, const char* name, int required,
                         RsMaterialDesc* d)
{
    const cJSON* value = cJSON_GetObjectItemCaseSensitive(node, "emission");
    if (!cJSON_IsObject(value))
        return rs_json_get_vec3(r, node, path, "emission", required, &d->emission) ||
               rs_json_check_colour_range(r, path, "emission", d->emission, INFINITY);
    char where[RS_PATH_MAX];
    rs_json_join_key(where, path, "emission");
    if (cJSON_GetObjectItemCaseSensitive(value, "checkerboard")) { /* two colours times scale */
        static const char* const checker_keys[] = {"checkerboard", "scale", NULL};
        RsMaterialDesc board = *d;
        d->emission = rs_vec3_splat(1.0f);
        if (rs_json_check_keys(r, value, where, checker_keys) ||
            rs_json_get_scale(r, value, where, "scale", &d->emission) ||
            read_checkerboard(r, value, where, checker_keys, &board))
            return -1;
        d->emission_texture = board.colour_texture;
        return 0;
    }
    static const char* const keys[] = {"texture", "scale", NULL};
    const char* file = NULL;
    if (rs_json_check_keys(r, value, where, keys) || rs_json_get_string(r, value, where, "texture", 1, &file))
        return -1;
    d->emission = rs_vec3_splat(1.0f);
    if (rs_json_get_scale(r, value, where, "scale", &d->emission))
        return -1;
    int32_t texture = load_texture(r, where, name, file, RS_TEXTURE_SRGB);
    if (texture < 0)
        return -1;
    d->emission_texture = (uint32_t)texture;
    return 0;
}

/* The keys every material may have: "uv_transform" [m0 .. m5] (u' = m0 u + m1 v + m2,
 * v' = m3 u + m4 v + m5, for every texture of the material), "alpha_mode" ("mask", the default,
 * or "blend": a stochastic cut-out), "alpha_cutoff" in [0, 1] (mask only, default 0.5) and
 * "opacity" in [0, 1] (default 1; multiplies the alpha texture, or alone without one). */
static int read_uv_and_alpha(const RsJsonReader* r, const cJSON* node, const char* path, RsMaterialDesc* d)
{
    char where[RS_PATH_MAX];
    const cJSON* transform = cJSON_GetObjectItemCaseSensitive(node, "uv_transform");
    if (transform) {
        rs_json_join_key(where, path, "uv_transform");
        if (!cJSON_IsArray(transform) || cJSON_GetArraySize(transform) != 6)
            return rs_json_fail(r, where, "must be an array of 6 numbers [m0, m1, m2, m3, m4, m5]");
        for (int i = 0; i < 6; ++i) {
            char elem[RS_PATH_MAX];
            rs_json_join_index(elem, where, i);
            double v = 0.0;
            if (rs_json_read_number(r, cJSON_GetArrayItem(transform, i), elem, &v))
                return -1;
            d->uv_transform[i] = (float)v;
        }
    }
    const char* mode = "mask";
    double cutoff = 0.5, opacity = 1.0;
    if (rs_json_get_string(r, node, path, "alpha_mode", 0, &mode) ||
        rs_json_get_number(r, node, path, "alpha_cutoff", 0, &cutoff) ||
        rs_json_get_number(r, node, path, "opacity", 0, &opacity))
        return -1;
    int blend = strcmp(mode, "blend") == 0;
    if (!blend && strcmp(mode, "mask") != 0) {
        rs_json_join_key(where, path, "alpha_mode");
        return rs_json_fail(r, where, "must be \"mask\" or \"blend\" (got \"%s\")", mode);
    }
    rs_json_join_key(where, path, "alpha_cutoff");
    if (blend && cJSON_GetObjectItemCaseSensitive(node, "alpha_cutoff"))
        return rs_json_fail(r, where, "only alpha_mode \"mask\" has a cutoff (a blend cuts out with probability 1 - alpha)");
    if (!(cutoff >= 0.0 && cutoff <= 1.0))
        return rs_json_fail(r, where, "must be in [0, 1] (got %g)", cutoff);
    if (!(opacity >= 0.0 && opacity <= 1.0)) {
        rs_json_join_key(where, path, "opacity");
        return rs_json_fail(r, where, "must be in [0, 1] (got %g)", opacity);
    }
    d->alpha_mode = blend ? RS_ALPHA_BLEND : RS_ALPHA_MASK;
    d->alpha_cutoff = (float)cutoff;
    d->opacity = (float)opacity;
    return 0;
}

int rs_json_read_material(const RsJsonReader* r, const cJSON* node, const char* path)
{
    if (rs_json_expect_object(r, node, path))
        return -1;
    const char* name = NULL;
    const char* type = NULL;
    if (rs_json_get_string(r, node, path, "name", 1, &name) || rs_json_get_string(r, node, path, "type", 1, &type))
        return -1;
    char where[RS_PATH_MAX];
    rs_json_join_key(where, path, "name");
    if (name[0] == '\0')
        return rs_json_fail(r, where, "must not be empty");
    if (rs_scene_find_material(r->scene, name) >= 0)
        return rs_json_fail(r, where, "a material named '%s' is already defined", name);

    RsMaterialDesc d;
    int status;
    if (strcmp(type, "diffuse") == 0) {
        static const char* const keys[] = {"name",     "type",       "albedo",   "alpha", "emission",
                                           "two_sided", "normal_map", "bump_map",
                                           "uv_transform", "alpha_mode", "alpha_cutoff", "opacity", NULL};
        d = rs_material_desc(RS_MAT_DIFFUSE);
        status = rs_json_check_keys(r, node, path, keys) || read_colour_or_texture(r, node, path, name, "albedo", 1, &d) ||
                 read_alpha(r, node, path, name, &d);
    } else if (strcmp(type, "mirror") == 0) {
        static const char* const keys[] = {"name",      "type",       "color",    "emission",
                                           "two_sided", "normal_map", "bump_map",
                                           "uv_transform", "alpha_mode", "alpha_cutoff", "opacity", NULL};
        d = rs_material_desc(RS_MAT_MIRROR);
        status = rs_json_check_keys(r, node, path, keys) || read_colour_or_texture(r, node, path, name, "color", 0, &d);
    } else if (strcmp(type, "conductor") == 0) {
        static const char* const keys[] = {"name", "type", "color", "metal", "eta", "k", "roughness", "roughness_u",
                                           "roughness_v", "emission", "two_sided", "normal_map", "bump_map",
                                          
                                           "uv_transform", "alpha_mode", "alpha_cutoff", "opacity", NULL};
        d = rs_material_desc(RS_MAT_CONDUCTOR);
        status = rs_json_check_keys(r, node, path, keys) || read_conductor_colour(r, node, path, name, &d) ||
                 read_roughness(r, node, path, name, &d);
    } else if (strcmp(type, "dielectric") == 0) {
        static const char* const keys[] = {"name", "type", "ior", "color", "roughness", "roughness_u", "roughness_v",
                                           "emission", "two_sided", "normal_map", "bump_map",
                                           "uv_transform", "alpha_mode", "alpha_cutoff", "opacity", NULL};
        d = rs_material_desc(RS_MAT_DIELECTRIC);
        status = rs_json_check_keys(r, node, path, keys) || read_ior(r, node, path, &d) ||
                 read_colour_or_texture(r, node, path, name, "color", 0, &d) || read_roughness(r, node, path, name, &d);
    } else if (strcmp(type, "thin_dielectric") == 0) {
        static const char* const keys[] = {"name",     "type",      "ior",        "color",    "emission",
                                           "two_sided", "normal_map", "bump_map",
                                           "uv_transform", "alpha_mode", "alpha_cutoff", "opacity", NULL};
        d = rs_material_desc(RS_MAT_THIN_DIELECTRIC);
        status = rs_json_check_keys(r, node, path, keys) || read_ior(r, node, path, &d) ||
                 read_colour_or_texture(r, node, path, name, "color", 0, &d);
    } else if (strcmp(type, "plastic") == 0) {
        static const char* const keys[] = {"name", "type", "color", "alpha", "ior", "roughness", "roughness_u",
                                           "roughness_v", "emission", "two_sided", "normal_map", "bump_map",
                                          
                                           "uv_transform", "alpha_mode", "alpha_cutoff", "opacity", NULL};
        d = rs_material_desc(RS_MAT_PLASTIC);
        status = rs_json_check_keys(r, node, path, keys) || read_colour_or_texture(r, node, path, name, "color", 0, &d) ||
                 read_alpha(r, node, path, name, &d) ||
                 read_ior(r, node, path, &d) || read_roughness(r, node, path, name, &d);
    } else if (strcmp(type, "emissive") == 0) {
        static const char* const keys[] = {"name", "type", "emission", "two_sided",
                                           "uv_transform", "alpha_mode", "alpha_cutoff", "opacity", NULL};
        d = rs_material_desc(RS_MAT_DIFFUSE);
        d.colour = rs_vec3_splat(0.0f); /* a pure emitter reflects nothing */
        status = rs_json_check_keys(r, node, path, keys) || read_emission(r, node, path, name, 1, &d);
    } else {
        rs_json_join_key(where, path, "type");
        return rs_json_fail(r, where,
                            "must be one of \"diffuse\", \"mirror\", \"conductor\", \"dielectric\", "
                            "\"thin_dielectric\", \"plastic\", \"emissive\" (got \"%s\")",
                            type);
    }
    if (status || read_surface_maps(r, node, path, name, &d) || read_uv_and_alpha(r, node, path, &d) ||
        (d.emission_texture == RS_NO_TEXTURE && read_emission(r, node, path, name, 0, &d)) ||
        rs_json_get_bool(r, node, path, "two_sided", &d.two_sided))
        return -1;
    return rs_scene_add_material_desc(r->scene, name, &d, r->err) < 0 ? -1 : 0;
}
