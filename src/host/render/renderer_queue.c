/* renderer_queue.c - the devices and the queue between them (see renderer_queue.h). Host C11
 * + POSIX threads.
 *
 * The queue is the span list under one mutex. A device takes the span that is furthest
 * behind (preferring, among equals, one whose film it already holds: nothing to move), and
 * traces its next piece: at most one wave's worth of that span's paths. With several
 * devices a piece begins by uploading the span's film from the host when another device
 * traced it last, and ends by copying it back, so the host's film always holds every finished
 * piece (what checkpoints save and what survives a failing device).
 */
#define _POSIX_C_SOURCE 200809L
#include "host/render/renderer_queue.h"

#include <stdlib.h>
#include <time.h>

#include "host/util/clock.h"
#include "kernel/film/pixel_order.h"

/* Under the lock: the span device `d` should trace next, or -1: the one furthest behind, so
 * that the image fills evenly (an interrupted render has no black bands), and among those
 * equally far the one whose film this device already holds (no upload; frame after frame of
 * the benchmark and the viewer each device keeps its spans). *waiting is set when nothing can
 * start now but a busy span still has work after its piece in flight. After a stop at the
 * pass, every span's target is cut to the end of its pass in flight. */
static int pick_span(RsRenderer* r, int d, int* waiting)
{
    int best = -1, best_held = 0;
    double best_progress = 0.0;
    int cut = r->stop_pass && *r->stop_pass;
    *waiting = 0;
    for (uint32_t k = 0; k < r->span_count; ++k) {
        RsSpan* s = &r->spans[k];
        if (k % r->share_count != r->share_index)
            continue; /* another process's */
        if (cut) {
            uint64_t pass_end = (s->done + s->pixels - 1) / s->pixels * s->pixels;
            if (s->target > pass_end) {
                s->target = pass_end;
                r->stopped = 1;
            }
        }
        if (s->done >= s->target)
            continue;
        if (s->busy) {
            *waiting = 1;
            continue;
        }
        int held = !rs_renderer_several(r) || s->holder == d; /* one device holds every span it traces */
        double progress = (double)s->done / (double)s->pixels;
        if (best < 0 || progress < best_progress || (progress == best_progress && held > best_held)) {
            best = (int)k;
            best_held = held;
            best_progress = progress;
        }
    }
    return best;
}

static int staging_for(RsDevice* d, uint32_t pixels, RsError* err)
{
    size_t entries = (size_t)d->r->planes * pixels;
    if (entries <= d->staging_entries)
        return 0;
    free(d->staging);
    d->staging = malloc(entries * sizeof *d->staging);
    d->staging_entries = d->staging ? (uint32_t)entries : 0;
    return d->staging ? 0 : rs_error_set(err, "out of memory moving a span of %u pixels", pixels);
}

/* Copies between the host's film (pixel order) and a staging buffer (pass order), every plane. */
static void gather_span(const RsRenderer* r, const RsSpan* s, RsFloat4* out)
{
    for (uint32_t p = 0; p < r->planes; ++p)
        for (uint32_t k = 0; k < s->pixels; ++k)
            out[(size_t)p * s->pixels + k] =
                r->film[p * r->pixels + rs_pixel_of_index(s->first_index + k, r->width, r->height)];
}

static void scatter_span(RsRenderer* r, const RsSpan* s, const RsFloat4* in)
{
    for (uint32_t p = 0; p < r->planes; ++p)
        for (uint32_t k = 0; k < s->pixels; ++k)
            r->film[p * r->pixels + rs_pixel_of_index(s->first_index + k, r->width, r->height)] =
                in[(size_t)p * s->pixels + k];
}

/* Traces the next piece of span k on device d (the span is marked busy; the lock is not held).
 * Returns what rs_wavefront_trace returned, with the span's bookkeeping done under the lock. */
static int run_piece(RsDevice* d, uint32_t k)
{
    RsRenderer* r = d->r;
    RsBackend* b = d->backend;
    pthread_mutex_lock(&r->lock);
    RsSpan s = r->spans[k];
    pthread_mutex_unlock(&r->lock);
    rs_error_clear(&d->err);
    int status = 0;
    if (rs_renderer_several(r) && s.holder != d->index) {
        /* the host's film has this span's newest samples (only its tracer writes them) */
        status = staging_for(d, s.pixels, &d->err);
        if (status == 0) {
            gather_span(r, &s, d->staging);
            status = b->ops->write_film_span(b, s.first_index, s.pixels, d->staging, &d->err);
        }
    }
    uint64_t todo = s.target - s.done;
    RsPathRange range = {s.first_index, s.pixels, s.done, todo < d->wf.wave_capacity ? todo : d->wf.wave_capacity,
                         RS_PHASE_CAMERA, 0};
    d->wf.stop = r->stop_wave;
    if (status == 0)
        status = rs_wavefront_trace(&d->wf, &range, &d->err);
    uint64_t traced = status < 0 ? 0 : d->wf.paths_traced;
    if (status >= 0 && rs_renderer_several(r)) {
        if (staging_for(d, s.pixels, &d->err) ||
            b->ops->read_film_span(b, s.first_index, s.pixels, d->staging, &d->err))
            status = -1;
    }
    pthread_mutex_lock(&r->lock);
    RsSpan* live = &r->spans[k];
    live->busy = 0;
    if (status < 0) {
        /* the device's copy of the span is no longer trusted; the host's (several devices) or
         * the device's film up to `done` (one device: the waves before the failure, counted by
         * paths_traced) is what remains */
        if (!rs_renderer_several(r))
            live->done += d->wf.paths_traced;
        live->holder = rs_renderer_several(r) ? -1 : d->index;
        if (!r->failed) {
            r->failed = 1;
            if (rs_renderer_several(r))
                rs_error_set(&r->error, "device %d (%s): %s", d->index, b->device, d->err.message);
            else
                r->error = d->err;
        }
    } else {
        if (rs_renderer_several(r))
            scatter_span(r, live, d->staging);
        live->done += traced;
        live->holder = d->index;
        if (status == RS_WAVEFRONT_STOPPED)
            r->stopped = 1;
    }
    d->paths += traced;
    d->stats = d->wf.stats;
    pthread_cond_broadcast(&r->progress);
    pthread_mutex_unlock(&r->lock);
    return status;
}

/* Under the lock: whether devices should stop taking pieces (a stop at the pass instead cuts
 * the spans' targets in pick_span). */
static int stopping(const RsRenderer* r)
{
    return r->failed || (r->stop_wave && *r->stop_wave);
}

/* Under the lock: takes the span device d should trace next and runs its piece (without the
 * lock held). Returns 0 when nothing could start now (*waiting: a busy span has more). */
static int run_next_piece(RsDevice* d, int* waiting)
{
    RsRenderer* r = d->r;
    int k = pick_span(r, d->index, waiting);
    if (k < 0)
        return 0;
    r->spans[k].busy = 1;
    pthread_mutex_unlock(&r->lock);
    run_piece(d, (uint32_t)k);
    pthread_mutex_lock(&r->lock);
    return 1;
}

/* A device thread: every trace, pieces until the queue is empty (or a stop or failure). */
void* rs_renderer_queue_device_main(void* arg)
{
    RsDevice* d = arg;
    RsRenderer* r = d->r;
    uint64_t seen = 0;
    pthread_mutex_lock(&r->lock);
    for (;;) {
        while (!r->quit && r->job == seen)
            pthread_cond_wait(&r->work, &r->lock);
        if (r->quit)
            break;
        seen = r->job;
        while (!stopping(r)) {
            int waiting = 0;
            if (!run_next_piece(d, &waiting)) {
                if (!waiting)
                    break;
                pthread_cond_wait(&r->progress, &r->lock); /* a span with more work is in flight */
            }
        }
        r->running--;
        pthread_cond_broadcast(&r->progress);
    }
    pthread_mutex_unlock(&r->lock);
    return NULL;
}

void rs_renderer_queue_run(RsRenderer* r)
{
    if (!rs_renderer_several(r)) {
        int waiting = 0;
        while (!stopping(r) && run_next_piece(&r->devices[0], &waiting)) {
            if (r->tick) {
                pthread_mutex_unlock(&r->lock);
                r->tick(r->tick_ctx);
                pthread_mutex_lock(&r->lock);
            }
        }
    } else {
        r->running = r->device_count;
        r->job++;
        pthread_cond_broadcast(&r->work);
        double last_tick = rs_clock_seconds();
        while (r->running > 0) {
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_nsec += 100000000L;
            if (until.tv_nsec >= 1000000000L) {
                until.tv_sec++;
                until.tv_nsec -= 1000000000L;
            }
            pthread_cond_timedwait(&r->progress, &r->lock, &until);
            if (r->tick && rs_clock_seconds() - last_tick >= 0.1 && r->running > 0) {
                pthread_mutex_unlock(&r->lock);
                r->tick(r->tick_ctx);
                pthread_mutex_lock(&r->lock);
                last_tick = rs_clock_seconds();
            }
        }
    }
}
