/* checkpoint.c - render checkpoints (see checkpoint.h). Host C11. */
#define _POSIX_C_SOURCE 200809L
#include "host/render/checkpoint.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/io/safe_file.h"
#include "host/scene/settings.h"
#include "host/util/hash64.h"
#include "kernel/film/aov.h"

static const char magic[8] = "RSCKPT";

_Static_assert(sizeof(RsCheckpointHeader) == 64, "the checkpoint header has no padding");

/* Format 2's header: format 3's without film_planes and reserved. */
typedef struct HeaderV2 {
    char magic[8];
    uint32_t version;
    uint32_t width, height;
    uint32_t seed, max_depth, integrator;
    uint64_t paths_done, scene_hash, checksum;
} HeaderV2;
_Static_assert(sizeof(HeaderV2) == 56, "format 2's header has no padding");

/* The largest film a render can have (RS_SCENE_MAX_RESOLUTION squared, every plane), plus the header. */
#define RS_CHECKPOINT_MAX_BYTES                                                                             \
    (sizeof(RsCheckpointHeader) +                                                                           \
     (uint64_t)RS_SCENE_MAX_RESOLUTION * RS_SCENE_MAX_RESOLUTION * RS_FILM_PLANES_AOV * sizeof(RsFloat4))

void rs_checkpoint_header_init(RsCheckpointHeader* h)
{
    memset(h, 0, sizeof *h);
    memcpy(h->magic, magic, sizeof magic);
    h->version = RS_CHECKPOINT_VERSION;
    h->film_planes = 1;
}

/* FNV-1a over the header as stored (checksum zeroed), then the film's entries. */
static uint64_t checksum(const void* header, size_t header_bytes, size_t checksum_offset, const RsFloat4* film,
                         size_t entries)
{
    unsigned char copy[sizeof(RsCheckpointHeader)];
    memcpy(copy, header, header_bytes);
    memset(copy + checksum_offset, 0, sizeof(uint64_t));
    uint64_t sum = rs_hash64_bytes(RS_HASH64_SEED, copy, header_bytes);
    return rs_hash64_bytes(sum, film, entries * sizeof *film);
}

int rs_checkpoint_save(const char* path, const RsCheckpointHeader* h, const RsFloat4* film, RsError* err)
{
    size_t entries = (size_t)h->width * h->height * h->film_planes;
    RsCheckpointHeader out = *h;
    out.checksum = checksum(&out, sizeof out, offsetof(RsCheckpointHeader, checksum), film, entries);
    RsBytes parts[2] = {{&out, sizeof out}, {film, entries * sizeof *film}};
    return rs_file_write_atomic(path, parts, 2, err);
}

static const char* integrator_name(uint32_t integrator)
{
    return integrator == RS_INTEGRATOR_PATH || integrator == RS_INTEGRATOR_WHITTED ? rs_integrator_name(integrator)
                                                                                   : "(unknown)";
}

/* Does this checkpoint belong to this render? */
static int check_match(const char* path, const RsCheckpointHeader* got, const RsCheckpointHeader* expect,
                       RsError* err)
{
    if (got->width != expect->width || got->height != expect->height)
        return rs_error_set(err, "%s: made for a %ux%u image, this render is %ux%u", path, got->width, got->height,
                            expect->width, expect->height);
    if (got->scene_hash != expect->scene_hash)
        return rs_error_set(err, "%s: made from a different scene file (or the scene changed since)", path);
    if (got->seed != expect->seed || got->max_depth != expect->max_depth || got->integrator != expect->integrator)
        return rs_error_set(err,
                            "%s: made with seed %u, max depth %u, the %s integrator; this render uses seed %u, max "
                            "depth %u, the %s integrator",
                            path, got->seed, got->max_depth, integrator_name(got->integrator), expect->seed,
                            expect->max_depth, integrator_name(expect->integrator));
    return 0;
}

int rs_checkpoint_load(const char* path, const RsCheckpointHeader* expect, RsCheckpointHeader* got, RsFloat4** film,
                       RsError* err)
{
    *film = NULL;
    char why[256];
    uint64_t size = 0;
    FILE* f = rs_file_open_regular(path, RS_CHECKPOINT_MAX_BYTES, &size, why, sizeof why);
    if (!f)
        return rs_error_set(err, "cannot read checkpoint '%s': %s", path, why);
    int status = -1;
    size_t header_bytes = sizeof *got, checksum_offset = offsetof(RsCheckpointHeader, checksum);
    HeaderV2 v2;
    if (fread(&v2, sizeof v2, 1, f) != 1 || memcmp(v2.magic, magic, sizeof magic) != 0) {
        rs_error_set(err, "%s: not a raystream checkpoint", path);
        goto done;
    }
    if (v2.version == 2) {
        header_bytes = sizeof v2;
        checksum_offset = offsetof(HeaderV2, checksum);
        memset(got, 0, sizeof *got);
        memcpy(got->magic, v2.magic, sizeof got->magic);
        got->version = v2.version;
        got->width = v2.width;
        got->height = v2.height;
        got->seed = v2.seed;
        got->max_depth = v2.max_depth;
        got->integrator = v2.integrator;
        got->film_planes = 1;
        got->paths_done = v2.paths_done;
        got->scene_hash = v2.scene_hash;
        got->checksum = v2.checksum;
    } else if (v2.version == RS_CHECKPOINT_VERSION) {
        memcpy(got, &v2, sizeof v2);
        if (fread((char*)got + sizeof v2, sizeof *got - sizeof v2, 1, f) != 1) {
            rs_error_set(err, "%s: truncated or corrupt (no whole header)", path);
            goto done;
        }
    } else {
        rs_error_set(err, "%s: a checkpoint of format %u; this raystream resumes formats 2 and %u", path, v2.version,
                     RS_CHECKPOINT_VERSION);
        goto done;
    }
    /* the size first: a damaged width or height must not decide how much memory is taken */
    uint64_t pixels = (uint64_t)got->width * got->height;
    if (got->width == 0 || got->height == 0 || (got->film_planes != 1 && got->film_planes != RS_FILM_PLANES_AOV) ||
        size != header_bytes + pixels * got->film_planes * sizeof(RsFloat4)) {
        rs_error_set(err, "%s: truncated or corrupt (%llu bytes for a %ux%u film of %u planes)", path,
                     (unsigned long long)size, got->width, got->height, got->film_planes);
        goto done;
    }
    if (check_match(path, got, expect, err))
        goto done;
    if (got->film_planes < expect->film_planes) {
        rs_error_set(err, "%s: saved without AOVs; resume it without --aov and --denoise, or start afresh", path);
        goto done;
    }
    size_t entries = (size_t)pixels * got->film_planes;
    *film = malloc(entries * sizeof **film);
    if (!*film) {
        rs_error_set(err, "%s: out of memory for %ux%u pixels", path, got->width, got->height);
        goto done;
    }
    if (fread(*film, sizeof **film, entries, f) != entries) {
        rs_error_set(err, "%s: read error", path);
        goto done;
    }
    const void* header = got->version == 2 ? (const void*)&v2 : (const void*)got;
    if (checksum(header, header_bytes, checksum_offset, *film, entries) != got->checksum) {
        rs_error_set(err, "%s: checksum mismatch: the file is damaged or was modified, and cannot be resumed", path);
        goto done;
    }
    got->film_planes = expect->film_planes; /* the planes asked for come first */
    status = 0;
done:
    fclose(f);
    if (status) {
        free(*film);
        *film = NULL;
    }
    return status;
}
