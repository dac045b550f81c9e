/* renderer.c - the renderer's public calls (see renderer.h): devices made and given back,
 * frames begun or resumed and cut into spans, traces asked for, and the film, images and
 * statistics read out. Host C11 + POSIX threads. The devices' work on the spans, and the
 * queue between them, is renderer_queue.c.
 */
#define _POSIX_C_SOURCE 200809L
#include "host/render/renderer.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/render/particle_trace.h"
#include "host/render/renderer_queue.h"
#include "kernel/film/adaptive.h"
#include "kernel/film/pixel_order.h"

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
    if (rs_renderer_several(r)) {
        for (int i = 0; i < count; ++i) {
            if (pthread_create(&r->devices[i].thread, NULL, rs_renderer_queue_device_main, &r->devices[i]) != 0) {
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
    r->integrator = frame->integrator;
    if (rs_integrator_particles(frame->integrator) && rs_particles_check_frame(r, frame, err))
        return -1;
    if (frame->noise_threshold > 0.0f && rs_film_sppm_plane(&r->config.backend) == 1)
        return rs_error_set(err, "internal error: adaptive sampling needs the AOV film (RsBackendConfig.film_stats)");
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
    if (rs_renderer_several(r)) {
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
    /* An AOV film counts the passes each pixel was visited by in its albedo plane (adaptive.h):
     * where a span stands, though adaptive sampling's stopped pixels hold fewer samples. */
    RsFloat4* visits = NULL;
    if (rs_film_sppm_plane(&r->config.backend) > 1) { /* the AOV planes (SPPM's come after them) */
        visits = malloc(r->pixels * sizeof *visits);
        if (!visits)
            return rs_error_set(err, "out of memory resuming a %ux%u film", r->width, r->height);
        for (uint64_t i = 0; i < r->pixels; ++i)
            visits[i] = rs_float4(0.0f, 0.0f, 0.0f, rs_adaptive_visits(film[RS_PLANE_ALBEDO * r->pixels + i].w));
    }
    int failed = rs_spans_from_counts(visits ? visits : film, r->width, r->height, max_samples, &r->spans,
                                      &r->span_count, err);
    free(visits);
    if (failed)
        return -1;
    if (rs_renderer_several(r)) {
        memcpy(r->film, film, r->planes * r->pixels * sizeof *film);
        return 0; /* spans start with no holder: each device uploads what it takes */
    }
    for (uint32_t k = 0; k < r->span_count; ++k)
        r->spans[k].holder = 0;
    return r->devices[0].backend->ops->write_film(r->devices[0].backend, film, err);
}

/* ---- traces ---- */

int rs_renderer_trace(RsRenderer* r, uint64_t global_paths, RsError* err)
{
    if (rs_integrator_particles(r->integrator))
        return rs_particles_trace(r, global_paths, err);
    pthread_mutex_lock(&r->lock);
    for (uint32_t k = 0; k < r->span_count; ++k) {
        RsSpan* s = &r->spans[k];
        s->target = rs_span_share(s, r->pixels, global_paths);
        if (s->target < s->done)
            s->target = s->done; /* never undo samples: a span ahead of the request stays there */
    }
    r->stopped = 0;
    rs_renderer_queue_run(r); /* returns with the lock held */
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
    if (!rs_renderer_several(r)) {
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
    if (rs_renderer_several(r) && b->ops->write_film(b, r->film, err))
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
