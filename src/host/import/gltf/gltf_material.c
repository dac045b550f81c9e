/* gltf_material.c - glTF materials, textures, images and samplers as the scene's materials and
 * textures (gltf_doc.h). Host C11.
 *
 * The mapping is the mesh importer's (mesh_records.c, scenes/README.md): metallic-roughness
 * with metallic (factor times the mean blue of the metallic-roughness texture) >= 0.5 becomes a
 * conductor of the base colour, anything else a plastic (a diffuse base under a clear coat of
 * ior 1.5: glTF's 4% dielectric); roughness is perceptual on both sides; the texture's green
 * channel gives it per point. A base colour texture gives the colour (its factor is dropped,
 * with a warning where it is not white), the emissive factor (times
 * KHR_materials_emissive_strength) scales the emissive texture. KHR_materials_transmission of at
 * least 0.5 makes a dielectric (KHR_materials_ior's ior); alphaMode MASK and BLEND cut the
 * surface out by the base colour's alpha (texture alpha times factor alpha); doubleSided makes
 * emission two-sided (diffuse reflection is two-sided in raystream anyway). One texture
 * transform serves all of a material's textures: KHR_texture_transform of the first textured
 * slot. Images come from data: URIs and buffer views (decoded by host/io/image_decode.h) or from
 * files beside the scene (rs_texture_load); they load once per colour space.
 */
#define _POSIX_C_SOURCE 200809L
#include "host/import/gltf/gltf_doc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/io/image_decode.h"
#include "host/scene/settings.h"

enum { WRAP_CLAMP = 33071, WRAP_MIRROR = 33648, WRAP_REPEAT = 10497 };

static float clamp01(double x) { return x < 0.0 ? 0.0f : x > 1.0 ? 1.0f : (float)x; }

/* The sampler's wrap flags (RS_TEXTURE_CLAMP when both axes clamp). */
static int sampler_flags(RsGltf* g, const cJSON* texture, const char* path, uint32_t* flags)
{
    int64_t sampler = -1, wrap[2] = {WRAP_REPEAT, WRAP_REPEAT};
    *flags = 0;
    if (rs_gltf_get_index(g, texture, path, "sampler", 0, -1, -1, &sampler))
        return -1;
    if (sampler < 0)
        return 0;
    const cJSON* s = NULL;
    char where[RS_GLTF_PATH_MAX];
    rs_gltf_join_key(where, path, "sampler");
    if (rs_gltf_item(g, "samplers", sampler, where, &s))
        return -1;
    rs_gltf_join_index(where, "samplers", (int)sampler);
    if (rs_gltf_get_index(g, s, where, "wrapS", 0, -1, WRAP_REPEAT, &wrap[0]) ||
        rs_gltf_get_index(g, s, where, "wrapT", 0, -1, WRAP_REPEAT, &wrap[1]))
        return -1;
    for (int k = 0; k < 2; ++k)
        if (wrap[k] != WRAP_CLAMP && wrap[k] != WRAP_MIRROR && wrap[k] != WRAP_REPEAT)
            return rs_gltf_fail(g, where, "%s must be 33071, 33648 or 10497 (got %lld)", k ? "wrapT" : "wrapS",
                                (long long)wrap[k]);
    if (wrap[0] == WRAP_MIRROR || wrap[1] == WRAP_MIRROR)
        rs_gltf_warn(g, where, "MIRRORED_REPEAT rendered as %s", wrap[0] == WRAP_CLAMP || wrap[1] == WRAP_CLAMP
                                                                     ? "REPEAT (raystream wraps both axes alike)"
                                                                     : "REPEAT");
    else if (wrap[0] != wrap[1])
        rs_gltf_warn(g, where, "wrapS and wrapT differ: both rendered as REPEAT (raystream wraps both axes alike)");
    if (wrap[0] == WRAP_CLAMP && wrap[1] == WRAP_CLAMP)
        *flags = RS_TEXTURE_CLAMP;
    return 0;
}

/* An image held in memory (a data: URI or a buffer view), decoded. */
static int32_t decoded_texture(RsGltf* g, const uint8_t* bytes, size_t size, const char* name, uint32_t flags,
                               const char* where)
{
    const RsImageLimits limits = {RS_TEXTURE_MAX_SIZE, RS_TEXTURE_MAX_SIZE, RS_TEXTURE_MAX_BYTES};
    RsImageSource format = rs_image_sniff(bytes, size);
    if (format == RS_IMAGE_SOURCE_HDR || format == RS_IMAGE_SOURCE_EXR)
        return rs_gltf_fail(g, where, "a high-dynamic-range %s image; textures are PNG or JPEG images",
                            rs_image_source_name(format));
    RsImage image;
    RsError problem = {{0}};
    if (rs_image_decode(bytes, size, &limits, &image, &problem))
        return rs_gltf_fail(g, where, "%s", problem.message);
    int32_t t = rs_texture_add_rgba8(&g->scene->textures, name, image.rgba8, image.width, image.height, flags, g->err);
    rs_image_free(&image);
    return t;
}

static int32_t embedded_texture(RsGltf* g, const char* uri, int64_t view, const char* name, uint32_t flags,
                                const char* where);
static int32_t file_texture(RsGltf* g, const char* uri, uint32_t flags, const char* where);

static int32_t image_texture(RsGltf* g, int64_t source, const char* referrer, uint32_t flags)
{
    const cJSON* image = NULL;
    if (rs_gltf_item(g, "images", source, referrer, &image))
        return -1;
    char path[RS_GLTF_PATH_MAX], where[RS_GLTF_PATH_MAX], name[RS_GLTF_PATH_MAX + 64];
    rs_gltf_join_index(path, "images", (int)source);
    snprintf(name, sizeof name, "%s#%s", g->path, path);
    const char* uri = NULL;
    int64_t view = -1;
    if (rs_gltf_get_string(g, image, path, "uri", NULL, &uri) ||
        rs_gltf_get_index(g, image, path, "bufferView", 0, -1, -1, &view))
        return -1;
    if (!uri && view < 0)
        return rs_gltf_fail(g, path, "has neither uri nor bufferView");
    rs_gltf_join_key(where, path, uri ? "uri" : "bufferView");
    int embedded = !uri || strncmp(uri, "data:", 5) == 0;
    for (size_t i = 0; embedded && i < g->images.count; ++i) /* two textures of one image: one copy */
        if (g->images.data[i].image == (int32_t)source && g->images.data[i].flags == flags)
            return g->images.data[i].texture;
    int32_t t = embedded ? embedded_texture(g, uri, view, name, flags, where) : file_texture(g, uri, flags, where);
    RsGltfImageUse use = {(int32_t)source, flags, t};
    if (t >= 0 && embedded && rs_array_push(&g->images, use, g->err))
        return -1;
    return t;
}

/* An image in a buffer view or a data: URI, decoded. */
static int32_t embedded_texture(RsGltf* g, const char* uri, int64_t view, const char* name, uint32_t flags,
                                const char* where)
{
    if (!uri) {
        const uint8_t* bytes = NULL;
        size_t size = 0;
        if (rs_gltf_view_bytes(g, view, where, &bytes, &size))
            return -1;
        return decoded_texture(g, bytes, size, name, flags, where);
    }
    uint8_t* bytes = NULL;
    size_t size = 0;
    if (rs_gltf_decode_data_uri(g, uri, where, &bytes, &size))
        return -1;
    int32_t t = decoded_texture(g, bytes, size, name, flags, where);
    free(bytes);
    return t;
}

/* An image file beside the scene (rs_texture_load loads each file once per flags). */
static int32_t file_texture(RsGltf* g, const char* uri, uint32_t flags, const char* where)
{
    char* full = rs_gltf_resolve_uri(g, uri, where);
    if (!full)
        return -1;
    char context[RS_GLTF_PATH_MAX + 1100];
    snprintf(context, sizeof context, "%s: %s", g->path, where);
    int32_t t = rs_texture_load(&g->scene->textures, full, flags, context, g->err);
    if (t >= 0 && rs_file_list_add(g->files, full, g->err))
        t = -1;
    free(full);
    return t;
}

/* The scene texture of glTF texture `index`, sRGB-decoded or not; cached. */
static int texture(RsGltf* g, int64_t index, const char* referrer, int srgb, uint32_t* out)
{
    if (!g->textures) {
        const cJSON* a = rs_gltf_member(g->root, "textures");
        g->texture_count = cJSON_IsArray(a) ? cJSON_GetArraySize(a) : 0;
        g->textures = malloc(((size_t)g->texture_count * 2 + 1) * sizeof *g->textures);
        if (!g->textures)
            return rs_gltf_fail(g, referrer, "out of memory");
        for (int i = 0; i < g->texture_count * 2; ++i)
            g->textures[i] = -1;
    }
    const cJSON* tex = NULL;
    if (rs_gltf_item(g, "textures", index, referrer, &tex))
        return -1;
    int32_t* slot = &g->textures[index * 2 + (srgb ? 1 : 0)];
    if (*slot < 0) {
        char path[RS_GLTF_PATH_MAX], where[RS_GLTF_PATH_MAX];
        rs_gltf_join_index(path, "textures", (int)index);
        int64_t source = -1;
        uint32_t flags = 0;
        if (rs_gltf_get_index(g, tex, path, "source", 0, -1, -1, &source) || sampler_flags(g, tex, path, &flags))
            return -1;
        if (source < 0)
            return rs_gltf_fail(g, path, "has no source image that raystream can read (PNG or JPEG)");
        rs_gltf_join_key(where, path, "source");
        *slot = image_texture(g, source, where, flags | (srgb ? RS_TEXTURE_SRGB : 0u));
        if (*slot < 0)
            return -1;
    }
    *out = (uint32_t)*slot;
    return 0;
}

/* A textureInfo at material[key]: 1 with *out loaded, 0 if the material has none. The first
 * KHR_texture_transform met becomes the material's uv transform. */
static int texture_info(RsGltf* g, const cJSON* parent, const char* path, const char* key, int srgb, uint32_t* out,
                        RsMaterialDesc* d, int* has_transform)
{
    const cJSON* info = rs_gltf_member(parent, key);
    if (!info)
        return 0;
    char where[RS_GLTF_PATH_MAX];
    rs_gltf_join_key(where, path, key);
    int64_t index = 0, coord = 0;
    if (!cJSON_IsObject(info))
        return rs_gltf_fail(g, where, "must be an object");
    if (rs_gltf_get_index(g, info, where, "index", 1, -1, 0, &index) ||
        rs_gltf_get_index(g, info, where, "texCoord", 0, -1, 0, &coord))
        return -1;
    if (coord != 0)
        rs_gltf_warn(g, where, "texCoord %lld: read at TEXCOORD_0 (raystream keeps one set of texture coordinates)",
                     (long long)coord);
    const cJSON* tt = rs_gltf_extension(info, "KHR_texture_transform");
    if (tt) {
        char ext[RS_GLTF_PATH_MAX];
        snprintf(ext, sizeof ext, "%s.extensions.KHR_texture_transform", where);
        double offset[2] = {0, 0}, scale[2] = {1, 1}, rotation = 0.0;
        if (rs_gltf_get_numbers(g, tt, ext, "offset", 2, offset) || rs_gltf_get_numbers(g, tt, ext, "scale", 2, scale) ||
            rs_gltf_get_number(g, tt, ext, "rotation", 0.0, &rotation))
            return -1;
        if (rs_gltf_member(tt, "texCoord"))
            rs_gltf_warn(g, ext, "texCoord: read at TEXCOORD_0 (raystream keeps one set of texture coordinates)");
        /* glTF: u' = a u + b v + c, v' = e u + f v + h, with v down the image; ours has v up
         * (v = 1 - v_gltf on both sides) */
        double cs = cos(rotation), sn = sin(rotation);
        double a = scale[0] * cs, b = scale[1] * sn, c = offset[0], e = -scale[0] * sn, f = scale[1] * cs,
               h = offset[1];
        float m[6] = {(float)a, (float)-b, (float)(b + c), (float)-e, (float)f, (float)(1.0 - f - h)};
        if (!*has_transform) {
            memcpy(d->uv_transform, m, sizeof m);
            *has_transform = 1;
        } else if (memcmp(d->uv_transform, m, sizeof m) != 0) {
            rs_gltf_warn(g, ext, "differs from the material's first texture transform, which raystream applies to "
                         "all of its textures");
        }
    } else if (*has_transform) {
        static const float identity[6] = {1, 0, 0, 0, 1, 0};
        if (memcmp(d->uv_transform, identity, sizeof identity) != 0)
            rs_gltf_warn(g, where, "has no KHR_texture_transform, but another texture of the material has one, which "
                         "raystream applies to all of its textures");
    }
    return texture(g, index, where, srgb, out) ? -1 : 1;
}

static const char* const known_material_extensions[] = {
    "KHR_materials_emissive_strength", "KHR_materials_transmission", "KHR_materials_ior", "KHR_materials_volume", NULL};

static int material_desc(RsGltf* g, const cJSON* m, const char* path, RsMaterialDesc* d)
{
    const cJSON* pbr = rs_gltf_member(m, "pbrMetallicRoughness");
    char pbr_path[RS_GLTF_PATH_MAX], where[RS_GLTF_PATH_MAX];
    rs_gltf_join_key(pbr_path, path, "pbrMetallicRoughness");
    if (pbr && !cJSON_IsObject(pbr))
        return rs_gltf_fail(g, pbr_path, "must be an object");
    double base[4] = {1, 1, 1, 1}, metallic = 1.0, roughness = 1.0, emissive[3] = {0, 0, 0}, strength = 1.0;
    double transmission = 0.0, ior = 1.5, cutoff = 0.5;
    const char* alpha_mode = "OPAQUE";
    const cJSON* two_sided = rs_gltf_member(m, "doubleSided");
    if (rs_gltf_get_numbers(g, pbr, pbr_path, "baseColorFactor", 4, base) ||
        rs_gltf_get_number(g, pbr, pbr_path, "metallicFactor", 1.0, &metallic) ||
        rs_gltf_get_number(g, pbr, pbr_path, "roughnessFactor", 1.0, &roughness) ||
        rs_gltf_get_numbers(g, m, path, "emissiveFactor", 3, emissive) ||
        rs_gltf_get_string(g, m, path, "alphaMode", "OPAQUE", &alpha_mode) ||
        rs_gltf_get_number(g, m, path, "alphaCutoff", 0.5, &cutoff))
        return -1;
    if (two_sided && !cJSON_IsBool(two_sided)) {
        rs_gltf_join_key(where, path, "doubleSided");
        return rs_gltf_fail(g, where, "must be true or false");
    }
    const cJSON* ext = NULL;
    if ((ext = rs_gltf_extension(m, "KHR_materials_emissive_strength")) != NULL) {
        snprintf(where, sizeof where, "%s.extensions.KHR_materials_emissive_strength", path);
        if (rs_gltf_get_number(g, ext, where, "emissiveStrength", 1.0, &strength))
            return -1;
    }
    if ((ext = rs_gltf_extension(m, "KHR_materials_transmission")) != NULL) {
        snprintf(where, sizeof where, "%s.extensions.KHR_materials_transmission", path);
        if (rs_gltf_get_number(g, ext, where, "transmissionFactor", 0.0, &transmission))
            return -1;
        if (rs_gltf_member(ext, "transmissionTexture"))
            rs_gltf_warn(g, where, "transmissionTexture ignored: the factor decides for the whole material");
    }
    if ((ext = rs_gltf_extension(m, "KHR_materials_ior")) != NULL) {
        snprintf(where, sizeof where, "%s.extensions.KHR_materials_ior", path);
        if (rs_gltf_get_number(g, ext, where, "ior", 1.5, &ior))
            return -1;
        if (!(ior >= 1.0 && ior <= RS_SCENE_MAX_IOR)) {
            rs_gltf_warn(g, where, "ior %g rendered as 1.5 (raystream takes indices in [1, %g])", ior,
                         RS_SCENE_MAX_IOR);
            ior = 1.5;
        }
    }
    const cJSON* extensions = rs_gltf_member(m, "extensions");
    for (const cJSON* e = cJSON_IsObject(extensions) ? extensions->child : NULL; e; e = e->next) {
        int known = 0;
        for (int i = 0; known_material_extensions[i]; ++i)
            known |= strcmp(e->string, known_material_extensions[i]) == 0;
        if (!known)
            rs_gltf_warn(g, path, "extension %s ignored", e->string);
    }
    if (strcmp(alpha_mode, "OPAQUE") && strcmp(alpha_mode, "MASK") && strcmp(alpha_mode, "BLEND")) {
        rs_gltf_join_key(where, path, "alphaMode");
        return rs_gltf_fail(g, where, "must be OPAQUE, MASK or BLEND (got \"%s\")", alpha_mode);
    }
    for (int k = 0; k < 3; ++k)
        if (emissive[k] < 0.0 || strength < 0.0) {
            rs_gltf_join_key(where, path, "emissiveFactor");
            return rs_gltf_fail(g, where, "must not be negative");
        }

    /* the metallic-roughness texture decides between metal and plastic through its mean */
    uint32_t mr = RS_NO_TEXTURE;
    int has_transform = 0;
    RsMaterialDesc scratch = rs_material_desc(RS_MAT_PLASTIC);
    int has_mr = texture_info(g, pbr, pbr_path, "metallicRoughnessTexture", 0, &mr, &scratch, &has_transform);
    if (has_mr < 0)
        return -1;
    double metal_amount = has_mr ? metallic * rs_texture_mean_channel(&g->scene->textures, mr, 2) : metallic;
    int glass = transmission >= 0.5;
    int metal = !glass && metal_amount >= 0.5;
    *d = rs_material_desc(glass ? RS_MAT_DIELECTRIC : metal ? RS_MAT_CONDUCTOR : RS_MAT_PLASTIC);
    if (has_transform)
        memcpy(d->uv_transform, scratch.uv_transform, sizeof d->uv_transform);
    if (transmission > 0.0)
        rs_gltf_warn(g, path, "KHR_materials_transmission %g rendered as %s", transmission,
                     glass ? "a dielectric (glass) of the base colour" : "opaque (below 0.5)");
    if (rs_gltf_extension(m, "KHR_materials_volume"))
        rs_gltf_warn(g, path, "KHR_materials_volume ignored: %s", glass ? "the glass is thin-walled in colour "
                     "(its base colour), without attenuation by thickness" : "the material is opaque");
    if (!glass && metal_amount > 0.0 && metal_amount < 1.0)
        rs_gltf_warn(g, path, "metallic %g rendered as %s (raystream does not blend metal and dielectric)",
                     metal_amount, metal ? "a conductor" : "a plastic");
    d->roughness_u = d->roughness_v = clamp01(roughness);
    if (has_mr && !glass) {
        d->roughness_texture = mr;
        d->roughness_channel = 1;
        if (roughness != 1.0)
            rs_gltf_warn(g, pbr_path, "roughnessFactor %g with a metallicRoughnessTexture: the texture's roughness is "
                         "used unscaled", roughness);
    }
    d->colour = rs_vec3(clamp01(base[0]), clamp01(base[1]), clamp01(base[2]));
    if (glass)
        d->ior = (float)ior;
    else if (!metal)
        d->ior = (float)ior; /* the plastic's coat: glTF's dielectric */
    int has_colour = texture_info(g, pbr, pbr_path, "baseColorTexture", 1, &d->colour_texture, d, &has_transform);
    if (has_colour < 0)
        return -1;
    if (has_colour && !glass) {
        if (!metal)
            d->colour = rs_vec3_splat(1.0f);
        if (base[0] != 1.0 || base[1] != 1.0 || base[2] != 1.0)
            rs_gltf_warn(g, pbr_path, "baseColorFactor [%g, %g, %g] with a baseColorTexture: the texture alone gives "
                         "the colour", base[0], base[1], base[2]);
    } else if (has_colour) {
        d->colour_texture = RS_NO_TEXTURE;
        rs_gltf_warn(g, pbr_path, "baseColorTexture of a transmissive material ignored: the glass takes the factor");
    }
    const cJSON* normal = rs_gltf_member(m, "normalTexture");
    int has_normal = texture_info(g, m, path, "normalTexture", 0, &d->normal_map, d, &has_transform);
    if (has_normal < 0)
        return -1;
    if (has_normal) {
        double scale = 1.0;
        rs_gltf_join_key(where, path, "normalTexture");
        if (rs_gltf_get_number(g, normal, where, "scale", 1.0, &scale))
            return -1;
        if (scale != 1.0)
            rs_gltf_warn(g, where, "scale %g rendered as 1 (raystream's normal maps have no strength)", scale);
    }
    int has_emission = texture_info(g, m, path, "emissiveTexture", 1, &d->emission_texture, d, &has_transform);
    if (has_emission < 0)
        return -1;
    double e[3] = {emissive[0] * strength, emissive[1] * strength, emissive[2] * strength};
    for (int k = 0; k < 3; ++k)
        if (!(e[k] <= RS_SCENE_MAX_MAGNITUDE))
            return rs_gltf_fail(g, path, "emission %g (emissiveFactor times emissiveStrength) is beyond %g", e[k],
                                RS_SCENE_MAX_MAGNITUDE);
    d->emission = rs_vec3((float)e[0], (float)e[1], (float)e[2]);
    d->two_sided = cJSON_IsTrue(two_sided);
    if (strcmp(alpha_mode, "OPAQUE") != 0) {
        d->alpha_mode = strcmp(alpha_mode, "MASK") == 0 ? RS_ALPHA_MASK : RS_ALPHA_BLEND;
        d->alpha_cutoff = (float)cutoff;
        d->opacity = clamp01(base[3]);
        d->alpha_texture = d->colour_texture; /* its alpha channel, read linearly */
    }
    if (e[0] > 0.0 || e[1] > 0.0 || e[2] > 0.0)
        g->emissive = 1;
    return 0;
}

int rs_gltf_material(RsGltf* g, int64_t index, const char* referrer, int32_t* out)
{
    if (index < 0) {
        if (g->default_material < 0) {
            /* glTF's default material: metallic 1, roughness 1, white */
            RsMaterialDesc d = rs_material_desc(RS_MAT_CONDUCTOR);
            d.colour = rs_vec3_splat(1.0f);
            d.roughness_u = d.roughness_v = 1.0f;
            char name[RS_GLTF_PATH_MAX + 64];
            snprintf(name, sizeof name, "%s#default material", g->path);
            g->default_material = rs_scene_add_material_desc(g->scene, name, &d, g->err);
            if (g->default_material < 0)
                return -1;
        }
        *out = g->default_material;
        return 0;
    }
    const cJSON* m = NULL;
    if (rs_gltf_item(g, "materials", index, referrer, &m))
        return -1;
    if (!g->materials) {
        int count = cJSON_GetArraySize(rs_gltf_member(g->root, "materials"));
        g->materials = malloc(((size_t)count + 1) * sizeof *g->materials);
        if (!g->materials)
            return rs_gltf_fail(g, referrer, "out of memory");
        for (int i = 0; i < count; ++i)
            g->materials[i] = -1;
    }
    if (g->materials[index] < 0) {
        char path[RS_GLTF_PATH_MAX], name[RS_GLTF_PATH_MAX + 1100];
        rs_gltf_join_index(path, "materials", (int)index);
        const char* given = NULL;
        if (rs_gltf_get_string(g, m, path, "name", "", &given))
            return -1;
        snprintf(name, sizeof name, "%s#%s:%.1000s", g->path, path, given);
        RsMaterialDesc d;
        if (material_desc(g, m, path, &d))
            return -1;
        g->materials[index] = rs_scene_add_material_desc(g->scene, name, &d, g->err);
        if (g->materials[index] < 0)
            return -1;
    }
    *out = g->materials[index];
    return 0;
}
