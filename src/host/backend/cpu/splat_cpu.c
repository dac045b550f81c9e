/* splat_cpu.c - the splat film's resolve on the thread pool (see splat_cpu.h). Host C11.
 *
 * Every step splits its items into contiguous worker shares (rs_pool_share). The sort
 * (radix_sort_cpu.c) is stable and its keys are unique, so its output is the same permutation for any number of
 * workers; the run step gives each run to the worker whose share holds the run's first record,
 * so one worker writes each pixel, and the arithmetic is rs_splat_resolve_run's.
 */
#include "host/backend/cpu/splat_cpu.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "host/util/array.h"

void rs_splat_cpu_scratch_free(RsSplatCpuScratch* s)
{
    rs_radix_sort_cpu_free(&s->sort);
    free(s->faults);
    memset(s, 0, sizeof *s);
}

static int scratch_reserve(RsSplatCpuScratch* s, uint32_t capacity, uint32_t workers, RsError* err)
{
    if (rs_radix_sort_cpu_reserve(&s->sort, capacity, workers, "splat resolve", 24.0, err))
        return -1;
    if (workers <= s->fault_workers)
        return 0;
    free(s->faults);
    s->fault_workers = 0;
    if (!(s->faults = rs_alloc_aligned((size_t)workers * 2, sizeof(uint32_t), 64)))
        return rs_error_set(err, "out of memory: splat resolve buffers for %u workers", workers);
    s->fault_workers = workers;
    return 0;
}

/* ---- the steps, each one fork-join over the records ---- */

typedef struct SplatResolve {
    const RsSplat* entries;
    RsFloat4* plane;
    uint32_t n, pixels;
    RsSplatCpuScratch* s;
    int from; /* the sort's buffer that holds the sorted pairs */
} SplatResolve;

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
        r->s->sort.keys[0][i] = rs_splat_sort_key(key, r->pixels);
        r->s->sort.index[0][i] = (uint32_t)i;
    }
    r->s->faults[2 * worker] = bad;
}

/* Runs that start in this worker's share, summed in key order; repeated keys counted. */
static void resolve_runs(void* ctx, uint32_t worker, uint32_t workers)
{
    SplatResolve* r = ctx;
    const uint64_t* keys = r->s->sort.keys[r->from];
    const uint32_t* index = r->s->sort.index[r->from];
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

    SplatResolve r = {queue.entries, plane, (uint32_t)stats->count, pixels, scratch, 0};
    if (scratch_reserve(scratch, r.n, pool ? rs_pool_size(pool) : 1, err))
        return -1;
    uint32_t workers = rs_radix_run_steps(pool, extract_keys, &r, r.n);
    for (uint32_t w = 0; w < workers; ++w)
        stats->bad_pixels += scratch->faults[2 * w];

    r.from = rs_radix_sort_cpu(pool, &scratch->sort, r.n, rs_splat_sort_bits(pixels));
    workers = rs_radix_run_steps(pool, resolve_runs, &r, r.n);
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
