/* image_io.c - PNG through stb_image_write, HDR through stb_image_write, PFM by hand; all
 * via a temporary file and rename (see image_io.h). Host C11. */
#define _POSIX_C_SOURCE 200809L
#include "image_io.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <stb_image_write.h>

static const char* const curve_names[RS_TONE_COUNT] = {"clamp", "reinhard", "aces"};

int rs_tone_curve_parse(const char* name, RsToneCurve* out)
{
    for (int i = 0; i < RS_TONE_COUNT; ++i) {
        if (strcmp(name, curve_names[i]) == 0) {
            *out = (RsToneCurve)i;
            return 0;
        }
    }
    return -1;
}

const char* rs_tone_curve_name(RsToneCurve c) { return c < RS_TONE_COUNT ? curve_names[c] : "?"; }

int rs_image_format_from_path(const char* path, RsImageFormat* out, RsError* err)
{
    const char* dot = strrchr(path, '.');
    const char* slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash))
        return rs_error_set(err, "%s: no file extension; use .png, .hdr or .pfm", path);
    if (strcasecmp(dot, ".png") == 0)
        *out = RS_IMAGE_PNG;
    else if (strcasecmp(dot, ".hdr") == 0)
        *out = RS_IMAGE_HDR;
    else if (strcasecmp(dot, ".pfm") == 0)
        *out = RS_IMAGE_PFM;
    else
        return rs_error_set(err, "%s: unsupported image format '%s'; use .png, .hdr or .pfm", path, dot);
    return 0;
}

void rs_film_resolve(const RsFloat4* film, uint32_t pixels, float* rgb)
{
    for (uint32_t i = 0; i < pixels; ++i) {
        float inv = film[i].w > 0.0f ? 1.0f / film[i].w : 0.0f;
        rgb[3 * i + 0] = film[i].x * inv;
        rgb[3 * i + 1] = film[i].y * inv;
        rgb[3 * i + 2] = film[i].z * inv;
    }
}

static float srgb_encode(float c)
{
    c = c <= 0.0f ? 0.0f : (c >= 1.0f ? 1.0f : c);
    return c <= 0.0031308f ? 12.92f * c : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
}

static float aces_fit(float x)
{
    const float a = 2.51f, b = 0.03f, c = 2.43f, d = 0.59f, e = 0.14f;
    return (x * (a * x + b)) / (x * (c * x + d) + e);
}

void rs_tonemap_pixel(const RsToneMap* tm, const float* in, uint8_t* out)
{
    float scale = exp2f(tm->exposure);
    float c[3];
    for (int k = 0; k < 3; ++k)
        c[k] = isfinite(in[k]) ? in[k] * scale : 0.0f; /* a NaN pixel shows black, never garbage */
    if (tm->curve == RS_TONE_REINHARD) {
        float lum = 0.2126f * c[0] + 0.7152f * c[1] + 0.0722f * c[2];
        float k = lum > 0.0f ? 1.0f / (1.0f + lum) : 1.0f;
        for (int i = 0; i < 3; ++i)
            c[i] *= k;
    } else if (tm->curve == RS_TONE_ACES) {
        for (int i = 0; i < 3; ++i)
            c[i] = aces_fit(c[i] > 0.0f ? c[i] : 0.0f);
    }
    for (int i = 0; i < 3; ++i)
        out[i] = (uint8_t)lrintf(255.0f * srgb_encode(c[i]));
}

static void temp_name(const char* path, char* out, size_t size)
{
    snprintf(out, size, "%s.tmp-%ld", path, (long)getpid());
}

int rs_image_check_writable(const char* path, RsError* err)
{
    RsImageFormat fmt;
    if (rs_image_format_from_path(path, &fmt, err))
        return -1;
    char tmp[4096];
    temp_name(path, tmp, sizeof tmp);
    FILE* f = fopen(tmp, "wb");
    if (!f)
        return rs_error_set(err, "cannot write '%s': %s", path, strerror(errno));
    fclose(f);
    remove(tmp);
    return 0;
}

static int write_pfm(const char* path, uint32_t w, uint32_t h, const float* rgb)
{
    FILE* f = fopen(path, "wb");
    if (!f)
        return -1;
    /* PFM: "PF", size, negative scale = little-endian; rows run bottom to top. */
    int ok = fprintf(f, "PF\n%u %u\n-1.0\n", w, h) > 0;
    for (uint32_t y = h; ok && y-- > 0;)
        ok = fwrite(rgb + (size_t)y * w * 3, sizeof(float), (size_t)w * 3, f) == (size_t)w * 3;
    ok &= fclose(f) == 0;
    return ok ? 0 : -1;
}

int rs_image_write(const char* path, uint32_t width, uint32_t height, const float* rgb, const RsToneMap* tm,
                   RsError* err)
{
    RsImageFormat fmt;
    if (rs_image_format_from_path(path, &fmt, err))
        return -1;
    char tmp[4096];
    temp_name(path, tmp, sizeof tmp);
    size_t pixels = (size_t)width * height;
    int ok = 0;
    if (fmt == RS_IMAGE_PNG) {
        uint8_t* bytes = malloc(pixels * 3);
        if (!bytes)
            return rs_error_set(err, "%s: out of memory converting the image", path);
        for (size_t i = 0; i < pixels; ++i)
            rs_tonemap_pixel(tm, rgb + 3 * i, bytes + 3 * i);
        ok = stbi_write_png(tmp, (int)width, (int)height, 3, bytes, (int)width * 3) != 0;
        free(bytes);
    } else if (fmt == RS_IMAGE_HDR) {
        ok = stbi_write_hdr(tmp, (int)width, (int)height, 3, rgb) != 0;
    } else {
        ok = write_pfm(tmp, width, height, rgb) == 0;
    }
    if (!ok) {
        int e = errno;
        remove(tmp);
        return rs_error_set(err, "cannot write '%s': %s", path, e ? strerror(e) : "write failed");
    }
    if (rename(tmp, path) != 0) {
        int e = errno;
        remove(tmp);
        return rs_error_set(err, "cannot move the finished image to '%s': %s", path, strerror(e));
    }
    return 0;
}
