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

_Static_assert(sizeof(RsCheckpointHeader) == 56, "the checkpoint header has no padding");

/* The largest film a render can have (RS_SCENE_MAX_RESOLUTION squared, every plane), plus the
 * header and the settings. */
#define RS_CHECKPOINT_MAX_BYTES                                                                             \
    (sizeof(RsCheckpointHeader) + (uint64_t)RS_CHECKPOINT_MAX_SETTINGS +                                    \
     (uint64_t)RS_SCENE_MAX_RESOLUTION * RS_SCENE_MAX_RESOLUTION * (RS_FILM_PLANES_AOV + 2) * sizeof(RsFloat4))

/* 1 or RS_FILM_PLANES_AOV, and either with SPPM's two state planes after them. */
static int film_planes_known(uint32_t planes)
{
    return planes == 1 || planes == RS_FILM_PLANES_AOV || planes == 3 || planes == RS_FILM_PLANES_AOV + 2;
}

void rs_checkpoint_header_init(RsCheckpointHeader* h)
{
    memset(h, 0, sizeof *h);
    memcpy(h->magic, magic, sizeof magic);
    h->version = RS_CHECKPOINT_VERSION;
    h->film_planes = 1;
}

/* FNV-1a over the header as stored (checksum zeroed), the settings text, then the film. */
static uint64_t checksum(const RsCheckpointHeader* h, const char* settings, const RsFloat4* film, size_t entries)
{
    RsCheckpointHeader copy = *h;
    copy.checksum = 0;
    uint64_t sum = rs_hash64_bytes(RS_HASH64_SEED, &copy, sizeof copy);
    sum = rs_hash64_bytes(sum, settings, (size_t)h->settings_bytes);
    return rs_hash64_bytes(sum, film, entries * sizeof *film);
}

int rs_checkpoint_save(const char* path, const RsCheckpointHeader* h, const RsImageSettings* settings,
                       const RsFloat4* film, RsError* err)
{
    size_t entries = (size_t)h->width * h->height * h->film_planes;
    size_t bytes = 0;
    char* text = rs_image_settings_text(settings, &bytes);
    if (!text)
        return rs_error_set(err, "%s: out of memory writing the checkpoint", path);
    if (bytes > RS_CHECKPOINT_MAX_SETTINGS) {
        free(text);
        return rs_error_set(err, "%s: the render's settings take %zu bytes, more than a checkpoint holds", path,
                            bytes);
    }
    RsCheckpointHeader out = *h;
    memcpy(out.magic, magic, sizeof magic);
    out.version = RS_CHECKPOINT_VERSION;
    out.settings_bytes = bytes;
    out.checksum = checksum(&out, text, film, entries);
    RsBytes parts[3] = {{&out, sizeof out}, {text, bytes}, {film, entries * sizeof *film}};
    int status = rs_file_write_atomic(path, parts, 3, err);
    free(text);
    return status;
}

/* Does this checkpoint belong to this render? */
static int check_match(const char* path, const RsImageSettings* got, const RsImageSettings* expect, RsError* err)
{
    RsSettingDiff d;
    if (!rs_image_settings_diff(got, expect, RS_SETTING_IMAGE, &d))
        return 0;
    char text[1024];
    rs_setting_diff_text(&d, "made with", "this render uses", text, sizeof text);
    return rs_error_set(err, "%s: %s", path, text);
}

int rs_checkpoint_load(const char* path, const RsCheckpointHeader* expect, const RsImageSettings* expect_settings,
                       RsCheckpointHeader* got, RsImageSettings* got_settings, RsFloat4** film, RsError* err)
{
    *film = NULL;
    char why[256];
    uint64_t size = 0;
    FILE* f = rs_file_open_regular(path, RS_CHECKPOINT_MAX_BYTES, &size, why, sizeof why);
    if (!f)
        return rs_error_set(err, "cannot read checkpoint '%s': %s", path, why);
    int status = -1;
    char* text = NULL;
    RsImageSettings settings = {0};
    const size_t head = offsetof(RsCheckpointHeader, width); /* magic and version */
    memset(got, 0, sizeof *got);
    if (fread(got, head, 1, f) != 1 || memcmp(got->magic, magic, sizeof magic) != 0) {
        rs_error_set(err, "%s: not a raystream checkpoint", path);
        goto done;
    }
    if (got->version == 2 || got->version == 3) {
        rs_error_set(err,
                     "%s: a checkpoint of format %u, from an earlier raystream; this version's images differ from "
                     "that version's (the path integrator's estimator changed), so its samples must not be mixed "
                     "in: render afresh",
                     path, got->version);
        goto done;
    }
    if (got->version != RS_CHECKPOINT_VERSION) {
        rs_error_set(err, "%s: a checkpoint of format %u; this raystream resumes format %u", path, got->version,
                     RS_CHECKPOINT_VERSION);
        goto done;
    }
    if (fread((char*)got + head, sizeof *got - head, 1, f) != 1) {
        rs_error_set(err, "%s: truncated or corrupt (no whole header)", path);
        goto done;
    }
    /* the size first: a damaged width or height must not decide how much memory is taken */
    uint64_t pixels = (uint64_t)got->width * got->height;
    if (got->width == 0 || got->height == 0 || got->width > RS_SCENE_MAX_RESOLUTION ||
        got->height > RS_SCENE_MAX_RESOLUTION || !film_planes_known(got->film_planes) ||
        got->settings_bytes > RS_CHECKPOINT_MAX_SETTINGS ||
        size != sizeof *got + got->settings_bytes + pixels * got->film_planes * sizeof(RsFloat4)) {
        rs_error_set(err, "%s: truncated or corrupt (%llu bytes for a %ux%u film of %u planes)", path,
                     (unsigned long long)size, got->width, got->height, got->film_planes);
        goto done;
    }
    if (got->width != expect->width || got->height != expect->height) {
        rs_error_set(err, "%s: made for a %ux%u image, this render is %ux%u", path, got->width, got->height,
                     expect->width, expect->height);
        goto done;
    }
    if (got->film_planes < expect->film_planes) {
        rs_error_set(err, "%s: saved without AOVs; resume it without --aov and --denoise, or start afresh", path);
        goto done;
    }
    size_t entries = (size_t)pixels * got->film_planes;
    text = malloc((size_t)got->settings_bytes + 1);
    *film = malloc(entries * sizeof **film);
    if (!text || !*film) {
        rs_error_set(err, "%s: out of memory for %ux%u pixels", path, got->width, got->height);
        goto done;
    }
    if (fread(text, 1, (size_t)got->settings_bytes, f) != got->settings_bytes ||
        fread(*film, sizeof **film, entries, f) != entries) {
        rs_error_set(err, "%s: read error", path);
        goto done;
    }
    text[got->settings_bytes] = '\0';
    if (checksum(got, text, *film, entries) != got->checksum) {
        rs_error_set(err, "%s: checksum mismatch: the file is damaged or was modified, and cannot be resumed", path);
        goto done;
    }
    RsError why_settings = {{0}};
    if (rs_image_settings_parse(&settings, text, (size_t)got->settings_bytes, &why_settings)) {
        rs_error_set(err, "%s: corrupt: %s", path, why_settings.message);
        goto done;
    }
    if (check_match(path, &settings, expect_settings, err))
        goto done;
    got->film_planes = expect->film_planes; /* the planes asked for come first */
    if (got_settings) {
        *got_settings = settings;
        memset(&settings, 0, sizeof settings);
    }
    status = 0;
done:
    fclose(f);
    free(text);
    rs_image_settings_free(&settings);
    if (status) {
        free(*film);
        *film = NULL;
    }
    return status;
}
