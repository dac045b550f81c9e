/* image_read.c - PFM parsed by hand, OpenEXR through exr_io.h (see image_read.h). Host C11. */
#define _POSIX_C_SOURCE 200809L
#include "host/io/image_read.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "host/io/exr_io.h"
#include "host/io/safe_file.h"

/* host/scene/settings.h's RS_SCENE_MAX_RESOLUTION: io/ may not include scene/ (the layer rule) */
#define RS_READ_MAX_SIDE 16384u
#define RS_PFM_MAX_BYTES ((uint64_t)RS_READ_MAX_SIDE * RS_READ_MAX_SIDE * 12u + 4096u)

void rs_rgb_image_free(RsRgbImage* image)
{
    free(image->rgb);
    free(image->variance);
    memset(image, 0, sizeof *image);
}

/* One header token of a PFM: the text up to the next white space, after skipping white space. */
static const char* pfm_token(const char* p, const char* end, char* out, size_t size)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        ++p;
    size_t n = 0;
    while (p < end && !(*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) {
        if (n + 1 < size)
            out[n++] = *p;
        ++p;
    }
    out[n] = '\0';
    return p;
}

static int parse_side(const char* text, uint32_t* out)
{
    char* end = NULL;
    if (text[0] < '0' || text[0] > '9')
        return -1;
    unsigned long v = strtoul(text, &end, 10);
    if (*end != '\0' || v < 1 || v > RS_READ_MAX_SIDE)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

/* PFM: "PF" (colour) or "Pf" (grey), width, height, a scale whose sign gives the byte order
 * (negative: little-endian), one white-space byte, then the rows bottom first. */
static int read_pfm(const char* path, RsRgbImage* image, RsError* err)
{
    char why[256];
    size_t size = 0;
    char* data = rs_file_read_all(path, RS_PFM_MAX_BYTES, &size, why, sizeof why);
    if (!data)
        return rs_error_set(err, "cannot read '%s': %s", path, why);
    const char* end = data + size;
    char magic[8], w[16], h[16], scale[32];
    const char* p = pfm_token(data, end, magic, sizeof magic);
    p = pfm_token(p, end, w, sizeof w);
    p = pfm_token(p, end, h, sizeof h);
    p = pfm_token(p, end, scale, sizeof scale);
    int channels = strcmp(magic, "PF") == 0 ? 3 : strcmp(magic, "Pf") == 0 ? 1 : 0;
    char* scale_end = NULL;
    double s = strtod(scale, &scale_end);
    int status = -1;
    if (!channels)
        rs_error_set(err, "%s: not a PFM file (it does not start with PF or Pf)", path);
    else if (parse_side(w, &image->width) || parse_side(h, &image->height))
        rs_error_set(err, "%s: bad PFM size '%s x %s' (1 to %u pixels a side)", path, w, h, RS_READ_MAX_SIDE);
    else if (!scale[0] || *scale_end != '\0' || s == 0.0)
        rs_error_set(err, "%s: bad PFM scale '%s' (a non-zero number; negative = little-endian)", path, scale);
    else if (p >= end)
        rs_error_set(err, "%s: the PFM header is cut short", path);
    else {
        ++p; /* the single white-space byte before the data */
        size_t pixels = (size_t)image->width * image->height, need = pixels * (size_t)channels * sizeof(float);
        if ((size_t)(end - p) < need) {
            rs_error_set(err, "%s: a %ux%u PFM needs %zu bytes of pixels, the file holds %zu", path, image->width,
                         image->height, need, (size_t)(end - p));
        } else if (!(image->rgb = malloc(pixels * 3 * sizeof(float)))) {
            rs_error_set(err, "%s: out of memory for a %ux%u image", path, image->width, image->height);
        } else {
            uint16_t probe = 1;
            int host_little = *(const uint8_t*)&probe == 1, swap = (s < 0.0) != host_little;
            for (uint32_t y = 0; y < image->height; ++y) {
                const unsigned char* row = (const unsigned char*)p + (size_t)y * image->width * channels * 4;
                float* out = image->rgb + (size_t)(image->height - 1 - y) * image->width * 3; /* bottom first */
                for (uint32_t x = 0; x < image->width; ++x) {
                    for (int c = 0; c < 3; ++c) {
                        unsigned char b[4];
                        memcpy(b, row + ((size_t)x * channels + (channels == 3 ? c : 0)) * 4, 4);
                        if (swap) {
                            unsigned char t = b[0];
                            b[0] = b[3];
                            b[3] = t;
                            t = b[1];
                            b[1] = b[2];
                            b[2] = t;
                        }
                        memcpy(&out[3 * x + c], b, 4);
                    }
                }
            }
            status = 0;
        }
    }
    free(data);
    if (status)
        rs_rgb_image_free(image);
    return status;
}

static int read_exr(const char* path, RsRgbImage* image, RsError* err)
{
    RsExrImage exr;
    if (rs_exr_read(path, &exr, err))
        return -1;
    const char* names[2][3] = {{"R", "G", "B"}, {"variance.R", "variance.G", "variance.B"}};
    const float* ch[2][3];
    for (int l = 0; l < 2; ++l)
        for (int c = 0; c < 3; ++c)
            ch[l][c] = rs_exr_channel(&exr, names[l][c]);
    int status = -1;
    size_t pixels = (size_t)exr.width * exr.height;
    image->width = exr.width;
    image->height = exr.height;
    if (!ch[0][0] || !ch[0][1] || !ch[0][2]) {
        rs_error_set(err, "%s: no R, G and B channels", path);
    } else if (exr.width > RS_READ_MAX_SIDE || exr.height > RS_READ_MAX_SIDE) {
        rs_error_set(err, "%s: %ux%u is over %u pixels a side", path, exr.width, exr.height, RS_READ_MAX_SIDE);
    } else if (!(image->rgb = malloc(pixels * 3 * sizeof(float)))) {
        rs_error_set(err, "%s: out of memory for a %ux%u image", path, exr.width, exr.height);
    } else {
        int has_variance = ch[1][0] && ch[1][1] && ch[1][2];
        if (has_variance && !(image->variance = malloc(pixels * 3 * sizeof(float))))
            has_variance = 0; /* the estimate is optional; the image is not */
        for (size_t i = 0; i < pixels; ++i)
            for (int c = 0; c < 3; ++c) {
                image->rgb[3 * i + c] = ch[0][c][i];
                if (has_variance)
                    image->variance[3 * i + c] = ch[1][c][i];
            }
        status = 0;
    }
    rs_exr_image_free(&exr);
    if (status)
        rs_rgb_image_free(image);
    return status;
}

int rs_image_read(const char* path, RsRgbImage* image, RsError* err)
{
    memset(image, 0, sizeof *image);
    const char* dot = strrchr(path, '.');
    const char* slash = strrchr(path, '/');
    if (dot && (!slash || dot > slash) && strcasecmp(dot, ".pfm") == 0)
        return read_pfm(path, image, err);
    if (dot && (!slash || dot > slash) && strcasecmp(dot, ".exr") == 0)
        return read_exr(path, image, err);
    return rs_error_set(err, "%s: cannot read this kind of image; give a .pfm or .exr file", path);
}
