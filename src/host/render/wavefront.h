/* wavefront.h - the bounce loop: the one place that decides stage order, wave sizes and what
 * is counted (docs/architecture.md, section 4).
 *
 * Host C11. Per wave: generate; then for each depth extend -> shade -> connect -> drop dead
 * rays, until no ray is alive or max_depth is reached; then accumulate into the film. With
 * --deadray auto the loop also picks each bounce's strategy (deadray_auto.h) and tells the
 * backend before generate and before every bounce (set_deadray), timing each bounce for it.
 * Statistics are per depth (live rays entering each bounce, shadow rays) and per stage time.
 */
#ifndef RS_HOST_WAVEFRONT_H
#define RS_HOST_WAVEFRONT_H

#include <signal.h>

#include "host/backend/backend.h"
#include "host/render/deadray_auto.h"
#include "host/scene/scene.h"

/* Depths beyond this many are counted in the last entry. */
#define RS_STATS_DEPTHS 64

typedef struct RsTraceStats {
    uint64_t camera_rays;  /* extension rays of depth 1 */
    uint64_t bounce_rays;  /* extension rays of depth >= 2 */
    uint64_t shadow_rays;
    uint64_t live_at_depth[RS_STATS_DEPTHS + 1];   /* [d]: rays entering extend at depth d (1-based) */
    uint64_t shadow_at_depth[RS_STATS_DEPTHS + 1]; /* [d]: shadow rays written at depth d */
    double stage_seconds[RS_STAGE_COUNT];
    uint64_t readback_bytes; /* device-to-host bytes during tracing (counts, not the film) */
    uint64_t waves;
    uint64_t nonfinite_paths; /* paths dropped by accumulate: radiance not finite */
    /* [d][s]: bounces of depth d that ran with strategy s (with --deadray auto, what it picked) */
    uint64_t deadray_at_depth[RS_STATS_DEPTHS + 1][RS_DEADRAY_COUNT];
} RsTraceStats;

typedef struct RsWavefront {
    RsBackend* backend;
    RsFrameDesc frame;
    uint32_t wave_capacity;
    RsTraceStats stats;
    /* Set by the caller, NULL by default: when *stop becomes non-zero (a signal handler sets
     * it), rs_wavefront_trace returns RS_WAVEFRONT_STOPPED after the wave in flight. */
    const volatile sig_atomic_t* stop;
    uint64_t paths_traced; /* paths accumulated into the film by the last rs_wavefront_trace */
    uint64_t nonfinite_read; /* the backend's dropped-path counter when last read */
    /* --deadray auto: the chooser, kept across frames of the same backend and integrator (the
     * viewer's and the benchmark's frames go on from what was measured) */
    RsDeadRayAuto deadray_auto;
    int deadray_auto_ready;
    uint64_t schedule_step; /* the next entry of config.deadray_schedule (tests) */
} RsWavefront;

/* Paths [first_path, first_path + paths) of a span of the image, numbered as in
 * kernel_params.h; the whole image is the span {0, width * height}. A particle range (phase
 * RS_PHASE_PARTICLES) is one chunk of particles or a part of one that starts at
 * chunk_first_path, span_pixels being the particles per pass (particle_trace.c). */
typedef struct RsPathRange {
    uint32_t span_first_index, span_pixels;
    uint64_t first_path, paths;
    uint32_t phase;            /* RS_PHASE_*; 0: camera paths */
    uint64_t chunk_first_path; /* particle ranges only */
} RsPathRange;

#define RS_WAVEFRONT_STOPPED 1

/* Russian roulette acts at the vertices of this depth and beyond: the fifth hit, where Mitsuba 3
 * (rr_depth 5) starts it, so the two give the same noise per sample (stage_shade.h). */
#define RS_DEFAULT_RR_DEPTH 5

RsFrameDesc rs_frame_from_scene(const RsScene* scene, uint32_t width, uint32_t height, uint32_t max_depth,
                                uint32_t integrator, uint32_t seed);

/* Picks the wave size: the backend's preferred size, cut to the memory budget (divided by
 * ops->bytes_per_path) and to the work at hand. Fails if not even one 32-ray batch fits,
 * saying how much memory it needs. */
int rs_wavefront_plan(const RsBackend* backend, uint64_t total_paths, uint32_t* wave_capacity, RsError* err);

/* Uploads nothing: the scene must already be set on the backend. Clears the film. */
int rs_wavefront_begin(RsWavefront* wf, RsBackend* backend, const RsFrameDesc* frame, uint32_t wave_capacity,
                       RsError* err);

/* Traces a range of paths in waves and accumulates them: returns 0 when all are in the film,
 * -1 on error, RS_WAVEFRONT_STOPPED when wf->stop ended it early; wf->paths_traced says how
 * many (from range->first_path on) were accumulated. */
int rs_wavefront_trace(RsWavefront* wf, const RsPathRange* range, RsError* err);

/* Adds b's counts and stage times to a. */
void rs_trace_stats_add(RsTraceStats* a, const RsTraceStats* b);
/* a - b, field by field: what happened between two snapshots of the same counters. */
RsTraceStats rs_trace_stats_since(const RsTraceStats* now, const RsTraceStats* before);
/* The strategy that ran most bounces of depth d (1-based), or RS_DEADRAY_COUNT if none ran. */
RsDeadRay rs_trace_stats_deadray_at(const RsTraceStats* s, uint32_t depth);
/* Every ray traced: camera, bounce and shadow. */
uint64_t rs_trace_stats_rays(const RsTraceStats* s);

const char* rs_stage_name(RsStage s);

#endif /* RS_HOST_WAVEFRONT_H */
