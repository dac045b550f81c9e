/* quality_mask.c - the region of a bench-quality scene (--mask; see bench_quality.h): which
 * pixels its errors are measured over. Host C11, application layer.
 *
 * A mask is an image of the render's own size, drawn by hand or made from two renders (issue 27's
 * caustic region: where a long reference exceeds the same scene without the glass by 20%). Any
 * image the project reads will do, so it goes through the same decoder as textures (PNG, JPEG,
 * .hdr, .exr: image_decode.h, which checks what strangers' files claim), and .pfm through
 * image_read.h. A pixel is inside when any colour channel is nonzero; alpha is ignored, since an
 * editor's transparent pixels keep whatever colour they had. The size must match exactly: a mask
 * scaled to another resolution would cover other pixels than the ones meant.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "app/bench/bench_quality.h"
#include "host/io/image_decode.h"
#include "host/io/image_read.h"
#include "host/io/safe_file.h"
#include "host/scene/settings.h"

/* A mask file is a picture of the image, not a data set: a generous bound. */
#define RS_QUALITY_MASK_MAX_FILE_BYTES (1ull << 30)

static int ends_with_pfm(const char* path)
{
    size_t n = strlen(path);
    return n >= 4 && (path[n - 4] == '.') && (path[n - 3] == 'p' || path[n - 3] == 'P') &&
           (path[n - 2] == 'f' || path[n - 2] == 'F') && (path[n - 1] == 'm' || path[n - 1] == 'M');
}

static int check_size(const char* path, uint32_t w, uint32_t h, const RsRenderDesc* rd, RsError* err)
{
    if (w == rd->width && h == rd->height)
        return 0;
    return rs_error_set(err, "--mask %s is %ux%u, but the benchmark renders %ux%u (set --width and --height to match, "
                             "or make the mask at that size)",
                        path, w, h, rd->width, rd->height);
}

/* A .pfm: inside where any channel is nonzero (a NaN counts as nonzero, as it is not zero). */
static int read_pfm_mask(const char* path, const RsRenderDesc* rd, uint8_t* mask, RsError* err)
{
    RsRgbImage image;
    if (rs_image_read(path, &image, err))
        return -1;
    int status = check_size(path, image.width, image.height, rd, err);
    for (size_t i = 0; status == 0 && i < (size_t)rd->width * rd->height; ++i)
        mask[i] = image.rgb[3 * i] != 0.0f || image.rgb[3 * i + 1] != 0.0f || image.rgb[3 * i + 2] != 0.0f;
    rs_rgb_image_free(&image);
    return status;
}

static int decode_mask(const char* path, const RsRenderDesc* rd, uint8_t* mask, RsError* err)
{
    char why[256];
    size_t size = 0;
    unsigned char* bytes =
        (unsigned char*)rs_file_read_all(path, RS_QUALITY_MASK_MAX_FILE_BYTES, &size, why, sizeof why);
    if (!bytes)
        return rs_error_set(err, "--mask %s: cannot read it: %s", path, why);
    if (rs_image_sniff(bytes, size) == RS_IMAGE_SOURCE_UNKNOWN && ends_with_pfm(path)) {
        free(bytes);
        return read_pfm_mask(path, rd, mask, err);
    }
    const RsImageLimits limits = {RS_SCENE_MAX_RESOLUTION, RS_SCENE_MAX_RESOLUTION,
                                  (uint64_t)RS_SCENE_MAX_RESOLUTION * RS_SCENE_MAX_RESOLUTION * 16u};
    RsImage image;
    RsError problem = {{0}};
    int status = rs_image_decode(bytes, size, &limits, &image, &problem);
    free(bytes);
    if (status)
        return rs_error_set(err, "--mask %s: %s", path, problem.message);
    status = check_size(path, image.width, image.height, rd, err);
    for (size_t i = 0; status == 0 && i < (size_t)rd->width * rd->height; ++i) {
        if (image.rgba8) {
            const uint8_t* p = image.rgba8 + 4 * i;
            mask[i] = p[0] != 0 || p[1] != 0 || p[2] != 0;
        } else {
            const RsFloat4* p = &image.rgbaf[i];
            mask[i] = p->x != 0.0f || p->y != 0.0f || p->z != 0.0f;
        }
    }
    rs_image_free(&image);
    return status;
}

int rs_quality_mask_load(const RsQualityOptions* o, int index, RsQualityScene* qs, RsError* err)
{
    qs->mask = NULL;
    qs->mask_path = NULL;
    qs->mask_pixels = 0;
    if (!o->mask_count)
        return 0;
    const char* path = o->masks[index];
    size_t pixels = (size_t)qs->rd.width * qs->rd.height;
    uint8_t* mask = malloc(pixels ? pixels : 1);
    if (!mask)
        return rs_error_set(err, "out of memory for a %ux%u mask", qs->rd.width, qs->rd.height);
    if (decode_mask(path, &qs->rd, mask, err)) {
        free(mask);
        return -1;
    }
    uint64_t inside = 0;
    for (size_t i = 0; i < pixels; ++i)
        inside += mask[i];
    if (inside == 0) {
        free(mask);
        return rs_error_set(err, "--mask %s: no pixel is inside (every one is black): nothing to measure", path);
    }
    qs->mask = mask;
    qs->mask_path = path;
    qs->mask_pixels = inside;
    return 0;
}
