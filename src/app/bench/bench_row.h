/* bench_row.h - one row of `raystream bench`: a (scene, integrator, depth) timed under each
 * selected dead-ray strategy, their frames taken in turn.
 *
 * Host C11, application layer. Every strategy has its own renderer, all of them resident at
 * once; round f traces frame f of each in turn (the round's first strategy rotates), so whatever
 * slows the machine for a while (clocks, a neighbour on a shared host, the host's scheduler)
 * lands on every strategy of the row alike. Timed one after another, a few milliseconds of such
 * a spell decided rows of sub-millisecond frames: on an H100 every fixed strategy of the default
 * suite had rows at 0.5-0.85 of the best of the others, a different row in each run, and
 * `--deadray auto`, compared with the best of seven such draws, looked worse than it ran
 * (docs/benchmarks.md).
 */
#ifndef RS_APP_BENCH_ROW_H
#define RS_APP_BENCH_ROW_H

#include "app/options.h"
#include "host/render/renderer.h"

typedef struct BenchResult {
    const char* scene;
    uint32_t integrator, depth;
    RsDeadRay deadray;
    int devices;                  /* how many shared the frame */
    double share[RS_MAX_DEVICES]; /* each device's fraction of the paths */
    double ms_median, ms_min, ms_max;
    RsTraceStats per_frame; /* totals over the timed frames divided by the frame count */
    double stage_ms[RS_STAGE_COUNT];
    double denoise_ms;          /* median; -1 without --denoise */
    double busy;                /* sum of stage times / (mean frame time x devices) */
    double particles_per_frame; /* light: particles, sppm: photons traced per frame; 0 for the others */
} BenchResult;

typedef struct BenchRow {
    const RsScene* scene;
    RsRenderDesc render; /* size, spp, depth, integrator and seed of the row */
    const RsCommonOptions* common;
    uint32_t frames, warmup; /* per strategy */
    int denoise;             /* also time the denoiser on each timed frame's film */
} BenchRow;

/* Times the row on renderers[0 .. count-1] (one per strategy), filling results[i] for
 * renderers[i] apart from its labels (scene, integrator, depth, deadray: the caller's). Returns
 * 0; 1 when a second stop signal cut a frame short (the row is dropped); -1 with `err` and
 * *failed, the index of the renderer that failed. */
int bench_row_run(const BenchRow* row, RsRenderer* const* renderers, BenchResult* results, int count, int* failed,
                  RsError* err);

#endif /* RS_APP_BENCH_ROW_H */
