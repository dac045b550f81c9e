/* deadray_auto.c - `--deadray auto`'s chooser (see deadray_auto.h). Host C11.
 *
 * Explore, then exploit, then now and then look again:
 *   - a bucket's first visits take the wave's candidate (rs_deadray_auto_next_wave: the waves go
 *     round the candidates) while that one needs measurements, else the one with fewest (then
 *     the least recently run), until each has RS_AUTO_SAMPLES measurements; a candidate's very first
 *     measurement, in whatever bucket, is thrown away (first launches, first allocations and
 *     cold caches are not the strategy's cost);
 *   - then the cheapest is used (with some stickiness: RS_AUTO_STAY), and one of its bounces in
 *     RS_AUTO_SAMPLE_EVERY is timed;
 *   - every RS_AUTO_REVISIT-th visit runs another candidate once, the runner-up and the least
 *     recently measured in turn, so that a changed camera or scene (the viewer) is followed.
 *     The runner-up is usually close, so looking again costs little; the least recently
 *     measured may be twice as slow, once every 2 x RS_AUTO_REVISIT visits: under 1%.
 * After the first samples a cost follows new measurements with weight 1/2: a real change (the
 * viewer's camera moved) is followed within a re-measurement or two.
 */
#include "host/render/deadray_auto.h"

#include <string.h>

/* Left out: flags (the stencil visits the same rows, skips a dead warp whole and keeps a bit
 * per ray instead of a word) and compact-block (the same order-preserving list as compact-scan):
 * in the 96 rows of tools/bench/results/bench.txt (H200) neither beats the best of the others
 * by more than 0.05%. Persistent threads, and compact-scan on the GPU, were candidates at first;
 * in the H100 bench suite (48 scene, integrator and depth rows) persistent was best once, by
 * 0.7%, and compact-scan never by more than 1%, while each candidate costs exploring waves. */
static const RsDeadRay auto_candidates_cuda[] = {RS_DEADRAY_STENCIL, RS_DEADRAY_COMPACT_WARP, RS_DEADRAY_COMPACT_CUB};
static const RsDeadRay auto_candidates_cpu[] = {RS_DEADRAY_STENCIL, RS_DEADRAY_COMPACT_SCAN, RS_DEADRAY_COMPACT_WARP};

#define RS_AUTO_FOLLOW 0.5

void rs_deadray_auto_init(RsDeadRayAuto* a, RsBackendKind kind)
{
    memset(a, 0, sizeof *a);
    const RsDeadRay* list = kind == RS_BACKEND_CUDA ? auto_candidates_cuda : auto_candidates_cpu;
    for (size_t i = 0; i < RS_AUTO_MAX_CANDIDATES; ++i)
        if (rs_deadray_supported(list[i], kind))
            a->candidate[a->count++] = list[i];
    for (int b = 0; b < RS_AUTO_BUCKETS; ++b)
        a->bucket[b].current = -1;
}

/* The arm to exploit: the cheapest, unless the bucket's current arm is within RS_AUTO_STAY of
 * it, or the cheapest of the previous bounce's family within RS_AUTO_FAMILY_STAY. */
static int settle(const RsDeadRayAuto* a, const RsAutoBucket* b, int best, RsDeadRay previous)
{
    double limit = b->arm[best].cost * RS_AUTO_STAY;
    if (b->current >= 0 && b->arm[b->current].cost <= limit &&
        (previous == RS_DEADRAY_AUTO ||
         rs_deadray_is_compaction(a->candidate[b->current]) == rs_deadray_is_compaction(previous)))
        return b->current;
    if (previous == RS_DEADRAY_AUTO || rs_deadray_is_compaction(a->candidate[best]) == rs_deadray_is_compaction(previous))
        return best;
    int same = -1;
    for (int i = 0; i < (int)a->count; ++i)
        if (rs_deadray_is_compaction(a->candidate[i]) == rs_deadray_is_compaction(previous) &&
            (same < 0 || b->arm[i].cost < b->arm[same].cost))
            same = i;
    return same >= 0 && b->arm[same].cost <= b->arm[best].cost * RS_AUTO_FAMILY_STAY ? same : best;
}

void rs_deadray_auto_next_wave(RsDeadRayAuto* a) { a->waves++; }

uint32_t rs_deadray_auto_fraction(uint32_t live, uint32_t paths)
{
    uint32_t step = 0;
    /* live <= paths / 2^(step + 1): one more halving still holds it */
    while (step + 1 < RS_AUTO_FRACTIONS && (uint64_t)live << (step + 1) <= (uint64_t)paths)
        ++step;
    return step;
}

uint32_t rs_deadray_auto_bucket(uint32_t depth, uint32_t live, uint32_t paths)
{
    uint32_t d = depth < 1 ? 1 : depth > RS_AUTO_DEPTHS ? RS_AUTO_DEPTHS : depth;
    uint32_t size = paths < (1u << 18) ? 0u : paths < (1u << 20) ? 1u : paths < (1u << 22) ? 2u : 3u;
    return (size * RS_AUTO_DEPTHS + d - 1) * RS_AUTO_FRACTIONS + rs_deadray_auto_fraction(live, paths);
}

static int arm_of(const RsDeadRayAuto* a, RsDeadRay d)
{
    for (uint32_t i = 0; i < a->count; ++i)
        if (a->candidate[i] == d)
            return (int)i;
    return -1;
}

/* The cheapest arm, and the next cheapest (-1 when there is one candidate). */
static void ranked(const RsAutoBucket* b, uint32_t count, int* best, int* second)
{
    *best = *second = -1;
    for (int i = 0; i < (int)count; ++i) {
        if (*best < 0 || b->arm[i].cost < b->arm[*best].cost) {
            *second = *best;
            *best = i;
        } else if (*second < 0 || b->arm[i].cost < b->arm[*second].cost) {
            *second = i;
        }
    }
}

RsDeadRay rs_deadray_auto_choose(RsDeadRayAuto* a, uint32_t bucket, RsDeadRay previous)
{
    a->measure = 1;
    if (a->count == 0)
        return RS_DEADRAY_STENCIL;
    RsAutoBucket* b = &a->bucket[bucket < RS_AUTO_BUCKETS ? bucket : RS_AUTO_BUCKETS - 1];
    uint32_t visit = ++b->visits;
    int explore = -1;
    int lockstep = (int)(a->waves % a->count);
    if (b->arm[lockstep].samples < RS_AUTO_SAMPLES)
        return a->candidate[lockstep];
    for (int i = 0; i < (int)a->count; ++i) {
        const RsAutoArm* arm = &b->arm[i];
        if (arm->samples < RS_AUTO_SAMPLES &&
            (explore < 0 || arm->samples < b->arm[explore].samples ||
             (arm->samples == b->arm[explore].samples && arm->last_visit < b->arm[explore].last_visit)))
            explore = i;
    }
    if (explore >= 0)
        return a->candidate[explore];
    int best, second;
    ranked(b, a->count, &best, &second);
    if (second < 0 || visit % RS_AUTO_REVISIT != 0) {
        a->measure = visit % RS_AUTO_SAMPLE_EVERY == 0;
        b->current = settle(a, b, best, previous);
        return a->candidate[b->current];
    }
    if ((visit / RS_AUTO_REVISIT) % 2 == 1)
        return a->candidate[second];
    int oldest = second;
    for (int i = 0; i < (int)a->count; ++i)
        if (i != best && b->arm[i].last_visit < b->arm[oldest].last_visit)
            oldest = i;
    return a->candidate[oldest];
}

void rs_deadray_auto_record(RsDeadRayAuto* a, uint32_t bucket, RsDeadRay d, double seconds, uint32_t live,
                            uint32_t paths)
{
    int i = arm_of(a, d);
    if (i < 0 || !(seconds >= 0.0))
        return;
    RsAutoBucket* b = &a->bucket[bucket < RS_AUTO_BUCKETS ? bucket : RS_AUTO_BUCKETS - 1];
    RsAutoArm* arm = &b->arm[i];
    arm->last_visit = b->visits;
    if (!(a->warmed & (1u << i))) {
        a->warmed |= 1u << i;
        return;
    }
    uint32_t floor = paths / 256u;
    uint32_t rays = live > floor ? live : floor;
    double cost = seconds / (double)(rays ? rays : 1u);
    if (arm->samples < RS_AUTO_SAMPLES)
        arm->cost = (arm->cost * arm->samples + cost) / (arm->samples + 1);
    else
        arm->cost += RS_AUTO_FOLLOW * (cost - arm->cost);
    if (arm->samples < UINT32_MAX)
        arm->samples++;
}

RsDeadRay rs_deadray_auto_best(const RsDeadRayAuto* a, uint32_t bucket)
{
    const RsAutoBucket* b = &a->bucket[bucket < RS_AUTO_BUCKETS ? bucket : RS_AUTO_BUCKETS - 1];
    int best = -1;
    for (int i = 0; i < (int)a->count; ++i)
        if (b->arm[i].samples > 0 && (best < 0 || b->arm[i].cost < b->arm[best].cost))
            best = i;
    return best < 0 ? RS_DEADRAY_AUTO : a->candidate[best];
}
