/* deadray_cpu.c - dropping dead rays between bounces on the CPU backend, one faithful analogue
 * per GPU strategy (docs/architecture.md, section 5). Host C11.
 *
 *   flags, stencil, persistent  nothing moves; the live count is a reduction (a popcount of
 *                               the stencil words for the bit-per-ray strategies);
 *   compact-scan   exclusive prefix sum of the alive flags over the active list, then scatter
 *                  (three phases: per-worker scan, scan of worker totals, offset + scatter);
 *                  order-preserving;
 *   compact-block  Roger, Assarsson & Holzschuch 2007: every block of RS_CPU_COMPACT_BLOCK
 *                  entries compacts itself into its own segment, the block counts are prefix
 *                  summed, and the segments are concatenated; order-preserving, O(n);
 *   compact-warp   per 32-entry batch a bit mask and its popcount, one atomic add for the
 *                  batch's output offset; not order-preserving (batches land in whatever order
 *                  workers reach the counter), which is fine because no result depends on
 *                  the order of rays.
 * With payload compaction the rows themselves are then gathered into the second RayState in
 * list order, and the live rays are rows [0, live) from then on.
 */
#include "host/backend/cpu/deadray_cpu.h"

#include <string.h>

typedef struct CompactTask {
    RsCpuBackend* b;
    uint32_t n;         /* entries of the active set */
    uint32_t* out;      /* the new list of live rows */
    uint32_t blocks;    /* compact-block */
    uint64_t total;     /* result of a reduction */
} CompactTask;

static inline uint32_t flag_of(const RsCpuBackend* b, uint32_t i) { return b->alive[rs_cpu_active_row(b, i)]; }

void rs_cpu_deadray_reset(RsCpuBackend* b, uint32_t paths)
{
    b->live = paths;
    b->dense = 1;
    switch (b->deadray) {
    case RS_DEADRAY_FLAGS:
        for (uint32_t i = 0; i < paths; ++i)
            b->alive[i] = 1;
        break;
    case RS_DEADRAY_STENCIL:
    case RS_DEADRAY_PERSISTENT: {
        uint32_t full = paths / RS_CPU_BATCH, rest = paths % RS_CPU_BATCH;
        memset(b->stencil, 0xff, (size_t)full * sizeof(uint32_t));
        if (rest)
            b->stencil[full] = (1u << rest) - 1u;
        break;
    }
    default:
        break; /* compaction: rows [0, paths) are the active set; shade writes their flags */
    }
}

void rs_cpu_deadray_from_flags(RsCpuBackend* b, uint32_t paths)
{
    RsDeadRay d = b->deadray;
    if (d != RS_DEADRAY_STENCIL && d != RS_DEADRAY_PERSISTENT)
        return;
    for (uint32_t word = 0; word * RS_CPU_BATCH < paths; ++word) {
        uint32_t bits = 0;
        for (uint32_t lane = 0; lane < RS_CPU_BATCH && word * RS_CPU_BATCH + lane < paths; ++lane)
            bits |= (b->alive[word * RS_CPU_BATCH + lane] ? 1u : 0u) << lane;
        b->stencil[word] = bits;
    }
}

void rs_cpu_deadray_convert(RsCpuBackend* b, RsDeadRay to)
{
    int from_list = rs_deadray_is_compaction(b->deadray), to_list = rs_deadray_is_compaction(to);
    if (from_list == to_list)
        return; /* stencil <-> persistent, or one compaction <-> another: the same state */
    uint32_t words = (b->kp.wave_paths + RS_CPU_BATCH - 1) / RS_CPU_BATCH;
    if (to_list) { /* the rows whose bit is set, in row order; drop_dead counted them */
        uint32_t n = 0;
        for (uint32_t word = 0; word < words; ++word)
            for (uint32_t bits = b->stencil[word]; bits; bits &= bits - 1)
                b->index[0][n++] = word * RS_CPU_BATCH + (uint32_t)__builtin_ctz(bits);
        b->live = n;
        b->dense = 0;
        return;
    }
    memset(b->stencil, 0, (size_t)words * sizeof(uint32_t));
    for (uint32_t i = 0; i < b->live; ++i) {
        uint32_t row = rs_cpu_active_row(b, i);
        b->stencil[row / RS_CPU_BATCH] |= 1u << (row % RS_CPU_BATCH);
    }
}

uint32_t rs_cpu_active_items(const RsCpuBackend* b)
{
    return rs_deadray_is_compaction(b->deadray) ? b->live : b->kp.wave_paths;
}

/* ---- live counts for the strategies that move nothing ---- */

static void count_flags_task(void* ctx, uint32_t worker, uint32_t workers)
{
    CompactTask* t = ctx;
    uint64_t begin, end, sum = 0;
    rs_pool_share(t->n, worker, workers, &begin, &end);
    for (uint64_t i = begin; i < end; ++i)
        sum += t->b->alive[i];
    t->b->worker_sums[worker] = (uint32_t)sum;
}

static void count_stencil_task(void* ctx, uint32_t worker, uint32_t workers)
{
    CompactTask* t = ctx;
    uint64_t begin, end, sum = 0;
    rs_pool_share(t->n, worker, workers, &begin, &end);
    for (uint64_t i = begin; i < end; ++i)
        sum += (uint64_t)__builtin_popcount(t->b->stencil[i]);
    t->b->worker_sums[worker] = (uint32_t)sum;
}

static uint32_t sum_workers(const RsCpuBackend* b, uint32_t workers)
{
    uint32_t total = 0;
    for (uint32_t w = 0; w < workers; ++w)
        total += b->worker_sums[w];
    return total;
}

/* Turns worker totals into exclusive offsets; returns the grand total. */
static uint32_t scan_workers(RsCpuBackend* b, uint32_t workers)
{
    uint32_t running = 0;
    for (uint32_t w = 0; w < workers; ++w) {
        uint32_t count = b->worker_sums[w];
        b->worker_sums[w] = running;
        running += count;
    }
    return running;
}

/* ---- compact-scan ---- */

static void scan_local_task(void* ctx, uint32_t worker, uint32_t workers)
{
    CompactTask* t = ctx;
    uint64_t begin, end;
    rs_pool_share(t->n, worker, workers, &begin, &end);
    uint32_t running = 0;
    for (uint64_t i = begin; i < end; ++i) {
        t->b->scratch[i] = running; /* exclusive prefix sum inside this worker's share */
        running += flag_of(t->b, (uint32_t)i);
    }
    t->b->worker_sums[worker] = running;
}

static void scan_scatter_task(void* ctx, uint32_t worker, uint32_t workers)
{
    CompactTask* t = ctx;
    uint64_t begin, end;
    rs_pool_share(t->n, worker, workers, &begin, &end);
    uint32_t offset = t->b->worker_sums[worker];
    for (uint64_t i = begin; i < end; ++i)
        if (flag_of(t->b, (uint32_t)i))
            t->out[offset + t->b->scratch[i]] = rs_cpu_active_row(t->b, (uint32_t)i);
}

static uint32_t compact_scan(RsCpuBackend* b, CompactTask* t)
{
    /* both passes with the same workers: the scatter reads the local pass's per-worker sums */
    uint32_t workers = rs_pool_run_items(b->pool, scan_local_task, t, t->n, RS_CPU_MIN_ENTRIES_PER_WORKER);
    uint32_t total = scan_workers(b, workers);
    if (workers == 1)
        scan_scatter_task(t, 0, 1);
    else
        rs_pool_run(b->pool, scan_scatter_task, t);
    return total;
}

/* ---- compact-block (Roger et al.) ---- */

static void block_reduce_task(void* ctx, uint32_t worker, uint32_t workers)
{
    CompactTask* t = ctx;
    uint64_t begin, end;
    rs_pool_share(t->blocks, worker, workers, &begin, &end);
    for (uint64_t blk = begin; blk < end; ++blk) {
        uint32_t first = (uint32_t)blk * RS_CPU_COMPACT_BLOCK;
        uint32_t last = first + RS_CPU_COMPACT_BLOCK < t->n ? first + RS_CPU_COMPACT_BLOCK : t->n;
        uint32_t count = 0;
        for (uint32_t i = first; i < last; ++i)
            if (flag_of(t->b, i))
                t->b->scratch[first + count++] = rs_cpu_active_row(t->b, i);
        t->b->block_offsets[blk] = count; /* turned into offsets by the scan below */
    }
}

static void block_concat_task(void* ctx, uint32_t worker, uint32_t workers)
{
    CompactTask* t = ctx;
    uint64_t begin, end;
    rs_pool_share(t->blocks, worker, workers, &begin, &end);
    for (uint64_t blk = begin; blk < end; ++blk) {
        uint32_t first = (uint32_t)blk * RS_CPU_COMPACT_BLOCK;
        uint32_t offset = t->b->block_offsets[blk];
        uint32_t count = t->b->block_offsets[blk + 1] - offset;
        memcpy(&t->out[offset], &t->b->scratch[first], (size_t)count * sizeof(uint32_t));
    }
}

static uint32_t compact_block(RsCpuBackend* b, CompactTask* t)
{
    t->blocks = (t->n + RS_CPU_COMPACT_BLOCK - 1) / RS_CPU_COMPACT_BLOCK;
    rs_pool_run_items(b->pool, block_reduce_task, t, t->n, RS_CPU_MIN_ENTRIES_PER_WORKER);
    uint32_t running = 0; /* exclusive scan of the block counts, with the total at the end */
    for (uint32_t blk = 0; blk < t->blocks; ++blk) {
        uint32_t count = b->block_offsets[blk];
        b->block_offsets[blk] = running;
        running += count;
    }
    b->block_offsets[t->blocks] = running;
    rs_pool_run_items(b->pool, block_concat_task, t, t->n, RS_CPU_MIN_ENTRIES_PER_WORKER);
    return running;
}

/* ---- compact-warp ---- */

static void warp_task(void* ctx, uint32_t worker, uint32_t workers)
{
    CompactTask* t = ctx;
    uint32_t batches = (t->n + RS_CPU_BATCH - 1) / RS_CPU_BATCH;
    uint64_t begin, end;
    rs_pool_share(batches, worker, workers, &begin, &end);
    for (uint64_t batch = begin; batch < end; ++batch) {
        uint32_t first = (uint32_t)batch * RS_CPU_BATCH;
        uint32_t last = first + RS_CPU_BATCH < t->n ? first + RS_CPU_BATCH : t->n;
        uint32_t mask = 0;
        for (uint32_t i = first; i < last; ++i)
            mask |= flag_of(t->b, i) << (i - first); /* the ballot */
        if (!mask)
            continue;
        uint32_t base = atomic_fetch_add_explicit(&t->b->out_cursor, (uint32_t)__builtin_popcount(mask),
                                                  memory_order_relaxed);
        for (uint32_t bits = mask; bits; bits &= bits - 1) {
            uint32_t lane = (uint32_t)__builtin_ctz(bits);
            /* lane's slot = popcount of the set bits below it, as __popc(mask & lanemask_lt) */
            t->out[base + (uint32_t)__builtin_popcount(mask & ((1u << lane) - 1u))] =
                rs_cpu_active_row(t->b, first + lane);
        }
    }
}

static uint32_t compact_warp(RsCpuBackend* b, CompactTask* t)
{
    atomic_store(&b->out_cursor, 0);
    rs_pool_run_items(b->pool, warp_task, t, t->n, RS_CPU_MIN_ENTRIES_PER_WORKER);
    return atomic_load(&b->out_cursor);
}

/* ---- payload: move the live rows together ---- */

static void gather_task(void* ctx, uint32_t worker, uint32_t workers)
{
    CompactTask* t = ctx;
    uint64_t begin, end;
    rs_pool_share(t->n, worker, workers, &begin, &end);
    for (uint64_t k = begin; k < end; ++k)
        rs_ray_move(&t->b->rays[0], t->b->index[0][k], &t->b->rays[1], (uint32_t)k);
}

uint32_t rs_cpu_deadray_drop(RsCpuBackend* b)
{
    CompactTask t;
    memset(&t, 0, sizeof t);
    t.b = b;
    switch (b->deadray) {
    case RS_DEADRAY_FLAGS:
        t.n = b->kp.wave_paths;
        return b->live = sum_workers(
                   b, rs_pool_run_items(b->pool, count_flags_task, &t, t.n, RS_CPU_MIN_ENTRIES_PER_WORKER));
    case RS_DEADRAY_STENCIL:
    case RS_DEADRAY_PERSISTENT:
        t.n = (b->kp.wave_paths + RS_CPU_BATCH - 1) / RS_CPU_BATCH;
        return b->live = sum_workers(b, rs_pool_run_items(b->pool, count_stencil_task, &t, t.n,
                                                          RS_CPU_MIN_ENTRIES_PER_WORKER / RS_CPU_BATCH));
    default:
        break;
    }
    t.n = b->live;
    t.out = b->index[1];
    uint32_t live;
    switch (b->deadray) {
    case RS_DEADRAY_COMPACT_BLOCK:
        live = compact_block(b, &t);
        break;
    case RS_DEADRAY_COMPACT_WARP:
        live = compact_warp(b, &t);
        break;
    default:
        live = compact_scan(b, &t);
        break;
    }
    uint32_t* tmp = b->index[0];
    b->index[0] = b->index[1];
    b->index[1] = tmp;
    b->live = live;
    b->dense = 0;
    if (b->base.config.payload) {
        t.n = live;
        rs_pool_run_items(b->pool, gather_task, &t, t.n, RS_CPU_MIN_RAYS_PER_WORKER);
        RsRayStateSoA swap = b->rays[0];
        b->rays[0] = b->rays[1];
        b->rays[1] = swap;
        b->kp.rays = b->rays[0];
        b->dense = 1;
    }
    return live;
}
