/* stage_ops.cu - the bounce loop's entry points: one launch per wavefront stage into the
 * instance's stream, the dead-ray strategy's count or compaction in drop_dead, and
 * read_counts, the loop's only wait (for drop_dead's two counters), which also swaps the
 * compacted index and, with payload compaction, the gathered RayState rows.
 *
 * Device-side host glue (nvcc).
 */
#include "cuda/backend/cuda_backend.cuh"
#include "cuda/backend/cuda_buffers.cuh"

/* --deadray auto (backend.h): the strategy from now on; inside a wave a change of family
 * converts the live set (deadray_convert.cu), timed as drop_dead. The live count is the host's
 * (b->live, from read_counts or generate), so nothing is read back. */
int rs_cuda_backend_set_deadray(RsBackend* base, RsDeadRay d, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "drop_dead", err))
        return -1;
    if (base->config.deadray != RS_DEADRAY_AUTO || d == RS_DEADRAY_FLAGS || d == RS_DEADRAY_AUTO ||
        !rs_deadray_supported(d, RS_BACKEND_CUDA))
        return rs_error_set(err, "internal error: cannot switch to dead-ray strategy '%s' under '%s'",
                            rs_deadray_name(d), rs_deadray_name(base->config.deadray));
    RsCudaContext* c = &b->ctx;
    if (b->in_wave && base->time_bounce) /* a timed bounce starts (before generate nothing is timed) */
        RS_CUDA(c, cudaEventRecord(b->bounce_start, b->stream));
    int mode = rs_cuda_live_mode(d);
    if (b->in_wave && (mode == RS_LIVE_INDEX) != (b->mode == RS_LIVE_INDEX)) {
        if (mark_begin(b, RS_STAGE_DROP_DEAD))
            return -1;
        if (mode == RS_LIVE_INDEX)
            RS_CUDA(c, rs_stencil_to_index(b->stencil, b->paths, b->index[0], &b->counters[RS_CTR_CONVERT],
                                           b->stream));
        else
            RS_CUDA(c, rs_index_to_stencil(b->index[0], b->live, b->paths, b->stencil, b->stream));
        if (mark_end(b))
            return -1;
    }
    b->deadray = d;
    b->mode = mode;
    b->method = rs_cuda_compact_method(d);
    return 0;
}

/* Both events are done: read_counts waited for counts_ready, recorded after bounce_end. */
int rs_cuda_backend_bounce_seconds(RsBackend* base, double* seconds, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "drop_dead", err))
        return -1;
    float ms = 0.0f;
    RS_CUDA(&b->ctx, cudaEventElapsedTime(&ms, b->bounce_start, b->bounce_end));
    *seconds = ms * 1e-3;
    return 0;
}

int rs_cuda_backend_generate(RsBackend* base, const RsWaveRange* wave, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "generate", err))
        return -1;
    uint32_t paths = wave->paths;
    b->ctx.depth = 0;
    b->ctx.first_path = wave->first_path;
    b->ctx.pixels = wave->span_pixels;
    if (paths > b->capacity)
        return rs_error_set(err, "internal error: wave of %u paths exceeds capacity %u", paths, b->capacity);
    b->kp.span_first_index = wave->span_first_index;
    b->kp.span_pixels = wave->span_pixels;
    b->kp.wave_first_path = wave->first_path;
    b->kp.wave_paths = paths;
    /* a particle wave lies in one chunk; kp.particles.per_pass came with set_frame */
    b->kp.particles.phase = wave->phase;
    b->camera_rays = wave->phase == RS_PHASE_CAMERA; /* until shade makes them bounce rays */
    b->kp.particles.chunk_first_path = wave->chunk_first_path;
    b->paths = b->live = paths;
    b->in_wave = 1;
    if (mark_begin(b, RS_STAGE_GENERATE))
        return -1;
    RS_CUDA(&b->ctx, rs_launch_generate(b->kp, live_set(b), b->mode, b->stream));
    return mark_end(b);
}

int rs_cuda_backend_sort(RsBackend* base, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "sort", err))
        return -1;
    if (b->mode != RS_LIVE_INDEX)
        return 0;
    if (!b->sort.temp)
        return rs_error_set(err, "internal error: sort called on a backend configured without --sort-rays");
    if (mark_begin(b, RS_STAGE_SORT))
        return -1;
    RS_CUDA(&b->ctx, rs_launch_sort_rays(b->kp, &b->index[0], &b->index[1], b->live, &b->sort, b->stream));
    return mark_end(b);
}

int rs_cuda_backend_sort_materials(RsBackend* base, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "sort_materials", err))
        return -1;
    if (b->mode != RS_LIVE_INDEX)
        return 0;
    if (!b->sort.temp)
        return rs_error_set(err, "internal error: sort_materials called on a backend configured without it");
    if (mark_begin(b, RS_STAGE_SORT))
        return -1;
    RS_CUDA(&b->ctx, rs_launch_sort_materials(b->kp, &b->index[0], &b->index[1], b->live, &b->sort, b->stream));
    return mark_end(b);
}

/* Plain extend on flat bvh8 runs one ray per thread with the lanes of a warp stepping together,
 * so that they share leaf tests (kernel_extend_fetch.cu); an experiment may build with 0 for the
 * kernel whose threads each walk alone (kernel_extend.cu). */
#ifndef RS_EXTEND_WARP_WALKS
#define RS_EXTEND_WARP_WALKS 1
#endif

/* The camera tree is walked by warp packets (kernel_extend_camera.cu); an experiment may build
 * with 0 for the per-thread bvh2 walk (kernel_extend.cu). */
#ifndef RS_CAMERA_PACKETS
#define RS_CAMERA_PACKETS 1
#endif

int rs_cuda_backend_extend(RsBackend* base, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "extend", err))
        return -1;
    b->ctx.depth++;
    if (mark_begin(b, RS_STAGE_EXTEND))
        return -1;
    /* the dynamic-fetch kernel walks flat bvh8 only: a scene with instances runs the plain one */
    const RsAccelView* accel = &b->kp.scene.accel;
    const int flat_bvh8 = accel->inst.instance_count == 0 && accel->kind == RS_ACCEL_BVH8;
    const int persistent =
        rs_trace_kernel_resolve(base->config.trace_kernel, accel->kind, b->ctx.depth) == RS_TRACE_PERSISTENT;
    /* a camera wave's own rays walk bvh8's camera tree where there is one, whatever the trace
     * kernel (kernel/accel/accel.h); the CPU backend does the same, so both find the same hits */
    const int camera_tree = b->camera_rays && rs_accel_camera_kind(accel) != rs_accel_run_kind(accel);
    if (camera_tree && RS_CAMERA_PACKETS)
        RS_CUDA(&b->ctx, rs_launch_extend_camera(b->kp, live_set(b), b->mode, b->stream));
    else if (camera_tree)
        RS_CUDA(&b->ctx, rs_launch_extend(b->kp, live_set(b), rs_accel_camera_kind(accel), b->mode, &b->grids,
                                          b->stream));
    else if (flat_bvh8 && persistent)
        RS_CUDA(&b->ctx, rs_launch_extend_fetch(b->kp, live_set(b), b->mode, &b->grids, b->stream));
    else if (flat_bvh8 && RS_EXTEND_WARP_WALKS)
        RS_CUDA(&b->ctx, rs_launch_extend_warps(b->kp, live_set(b), b->mode, b->stream));
    else
        RS_CUDA(&b->ctx, rs_launch_extend(b->kp, live_set(b), rs_accel_run_kind(accel), b->mode, &b->grids,
                                          b->stream));
    return mark_end(b);
}

int rs_cuda_backend_shade(RsBackend* base, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "shade", err))
        return -1;
    if (mark_begin(b, RS_STAGE_SHADE))
        return -1;
    RS_CUDA(&b->ctx, cudaMemsetAsync(&b->counters[RS_CTR_SHADOW], 0, sizeof(uint32_t), b->stream));
    RS_CUDA(&b->ctx, rs_launch_shade(b->kp, live_set(b), b->mode, &b->grids, b->stream));
    b->camera_rays = 0;
    return mark_end(b);
}

int rs_cuda_backend_connect(RsBackend* base, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "connect", err))
        return -1;
    /* at most one shadow ray per ray that entered shade */
    if (mark_begin(b, RS_STAGE_CONNECT))
        return -1;
    int persistent = rs_trace_kernel_resolve_shadow(base->config.trace_kernel, b->kp.scene.accel.kind) ==
                     RS_TRACE_PERSISTENT;
    RS_CUDA(&b->ctx, rs_launch_connect(b->kp, b->counters, b->live, persistent, &b->grids, b->stream));
    return mark_end(b);
}

int rs_cuda_backend_drop_dead(RsBackend* base, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "drop_dead", err))
        return -1;
    RsCudaContext* c = &b->ctx;
    uint32_t* live_counter = &b->counters[RS_CTR_LIVE];
    if (mark_begin(b, RS_STAGE_DROP_DEAD))
        return -1;
    if (b->mode != RS_LIVE_INDEX)
        RS_CUDA(c, cudaMemsetAsync(live_counter, 0, sizeof(uint32_t), b->stream));
    switch (b->mode) {
    case RS_LIVE_FLAGS:
        RS_CUDA(c, rs_count_flags(b->alive, b->paths, live_counter, b->stream));
        break;
    case RS_LIVE_STENCIL:
    case RS_LIVE_PERSISTENT:
        RS_CUDA(c, rs_count_stencil(b->stencil, (b->paths + 31) / 32, live_counter, b->stream));
        break;
    default:
        RS_CUDA(c, rs_compact(b->method, b->index[0], b->keep, b->live, b->index[1], live_counter, &b->scratch,
                              RS_COMPACT_DEFAULT_ITEMS, b->stream));
        break;
    }
    if (mark_end(b))
        return -1;
    RS_CUDA(c, cudaMemcpyAsync(b->host_counters, b->counters, 2 * sizeof(uint32_t), cudaMemcpyDeviceToHost,
                               b->stream));
    if (b->bounce_end && base->time_bounce) /* auto: a timed bounce ends with its counts on the host */
        RS_CUDA(c, cudaEventRecord(b->bounce_end, b->stream));
    RS_CUDA(c, cudaEventRecord(b->counts_ready, b->stream));
    base->readback_bytes += 2 * sizeof(uint32_t);
    return 0;
}

int rs_cuda_backend_adaptive_update(RsBackend* base, uint32_t span_first_index, uint32_t span_pixels, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "adaptive_update", err))
        return -1;
    b->kp.span_first_index = span_first_index;
    b->kp.span_pixels = span_pixels;
    if (mark_begin(b, RS_STAGE_ACCUMULATE))
        return -1;
    RS_CUDA(&b->ctx, rs_launch_adaptive_update(b->kp, span_pixels, b->stream));
    return mark_end(b);
}

/* One 8-byte read-back after the queued work: called once per trace call, not per wave. */
int rs_cuda_backend_read_nonfinite(RsBackend* base, uint64_t* paths, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "accumulate", err))
        return -1;
    RS_CUDA(&b->ctx, cudaMemcpyAsync(paths, b->nonfinite_paths, sizeof(uint64_t), cudaMemcpyDeviceToHost, b->stream));
    RS_CUDA(&b->ctx, cudaStreamSynchronize(b->stream));
    return 0;
}

int rs_cuda_backend_read_counts(RsBackend* base, RsBounceCounts* counts, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "drop_dead", err))
        return -1;
    RsCudaContext* c = &b->ctx;
    RS_CUDA(c, cudaEventSynchronize(b->counts_ready));
    counts->live = b->host_counters[RS_CTR_LIVE];
    counts->shadow_rays = b->host_counters[RS_CTR_SHADOW];
    if (b->mode == RS_LIVE_INDEX) {
        uint32_t* tmp = b->index[0];
        b->index[0] = b->index[1];
        b->index[1] = tmp;
        if (base->config.payload) {
            if (mark_begin(b, RS_STAGE_DROP_DEAD))
                return -1;
            RS_CUDA(c, rs_launch_gather_rows(b->rays[0], b->rays[1], b->index[0], counts->live, b->stream));
            if (mark_end(b))
                return -1;
            RsRayStateSoA swap = b->rays[0];
            b->rays[0] = b->rays[1];
            b->rays[1] = swap;
            b->kp.rays = b->rays[0];
        }
    }
    b->live = counts->live;
    return 0;
}

int rs_cuda_backend_accumulate(RsBackend* base, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "accumulate", err))
        return -1;
    b->ctx.depth = 0;
    b->in_wave = 0;
    if (mark_begin(b, RS_STAGE_ACCUMULATE))
        return -1;
    RS_CUDA(&b->ctx, rs_launch_accumulate(b->kp, b->stream));
    return mark_end(b);
}
