/* wavefront.c - the bounce loop and its statistics (see wavefront.h). Host C11.
 *
 * Stage times: the CPU backend's calls are synchronous, so the wall clock around each call is
 * the stage's time. CUDA launches return at once; that backend records events around its
 * stages instead (when asked to, as the benchmark does) and reports device times.
 */
#include "host/render/wavefront.h"

#include <string.h>

#include "host/scene/settings.h"
#include "host/util/clock.h"
#include "kernel/film/adaptive.h"

static const char* const stage_names[RS_STAGE_COUNT] = {"generate", "sort",      "extend",    "shade",
                                                        "connect",  "drop_dead", "accumulate"};

const char* rs_stage_name(RsStage s) { return s < RS_STAGE_COUNT ? stage_names[s] : "?"; }

/* SPPM's initial radius: three pixels' footprint at the distance of the scene's centre (one
 * pixel of an orthographic view: three of them), so that the first passes gather from a few
 * pixels around each visible point whatever the scene's units. */
static float sppm_default_radius(const RsScene* scene, const RsCamera* camera, uint32_t height)
{
    RsSceneView view = rs_scene_view(scene);
    RsVec3 centre = rs_scale(rs_add(rs_xyz(view.bounds_lo), rs_xyz(view.bounds_hi)), 0.5f);
    float pixel = 2.0f * camera->up.w / (float)(height ? height : 1);
    if (!rs_camera_orthographic(camera))
        pixel *= rs_length(rs_sub(centre, rs_xyz(camera->eye)));
    float r = 3.0f * pixel;
    return r > 0.0f && rs_is_finite(r) ? r : 1e-3f;
}

RsFrameDesc rs_frame_from_scene(const RsScene* scene, uint32_t width, uint32_t height, uint32_t max_depth,
                                uint32_t integrator, uint32_t seed)
{
    RsFrameDesc f;
    memset(&f, 0, sizeof f);
    f.camera = rs_camera_make(&scene->camera, width, height);
    f.width = width;
    f.height = height;
    f.seed = seed;
    f.max_depth = max_depth;
    f.integrator = integrator;
    f.rr_depth = RS_DEFAULT_RR_DEPTH;
    f.sampler = scene->render.sampler;
    f.noise_threshold = scene->render.noise_threshold;
    f.min_spp = scene->render.min_spp;
    /* at least a chunk: passes of fewer photons spend their time on the camera pass and the
     * per-pass steps (on the H100, 32400 photons a pass reached glass-table's caustic error 3-9x
     * later than 262144 did; docs/rendering.md) */
    f.photons_per_pass = width * height > RS_PARTICLE_CHUNK ? width * height : RS_PARTICLE_CHUNK;
    f.sppm_radius = sppm_default_radius(scene, &f.camera, height);
    f.sppm_alpha = RS_SPPM_DEFAULT_ALPHA;
    return f;
}

int rs_wavefront_plan(const RsBackend* backend, uint64_t total_paths, uint32_t* wave_capacity, RsError* err)
{
    uint64_t per_path = backend->ops->bytes_per_path(backend);
    uint64_t fits = backend->memory_budget / per_path;
    if (fits < 32)
        return rs_error_set(err,
                            "not enough memory for even one wave of 32 paths: %llu bytes per path, %llu bytes "
                            "available on %s",
                            (unsigned long long)per_path, (unsigned long long)backend->memory_budget,
                            backend->device);
    uint64_t wave = backend->preferred_wave;
    if (wave > fits)
        wave = fits / 32 * 32;
    if (wave > total_paths)
        wave = total_paths;
    if (wave == 0)
        wave = 1;
    *wave_capacity = (uint32_t)wave;
    return 0;
}

int rs_wavefront_begin(RsWavefront* wf, RsBackend* backend, const RsFrameDesc* frame, uint32_t wave_capacity,
                       RsError* err)
{
    /* the chooser's measurements stay valid for the same device and integrator */
    int keep = wf->deadray_auto_ready && wf->backend == backend && wf->frame.integrator == frame->integrator;
    RsDeadRayAuto chooser = wf->deadray_auto;
    memset(wf, 0, sizeof *wf);
    if (keep)
        wf->deadray_auto = chooser;
    else
        rs_deadray_auto_init(&wf->deadray_auto, rs_backend_resolve_kind(backend->config.kind));
    wf->deadray_auto_ready = 1;
    wf->backend = backend;
    wf->frame = *frame;
    wf->wave_capacity = wave_capacity;
    return backend->ops->set_frame(backend, frame, wave_capacity, err);
}

static void add_depth(uint64_t* table, uint32_t depth, uint64_t n)
{
    table[depth < RS_STATS_DEPTHS ? depth : RS_STATS_DEPTHS] += n;
}

/* Runs one backend call; for a synchronous backend, charges its wall time to `stage` (an
 * asynchronous one reports device times through take_stage_times instead). */
#define RS_TIMED(stage, call)                                           \
    do {                                                                \
        double t0_ = rs_clock_seconds();                                \
        int status_ = (call);                                           \
        if (!b->ops->take_stage_times)                                  \
            wf->stats.stage_seconds[stage] += rs_clock_seconds() - t0_; \
        if (status_)                                                    \
            return -1;                                                  \
    } while (0)

/* --deadray auto: the strategy of the next bounce, of rs_deadray_auto_bucket's `bucket`; or the
 * next entry of a test's schedule. */
static RsDeadRay auto_pick(RsWavefront* wf, uint32_t bucket)
{
    const RsBackendConfig* c = &wf->backend->config;
    if (c->schedule_length)
        return c->deadray_schedule[wf->schedule_step++ % c->schedule_length];
    return rs_deadray_auto_choose(&wf->deadray_auto, bucket);
}

static int trace_wave(RsWavefront* wf, const RsWaveRange* wave, RsError* err)
{
    RsBackend* b = wf->backend;
    const RsBackendOps* ops = b->ops;
    uint32_t paths = wave->paths;
    int autoray = b->config.deadray == RS_DEADRAY_AUTO;
    if (autoray && !ops->set_deadray)
        return rs_error_set(err, "internal error: the %s backend cannot switch dead-ray strategies", b->name);
    RsDeadRay first = RS_DEADRAY_AUTO, strategy = b->config.deadray;
    if (autoray) { /* generate builds the live set that the first bounce will likely use */
        rs_deadray_auto_next_wave(&wf->deadray_auto, paths);
        first = auto_pick(wf, rs_deadray_auto_bucket(1, paths, paths));
        b->time_bounce = 0;
        RS_TIMED(RS_STAGE_DROP_DEAD, ops->set_deadray(b, first, err));
    }
    RS_TIMED(RS_STAGE_GENERATE, ops->generate(b, wave, err));
    uint32_t live = paths;
    if (wf->frame.noise_threshold > 0.0f) { /* paths of stopped pixels died at generate */
        RsBounceCounts counts;
        RS_TIMED(RS_STAGE_DROP_DEAD, ops->drop_dead(b, err) || ops->read_counts(b, &counts, err));
        live = counts.live;
    }
    wf->stats.camera_rays += live;
    /* max_depth + 1: a path whose last vertex is specular traces one more segment, for emission
     * only (stage_shade.h); shade ends every path there. */
    for (uint32_t depth = 1; depth <= wf->frame.max_depth + 1 && live != 0; ++depth) {
        add_depth(wf->stats.live_at_depth, depth, live);
        if (depth > 1)
            wf->stats.bounce_rays += live;
        RsBounceCounts counts;
        /* the segment after the last vertex, for emission only, is a kind of its own */
        uint32_t bucket =
            rs_deadray_auto_bucket(depth > wf->frame.max_depth ? RS_AUTO_EMISSION_SEGMENT : depth, live, paths);
        double t0 = rs_clock_seconds();
        if (autoray) {
            /* the first choice stands if adaptive sampling left the bounce in its bucket */
            int same = depth == 1 && bucket == rs_deadray_auto_bucket(1, paths, paths);
            strategy = same && !b->config.schedule_length ? first : auto_pick(wf, bucket);
            b->time_bounce = !b->config.schedule_length && wf->deadray_auto.measure;
            RS_TIMED(RS_STAGE_DROP_DEAD, ops->set_deadray(b, strategy, err));
        }
        if (depth > 1 && b->config.sort_rays && rs_deadray_is_compaction(strategy))
            RS_TIMED(RS_STAGE_SORT, ops->sort(b, err));
        RS_TIMED(RS_STAGE_EXTEND, ops->extend(b, err));
        if (b->config.sort_materials) /* a warp's lanes then shade one material (docs/architecture.md, section 4) */
            RS_TIMED(RS_STAGE_SORT, ops->sort_materials(b, err));
        RS_TIMED(RS_STAGE_SHADE, ops->shade(b, err));
        RS_TIMED(RS_STAGE_CONNECT, ops->connect(b, err));
        RS_TIMED(RS_STAGE_DROP_DEAD, ops->drop_dead(b, err) || ops->read_counts(b, &counts, err));
        if (autoray && b->time_bounce) {
            double seconds = rs_clock_seconds() - t0;
            if (ops->bounce_seconds && ops->bounce_seconds(b, &seconds, err))
                return -1;
            rs_deadray_auto_record(&wf->deadray_auto, bucket, strategy, seconds, live, paths);
        }
        wf->stats.deadray_at_depth[depth < RS_STATS_DEPTHS ? depth : RS_STATS_DEPTHS][strategy]++;
        add_depth(wf->stats.shadow_at_depth, depth, counts.shadow_rays);
        wf->stats.shadow_rays += counts.shadow_rays;
        live = counts.live;
    }
    RS_TIMED(RS_STAGE_ACCUMULATE, ops->accumulate(b, err));
    wf->stats.waves++;
    return 0;
}

/* With adaptive sampling a wave ends at the span's next decision pass at the latest, and the
 * span's pixels are judged when one ends there (kernel/film/adaptive.h): the film then holds
 * exactly the samples before that pass, however the trace was cut into waves and calls. */
static uint32_t wave_size(const RsWavefront* wf, const RsWaveRange* wave, uint64_t paths)
{
    uint64_t size = paths < wf->wave_capacity ? paths : wf->wave_capacity;
    const RsBackendConfig* c = &wf->backend->config;
    if (c->deadray == RS_DEADRAY_AUTO && !c->schedule_length && size > RS_AUTO_EXPLORE_WAVE &&
        !rs_deadray_auto_settled(&wf->deadray_auto, (uint32_t)size))
        size = RS_AUTO_EXPLORE_WAVE; /* auto explores in small waves (deadray_auto.h) */
    if (wf->frame.noise_threshold > 0.0f) {
        uint32_t pass = (uint32_t)(wave->first_path / wave->span_pixels);
        uint64_t boundary = (uint64_t)rs_adaptive_next_decision(pass, wf->frame.min_spp) * wave->span_pixels;
        if (size > boundary - wave->first_path)
            size = boundary - wave->first_path;
    }
    return (uint32_t)size;
}

static int judge_pixels(RsWavefront* wf, const RsWaveRange* wave, RsError* err)
{
    uint64_t end = wave->first_path + wave->paths;
    if (wf->frame.noise_threshold <= 0.0f || end % wave->span_pixels != 0 ||
        !rs_adaptive_decides_at((uint32_t)(end / wave->span_pixels), wf->frame.min_spp))
        return 0;
    RsBackend* b = wf->backend;
    RS_TIMED(RS_STAGE_ACCUMULATE, b->ops->adaptive_update(b, wave->span_first_index, wave->span_pixels, err));
    return 0;
}

int rs_wavefront_trace(RsWavefront* wf, const RsPathRange* range, RsError* err)
{
    uint64_t readback_before = wf->backend->readback_bytes;
    uint64_t paths = range->paths;
    RsWaveRange wave = {range->span_first_index, range->span_pixels, range->first_path, 0, range->phase,
                        range->chunk_first_path};
    int stopped = 0;
    wf->paths_traced = 0;
    while (paths > 0 && !stopped) {
        wave.paths = wave_size(wf, &wave, paths);
        if (trace_wave(wf, &wave, err) || judge_pixels(wf, &wave, err))
            return -1;
        wave.first_path += wave.paths;
        paths -= wave.paths;
        wf->paths_traced += wave.paths;
        stopped = paths > 0 && wf->stop && *wf->stop;
    }
    if (wf->backend->ops->read_nonfinite) { /* a counter since set_frame: take what is new */
        uint64_t nonfinite;
        if (wf->backend->ops->read_nonfinite(wf->backend, &nonfinite, err))
            return -1;
        wf->stats.nonfinite_paths += nonfinite - wf->nonfinite_read;
        wf->nonfinite_read = nonfinite;
    }
    wf->stats.readback_bytes += wf->backend->readback_bytes - readback_before;
    if (wf->backend->ops->take_stage_times &&
        wf->backend->ops->take_stage_times(wf->backend, wf->stats.stage_seconds, err))
        return -1;
    return stopped ? RS_WAVEFRONT_STOPPED : 0;
}

void rs_trace_stats_add(RsTraceStats* a, const RsTraceStats* b)
{
    a->camera_rays += b->camera_rays;
    a->bounce_rays += b->bounce_rays;
    a->shadow_rays += b->shadow_rays;
    for (int d = 0; d <= RS_STATS_DEPTHS; ++d) {
        a->live_at_depth[d] += b->live_at_depth[d];
        a->shadow_at_depth[d] += b->shadow_at_depth[d];
    }
    for (int s = 0; s < RS_STAGE_COUNT; ++s)
        a->stage_seconds[s] += b->stage_seconds[s];
    for (int d = 0; d <= RS_STATS_DEPTHS; ++d)
        for (int k = 0; k < RS_DEADRAY_COUNT; ++k)
            a->deadray_at_depth[d][k] += b->deadray_at_depth[d][k];
    a->readback_bytes += b->readback_bytes;
    a->waves += b->waves;
    a->nonfinite_paths += b->nonfinite_paths;
}

RsTraceStats rs_trace_stats_since(const RsTraceStats* now, const RsTraceStats* before)
{
    RsTraceStats d = *now;
    d.camera_rays -= before->camera_rays;
    d.bounce_rays -= before->bounce_rays;
    d.shadow_rays -= before->shadow_rays;
    for (int k = 0; k <= RS_STATS_DEPTHS; ++k) {
        d.live_at_depth[k] -= before->live_at_depth[k];
        d.shadow_at_depth[k] -= before->shadow_at_depth[k];
    }
    for (int s = 0; s < RS_STAGE_COUNT; ++s)
        d.stage_seconds[s] -= before->stage_seconds[s];
    for (int k = 0; k <= RS_STATS_DEPTHS; ++k)
        for (int s = 0; s < RS_DEADRAY_COUNT; ++s)
            d.deadray_at_depth[k][s] -= before->deadray_at_depth[k][s];
    d.readback_bytes -= before->readback_bytes;
    d.waves -= before->waves;
    d.nonfinite_paths -= before->nonfinite_paths;
    return d;
}

RsDeadRay rs_trace_stats_deadray_at(const RsTraceStats* s, uint32_t depth)
{
    const uint64_t* row = s->deadray_at_depth[depth < RS_STATS_DEPTHS ? depth : RS_STATS_DEPTHS];
    RsDeadRay most = RS_DEADRAY_COUNT;
    for (int k = 0; k < RS_DEADRAY_COUNT; ++k)
        if (row[k] > 0 && (most == RS_DEADRAY_COUNT || row[k] > row[most]))
            most = (RsDeadRay)k;
    return most;
}

uint64_t rs_trace_stats_rays(const RsTraceStats* s) { return s->camera_rays + s->bounce_rays + s->shadow_rays; }
