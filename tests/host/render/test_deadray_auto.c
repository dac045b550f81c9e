/* test_deadray_auto.c - `--deadray auto`'s chooser (host/render/deadray_auto.c) fed made-up
 * timings (host suite, no rendering): buckets of depth and live fraction; every candidate explored in
 * every bucket, the first measurement of each thrown away, exploring waves one candidate throughout;
 * then the cheapest of each bucket used, the other family re-measured every RS_AUTO_REVISIT
 * waves; a wave's family planned over its bounces (compaction throughout where the stencil is
 * cheapest only at the first bounce), one family inside a wave; a change of costs followed; the
 * same measurements give the same choices; whether the next wave exploits (the bounce loop's
 * small exploring waves); flags, compact-block and auto never chosen, CUB only where the backend
 * has it. Host C11.
 */
#include <string.h>

#include "host/render/deadray_auto.h"
#include "tests/test.h"

#define PATHS 100000u

/* seconds per live ray of each strategy in each bucket: a made-up device */
static double cost_of(RsDeadRay d, uint32_t bucket, int changed)
{
    bucket = bucket < RS_AUTO_FRACTIONS ? bucket : 3 + bucket % RS_AUTO_FRACTIONS; /* deeper: sparse-like */
    double base = 1e-8;
    switch (d) {
    case RS_DEADRAY_STENCIL: return base * (bucket < 3 ? 1.0 : 2.0 + bucket);
    case RS_DEADRAY_COMPACT_SCAN: return base * 1.6;
    case RS_DEADRAY_COMPACT_WARP: return base * (changed ? 0.5 : bucket < 3 ? 1.4 : 1.1);
    case RS_DEADRAY_COMPACT_CUB: return base * (bucket < 3 ? 1.5 : 1.05);
    default: return 1.0; /* never chosen */
    }
}

static uint32_t live_of(uint32_t bucket, uint32_t visit)
{
    /* inside the bucket: (paths >> bucket) down to a bit over half of it */
    uint32_t top = PATHS >> (bucket % RS_AUTO_FRACTIONS);
    return top - (top / 2 - 1) * (visit % 3) / 2;
}

/* visits the chooser asked to time (a->measure), of all visits run() made */
static uint32_t measured_visits, all_visits;

/* n visits of one bucket, timed when the chooser asks (as wavefront.c does); choices[] gets
 * what was chosen */
static void run(RsDeadRayAuto* a, uint32_t bucket, uint32_t n, int changed, RsDeadRay* choices)
{
    for (uint32_t v = 0; v < n; ++v) {
        rs_deadray_auto_next_wave(a, PATHS); /* a visit per wave, as wavefront.c makes it */
        RsDeadRay d = rs_deadray_auto_choose(a, bucket);
        uint32_t live = live_of(bucket, v);
        CHECK(rs_deadray_auto_bucket(bucket / RS_AUTO_FRACTIONS + 1, live, PATHS) == bucket,
              "live %u is not in bucket %u", live, bucket);
        all_visits++;
        if (a->measure) {
            measured_visits++;
            rs_deadray_auto_record(a, bucket, d, cost_of(d, bucket, changed) * live, live, PATHS);
        }
        if (choices)
            choices[v] = d;
    }
}

static void test_buckets(void)
{
    CHECK(rs_deadray_auto_fraction(PATHS, PATHS) == 0, "all alive: step 0");
    CHECK(rs_deadray_auto_fraction(PATHS / 2 + 1, PATHS) == 0, "just over half: step 0");
    CHECK(rs_deadray_auto_fraction(PATHS / 2, PATHS) == 1, "half: step 1");
    CHECK(rs_deadray_auto_fraction(PATHS / 128 + 1, PATHS) == 6, "just over 1/128: step 6");
    CHECK(rs_deadray_auto_fraction(1, PATHS) == RS_AUTO_FRACTIONS - 1, "one ray: the last step");
    CHECK(rs_deadray_auto_fraction(0, 7) == RS_AUTO_FRACTIONS - 1 && rs_deadray_auto_fraction(7, 7) == 0,
          "tiny waves");
    for (uint32_t live = 1; live < PATHS; live += 997)
        CHECK(rs_deadray_auto_fraction(live, PATHS) >= rs_deadray_auto_fraction(live + 997, PATHS),
              "steps must not rise with the live count (%u)", live);
    /* depth keeps camera rays apart from the bounces after them, whatever the fraction */
    CHECK(rs_deadray_auto_bucket(1, PATHS, PATHS) != rs_deadray_auto_bucket(2, PATHS, PATHS), "depths 1 and 2 share");
    CHECK(rs_deadray_auto_bucket(2, PATHS / 4, PATHS) == RS_AUTO_FRACTIONS + 2, "depth 2, a quarter alive");
    CHECK(rs_deadray_auto_bucket(RS_AUTO_DEPTHS + 40, 1, PATHS) == RS_AUTO_DEPTHS * RS_AUTO_FRACTIONS - 1,
          "deep, few: the last bucket of small waves");
    CHECK(rs_deadray_auto_bucket(RS_AUTO_DEPTHS + 40, 1, 1u << 23) == RS_AUTO_BUCKETS - 1 - RS_AUTO_FRACTIONS,
          "deep, few, in a big wave: the last bucket of the depths");
    CHECK(rs_deadray_auto_bucket(RS_AUTO_EMISSION_SEGMENT, 1, 1u << 23) == RS_AUTO_BUCKETS - 1,
          "the emission-only segment, few, in a big wave: the last bucket");
    /* the segment after the last vertex never shares a full bounce's bucket, whatever its depth */
    for (uint32_t depth = 1; depth <= RS_AUTO_DEPTHS + 2; ++depth)
        for (uint32_t live = PATHS; live > 0; live /= 3)
            CHECK(rs_deadray_auto_bucket(depth, live, PATHS) !=
                      rs_deadray_auto_bucket(RS_AUTO_EMISSION_SEGMENT, live, PATHS),
                  "depth %u and the emission-only segment share a bucket (%u alive)", depth, live);
    /* wave sizes apart: the viewer's first small slices do not decide for its later large ones */
    CHECK(rs_deadray_auto_bucket(3, 1000, 100000) != rs_deadray_auto_bucket(3, 40000, 4000000),
          "a small and a large wave share a bucket");
    CHECK(rs_deadray_auto_bucket(3, 3000000, 4000000) == rs_deadray_auto_bucket(3, 3100000, 4100000),
          "waves of 4.0 and 4.1 million paths, three quarters alive, in different buckets");
    for (uint32_t paths = 1; paths < (1u << 30); paths = paths * 3 + 1)
        CHECK(rs_deadray_auto_bucket(RS_AUTO_DEPTHS, 1, paths) < RS_AUTO_BUCKETS, "bucket out of range for %u", paths);
    CHECK(rs_deadray_auto_bucket(RS_AUTO_DEPTHS, 1, PATHS) == rs_deadray_auto_bucket(RS_AUTO_DEPTHS + 1, 1, PATHS),
          "depths past RS_AUTO_DEPTHS share");
}

static void test_candidates(void)
{
    RsDeadRayAuto cpu, cuda;
    rs_deadray_auto_init(&cpu, RS_BACKEND_CPU);
    rs_deadray_auto_init(&cuda, RS_BACKEND_CUDA);
    CHECK(cpu.count == 3 && cuda.count == 3, "candidates: %u on the CPU, %u on CUDA", cpu.count, cuda.count);
    for (uint32_t i = 0; i < cuda.count; ++i) {
        RsDeadRay d = cuda.candidate[i];
        CHECK(d != RS_DEADRAY_FLAGS && d != RS_DEADRAY_COMPACT_BLOCK && d != RS_DEADRAY_AUTO, "candidate %s",
              rs_deadray_name(d));
    }
    for (uint32_t i = 0; i < cpu.count; ++i)
        CHECK(rs_deadray_supported(cpu.candidate[i], RS_BACKEND_CPU), "CPU candidate %s",
              rs_deadray_name(cpu.candidate[i]));
    CHECK(rs_deadray_auto_best(&cuda, 0) == RS_DEADRAY_AUTO, "nothing measured: no best");
}

static void test_explore_exploit(void)
{
    RsDeadRayAuto a, b;
    rs_deadray_auto_init(&a, RS_BACKEND_CUDA);
    enum { VISITS = 400 };
    RsDeadRay choices[VISITS], again[VISITS];
    /* bucket 0 first: warm-up (one discarded sample per candidate) and exploration */
    uint32_t explore = a.count * (RS_AUTO_SAMPLES + 1);
    run(&a, 0, VISITS, 0, choices);
    int tried[RS_DEADRAY_COUNT] = {0};
    for (uint32_t v = 0; v < explore; ++v)
        tried[choices[v]]++;
    for (uint32_t i = 0; i < a.count; ++i)
        CHECK(tried[a.candidate[i]] == RS_AUTO_SAMPLES + 1, "bucket 0: %s explored %d times, expected %d",
              rs_deadray_name(a.candidate[i]), tried[a.candidate[i]], RS_AUTO_SAMPLES + 1);
    CHECK(choices[0] != choices[1], "exploration goes round the candidates");
    uint32_t best = 0, revisits = 0;
    for (uint32_t v = explore; v < VISITS; ++v) {
        if ((v + 1) % RS_AUTO_REVISIT == 0) {
            revisits += choices[v] != RS_DEADRAY_STENCIL;
        } else {
            best += choices[v] == RS_DEADRAY_STENCIL;
        }
    }
    uint32_t exploit = VISITS - explore - (VISITS / RS_AUTO_REVISIT - explore / RS_AUTO_REVISIT);
    CHECK(best == exploit, "bucket 0: the cheapest (stencil) ran %u of %u exploiting visits", best, exploit);
    CHECK(revisits >= (VISITS - explore) / RS_AUTO_REVISIT - 1, "bucket 0: only %u re-measurements", revisits);
    CHECK(rs_deadray_auto_best(&a, 0) == RS_DEADRAY_STENCIL, "bucket 0 best: %s",
          rs_deadray_name(rs_deadray_auto_best(&a, 0)));
    /* exploring and re-measuring bounces are timed, and one exploiting bounce in
     * RS_AUTO_SAMPLE_EVERY: the rest cost no timing */
    uint32_t expect = explore + (VISITS - explore) / RS_AUTO_SAMPLE_EVERY + (VISITS - explore) / RS_AUTO_REVISIT;
    CHECK(measured_visits <= expect + 2 && measured_visits + 2 >= expect - (VISITS - explore) / RS_AUTO_REVISIT,
          "bucket 0: %u of %u visits timed, expected about %u", measured_visits, all_visits, expect);

    /* depth 5, 1/16 to 1/8 alive: no warm-up any more, the cheapest there is CUB */
    const uint32_t bucket5 = 4 * RS_AUTO_FRACTIONS + 3;
    RsDeadRay deep[VISITS];
    run(&a, bucket5, VISITS, 0, deep);
    uint32_t explore5 = a.count * RS_AUTO_SAMPLES;
    memset(tried, 0, sizeof tried);
    for (uint32_t v = 0; v < explore5; ++v)
        tried[deep[v]]++;
    for (uint32_t i = 0; i < a.count; ++i)
        CHECK(tried[a.candidate[i]] == RS_AUTO_SAMPLES, "deep bucket: %s explored %d times",
              rs_deadray_name(a.candidate[i]), tried[a.candidate[i]]);
    uint32_t cub = 0;
    for (uint32_t v = explore5; v < VISITS; ++v)
        cub += deep[v] == RS_DEADRAY_COMPACT_CUB;
    CHECK(cub >= (VISITS - explore5) * 15 / 16, "deep bucket: CUB (cheapest) ran %u of %u visits", cub,
          VISITS - explore5);
    CHECK(rs_deadray_auto_best(&a, 0) == RS_DEADRAY_STENCIL, "the deep bucket's visits changed bucket 0");

    /* the device changes: compact-warp becomes the cheapest in bucket 0, and is followed */
    RsDeadRay later[VISITS * 2];
    run(&a, 0, VISITS * 2, 1, later);
    uint32_t tail = 0;
    for (uint32_t v = VISITS; v < VISITS * 2; ++v)
        tail += later[v] == RS_DEADRAY_COMPACT_WARP;
    CHECK(tail >= VISITS * 15 / 16, "after the change, compact-warp ran %u of the last %u visits", tail, VISITS);

    /* determinism: a second chooser fed the same gives the same choices */
    rs_deadray_auto_init(&b, RS_BACKEND_CUDA);
    run(&b, 0, VISITS, 0, again);
    CHECK(memcmp(choices, again, sizeof choices) == 0, "the same measurements gave different choices");
    for (uint32_t v = 0; v < VISITS; ++v)
        CHECK(again[v] != RS_DEADRAY_FLAGS && again[v] != RS_DEADRAY_COMPACT_BLOCK && again[v] != RS_DEADRAY_AUTO,
              "chose %s", rs_deadray_name(again[v]));
}

/* While buckets explore, a wave runs one candidate at every depth (no family changes inside an
 * exploring wave), and the waves go round the candidates. */
static void test_lockstep(void)
{
    RsDeadRayAuto a;
    rs_deadray_auto_init(&a, RS_BACKEND_CUDA);
    int seen[RS_DEADRAY_COUNT] = {0};
    for (uint32_t w = 0; w < a.count; ++w) {
        rs_deadray_auto_next_wave(&a, PATHS);
        RsDeadRay first = rs_deadray_auto_choose(&a, 0);
        seen[first]++;
        for (uint32_t bucket = 1; bucket < 40; bucket += 7)
            CHECK(rs_deadray_auto_choose(&a, bucket) == first, "wave %u: bucket %u left the wave's candidate %s", w,
                  bucket, rs_deadray_name(first));
    }
    for (uint32_t i = 0; i < a.count; ++i)
        CHECK(seen[a.candidate[i]] == 1, "the first waves did not go round the candidates (%s: %d)",
              rs_deadray_name(a.candidate[i]), seen[a.candidate[i]]);
}

/* Two bounces a wave. At the first (all rays alive) the stencil is cheapest, at the second a
 * compaction by far: over the wave compaction costs less, so once explored every wave runs it at
 * both bounces (a choice bounce by bounce kept the stencil at the first); the revisit waves run
 * the stencil at both. A wave never mixes families. */
static void test_family_plan(void)
{
    RsDeadRayAuto a;
    rs_deadray_auto_init(&a, RS_BACKEND_CUDA);
    const uint32_t first = 0, second = RS_AUTO_FRACTIONS + 1, live = PATHS / 3;
    enum { WAVES = 200 };
    uint32_t planned = 0, revisits = 0, exploring = 0;
    for (uint32_t w = 1; w <= WAVES; ++w) {
        rs_deadray_auto_next_wave(&a, PATHS);
        RsDeadRay d[2];
        for (int k = 0; k < 2; ++k) {
            uint32_t bucket = k ? second : first;
            d[k] = rs_deadray_auto_choose(&a, bucket);
            double per_ray = d[k] == RS_DEADRAY_STENCIL      ? (k ? 1.30e-8 : 1.00e-8)
                             : d[k] == RS_DEADRAY_PERSISTENT   ? (k ? 1.31e-8 : 1.01e-8)
                             : d[k] == RS_DEADRAY_COMPACT_WARP ? (k ? 1.00e-8 : 1.05e-8)
                                                               : (k ? 1.02e-8 : 1.10e-8);
            if (a.measure)
                rs_deadray_auto_record(&a, bucket, d[k], per_ray * live, live, PATHS);
        }
        CHECK(rs_deadray_is_compaction(d[0]) == rs_deadray_is_compaction(d[1]), "wave %u mixed %s and %s", w,
              rs_deadray_name(d[0]), rs_deadray_name(d[1]));
        if (a.exploring)
            exploring++;
        else if (w % RS_AUTO_REVISIT == 0)
            revisits += d[0] == RS_DEADRAY_STENCIL && d[1] == RS_DEADRAY_STENCIL;
        else
            planned += d[0] == RS_DEADRAY_COMPACT_WARP && d[1] == RS_DEADRAY_COMPACT_WARP;
    }
    CHECK(exploring <= 2 * a.count + 1, "%u exploring waves", exploring);
    CHECK(planned + WAVES / RS_AUTO_REVISIT + exploring == WAVES,
          "compact-warp at both bounces in %u of %u planned waves", planned,
          WAVES - WAVES / RS_AUTO_REVISIT - exploring);
    CHECK(revisits == WAVES / RS_AUTO_REVISIT, "%u of %u revisit waves ran the stencil", revisits,
          WAVES / RS_AUTO_REVISIT);
}

/* Inside the wave's family, a bucket keeps its current choice within RS_AUTO_STAY of the
 * cheapest, and takes a clear winner. */
static void test_stay(void)
{
    RsDeadRayAuto a;
    rs_deadray_auto_init(&a, RS_BACKEND_CUDA);
    const uint32_t bucket = 9, live = PATHS / 2 - 7;
    RsDeadRay d = RS_DEADRAY_AUTO;
    for (int v = 0; v < 40; ++v) {
        /* compact-warp re-measured (as a revisit would): 1% cheaper than CUB, not worth leaving
         * it; then 20% cheaper (moving half way: 10%), taken */
        if (v == 20 || v == 30)
            rs_deadray_auto_record(&a, bucket, RS_DEADRAY_COMPACT_WARP, (v == 20 ? 0.99e-8 : 0.80e-8) * live, live,
                                   PATHS);
        rs_deadray_auto_next_wave(&a, PATHS);
        d = rs_deadray_auto_choose(&a, bucket);
        double per_ray = !rs_deadray_is_compaction(d) ? 2e-8 : d == RS_DEADRAY_COMPACT_WARP ? 1.00e-8 : 1.00e-8 - 1e-11;
        if (v < 20)
            rs_deadray_auto_record(&a, bucket, d, per_ray * live, live, PATHS);
        if (v == 19)
            CHECK(d == RS_DEADRAY_COMPACT_CUB, "CUB is the cheapest (0.1%%), not %s", rs_deadray_name(d));
        if (v == 29)
            CHECK(d == RS_DEADRAY_COMPACT_CUB, "the bucket left CUB for 1%% (%s)", rs_deadray_name(d));
    }
    CHECK(d == RS_DEADRAY_COMPACT_WARP, "a clear win was not taken (%s)", rs_deadray_name(d));
}

/* A deep, minor bucket (few rays alive) changes step after the exploring waves, as live counts
 * wander: the new bucket is measured by the planned family (compaction) only. The stencil there
 * costs five times a compaction; estimated from the bucket's neighbour step it still does, so no
 * planned wave runs the stencil family for the unmeasured bucket (counting it the same for both
 * families did, one wave each time a bucket appeared). */
static void test_new_minor_bucket(void)
{
    RsDeadRayAuto a;
    rs_deadray_auto_init(&a, RS_BACKEND_CUDA);
    enum { WAVES = 200 };
    uint32_t stencil_waves = 0;
    for (uint32_t w = 1; w <= WAVES; ++w) {
        rs_deadray_auto_next_wave(&a, PATHS);
        int planned = !a.exploring && !a.revisit;
        uint32_t live[2] = {PATHS, w < 100 ? PATHS / 20 : PATHS / 40}; /* deep: 1/32..1/16, then 1/64..1/32 */
        int compaction = -1;
        for (int k = 0; k < 2; ++k) {
            uint32_t bucket = rs_deadray_auto_bucket(k ? 6 : 1, live[k], PATHS);
            CHECK(k == 0 || bucket % RS_AUTO_FRACTIONS >= 4, "the deep bucket is not minor");
            RsDeadRay d = rs_deadray_auto_choose(&a, bucket);
            compaction = rs_deadray_is_compaction(d);
            double per_ray = !compaction ? (k ? (w < 100 ? 5.0e-8 : 10.0e-8) : 1.00e-8) : (k ? 1.0e-8 : 1.05e-8);
            if (a.measure)
                rs_deadray_auto_record(&a, bucket, d, per_ray * live[k], live[k], PATHS);
        }
        stencil_waves += planned && !compaction;
    }
    CHECK(stencil_waves == 0, "%u planned waves ran the stencil family", stencil_waves);
}

/* rs_deadray_auto_settled says, between waves, whether the next wave exploits (wavefront.c
 * keeps waves at RS_AUTO_EXPLORE_WAVE paths until it does): not before any wave, not while a
 * major bucket lacks a candidate, and then for good while the buckets stay the same. */
static void test_settled(void)
{
    RsDeadRayAuto a;
    rs_deadray_auto_init(&a, RS_BACKEND_CUDA);
    CHECK(!rs_deadray_auto_settled(&a, PATHS), "a chooser that has measured nothing is settled");
    uint32_t exploring = 0;
    for (uint32_t w = 0; w < 40; ++w) {
        int settled = rs_deadray_auto_settled(&a, PATHS);
        run(&a, 0, 1, 0, NULL); /* one wave of one bounce */
        CHECK(settled == !a.exploring, "wave %u: settled %d, but the wave %s", w, settled,
              a.exploring ? "explored" : "exploited");
        exploring += a.exploring;
    }
    CHECK(exploring == a.count * (RS_AUTO_SAMPLES + 1), "%u exploring waves, expected %u", exploring,
          a.count * (RS_AUTO_SAMPLES + 1));
    CHECK(rs_deadray_auto_settled(&a, PATHS), "not settled after %u waves of one bucket", 40u);
    /* a new major bucket unsettles it until every candidate has run there */
    const uint32_t bucket2 = RS_AUTO_FRACTIONS + 1;
    run(&a, bucket2, 1, 0, NULL);
    CHECK(!rs_deadray_auto_settled(&a, PATHS), "settled with a major bucket that one candidate measured");
    run(&a, bucket2, a.count, 0, NULL);
    CHECK(rs_deadray_auto_settled(&a, PATHS), "not settled after every candidate ran the new bucket");
    CHECK(RS_AUTO_EXPLORE_WAVE >= (1u << 22) &&
              rs_deadray_auto_bucket(1, RS_AUTO_EXPLORE_WAVE, RS_AUTO_EXPLORE_WAVE) ==
                  rs_deadray_auto_bucket(1, 1u << 25, 1u << 25),
          "exploring waves are not in the size key of the GPU's full waves");
}

/* The viewer's case: each frame's slice of 8.3 M paths was cut into a wave of 2^22 paths and
 * one of the rest, which fall in two size keys. Judged by the wave just before, each found the
 * other key's buckets lacking and the chooser explored for ever; judged by the last wave of its
 * own key, both keys settle after a few waves each. */
static void test_alternating_sizes(void)
{
    RsDeadRayAuto a;
    rs_deadray_auto_init(&a, RS_BACKEND_CUDA);
    const uint32_t sizes[2] = {1u << 22, 4100096u};
    uint32_t exploring_late = 0;
    for (uint32_t w = 0; w < 60; ++w) {
        uint32_t paths = sizes[w % 2];
        int settled = rs_deadray_auto_settled(&a, paths);
        rs_deadray_auto_next_wave(&a, paths);
        CHECK(settled == !a.exploring, "wave %u of %u paths: settled %d, but the wave %s", w, paths, settled,
              a.exploring ? "explored" : "exploited");
        if (w >= 20)
            exploring_late += a.exploring;
        for (uint32_t depth = 1; depth <= 3; ++depth) { /* three bounces, a third of the rays dying at each */
            uint32_t live = paths - paths / 3 * (depth - 1);
            uint32_t bucket = rs_deadray_auto_bucket(depth, live, paths);
            RsDeadRay d = rs_deadray_auto_choose(&a, bucket);
            if (a.measure)
                rs_deadray_auto_record(&a, bucket, d, cost_of(d, depth, 0) * live, live, paths);
        }
    }
    CHECK(exploring_late == 0, "%u of the waves after the 20th explored", exploring_late);
    CHECK(rs_deadray_auto_settled(&a, sizes[0]) && rs_deadray_auto_settled(&a, sizes[1]),
          "the two wave sizes did not both settle");
}

static void test_cpu_has_no_cub(void)
{
    RsDeadRayAuto a;
    rs_deadray_auto_init(&a, RS_BACKEND_CPU);
    RsDeadRay choices[200];
    run(&a, 4, 200, 0, choices);
    for (int v = 0; v < 200; ++v)
        CHECK(choices[v] != RS_DEADRAY_COMPACT_CUB, "the CPU chooser picked CUB");
    CHECK(rs_deadray_auto_best(&a, 4) == RS_DEADRAY_COMPACT_WARP, "CPU bucket 4 best: %s",
          rs_deadray_name(rs_deadray_auto_best(&a, 4)));
}

int main(void)
{
    test_buckets();
    test_candidates();
    test_explore_exploit();
    test_lockstep();
    test_family_plan();
    test_new_minor_bucket();
    test_stay();
    test_settled();
    test_alternating_sizes();
    test_cpu_has_no_cub();
    return rs_test_finish("test_deadray_auto");
}
