/* hdr_decode.c - Radiance RGBE (.hdr, .pic) images, read by raystream's own code (see
 * image_decode.h). Host C11.
 *
 * The format (Greg Ward, "Real Pixels", Graphics Gems II, and Radiance's color.c as documented):
 * a text header from "#?RADIANCE" (or "#?RGBE") to an empty line, holding
 * "FORMAT=32-bit_rle_rgbe"; a resolution line, "-Y H +X W" for rows from the top ("+Y H +X W",
 * rows from the bottom, is read too; the transposed and mirrored orientations are refused); then
 * H scanlines of W pixels (R, G, B mantissas sharing the exponent E: value = m * 2^(E - 136)).
 * A scanline is flat (4 bytes a pixel) or, when 8 <= W < 32768 and it starts with the bytes
 * 2, 2, W >> 8, W & 255, run-length encoded: the four components one after the other, each a
 * sequence of runs (a count byte c > 128 and one value repeated c - 128 times) and literal
 * spans (c in 1..128, then c values). Radiance's pre-1991 run-length pixels (1, 1, 1, n) are not
 * expanded, as stb_image and Mitsuba do not either.
 *
 * Every read is checked against the end of the file and every run against the end of its
 * scanline; a file that ends before its last pixel is an error. The work is bounded by the file
 * (each byte yields at most 127 values); the declared size is checked against the budget, and
 * against the smallest file that could hold it, before the image is allocated.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/io/image_decode.h"

#define RS_HDR_MAX_HEADER 65536 /* bytes of header text; real ones are a few hundred */

typedef struct HdrReader {
    const unsigned char* bytes;
    size_t size, at;
} HdrReader;

/* The next header line (without its newline) into line[]; 0, or -1 at the end of the file or
 * the header's limit. */
static int next_line(HdrReader* r, char* line, size_t n)
{
    size_t len = 0;
    for (;;) {
        if (r->at >= r->size || r->at >= RS_HDR_MAX_HEADER)
            return -1;
        char c = (char)r->bytes[r->at++];
        if (c == '\n')
            break;
        if (len + 1 < n)
            line[len++] = c;
    }
    line[len] = '\0';
    return 0;
}

/* A decimal number of at most 9 digits at *p, advancing it; -1 if there is none. */
static long number(const char** p)
{
    long v = 0;
    int digits = 0;
    while (**p >= '0' && **p <= '9' && digits < 10) {
        v = v * 10 + (**p - '0');
        ++(*p);
        ++digits;
    }
    return digits == 0 || digits > 9 ? -1 : v;
}

/* "-Y H +X W" or "+Y H +X W": 0 with *w, *h and *bottom_up set, or -1. */
static int resolution(const char* line, uint32_t* w, uint32_t* h, int* bottom_up)
{
    const char* p = line;
    if ((p[0] != '-' && p[0] != '+') || p[1] != 'Y' || p[2] != ' ')
        return -1;
    *bottom_up = p[0] == '+';
    p += 3;
    long height = number(&p);
    if (height < 0 || strncmp(p, " +X ", 4) != 0)
        return -1;
    p += 4;
    long width = number(&p);
    while (*p == ' ' || *p == '\r')
        ++p;
    if (width < 0 || *p != '\0')
        return -1;
    *w = (uint32_t)width;
    *h = (uint32_t)height;
    return 0;
}

static RsFloat4 rgbe_to_float(const unsigned char* c)
{
    if (c[3] == 0)
        return rs_float4(0.0f, 0.0f, 0.0f, 1.0f);
    float f = ldexpf(1.0f, (int)c[3] - 136);
    return rs_float4(c[0] * f, c[1] * f, c[2] * f, 1.0f);
}

/* One run-length scanline of w pixels into rgbe (4 bytes a pixel, component-interleaved), the
 * four header bytes already read; 0, or -1 with err set. */
static int read_rle_scanline(HdrReader* r, uint32_t w, uint32_t y, unsigned char* rgbe, RsError* err)
{
    for (int k = 0; k < 4; ++k) {
        uint32_t x = 0;
        while (x < w) {
            if (r->at >= r->size)
                return rs_error_set(err, "the file is truncated: it ends in scanline %u of the image", y);
            unsigned count = r->bytes[r->at++];
            if (count > 128) {
                count -= 128;
                if (count > w - x)
                    return rs_error_set(err, "corrupt Radiance HDR: a run of %u overruns scanline %u at pixel %u of %u",
                                        count, y, x, w);
                if (r->at >= r->size)
                    return rs_error_set(err, "the file is truncated: it ends in scanline %u of the image", y);
                unsigned char value = r->bytes[r->at++];
                for (unsigned i = 0; i < count; ++i)
                    rgbe[4 * (x + i) + (uint32_t)k] = value;
            } else {
                if (count == 0)
                    return rs_error_set(err, "corrupt Radiance HDR: an empty run in scanline %u", y);
                if (count > w - x)
                    return rs_error_set(err, "corrupt Radiance HDR: %u values overrun scanline %u at pixel %u of %u",
                                        count, y, x, w);
                if (count > r->size - r->at)
                    return rs_error_set(err, "the file is truncated: it ends in scanline %u of the image", y);
                for (unsigned i = 0; i < count; ++i)
                    rgbe[4 * (x + i) + (uint32_t)k] = r->bytes[r->at + i];
                r->at += count;
            }
            x += count;
        }
    }
    return 0;
}

/* The pixels after the header: 0, or -1 with err set. */
static int read_pixels(HdrReader* r, RsImage* image, int bottom_up, RsError* err)
{
    uint32_t w = image->width, h = image->height;
    int rle_possible = w >= 8 && w < 32768;
    unsigned char* line = rle_possible ? malloc((size_t)w * 4) : NULL;
    if (rle_possible && !line)
        return rs_error_set(err, "out of memory");
    int status = 0;
    for (uint32_t y = 0; y < h; ++y) {
        RsFloat4* out = image->rgbaf + (size_t)(bottom_up ? h - 1 - y : y) * w;
        const unsigned char* b = r->bytes + r->at;
        size_t left = r->size - r->at;
        if (rle_possible && left >= 4 && b[0] == 2 && b[1] == 2 && b[2] < 128) {
            uint32_t declared = (uint32_t)b[2] << 8 | b[3];
            if (declared != w) {
                status = rs_error_set(err, "corrupt Radiance HDR: scanline %u says it is %u pixels wide, not %u", y,
                                      declared, w);
                break;
            }
            r->at += 4;
            if ((status = read_rle_scanline(r, w, y, line, err)) != 0)
                break;
            for (uint32_t x = 0; x < w; ++x)
                out[x] = rgbe_to_float(line + 4 * x);
        } else {
            if (left / 4 < w) {
                status = rs_error_set(err, "the file is truncated: it ends in scanline %u of the image", y);
                break;
            }
            for (uint32_t x = 0; x < w; ++x)
                out[x] = rgbe_to_float(b + 4 * x);
            r->at += (size_t)w * 4;
        }
    }
    free(line);
    return status;
}

int rs_hdr_decode(const unsigned char* bytes, size_t size, const RsImageLimits* limits, RsImage* image, RsError* err)
{
    memset(image, 0, sizeof *image);
    HdrReader r = {bytes, size, 0};
    char line[256];
    if (next_line(&r, line, sizeof line) || (strncmp(line, "#?RADIANCE", 10) != 0 && strncmp(line, "#?RGBE", 6) != 0))
        return rs_error_set(err, "not a Radiance HDR file (its first line is not #?RADIANCE)");
    int rgbe = 0;
    for (;;) {
        if (next_line(&r, line, sizeof line))
            return rs_error_set(err, "corrupt Radiance HDR: the header does not end (no empty line in its first %d "
                                "bytes)", RS_HDR_MAX_HEADER);
        if (line[0] == '\0' || strcmp(line, "\r") == 0)
            break;
        if (strncmp(line, "FORMAT=", 7) == 0) {
            if (strncmp(line + 7, "32-bit_rle_rgbe", 15) != 0)
                return rs_error_set(err, "a Radiance HDR file in format '%s'; only 32-bit_rle_rgbe is read", line + 7);
            rgbe = 1;
        }
    }
    if (!rgbe)
        return rs_error_set(err, "corrupt Radiance HDR: the header has no FORMAT=32-bit_rle_rgbe line");
    uint32_t w = 0, h = 0;
    int bottom_up = 0;
    if (next_line(&r, line, sizeof line) || resolution(line, &w, &h, &bottom_up))
        return rs_error_set(err, "corrupt or unsupported Radiance HDR: the resolution line is not '-Y H +X W'");
    if (rs_image_check_size(w, h, 1, limits, err))
        return -1;
    /* the smallest scanline: flat, or run-length with every component in runs of 127 */
    uint64_t runs = ((uint64_t)w + 126) / 127;
    uint64_t smallest = w >= 8 && w < 32768 && 4 + 8 * runs < 4ull * w ? 4 + 8 * runs : 4ull * w;
    if ((uint64_t)(size - r.at) < smallest * h)
        return rs_error_set(err, "the file is truncated: %ux%u pixels need at least %llu bytes, the file has %zu after "
                            "its header", w, h, (unsigned long long)(smallest * h), size - r.at);
    if (rs_image_allocate(image, w, h, 1, limits, err) == 0 && read_pixels(&r, image, bottom_up, err) == 0) {
        image->channels = 3;
        image->format = RS_IMAGE_SOURCE_HDR;
        return 0;
    }
    rs_image_free(image);
    return -1;
}
