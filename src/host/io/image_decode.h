/* image_decode.h - decoding image files that come from strangers: textures and environment
 * maps. Host C11.
 *
 * Every format is recognised by its content, never by its name, and decoded by a maintained
 * library that checks its input or by a reader of raystream's own:
 *   PNG      libpng (every chunk's CRC checked, ancillary chunks included), 8-bit or 16-bit,
 *            any colour type and interlacing, decoded to 8 bits a channel;
 *   JPEG     libjpeg-turbo (baseline and progressive; grey, YCbCr and RGB);
 *   .hdr     Radiance RGBE, flat and run-length scanlines (hdr_decode.c);
 *   .exr     OpenEXR through its C API (scanline parts; R, G, B or Y channels).
 * Everything else (TGA, BMP, GIF, PNM, PSD, TIFF, WebP, ...) is refused with the list above.
 *
 * The promise, for any bytes at all: decoding either succeeds with every pixel written from the
 * file, or fails with a message saying what is wrong; it never reads outside its input, never
 * hangs (work is bounded by the file's size and the declared image size), and it checks the
 * declared size against the caller's RsImageLimits before it allocates the image, so a tiny file
 * that claims to be enormous is refused at once. A truncated file, a bad CRC, a bad marker or a
 * run that overruns its scanline is an error, not an image with made-up texels.
 *
 * Messages name the problem only ("truncated: ..."); callers put the file's name in front.
 */
#ifndef RS_HOST_IMAGE_DECODE_H
#define RS_HOST_IMAGE_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "host/util/error.h"
#include "kernel/util/vecmath.h"

typedef enum RsImageSource {
    RS_IMAGE_SOURCE_UNKNOWN = 0,
    RS_IMAGE_SOURCE_PNG,
    RS_IMAGE_SOURCE_JPEG,
    RS_IMAGE_SOURCE_HDR,
    RS_IMAGE_SOURCE_EXR,
} RsImageSource;

/* The budget a caller allows: pixels on a side, and bytes of the decoded image (4 a pixel for
 * 8-bit formats, 16 for floating-point ones). */
typedef struct RsImageLimits {
    uint32_t max_width, max_height;
    uint64_t max_bytes;
} RsImageLimits;

/* A decoded image, rows from the top. Exactly one of rgba8 and rgbaf is set. */
typedef struct RsImage {
    uint32_t width, height;
    int channels;      /* in the file: 1 grey, 2 grey + alpha, 3 colour, 4 colour + alpha */
    RsImageSource format;
    uint8_t* rgba8;    /* PNG, JPEG: width * height RGBA, as stored (colour usually sRGB-encoded) */
    RsFloat4* rgbaf;   /* .hdr, .exr: linear RGB, w = 1; 16-byte aligned (rs_alloc_aligned) */
} RsImage;

/* The format of the file's bytes, from their first bytes only. */
RsImageSource rs_image_sniff(const unsigned char* bytes, size_t size);
const char* rs_image_source_name(RsImageSource format);

/* Decodes any accepted format; 0, or -1 with the problem in *err and *image empty. Formats
 * raystream does not read are named in the message ("a BMP image, which raystream does not
 * read: ..."). */
int rs_image_decode(const unsigned char* bytes, size_t size, const RsImageLimits* limits, RsImage* image,
                    RsError* err);

void rs_image_free(RsImage* image);

/* ---- for the decoders (and their fuzzers) ---- */

int rs_png_decode(const unsigned char* bytes, size_t size, const RsImageLimits* limits, RsImage* image, RsError* err);
int rs_jpeg_decode(const unsigned char* bytes, size_t size, const RsImageLimits* limits, RsImage* image, RsError* err);
int rs_hdr_decode(const unsigned char* bytes, size_t size, const RsImageLimits* limits, RsImage* image, RsError* err);
int rs_exr_decode(const unsigned char* bytes, size_t size, const RsImageLimits* limits, RsImage* image, RsError* err);

/* Checks a declared width x height against `limits` (RGBA8, or float RGBA if `floats`); 0, or -1
 * with a message naming the limit. */
int rs_image_check_size(uint32_t width, uint32_t height, int floats, const RsImageLimits* limits, RsError* err);
/* rs_image_check_size, then the image's pixels, uninitialised: the decoder writes every one
 * before it succeeds. */
int rs_image_allocate(RsImage* image, uint32_t width, uint32_t height, int floats, const RsImageLimits* limits,
                      RsError* err);

#endif /* RS_HOST_IMAGE_DECODE_H */
