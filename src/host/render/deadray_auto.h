/* deadray_auto.h - `--deadray auto`'s chooser: which dead-ray strategy the next bounce uses,
 * from what earlier bounces of the same kind cost (docs/architecture.md, section 5.1).
 *
 * Host C11, pure: no clock, no backend. The bounce loop (wavefront.c) asks for a choice before
 * each bounce, runs the bounce with it, and records the seconds it measured; given the same
 * measurements the choices are the same. Choices never change the image: every strategy
 * visits the same rays (only their order differs), which the strategy tests check bit for bit.
 *
 * A bounce's kind is its bucket: its depth (1 .. RS_AUTO_DEPTHS, deeper ones share the last;
 * the segment after a path's last vertex, for emission only, apart: RS_AUTO_EMISSION_SEGMENT)
 * and the live fraction entering it (live / wave paths) in log2 steps, 1 .. 1/2, 1/2 .. 1/4,
 * ..., below 1/128. The fraction is what decides the cost (a stencil visits every word of the
 * wave, a compaction only the live rows) and it follows the scene and the camera by itself; the
 * depth keeps apart bounces the fraction alone would mix: camera rays (coherent, traced by
 * another extend kernel) and the first bounces after them, which in a scene where few rays
 * die all enter with more than half alive, and it gives each bucket at most one visit per wave,
 * so that exploring round the candidates cannot alias candidates onto depths (stencil always
 * measured on camera rays, say). Per (bucket, candidate) a running
 * cost: seconds of the bounce (sort, extend, shade, connect, drop_dead) per ray
 * entering it, with the rays counted as at least 1/256 of the wave so that the open last
 * bucket's few-ray bounces, which cost their fixed launch overheads, are not divided by ~1.
 *
 * The family (stencil bits or an index list) is decided per wave, not per bounce: a compaction
 * at a bounce where nearly all rays live costs more than the stencil there, and pays off only in
 * the bounces after it, which a bounce-by-bounce choice never sees: it kept the stencil for the
 * first bounces and then either stayed with it or paid a conversion (on the H100 suite auto ran
 * "stencil, stencil, stencil, compact" where compaction throughout was 6% faster). So a wave's
 * plan sums, per family, the cheapest cost of each bucket the last wave of its size visited,
 * and the bounces choose inside the family that costs least.
 */
#ifndef RS_HOST_DEADRAY_AUTO_H
#define RS_HOST_DEADRAY_AUTO_H

#include "host/backend/backend.h"

#define RS_AUTO_FRACTIONS 8
#define RS_AUTO_DEPTHS 12
/* The depth rs_deadray_auto_bucket takes for the segment a path traces after its last vertex,
 * for emission only (depth max_depth + 1, stage_shade.h). It has a depth slot of its own, after
 * the RS_AUTO_DEPTHS others: its shade ends every path at once, so it costs far less than a
 * full bounce of the same depth, which it becomes when the depth is raised (the viewer; the
 * bench's rows, which share a chooser). Sharing the bucket, the full bounce inherited the short
 * one's cost: on the H100, reflect-23k's whitted bounce 2 measured 0.52 ns a ray at depth 1 and
 * 0.60-0.70 at depth 2, and at depth 2 auto ran the stencil family on the stale figure, 7%
 * slower than the compactions. */
#define RS_AUTO_EMISSION_SEGMENT 0u
/* wave sizes: below 2^18 paths, 2^20, 2^22, and larger */
#define RS_AUTO_SIZES 4
#define RS_AUTO_BUCKETS (RS_AUTO_FRACTIONS * (RS_AUTO_DEPTHS + 1) * RS_AUTO_SIZES)
/* stencil, compact-warp and compact-cub (CUDA); stencil, compact-scan and compact-warp (CPU) */
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
/* while exploiting, a bucket keeps its current strategy unless another of the wave's family
 * measured more than this much cheaper: costs a percent apart otherwise flip the choice back and
 * forth with every timed bounce */
#define RS_AUTO_STAY 1.03
/* bounces of a wave's buckets remembered for the next wave's family plan */
#define RS_AUTO_PATH 16

typedef struct RsAutoArm {
    double cost;         /* seconds per ray entering: mean of the first samples, then a moving average */
    uint32_t samples;
    uint32_t last_visit; /* the bucket's visit number when last measured */
} RsAutoArm;

typedef struct RsAutoBucket {
    RsAutoArm arm[RS_AUTO_MAX_CANDIDATES];
    uint32_t visits;
    int current;   /* the arm exploitation last chose, -1 before */
    double rays;   /* rays entering its last measured bounce: its weight in a family plan */
} RsAutoBucket;

typedef struct RsDeadRayAuto {
    RsDeadRay candidate[RS_AUTO_MAX_CANDIDATES];
    uint32_t count;
    uint32_t warmed; /* bit per candidate: its first measurement ever (warm-up) was discarded */
    int measure;     /* set by rs_deadray_auto_choose: time the bounce it chose for, and record it */
    uint32_t waves;  /* rs_deadray_auto_next_wave calls */
    int family;      /* the wave's family: 1 compaction (an index list), 0 stencil bits */
    int exploring;   /* the wave explores: its candidate wherever that lacks a measurement */
    int turn;        /* an exploring wave's candidate (an index into candidate[]) */
    int revisit;     /* the wave re-measures the family the plan did not pick */
    uint32_t path[RS_AUTO_PATH], path_length;           /* this wave's buckets, in bounce order */
    uint32_t path_size;                                 /* and its size key */
    /* per size key, the buckets of the last wave of that key: the next wave of a key is judged
     * by the last one of the same key, not by the wave just before, which the viewer's slices
     * cut into waves of two keys (2^22 paths and the rest) */
    uint32_t last_path[RS_AUTO_SIZES][RS_AUTO_PATH], last_length[RS_AUTO_SIZES];
    RsAutoBucket bucket[RS_AUTO_BUCKETS];
} RsDeadRayAuto;

/* The candidates of a backend kind (RS_BACKEND_CPU or RS_BACKEND_CUDA); no measurements. */
void rs_deadray_auto_init(RsDeadRayAuto* a, RsBackendKind kind);
/* The live-fraction step of `live` of `paths` rays: 0 (more than half) .. RS_AUTO_FRACTIONS - 1. */
uint32_t rs_deadray_auto_fraction(uint32_t live, uint32_t paths);
/* The bucket of a bounce of depth `depth` (1-based; RS_AUTO_EMISSION_SEGMENT for the segment
 * after a path's last vertex) that `live` of `paths` rays enter (a wave of `paths` paths). The
 * wave's size is part of it: a bounce's fixed costs (launches, the wait
 * for its counts) weigh more per ray in a small wave, and the viewer starts with small slices
 * before it grows them to its frame budget, so costs measured on small waves must not decide
 * for large ones. */
uint32_t rs_deadray_auto_bucket(uint32_t depth, uint32_t live, uint32_t paths);
/* A wave of `paths` paths begins, and gets its family (stencil bits or an index list): a wave
 * never changes family inside, so it pays no conversion. The buckets it will likely visit are
 * those of the last wave of its size key. While a major bucket (more than 1/16 alive) of those
 * lacks a measurement of some candidate, the wave explores: the waves go round the candidates
 * (skipping those that no such bucket lacks), and every bucket that lacks the wave's candidate
 * takes it, so that a candidate is measured running at every depth, as it will run once chosen.
 * Then the plan: the family whose cheapest candidates, over those buckets, weighted by their
 * rays, cost least (a minor bucket the family has not measured takes its nearest measured
 * live-fraction step); every RS_AUTO_REVISIT-th wave runs the other family instead, timed
 * throughout, so a change of scene or camera (the viewer) is followed. */
void rs_deadray_auto_next_wave(RsDeadRayAuto* a, uint32_t paths);
/* Whether a next wave of `paths` paths would exploit: every candidate measured in every major
 * bucket of the last wave of its size key (none yet: not settled). */
int rs_deadray_auto_settled(const RsDeadRayAuto* a, uint32_t paths);
/* The size key of a wave of `paths` paths: below 2^18, 2^20, 2^22, and larger. */
uint32_t rs_deadray_auto_size_key(uint32_t paths);
/* The largest wave while the chooser is not settled (the bounce loop cuts waves to it). An
 * exploring wave runs one candidate throughout, the slowest one among them, and the GPU's waves
 * hold up to 2^25 paths, a whole frame of Sponza at 1080p and 16 spp: a short render or benchmark
 * would spend much of its time exploring. 2^22 paths is in the same size key as any larger wave
 * (rs_deadray_auto_bucket), so what small waves measured decides for the large ones. */
#define RS_AUTO_EXPLORE_WAVE (1u << 22)
/* The strategy for the next bounce of the bucket (counts a visit), within the wave's family:
 * a candidate the bucket still lacks, else the cheapest (RS_AUTO_STAY keeps the current one when
 * it is that close), every RS_AUTO_REVISIT-th visit the family's runner-up. Sets a->measure. */
RsDeadRay rs_deadray_auto_choose(RsDeadRayAuto* a, uint32_t bucket);
/* A bounce of the bucket ran with strategy d in `seconds`, `live` of `paths` rays entering. */
void rs_deadray_auto_record(RsDeadRayAuto* a, uint32_t bucket, RsDeadRay d, double seconds, uint32_t live,
                            uint32_t paths);
/* The cheapest candidate measured in the bucket, or RS_DEADRAY_AUTO when none is yet. */
RsDeadRay rs_deadray_auto_best(const RsDeadRayAuto* a, uint32_t bucket);

#endif /* RS_HOST_DEADRAY_AUTO_H */
