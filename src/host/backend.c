/* backend.c - strategy names, memory per path and backend selection. Host C11. */
#include "backend.h"

#include <string.h>

#include "../kernel/accel.h"

static const char* const deadray_names[RS_DEADRAY_COUNT] = {
    "flags", "stencil", "persistent", "compact-scan", "compact-block", "compact-warp", "compact-cub",
};

const char* rs_deadray_name(RsDeadRay d) { return d < RS_DEADRAY_COUNT ? deadray_names[d] : "?"; }

int rs_deadray_parse(const char* name, RsDeadRay* out)
{
    for (int i = 0; i < RS_DEADRAY_COUNT; ++i) {
        if (strcmp(name, deadray_names[i]) == 0) {
            *out = (RsDeadRay)i;
            return 0;
        }
    }
    return -1;
}

int rs_deadray_is_compaction(RsDeadRay d) { return d >= RS_DEADRAY_COMPACT_SCAN; }

const char* rs_deadray_list(void)
{
    return "flags, stencil, persistent, compact-scan, compact-block, compact-warp, compact-cub";
}

void rs_kernel_params_set_frame(RsKernelParams* kp, const RsFrameDesc* f)
{
    kp->camera = f->camera;
    kp->width = f->width;
    kp->height = f->height;
    kp->seed = f->seed;
    kp->max_depth = f->max_depth;
    kp->integrator = f->integrator;
    kp->rr_depth = f->rr_depth;
}

uint64_t rs_wave_bytes_per_path(const RsBackendConfig* config)
{
    RsDeadRay d = config->deadray;
    int payload = config->payload;
    uint64_t bytes = RS_RAY_STATE_BYTES_PER_RAY + RS_SHADOW_STATE_BYTES_PER_RAY + 16 /* path radiance */;
    bytes += 4; /* alive flag (the flags strategy's state, and every compaction's input) */
    if (d == RS_DEADRAY_STENCIL || d == RS_DEADRAY_PERSISTENT)
        bytes += 1; /* 4 bytes per 32 rays, rounded up */
    if (rs_deadray_is_compaction(d)) {
        bytes += 2 * 4 + 4; /* live index list, its double buffer, scan/temp array */
        if (payload)
            bytes += RS_RAY_STATE_BYTES_PER_RAY; /* the second RayState that rows are moved into */
        if (config->sort_rays)
            bytes += 2 * 4 + 4; /* keys, sorted keys, sort scratch (about a key per ray) */
    }
    return bytes;
}

int rs_backend_config_check(const RsBackendConfig* config, uint32_t accel, RsError* err)
{
    if (config->sort_rays && !rs_deadray_is_compaction(config->deadray))
        return rs_error_set(err, "--sort-rays sorts the live index list, which only the compaction strategies "
                                 "keep; use --deadray compact-scan, compact-block, compact-warp or compact-cub");
    if (config->trace_kernel == RS_TRACE_PERSISTENT && accel != RS_ACCEL_BVH8)
        return rs_error_set(err, "--trace-kernel persistent walks bvh8 only (the structure was built as %s)",
                            accel == RS_ACCEL_BVH2 ? "bvh2" : "grid");
    return 0;
}

const char* rs_trace_kernel_name(RsTraceKernel k)
{
    return k == RS_TRACE_PERSISTENT ? "persistent" : (k == RS_TRACE_PLAIN ? "plain" : "auto");
}

RsTraceKernel rs_trace_kernel_resolve(RsTraceKernel k, uint32_t accel, uint32_t depth)
{
    if (k != RS_TRACE_AUTO)
        return k;
    return accel == RS_ACCEL_BVH8 && depth >= 2 ? RS_TRACE_PERSISTENT : RS_TRACE_PLAIN;
}

int rs_trace_kernel_parse(const char* name, RsTraceKernel* out)
{
    if (strcmp(name, "auto") == 0)
        *out = RS_TRACE_AUTO;
    else if (strcmp(name, "plain") == 0)
        *out = RS_TRACE_PLAIN;
    else if (strcmp(name, "persistent") == 0)
        *out = RS_TRACE_PERSISTENT;
    else
        return -1;
    return 0;
}

RsBackend* rs_backend_create(const RsBackendConfig* config, RsError* err)
{
    switch (config->kind) {
    case RS_BACKEND_CPU:
        return rs_backend_cpu_create(config, err);
    case RS_BACKEND_CUDA:
        if (!rs_cuda_built()) {
            rs_error_set(err, "--backend cuda: this raystream was built without CUDA (rebuild with -Dcuda=enabled)");
            return NULL;
        }
        if (rs_cuda_device_count() <= 0) {
            rs_error_set(err, "--backend cuda: no CUDA device found (use --backend cpu or auto)");
            return NULL;
        }
        return rs_backend_cuda_create(config, err);
    case RS_BACKEND_AUTO:
    default:
        if (rs_cuda_built() && rs_cuda_device_count() > 0)
            return rs_backend_cuda_create(config, err);
        return rs_backend_cpu_create(config, err);
    }
}

void rs_backend_destroy(RsBackend* b)
{
    if (b)
        b->ops->destroy(b);
}
