/* denoise_cpu.c - the denoiser's passes and the layer images over the thread pool: each pass
 * is rows of pixels shared among the workers, and a pass ends before the next begins (as the
 * CUDA kernels do on one stream). Host C11. */
#include <stdlib.h>
#include <string.h>

#include "host/backend/cpu/denoise_cpu.h"
#include "host/util/array.h"

void rs_denoise_scratch_free(RsDenoiseScratch* s)
{
    free(s->guide);
    free(s->factor);
    free(s->moments);
    free(s->lighting[0]);
    free(s->lighting[1]);
    memset(s, 0, sizeof *s);
}

static int scratch_reserve(RsDenoiseScratch* s, uint32_t pixels, RsError* err)
{
    if (s->pixels == pixels && s->guide)
        return 0;
    rs_denoise_scratch_free(s);
    RsFloat4** all[] = {&s->guide, &s->factor, &s->moments, &s->lighting[0], &s->lighting[1]};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
        if (!(*all[i] = rs_alloc_aligned(pixels, sizeof(RsFloat4), 64))) {
            rs_denoise_scratch_free(s);
            return rs_error_set(err, "out of memory for the denoiser's buffers (%u pixels)", pixels);
        }
    s->pixels = pixels;
    return 0;
}

typedef enum Pass { PASS_PREPARE, PASS_VARIANCE, PASS_ATROUS, PASS_FINISH, PASS_LAYER } Pass;

typedef struct PassTask {
    Pass pass;
    const RsDenoiseBuffers* d;
    const RsDenoiseSettings* s;
    uint32_t from, step_log2; /* PASS_ATROUS; PASS_FINISH reads lighting[from] */
    uint32_t layer;           /* PASS_LAYER */
    int for_display;
    RsFloat4* layer_out;
} PassTask;

static void pass_rows(void* ctx, uint32_t worker, uint32_t workers)
{
    const PassTask* t = ctx;
    const RsDenoiseBuffers* d = t->d;
    uint64_t begin, end;
    rs_pool_share(d->height, worker, workers, &begin, &end);
    uint32_t pixels = d->width * d->height;
    for (uint32_t y = (uint32_t)begin; y < (uint32_t)end; ++y)
        for (uint32_t x = 0; x < d->width; ++x) {
            switch (t->pass) {
            case PASS_PREPARE: rs_denoise_prepare(d, x, y); break;
            case PASS_VARIANCE: rs_denoise_variance(d, t->s, x, y); break;
            case PASS_ATROUS: rs_denoise_atrous(d, t->s, t->from, t->step_log2, x, y); break;
            case PASS_FINISH: rs_denoise_finish(d, t->from, x, y); break;
            case PASS_LAYER:
                t->layer_out[y * d->width + x] =
                    t->for_display ? rs_film_layer_display(d->film, pixels, y * d->width + x, t->layer)
                                   : rs_film_layer(d->film, pixels, y * d->width + x, t->layer);
                break;
            }
        }
}

static void run_pass(RsThreadPool* pool, PassTask* t)
{
    /* rows of a small image are not worth waking the workers for */
    if (pool)
        rs_pool_run_items(pool, pass_rows, t, t->d->height, 16);
    else
        pass_rows(t, 0, 1);
}

int rs_denoise_cpu(RsThreadPool* pool, const RsFloat4* film, uint32_t width, uint32_t height,
                   const RsDenoiseSettings* settings, RsDenoiseScratch* scratch, RsFloat4* out, RsError* err)
{
    if (rs_denoise_settings_check(settings, err) || scratch_reserve(scratch, width * height, err))
        return -1;
    RsDenoiseBuffers d = {width, height, film, scratch->guide, scratch->factor, scratch->moments,
                          {scratch->lighting[0], scratch->lighting[1]}, out};
    PassTask t = {PASS_PREPARE, &d, settings, 0, 0, 0, 0, NULL};
    run_pass(pool, &t);
    t.pass = PASS_VARIANCE;
    run_pass(pool, &t);
    t.pass = PASS_ATROUS;
    for (uint32_t i = 0; i < settings->iterations; ++i) {
        t.from = i & 1u;
        t.step_log2 = i;
        run_pass(pool, &t);
    }
    t.pass = PASS_FINISH;
    t.from = settings->iterations & 1u;
    run_pass(pool, &t);
    return 0;
}

void rs_film_layer_cpu(RsThreadPool* pool, const RsFloat4* film, uint32_t width, uint32_t height, uint32_t layer,
                       int for_display, RsFloat4* out)
{
    RsDenoiseBuffers d = {width, height, film, NULL, NULL, NULL, {NULL, NULL}, NULL};
    PassTask t = {PASS_LAYER, &d, NULL, 0, 0, layer, for_display, out};
    run_pass(pool, &t);
}
