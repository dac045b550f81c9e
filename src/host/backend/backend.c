/* backend.c - dead-ray strategy properties (from deadray_table.h), memory per path and the
 * trace-kernel choice. Host C11. The factory is backend_factory.c. */
#include "host/backend/backend.h"

#include <string.h>

#include "kernel/accel/accel.h"

typedef struct DeadRayRow {
    const char* name;
    int compaction;
    uint32_t extra_bytes;
    uint32_t backends;
    const char* help;
} DeadRayRow;

static const DeadRayRow deadray_rows[RS_DEADRAY_COUNT] = {
#define RS_DEADRAY_ROW(id, name, compaction, bytes, backends, help) {name, compaction, bytes, backends, help},
    RS_DEADRAY_TABLE(RS_DEADRAY_ROW)
#undef RS_DEADRAY_ROW
};

static const char deadray_list[] = ""
#define RS_DEADRAY_LIST_ITEM(id, name, compaction, bytes, backends, help) ", " name
    RS_DEADRAY_TABLE(RS_DEADRAY_LIST_ITEM)
#undef RS_DEADRAY_LIST_ITEM
    ;

const char* rs_deadray_name(RsDeadRay d) { return d < RS_DEADRAY_COUNT ? deadray_rows[d].name : "?"; }

const char* rs_deadray_help(RsDeadRay d) { return d < RS_DEADRAY_COUNT ? deadray_rows[d].help : "?"; }

int rs_deadray_parse(const char* name, RsDeadRay* out)
{
    for (int i = 0; i < RS_DEADRAY_COUNT; ++i) {
        if (strcmp(name, deadray_rows[i].name) == 0) {
            *out = (RsDeadRay)i;
            return 0;
        }
    }
    return -1;
}

int rs_deadray_is_compaction(RsDeadRay d) { return d < RS_DEADRAY_COUNT && deadray_rows[d].compaction; }

int rs_deadray_supported(RsDeadRay d, RsBackendKind kind)
{
    if (d >= RS_DEADRAY_COUNT)
        return 0;
    uint32_t on = kind == RS_BACKEND_CPU ? RS_ON_CPU : (kind == RS_BACKEND_CUDA ? RS_ON_CUDA : RS_ON_CPU | RS_ON_CUDA);
    return (deadray_rows[d].backends & on) == on;
}

const char* rs_deadray_list(void) { return deadray_list + 2; /* past the leading ", " */ }

RsDeadRay rs_deadray_next(RsDeadRay d, RsBackendKind kind)
{
    for (int step = 1; step <= RS_DEADRAY_COUNT; ++step) {
        RsDeadRay next = (RsDeadRay)((d + step) % RS_DEADRAY_COUNT);
        if (rs_deadray_supported(next, kind))
            return next;
    }
    return d;
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
    kp->span_first_index = 0; /* the whole image until a wave names its span */
    kp->span_pixels = f->width * f->height;
}

uint64_t rs_wave_bytes_per_path(const RsBackendConfig* config)
{
    RsDeadRay d = config->deadray;
    int payload = config->payload;
    uint64_t bytes = RS_RAY_STATE_BYTES_PER_RAY + RS_SHADOW_STATE_BYTES_PER_RAY + 16 /* path radiance */;
    bytes += 4; /* alive flag (the flags strategy's state, and every compaction's input) */
    if (config->aovs)
        bytes += 3 * sizeof(RsFloat4); /* path_albedo, path_normal, path_position (aov.h) */
    if (d < RS_DEADRAY_COUNT)
        bytes += deadray_rows[d].extra_bytes;
    if (rs_deadray_is_compaction(d)) {
        if (payload)
            bytes += RS_RAY_STATE_BYTES_PER_RAY; /* the second RayState that rows are moved into */
        if (config->sort_rays)
            bytes += 2 * 4 + 4; /* keys, sorted keys, sort scratch (about a key per ray) */
    }
    return bytes;
}

int rs_denoise_settings_check(const RsDenoiseSettings* s, RsError* err)
{
    if (s->iterations < 1 || s->iterations > RS_DENOISE_MAX_ITERATIONS)
        return rs_error_set(err, "denoiser iterations must be 1 to %u (got %u)", RS_DENOISE_MAX_ITERATIONS,
                            s->iterations);
    if (!(s->sigma_luminance > 0.0f && s->sigma_normal >= 0.0f && s->sigma_depth > 0.0f) ||
        !rs_is_finite(s->sigma_luminance) || !rs_is_finite(s->sigma_normal) || !rs_is_finite(s->sigma_depth))
        return rs_error_set(err, "denoiser sigmas must be finite and positive");
    return 0;
}

static const struct {
    const char* name;
    const char* channels;
} layer_rows[RS_LAYER_COUNT] = {
#define RS_LAYER_ROW(id, name, channels, help) {name, channels},
    RS_LAYER_TABLE(RS_LAYER_ROW)
#undef RS_LAYER_ROW
};

const char* rs_layer_name(uint32_t layer) { return layer < RS_LAYER_COUNT ? layer_rows[layer].name : "(unknown)"; }

const char* rs_layer_channels(uint32_t layer) { return layer < RS_LAYER_COUNT ? layer_rows[layer].channels : ""; }

uint32_t rs_film_planes(const RsBackendConfig* config) { return config->aovs ? RS_FILM_PLANES_AOV : 1u; }

int rs_image_request_check(const RsBackendConfig* config, const RsImageRequest* request, RsError* err)
{
    if (request->layer >= RS_LAYER_COUNT)
        return rs_error_set(err, "internal error: layer %u", request->layer);
    if (request->denoise && request->layer != RS_LAYER_BEAUTY)
        return rs_error_set(err, "internal error: only the beauty layer is denoised");
    if (!config->aovs && (request->denoise || request->layer != RS_LAYER_BEAUTY))
        return rs_error_set(err, "internal error: AOVs or denoising asked of a film without AOVs");
    return request->denoise ? rs_denoise_settings_check(&request->denoiser, err) : 0;
}

RsImageRequest rs_display_image_request(const RsDisplaySettings* settings)
{
    RsImageRequest r;
    r.layer = settings->layer;
    r.for_display = 1;
    r.denoise = settings->denoise && settings->layer == RS_LAYER_BEAUTY; /* other layers show as they are */
    r.denoiser = rs_denoise_defaults();
    return r;
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
