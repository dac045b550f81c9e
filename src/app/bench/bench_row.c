/* bench_row.c - one row of `raystream bench`, its strategies' frames taken in turn (see
 * bench_row.h): per strategy the warm-up and timed frames, then the statistics of its timed
 * frames.
 *
 * Host C11, application layer. A frame's time is the wall clock from the first launch until the
 * device has finished (so launch overheads count, as they do for a user). Frame f traces the
 * sample numbers [f * spp, (f + 1) * spp) whatever the strategy, so all trace the same rays.
 */
#include "app/bench/bench_row.h"

#include <stdlib.h>
#include <string.h>

#include "host/util/clock.h"

/* One strategy's frames in flight. */
typedef struct RowRun {
    RsRenderer* renderer;
    BenchResult* result;
    double* times;         /* timed frames, ms */
    double* denoise_times; /* with --denoise */
    RsTraceStats before;   /* the renderer's statistics when the timed frames began */
    uint64_t paths_before[RS_MAX_DEVICES];
} RowRun;

static int compare_double(const void* a, const void* b)
{
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

static double median_sorted(const double* v, uint32_t n) { return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]); }

static void scale_stats(RsTraceStats* s, double k)
{
    s->camera_rays = (uint64_t)(s->camera_rays * k + 0.5);
    s->bounce_rays = (uint64_t)(s->bounce_rays * k + 0.5);
    s->shadow_rays = (uint64_t)(s->shadow_rays * k + 0.5);
    s->readback_bytes = (uint64_t)(s->readback_bytes * k + 0.5);
    for (int d = 0; d <= RS_STATS_DEPTHS; ++d) {
        s->live_at_depth[d] = (uint64_t)(s->live_at_depth[d] * k + 0.5);
        s->shadow_at_depth[d] = (uint64_t)(s->shadow_at_depth[d] * k + 0.5);
    }
    for (int st = 0; st < RS_STAGE_COUNT; ++st)
        s->stage_seconds[st] *= k;
}

static void mark_timed_start(RowRun* run)
{
    run->before = rs_renderer_stats(run->renderer);
    for (int d = 0; d < rs_renderer_device_count(run->renderer); ++d)
        run->paths_before[d] = rs_renderer_device_paths(run->renderer, d);
}

/* Frame f of one strategy: 0, 1 when stopped, -1 on error. */
static int trace_frame(const BenchRow* row, RowRun* run, uint32_t f, uint64_t frame_paths, RsError* err)
{
    double t0 = rs_clock_seconds();
    /* rs_renderer_trace returns when every device has finished, or (a second stop signal) after
     * the wave in flight */
    int traced = rs_renderer_trace(run->renderer, (uint64_t)(f + 1) * frame_paths, err);
    if (traced)
        return traced < 0 ? -1 : 1;
    if (f >= row->warmup)
        run->times[f - row->warmup] = (rs_clock_seconds() - t0) * 1e3;
    if (row->denoise) { /* the frame's film, denoised: from the first launch until it is done */
        RsImageRequest denoise = {RS_LAYER_BEAUTY, 0, 1, rs_denoise_defaults()};
        double t1 = rs_clock_seconds();
        if (rs_renderer_make_image(run->renderer, &denoise, err))
            return -1;
        if (f >= row->warmup)
            run->denoise_times[f - row->warmup] = (rs_clock_seconds() - t1) * 1e3;
    }
    return 0;
}

/* The statistics of the timed frames (sorts run->times). */
static void finish(const BenchRow* row, RowRun* run)
{
    BenchResult* r = run->result;
    RsRenderer* renderer = run->renderer;
    RsTraceStats now = rs_renderer_stats(renderer);
    RsTraceStats total = rs_trace_stats_since(&now, &run->before);
    scale_stats(&total, 1.0 / row->frames);
    r->per_frame = total;
    int devices = rs_renderer_device_count(renderer);
    r->devices = devices;
    uint64_t all = 0;
    for (int d = 0; d < devices; ++d)
        all += rs_renderer_device_paths(renderer, d) - run->paths_before[d];
    for (int d = 0; d < devices; ++d)
        r->share[d] = all ? (double)(rs_renderer_device_paths(renderer, d) - run->paths_before[d]) / (double)all : 0.0;
    double stage_sum = 0.0, mean = 0.0;
    for (int st = 0; st < RS_STAGE_COUNT; ++st) {
        r->stage_ms[st] = total.stage_seconds[st] * 1e3;
        stage_sum += r->stage_ms[st];
    }
    for (uint32_t f = 0; f < row->frames; ++f)
        mean += run->times[f] / row->frames;
    r->busy = mean > 0.0 ? stage_sum / (mean * devices) : 0.0;
    qsort(run->times, row->frames, sizeof *run->times, compare_double);
    r->ms_min = run->times[0];
    r->ms_max = run->times[row->frames - 1];
    r->ms_median = median_sorted(run->times, row->frames);
    r->denoise_ms = -1.0;
    if (row->denoise) {
        qsort(run->denoise_times, row->frames, sizeof *run->denoise_times, compare_double);
        r->denoise_ms = median_sorted(run->denoise_times, row->frames);
    }
}

int bench_row_run(const BenchRow* row, RsRenderer* const* renderers, BenchResult* results, int count, int* failed,
                  RsError* err)
{
    const RsRenderDesc* rd = &row->render;
    uint64_t pixels = (uint64_t)rd->width * rd->height, frame_paths = pixels * rd->spp;
    RsFrameDesc frame = rs_frame_from_scene(row->scene, rd->width, rd->height, rd->max_depth, rd->integrator, rd->seed);
    rs_common_options_frame(row->common, &frame);
    double particles = rd->integrator == RS_INTEGRATOR_SPPM    ? (double)frame.photons_per_pass * rd->spp
                       : rd->integrator == RS_INTEGRATOR_LIGHT ? (double)pixels * rd->spp
                                                               : 0.0;
    *failed = 0;
    RowRun* runs = calloc((size_t)count, sizeof *runs);
    double* times = calloc((size_t)count * 2 * row->frames, sizeof *times);
    int status = -1;
    if (!runs || !times) {
        rs_error_set(err, "out of memory");
        goto done;
    }
    for (int i = 0; i < count; ++i) {
        runs[i].renderer = renderers[i];
        runs[i].result = &results[i];
        runs[i].times = times + (size_t)i * 2 * row->frames;
        runs[i].denoise_times = runs[i].times + row->frames;
        results[i].particles_per_frame = particles;
        *failed = i;
        if (rs_renderer_begin(renderers[i], &frame, frame_paths, err))
            goto done;
    }
    for (uint32_t f = 0; f < row->warmup + row->frames; ++f) {
        for (int k = 0; k < count; ++k) {
            /* the round's first strategy rotates: none always follows the same one */
            int i = (int)((f + (uint32_t)k) % (uint32_t)count);
            if (f == row->warmup)
                mark_timed_start(&runs[i]);
            *failed = i;
            int traced = trace_frame(row, &runs[i], f, frame_paths, err);
            if (traced) {
                status = traced;
                goto done;
            }
        }
    }
    for (int i = 0; i < count; ++i)
        finish(row, &runs[i]);
    status = 0;
done:
    free(times);
    free(runs);
    return status;
}
