/* image_io.h - writing images: tone-mapped sRGB PNG, linear OpenEXR (exr_io.h, float; render
 * adds AOV layers through exr_io.h itself), Radiance HDR and PFM.
 *
 * Host C11. The format follows the output file's extension (.png, .exr, .hdr, .pfm). Files are
 * written to a temporary name in the same directory and renamed into place, so a crash or an
 * interrupt never leaves a truncated image under the requested name.
 */
#ifndef RS_HOST_IMAGE_IO_H
#define RS_HOST_IMAGE_IO_H

#include <stdint.h>

#include "host/util/error.h"
#include "kernel/film/tonemap.h"

typedef enum RsImageFormat { RS_IMAGE_PNG, RS_IMAGE_EXR, RS_IMAGE_HDR, RS_IMAGE_PFM } RsImageFormat;

/* Tone curves (RS_TONE_* of src/kernel/film/tonemap.h): clamp (linear, clipped at 1, what pbrt and
 * Mitsuba write to 8-bit files), reinhard (L / (1 + L) on luminance), aces (Narkowicz's fit). */
int rs_image_format_from_path(const char* path, RsImageFormat* out, RsError* err);
int rs_tone_curve_parse(const char* name, uint32_t* out);

/* Per-pixel average: rgb = sum / count (0 where nothing was accumulated, and where a sample was
 * not finite). rgb has 3 floats per pixel. */
void rs_film_resolve(const RsFloat4* film, uint32_t pixels, float* rgb);

/* Fails early, before any rendering, if `path` cannot be created. */
int rs_image_check_writable(const char* path, RsError* err);
/* The same, and the extension must be .png. */
int rs_image_check_writable_png(const char* path, RsError* err);

/* Writes `path` in the format its extension names. rgb: width * height * 3 linear floats (for
 * .exr, .hdr and .pfm); rgba: width * height tone-mapped RGBA8 pixels (for .png, from the backend's
 * display pipeline). Rows top first. */
int rs_image_write(const char* path, uint32_t width, uint32_t height, const float* rgb, const uint8_t* rgba,
                   RsError* err);

#endif /* RS_HOST_IMAGE_IO_H */
