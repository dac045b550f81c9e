/* backend_cuda.cu - the CUDA backend: scene and wave buffers in device memory, one kernel
 * launch per stage, the dead-ray strategy between bounces (docs/architecture.md, sections 4 and 5).
 *
 * Device-side host glue (nvcc). An instance drives one device (config.device): every entry
 * point makes it the calling thread's current device, and all work goes into the instance's
 * stream, so instances on different devices run side by side from different threads. Inside
 * the bounce loop the only synchronisation is read_counts' wait for the two counters (live
 * rays, shadow rays: 8 bytes) that drop_dead copies back, which the scheduler needs to size
 * the next launches and to stop when no ray is left.
 * Every CUDA call and launch is checked; a failure names the call, file:line, stage, depth and
 * sample (cuda_check.cuh). Memory is plain cudaMalloc, never managed memory; the wave size is
 * planned from cudaMemGetInfo (or --max-memory) so that a frame that does not fit is traced in
 * several waves.
 *
 * This file: the ops table, create and destroy, and rs_cuda_fail. The other entry points live
 * beside it by job (cuda_backend.cuh names the parts and holds the instance they share); the
 * scene's device arrays are listed once, in scene_arrays.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/backend/cuda_backend.cuh"

int rs_cuda_fail(const RsCudaContext* ctx, cudaError_t e, const char* call, const char* file, int line)
{
    const char* rel = strstr(file, "cuda/");
    if (ctx->depth > 0)
        return rs_error_set(ctx->err, "CUDA error in %s at %s:%d (stage %s, depth %u, sample %llu): %s (%s)", call,
                            rel ? rel : file, line, ctx->stage, ctx->depth,
                            ctx->pixels ? ctx->first_path / ctx->pixels : 0ull, cudaGetErrorString(e),
                            cudaGetErrorName(e));
    return rs_error_set(ctx->err, "CUDA error in %s at %s:%d (%s): %s (%s)", call, rel ? rel : file, line, ctx->stage,
                        cudaGetErrorString(e), cudaGetErrorName(e));
}

static void cuda_destroy(RsBackend* base)
{
    RsCudaBackend* b = cuda_backend(base);
    cudaSetDevice(b->device); /* frees below are on this instance's device; a failure leaves nothing to free */
    rs_cuda_backend_free_wave(b);
    rs_cuda_backend_free_particles(b);
    cudaFree(b->film);
    cudaFree(b->image);
    rs_denoise_scratch_gpu_free(&b->denoise);
    rs_display_scratch_free(&b->display);
    if (b->display_host)
        cudaHostUnregister(b->display_host);
    cudaFree(b->span_staging);
    if (b->counts_ready)
        cudaEventDestroy(b->counts_ready);
    if (b->bounce_start)
        cudaEventDestroy(b->bounce_start);
    if (b->bounce_end)
        cudaEventDestroy(b->bounce_end);
    cudaFree(b->counters);
    cudaFreeHost(b->host_counters);
    cudaFree(b->nonfinite_paths);
    for (int i = 0; i < RS_TIMING_MARKS; ++i) {
        if (b->marks[i].start)
            cudaEventDestroy(b->marks[i].start);
        if (b->marks[i].stop)
            cudaEventDestroy(b->marks[i].stop);
    }
    rs_cuda_backend_free_scene(b);
    if (b->stream)
        cudaStreamDestroy(b->stream);
    free(b);
}

static int cuda_finish(RsBackend* base, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "finish", err))
        return -1;
    RS_CUDA(&b->ctx, cudaStreamSynchronize(b->stream));
    return 0;
}

/* The table's figure less the alive flags that the stencil modes do without (alloc_wave,
 * wave_frame.cu, keeps only their stencil words; the flags mode and the compactions' keep array have one per row). */
static uint64_t cuda_bytes_per_path(const RsBackend* base)
{
    RsDeadRay d = base->config.deadray; /* auto keeps stencil words and the index list, no flags */
    int stencil = d == RS_DEADRAY_STENCIL || d == RS_DEADRAY_PERSISTENT || d == RS_DEADRAY_AUTO;
    return rs_wave_bytes_per_path(&base->config) - (stencil ? 4 : 0);
}

static const RsBackendOps cuda_ops = {
    /* .destroy = */ cuda_destroy,
    /* .set_scene = */ rs_cuda_backend_set_scene,
    /* .set_frame = */ rs_cuda_backend_set_frame,
    /* .generate = */ rs_cuda_backend_generate,
    /* .set_deadray = */ rs_cuda_backend_set_deadray,
    /* .bounce_seconds = */ rs_cuda_backend_bounce_seconds,
    /* .sort = */ rs_cuda_backend_sort,
    /* .sort_materials = */ rs_cuda_backend_sort_materials,
    /* .extend = */ rs_cuda_backend_extend,
    /* .shade = */ rs_cuda_backend_shade,
    /* .connect = */ rs_cuda_backend_connect,
    /* .drop_dead = */ rs_cuda_backend_drop_dead,
    /* .adaptive_update = */ rs_cuda_backend_adaptive_update,
    /* .read_counts = */ rs_cuda_backend_read_counts,
    /* .accumulate = */ rs_cuda_backend_accumulate,
    /* .read_film = */ rs_cuda_backend_read_film,
    /* .write_film = */ rs_cuda_backend_write_film,
    /* .read_film_span = */ rs_cuda_backend_read_film_span,
    /* .write_film_span = */ rs_cuda_backend_write_film_span,
    /* .make_image = */ rs_cuda_backend_make_image,
    /* .read_image = */ rs_cuda_backend_read_image,
    /* .display = */ rs_cuda_backend_display,
    /* .finish = */ cuda_finish,
    /* .take_stage_times = */ rs_cuda_backend_take_stage_times,
    /* .bytes_per_path = */ cuda_bytes_per_path,
    /* .read_nonfinite = */ rs_cuda_backend_read_nonfinite,
    /* .particle_resolve = */ rs_cuda_backend_particle_resolve,
    /* .sppm_update = */ rs_cuda_backend_sppm_update,
};

int rs_cuda_live_mode(RsDeadRay d)
{
    switch (d) {
    case RS_DEADRAY_FLAGS: return RS_LIVE_FLAGS;
    case RS_DEADRAY_STENCIL: return RS_LIVE_STENCIL;
    case RS_DEADRAY_PERSISTENT: return RS_LIVE_PERSISTENT;
    default: return RS_LIVE_INDEX;
    }
}

RsCompactMethod rs_cuda_compact_method(RsDeadRay d)
{
    switch (d) {
    case RS_DEADRAY_COMPACT_BLOCK: return RS_COMPACT_BLOCK;
    case RS_DEADRAY_COMPACT_WARP: return RS_COMPACT_WARP;
    case RS_DEADRAY_COMPACT_CUB: return RS_COMPACT_CUB;
    default: return RS_COMPACT_SCAN;
    }
}

/* Paths per wave: as many as an eighth of the device's memory holds, between 2^20 and 2^25.
 * Deep bounces keep few paths alive (Sponza at depth 8: 6% from the sixth bounce on, 1% at the
 * last), and only a large wave keeps an H100's 132 SMs busy through them; fewer waves also mean
 * fewer waits for the live counts. Sponza, 1080p, depth 8, 16 spp, compact-cub, on an H100:
 * 8.70, 9.28, 9.59 and 9.75 FPS with waves of 2^22, 2^23, 2^24 and 2^25 paths
 * (tools/bench/results/traversal, `bench-waves/`). The rest of the memory is left to the scene,
 * the film, the denoiser and other renderers (the benchmark keeps one per strategy). */
#define RS_CUDA_MIN_WAVE (1u << 20)
#define RS_CUDA_MAX_WAVE (1u << 25)

extern "C" RsBackend* rs_backend_cuda_create(const RsBackendConfig* config, RsError* err)
{
    RsCudaBackend* b = (RsCudaBackend*)calloc(1, sizeof *b);
    if (!b) {
        rs_error_set(err, "out of memory creating the CUDA backend");
        return NULL;
    }
    b->base.ops = &cuda_ops;
    b->base.config = *config;
    b->base.config.kind = RS_BACKEND_CUDA;
    /* auto starts from the stencil; the bounce loop picks before every generate and bounce */
    b->deadray = config->deadray == RS_DEADRAY_AUTO ? RS_DEADRAY_STENCIL : config->deadray;
    b->mode = rs_cuda_live_mode(b->deadray);
    b->method = rs_cuda_compact_method(b->deadray);
    snprintf(b->base.name, sizeof b->base.name, "cuda");
    b->ctx.stage = "setup";
    b->ctx.err = err;
    b->device = config->device;
    cudaDeviceProp prop;
    if (cudaSetDevice(b->device) != cudaSuccess || cudaGetDeviceProperties(&prop, b->device) != cudaSuccess ||
        cudaStreamCreateWithFlags(&b->stream, cudaStreamNonBlocking) != cudaSuccess ||
        cudaEventCreateWithFlags(&b->counts_ready, cudaEventDisableTiming) != cudaSuccess ||
        cudaMalloc((void**)&b->counters, RS_CTR_COUNT * sizeof(uint32_t)) != cudaSuccess ||
        cudaMemset(b->counters, 0, RS_CTR_COUNT * sizeof(uint32_t)) != cudaSuccess ||
        cudaMallocHost((void**)&b->host_counters, RS_CTR_COUNT * sizeof(uint32_t)) != cudaSuccess ||
        cudaMalloc((void**)&b->nonfinite_paths, sizeof(uint64_t)) != cudaSuccess ||
        cudaMemset(b->nonfinite_paths, 0, sizeof(uint64_t)) != cudaSuccess ||
        (config->deadray == RS_DEADRAY_AUTO && (cudaEventCreate(&b->bounce_start) != cudaSuccess ||
                                                cudaEventCreate(&b->bounce_end) != cudaSuccess))) {
        cudaError_t e = cudaGetLastError();
        rs_error_set(err, "CUDA: cannot set up device %d: %s (%s)", b->device, cudaGetErrorString(e),
                     cudaGetErrorName(e));
        cuda_destroy(&b->base);
        return NULL;
    }
    snprintf(b->base.device, sizeof b->base.device, "GPU %d: %s (%d SMs, sm_%d%d)", b->device, prop.name,
             prop.multiProcessorCount, prop.major, prop.minor);
    for (int i = 0; config->time_stages && i < RS_TIMING_MARKS; ++i) {
        if (cudaEventCreate(&b->marks[i].start) != cudaSuccess || cudaEventCreate(&b->marks[i].stop) != cudaSuccess) {
            rs_error_set(err, "CUDA: cannot create timing events");
            cuda_destroy(&b->base);
            return NULL;
        }
    }
    size_t free_bytes = 0, total = 0;
    if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess) {
        cudaError_t e = cudaGetLastError();
        rs_error_set(err, "CUDA: cannot read device %d's free memory: %s", b->device, cudaGetErrorString(e));
        cuda_destroy(&b->base);
        return NULL;
    }
    b->base.memory_budget = config->memory_limit && config->memory_limit < free_bytes ? config->memory_limit
                                                                                        : free_bytes / 10 * 9;
    uint64_t eighth = (uint64_t)total / 8 / cuda_bytes_per_path(&b->base) / 32 * 32;
    b->base.preferred_wave = (uint32_t)(eighth > RS_CUDA_MAX_WAVE   ? RS_CUDA_MAX_WAVE
                                        : eighth < RS_CUDA_MIN_WAVE ? RS_CUDA_MIN_WAVE
                                                                    : eighth);
    return &b->base;
}
