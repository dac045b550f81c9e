/* image_io.c - PNG and HDR encoded by stb_image_write, PFM by hand, all in memory, then written
 * by safe_file's checked, atomic write (see image_io.h). Host C11. */
#define _POSIX_C_SOURCE 200809L
#include "host/io/image_io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <stb_image_write.h>

#include "host/io/exr_io.h"
#include "host/io/safe_file.h"

static const char* const curve_names[RS_TONE_COUNT] = {"clamp", "reinhard", "aces"};

int rs_tone_curve_parse(const char* name, uint32_t* out)
{
    for (uint32_t i = 0; i < RS_TONE_COUNT; ++i) {
        if (strcmp(name, curve_names[i]) == 0) {
            *out = i;
            return 0;
        }
    }
    return -1;
}


int rs_image_format_from_path(const char* path, RsImageFormat* out, RsError* err)
{
    const char* dot = strrchr(path, '.');
    const char* slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash))
        return rs_error_set(err, "%s: no file extension; use .png, .exr, .hdr or .pfm", path);
    if (strcasecmp(dot, ".png") == 0)
        *out = RS_IMAGE_PNG;
    else if (strcasecmp(dot, ".hdr") == 0)
        *out = RS_IMAGE_HDR;
    else if (strcasecmp(dot, ".pfm") == 0)
        *out = RS_IMAGE_PFM;
    else if (strcasecmp(dot, ".exr") == 0)
        *out = RS_IMAGE_EXR;
    else
        return rs_error_set(err, "%s: unsupported image format '%s'; use .png, .exr, .hdr or .pfm", path, dot);
    return 0;
}

void rs_film_resolve(const RsFloat4* film, uint32_t pixels, float* rgb)
{
    for (uint32_t i = 0; i < pixels; ++i) {
        RsVec3 c = rs_film_pixel(film[i]);
        rgb[3 * i + 0] = c.x;
        rgb[3 * i + 1] = c.y;
        rgb[3 * i + 2] = c.z;
    }
}

int rs_image_check_writable(const char* path, RsError* err)
{
    RsImageFormat fmt;
    if (rs_image_format_from_path(path, &fmt, err))
        return -1;
    return rs_file_check_writable(path, err);
}

int rs_image_check_writable_png(const char* path, RsError* err)
{
    RsImageFormat fmt;
    if (rs_image_check_writable(path, err) || rs_image_format_from_path(path, &fmt, err))
        return -1;
    return fmt == RS_IMAGE_PNG ? 0 : rs_error_set(err, "%s: a screenshot is a .png file", path);
}

/* A growing byte buffer that stb's writers fill through their callback. */
typedef struct Encoded {
    unsigned char* data;
    size_t size, cap;
    int failed;
} Encoded;

static int encoded_append(Encoded* e, const void* bytes, size_t n)
{
    if (e->failed)
        return -1;
    if (e->size + n > e->cap) {
        size_t cap = e->cap ? e->cap : 65536;
        while (cap < e->size + n)
            cap *= 2;
        unsigned char* grown = realloc(e->data, cap);
        if (!grown) {
            e->failed = 1;
            return -1;
        }
        e->data = grown;
        e->cap = cap;
    }
    memcpy(e->data + e->size, bytes, n);
    e->size += n;
    return 0;
}

static void stb_sink(void* context, void* bytes, int n) { encoded_append(context, bytes, (size_t)n); }

/* PFM: "PF", size, negative scale = little-endian; rows run bottom to top. */
static int encode_pfm(Encoded* e, uint32_t w, uint32_t h, const float* rgb)
{
    char header[64];
    int n = snprintf(header, sizeof header, "PF\n%u %u\n-1.0\n", w, h);
    int bad = encoded_append(e, header, (size_t)n);
    for (uint32_t y = h; !bad && y-- > 0;)
        bad = encoded_append(e, rgb + (size_t)y * w * 3, (size_t)w * 3 * sizeof(float));
    return bad ? 0 : 1;
}

/* stb's file writers ignore fwrite and fclose errors (a full disk would go unnoticed), so the
 * image is encoded in memory and written by rs_file_write_atomic, which checks every call. */
int rs_image_write(const char* path, uint32_t width, uint32_t height, const float* rgb, const uint8_t* rgba,
                   RsError* err)
{
    RsImageFormat fmt;
    if (rs_image_format_from_path(path, &fmt, err))
        return -1;
    if (fmt == RS_IMAGE_EXR) {
        RsExrLayer beauty = {"", "RGB", rgb};
        return rs_exr_write(path, width, height, &beauty, 1, 0, err);
    }
    Encoded e = {NULL, 0, 0, 0};
    int ok = 0;
    if (fmt == RS_IMAGE_PNG)
        ok = stbi_write_png_to_func(stb_sink, &e, (int)width, (int)height, 4, rgba, (int)width * 4) != 0;
    else if (fmt == RS_IMAGE_HDR)
        ok = stbi_write_hdr_to_func(stb_sink, &e, (int)width, (int)height, 3, rgb) != 0;
    else
        ok = encode_pfm(&e, width, height, rgb);
    int status;
    if (!ok || e.failed) {
        status = rs_error_set(err, "cannot write '%s': out of memory encoding a %ux%u image", path, width, height);
    } else {
        RsBytes bytes = {e.data, e.size};
        status = rs_file_write_atomic(path, &bytes, 1, err);
    }
    free(e.data);
    return status;
}
