/* image_read.h - reading a linear RGB image back: a PFM (what render writes with -o NAME.pfm)
 * or an OpenEXR file (its R, G, B channels, and the variance layer that `render --aov
 * variance` adds, when present). What the quality benchmark compares against.
 *
 * Host C11. Files are opened as every input is (safe_file.h: a regular file, a size limit);
 * a header that lies about the size, a truncated file or an image over
 * RS_SCENE_MAX_RESOLUTION on a side is an error naming the file.
 */
#ifndef RS_HOST_IMAGE_READ_H
#define RS_HOST_IMAGE_READ_H

#include <stdint.h>

#include "host/util/error.h"

typedef struct RsRgbImage {
    uint32_t width, height;
    float* rgb;      /* width * height * 3 floats, rows top first */
    float* variance; /* the same layout: variance of each pixel's mean (an .exr's variance.R/G/B), or NULL */
} RsRgbImage;

/* Reads `path` by its extension (.pfm or .exr). PFM: colour ("PF") or grey ("Pf", copied to
 * the three channels), either byte order. */
int rs_image_read(const char* path, RsRgbImage* image, RsError* err);
void rs_rgb_image_free(RsRgbImage* image);

#endif /* RS_HOST_IMAGE_READ_H */
