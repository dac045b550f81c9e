/* image_decode.c - recognising an image by its content, the memory budget, and the dispatch to
 * the per-format decoders (see image_decode.h). Host C11. */
#include "host/io/image_decode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/util/array.h"

#define RS_ACCEPTED_FORMATS "PNG, JPEG, Radiance .hdr and OpenEXR .exr"

static int starts_with(const unsigned char* bytes, size_t size, const char* magic, size_t n)
{
    return size >= n && memcmp(bytes, magic, n) == 0;
}

RsImageSource rs_image_sniff(const unsigned char* bytes, size_t size)
{
    if (starts_with(bytes, size, "\x89PNG\r\n\x1a\n", 8))
        return RS_IMAGE_SOURCE_PNG;
    if (starts_with(bytes, size, "\xff\xd8\xff", 3))
        return RS_IMAGE_SOURCE_JPEG;
    if (starts_with(bytes, size, "#?RADIANCE", 10) || starts_with(bytes, size, "#?RGBE", 6))
        return RS_IMAGE_SOURCE_HDR;
    if (starts_with(bytes, size, "\x76\x2f\x31\x01", 4))
        return RS_IMAGE_SOURCE_EXR;
    return RS_IMAGE_SOURCE_UNKNOWN;
}

const char* rs_image_source_name(RsImageSource format)
{
    switch (format) {
    case RS_IMAGE_SOURCE_PNG: return "PNG";
    case RS_IMAGE_SOURCE_JPEG: return "JPEG";
    case RS_IMAGE_SOURCE_HDR: return "Radiance HDR";
    case RS_IMAGE_SOURCE_EXR: return "OpenEXR";
    default: return "unknown";
    }
}

/* Formats stb_image used to read, and a few more, told apart so that the message can say what
 * the file is; NULL for anything else. TGA has no signature and is not named. */
static const char* dropped_format(const unsigned char* b, size_t size)
{
    if (starts_with(b, size, "BM", 2))
        return "BMP";
    if (starts_with(b, size, "GIF87a", 6) || starts_with(b, size, "GIF89a", 6))
        return "GIF";
    if (starts_with(b, size, "8BPS", 4))
        return "Photoshop PSD";
    if (starts_with(b, size, "\x53\x80\xf6\x34", 4))
        return "Softimage PIC";
    if (starts_with(b, size, "II*\0", 4) || starts_with(b, size, "MM\0*", 4))
        return "TIFF";
    if (size >= 12 && memcmp(b, "RIFF", 4) == 0 && memcmp(b + 8, "WEBP", 4) == 0)
        return "WebP";
    if (size >= 3 && b[0] == 'P' && b[1] >= '1' && b[1] <= '7' && (b[2] == '\n' || b[2] == ' ' || b[2] == '\r' ||
                                                                 b[2] == '\t'))
        return "PNM (PBM, PGM, PPM or PAM)";
    if (size >= 3 && b[0] == 'P' && (b[1] == 'F' || b[1] == 'f') && (b[2] == '\n' || b[2] == ' '))
        return "PFM";
    return NULL;
}

int rs_image_decode(const unsigned char* bytes, size_t size, const RsImageLimits* limits, RsImage* image,
                    RsError* err)
{
    memset(image, 0, sizeof *image);
    int status;
    switch (rs_image_sniff(bytes, size)) {
    case RS_IMAGE_SOURCE_PNG: status = rs_png_decode(bytes, size, limits, image, err); break;
    case RS_IMAGE_SOURCE_JPEG: status = rs_jpeg_decode(bytes, size, limits, image, err); break;
    case RS_IMAGE_SOURCE_HDR: status = rs_hdr_decode(bytes, size, limits, image, err); break;
    case RS_IMAGE_SOURCE_EXR: status = rs_exr_decode(bytes, size, limits, image, err); break;
    default: {
        const char* other = dropped_format(bytes, size);
        if (size == 0)
            return rs_error_set(err, "the file is empty, not an image");
        if (other)
            return rs_error_set(err, "a %s image, which raystream does not read: convert it to one of " RS_ACCEPTED_FORMATS,
                                other);
        return rs_error_set(err, "not an image raystream reads (" RS_ACCEPTED_FORMATS ", recognised by their content)");
    }
    }
    if (status)
        rs_image_free(image);
    return status;
}

void rs_image_free(RsImage* image)
{
    free(image->rgba8);
    free(image->rgbaf);
    memset(image, 0, sizeof *image);
}

static void format_bytes(char* out, size_t n, uint64_t bytes)
{
    if (bytes >= (1ull << 30) && bytes % (1ull << 30) == 0)
        snprintf(out, n, "%llu GiB", (unsigned long long)(bytes >> 30));
    else
        snprintf(out, n, "%llu MiB", (unsigned long long)((bytes + (1ull << 20) - 1) >> 20));
}

int rs_image_check_size(uint32_t width, uint32_t height, int floats, const RsImageLimits* limits, RsError* err)
{
    char budget[32], need[32];
    format_bytes(budget, sizeof budget, limits->max_bytes);
    if (width == 0 || height == 0)
        return rs_error_set(err, "the image has no pixels (%ux%u)", width, height);
    if (width > limits->max_width || height > limits->max_height)
        return rs_error_set(err, "the image declares %ux%u pixels, more than the limit of %ux%u (%s decoded)", width,
                            height, limits->max_width, limits->max_height, budget);
    /* both sides are within the limits, so far below 2^32: no overflow */
    uint64_t bytes = (uint64_t)width * height * (floats ? sizeof(RsFloat4) : 4);
    if (bytes > limits->max_bytes) {
        format_bytes(need, sizeof need, bytes);
        return rs_error_set(err, "the image declares %ux%u pixels, %s decoded, more than the limit of %s", width,
                            height, need, budget);
    }
    return 0;
}

int rs_image_allocate(RsImage* image, uint32_t width, uint32_t height, int floats, const RsImageLimits* limits,
                      RsError* err)
{
    if (rs_image_check_size(width, height, floats, limits, err))
        return -1;
    uint64_t bytes = (uint64_t)width * height * (floats ? sizeof(RsFloat4) : 4);
    char need[32];
    image->width = width;
    image->height = height;
    if (floats)
        image->rgbaf = rs_alloc_aligned((size_t)width * height, sizeof(RsFloat4), 16);
    else
        image->rgba8 = malloc((size_t)bytes);
    if (!image->rgbaf && !image->rgba8) {
        format_bytes(need, sizeof need, bytes);
        return rs_error_set(err, "out of memory: %ux%u pixels need %s", width, height, need);
    }
    return 0;
}
