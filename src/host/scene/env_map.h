/* env_map.h - environment maps on the host: loading the image (equirectangular unless an importer
 * sets the octahedral mapping and its frame, src/kernel/light/env_map.h) and building
 * its sampling CDF (the CPU's run of the steps in src/kernel/light/env_map.h). Host C11.
 *
 * host/io/image_decode.h reads the file: Radiance .hdr and OpenEXR as linear floats, PNG and
 * JPEG as sRGB-encoded colour. Errors name the caller's `where` (scene file and key) and the
 * file: a missing or unreadable file, a truncated or corrupt image, a format raystream does not
 * read, an empty image, one larger than RS_ENV_MAP_MAX_WIDTH x RS_ENV_MAP_MAX_HEIGHT or
 * RS_ENV_MAP_MAX_BYTES decoded (checked from the header, before decoding), and texels that are
 * negative or not finite.
 */
#ifndef RS_HOST_ENV_MAP_H
#define RS_HOST_ENV_MAP_H

#include "host/util/error.h"
#include "kernel/light/env_map.h"

#define RS_ENV_MAP_MAX_WIDTH 16384
#define RS_ENV_MAP_MAX_HEIGHT 8192
#define RS_ENV_MAP_MAX_BYTES (2ull << 30) /* decoded: 16384 x 8192 float RGBA texels */

typedef struct RsEnvMap {
    uint32_t width, height; /* 0 x 0: none */
    char* file;             /* the image file rs_env_map_load read (for `raystream convert`); NULL if made in memory */
    RsFloat4* texels;
    float* row_cdf;      /* built by rs_env_map_build_cdf */
    float* marginal_cdf;
    double total_weight; /* the sum of every cell's rs_env_cdf_weight */
    uint32_t mapping;    /* RS_ENV_MAPPING_*: equirectangular (0) unless set */
    float frame[3][3];   /* octahedral: world-to-map rows, orthogonal (rs_env_map_set_octahedral) */
} RsEnvMap;

/* Makes a loaded map octahedral (pbrt-v4's equal-area form) in the given frame: world-to-map
 * rows, which must be orthogonal (a mirror is fine). Refuses a frame that is not, naming `where`. */
int rs_env_map_set_octahedral(RsEnvMap* m, const double frame[3][3], const char* where, RsError* err);

int rs_env_map_load(RsEnvMap* m, const char* path, const char* where, RsError* err);

/* An environment map from linear RGB floats in memory (rows from the top), for tests. */
int rs_env_map_from_rgb(RsEnvMap* m, const float* rgb, uint32_t width, uint32_t height, RsError* err);

/* Weights, row prefix sums, marginal prefix sums, normalisation: on the calling thread. */
int rs_env_map_build_cdf(RsEnvMap* m, RsError* err);

/* The view per-ray code reads; the CDF pointers are NULL until rs_env_map_build_cdf. */
RsEnvMapView rs_env_map_view(const RsEnvMap* m);

/* Mean luminance of the map over the sphere of directions (before any scale), from the CDF's
 * total: sum(weights) * (2 pi / W) * (pi / (H - 1)) / (4 pi), the weights being integrals in
 * units of the rows' spacing 1 / (H - 1) (1 for a one-row map); octahedral: sum(weights) / (W H),
 * every cell covering the same solid angle. */
double rs_env_map_mean_luminance(const RsEnvMap* m);

void rs_env_map_free(RsEnvMap* m);

#endif /* RS_HOST_ENV_MAP_H */
