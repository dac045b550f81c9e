/* deadray_auto.h - `--deadray auto`'s chooser: which dead-ray strategy the next bounce uses,
 * from what earlier bounces of the same kind cost (docs/architecture.md, section 5.1).
 *
 * Host C11, pure: no clock, no backend. The bounce loop (wavefront.c) asks for a choice before
 * each bounce, runs the bounce with it, and records the seconds it measured; given the same
 * measurements the choices are the same. Choices never change the image: every strategy
 * visits the same rays (only their order differs), which the strategy tests check bit for bit.
 *
 * A bounce's kind is its bucket: its depth (1 .. RS_AUTO_DEPTHS, deeper ones share the last)
 * and the live fraction entering it (live / wave paths) in log2 steps, 1 .. 1/2, 1/2 .. 1/4,
 * ..., below 1/128. The fraction is what decides the cost (a stencil visits every word of the
 * wave, a compaction only the live rows) and it follows the scene and the camera by itself; the
 * depth keeps apart bounces the fraction alone would mix: camera rays (coherent, traced by
 * another extend kernel) and the first bounces after them, which in a scene where few rays
 * die all enter with more than half alive, and it gives each bucket at most one visit per wave,
 * so that exploring round the candidates cannot alias candidates onto depths (stencil always
 * measured on camera rays, say). Per (bucket, candidate) a running
 * cost: seconds of the bounce (conversion, sort, extend, shade, connect, drop_dead) per ray
 * entering it, with the rays counted as at least 1/256 of the wave so that the open last
 * bucket's few-ray bounces, which cost their fixed launch overheads, are not divided by ~1.
 */
#ifndef RS_HOST_DEADRAY_AUTO_H
#define RS_HOST_DEADRAY_AUTO_H

#include "host/backend/backend.h"

#define RS_AUTO_FRACTIONS 8
#define RS_AUTO_DEPTHS 12
/* wave sizes: below 2^18 paths, 2^20, 2^22, and larger */
#define RS_AUTO_SIZES 4
#define RS_AUTO_BUCKETS (RS_AUTO_FRACTIONS * RS_AUTO_DEPTHS * RS_AUTO_SIZES)
/* stencil, compact-warp, and compact-cub (CUDA) or compact-scan (CPU) */
#define RS_AUTO_MAX_CANDIDATES 3
/* measured bounces per (bucket, candidate) before the chooser exploits: GPU event times of a
 * bounce vary by about 1% from wave to wave, so one is enough, and every exploring wave is a
 * wave spent on a strategy that is likely not the best */
#define RS_AUTO_SAMPLES 1
/* every this many visits of a bucket after exploring, one bounce re-measures another
 * candidate: the runner-up and the least recently measured in turn */
#define RS_AUTO_REVISIT 64
/* while exploiting, every this many visits of a bucket is timed to follow its cost; the others
 * are not timed at all: on the GPU a timed bounce costs two events and a read of them, which in
 * sub-millisecond frames (small scenes, the viewer) was several percent of the frame */
#define RS_AUTO_SAMPLE_EVERY 8
/* while exploiting, a bucket keeps its current strategy unless another measured more than this
 * much cheaper, and stays in the previous bounce's family within this of the cheapest: costs a
 * percent apart flipped the choice back and forth, each flip a conversion (about 0.02 ms on the
 * H100), which in sub-millisecond frames lost more than the choice won */
#define RS_AUTO_STAY 1.03
/* the same for staying in the previous bounce's family: a change of family also pays a
 * conversion, which the exploring waves (one strategy throughout) never measured. In the H100
 * bench suite 1.03, 1.10 and 1.25 left 20, 14 and 16 of 48 rows more than 3% behind the best
 * fixed strategy (worst 0.922, 0.936, 0.882); two runs of one setting differ by about five rows */
#ifndef RS_AUTO_FAMILY_STAY
#define RS_AUTO_FAMILY_STAY 1.10
#endif

typedef struct RsAutoArm {
    double cost;         /* seconds per ray entering: mean of the first samples, then a moving average */
    uint32_t samples;
    uint32_t last_visit; /* the bucket's visit number when last measured */
} RsAutoArm;

typedef struct RsAutoBucket {
    RsAutoArm arm[RS_AUTO_MAX_CANDIDATES];
    uint32_t visits;
    int current; /* the arm exploitation last chose, -1 before */
} RsAutoBucket;

typedef struct RsDeadRayAuto {
    RsDeadRay candidate[RS_AUTO_MAX_CANDIDATES];
    uint32_t count;
    uint32_t warmed; /* bit per candidate: its first measurement ever (warm-up) was discarded */
    int measure;     /* set by rs_deadray_auto_choose: time the bounce it chose for, and record it */
    uint32_t waves;  /* rs_deadray_auto_next_wave calls: exploration runs one candidate a wave */
    RsAutoBucket bucket[RS_AUTO_BUCKETS];
} RsDeadRayAuto;

/* The candidates of a backend kind (RS_BACKEND_CPU or RS_BACKEND_CUDA); no measurements. */
void rs_deadray_auto_init(RsDeadRayAuto* a, RsBackendKind kind);
/* The live-fraction step of `live` of `paths` rays: 0 (more than half) .. RS_AUTO_FRACTIONS - 1. */
uint32_t rs_deadray_auto_fraction(uint32_t live, uint32_t paths);
/* The bucket of a bounce of depth `depth` (1-based) that `live` of `paths` rays enter (a wave of
 * `paths` paths). The wave's size is part of it: a bounce's fixed costs (launches, the wait
 * for its counts) weigh more per ray in a small wave, and the viewer starts with small slices
 * before it grows them to its frame budget, so costs measured on small waves must not decide
 * for large ones. */
uint32_t rs_deadray_auto_bucket(uint32_t depth, uint32_t live, uint32_t paths);
/* A wave begins. Buckets that still explore all take the wave's candidate (the waves go round
 * the candidates), so that an exploring wave runs one strategy throughout: no family changes
 * and their conversions inside it, and each measured bounce follows bounces of its own kind,
 * as it will when the strategy is chosen for good. */
void rs_deadray_auto_next_wave(RsDeadRayAuto* a);
/* The strategy for the next bounce of the bucket (counts a visit); sets a->measure. `previous`:
 * the strategy of the bounce before in the same wave (RS_DEADRAY_AUTO for the first): while
 * exploiting, a candidate of the previous bounce's family (RS_AUTO_STAY of the cheapest, or
 * closer) is kept rather than paying a conversion for a difference within the noise. */
RsDeadRay rs_deadray_auto_choose(RsDeadRayAuto* a, uint32_t bucket, RsDeadRay previous);
/* A bounce of the bucket ran with strategy d in `seconds`, `live` of `paths` rays entering. */
void rs_deadray_auto_record(RsDeadRayAuto* a, uint32_t bucket, RsDeadRay d, double seconds, uint32_t live,
                            uint32_t paths);
/* The cheapest candidate measured in the bucket, or RS_DEADRAY_AUTO when none is yet. */
RsDeadRay rs_deadray_auto_best(const RsDeadRayAuto* a, uint32_t bucket);

#endif /* RS_HOST_DEADRAY_AUTO_H */
