/* sppm_cpu.c - stochastic progressive photon mapping's per-chunk and per-pass steps on the thread
 * pool (see sppm_cpu.h). Host C11.
 *
 * Resolve: the largest gather radius (a max per worker, then over workers: the same bits in any
 * order), each photon's sort key (photon_grid.h), the shared LSD radix sort (radix_sort_cpu.c,
 * stable, so one order for any worker count), the bucket ranges from the run starts of the
 * sorted keys, then the gather with one worker per pixel. Every per-item step is photon_grid.h's,
 * which cuda/post/sppm.cu runs too.
 */
#include "host/backend/cpu/sppm_cpu.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "host/backend/cpu/radix_sort_cpu.h"
#include "host/util/array.h"
#include "kernel/particle/photon_grid.h"

/* A pixel's gather visits dozens to thousands of photons: worth a worker from a few pixels on. */
#define RS_SPPM_MIN_PIXELS_PER_WORKER 64u

typedef struct SppmState {
    RsRadixSortCpu sort;
    uint32_t* begin;      /* bucket ranges, 2^table_bits entries each */
    uint32_t* end;
    uint32_t table_bits;  /* what begin and end hold room for; UINT32_MAX: nothing yet */
    float* rmax;          /* per worker */
    uint32_t workers;
} SppmState;

void rs_sppm_cpu_scratch_free(RsSppmCpuScratch* scratch)
{
    SppmState* st = scratch->state;
    if (st) {
        rs_radix_sort_cpu_free(&st->sort);
        free(st->begin);
        free(st->end);
        free(st->rmax);
        free(st);
    }
    scratch->state = NULL;
}

static int state_reserve(RsSppmCpuScratch* scratch, uint32_t n, uint32_t bits, uint32_t workers, RsError* err)
{
    SppmState* st = scratch->state;
    if (!st) {
        if (!(st = calloc(1, sizeof *st)))
            return rs_error_set(err, "out of memory: SPPM resolve state");
        st->table_bits = UINT32_MAX;
        scratch->state = st;
    }
    if (rs_radix_sort_cpu_reserve(&st->sort, n, workers, "photon grid", 24.0, err))
        return -1;
    if (st->table_bits == UINT32_MAX || bits > st->table_bits) {
        free(st->begin);
        free(st->end);
        size_t buckets = (size_t)1 << bits;
        st->begin = rs_alloc_aligned(buckets, sizeof(uint32_t), 64);
        st->end = rs_alloc_aligned(buckets, sizeof(uint32_t), 64);
        if (!st->begin || !st->end) {
            free(st->begin);
            free(st->end);
            st->begin = st->end = NULL;
            st->table_bits = UINT32_MAX;
            return rs_error_set(err, "out of memory: photon grid table of %zu buckets (%.1f MiB)", buckets,
                                (double)buckets * 8.0 / 1048576.0);
        }
        st->table_bits = bits;
    }
    if (workers > st->workers) {
        free(st->rmax);
        st->workers = 0;
        if (!(st->rmax = malloc(workers * sizeof *st->rmax)))
            return rs_error_set(err, "out of memory: SPPM resolve state for %u workers", workers);
        st->workers = workers;
    }
    return 0;
}

/* ---- the steps, each one fork-join over photons or pixels ---- */

typedef struct SppmResolve {
    const RsKernelParams* kp;
    SppmState* st;
    RsPhotonGrid grid;
    uint32_t n, pixels;
    int from; /* the sort's buffer that holds the sorted pairs */
} SppmResolve;

static uint32_t run_pixels(RsThreadPool* pool, RsPoolTask task, void* ctx, uint32_t pixels)
{
    if (!pool) {
        task(ctx, 0, 1);
        return 1;
    }
    return rs_pool_run_items(pool, task, ctx, pixels, RS_SPPM_MIN_PIXELS_PER_WORKER);
}

static void max_radius(void* ctx, uint32_t worker, uint32_t workers)
{
    SppmResolve* r = ctx;
    uint64_t begin, end;
    rs_pool_share(r->pixels, worker, workers, &begin, &end);
    float m = 0.0f;
    for (uint64_t p = begin; p < end; ++p) {
        float radius = rs_sppm_gather_radius(r->kp, (uint32_t)p);
        m = radius > m ? radius : m;
    }
    r->st->rmax[worker] = m;
}

static void photon_keys(void* ctx, uint32_t worker, uint32_t workers)
{
    SppmResolve* r = ctx;
    uint64_t begin, end;
    rs_pool_share(r->n, worker, workers, &begin, &end);
    for (uint64_t i = begin; i < end; ++i) {
        r->st->sort.keys[0][i] = rs_photon_grid_key(&r->grid, (uint32_t)i);
        r->st->sort.index[0][i] = (uint32_t)i;
    }
}

static void bucket_ranges(void* ctx, uint32_t worker, uint32_t workers)
{
    SppmResolve* r = ctx;
    uint64_t begin, end;
    rs_pool_share(r->n, worker, workers, &begin, &end);
    const uint64_t* keys = r->st->sort.keys[r->from];
    for (uint64_t i = begin; i < end; ++i)
        rs_photon_grid_mark_runs(keys, (uint32_t)i, r->n, r->st->begin, r->st->end);
}

static void gather_pixels(void* ctx, uint32_t worker, uint32_t workers)
{
    SppmResolve* r = ctx;
    uint64_t begin, end;
    rs_pool_share(r->pixels, worker, workers, &begin, &end);
    for (uint64_t p = begin; p < end; ++p)
        rs_sppm_gather(r->kp, &r->grid, (uint32_t)p);
}

int rs_sppm_resolve_cpu(RsThreadPool* pool, const RsKernelParams* kp, RsSppmCpuScratch* scratch, RsError* err)
{
    uint64_t count = *kp->photons.count;
    *kp->photons.count = 0;
    if (count > kp->photons.capacity)
        return rs_error_set(err, "photon queue overflow: %" PRIu64 " photons for a capacity of %u", count,
                            kp->photons.capacity);
    if (count == 0)
        return 0;
    SppmResolve r;
    memset(&r, 0, sizeof r);
    r.kp = kp;
    r.n = (uint32_t)count;
    r.pixels = rs_pixel_count(kp);
    uint32_t bits = scratch->table_bits ? scratch->table_bits : rs_photon_grid_bits(r.n);
    if (bits > RS_PHOTON_GRID_MAX_BITS)
        bits = RS_PHOTON_GRID_MAX_BITS;
    if (state_reserve(scratch, r.n, bits, pool ? rs_pool_size(pool) : 1, err))
        return -1;
    r.st = scratch->state;

    uint32_t workers = run_pixels(pool, max_radius, &r, r.pixels);
    float rmax = 0.0f;
    for (uint32_t w = 0; w < workers; ++w)
        rmax = r.st->rmax[w] > rmax ? r.st->rmax[w] : rmax;
    r.grid.photons = kp->photons.entries;
    r.grid.origin = kp->scene.bounds_lo;
    r.grid.bits = bits;
    r.grid.count = r.n;
    rs_photon_grid_set_cell(&r.grid, rmax);
    if (!(r.grid.cell > 0.0f))
        return 0; /* no pixel has a visible point: nothing gathers this chunk's photons */

    rs_radix_run_steps(pool, photon_keys, &r, r.n);
    r.from = rs_radix_sort_cpu(pool, &r.st->sort, r.n, 32 + (int)bits);
    size_t buckets = (size_t)1 << bits;
    memset(r.st->begin, 0, buckets * sizeof *r.st->begin);
    memset(r.st->end, 0, buckets * sizeof *r.st->end);
    rs_radix_run_steps(pool, bucket_ranges, &r, r.n);
    r.grid.sorted = r.st->sort.index[r.from];
    r.grid.begin = r.st->begin;
    r.grid.end = r.st->end;
    run_pixels(pool, gather_pixels, &r, r.pixels);
    return 0;
}

typedef struct SppmUpdate {
    const RsKernelParams* kp;
    uint32_t pixels;
} SppmUpdate;

static void update_pixels(void* ctx, uint32_t worker, uint32_t workers)
{
    SppmUpdate* u = ctx;
    uint64_t begin, end;
    rs_pool_share(u->pixels, worker, workers, &begin, &end);
    for (uint64_t p = begin; p < end; ++p)
        rs_sppm_update(u->kp, (uint32_t)p);
}

void rs_sppm_update_cpu(RsThreadPool* pool, const RsKernelParams* kp)
{
    SppmUpdate u = {kp, rs_pixel_count(kp)};
    if (!pool)
        update_pixels(&u, 0, 1);
    else
        rs_pool_run_items(pool, update_pixels, &u, u.pixels, RS_RADIX_MIN_PER_WORKER);
}
