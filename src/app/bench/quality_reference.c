/* quality_reference.c - the reference image of a bench-quality scene (see bench_quality.h).
 * Host C11, application layer.
 *
 * A rendered reference uses the Sobol sampler and the light tree (both unbiased, and the fastest
 * to converge: a many-light scene's reference costs a fraction of the power CDF's), no adaptive
 * sampling (which is not unbiased), and a seed of its own (the measured seed xor RS_QUALITY_REFERENCE_SEED):
 * with the measured seed its first samples would be the measured image's own, and the error
 * would read low. It is traced in two parts, [0, N/2) and [N/2, N) samples, whose difference
 * gives its own error (quality_metric.h); Sobol's two halves are stratified against each other,
 * so their difference overstates the whole's error: the estimate errs on the safe side. Both are kept as PFM files whose name carries a hash of
 * everything that decides the image (every file the scene read, size, depth, integrator,
 * samples, seed), so a rerun, or the --external run of another build, finds and reuses them.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app/bench/bench_quality.h"
#include "host/io/file_hash.h"
#include "host/io/image_io.h"
#include "host/io/image_read.h"
#include "host/scene/settings.h"
#include "host/util/clock.h"
#include "kernel/sampling/sampler.h"

#define RS_QUALITY_REFERENCE_SEED 0x9e3779b9u

void rs_quality_reference_free(RsQualityReference* ref)
{
    free(ref->rgb);
    memset(ref, 0, sizeof *ref);
}

static int check_size(const char* what, const char* path, uint32_t w, uint32_t h, const RsRenderDesc* rd, RsError* err)
{
    if (w == rd->width && h == rd->height)
        return 0;
    return rs_error_set(err, "%s %s is %ux%u, but the benchmark renders %ux%u (set --width and --height to match)",
                        what, path, w, h, rd->width, rd->height);
}

static int given(const RsQualityOptions* o, int index, RsQualityScene* qs, RsQualityReference* ref, RsError* err)
{
    const char* path = o->references[index];
    RsRgbImage image;
    if (rs_image_read(path, &image, err))
        return -1;
    if (check_size("--reference:", path, image.width, image.height, &qs->rd, err)) {
        rs_rgb_image_free(&image);
        return -1;
    }
    ref->source = "given";
    snprintf(ref->file, sizeof ref->file, "%s", path);
    uint32_t pixels = image.width * image.height;
    if (image.variance) {
        double* scratch = malloc(pixels * sizeof *scratch);
        if (scratch) {
            rs_quality_variance_error(image.rgb, image.variance, pixels, qs->mask, scratch, &ref->estimate);
            ref->has_estimate = 1;
            ref->estimate_from = "variance";
        }
        free(scratch);
    }
    ref->rgb = image.rgb;
    image.rgb = NULL;
    rs_rgb_image_free(&image);
    return 0;
}

/* The cache key: a hash of every file the scene read and of the settings that decide the image. */
static int cache_key(const RsQualityOptions* o, const RsQualityScene* qs, uint32_t spp, uint32_t seed, char* out,
                     size_t size, RsError* err)
{
    uint64_t h = RS_HASH64_SEED;
    char line[256];
    int n = snprintf(line, sizeof line,
                     "bench-quality reference 1|%ux%u|depth %u|integrator %u|spp %u|seed %u|sobol+tree",
                     qs->rd.width, qs->rd.height, qs->rd.max_depth, qs->rd.integrator, spp, seed);
    h = rs_hash64_bytes(h, line, (size_t)n);
    if (qs->rd.integrator == RS_INTEGRATOR_SPPM) { /* its options decide the image too (others' keys unchanged) */
        n = snprintf(line, sizeof line, "|photons %u|radius %a|alpha %a", o->common.photons,
                     (double)o->common.sppm_radius, (double)o->common.sppm_alpha);
        h = rs_hash64_bytes(h, line, (size_t)n);
    }
    for (size_t i = 0; i < qs->files.count; ++i) {
        uint64_t f;
        if (rs_file_hash64(qs->files.paths[i], &f))
            return rs_error_set(err, "%s: cannot read it again to key the reference", qs->files.paths[i]);
        h = rs_hash64_bytes(h, &f, sizeof f);
    }
    snprintf(out, size, "%016llx", (unsigned long long)h);
    return 0;
}

/* The cache folder: --reference-cache, else the folder of --json or --csv; "" = none. */
static void cache_folder(const RsQualityOptions* o, char* out, size_t size)
{
    const char* from = o->cache_dir ? o->cache_dir : o->json ? o->json : o->csv;
    out[0] = '\0';
    if (!from)
        return;
    if (o->cache_dir) {
        snprintf(out, size, "%s", from);
        return;
    }
    const char* slash = strrchr(from, '/');
    if (!slash)
        snprintf(out, size, ".");
    else
        snprintf(out, size, "%.*s", (int)(slash - from == 0 ? 1 : slash - from), from);
}

static void scene_stem(const char* path, char* out, size_t size)
{
    const char* base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char* dot = strrchr(base, '.');
    snprintf(out, size, "%.*s", (int)(dot && dot > base ? dot - base : (long)strlen(base)), base);
}

static int load_cached(const char* path, const char* half_path, RsQualityScene* qs, RsRgbImage* whole,
                       RsRgbImage* half, RsError* err)
{
    if (rs_image_read(path, whole, err))
        return -1;
    if (rs_image_read(half_path, half, err) ||
        check_size("the cached reference", path, whole->width, whole->height, &qs->rd, err) ||
        check_size("the cached reference", half_path, half->width, half->height, &qs->rd, err)) {
        rs_rgb_image_free(whole);
        rs_rgb_image_free(half);
        return -1;
    }
    return 0;
}

/* Traces the reference: the first half_spp samples, then the rest; the means of the whole and of
 * the first part. */
static int render(const RsQualityOptions* o, RsQualityScene* qs, uint32_t spp, uint32_t half_spp, uint32_t seed,
                  float* whole, float* half, double* seconds, RsError* err)
{
    RsRenderDesc rd = qs->rd;
    rd.sampler = RS_SAMPLER_SOBOL;
    rd.light_sampler = RS_LIGHT_SELECT_TREE;
    rd.noise_threshold = 0.0f;
    rd.spp = spp;
    rd.seed = seed;
    if (rs_quality_apply(qs, NULL, &rd, err))
        return -1;
    uint64_t pixels = (uint64_t)rd.width * rd.height;
    RsFrameDesc frame;
    RsRendererConfig config;
    if (rs_quality_render_setup(o, qs, &rd, NULL, &config, &frame, err))
        return -1;
    RsRenderer* r = rs_renderer_create(&qs->scene, &config, err);
    if (!r)
        return -1;
    RsFloat4* film = malloc(pixels * rs_renderer_film_planes(r) * sizeof *film);
    int status = -1;
    if (!film) {
        rs_error_set(err, "out of memory for a %ux%u film", rd.width, rd.height);
        goto done;
    }
    double t0 = rs_clock_seconds();
    if (rs_renderer_begin(r, &frame, pixels * spp, err) || rs_renderer_trace(r, pixels * half_spp, err) ||
        rs_renderer_read_film(r, film, err))
        goto done;
    for (uint64_t i = 0; i < pixels; ++i) {
        float inv = film[i].w > 0.0f ? 1.0f / film[i].w : 0.0f;
        half[3 * i + 0] = film[i].x * inv;
        half[3 * i + 1] = film[i].y * inv;
        half[3 * i + 2] = film[i].z * inv;
    }
    if (rs_renderer_trace(r, pixels * spp, err) || rs_renderer_read_film(r, film, err))
        goto done;
    *seconds = rs_clock_seconds() - t0;
    for (uint64_t i = 0; i < pixels; ++i) {
        float inv = film[i].w > 0.0f ? 1.0f / film[i].w : 0.0f;
        whole[3 * i + 0] = film[i].x * inv;
        whole[3 * i + 1] = film[i].y * inv;
        whole[3 * i + 2] = film[i].z * inv;
    }
    status = 0;
done:
    free(film);
    rs_renderer_destroy(r);
    return status;
}

int rs_quality_reference(const RsQualityOptions* o, int index, RsQualityScene* qs, RsQualityReference* ref,
                         RsError* err)
{
    memset(ref, 0, sizeof *ref);
    ref->width = qs->rd.width;
    ref->height = qs->rd.height;
    if (o->reference_count)
        return given(o, index, qs, ref, err);

    uint32_t spp = o->reference_spp, half_spp = spp / 2, seed = qs->rd.seed ^ RS_QUALITY_REFERENCE_SEED;
    uint32_t pixels = qs->rd.width * qs->rd.height;
    char folder[RS_PATH_BYTES], stem[256], half_path[RS_PATH_BYTES + 64];
    if (cache_key(o, qs, spp, seed, ref->key, sizeof ref->key, err))
        return -1;
    cache_folder(o, folder, sizeof folder);
    scene_stem(qs->path, stem, sizeof stem);
    if (folder[0]) {
        snprintf(ref->file, sizeof ref->file, "%s/%s-%ux%u-d%u-%uspp-%s.pfm", folder, stem, qs->rd.width,
                 qs->rd.height, qs->rd.max_depth, spp, ref->key);
        snprintf(half_path, sizeof half_path, "%.*s.half.pfm", (int)(strlen(ref->file) - 4), ref->file);
    }
    ref->spp = spp;
    ref->seed = seed;
    float* half = NULL;
    struct stat st;
    if (folder[0] && stat(ref->file, &st) == 0 && stat(half_path, &st) == 0) {
        RsRgbImage whole, part;
        if (load_cached(ref->file, half_path, qs, &whole, &part, err))
            return -1;
        ref->source = "cache";
        ref->rgb = whole.rgb;
        half = part.rgb;
        whole.rgb = part.rgb = NULL;
        rs_rgb_image_free(&whole);
        rs_rgb_image_free(&part);
    } else {
        ref->source = "rendered";
        ref->rgb = malloc((size_t)pixels * 3 * sizeof(float));
        half = malloc((size_t)pixels * 3 * sizeof(float));
        if (!ref->rgb || !half) {
            free(half);
            rs_quality_reference_free(ref);
            return rs_error_set(err, "out of memory for a %ux%u reference", qs->rd.width, qs->rd.height);
        }
        if (!o->common.quiet)
            rs_cli_note("%s: rendering the reference, %u spp at %ux%u (sobol+tree, seed %u)", qs->path, spp,
                        qs->rd.width, qs->rd.height, seed);
        if (render(o, qs, spp, half_spp, seed, ref->rgb, half, &ref->seconds, err)) {
            free(half);
            rs_quality_reference_free(ref);
            return -1;
        }
        if (folder[0]) {
            if (mkdir(folder, 0777) != 0 && errno != EEXIST) {
                rs_error_set(err, "--reference-cache: cannot create '%s': %s", folder, strerror(errno));
            } else if (rs_image_write(half_path, qs->rd.width, qs->rd.height, half, NULL, err) == 0 &&
                       rs_image_write(ref->file, qs->rd.width, qs->rd.height, ref->rgb, NULL, err) == 0) {
                if (!o->common.quiet)
                    rs_cli_note("%s: reference saved as %s (%.1f s)", qs->path, ref->file, ref->seconds);
            }
            if (err->message[0]) { /* a cache that cannot be written costs a rerun, not this run */
                rs_cli_warning("%s", err->message);
                rs_error_clear(err);
                ref->file[0] = '\0';
            }
        }
    }
    double* scratch = malloc((size_t)pixels * sizeof *scratch);
    if (scratch) {
        rs_quality_halves_error(ref->rgb, half, spp, half_spp, pixels, qs->mask, scratch, &ref->estimate);
        ref->has_estimate = 1;
        ref->estimate_from = "halves";
    }
    free(scratch);
    free(half);
    return 0;
}
