/* backend_cpu.c - the CPU backend: wave buffers and the per-stage loops over live rays.
 *
 * Host C11. Each stage call is one fork-join step over the thread pool, running the same
 * stage functions from src/kernel/ that the CUDA kernels wrap. Which rows a stage visits, and
 * how a kill is recorded, follows the dead-ray strategy exactly as the GPU version would
 * (deadray_cpu.c has the compactions; film_cpu.c the film and the images made from it):
 *   flags       every row of the wave, skipped when its alive flag is 0; shade writes the flag;
 *   stencil     32-row batches; a zero stencil word skips the whole batch, otherwise only its
 *               set bits run; shade collects the continue bits and writes the word once
 *               (the warp ballot and lane-0 store of the GPU version);
 *   persistent  like stencil, but workers take batches from an atomic counter (task stealing)
 *               instead of a fixed share;
 *   compact-*   only the live rows, from the index list (or rows [0, live) after payload
 *               compaction); shade writes alive flags, the compaction's input.
 * Shadow rays are appended with one atomic add per batch (warp-aggregated append).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/backend/cpu/cpu_backend.h"
#include "host/backend/cpu/deadray_cpu.h"
#include "host/backend/cpu/film_cpu.h"
#include "host/backend/cpu/particles_cpu.h"
#include "host/util/array.h"
#include "kernel/film/adaptive.h"
#include "kernel/stages/material_sort.h"
#include "kernel/stages/ray_sort.h"
#include "kernel/stages/stage_accumulate.h"
#include "kernel/stages/stage_connect.h"
#include "kernel/stages/stage_extend.h"
#include "kernel/stages/stage_generate.h"
#include "kernel/stages/stage_shade.h"

/* ---- buffers ---- */

static void free_rays(RsRayStateSoA* s)
{
#define RS_FREE(type, name, lanes) free(s->name);
    RS_RAY_STATE_FIELDS(RS_FREE)
#undef RS_FREE
    memset(s, 0, sizeof *s);
}

/* `instances`: the instance lane too (a scene with instances; ray_state_fields.h). */
static int alloc_rays(RsRayStateSoA* s, uint32_t n, int instances)
{
    memset(s, 0, sizeof *s);
    int ok = 1;
#define RS_ALLOC(type, name, lanes) ok &= (s->name = rs_alloc_aligned(n, sizeof(type), 64)) != NULL;
    RS_RAY_STATE_CORE_FIELDS(RS_ALLOC)
#undef RS_ALLOC
    if (instances)
        ok &= (s->instance = rs_alloc_aligned(n, sizeof(RsUint4), 64)) != NULL;
    return ok ? 0 : -1;
}

static void free_shadows(RsShadowStateSoA* s)
{
#define RS_FREE(type, name, lanes) free(s->name);
    RS_SHADOW_STATE_FIELDS(RS_FREE)
#undef RS_FREE
    memset(s, 0, sizeof *s);
}

/* `particles`: the target lane too (a backend that may trace particles). */
static int alloc_shadows(RsShadowStateSoA* s, uint32_t n, int instances, int particles)
{
    memset(s, 0, sizeof *s);
    int ok = 1;
#define RS_ALLOC(type, name, lanes) ok &= (s->name = rs_alloc_aligned(n, sizeof(type), 64)) != NULL;
    RS_SHADOW_STATE_CORE_FIELDS(RS_ALLOC)
#undef RS_ALLOC
    if (instances)
        ok &= (s->instance = rs_alloc_aligned(n, sizeof(RsUint4), 64)) != NULL;
    if (particles)
        ok &= (s->target = rs_alloc_aligned(n, sizeof(RsUint4), 64)) != NULL;
    return ok ? 0 : -1;
}

static void free_wave(RsCpuBackend* b)
{
    free_rays(&b->rays[0]);
    free_rays(&b->rays[1]);
    free_shadows(&b->shadows);
    free(b->path_radiance);
    for (int i = 0; i < 3; ++i)
        free(b->path_aov[i]);
    memset(b->path_aov, 0, sizeof b->path_aov);
    free(b->alive);
    free(b->stencil);
    free(b->index[0]);
    free(b->index[1]);
    free(b->scratch);
    free(b->block_offsets);
    b->path_radiance = NULL;
    b->alive = b->stencil = b->index[0] = b->index[1] = b->scratch = b->block_offsets = NULL;
    b->capacity = 0;
}

/* The table's figure, plus the stencil words that this backend keeps for every strategy. */
static uint64_t cpu_bytes_per_path(const RsBackend* base)
{
    RsDeadRay d = base->config.deadray;
    int stencil = d == RS_DEADRAY_STENCIL || d == RS_DEADRAY_PERSISTENT || d == RS_DEADRAY_AUTO;
    return rs_wave_bytes_per_path(&base->config) + (stencil ? 0 : 1);
}

static int alloc_wave(RsCpuBackend* b, uint32_t n, RsError* err)
{
    int compaction = rs_deadray_may_compact(b->base.config.deadray);
    int inst = b->base.config.instances;
    int ok = alloc_rays(&b->rays[0], n, inst) == 0 &&
             alloc_shadows(&b->shadows, n, inst, b->base.config.particles) == 0;
    ok = ok && (b->path_radiance = rs_alloc_aligned(n, sizeof(RsFloat4), 64)) != NULL;
    for (int i = 0; i < 3 && b->base.config.aovs; ++i)
        ok = ok && (b->path_aov[i] = rs_alloc_aligned(n, sizeof(RsFloat4), 64)) != NULL;
    ok = ok && (b->alive = rs_alloc_aligned(n, sizeof(uint32_t), 64)) != NULL;
    ok = ok && (b->stencil = rs_alloc_aligned(n / RS_CPU_BATCH + 1, sizeof(uint32_t), 64)) != NULL;
    if (compaction) {
        ok = ok && (b->index[0] = rs_alloc_aligned(n, sizeof(uint32_t), 64)) != NULL;
        ok = ok && (b->index[1] = rs_alloc_aligned(n, sizeof(uint32_t), 64)) != NULL;
        ok = ok && (b->scratch = rs_alloc_aligned(n, sizeof(uint32_t), 64)) != NULL;
        ok = ok && (b->block_offsets = rs_alloc_aligned(n / RS_CPU_COMPACT_BLOCK + 2, sizeof(uint32_t), 64)) != NULL;
        if (b->base.config.payload)
            ok = ok && alloc_rays(&b->rays[1], n, inst) == 0;
    }
    if (!ok) {
        free_wave(b);
        return rs_error_set(err, "out of memory: wave buffers for %u paths (%.1f MiB)", n,
                            (double)n * (double)cpu_bytes_per_path(&b->base) / 1048576.0);
    }
    b->capacity = n;
    b->kp.rays = b->rays[0];
    b->kp.shadows = b->shadows;
    b->kp.path_radiance = b->path_radiance;
    b->kp.path_albedo = b->path_aov[0];
    b->kp.path_normal = b->path_aov[1];
    b->kp.path_position = b->path_aov[2];
    return 0;
}

/* ---- stage loops ---- */

typedef enum LiveStage { LIVE_EXTEND, LIVE_SHADE } LiveStage;

typedef struct ShadowBatch {
    RsShadowRow rows[RS_CPU_BATCH];
    uint32_t count;
} ShadowBatch;

/* One atomic add reserves room for the whole batch's shadow rays. */
static void flush_shadows(RsCpuBackend* b, ShadowBatch* sb)
{
    if (sb->count == 0)
        return;
    uint32_t base = atomic_fetch_add_explicit(&b->shadow_count, sb->count, memory_order_relaxed);
    for (uint32_t i = 0; i < sb->count; ++i)
        rs_shadow_store(&b->kp.shadows, base + i, &sb->rows[i], b->kp.scene.accel.inst.instance_count != 0);
    sb->count = 0;
}

static int run_one(RsCpuBackend* b, LiveStage stage, uint32_t row, ShadowBatch* sb)
{
    if (stage == LIVE_EXTEND) {
        uint64_t stack[RS_BVH8_STACK];
        rs_stage_extend_with(&b->kp, row, b->extend_kind, rs_trace_stack_local(stack));
        return 1;
    }
    uint32_t r = rs_stage_shade(&b->kp, row, &sb->rows[sb->count]);
    if (r & RS_SHADE_SHADOW)
        sb->count++;
    return (r & RS_SHADE_CONTINUE) != 0;
}

static void run_batch(RsCpuBackend* b, LiveStage stage, uint32_t batch, uint32_t items, ShadowBatch* sb)
{
    uint32_t begin = batch * RS_CPU_BATCH;
    uint32_t end = begin + RS_CPU_BATCH < items ? begin + RS_CPU_BATCH : items;
    switch (b->deadray) {
    case RS_DEADRAY_FLAGS:
        for (uint32_t row = begin; row < end; ++row) {
            if (!b->alive[row])
                continue;
            int cont = run_one(b, stage, row, sb);
            if (stage == LIVE_SHADE)
                b->alive[row] = (uint32_t)cont;
        }
        break;
    case RS_DEADRAY_STENCIL:
    case RS_DEADRAY_PERSISTENT: {
        uint32_t word = b->stencil[batch];
        if (word == 0)
            return; /* the whole "warp" goes home */
        uint32_t next = 0;
        for (uint32_t bits = word; bits; bits &= bits - 1) {
            uint32_t lane = (uint32_t)__builtin_ctz(bits);
            next |= (uint32_t)run_one(b, stage, begin + lane, sb) << lane;
        }
        if (stage == LIVE_SHADE)
            b->stencil[batch] = next;
        break;
    }
    default:
        for (uint32_t i = begin; i < end; ++i) {
            uint32_t row = rs_cpu_active_row(b, i);
            int cont = run_one(b, stage, row, sb);
            if (stage == LIVE_SHADE)
                b->alive[row] = (uint32_t)cont;
        }
        break;
    }
    flush_shadows(b, sb);
}

typedef struct LiveTask {
    RsCpuBackend* b;
    LiveStage stage;
    uint32_t items, batches;
} LiveTask;

static void live_task(void* ctx, uint32_t worker, uint32_t workers)
{
    LiveTask* t = ctx;
    ShadowBatch sb;
    sb.count = 0;
    if (t->b->deadray == RS_DEADRAY_PERSISTENT) {
        for (;;) {
            uint32_t batch = atomic_fetch_add_explicit(&t->b->next_batch, 1, memory_order_relaxed);
            if (batch >= t->batches)
                break;
            run_batch(t->b, t->stage, batch, t->items, &sb);
        }
        return;
    }
    uint64_t begin, end;
    rs_pool_share(t->batches, worker, workers, &begin, &end);
    for (uint64_t batch = begin; batch < end; ++batch)
        run_batch(t->b, t->stage, (uint32_t)batch, t->items, &sb);
}

static void run_live(RsCpuBackend* b, LiveStage stage)
{
    LiveTask t = {b, stage, rs_cpu_active_items(b), 0};
    t.batches = (t.items + RS_CPU_BATCH - 1) / RS_CPU_BATCH;
    atomic_store(&b->next_batch, 0); /* the GPU version resets its counter on the device */
    rs_pool_run_items(b->pool, live_task, &t, t.items, RS_CPU_MIN_RAYS_PER_WORKER);
}

/* A stage that runs over a dense range [0, n) regardless of strategy. */
typedef void (*DenseFn)(RsCpuBackend* b, uint32_t i);
typedef struct DenseTask {
    RsCpuBackend* b;
    DenseFn fn;
    uint32_t n;
} DenseTask;

static void dense_task(void* ctx, uint32_t worker, uint32_t workers)
{
    DenseTask* t = ctx;
    uint64_t begin, end;
    rs_pool_share(t->n, worker, workers, &begin, &end);
    for (uint64_t i = begin; i < end; ++i)
        t->fn(t->b, (uint32_t)i);
}

static void run_dense(RsCpuBackend* b, DenseFn fn, uint32_t n, uint32_t min_per_worker)
{
    DenseTask t = {b, fn, n};
    rs_pool_run_items(b->pool, dense_task, &t, n, min_per_worker);
}

/* The verdict goes to the alive flags, which every strategy's drop reads after generate when
 * adaptive sampling can kill a path there (cpu_generate). */
static void generate_one(RsCpuBackend* b, uint32_t slot) { b->alive[slot] = (uint32_t)rs_stage_generate(&b->kp, slot); }
static void adaptive_one(RsCpuBackend* b, uint32_t lane) { rs_adaptive_update(&b->kp, lane); }
static void connect_one(RsCpuBackend* b, uint32_t i)
{
    uint64_t stack[RS_BVH8_STACK];
    rs_stage_connect(&b->kp, i, rs_trace_stack_local(stack));
}
static void accumulate_one(RsCpuBackend* b, uint32_t lane) { rs_stage_accumulate(&b->kp, lane); }

/* ---- backend operations ---- */

static void cpu_destroy(RsBackend* base)
{
    RsCpuBackend* b = rs_cpu_of(base);
    free_wave(b);
    rs_cpu_particles_free(b);
    free(b->film);
    free(b->image);
    rs_denoise_scratch_free(&b->denoise);
    free(b->worker_sums);
    rs_pool_destroy(b->pool);
    free(b);
}

static int cpu_set_scene(RsBackend* base, const RsSceneView* scene, RsError* err)
{
    if (rs_backend_config_check(&base->config, scene->accel.kind, err))
        return -1;
    int instances = scene->accel.inst.instance_count != 0;
    if (instances != base->config.instances) { /* the wave's lanes change: reallocated by set_frame */
        free_wave(rs_cpu_of(base));
        base->config.instances = instances;
    }
    rs_cpu_of(base)->kp.scene = *scene; /* the host arrays are used in place */
    return 0;
}

static int cpu_set_frame(RsBackend* base, const RsFrameDesc* f, uint32_t wave_capacity, RsError* err)
{
    RsCpuBackend* b = rs_cpu_of(base);
    uint32_t pixels = f->width * f->height;
    if (wave_capacity == 0)
        return rs_error_set(err, "internal error: wave capacity 0");
    if (wave_capacity != b->capacity) {
        free_wave(b);
        if (alloc_wave(b, wave_capacity, err))
            return -1;
    }
    size_t planes = rs_film_planes(&base->config);
    if (pixels != b->film_pixels) {
        free(b->film);
        free(b->image);
        b->image = NULL;
        b->film = rs_alloc_aligned(planes * pixels, sizeof(RsFloat4), 64);
        b->film_pixels = b->film ? pixels : 0;
        if (!b->film)
            return rs_error_set(err, "out of memory: film of %ux%u pixels", f->width, f->height);
    }
    memset(b->film, 0, planes * pixels * sizeof(RsFloat4));
    b->kp.film = b->film;
    rs_kernel_params_set_frame(&b->kp, f);
    if (rs_cpu_particles_set_frame(b, f, err))
        return -1;
    b->nonfinite_paths = 0;
    b->kp.nonfinite_paths = &b->nonfinite_paths;
    b->kp.wave_paths = 0;
    b->in_wave = 0; /* a wave an error cut short leaves nothing to convert */
    return 0;
}

static int cpu_generate(RsBackend* base, const RsWaveRange* wave, RsError* err)
{
    RsCpuBackend* b = rs_cpu_of(base);
    uint32_t paths = wave->paths;
    if (paths > b->capacity)
        return rs_error_set(err, "internal error: wave of %u paths exceeds capacity %u", paths, b->capacity);
    b->kp.rays = b->rays[0];
    b->kp.span_first_index = wave->span_first_index;
    b->kp.span_pixels = wave->span_pixels;
    b->kp.wave_first_path = wave->first_path;
    b->kp.wave_paths = paths;
    b->kp.particles.phase = wave->phase;
    b->kp.particles.chunk_first_path = wave->chunk_first_path;
    b->camera_rays = wave->phase == RS_PHASE_CAMERA; /* until shade makes them bounce rays */
    rs_cpu_deadray_reset(b, paths);
    b->in_wave = 1;
    run_dense(b, generate_one, paths, RS_CPU_MIN_PIXELS_PER_WORKER);
    if (b->kp.noise_threshold > 0.0f)
        rs_cpu_deadray_from_flags(b, paths);
    return 0;
}

static int cpu_adaptive_update(RsBackend* base, uint32_t span_first_index, uint32_t span_pixels, RsError* err)
{
    (void)err;
    RsCpuBackend* b = rs_cpu_of(base);
    b->kp.span_first_index = span_first_index;
    b->kp.span_pixels = span_pixels;
    run_dense(b, adaptive_one, span_pixels, RS_CPU_MIN_PIXELS_PER_WORKER);
    return 0;
}

typedef struct SortItem {
    uint32_t key, row;
} SortItem;

static int compare_items(const void* a, const void* b)
{
    const SortItem *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->row < y->row ? -1 : (x->row > y->row); /* ties by row: the order is the same on every run */
}

/* --sort-rays: the live index list in key order (ray_sort.h); ties by row, so the order is the
 * same on every run. Like the CUDA backend's radix sort, it changes which rays run side by
 * side, never what any ray computes. */
static int cpu_sort(RsBackend* base, RsError* err)
{
    RsCpuBackend* b = rs_cpu_of(base);
    if (!rs_deadray_is_compaction(b->deadray) || b->live == 0)
        return 0;
    SortItem* items = malloc((size_t)b->live * sizeof *items);
    if (!items)
        return rs_error_set(err, "out of memory sorting %u rays", b->live);
    const RsSceneView* s = &b->kp.scene;
    RsVec3 scale = rs_sort_scale(s->bounds_lo, s->bounds_hi);
    for (uint32_t i = 0; i < b->live; ++i) {
        uint32_t row = rs_cpu_active_row(b, i);
        items[i].row = row;
        items[i].key = rs_ray_sort_key(rs_xyz(b->kp.rays.origin[row]), rs_xyz(b->kp.rays.direction[row]),
                                       rs_xyz(s->bounds_lo), scale);
    }
    qsort(items, b->live, sizeof *items, compare_items);
    for (uint32_t i = 0; i < b->live; ++i)
        b->index[0][i] = items[i].row;
    b->dense = 0;
    free(items);
    return 0;
}

/* --sort-materials: the live index list grouped by material_sort.h's key with a counting sort,
 * O(live + materials); stable, so within a material the rays keep their order and every run
 * gives the same one. Built in index[1], free until drop_dead builds the next list there. */
static int cpu_sort_materials(RsBackend* base, RsError* err)
{
    RsCpuBackend* b = rs_cpu_of(base);
    if (!rs_deadray_is_compaction(b->deadray) || b->live == 0) /* b->deadray: this bounce's, under auto */
        return 0;
    const RsSceneView* s = &b->kp.scene;
    uint32_t keys = s->material_count + 1;
    uint32_t* start = calloc((size_t)keys + 1, sizeof *start);
    if (!start)
        return rs_error_set(err, "out of memory sorting %u rays by material", b->live);
    for (uint32_t i = 0; i < b->live; ++i)
        start[rs_material_sort_key(s, b->kp.rays.hit[rs_cpu_active_row(b, i)]) + 1]++;
    for (uint32_t k = 1; k <= keys; ++k)
        start[k] += start[k - 1];
    for (uint32_t i = 0; i < b->live; ++i) {
        uint32_t row = rs_cpu_active_row(b, i);
        b->index[1][start[rs_material_sort_key(s, b->kp.rays.hit[row])]++] = row;
    }
    uint32_t* sorted = b->index[1];
    b->index[1] = b->index[0];
    b->index[0] = sorted;
    b->dense = 0;
    free(start);
    return 0;
}

static int cpu_extend(RsBackend* base, RsError* err)
{
    (void)err;
    RsCpuBackend* b = rs_cpu_of(base);
    const RsAccelView* accel = &b->kp.scene.accel;
    b->extend_kind = b->camera_rays ? rs_accel_camera_kind(accel) : rs_accel_run_kind(accel);
    run_live(b, LIVE_EXTEND);
    return 0;
}

static int cpu_shade(RsBackend* base, RsError* err)
{
    (void)err;
    RsCpuBackend* b = rs_cpu_of(base);
    atomic_store(&b->shadow_count, 0);
    run_live(b, LIVE_SHADE);
    b->camera_rays = 0;
    return 0;
}

static int cpu_connect(RsBackend* base, RsError* err)
{
    (void)err;
    RsCpuBackend* b = rs_cpu_of(base);
    run_dense(b, connect_one, atomic_load(&b->shadow_count), RS_CPU_MIN_RAYS_PER_WORKER);
    return 0;
}

static int cpu_drop_dead(RsBackend* base, RsError* err)
{
    (void)err;
    RsCpuBackend* b = rs_cpu_of(base);
    b->counts.shadow_rays = atomic_load(&b->shadow_count);
    b->counts.live = rs_cpu_deadray_drop(b);
    return 0;
}

static int cpu_read_counts(RsBackend* base, RsBounceCounts* counts, RsError* err)
{
    (void)err;
    *counts = rs_cpu_of(base)->counts; /* drop_dead ran to completion */
    return 0;
}

static int cpu_accumulate(RsBackend* base, RsError* err)
{
    (void)err;
    RsCpuBackend* b = rs_cpu_of(base);
    run_dense(b, accumulate_one, rs_accumulate_count(&b->kp), RS_CPU_MIN_PIXELS_PER_WORKER);
    b->in_wave = 0;
    return 0;
}

/* --deadray auto: the bounce loop's pick for what follows (backend.h). */
static int cpu_set_deadray(RsBackend* base, RsDeadRay d, RsError* err)
{
    RsCpuBackend* b = rs_cpu_of(base);
    if (base->config.deadray != RS_DEADRAY_AUTO || d == RS_DEADRAY_FLAGS || d == RS_DEADRAY_AUTO ||
        !rs_deadray_supported(d, RS_BACKEND_CPU))
        return rs_error_set(err, "internal error: cannot switch to dead-ray strategy '%s' under '%s'",
                            rs_deadray_name(d), rs_deadray_name(base->config.deadray));
    if (b->in_wave)
        rs_cpu_deadray_convert(b, d);
    b->deadray = d;
    return 0;
}

static int cpu_finish(RsBackend* base, RsError* err)
{
    (void)base;
    (void)err;
    return 0; /* every call already ran to completion */
}

static int cpu_read_nonfinite(RsBackend* base, uint64_t* paths, RsError* err)
{
    (void)err;
    *paths = __atomic_load_n(&rs_cpu_of(base)->nonfinite_paths, __ATOMIC_RELAXED);
    return 0;
}

static const RsBackendOps cpu_ops = {
    .destroy = cpu_destroy,
    .set_scene = cpu_set_scene,
    .set_frame = cpu_set_frame,
    .generate = cpu_generate,
    .set_deadray = cpu_set_deadray,
    .bounce_seconds = NULL, /* synchronous: the bounce loop's wall clock */
    .sort = cpu_sort,
    .sort_materials = cpu_sort_materials,
    .extend = cpu_extend,
    .shade = cpu_shade,
    .connect = cpu_connect,
    .drop_dead = cpu_drop_dead,
    .adaptive_update = cpu_adaptive_update,
    .read_counts = cpu_read_counts,
    .accumulate = cpu_accumulate,
    .read_film = rs_cpu_read_film,
    .write_film = rs_cpu_write_film,
    .read_film_span = rs_cpu_read_film_span,
    .write_film_span = rs_cpu_write_film_span,
    .make_image = rs_cpu_make_image,
    .read_image = rs_cpu_read_image,
    .display = rs_cpu_display,
    .finish = cpu_finish,
    .take_stage_times = NULL, /* every call is synchronous: the bounce loop times them */
    .bytes_per_path = cpu_bytes_per_path,
    .read_nonfinite = cpu_read_nonfinite,
    .particle_resolve = rs_cpu_particle_resolve,
    .sppm_update = rs_cpu_sppm_update,
};

/* Paths per wave: enough to keep every worker busy and amortise the fork-join steps, small
 * enough that a wave's buffers (~200 B per path) stay within a few tens of MiB. */
#define RS_CPU_PREFERRED_WAVE (1u << 18)
#define RS_CPU_DEFAULT_MEMORY (1024ull << 20)

RsBackend* rs_backend_cpu_create(const RsBackendConfig* config, RsError* err)
{
    RsCpuBackend* b = calloc(1, sizeof *b);
    if (!b) {
        rs_error_set(err, "out of memory creating the CPU backend");
        return NULL;
    }
    b->pool = rs_pool_create(config->threads, err);
    b->worker_sums = b->pool ? calloc(rs_pool_size(b->pool), sizeof(uint32_t)) : NULL;
    if (!b->worker_sums) {
        if (b->pool)
            rs_error_set(err, "out of memory creating the CPU backend");
        rs_pool_destroy(b->pool);
        free(b);
        return NULL;
    }
    b->base.ops = &cpu_ops;
    b->base.config = *config;
    b->base.config.kind = RS_BACKEND_CPU;
    /* auto starts from the stencil; the bounce loop picks before every generate and bounce */
    b->deadray = config->deadray == RS_DEADRAY_AUTO ? RS_DEADRAY_STENCIL : config->deadray;
    snprintf(b->base.name, sizeof b->base.name, "cpu");
    snprintf(b->base.device, sizeof b->base.device, "CPU, %u thread%s", rs_pool_size(b->pool),
             rs_pool_size(b->pool) == 1 ? "" : "s");
    b->base.memory_budget = config->memory_limit ? config->memory_limit : RS_CPU_DEFAULT_MEMORY;
    b->base.preferred_wave = RS_CPU_PREFERRED_WAVE;
    return &b->base;
}
