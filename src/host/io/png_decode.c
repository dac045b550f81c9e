/* png_decode.c - PNG through libpng (see image_decode.h). Host C11.
 *
 * libpng's full reading API, not its simplified one, for two settings: a CRC error in any chunk
 * is an error (libpng's default only warns about ancillary chunks and drops them), and the size
 * check is raystream's, made after the header and before any pixel is allocated. libpng reports
 * errors by calling on_error, which jumps back to decode() (the library's documented pattern);
 * everything that must survive the jump lives in PngSource or RsImage, not in locals.
 */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/io/image_decode.h"

typedef struct PngSource {
    const unsigned char* bytes;
    size_t size, at;
    png_bytep* rows;
    char message[256];
} PngSource;

static void on_error(png_structp png, png_const_charp message)
{
    PngSource* s = png_get_error_ptr(png);
    if (!s->message[0])
        snprintf(s->message, sizeof s->message, "%s", message ? message : "libpng error");
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message)
{
    /* benign problems (an unusual colour profile, a stray chunk): the pixels are unaffected */
    (void)png;
    (void)message;
}

static void read_bytes(png_structp png, png_bytep out, size_t n)
{
    PngSource* s = png_get_io_ptr(png);
    if (n > s->size - s->at) {
        snprintf(s->message, sizeof s->message, "the file is truncated: it ends at byte %zu, where %zu more were expected",
                 s->size, n - (s->size - s->at));
        png_longjmp(png, 1);
    }
    memcpy(out, s->bytes + s->at, n);
    s->at += n;
}

/* Everything libpng does, under its error jump; 0, or -1 with s->message or err set. */
static int decode(png_structp png, png_infop info, PngSource* s, const RsImageLimits* limits, RsImage* image,
                  RsError* err)
{
    if (setjmp(png_jmpbuf(png)))
        return -1;
    png_set_read_fn(png, s, read_bytes);
    png_set_crc_action(png, PNG_CRC_ERROR_QUIT, PNG_CRC_ERROR_QUIT);
    png_set_user_limits(png, PNG_UINT_31_MAX, PNG_UINT_31_MAX); /* raystream's limits, below */
    png_read_info(png, info);
    png_uint_32 w = 0, h = 0;
    int depth = 0, colour = 0;
    png_get_IHDR(png, info, &w, &h, &depth, &colour, NULL, NULL, NULL);
    int transparency = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    int grey = colour == PNG_COLOR_TYPE_GRAY || colour == PNG_COLOR_TYPE_GRAY_ALPHA;
    int alpha = (colour & PNG_COLOR_MASK_ALPHA) != 0 || transparency;
    if (rs_image_allocate(image, w, h, 0, limits, err))
        return -1;
    image->channels = (grey ? 1 : 3) + alpha;
    image->format = RS_IMAGE_SOURCE_PNG;
    if (colour == PNG_COLOR_TYPE_PALETTE)
        png_set_palette_to_rgb(png);
    if (colour == PNG_COLOR_TYPE_GRAY && depth < 8)
        png_set_expand_gray_1_2_4_to_8(png);
    if (transparency)
        png_set_tRNS_to_alpha(png);
    if (depth == 16)
        png_set_scale_16(png);
    if (grey)
        png_set_gray_to_rgb(png);
    if (!alpha)
        png_set_filler(png, 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)w * 4) {
        snprintf(s->message, sizeof s->message, "unexpected row layout after conversion to RGBA");
        return -1;
    }
    s->rows = malloc((size_t)h * sizeof *s->rows);
    if (!s->rows)
        return rs_error_set(err, "out of memory");
    for (png_uint_32 y = 0; y < h; ++y)
        s->rows[y] = image->rgba8 + (size_t)y * w * 4;
    png_read_image(png, s->rows);
    png_read_end(png, NULL); /* the chunks after the image, to IEND, CRCs included */
    return 0;
}

int rs_png_decode(const unsigned char* bytes, size_t size, const RsImageLimits* limits, RsImage* image, RsError* err)
{
    memset(image, 0, sizeof *image);
    /* the declared size straight from IHDR (always the first chunk), before libpng starts */
    if (size >= 24 && memcmp(bytes + 12, "IHDR", 4) == 0) {
        uint32_t w = (uint32_t)bytes[16] << 24 | (uint32_t)bytes[17] << 16 | (uint32_t)bytes[18] << 8 | bytes[19];
        uint32_t h = (uint32_t)bytes[20] << 24 | (uint32_t)bytes[21] << 16 | (uint32_t)bytes[22] << 8 | bytes[23];
        if (rs_image_check_size(w, h, 0, limits, err))
            return -1;
    }
    /* Every chunk must lie inside the file, up to IEND. libpng allocates a chunk's declared
     * length before reading it and only warns about an absurd one, so a 100-byte file could
     * otherwise cost gigabytes; with this, nothing it allocates for a chunk exceeds the file. */
    size_t at = 8;
    for (;;) {
        if (size < at + 12)
            return rs_error_set(err, "corrupt PNG: the file is truncated: it ends at byte %zu, before IEND", size);
        uint32_t len = (uint32_t)bytes[at] << 24 | (uint32_t)bytes[at + 1] << 16 | (uint32_t)bytes[at + 2] << 8 |
                       bytes[at + 3];
        if (len > size - at - 12)
            return rs_error_set(err, "corrupt PNG: the file is truncated: chunk '%.4s' at byte %zu declares %u bytes, "
                                "%zu remain", (const char*)bytes + at + 4, at, len, size - at - 12);
        if (memcmp(bytes + at + 4, "IEND", 4) == 0)
            break;
        at += 12 + (size_t)len;
    }
    PngSource s;
    memset(&s, 0, sizeof s);
    s.bytes = bytes;
    s.size = size;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &s, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_read_struct(&png, NULL, NULL);
        return rs_error_set(err, "out of memory starting libpng");
    }
    int status = decode(png, info, &s, limits, image, err);
    png_destroy_read_struct(&png, &info, NULL);
    free(s.rows);
    if (status) {
        if (s.message[0])
            rs_error_set(err, "corrupt PNG: %s", s.message);
        rs_image_free(image);
    }
    return status;
}
