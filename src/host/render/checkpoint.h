/* checkpoint.h - saving and resuming a render: the film (per-pixel sums and sample counts) and
 * what it was rendered with. Because every pixel sums its samples in sample order and random
 * numbers depend only on (seed, pixel, sample, bounce, dimension), a render resumed from a
 * checkpoint ends bit-identical to one that never stopped, even when it stopped in the middle
 * of a sample pass or on a different number of devices or processes: every pixel's count of
 * samples is in the film.
 *
 * Host C11. File layout (format 4; little-endian, as the host writes it): RsCheckpointHeader,
 * then settings_bytes of the render's settings in image_settings.h's text form (everything that
 * changes the image: the scene's and every input file's content hash, size, seed, depth,
 * integrator, sampler, light sampler, noise threshold, min spp, ...), then film_planes planes of
 * width * height RsFloat4 (aov.h: 1, or 5 with AOVs). The header's checksum (FNV-1a 64 over the
 * header with the checksum field zero, then the settings and the film) is verified on resume,
 * so a damaged or edited file is refused instead of resumed. Formats 2 and 3 (fixed fields for
 * seed, depth, integrator and the scene file's hash) are refused: this version's path
 * integrator is a different estimator, and its samples must not be mixed with theirs. Written
 * through safe_file's atomic write, like images.
 */
#ifndef RS_HOST_CHECKPOINT_H
#define RS_HOST_CHECKPOINT_H

#include "host/render/image_settings.h"
#include "host/util/error.h"
#include "kernel/util/compat.h"

#define RS_CHECKPOINT_VERSION 4
/* A settings text larger than this is a damaged file (a scene of 100k textures needs ~10 MB). */
#define RS_CHECKPOINT_MAX_SETTINGS (64u << 20)

typedef struct RsCheckpointHeader {
    char magic[8];        /* "RSCKPT\0\0" */
    uint32_t version;     /* RS_CHECKPOINT_VERSION */
    uint32_t width, height;
    uint32_t film_planes; /* 1, or RS_FILM_PLANES_AOV (the AOVs are resumed with the beauty) */
    uint64_t paths_done;  /* samples in the film, summed over the pixels; which ones each pixel
                             holds is its count (the film's w): samples 0 .. w-1. A render on one
                             device stops at a prefix of the pass order, several devices each at
                             their own spans' (film_spans.h); resume reads either from the film */
    uint64_t settings_bytes; /* the settings text right after the header */
    uint64_t nonfinite_paths; /* samples dropped as non-finite so far (stage_accumulate.h): a resumed
                                 render reports the whole render's count */
    uint64_t checksum;
} RsCheckpointHeader;

void rs_checkpoint_header_init(RsCheckpointHeader* h);

/* Writes the checkpoint with the render's settings (computing settings_bytes and the checksum). */
int rs_checkpoint_save(const char* path, const RsCheckpointHeader* h, const RsImageSettings* settings,
                       const RsFloat4* film, RsError* err);

/* Reads a checkpoint, verifies its size and checksum, and checks it belongs to this render:
 * the size (expect's width and height) and every RS_SETTING_IMAGE entry of `expect_settings`
 * (an error names the first that differs: "made with sampler independent; this render uses
 * sobol"). A checkpoint with more planes than expect->film_planes gives only those (the beauty
 * comes first); one with fewer is refused (it holds no AOVs to resume). *film is allocated
 * (expect->film_planes planes); the caller frees it. got_settings (may be NULL; an empty list)
 * receives the file's settings, for notes on the entries that were not compared. The file must
 * be a regular file. */
int rs_checkpoint_load(const char* path, const RsCheckpointHeader* expect, const RsImageSettings* expect_settings,
                       RsCheckpointHeader* got, RsImageSettings* got_settings, RsFloat4** film, RsError* err);

#endif /* RS_HOST_CHECKPOINT_H */
