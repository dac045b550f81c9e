/* exr_io.h - OpenEXR files through the OpenEXR C API (OpenEXRCore, libopenexr-dev 3.x): a
 * writer for render's linear outputs, with the AOVs as layers of one file, and a reader for
 * tests and tools.
 *
 * Host C11. One scanline part, ZIP compression (lossless, what pbrt-v4 and Mitsuba 3 write),
 * half or float channels. Channels are named as compositors expect: the beauty is R, G, B
 * (what any viewer shows first); a layer's are "layer.R", "layer.X", "depth.Z" and so on.
 * Rows top first (increasing y, the data window at the origin). Files are encoded in memory
 * and written through safe_file's atomic write, like every other image.
 */
#ifndef RS_HOST_EXR_IO_H
#define RS_HOST_EXR_IO_H

#include <stdint.h>

#include "host/util/error.h"

typedef struct RsExrLayer {
    const char* name;     /* "" for the beauty's R, G, B; else the channels' prefix */
    const char* channels; /* one letter per channel, e.g. "RGB", "XYZ", "Z" */
    const float* data;    /* width * height * strlen(channels) floats, interleaved */
} RsExrLayer;

int rs_exr_write(const char* path, uint32_t width, uint32_t height, const RsExrLayer* layers, int layer_count,
                 int half, RsError* err);

/* A string attribute of the header (metadata: render writes its settings list as these). Names
 * longer than RS_EXR_MAX_ATTRIBUTE_NAME bytes or holding control bytes are refused. */
#define RS_EXR_MAX_ATTRIBUTE_NAME 255
typedef struct RsExrAttribute {
    const char* name;
    const char* value;
} RsExrAttribute;

int rs_exr_write_with_attributes(const char* path, uint32_t width, uint32_t height, const RsExrLayer* layers,
                                 int layer_count, const RsExrAttribute* attributes, int attribute_count, int half,
                                 RsError* err);

/* A file read back: every channel as floats, width * height each, rows top first. */
typedef struct RsExrImage {
    uint32_t width, height;
    int channel_count;
    char (*names)[64];
    float** channels;
    int half; /* 1 if the (first) channel is stored as half */
} RsExrImage;

int rs_exr_read(const char* path, RsExrImage* image, RsError* err);
/* The channel named `name` ("R", "albedo.G"), or NULL. */
const float* rs_exr_channel(const RsExrImage* image, const char* name);
void rs_exr_image_free(RsExrImage* image);

#endif /* RS_HOST_EXR_IO_H */
