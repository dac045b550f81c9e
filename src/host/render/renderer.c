/* renderer.c - devices, spans and the queue between them (see renderer.h). Host C11 + POSIX
 * threads.
 *
 * The queue is the span list under one mutex. A device takes the span that is furthest
 * behind (preferring, among equals, one whose film it already holds: nothing to move), and
 * traces its next piece: at most one wave's worth of that span's paths. With several
 * devices a piece begins by uploading the span's film from the host when another device
 * traced it last, and ends by copying it back, so the host's film always holds every finished
 * piece (what checkpoints save and what survives a failing device).
 */
#define _POSIX_C_SOURCE 200809L
#include "host/render/renderer.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "host/render/film_spans.h"
#include "kernel/film/pixel_order.h"

typedef struct RsDevice {
    RsRenderer* r;
    int index; /* in the renderer's list */
    RsBackend* backend;
    RsWavefront wf;
    RsTraceStats stats; /* a copy of wf.stats, taken under the lock after every piece */
    uint64_t paths;     /* traced since begin */
    RsFloat4* staging;  /* a span's film in pass order, on its way to or from the host */
    uint32_t staging_entries; /* its size: planes x pixels */
    pthread_t thread;
    int thread_started;
    RsError err;
} RsDevice;

struct RsRenderer {
    RsRendererConfig config;
    RsDevice devices[RS_MAX_DEVICES];
    int device_count;
    uint32_t width, height;
    uint64_t pixels;
    RsSpan* spans;
    uint32_t span_count;
    RsFloat4* film; /* the host's film (several devices only): `planes` planes of `pixels` */
    uint32_t planes; /* rs_film_planes of the devices' configuration */
    uint32_t share_index, share_count; /* this process traces spans k % count == index */

    pthread_mutex_t lock;
    pthread_cond_t work;      /* a new trace started, or quit */
    pthread_cond_t progress;  /* a piece ended, or a device finished the trace */
    uint64_t job;             /* trace number: workers wake when it changes */
    int running;              /* devices still working on the current trace */
    int quit;
    int failed;
    RsError error;            /* the first device failure */
    int stopped;

    const volatile sig_atomic_t* stop_pass;
    const volatile sig_atomic_t* stop_wave;
    RsRendererTick tick;
    void* tick_ctx;
};

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int several(const RsRenderer* r) { return r->device_count > 1; }

/* ---- devices ---- */

int rs_renderer_resolve_devices(const RsRendererConfig* config, int devices[RS_MAX_DEVICES], int* count,
                                RsError* err)
{
    RsBackendKind kind = rs_backend_resolve_kind(config->backend.kind);
    int available = kind == RS_BACKEND_CUDA ? rs_cuda_device_count() : RS_MAX_DEVICES;
    if (config->device_count == 0) {
        int n = kind == RS_BACKEND_CUDA ? available : 1;
        if (n > RS_MAX_DEVICES)
            n = RS_MAX_DEVICES;
        for (int i = 0; i < n; ++i)
            devices[i] = i;
        *count = n;
        return n > 0 ? 0 : rs_error_set(err, "no CUDA device found (use --backend cpu)");
    }
    if (config->device_count > RS_MAX_DEVICES)
        return rs_error_set(err, "--devices: at most %d devices", RS_MAX_DEVICES);
    for (int i = 0; i < config->device_count; ++i) {
        int d = config->devices[i];
        if (d < 0 || d >= available)
            return rs_error_set(err, "--devices: there is no %s device %d (this machine has %d%s)",
                                kind == RS_BACKEND_CUDA ? "CUDA" : "CPU", d, available,
                                kind == RS_BACKEND_CUDA ? "" : " CPU instances at most");
        for (int k = 0; k < i; ++k)
            if (config->devices[k] == d)
                return rs_error_set(err, "--devices: device %d is listed twice", d);
        devices[i] = d;
    }
    *count = config->device_count;
    return 0;
}

static void* device_main(void* arg);

RsRenderer* rs_renderer_create(const RsScene* scene, const RsRendererConfig* config, RsError* err)
{
    int indices[RS_MAX_DEVICES], count = 0;
    if (rs_renderer_resolve_devices(config, indices, &count, err))
        return NULL;
    RsRenderer* r = calloc(1, sizeof *r);
    if (!r) {
        rs_error_set(err, "out of memory creating the renderer");
        return NULL;
    }
    r->config = *config;
    r->config.backend.kind = rs_backend_resolve_kind(config->backend.kind);
    r->planes = rs_film_planes(&r->config.backend);
    r->share_count = 1;
    pthread_mutex_init(&r->lock, NULL);
    pthread_cond_init(&r->work, NULL);
    pthread_cond_init(&r->progress, NULL);
    RsSceneView view = rs_scene_view(scene);
    for (int i = 0; i < count; ++i) {
        RsDevice* d = &r->devices[i];
        RsBackendConfig bc = r->config.backend;
        bc.device = indices[i];
        if (bc.kind == RS_BACKEND_CPU && count > 1) { /* CPU instances share the processors */
            long online = sysconf(_SC_NPROCESSORS_ONLN);
            uint32_t threads = bc.threads ? bc.threads : (uint32_t)(online > 0 ? online : 1);
            bc.threads = threads / (uint32_t)count > 0 ? threads / (uint32_t)count : 1;
        }
        d->r = r;
        d->index = i;
        d->backend = config->create_backend ? config->create_backend(&bc, err) : rs_backend_create(&bc, err);
        r->device_count = i + 1;
        if (!d->backend || d->backend->ops->set_scene(d->backend, &view, err)) {
            if (count > 1 && d->backend) {
                RsError inner = *err;
                rs_error_clear(err);
                rs_error_set(err, "%s: %s", d->backend->device, inner.message);
            }
            rs_renderer_destroy(r);
            return NULL;
        }
    }
    if (several(r)) {
        for (int i = 0; i < count; ++i) {
            if (pthread_create(&r->devices[i].thread, NULL, device_main, &r->devices[i]) != 0) {
                rs_error_set(err, "cannot start a thread for device %d", i);
                rs_renderer_destroy(r);
                return NULL;
            }
            r->devices[i].thread_started = 1;
        }
    }
    return r;
}

void rs_renderer_destroy(RsRenderer* r)
{
    if (!r)
        return;
    pthread_mutex_lock(&r->lock);
    r->quit = 1;
    pthread_cond_broadcast(&r->work);
    pthread_mutex_unlock(&r->lock);
    for (int i = 0; i < r->device_count; ++i) {
        RsDevice* d = &r->devices[i];
        if (d->thread_started)
            pthread_join(d->thread, NULL);
        rs_backend_destroy(d->backend);
        free(d->staging);
    }
    pthread_cond_destroy(&r->progress);
    pthread_cond_destroy(&r->work);
    pthread_mutex_destroy(&r->lock);
    free(r->spans);
    free(r->film);
    free(r);
}

/* ---- frames ---- */

/* Spans of at most one wave each (a piece that spills into a second, small wave costs that
 * wave's fixed bounce-loop overhead, and smaller waves leave a GPU idle in the deep bounces),
 * at least four per worker so the queue can even out their speeds, and a multiple of the
 * workers, so equal ones end together (34 spans on 4 GPUs left two of them a ninth span:
 * 3.61x instead of 3.64-3.70x). */
static uint32_t spans_within_wave(const RsRenderer* r, uint64_t planned_paths, uint64_t wave, uint64_t workers)
{
    uint64_t spp = planned_paths / r->pixels > 0 ? planned_paths / r->pixels : 1;
    uint64_t band_paths = (uint64_t)RS_TILE_H * r->width * spp;
    uint64_t bands_per_span = wave / band_paths > 0 ? wave / band_paths : 1;
    uint64_t bands = (r->height + RS_TILE_H - 1) / RS_TILE_H;
    uint64_t count = (bands + bands_per_span - 1) / bands_per_span;
    count = count < 4 * workers ? 4 * workers : (count + workers - 1) / workers * workers;
    return (uint32_t)(count < bands ? count : bands);
}

/* Several processes must plan the same spans whatever devices each has: they assume a wave
 * of this many paths, and count the processes as the workers. */
#define RS_SHARED_WAVE_PATHS (1ull << 22)

/* How many spans the image is cut into: one for one device; spans_per_device each when asked;
 * else spans_within_wave for the smallest device's wave. */
static uint32_t span_count_for(const RsRenderer* r, uint64_t planned_paths)
{
    uint32_t devices = (uint32_t)r->device_count;
    if (r->share_count > 1)
        return spans_within_wave(r, planned_paths, RS_SHARED_WAVE_PATHS, r->share_count);
    if (devices == 1)
        return 1;
    if (r->config.spans_per_device)
        return devices * r->config.spans_per_device;
    uint64_t wave = UINT64_MAX;
    for (int i = 0; i < r->device_count; ++i)
        wave = r->devices[i].wf.wave_capacity < wave ? r->devices[i].wf.wave_capacity : wave;
    return spans_within_wave(r, planned_paths, wave, devices);
}

int rs_renderer_begin(RsRenderer* r, const RsFrameDesc* frame, uint64_t planned_paths, RsError* err)
{
    r->width = frame->width;
    r->height = frame->height;
    r->pixels = (uint64_t)frame->width * frame->height;
    uint64_t per_device = planned_paths / (uint64_t)r->device_count;
    for (int i = 0; i < r->device_count; ++i) {
        RsDevice* d = &r->devices[i];
        uint32_t wave = 0;
        if (rs_wavefront_plan(d->backend, per_device ? per_device : 1, &wave, err) ||
            rs_wavefront_begin(&d->wf, d->backend, frame, wave, err))
            return -1;
        memset(&d->stats, 0, sizeof d->stats);
        d->paths = 0;
    }
    free(r->spans);
    r->spans = NULL;
    if (rs_spans_plan(frame->width, frame->height, span_count_for(r, planned_paths), &r->spans, &r->span_count,
                      err))
        return -1;
    if (several(r)) {
        free(r->film);
        r->film = calloc(r->planes * r->pixels, sizeof *r->film);
        if (!r->film)
            return rs_error_set(err, "out of memory for a %ux%u film", frame->width, frame->height);
    } else {
        r->spans[0].holder = 0; /* the device's film was cleared with the frame */
    }
    r->failed = 0;
    return 0;
}

int rs_renderer_resume(RsRenderer* r, const RsFloat4* film, uint32_t max_samples, RsError* err)
{
    if (rs_spans_from_counts(film, r->width, r->height, max_samples, &r->spans, &r->span_count, err))
        return -1;
    if (several(r)) {
        memcpy(r->film, film, r->planes * r->pixels * sizeof *film);
        return 0; /* spans start with no holder: each device uploads what it takes */
    }
    for (uint32_t k = 0; k < r->span_count; ++k)
        r->spans[k].holder = 0;
    return r->devices[0].backend->ops->write_film(r->devices[0].backend, film, err);
}

/* ---- the queue ---- */

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
        int held = !several(r) || s->holder == d; /* one device holds every span it traces */
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
    if (several(r) && s.holder != d->index) {
        /* the host's film has this span's newest samples (only its tracer writes them) */
        status = staging_for(d, s.pixels, &d->err);
        if (status == 0) {
            gather_span(r, &s, d->staging);
            status = b->ops->write_film_span(b, s.first_index, s.pixels, d->staging, &d->err);
        }
    }
    uint64_t todo = s.target - s.done;
    RsPathRange range = {s.first_index, s.pixels, s.done, todo < d->wf.wave_capacity ? todo : d->wf.wave_capacity};
    d->wf.stop = r->stop_wave;
    if (status == 0)
        status = rs_wavefront_trace(&d->wf, &range, &d->err);
    uint64_t traced = status < 0 ? 0 : d->wf.paths_traced;
    if (status >= 0 && several(r)) {
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
        if (!several(r))
            live->done += d->wf.paths_traced;
        live->holder = several(r) ? -1 : d->index;
        if (!r->failed) {
            r->failed = 1;
            if (several(r))
                rs_error_set(&r->error, "device %d (%s): %s", d->index, b->device, d->err.message);
            else
                r->error = d->err;
        }
    } else {
        if (several(r))
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
static void* device_main(void* arg)
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

int rs_renderer_trace(RsRenderer* r, uint64_t global_paths, RsError* err)
{
    pthread_mutex_lock(&r->lock);
    for (uint32_t k = 0; k < r->span_count; ++k) {
        RsSpan* s = &r->spans[k];
        s->target = rs_span_share(s, r->pixels, global_paths);
        if (s->target < s->done)
            s->target = s->done; /* never undo samples: a span ahead of the request stays there */
    }
    r->stopped = 0;
    if (!several(r)) {
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
        double last_tick = now_seconds();
        while (r->running > 0) {
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_nsec += 100000000L;
            if (until.tv_nsec >= 1000000000L) {
                until.tv_sec++;
                until.tv_nsec -= 1000000000L;
            }
            pthread_cond_timedwait(&r->progress, &r->lock, &until);
            if (r->tick && now_seconds() - last_tick >= 0.1 && r->running > 0) {
                pthread_mutex_unlock(&r->lock);
                r->tick(r->tick_ctx);
                pthread_mutex_lock(&r->lock);
                last_tick = now_seconds();
            }
        }
    }
    int status = 0;
    if (r->failed) {
        *err = r->error;
        status = -1;
    } else {
        status = r->stopped ? RS_WAVEFRONT_STOPPED : 0;
        for (uint32_t k = r->share_index; k < r->span_count && status == 0; k += r->share_count)
            if (r->spans[k].done < r->spans[k].target)
                status = RS_WAVEFRONT_STOPPED;
    }
    pthread_mutex_unlock(&r->lock);
    return status;
}

void rs_renderer_set_stop(RsRenderer* r, const volatile sig_atomic_t* after_pass,
                          const volatile sig_atomic_t* after_wave)
{
    r->stop_pass = after_pass;
    r->stop_wave = after_wave;
}

void rs_renderer_set_tick(RsRenderer* r, RsRendererTick tick, void* ctx)
{
    r->tick = tick;
    r->tick_ctx = ctx;
}

/* ---- results ---- */

void rs_renderer_set_share(RsRenderer* r, uint32_t index, uint32_t count)
{
    r->share_count = count > 0 ? count : 1;
    r->share_index = index < r->share_count ? index : 0;
}

void rs_renderer_progress(RsRenderer* r, uint64_t* done, uint64_t* target)
{
    *done = *target = 0;
    pthread_mutex_lock(&r->lock);
    for (uint32_t k = r->share_index; k < r->span_count; k += r->share_count) {
        *done += r->spans[k].done;
        *target += r->spans[k].target > r->spans[k].done ? r->spans[k].target : r->spans[k].done;
    }
    pthread_mutex_unlock(&r->lock);
}

uint64_t rs_renderer_paths_done(RsRenderer* r)
{
    uint64_t done = 0, target = 0;
    rs_renderer_progress(r, &done, &target);
    return done;
}

int rs_renderer_read_film(RsRenderer* r, RsFloat4* film, RsError* err)
{
    if (!several(r)) {
        if (r->devices[0].backend->ops->read_film(r->devices[0].backend, film, err))
            return -1;
    } else {
        pthread_mutex_lock(&r->lock);
        memcpy(film, r->film, r->planes * r->pixels * sizeof *film);
        pthread_mutex_unlock(&r->lock);
    }
    /* another process's spans read as zero (a resumed film holds them too) */
    for (uint32_t k = 0; r->share_count > 1 && k < r->span_count; ++k) {
        if (k % r->share_count == r->share_index)
            continue;
        const RsSpan* s = &r->spans[k];
        for (uint32_t p = 0; p < r->planes; ++p)
            for (uint32_t i = 0; i < s->pixels; ++i)
                memset(&film[p * r->pixels + rs_pixel_of_index(s->first_index + i, r->width, r->height)], 0,
                       sizeof *film);
    }
    return 0;
}

/* The first device, holding the whole film: with several devices the host's film is whole
 * (every piece was copied back) and the first device gets all of it, which changes nothing
 * for the spans it holds. */
static RsBackend* whole_film_device(RsRenderer* r, RsError* err)
{
    RsBackend* b = r->devices[0].backend;
    if (several(r) && b->ops->write_film(b, r->film, err))
        return NULL;
    return b;
}

int rs_renderer_display(RsRenderer* r, const RsDisplaySettings* settings, uint8_t* rgba, RsDisplayStats* stats,
                        RsError* err)
{
    RsBackend* b = whole_film_device(r, err);
    return b ? b->ops->display(b, settings, rgba, stats, err) : -1;
}

int rs_renderer_make_image(RsRenderer* r, const RsImageRequest* request, RsError* err)
{
    RsBackend* b = whole_film_device(r, err);
    if (!b || b->ops->make_image(b, request, err))
        return -1;
    return b->ops->finish(b, err);
}

int rs_renderer_image(RsRenderer* r, const RsImageRequest* request, RsFloat4* image, RsError* err)
{
    if (rs_renderer_make_image(r, request, err))
        return -1;
    RsBackend* b = r->devices[0].backend;
    return b->ops->read_image(b, image, err);
}

uint32_t rs_renderer_film_planes(const RsRenderer* r) { return r->planes; }

RsTraceStats rs_renderer_stats(RsRenderer* r)
{
    RsTraceStats total;
    memset(&total, 0, sizeof total);
    pthread_mutex_lock(&r->lock);
    for (int i = 0; i < r->device_count; ++i)
        rs_trace_stats_add(&total, &r->devices[i].stats);
    pthread_mutex_unlock(&r->lock);
    return total;
}

int rs_renderer_device_count(const RsRenderer* r) { return r->device_count; }

int rs_renderer_device_id(const RsRenderer* r, int device)
{
    return device >= 0 && device < r->device_count ? r->devices[device].backend->config.device : -1;
}

uint64_t rs_renderer_device_paths(RsRenderer* r, int device)
{
    pthread_mutex_lock(&r->lock);
    uint64_t paths = device >= 0 && device < r->device_count ? r->devices[device].paths : 0;
    pthread_mutex_unlock(&r->lock);
    return paths;
}

const RsBackendConfig* rs_renderer_backend_config(const RsRenderer* r) { return &r->config.backend; }

const char* rs_renderer_backend_name(const RsRenderer* r) { return r->devices[0].backend->name; }

void rs_renderer_describe(const RsRenderer* r, char* out, size_t size)
{
    if (r->device_count == 1) {
        snprintf(out, size, "%s", r->devices[0].backend->device);
        return;
    }
    size_t used = (size_t)snprintf(out, size, "%d devices: ", r->device_count);
    for (int i = 0; i < r->device_count && used < size; ++i)
        used += (size_t)snprintf(out + used, size - used, "%s%s", i ? ", " : "", r->devices[i].backend->device);
}
