/* image_io.h - writing images: tone-mapped sRGB PNG, linear Radiance HDR and PFM.
 *
 * Host C11. The format follows the output file's extension (.png, .hdr, .pfm). Files are
 * written to a temporary name in the same directory and renamed into place, so a crash or an
 * interrupt never leaves a truncated image under the requested name.
 */
#ifndef RS_HOST_IMAGE_IO_H
#define RS_HOST_IMAGE_IO_H

#include <stdint.h>

#include "../kernel/compat.h"
#include "error.h"

typedef enum RsImageFormat { RS_IMAGE_PNG, RS_IMAGE_HDR, RS_IMAGE_PFM } RsImageFormat;

typedef enum RsToneCurve {
    RS_TONE_CLAMP,    /* linear, clipped at 1 (what pbrt and Mitsuba write to 8-bit files) */
    RS_TONE_REINHARD, /* L / (1 + L) on luminance, hue kept (Reinhard et al. 2002, simple form) */
    RS_TONE_ACES,     /* Narkowicz's 2015 fit of the ACES filmic reference curve */
    RS_TONE_COUNT
} RsToneCurve;

typedef struct RsToneMap {
    float exposure; /* stops: pixels are multiplied by 2^exposure before the curve */
    RsToneCurve curve;
} RsToneMap;

int rs_image_format_from_path(const char* path, RsImageFormat* out, RsError* err);
int rs_tone_curve_parse(const char* name, RsToneCurve* out);
const char* rs_tone_curve_name(RsToneCurve c);

/* Per-pixel average: rgb = sum / count (0 where nothing was accumulated). rgb has 3 floats per pixel. */
void rs_film_resolve(const RsFloat4* film, uint32_t pixels, float* rgb);

/* The 8-bit sRGB value of one linear channel after exposure and curve; shared by the PNG
 * writer and the viewer so both show the same image. */
void rs_tonemap_pixel(const RsToneMap* tm, const float* rgb_in, uint8_t* rgb_out);

/* Fails early, before any rendering, if `path` cannot be created. */
int rs_image_check_writable(const char* path, RsError* err);

/* rgb: width * height * 3 linear floats, top row first. */
int rs_image_write(const char* path, uint32_t width, uint32_t height, const float* rgb, const RsToneMap* tm,
                   RsError* err);

#endif /* RS_HOST_IMAGE_IO_H */
