/* film_cpu.c - the CPU backend's film and the images made from it (see film_cpu.h): whole-film
 * and per-span copies, layer and denoised images, and the display. Host C11. Every call runs
 * to completion; the film is in pixel order, a span's values in pass order (pixel_order.h).
 */
#include "host/backend/cpu/film_cpu.h"

#include <string.h>

#include "host/backend/cpu/display_cpu.h"
#include "host/util/array.h"
#include "kernel/film/pixel_order.h"

int rs_cpu_read_film(RsBackend* base, RsFloat4* film, RsError* err)
{
    (void)err;
    RsCpuBackend* b = rs_cpu_of(base);
    memcpy(film, b->film, rs_film_planes(&base->config) * (size_t)b->film_pixels * sizeof(RsFloat4));
    return 0;
}

int rs_cpu_write_film(RsBackend* base, const RsFloat4* film, RsError* err)
{
    (void)err;
    RsCpuBackend* b = rs_cpu_of(base);
    memcpy(b->film, film, rs_film_planes(&base->config) * (size_t)b->film_pixels * sizeof(RsFloat4));
    return 0;
}

int rs_cpu_read_film_span(RsBackend* base, uint32_t first, uint32_t pixels, RsFloat4* values, RsError* err)
{
    (void)err;
    RsCpuBackend* b = rs_cpu_of(base);
    for (uint32_t p = 0; p < rs_film_planes(&base->config); ++p)
        for (uint32_t k = 0; k < pixels; ++k)
            values[(size_t)p * pixels + k] =
                b->film[(size_t)p * b->film_pixels + rs_pixel_of_index(first + k, b->kp.width, b->kp.height)];
    return 0;
}

int rs_cpu_write_film_span(RsBackend* base, uint32_t first, uint32_t pixels, const RsFloat4* values,
                               RsError* err)
{
    (void)err;
    RsCpuBackend* b = rs_cpu_of(base);
    for (uint32_t p = 0; p < rs_film_planes(&base->config); ++p)
        for (uint32_t k = 0; k < pixels; ++k)
            b->film[(size_t)p * b->film_pixels + rs_pixel_of_index(first + k, b->kp.width, b->kp.height)] =
                values[(size_t)p * pixels + k];
    return 0;
}

typedef struct TonemapTask {
    const RsFloat4* film;
    uint32_t pixels;
    float exposure;
    uint32_t curve;
    uint8_t* rgba;
} TonemapTask;

static void tonemap_task(void* ctx, uint32_t worker, uint32_t workers)
{
    TonemapTask* t = ctx;
    uint64_t begin, end;
    rs_pool_share(t->pixels, worker, workers, &begin, &end);
    rs_display_tonemap_cpu(t->film, (uint32_t)begin, (uint32_t)end, t->exposure, t->curve, t->rgba);
}

int rs_cpu_make_image(RsBackend* base, const RsImageRequest* request, RsError* err)
{
    RsCpuBackend* b = rs_cpu_of(base);
    if (rs_image_request_check(&base->config, request, err))
        return -1;
    if (!b->image && !(b->image = rs_alloc_aligned(b->film_pixels, sizeof(RsFloat4), 64)))
        return rs_error_set(err, "out of memory for a %ux%u image", b->kp.width, b->kp.height);
    if (request->denoise)
        return rs_denoise_cpu(b->pool, b->film, b->kp.width, b->kp.height, &request->denoiser, &b->denoise, b->image,
                              err);
    rs_film_layer_cpu(b->pool, b->film, b->kp.width, b->kp.height, request->layer, request->for_display, b->image);
    return 0;
}

int rs_cpu_read_image(RsBackend* base, RsFloat4* image, RsError* err)
{
    RsCpuBackend* b = rs_cpu_of(base);
    if (!b->image)
        return rs_error_set(err, "internal error: no image made yet");
    memcpy(image, b->image, (size_t)b->film_pixels * sizeof(RsFloat4));
    return 0;
}

int rs_cpu_display(RsBackend* base, const RsDisplaySettings* settings, uint8_t* rgba, RsDisplayStats* stats,
                       RsError* err)
{
    RsCpuBackend* b = rs_cpu_of(base);
    const RsFloat4* source = b->film;
    RsImageRequest request = rs_display_image_request(settings);
    if (request.layer != RS_LAYER_BEAUTY || request.denoise) {
        if (rs_cpu_make_image(base, &request, err))
            return -1;
        source = b->image;
    }
    rs_display_stats_cpu(source, b->film_pixels, stats);
    stats->exposure = rs_display_exposure(settings, stats);
    TonemapTask t = {source, b->film_pixels, stats->exposure, settings->curve, rgba};
    rs_pool_run(b->pool, tonemap_task, &t);
    return 0;
}
