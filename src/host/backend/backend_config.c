/* backend_config.c - what a backend configuration implies (see backend.h): whether its options
 * go together, the wave bytes per path it needs, and the kernel parameters a frame sets.
 * Host C11. */
#include "host/backend/backend.h"

#include "kernel/accel/accel.h"

void rs_kernel_params_set_frame(RsKernelParams* kp, const RsFrameDesc* f)
{
    kp->camera = f->camera;
    kp->width = f->width;
    kp->height = f->height;
    kp->seed = f->seed;
    kp->sampler = f->sampler;
    kp->max_depth = f->max_depth;
    kp->integrator = f->integrator;
    kp->rr_depth = f->rr_depth;
    kp->noise_threshold = f->noise_threshold;
    kp->min_spp = f->min_spp;
    kp->span_first_index = 0; /* the whole image until a wave names its span */
    kp->span_pixels = f->width * f->height;
    kp->particles.phase = RS_PHASE_CAMERA;
    kp->particles.per_pass = f->integrator == RS_INTEGRATOR_SPPM ? f->photons_per_pass : f->width * f->height;
    kp->particles.chunk_first_path = 0;
    kp->particles.sppm_alpha = f->sppm_alpha;
    kp->particles.sppm_radius = f->sppm_radius;
}

uint64_t rs_wave_bytes_per_path(const RsBackendConfig* config)
{
    RsDeadRay d = config->deadray;
    int payload = config->payload;
    uint64_t ray_bytes = config->instances ? RS_RAY_STATE_BYTES_PER_RAY : RS_RAY_STATE_CORE_BYTES_PER_RAY;
    uint64_t bytes = ray_bytes + 16 /* path radiance */;
    bytes += RS_SHADOW_STATE_CORE_BYTES_PER_RAY;
    if (config->instances)
        bytes += sizeof(RsUint4); /* the shadow queue's instance lane */
    if (config->particles)
        bytes += sizeof(RsUint4); /* its target lane (camera connections of light tracing) */
    bytes += 4; /* alive flag (the flags strategy's state, and every compaction's input) */
    if (config->aovs)
        bytes += 3 * sizeof(RsFloat4); /* path_albedo, path_normal, path_position (aov.h) */
    bytes += rs_deadray_extra_bytes(d);
    if (rs_deadray_may_compact(d)) {
        if (payload)
            bytes += ray_bytes; /* the second RayState that rows are moved into */
        if (config->sort_rays || config->sort_materials)
            bytes += 2 * 4 + 4; /* keys, sorted keys, sort scratch (about a key per ray) */
    }
    return bytes;
}

int rs_backend_config_check(const RsBackendConfig* config, uint32_t accel, RsError* err)
{
    if (config->sort_rays && !rs_deadray_may_compact(config->deadray))
        return rs_error_set(err, "--sort-rays sorts the live index list, which only the compaction strategies "
                                 "keep; use --deadray auto, compact-scan, compact-block, compact-warp or compact-cub");
    if (config->sort_materials && !rs_deadray_may_compact(config->deadray))
        return rs_error_set(err, "--sort-materials sorts the live index list, which only the compaction strategies "
                                 "keep; use --deadray auto, compact-scan, compact-block, compact-warp or compact-cub");
    if (config->schedule_length > RS_DEADRAY_SCHEDULE_MAX ||
        (config->schedule_length && config->deadray != RS_DEADRAY_AUTO))
        return rs_error_set(err, "internal error: a strategy schedule needs deadray auto and at most %d entries",
                            RS_DEADRAY_SCHEDULE_MAX);
    for (uint32_t i = 0; i < config->schedule_length; ++i) {
        RsDeadRay s = config->deadray_schedule[i];
        if (s == RS_DEADRAY_FLAGS || s == RS_DEADRAY_AUTO || !rs_deadray_supported(s, config->kind))
            return rs_error_set(err, "internal error: '%s' cannot be in a strategy schedule", rs_deadray_name(s));
    }
    if (config->trace_kernel == RS_TRACE_PERSISTENT && accel != RS_ACCEL_BVH8)
        return rs_error_set(err, "--trace-kernel persistent walks bvh8 only (the structure was built as %s)",
                            accel == RS_ACCEL_BVH2 ? "bvh2" : "grid");
    return 0;
}
