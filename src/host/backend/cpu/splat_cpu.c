/* splat_cpu.c - the splat film's resolve on the thread pool (see splat_cpu.h). Host C11.
 *
 * Every step splits its items into contiguous worker shares (rs_pool_share). The sort is
 * stable and its keys are unique, so its output is the same permutation for any number of
 * workers; the run step gives each run to the worker whose share holds the run's first record,
 * so one worker writes each pixel, and the arithmetic is rs_splat_resolve_run's.
 */
#include "host/backend/cpu/splat_cpu.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "host/util/array.h"

#define RS_SPLAT_DIGIT_BITS 8
#define RS_SPLAT_DIGITS (1u << RS_SPLAT_DIGIT_BITS)
/* Below twice this many records per worker, a step runs on the calling thread alone: sorting
 * or summing a record costs nanoseconds, waking the workers tens of microseconds. */
#define RS_SPLAT_MIN_PER_WORKER 8192u

void rs_splat_cpu_scratch_free(RsSplatCpuScratch* s)
{
    for (int i = 0; i < 2; ++i) {
        free(s->keys[i]);
        free(s->index[i]);
    }
    free(s->histograms);
    free(s->faults);
    memset(s, 0, sizeof *s);
}

static int scratch_reserve(RsSplatCpuScratch* s, uint32_t capacity, uint32_t workers, RsError* err)
{
    if (capacity <= s->capacity && workers <= s->workers)
        return 0;
    capacity = capacity > s->capacity ? capacity : s->capacity;
    workers = workers > s->workers ? workers : s->workers;
    rs_splat_cpu_scratch_free(s);
    int ok = 1;
    for (int i = 0; i < 2; ++i) {
        ok = ok && (s->keys[i] = rs_alloc_aligned(capacity ? capacity : 1, sizeof(uint64_t), 64)) != NULL;
        ok = ok && (s->index[i] = rs_alloc_aligned(capacity ? capacity : 1, sizeof(uint32_t), 64)) != NULL;
    }
    ok = ok && (s->histograms = rs_alloc_aligned((size_t)workers * RS_SPLAT_DIGITS, sizeof(uint32_t), 64)) != NULL;
    ok = ok && (s->faults = rs_alloc_aligned((size_t)workers * 2, sizeof(uint32_t), 64)) != NULL;
    if (!ok) {
        rs_splat_cpu_scratch_free(s);
        return rs_error_set(err, "out of memory: splat resolve buffers for %u splats (%.1f MiB)", capacity,
                            (double)capacity * 24.0 / 1048576.0);
    }
    s->capacity = capacity;
    s->workers = workers;
    return 0;
}

/* ---- the steps, each one fork-join over the records ---- */

typedef struct SplatResolve {
    const RsSplat* entries;
    RsFloat4* plane;
    uint32_t n, pixels;
    RsSplatCpuScratch* s;
    /* the current sort pass: from buffer `from` to 1 - from, digit at `shift` */
    int from, shift;
} SplatResolve;

static uint32_t run_steps(RsThreadPool* pool, RsPoolTask task, void* ctx, uint32_t n)
{
    if (!pool) {
        task(ctx, 0, 1);
        return 1;
    }
    return rs_pool_run_items(pool, task, ctx, n, RS_SPLAT_MIN_PER_WORKER);
}

/* Sort keys (bad pixels to the sentinel) and slots; counts the bad records. */
static void extract_keys(void* ctx, uint32_t worker, uint32_t workers)
{
    SplatResolve* r = ctx;
    uint64_t begin, end;
    rs_pool_share(r->n, worker, workers, &begin, &end);
    uint32_t bad = 0;
    for (uint64_t i = begin; i < end; ++i) {
        uint64_t key = r->entries[i].key;
        bad += rs_splat_key_pixel(key) >= r->pixels;
        r->s->keys[0][i] = rs_splat_sort_key(key, r->pixels);
        r->s->index[0][i] = (uint32_t)i;
    }
    r->s->faults[2 * worker] = bad;
}

static void count_digits(void* ctx, uint32_t worker, uint32_t workers)
{
    SplatResolve* r = ctx;
    uint32_t* h = r->s->histograms + (size_t)worker * RS_SPLAT_DIGITS;
    memset(h, 0, RS_SPLAT_DIGITS * sizeof *h);
    const uint64_t* keys = r->s->keys[r->from];
    uint64_t begin, end;
    rs_pool_share(r->n, worker, workers, &begin, &end);
    for (uint64_t i = begin; i < end; ++i)
        h[(keys[i] >> r->shift) & (RS_SPLAT_DIGITS - 1)]++;
}

/* Each worker moves its share, in order, to the offsets that offsets_from_counts gave it. */
static void scatter_digits(void* ctx, uint32_t worker, uint32_t workers)
{
    SplatResolve* r = ctx;
    uint32_t* offset = r->s->histograms + (size_t)worker * RS_SPLAT_DIGITS;
    const uint64_t* keys = r->s->keys[r->from];
    const uint32_t* index = r->s->index[r->from];
    uint64_t* keys_out = r->s->keys[1 - r->from];
    uint32_t* index_out = r->s->index[1 - r->from];
    uint64_t begin, end;
    rs_pool_share(r->n, worker, workers, &begin, &end);
    for (uint64_t i = begin; i < end; ++i) {
        uint32_t at = offset[(keys[i] >> r->shift) & (RS_SPLAT_DIGITS - 1)]++;
        keys_out[at] = keys[i];
        index_out[at] = index[i];
    }
}

/* Turns the per-worker digit counts into the first output position of each (digit, worker),
 * digit-major then worker: the stable order. Returns 0 when one digit holds every record (the
 * pass would move nothing). */
static int offsets_from_counts(uint32_t* histograms, uint32_t workers, uint32_t n)
{
    uint32_t sum = 0;
    for (uint32_t d = 0; d < RS_SPLAT_DIGITS; ++d) {
        uint32_t digit_total = 0;
        for (uint32_t w = 0; w < workers; ++w) {
            uint32_t c = histograms[(size_t)w * RS_SPLAT_DIGITS + d];
            histograms[(size_t)w * RS_SPLAT_DIGITS + d] = sum;
            sum += c;
            digit_total += c;
        }
        if (digit_total == n)
            return 0;
    }
    return 1;
}

/* Runs that start in this worker's share, summed in key order; repeated keys counted. */
static void resolve_runs(void* ctx, uint32_t worker, uint32_t workers)
{
    SplatResolve* r = ctx;
    const uint64_t* keys = r->s->keys[r->from];
    const uint32_t* index = r->s->index[r->from];
    uint64_t begin, end;
    rs_pool_share(r->n, worker, workers, &begin, &end);
    uint32_t duplicates = 0;
    for (uint64_t i = begin ? begin : 1; i < end; ++i)
        duplicates += keys[i] == keys[i - 1] && rs_splat_key_pixel(keys[i]) < r->pixels;
    r->s->faults[2 * worker + 1] = duplicates;
    uint32_t i = (uint32_t)begin;
    while (i < end && !rs_splat_run_starts(keys, i))
        ++i;
    /* bad records carry the sentinel pixel and sort last: the first of them ends the work */
    while (i < end && rs_splat_key_pixel(keys[i]) < r->pixels)
        i = rs_splat_resolve_run(keys, index, r->entries, i, r->n, r->plane);
}

int rs_splat_resolve_cpu(RsThreadPool* pool, RsSplatQueue queue, RsFloat4* plane, uint32_t pixels,
                         RsSplatCpuScratch* scratch, RsSplatResolveStats* stats, RsError* err)
{
    RsSplatResolveStats local;
    if (!stats)
        stats = &local;
    memset(stats, 0, sizeof *stats);
    stats->count = *queue.count;
    *queue.count = 0;
    if (stats->count == 0 || stats->count > queue.capacity)
        return rs_splat_check(stats, queue.capacity, pixels, err);

    SplatResolve r = {queue.entries, plane, (uint32_t)stats->count, pixels, scratch, 0, 0};
    if (scratch_reserve(scratch, r.n, pool ? rs_pool_size(pool) : 1, err))
        return -1;
    uint32_t workers = run_steps(pool, extract_keys, &r, r.n);
    for (uint32_t w = 0; w < workers; ++w)
        stats->bad_pixels += scratch->faults[2 * w];

    int bits = rs_splat_sort_bits(pixels);
    for (r.shift = 0; r.shift < bits; r.shift += RS_SPLAT_DIGIT_BITS) {
        workers = run_steps(pool, count_digits, &r, r.n);
        if (!offsets_from_counts(scratch->histograms, workers, r.n))
            continue;
        run_steps(pool, scatter_digits, &r, r.n); /* the same n: the same workers and shares */
        r.from = 1 - r.from;
    }

    workers = run_steps(pool, resolve_runs, &r, r.n);
    for (uint32_t w = 0; w < workers; ++w)
        stats->duplicates += scratch->faults[2 * w + 1];
    return rs_splat_check(stats, queue.capacity, pixels, err);
}

int rs_splat_check(const RsSplatResolveStats* stats, uint32_t capacity, uint32_t pixels, RsError* err)
{
    if (stats->count > capacity)
        return rs_error_set(err, "splat queue overflow: %" PRIu64 " splats for a capacity of %u", stats->count,
                            capacity);
    if (stats->bad_pixels)
        return rs_error_set(err, "splat queue: %u of %" PRIu64 " splats name a pixel outside the %u-pixel plane",
                            stats->bad_pixels, stats->count, pixels);
    if (stats->duplicates)
        return rs_error_set(err,
                            "splat queue: %u of %" PRIu64 " splats repeat the (pixel, order) key of another; "
                            "order keys must be unique within a resolve",
                            stats->duplicates, stats->count);
    return 0;
}
