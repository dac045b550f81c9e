/* checkpoint.c - render checkpoints (see checkpoint.h). Host C11. */
#define _POSIX_C_SOURCE 200809L
#include "checkpoint.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char magic[8] = "RSCKPT1";

void rs_checkpoint_header_init(RsCheckpointHeader* h)
{
    memset(h, 0, sizeof *h);
    memcpy(h->magic, magic, sizeof magic);
    h->version = 1;
}

int rs_checkpoint_save(const char* path, const RsCheckpointHeader* h, const RsFloat4* film, RsError* err)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp-%ld", path, (long)getpid());
    FILE* f = fopen(tmp, "wb");
    if (!f)
        return rs_error_set(err, "cannot write checkpoint '%s': %s", path, strerror(errno));
    size_t pixels = (size_t)h->width * h->height;
    int ok = fwrite(h, sizeof *h, 1, f) == 1 && fwrite(film, sizeof *film, pixels, f) == pixels;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        int e = errno;
        remove(tmp);
        return rs_error_set(err, "cannot write checkpoint '%s': %s", path, strerror(e));
    }
    return 0;
}

int rs_checkpoint_load(const char* path, const RsCheckpointHeader* expect, RsCheckpointHeader* got, RsFloat4** film,
                       RsError* err)
{
    *film = NULL;
    FILE* f = fopen(path, "rb");
    if (!f)
        return rs_error_set(err, "cannot read checkpoint '%s': %s", path, strerror(errno));
    int status = -1;
    if (fread(got, sizeof *got, 1, f) != 1 || memcmp(got->magic, magic, sizeof magic) != 0 || got->version != 1) {
        rs_error_set(err, "%s: not a raystream checkpoint (or from another version)", path);
        goto done;
    }
    int mismatch = 0;
    if (got->width != expect->width || got->height != expect->height)
        mismatch = rs_error_set(err, "%s: made for a %ux%u image, this render is %ux%u", path, got->width,
                                got->height, expect->width, expect->height);
    else if (got->scene_hash != expect->scene_hash)
        mismatch = rs_error_set(err, "%s: made from a different scene file (or the scene changed since)", path);
    else if (got->seed != expect->seed || got->max_depth != expect->max_depth ||
             got->integrator != expect->integrator)
        mismatch = rs_error_set(err, "%s: made with seed %u, max depth %u, integrator %u; this render uses %u, %u, %u",
                                path, got->seed, got->max_depth, got->integrator, expect->seed, expect->max_depth,
                                expect->integrator);
    if (mismatch)
        goto done;
    size_t pixels = (size_t)got->width * got->height;
    *film = malloc(pixels * sizeof **film);
    if (!*film) {
        rs_error_set(err, "%s: out of memory for %ux%u pixels", path, got->width, got->height);
        goto done;
    }
    if (fread(*film, sizeof **film, pixels, f) != pixels || fgetc(f) != EOF) {
        rs_error_set(err, "%s: truncated or corrupt (expected %zu pixels)", path, pixels);
        free(*film);
        *film = NULL;
        goto done;
    }
    status = 0;
done:
    fclose(f);
    return status;
}
