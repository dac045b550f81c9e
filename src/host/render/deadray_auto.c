/* deadray_auto.c - `--deadray auto`'s chooser (see deadray_auto.h). Host C11.
 *
 * Explore, then exploit, then now and then look again:
 *   - while a major bucket (more than 1/16 alive) that the last wave of the same size key
 *     visited lacks a measurement of some candidate, the wave explores: it takes the family
 *     of the candidate whose turn it is (the waves go round the candidates), and every bucket
 *     without that candidate's measurement runs it; the others take an unmeasured candidate
 *     of the family, or the family's cheapest. A candidate's very first measurement, in
 *     whatever bucket, is thrown away (first launches, first allocations and cold caches are
 *     not the strategy's cost);
 *   - then each wave plans its family from the buckets of that wave (deadray_auto.h), and
 *     every bounce takes the cheapest of the family in its bucket (with some stickiness:
 *     RS_AUTO_STAY), a bucket new to the run (a minor one, say) exploring the family's
 *     candidates first; one exploiting bounce in RS_AUTO_SAMPLE_EVERY is timed;
 *   - every RS_AUTO_REVISIT-th visit of a bucket runs the family's runner-up once, and every
 *     RS_AUTO_REVISIT-th wave runs the other family, timed throughout, so that a changed camera
 *     or scene (the viewer) is followed. The runner-up is usually close; the other family's
 *     wave, once in RS_AUTO_REVISIT, costs well under 1%.
 * After the first samples a cost follows new measurements with weight 1/2: a real change (the
 * viewer's camera moved) is followed within a re-measurement or two.
 */
#include "host/render/deadray_auto.h"

#include <string.h>

/* Left out: flags (the stencil visits the same rows, skips a dead warp whole and keeps a bit
 * per ray instead of a word) and compact-block (the same order-preserving list as compact-scan):
 * in the 96 rows of tools/bench/results/bench.txt (H200) neither beats the best of the others
 * by more than 0.05%. Compact-scan on the GPU never won by more than 1% in the H100 bench suite.
 * Persistent threads are left out as well. With the family planned per wave they were best in
 * the first bounces of diffuse.json (3% ahead of the stencil) until the plain-scene shade kernel
 * closed that gap; since then they are within 3% of the best of the others in at most 2 of the
 * H100 suite's 48 rows, and where an exploring or revisiting bounce ran them (reflect-23k,
 * whitted, depth 2) auto missed its 3%. Without them, 10 of 10 suites had auto within 3% in
 * every row, against 7 of 10 with them, in calls that alternated the two (H100;
 * tools/bench/results/traversal, `bench-turns/c74/`, `bench-waves/c75/` and `c81/`). */
static const RsDeadRay auto_candidates_cuda[] = {RS_DEADRAY_STENCIL, RS_DEADRAY_COMPACT_WARP, RS_DEADRAY_COMPACT_CUB};
static const RsDeadRay auto_candidates_cpu[] = {RS_DEADRAY_STENCIL, RS_DEADRAY_COMPACT_SCAN, RS_DEADRAY_COMPACT_WARP};

#define RS_AUTO_FOLLOW 0.5

void rs_deadray_auto_init(RsDeadRayAuto* a, RsBackendKind kind)
{
    memset(a, 0, sizeof *a);
    const RsDeadRay* list = kind == RS_BACKEND_CUDA ? auto_candidates_cuda : auto_candidates_cpu;
    size_t n = kind == RS_BACKEND_CUDA ? sizeof auto_candidates_cuda / sizeof *list
                                       : sizeof auto_candidates_cpu / sizeof *list;
    for (size_t i = 0; i < n && a->count < RS_AUTO_MAX_CANDIDATES; ++i)
        if (rs_deadray_supported(list[i], kind))
            a->candidate[a->count++] = list[i];
    for (int b = 0; b < RS_AUTO_BUCKETS; ++b)
        a->bucket[b].current = -1;
}

uint32_t rs_deadray_auto_fraction(uint32_t live, uint32_t paths)
{
    uint32_t step = 0;
    /* live <= paths / 2^(step + 1): one more halving still holds it */
    while (step + 1 < RS_AUTO_FRACTIONS && (uint64_t)live << (step + 1) <= (uint64_t)paths)
        ++step;
    return step;
}

uint32_t rs_deadray_auto_size_key(uint32_t paths)
{
    return paths < (1u << 18) ? 0u : paths < (1u << 20) ? 1u : paths < (1u << 22) ? 2u : 3u;
}

uint32_t rs_deadray_auto_bucket(uint32_t depth, uint32_t live, uint32_t paths)
{
    /* slots 0 .. RS_AUTO_DEPTHS - 1: depths 1 .. RS_AUTO_DEPTHS (deeper ones share the last);
     * slot RS_AUTO_DEPTHS: the emission-only segment */
    uint32_t slot = depth == RS_AUTO_EMISSION_SEGMENT ? RS_AUTO_DEPTHS
                    : depth > RS_AUTO_DEPTHS            ? RS_AUTO_DEPTHS - 1
                                                        : depth - 1;
    return (rs_deadray_auto_size_key(paths) * (RS_AUTO_DEPTHS + 1) + slot) * RS_AUTO_FRACTIONS +
           rs_deadray_auto_fraction(live, paths);
}

static int arm_of(const RsDeadRayAuto* a, RsDeadRay d)
{
    for (uint32_t i = 0; i < a->count; ++i)
        if (a->candidate[i] == d)
            return (int)i;
    return -1;
}

static int in_family(const RsDeadRayAuto* a, int arm, int family)
{
    return rs_deadray_is_compaction(a->candidate[arm]) == family;
}

/* The bucket's slot in the table (a bucket number past its end shares the last). */
static uint32_t slot_of(uint32_t bucket) { return bucket < RS_AUTO_BUCKETS ? bucket : RS_AUTO_BUCKETS - 1; }

/* The cheapest measured arm of the family in the bucket, and the next cheapest; -1 for none. */
static void ranked(const RsDeadRayAuto* a, const RsAutoBucket* b, int family, int* best, int* second)
{
    *best = *second = -1;
    for (int i = 0; i < (int)a->count; ++i) {
        if (!in_family(a, i, family) || b->arm[i].samples == 0)
            continue;
        if (*best < 0 || b->arm[i].cost < b->arm[*best].cost) {
            *second = *best;
            *best = i;
        } else if (*second < 0 || b->arm[i].cost < b->arm[*second].cost) {
            *second = i;
        }
    }
}

/* A major bucket: more than 1/16 of the wave alive. The others carry few rays, and appear and
 * disappear from wave to wave as the live counts of deep bounces wander across their steps:
 * exploring them a whole wave at a time (in the viewer, hundreds of waves) cost more than they
 * weigh. */
static int major(uint32_t bucket) { return bucket % RS_AUTO_FRACTIONS < 4; }

/* Whether the family has a candidate. */
static int has_family(const RsDeadRayAuto* a, int family)
{
    for (int i = 0; i < (int)a->count; ++i)
        if (in_family(a, i, family))
            return 1;
    return 0;
}

/* The family's cheapest cost per ray in the bucket; where the family has not measured it (a
 * minor bucket met by the other family only), that of the nearest live-fraction step of the
 * same depth and wave size that it has measured, the step with fewer alive first; -1 for none.
 * A stencil's cost per live ray grows as rays die, about twofold a step, so the estimate can be
 * off by that much; counting such a bucket the same for both families (tried first) hid the
 * stencil's cost there altogether, and a wave ran the stencil family for it
 * (test_deadray_auto's test_new_minor_bucket). */
static double family_cost(const RsDeadRayAuto* a, uint32_t bucket, int family)
{
    uint32_t step = bucket % RS_AUTO_FRACTIONS, row = bucket - step;
    for (uint32_t distance = 0; distance < RS_AUTO_FRACTIONS; ++distance) {
        for (int side = 0; side < 2; ++side) {
            if (distance == 0 && side == 1)
                continue;
            uint32_t s = side ? step - distance : step + distance;
            if (side ? distance > step : s >= RS_AUTO_FRACTIONS)
                continue;
            int best, second;
            ranked(a, &a->bucket[row + s], family, &best, &second);
            if (best >= 0)
                return a->bucket[row + s].arm[best].cost;
        }
    }
    return -1.0;
}

/* Whether every candidate is measured in every major bucket of a wave's path (minor ones: the
 * plan's family explores them as it meets them); an empty path is not. */
static int measured(const RsDeadRayAuto* a, const uint32_t* path, uint32_t length)
{
    int complete = length > 0;
    for (uint32_t k = 0; complete && k < length; ++k)
        for (uint32_t i = 0; i < a->count; ++i)
            complete &= !major(path[k]) || a->bucket[path[k]].arm[i].samples >= RS_AUTO_SAMPLES;
    return complete;
}

/* The buckets of the last finished wave of `paths` paths' size key, the wave that predicts the
 * next one of that size: between waves that is still `path` if it was of that key. */
static const uint32_t* last_wave(const RsDeadRayAuto* a, uint32_t paths, uint32_t* length)
{
    uint32_t key = rs_deadray_auto_size_key(paths);
    if (a->path_length > 0 && a->path_size == key) {
        *length = a->path_length;
        return a->path;
    }
    *length = a->last_length[key];
    return a->last_path[key];
}

int rs_deadray_auto_settled(const RsDeadRayAuto* a, uint32_t paths)
{
    uint32_t length;
    const uint32_t* path = last_wave(a, paths, &length);
    return a->count == 0 || measured(a, path, length);
}

void rs_deadray_auto_next_wave(RsDeadRayAuto* a, uint32_t paths)
{
    a->waves++;
    if (a->path_length > 0) { /* (a wave whose paths all died at generate visited nothing) */
        memcpy(a->last_path[a->path_size], a->path, sizeof a->path);
        a->last_length[a->path_size] = a->path_length;
    }
    a->path_length = 0;
    a->path_size = rs_deadray_auto_size_key(paths);
    const uint32_t* last = a->last_path[a->path_size];
    uint32_t length = a->last_length[a->path_size];
    a->revisit = 0;
    if (a->count == 0)
        return;
    /* explore while a major bucket lacks a measurement */
    if (!measured(a, last, length)) {
        /* the next candidate in turn that one of those buckets lacks (any, for a first wave) */
        a->exploring = 1;
        a->turn = (int)(a->waves % a->count);
        for (uint32_t step = 0; length > 0 && step < a->count; ++step) {
            int c = (int)((a->waves + step) % a->count), lacking = 0;
            for (uint32_t k = 0; k < length; ++k)
                lacking |= major(last[k]) && a->bucket[last[k]].arm[c].samples < RS_AUTO_SAMPLES;
            if (lacking) {
                a->turn = c;
                break;
            }
        }
        a->family = in_family(a, a->turn, 1);
        return;
    }
    a->exploring = 0;
    double total[2] = {0.0, 0.0};
    for (uint32_t k = 0; k < length; ++k) {
        uint32_t bucket = last[k];
        double cost[2];
        for (int f = 0; f < 2; ++f)
            cost[f] = family_cost(a, bucket, f);
        for (int f = 0; f < 2; ++f) /* neither family measured anywhere near: the same for both */
            total[f] += a->bucket[bucket].rays * (cost[f] >= 0.0 ? cost[f] : cost[!f] >= 0.0 ? cost[!f] : 0.0);
    }
    int plan = !has_family(a, 0) || (has_family(a, 1) && total[1] < total[0]);
    a->revisit = a->waves % RS_AUTO_REVISIT == 0 && has_family(a, !plan);
    a->family = a->revisit ? !plan : plan;
}

RsDeadRay rs_deadray_auto_choose(RsDeadRayAuto* a, uint32_t bucket)
{
    a->measure = 1;
    if (a->count == 0)
        return RS_DEADRAY_STENCIL;
    uint32_t slot = slot_of(bucket);
    if (a->path_length < RS_AUTO_PATH)
        a->path[a->path_length++] = slot;
    RsAutoBucket* b = &a->bucket[slot];
    uint32_t visit = ++b->visits;
    if (a->exploring && b->arm[a->turn].samples < RS_AUTO_SAMPLES)
        return a->candidate[a->turn];
    int explore = -1;
    for (int i = 0; i < (int)a->count; ++i) {
        const RsAutoArm* arm = &b->arm[i];
        if (in_family(a, i, a->family) && arm->samples < RS_AUTO_SAMPLES &&
            (explore < 0 || arm->samples < b->arm[explore].samples ||
             (arm->samples == b->arm[explore].samples && arm->last_visit < b->arm[explore].last_visit)))
            explore = i;
    }
    if (explore >= 0)
        return a->candidate[explore];
    int best, second;
    ranked(a, b, a->family, &best, &second);
    if (second >= 0 && visit % RS_AUTO_REVISIT == 0 && !a->revisit) /* (a revisit wave measures its best) */
        return a->candidate[second];
    a->measure = a->exploring || a->revisit || visit % RS_AUTO_SAMPLE_EVERY == 0;
    if (!(b->current >= 0 && in_family(a, b->current, a->family) &&
          b->arm[b->current].cost <= b->arm[best].cost * RS_AUTO_STAY))
        b->current = best;
    return a->candidate[b->current];
}

void rs_deadray_auto_record(RsDeadRayAuto* a, uint32_t bucket, RsDeadRay d, double seconds, uint32_t live,
                            uint32_t paths)
{
    int i = arm_of(a, d);
    if (i < 0 || !(seconds >= 0.0))
        return;
    RsAutoBucket* b = &a->bucket[slot_of(bucket)];
    RsAutoArm* arm = &b->arm[i];
    arm->last_visit = b->visits;
    if (!(a->warmed & (1u << i))) {
        a->warmed |= 1u << i;
        return;
    }
    uint32_t floor = paths / 256u;
    uint32_t rays = live > floor ? live : floor;
    b->rays = rays;
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
    const RsAutoBucket* b = &a->bucket[slot_of(bucket)];
    int best[2], second;
    for (int f = 0; f < 2; ++f)
        ranked(a, b, f, &best[f], &second);
    int pick = best[1] < 0 || (best[0] >= 0 && b->arm[best[0]].cost <= b->arm[best[1]].cost) ? best[0] : best[1];
    return pick < 0 ? RS_DEADRAY_AUTO : a->candidate[pick];
}
