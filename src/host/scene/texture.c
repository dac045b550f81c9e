/* texture.c - image textures and their mip chains (see texture.h). Host C11. */
#define _POSIX_C_SOURCE 200809L
#include "host/scene/texture.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/io/image_decode.h"
#include "host/io/safe_file.h"

float rs_srgb_decode(float c)
{
    return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

static uint8_t srgb_encode(float linear)
{
    float c = linear <= 0.0031308f ? 12.92f * linear : 1.055f * powf(linear, 1.0f / 2.4f) - 0.055f;
    c = c < 0.0f ? 0.0f : (c > 1.0f ? 1.0f : c);
    return (uint8_t)(c * 255.0f + 0.5f);
}

void rs_texture_set_init(RsTextureSet* set)
{
    memset(set, 0, sizeof *set);
    for (int i = 0; i < 256; ++i)
        set->srgb_to_linear[i] = rs_srgb_decode((float)i / 255.0f);
}

void rs_texture_set_free(RsTextureSet* set)
{
    for (size_t i = 0; i < set->keys.count; ++i)
        free(set->keys.data[i]);
    rs_array_free(&set->keys);
    rs_name_index_free(&set->index);
    rs_array_free(&set->descriptors);
    rs_array_free(&set->texels);
    memset(set, 0, sizeof *set);
}

static uint32_t level_count(uint32_t w, uint32_t h)
{
    uint32_t levels = 1, size = w > h ? w : h;
    while (size > 1) {
        size >>= 1;
        ++levels;
    }
    return levels;
}

/* One channel of texel t as linear light (colour channels of sRGB textures) or as stored. */
static float channel(const RsTextureSet* set, uint32_t t, int k, int srgb)
{
    uint32_t byte = (t >> (8 * k)) & 0xffu;
    return srgb && k < 3 ? set->srgb_to_linear[byte] : (float)byte / 255.0f;
}

/* Level `to` (tw x th) from the level before it (fw x fh), both already in place. */
static void downsample(RsTextureSet* set, size_t from, uint32_t fw, uint32_t fh, size_t to, uint32_t tw,
                       uint32_t th, int srgb)
{
    const uint32_t* src = set->texels.data + from;
    uint32_t* dst = set->texels.data + to;
    for (uint32_t y = 0; y < th; ++y)
        for (uint32_t x = 0; x < tw; ++x) {
            uint32_t xs[2] = {2 * x < fw ? 2 * x : fw - 1, 2 * x + 1 < fw ? 2 * x + 1 : fw - 1};
            uint32_t ys[2] = {2 * y < fh ? 2 * y : fh - 1, 2 * y + 1 < fh ? 2 * y + 1 : fh - 1};
            uint32_t out = 0;
            for (int k = 0; k < 4; ++k) {
                float sum = 0.0f;
                for (int j = 0; j < 2; ++j)
                    for (int i = 0; i < 2; ++i)
                        sum += channel(set, src[ys[j] * fw + xs[i]], k, srgb);
                float mean = 0.25f * sum;
                uint32_t byte = srgb && k < 3 ? srgb_encode(mean) : (uint32_t)(mean * 255.0f + 0.5f);
                out |= byte << (8 * k);
            }
            dst[y * tw + x] = out;
        }
}

static int32_t add_pixels(RsTextureSet* set, char* key, const uint8_t* rgba, uint32_t w, uint32_t h, uint32_t flags,
                          RsError* err)
{
    uint32_t levels = level_count(w, h);
    uint64_t total = 0;
    for (uint32_t l = 0, lw = w, lh = h; l < levels; ++l, lw = lw > 1 ? lw >> 1 : 1, lh = lh > 1 ? lh >> 1 : 1)
        total += (uint64_t)lw * lh;
    if (set->texels.count + total > 0xffffffffull) {
        rs_error_set(err, "texture '%s': all textures together exceed 2^32 texels", key + strcspn(key, ":") + 1);
        free(key);
        return -1;
    }
    if (rs_array_reserve(&set->texels, total, err) || rs_array_reserve(&set->descriptors, 1, err) ||
        rs_array_reserve(&set->keys, 1, err)) {
        free(key);
        return -1;
    }
    size_t first = set->texels.count;
    for (uint64_t i = 0; i < (uint64_t)w * h; ++i)
        set->texels.data[first + i] = (uint32_t)rgba[4 * i] | (uint32_t)rgba[4 * i + 1] << 8 |
                                      (uint32_t)rgba[4 * i + 2] << 16 | (uint32_t)rgba[4 * i + 3] << 24;
    size_t at = first;
    for (uint32_t l = 1, lw = w, lh = h; l < levels; ++l) {
        uint32_t nw = lw > 1 ? lw >> 1 : 1, nh = lh > 1 ? lh >> 1 : 1;
        downsample(set, at, lw, lh, at + (size_t)lw * lh, nw, nh, (flags & RS_TEXTURE_SRGB) != 0);
        at += (size_t)lw * lh;
        lw = nw;
        lh = nh;
    }
    set->texels.count = first + total;
    uint32_t index = (uint32_t)set->descriptors.count;
    set->descriptors.data[set->descriptors.count++] = rs_uint4((uint32_t)first, w, h, levels | flags << 8);
    set->keys.data[set->keys.count++] = key;
    if (rs_name_index_add(&set->index, set->keys.data, index, err))
        return -1;
    return (int32_t)index;
}

static char* make_key(const char* name, uint32_t flags, RsError* err)
{
    size_t n = strlen(name) + 16;
    char* key = malloc(n);
    if (!key) {
        rs_error_set(err, "out of memory loading texture '%s'", name);
        return NULL;
    }
    snprintf(key, n, "%u:%s", flags, name);
    return key;
}

int32_t rs_texture_add_rgba8(RsTextureSet* set, const char* name, const uint8_t* rgba, uint32_t width,
                             uint32_t height, uint32_t flags, RsError* err)
{
    char* key = make_key(name, flags, err);
    return key ? add_pixels(set, key, rgba, width, height, flags, err) : -1;
}

int32_t rs_texture_load(RsTextureSet* set, const char* path, uint32_t flags, const char* where, RsError* err)
{
    char* key = make_key(path, flags, err);
    if (!key)
        return -1;
    int32_t known = rs_name_index_find(&set->index, set->keys.data, key);
    if (known >= 0) {
        free(key);
        return known;
    }
    char why[256];
    size_t size = 0;
    unsigned char* bytes = (unsigned char*)rs_file_read_all(path, RS_TEXTURE_MAX_FILE_BYTES, &size, why, sizeof why);
    if (!bytes) {
        free(key);
        return rs_error_set(err, "%s: texture '%s': cannot read: %s", where, path, why);
    }
    RsImageSource format = rs_image_sniff(bytes, size);
    if (format == RS_IMAGE_SOURCE_HDR || format == RS_IMAGE_SOURCE_EXR) {
        free(bytes);
        free(key);
        return rs_error_set(err, "%s: texture '%s': a high-dynamic-range %s image; textures are 8-bit PNG or JPEG "
                            "images (HDR and EXR files are read as environment maps)", where, path,
                            rs_image_source_name(format));
    }
    const RsImageLimits limits = {RS_TEXTURE_MAX_SIZE, RS_TEXTURE_MAX_SIZE, RS_TEXTURE_MAX_BYTES};
    RsImage image;
    RsError problem = {{0}};
    int status = rs_image_decode(bytes, size, &limits, &image, &problem);
    free(bytes);
    if (status) {
        free(key);
        return rs_error_set(err, "%s: texture '%s': %s", where, path, problem.message);
    }
    if ((flags & RS_TEXTURE_LOAD_MASK) && (image.channels == 1 || image.channels == 3))
        for (size_t i = 0; i < (size_t)image.width * image.height; ++i)
            image.rgba8[4 * i + 3] = image.rgba8[4 * i];
    int32_t index = add_pixels(set, key, image.rgba8, image.width, image.height, flags & ~RS_TEXTURE_LOAD_MASK, err);
    rs_image_free(&image);
    if (index < 0 && err->message[0] == '\0')
        rs_error_set(err, "%s: texture '%s': out of memory", where, path);
    return index;
}

int32_t rs_texture_add_checkerboard(RsTextureSet* set, RsVec3 colour0, RsVec3 colour1, RsError* err)
{
    char name[160];
    snprintf(name, sizeof name, "checkerboard:%a,%a,%a,%a,%a,%a", colour0.x, colour0.y, colour0.z, colour1.x,
             colour1.y, colour1.z);
    char* key = make_key(name, RS_TEXTURE_CHECKER, err);
    if (!key)
        return -1;
    int32_t known = rs_name_index_find(&set->index, set->keys.data, key);
    if (known >= 0) {
        free(key);
        return known;
    }
    const float c[8] = {colour0.x, colour0.y, colour0.z, 1.0f, colour1.x, colour1.y, colour1.z, 1.0f};
    uint32_t first = (uint32_t)set->texels.count;
    for (int i = 0; i < 8; ++i)
        if (rs_array_push(&set->texels, rs_float_as_uint(c[i]), err)) {
            set->texels.count = first;
            free(key);
            return -1;
        }
    uint32_t index = (uint32_t)set->descriptors.count;
    if (rs_array_push(&set->descriptors,
                      rs_uint4(first, RS_CHECKER_DENSITY, RS_CHECKER_DENSITY, 1u | RS_TEXTURE_CHECKER << 8), err) ||
        rs_array_push(&set->keys, key, err)) {
        set->descriptors.count = index;
        set->texels.count = first;
        free(key);
        return -1;
    }
    if (rs_name_index_add(&set->index, set->keys.data, index, err))
        return -1;
    return (int32_t)index;
}

RsTextureView rs_texture_set_view(const RsTextureSet* set)
{
    RsTextureView v;
    memset(&v, 0, sizeof v);
    v.descriptors = set->descriptors.data;
    v.texels = set->texels.data;
    v.srgb_to_linear = set->srgb_to_linear;
    v.count = (uint32_t)set->descriptors.count;
    v.texel_count = (uint32_t)set->texels.count; /* add_pixels keeps it below 2^32 */
    return v;
}

/* The texture's last mip level: one texel, the mean of the whole image. */
static RsFloat4 texture_mean4(const RsTextureSet* set, uint32_t index)
{
    RsTextureView v = rs_texture_set_view(set);
    RsUint4 d = set->descriptors.data[index];
    if (rs_texture_flags(d) & RS_TEXTURE_CHECKER) { /* half of each colour */
        RsFloat4 a = rs_checker_lookup(&v, d, 0.25f, 0.25f, 0.0f), b = rs_checker_lookup(&v, d, 0.75f, 0.25f, 0.0f);
        return rs_float4(0.5f * (a.x + b.x), 0.5f * (a.y + b.y), 0.5f * (a.z + b.z), 0.5f * (a.w + b.w));
    }
    return rs_texture_bilinear(&v, d, rs_texture_levels(d) - 1, 0.5f, 0.5f);
}

float rs_texture_mean_channel(const RsTextureSet* set, uint32_t index, int channel)
{
    RsFloat4 c = texture_mean4(set, index);
    return channel == 0 ? c.x : channel == 1 ? c.y : channel == 2 ? c.z : c.w;
}

RsVec3 rs_texture_mean(const RsTextureSet* set, uint32_t index)
{
    RsFloat4 c = texture_mean4(set, index);
    return rs_vec3(c.x, c.y, c.z);
}
