/* radix_sort_cpu.c - the parallel LSD radix sort (see radix_sort_cpu.h). Host C11.
 *
 * Every step splits the items into contiguous worker shares (rs_pool_share); counting and
 * scattering run over the same n, so the same workers get the same shares in both.
 */
#include "host/backend/cpu/radix_sort_cpu.h"

#include <stdlib.h>
#include <string.h>

#include "host/util/array.h"

#define RS_RADIX_DIGIT_BITS 8
#define RS_RADIX_DIGITS (1u << RS_RADIX_DIGIT_BITS)

void rs_radix_sort_cpu_free(RsRadixSortCpu* s)
{
    for (int i = 0; i < 2; ++i) {
        free(s->keys[i]);
        free(s->index[i]);
    }
    free(s->histograms);
    memset(s, 0, sizeof *s);
}

int rs_radix_sort_cpu_reserve(RsRadixSortCpu* s, uint32_t n, uint32_t workers, const char* what,
                              double bytes_per_item, RsError* err)
{
    if (n <= s->capacity && workers <= s->workers && s->histograms)
        return 0;
    n = n > s->capacity ? n : s->capacity;
    workers = workers > s->workers ? workers : s->workers;
    rs_radix_sort_cpu_free(s);
    int ok = 1;
    for (int i = 0; i < 2; ++i) {
        ok = ok && (s->keys[i] = rs_alloc_aligned(n ? n : 1, sizeof(uint64_t), 64)) != NULL;
        ok = ok && (s->index[i] = rs_alloc_aligned(n ? n : 1, sizeof(uint32_t), 64)) != NULL;
    }
    ok = ok && (s->histograms = rs_alloc_aligned((size_t)workers * RS_RADIX_DIGITS, sizeof(uint32_t), 64)) != NULL;
    if (!ok) {
        rs_radix_sort_cpu_free(s);
        return rs_error_set(err, "out of memory: %s buffers for %u records (%.1f MiB)", what, n,
                            (double)n * bytes_per_item / 1048576.0);
    }
    s->capacity = n;
    s->workers = workers;
    return 0;
}

uint32_t rs_radix_run_steps(RsThreadPool* pool, RsPoolTask task, void* ctx, uint32_t n)
{
    if (!pool) {
        task(ctx, 0, 1);
        return 1;
    }
    return rs_pool_run_items(pool, task, ctx, n, RS_RADIX_MIN_PER_WORKER);
}

typedef struct RadixPass {
    RsRadixSortCpu* s;
    uint32_t n;
    int from, shift; /* from buffer `from` to 1 - from, digit at `shift` */
} RadixPass;

static void count_digits(void* ctx, uint32_t worker, uint32_t workers)
{
    RadixPass* r = ctx;
    uint32_t* h = r->s->histograms + (size_t)worker * RS_RADIX_DIGITS;
    memset(h, 0, RS_RADIX_DIGITS * sizeof *h);
    const uint64_t* keys = r->s->keys[r->from];
    uint64_t begin, end;
    rs_pool_share(r->n, worker, workers, &begin, &end);
    for (uint64_t i = begin; i < end; ++i)
        h[(keys[i] >> r->shift) & (RS_RADIX_DIGITS - 1)]++;
}

/* Each worker moves its share, in order, to the offsets that offsets_from_counts gave it. */
static void scatter_digits(void* ctx, uint32_t worker, uint32_t workers)
{
    RadixPass* r = ctx;
    uint32_t* offset = r->s->histograms + (size_t)worker * RS_RADIX_DIGITS;
    const uint64_t* keys = r->s->keys[r->from];
    const uint32_t* index = r->s->index[r->from];
    uint64_t* keys_out = r->s->keys[1 - r->from];
    uint32_t* index_out = r->s->index[1 - r->from];
    uint64_t begin, end;
    rs_pool_share(r->n, worker, workers, &begin, &end);
    for (uint64_t i = begin; i < end; ++i) {
        uint32_t at = offset[(keys[i] >> r->shift) & (RS_RADIX_DIGITS - 1)]++;
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
    for (uint32_t d = 0; d < RS_RADIX_DIGITS; ++d) {
        uint32_t digit_total = 0;
        for (uint32_t w = 0; w < workers; ++w) {
            uint32_t c = histograms[(size_t)w * RS_RADIX_DIGITS + d];
            histograms[(size_t)w * RS_RADIX_DIGITS + d] = sum;
            sum += c;
            digit_total += c;
        }
        if (digit_total == n)
            return 0;
    }
    return 1;
}

int rs_radix_sort_cpu(RsThreadPool* pool, RsRadixSortCpu* s, uint32_t n, int bits)
{
    RadixPass r = {s, n, 0, 0};
    for (r.shift = 0; r.shift < bits; r.shift += RS_RADIX_DIGIT_BITS) {
        uint32_t workers = rs_radix_run_steps(pool, count_digits, &r, n);
        if (!offsets_from_counts(s->histograms, workers, n))
            continue;
        rs_radix_run_steps(pool, scatter_digits, &r, n); /* the same n: the same workers and shares */
        r.from = 1 - r.from;
    }
    return r.from;
}
