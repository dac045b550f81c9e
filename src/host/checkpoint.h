/* checkpoint.h - saving and resuming a render: the film (per-pixel sums and sample counts) and
 * what it was rendered with. Because every pixel sums its samples in sample order and random
 * numbers depend only on (seed, pixel, sample, bounce, dimension), a render resumed from a
 * checkpoint after s samples ends bit-identical to one that never stopped.
 *
 * Host C11. File layout (little-endian, as the host writes it): RsCheckpointHeader, then
 * width * height RsFloat4. Written to a temporary name and renamed, like images.
 */
#ifndef RS_HOST_CHECKPOINT_H
#define RS_HOST_CHECKPOINT_H

#include "../kernel/compat.h"
#include "error.h"

typedef struct RsCheckpointHeader {
    char magic[8];       /* "RSCKPT1" */
    uint32_t version;    /* 1 */
    uint32_t width, height;
    uint32_t spp_done;   /* whole sample passes in the film */
    uint32_t seed, max_depth, integrator;
    uint32_t reserved;
    uint64_t scene_hash; /* FNV-1a of the scene file */
} RsCheckpointHeader;

int rs_checkpoint_save(const char* path, const RsCheckpointHeader* h, const RsFloat4* film, RsError* err);

/* Reads a checkpoint and checks it belongs to this render (`expect`: everything but spp_done).
 * *film is allocated (width * height entries); the caller frees it. */
int rs_checkpoint_load(const char* path, const RsCheckpointHeader* expect, RsCheckpointHeader* got, RsFloat4** film,
                       RsError* err);

void rs_checkpoint_header_init(RsCheckpointHeader* h);

#endif /* RS_HOST_CHECKPOINT_H */
