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

const char* rs_tone_curve_name(uint32_t curve) { return curve < RS_TONE_COUNT ? curve_names[curve] : "?"; }

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
        RsVec3 c = rs_film_pixel(film[i]);
        rgb[3 * i + 0] = c.x;
        rgb[3 * i + 1] = c.y;
        rgb[3 * i + 2] = c.z;
    }
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

int rs_image_check_writable_png(const char* path, RsError* err)
{
    RsImageFormat fmt;
    if (rs_image_check_writable(path, err) || rs_image_format_from_path(path, &fmt, err))
        return -1;
    return fmt == RS_IMAGE_PNG ? 0 : rs_error_set(err, "%s: a screenshot is a .png file", path);
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

int rs_image_write(const char* path, uint32_t width, uint32_t height, const float* rgb, const uint8_t* rgba,
                   RsError* err)
{
    RsImageFormat fmt;
    if (rs_image_format_from_path(path, &fmt, err))
        return -1;
    char tmp[4096];
    temp_name(path, tmp, sizeof tmp);
    int ok = 0;
    if (fmt == RS_IMAGE_PNG) {
        ok = stbi_write_png(tmp, (int)width, (int)height, 4, rgba, (int)width * 4) != 0;
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
