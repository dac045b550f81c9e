/* checkpoint.c - render checkpoints (see checkpoint.h). Host C11. */
#define _POSIX_C_SOURCE 200809L
#include "checkpoint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_hash.h"
#include "safe_file.h"
#include "scene_json.h"

static const char magic[8] = "RSCKPT";

_Static_assert(sizeof(RsCheckpointHeader) == 56, "the checkpoint header has no padding");

/* The largest film a render can have (RS_SCENE_MAX_RESOLUTION squared), plus the header. */
#define RS_CHECKPOINT_MAX_BYTES \
    (sizeof(RsCheckpointHeader) + (uint64_t)RS_SCENE_MAX_RESOLUTION * RS_SCENE_MAX_RESOLUTION * sizeof(RsFloat4))

void rs_checkpoint_header_init(RsCheckpointHeader* h)
{
    memset(h, 0, sizeof *h);
    memcpy(h->magic, magic, sizeof magic);
    h->version = RS_CHECKPOINT_VERSION;
}

static uint64_t checksum(const RsCheckpointHeader* h, const RsFloat4* film, size_t pixels)
{
    RsCheckpointHeader copy = *h;
    copy.checksum = 0;
    uint64_t sum = rs_hash64_bytes(RS_HASH64_SEED, &copy, sizeof copy);
    return rs_hash64_bytes(sum, film, pixels * sizeof *film);
}

int rs_checkpoint_save(const char* path, const RsCheckpointHeader* h, const RsFloat4* film, RsError* err)
{
    size_t pixels = (size_t)h->width * h->height;
    RsCheckpointHeader out = *h;
    out.checksum = checksum(h, film, pixels);
    RsBytes parts[2] = {{&out, sizeof out}, {film, pixels * sizeof *film}};
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
    if (fread(got, sizeof *got, 1, f) != 1 || memcmp(got->magic, magic, sizeof magic) != 0) {
        rs_error_set(err, "%s: not a raystream checkpoint", path);
        goto done;
    }
    if (got->version != RS_CHECKPOINT_VERSION) {
        rs_error_set(err, "%s: a checkpoint of format %u; this raystream resumes format %u only", path, got->version,
                     RS_CHECKPOINT_VERSION);
        goto done;
    }
    /* the size first: a damaged width or height must not decide how much memory is taken */
    uint64_t pixels = (uint64_t)got->width * got->height;
    if (got->width == 0 || got->height == 0 || size != sizeof *got + pixels * sizeof(RsFloat4)) {
        rs_error_set(err, "%s: truncated or corrupt (%llu bytes for a %ux%u film)", path, (unsigned long long)size,
                     got->width, got->height);
        goto done;
    }
    if (check_match(path, got, expect, err))
        goto done;
    *film = malloc((size_t)pixels * sizeof **film);
    if (!*film) {
        rs_error_set(err, "%s: out of memory for %ux%u pixels", path, got->width, got->height);
        goto done;
    }
    if (fread(*film, sizeof **film, (size_t)pixels, f) != pixels) {
        rs_error_set(err, "%s: read error", path);
        goto done;
    }
    if (checksum(got, *film, (size_t)pixels) != got->checksum) {
        rs_error_set(err, "%s: checksum mismatch: the file is damaged or was modified, and cannot be resumed", path);
        goto done;
    }
    status = 0;
done:
    fclose(f);
    if (status) {
        free(*film);
        *film = NULL;
    }
    return status;
}
