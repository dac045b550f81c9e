/* backend_cuda.cu - the CUDA backend: scene and wave buffers in device memory, one kernel
 * launch per stage, the dead-ray strategy between bounces (DESIGN.md section 4).
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
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/backend/accel_upload.cuh"
#include "cuda/backend/cuda_buffers.cuh"
#include "cuda/backend/cuda_check.cuh"
#include "cuda/backend/env_map_cdf.cuh"
#include "cuda/deadray/deadray_compact.cuh"
#include "cuda/post/denoise.cuh"
#include "cuda/post/display.cuh"
#include "cuda/stages/kernels.cuh"
#include "cuda/stages/ray_sort.cuh"

extern "C" {
#include "host/backend/backend.h"
}

#define RS_TIMING_MARKS 128

typedef struct RsCudaBackend {
    RsBackend base;
    RsCudaContext ctx;
    cudaStream_t stream;
    int device;
    int mode; /* RsLiveMode */
    RsCompactMethod method;

    /* scene (device copies) */
    RsCudaAccel accel;
    RsPrim* prims;
    RsMaterial* materials;
    RsShading* shading; /* NULL when the scene has no vertex normals */
    RsPointLight* point_lights;
    RsUint4* texture_descriptors;
    uint32_t* texels;
    float* srgb_to_linear;
    RsCutouts* cutouts; /* device copy, with device pointers; NULL without cut-outs */
    RsFloat4* env_texels; /* an environment map's image and the CDF built from it here */
    float* env_row_cdf;
    float* env_marginal_cdf;
    RsFloat4* lights;
    RsKernelParams kp; /* device pointers */

    /* wave */
    uint32_t capacity, film_pixels;
    RsRayStateSoA rays[2]; /* [1] only with payload compaction */
    RsShadowStateSoA shadows;
    RsFloat4* path_radiance;
    RsFloat4* path_aov[3]; /* with AOVs: path_albedo, path_normal, path_position (aov.h) */
    RsFloat4* film;        /* rs_film_planes planes of film_pixels */
    RsFloat4* image;       /* make_image's output (allocated on first use) */
    RsDenoiseScratchGpu denoise;
    uint32_t *alive, *stencil, *index[2], *keep, *counters;
    uint32_t* host_counters; /* pinned, RS_CTR_COUNT entries */
    RsCompactScratch scratch;
    RsSortScratch sort;
    RsDisplayScratch display;
    RsFloat4* span_staging; /* packed span film for read/write_film_span */
    uint32_t span_staging_capacity;
    cudaEvent_t counts_ready; /* recorded after drop_dead's counter copy */
    RsGridCache grids;        /* persistent grid sizes on this device */
    uint32_t paths;          /* rows of the current wave */
    uint32_t live;           /* rays alive entering the current bounce */

    /* stage timing (config.time_stages): event pairs, resolved in batches */
    struct {
        int stage;
        cudaEvent_t start, stop;
    } marks[RS_TIMING_MARKS];
    int mark_count;
    double stage_seconds[RS_STAGE_COUNT];
} RsCudaBackend;

static RsCudaBackend* cuda_backend(RsBackend* b) { return (RsCudaBackend*)b; }

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

/* Every entry point: names the stage for error messages and makes this instance's device the
 * calling thread's current one. */
static int enter(RsCudaBackend* b, const char* stage, RsError* err)
{
    b->ctx.stage = stage;
    b->ctx.err = err;
    RS_CUDA(&b->ctx, cudaSetDevice(b->device));
    return 0;
}

/* Resolves the recorded event pairs into per-stage seconds (waits for them). */
static int flush_marks(RsCudaBackend* b)
{
    if (b->mark_count == 0)
        return 0;
    RS_CUDA(&b->ctx, cudaEventSynchronize(b->marks[b->mark_count - 1].stop));
    for (int i = 0; i < b->mark_count; ++i) {
        float ms = 0.0f;
        RS_CUDA(&b->ctx, cudaEventElapsedTime(&ms, b->marks[i].start, b->marks[i].stop));
        b->stage_seconds[b->marks[i].stage] += ms * 1e-3;
    }
    b->mark_count = 0;
    return 0;
}

/* Brackets a stage's device work with events when stage timing is on. */
static int mark_begin(RsCudaBackend* b, int stage)
{
    if (!b->base.config.time_stages)
        return 0;
    if (b->mark_count == RS_TIMING_MARKS && flush_marks(b))
        return -1;
    b->marks[b->mark_count].stage = stage;
    RS_CUDA(&b->ctx, cudaEventRecord(b->marks[b->mark_count].start, b->stream));
    return 0;
}

static int mark_end(RsCudaBackend* b)
{
    if (!b->base.config.time_stages)
        return 0;
    RS_CUDA(&b->ctx, cudaEventRecord(b->marks[b->mark_count].stop, b->stream));
    b->mark_count++;
    return 0;
}

static RsLiveSet live_set(const RsCudaBackend* b)
{
    RsLiveSet s;
    s.alive = b->alive;
    s.stencil = b->stencil;
    s.index = b->index[0];
    s.keep = b->keep;
    s.counters = b->counters;
    s.n = b->mode == RS_LIVE_INDEX ? b->live : b->paths;
    return s;
}

unsigned rs_persistent_grid_cached(RsGridCache* cache, const void* kernel, unsigned block)
{
    for (int i = 0; i < cache->count; ++i)
        if (cache->kernel[i] == kernel)
            return cache->grid[i];
    unsigned grid = rs_persistent_grid(kernel, block);
    if (cache->count < RS_GRID_CACHE_SIZE) {
        cache->kernel[cache->count] = kernel;
        cache->grid[cache->count++] = grid;
    }
    return grid;
}

unsigned rs_persistent_grid(const void* kernel, unsigned block)
{
    int device = 0, sms = 0, per_sm = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, (int)block, 0) != cudaSuccess)
        return 1;
    return (unsigned)(sms * (per_sm > 0 ? per_sm : 1));
}

/* ---- buffers ---- */

static void free_wave(RsCudaBackend* b)
{
    rs_cuda_free_rays(&b->rays[0]);
    rs_cuda_free_rays(&b->rays[1]);
    rs_cuda_free_shadows(&b->shadows);
    cudaFree(b->path_radiance);
    for (int i = 0; i < 3; ++i)
        cudaFree(b->path_aov[i]);
    memset(b->path_aov, 0, sizeof b->path_aov);
    cudaFree(b->alive);
    cudaFree(b->stencil);
    cudaFree(b->index[0]);
    cudaFree(b->index[1]);
    cudaFree(b->keep);
    rs_compact_scratch_free(&b->scratch);
    rs_sort_scratch_free(&b->sort);
    b->path_radiance = NULL;
    b->alive = b->stencil = b->index[0] = b->index[1] = b->keep = NULL;
    b->capacity = 0;
}

static int alloc_wave(RsCudaBackend* b, uint32_t n)
{
    RsCudaContext* c = &b->ctx;
    size_t words = n / 32 + 1;
    RS_CUDA(c, rs_cuda_alloc_rays(&b->rays[0], n));
    RS_CUDA(c, rs_cuda_alloc_shadows(&b->shadows, n));
    RS_CUDA(c, cudaMalloc((void**)&b->path_radiance, (size_t)n * sizeof(RsFloat4)));
    for (int i = 0; i < 3 && b->base.config.aovs; ++i)
        RS_CUDA(c, cudaMalloc((void**)&b->path_aov[i], (size_t)n * sizeof(RsFloat4)));
    if (b->mode == RS_LIVE_FLAGS)
        RS_CUDA(c, cudaMalloc((void**)&b->alive, (size_t)n * sizeof(uint32_t)));
    if (b->mode == RS_LIVE_STENCIL || b->mode == RS_LIVE_PERSISTENT)
        RS_CUDA(c, cudaMalloc((void**)&b->stencil, words * sizeof(uint32_t)));
    if (b->mode == RS_LIVE_INDEX) {
        RS_CUDA(c, cudaMalloc((void**)&b->index[0], (size_t)n * sizeof(uint32_t)));
        RS_CUDA(c, cudaMalloc((void**)&b->index[1], (size_t)n * sizeof(uint32_t)));
        RS_CUDA(c, cudaMalloc((void**)&b->keep, (size_t)n * sizeof(uint32_t)));
        RS_CUDA(c, rs_compact_scratch_alloc(&b->scratch, n));
        if (b->base.config.sort_rays)
            RS_CUDA(c, rs_sort_scratch_alloc(&b->sort, n));
        if (b->base.config.payload)
            RS_CUDA(c, rs_cuda_alloc_rays(&b->rays[1], n));
    }
    b->capacity = n;
    return 0;
}

/* ---- operations ---- */

static void cuda_destroy(RsBackend* base)
{
    RsCudaBackend* b = cuda_backend(base);
    cudaSetDevice(b->device); /* frees below are on this instance's device; a failure leaves nothing to free */
    free_wave(b);
    cudaFree(b->film);
    cudaFree(b->image);
    rs_denoise_scratch_gpu_free(&b->denoise);
    rs_display_scratch_free(&b->display);
    cudaFree(b->span_staging);
    if (b->counts_ready)
        cudaEventDestroy(b->counts_ready);
    cudaFree(b->counters);
    cudaFreeHost(b->host_counters);
    for (int i = 0; i < RS_TIMING_MARKS; ++i) {
        if (b->marks[i].start)
            cudaEventDestroy(b->marks[i].start);
        if (b->marks[i].stop)
            cudaEventDestroy(b->marks[i].stop);
    }
    rs_cuda_accel_free(&b->accel);
    cudaFree(b->prims);
    cudaFree(b->materials);
    cudaFree(b->shading);
    cudaFree(b->point_lights);
    cudaFree(b->texture_descriptors);
    cudaFree(b->texels);
    cudaFree(b->srgb_to_linear);
    cudaFree(b->cutouts);
    cudaFree(b->env_texels);
    cudaFree(b->env_row_cdf);
    cudaFree(b->env_marginal_cdf);
    cudaFree(b->lights);
    if (b->stream)
        cudaStreamDestroy(b->stream);
    free(b);
}

template <class T>
static int upload(RsCudaBackend* b, T** dst, const T* src, size_t count)
{
    cudaFree(*dst);
    *dst = NULL;
    if (count == 0)
        return 0;
    RS_CUDA(&b->ctx, cudaMalloc((void**)dst, count * sizeof(T)));
    RS_CUDA(&b->ctx, cudaMemcpy(*dst, src, count * sizeof(T), cudaMemcpyHostToDevice));
    return 0;
}

/* The environment map's CDF, built here from the uploaded image by the GPU's own prefix sum
 * rather than copied from the host's (env_map_cdf.cu). */
static int upload_env_map_cdf(RsCudaBackend* b, const RsSceneView* scene)
{
    cudaFree(b->env_row_cdf);
    cudaFree(b->env_marginal_cdf);
    b->env_row_cdf = b->env_marginal_cdf = NULL;
    RsEnvMapView* map = &b->kp.scene.env_map;
    map->texels = b->env_texels;
    map->row_cdf = map->marginal_cdf = NULL;
    size_t cells = (size_t)scene->env_map.width * scene->env_map.height;
    if (cells == 0)
        return 0;
    RS_CUDA(&b->ctx, cudaMalloc((void**)&b->env_row_cdf, cells * sizeof(float)));
    RS_CUDA(&b->ctx, cudaMalloc((void**)&b->env_marginal_cdf, scene->env_map.height * sizeof(float)));
    RS_CUDA(&b->ctx, rs_cuda_env_cdf_build(map, b->env_row_cdf, b->env_marginal_cdf, b->stream));
    RS_CUDA(&b->ctx, cudaStreamSynchronize(b->stream));
    map->row_cdf = b->env_row_cdf;
    map->marginal_cdf = b->env_marginal_cdf;
    return 0;
}

static int cuda_set_scene(RsBackend* base, const RsSceneView* scene, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "scene upload", err))
        return -1;
    if (rs_backend_config_check(&base->config, scene->accel.kind, err))
        return -1;
    rs_cuda_accel_free(&b->accel);
    /* textures and the environment map are the parts of a scene that can outgrow the GPU on
     * their own: say so in their terms rather than as a failed cudaMalloc */
    const RsTextureView* tex = &scene->textures;
    uint64_t texel_count = tex->texel_count;
    uint64_t env_cells = (uint64_t)scene->env_map.width * scene->env_map.height;
    uint64_t image_bytes = texel_count * 4 + env_cells * (sizeof(RsFloat4) + sizeof(float)) + scene->env_map.height * 4;
    size_t free_before = 0, total_before = 0;
    RS_CUDA(&b->ctx, cudaMemGetInfo(&free_before, &total_before));
    if (image_bytes > free_before)
        return rs_error_set(err,
                            "the scene's %u textures and its %ux%u environment map need %.1f MiB on the GPU, which has "
                            "%.1f MiB free (of %.1f)",
                            tex->count, scene->env_map.width, scene->env_map.height, (double)image_bytes / 1048576.0,
                            (double)free_before / 1048576.0, (double)total_before / 1048576.0);
    RS_CUDA(&b->ctx, rs_cuda_accel_upload(&scene->accel, &b->accel));
    if (upload(b, &b->prims, scene->prims, scene->prim_count) ||
        upload(b, &b->materials, scene->materials, scene->material_count) ||
        upload(b, &b->shading, scene->shading, scene->shading ? scene->prim_count : 0) ||
        upload(b, &b->point_lights, scene->point_lights, scene->point_light_count) ||
        upload(b, &b->texture_descriptors, tex->descriptors, tex->count) ||
        upload(b, &b->texels, tex->texels, (size_t)texel_count) ||
        upload(b, &b->srgb_to_linear, tex->srgb_to_linear, tex->count ? 256 : 0) ||
        upload(b, &b->lights, scene->lights, scene->light_count) ||
        upload(b, &b->env_texels, scene->env_map.texels, (size_t)env_cells))
        return -1;
    b->kp.scene = *scene;
    b->kp.scene.accel = b->accel.view;
    b->kp.scene.prims = b->prims;
    b->kp.scene.materials = b->materials;
    b->kp.scene.shading = b->shading;
    b->kp.scene.point_lights = b->point_lights;
    b->kp.scene.textures.descriptors = b->texture_descriptors;
    b->kp.scene.textures.texels = b->texels;
    b->kp.scene.textures.srgb_to_linear = b->srgb_to_linear;
    cudaFree(b->cutouts);
    b->cutouts = NULL;
    if (rs_accel_has_cutouts(&scene->accel)) {
        RsCutouts c;
        c.prims = b->prims;
        c.materials = b->materials;
        c.shading = b->shading;
        c.textures = b->kp.scene.textures;
        if (upload(b, &b->cutouts, &c, 1))
            return -1;
        b->kp.scene.accel.bvh2.cutouts = b->kp.scene.accel.bvh8.cutouts = b->kp.scene.accel.grid.cutouts = b->cutouts;
    }
    b->kp.scene.lights = b->lights;
    if (upload_env_map_cdf(b, scene))
        return -1;
    /* what is left for wave buffers, keeping a margin for the film, CUB and the driver */
    size_t free_bytes = 0, total = 0;
    RS_CUDA(&b->ctx, cudaMemGetInfo(&free_bytes, &total));
    uint64_t margin = 256ull << 20;
    uint64_t available = free_bytes > margin ? free_bytes - margin : 0;
    base->memory_budget = base->config.memory_limit && base->config.memory_limit < available
                              ? base->config.memory_limit
                              : available;
    return 0;
}

static int cuda_set_frame(RsBackend* base, const RsFrameDesc* f, uint32_t wave_capacity, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "allocation", err))
        return -1;
    uint32_t pixels = f->width * f->height;
    if (wave_capacity != b->capacity) {
        free_wave(b);
        if (alloc_wave(b, wave_capacity)) {
            free_wave(b);
            size_t free_bytes = 0, total = 0;
            cudaMemGetInfo(&free_bytes, &total);
            rs_error_clear(err);
            return rs_error_set(err,
                                "CUDA: cannot allocate wave buffers for %u paths (%.1f MiB needed, %.1f MiB free of "
                                "%.1f MiB); try --max-memory to trace smaller waves",
                                wave_capacity,
                                (double)wave_capacity *
                                    (double)rs_wave_bytes_per_path(&base->config) /
                                    1048576.0,
                                free_bytes / 1048576.0, total / 1048576.0);
        }
    }
    size_t film_bytes = rs_film_planes(&base->config) * (size_t)pixels * sizeof(RsFloat4);
    if (pixels != b->film_pixels) {
        cudaFree(b->film);
        cudaFree(b->image);
        b->film = b->image = NULL;
        b->film_pixels = 0;
        RS_CUDA(&b->ctx, cudaMalloc((void**)&b->film, film_bytes));
        b->film_pixels = pixels;
    }
    RS_CUDA(&b->ctx, cudaMemsetAsync(b->film, 0, film_bytes, b->stream));
    RS_CUDA(&b->ctx, cudaMemsetAsync(b->counters, 0, RS_CTR_COUNT * sizeof(uint32_t), b->stream));
    rs_kernel_params_set_frame(&b->kp, f);
    b->kp.film = b->film;
    b->kp.path_radiance = b->path_radiance;
    b->kp.path_albedo = b->path_aov[0];
    b->kp.path_normal = b->path_aov[1];
    b->kp.path_position = b->path_aov[2];
    b->kp.shadows = b->shadows;
    b->kp.rays = b->rays[0];
    b->ctx.pixels = pixels;
    return 0;
}

static int cuda_generate(RsBackend* base, const RsWaveRange* wave, RsError* err)
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
    b->paths = b->live = paths;
    if (mark_begin(b, RS_STAGE_GENERATE))
        return -1;
    RS_CUDA(&b->ctx, rs_launch_generate(b->kp, live_set(b), b->mode, b->stream));
    return mark_end(b);
}

static int cuda_sort(RsBackend* base, RsError* err)
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

static int cuda_extend(RsBackend* base, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "extend", err))
        return -1;
    b->ctx.depth++;
    if (mark_begin(b, RS_STAGE_EXTEND))
        return -1;
    if (rs_trace_kernel_resolve(base->config.trace_kernel, b->kp.scene.accel.kind, b->ctx.depth) ==
        RS_TRACE_PERSISTENT)
        RS_CUDA(&b->ctx, rs_launch_extend_fetch(b->kp, live_set(b), b->mode, &b->grids, b->stream));
    else
        RS_CUDA(&b->ctx, rs_launch_extend(b->kp, live_set(b), b->mode, &b->grids, b->stream));
    return mark_end(b);
}

static int cuda_shade(RsBackend* base, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "shade", err))
        return -1;
    if (mark_begin(b, RS_STAGE_SHADE))
        return -1;
    RS_CUDA(&b->ctx, cudaMemsetAsync(&b->counters[RS_CTR_SHADOW], 0, sizeof(uint32_t), b->stream));
    RS_CUDA(&b->ctx, rs_launch_shade(b->kp, live_set(b), b->mode, &b->grids, b->stream));
    return mark_end(b);
}

static int cuda_connect(RsBackend* base, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "connect", err))
        return -1;
    /* at most one shadow ray per ray that entered shade */
    if (mark_begin(b, RS_STAGE_CONNECT))
        return -1;
    RS_CUDA(&b->ctx, rs_launch_connect(b->kp, &b->counters[RS_CTR_SHADOW], b->live, b->stream));
    return mark_end(b);
}

static int cuda_drop_dead(RsBackend* base, RsError* err)
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
    RS_CUDA(c, cudaEventRecord(b->counts_ready, b->stream));
    base->readback_bytes += 2 * sizeof(uint32_t);
    return 0;
}

static int cuda_read_counts(RsBackend* base, RsBounceCounts* counts, RsError* err)
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

static int cuda_accumulate(RsBackend* base, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "accumulate", err))
        return -1;
    b->ctx.depth = 0;
    if (mark_begin(b, RS_STAGE_ACCUMULATE))
        return -1;
    RS_CUDA(&b->ctx, rs_launch_accumulate(b->kp, b->stream));
    return mark_end(b);
}

static int cuda_read_film(RsBackend* base, RsFloat4* film, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "film read-back", err))
        return -1;
    size_t bytes = rs_film_planes(&base->config) * (size_t)b->film_pixels * sizeof(RsFloat4);
    RS_CUDA(&b->ctx, cudaMemcpyAsync(film, b->film, bytes, cudaMemcpyDeviceToHost, b->stream));
    RS_CUDA(&b->ctx, cudaStreamSynchronize(b->stream));
    base->readback_bytes += bytes;
    return 0;
}

static int cuda_write_film(RsBackend* base, const RsFloat4* film, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "film upload", err))
        return -1;
    RS_CUDA(&b->ctx, cudaMemcpyAsync(b->film, film, rs_film_planes(&base->config) * (size_t)b->film_pixels *
                                                         sizeof(RsFloat4),
                                     cudaMemcpyHostToDevice, b->stream));
    RS_CUDA(&b->ctx, cudaStreamSynchronize(b->stream));
    return 0;
}

/* Room for a span's packed film on the device. */
static int reserve_span_staging(RsCudaBackend* b, uint32_t pixels)
{
    if (pixels <= b->span_staging_capacity)
        return 0;
    cudaFree(b->span_staging);
    b->span_staging = NULL;
    b->span_staging_capacity = 0;
    RS_CUDA(&b->ctx, cudaMalloc((void**)&b->span_staging, (size_t)pixels * sizeof(RsFloat4)));
    b->span_staging_capacity = pixels;
    return 0;
}

static int cuda_read_film_span(RsBackend* base, uint32_t first, uint32_t pixels, RsFloat4* values, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    uint32_t planes = rs_film_planes(&base->config);
    if (enter(b, "film read-back", err) || reserve_span_staging(b, planes * pixels))
        return -1;
    RS_CUDA(&b->ctx, rs_launch_film_span_gather(b->film, b->kp.width, b->kp.height, planes, first, pixels,
                                                b->span_staging, b->stream));
    RS_CUDA(&b->ctx, cudaMemcpyAsync(values, b->span_staging, (size_t)planes * pixels * sizeof(RsFloat4),
                                     cudaMemcpyDeviceToHost, b->stream));
    RS_CUDA(&b->ctx, cudaStreamSynchronize(b->stream));
    base->readback_bytes += (uint64_t)planes * pixels * sizeof(RsFloat4);
    return 0;
}

static int cuda_write_film_span(RsBackend* base, uint32_t first, uint32_t pixels, const RsFloat4* values,
                                RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    uint32_t planes = rs_film_planes(&base->config);
    if (enter(b, "film upload", err) || reserve_span_staging(b, planes * pixels))
        return -1;
    RS_CUDA(&b->ctx, cudaMemcpyAsync(b->span_staging, values, (size_t)planes * pixels * sizeof(RsFloat4),
                                     cudaMemcpyHostToDevice, b->stream));
    RS_CUDA(&b->ctx, rs_launch_film_span_scatter(b->film, b->kp.width, b->kp.height, planes, first, pixels,
                                                 b->span_staging, b->stream));
    RS_CUDA(&b->ctx, cudaStreamSynchronize(b->stream));
    return 0;
}

/* Queues the image on the stream (display and read_image wait for it). */
static int make_image(RsCudaBackend* b, const RsImageRequest* request)
{
    if (rs_image_request_check(&b->base.config, request, b->ctx.err))
        return -1;
    if (!b->image)
        RS_CUDA(&b->ctx, cudaMalloc((void**)&b->image, (size_t)b->film_pixels * sizeof(RsFloat4)));
    if (request->denoise) {
        RS_CUDA(&b->ctx, rs_denoise_scratch_gpu_reserve(&b->denoise, b->film_pixels));
        RS_CUDA(&b->ctx, rs_launch_denoise(b->film, b->kp.width, b->kp.height, &request->denoiser, &b->denoise,
                                           b->image, b->stream));
    } else {
        RS_CUDA(&b->ctx, rs_launch_film_layer(b->film, b->kp.width, b->kp.height, request->layer,
                                              request->for_display, b->image, b->stream));
    }
    return 0;
}

static int cuda_make_image(RsBackend* base, const RsImageRequest* request, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, request->denoise ? "denoise" : "layer image", err))
        return -1;
    return make_image(b, request);
}

static int cuda_read_image(RsBackend* base, RsFloat4* image, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "image read-back", err))
        return -1;
    if (!b->image)
        return rs_error_set(err, "internal error: no image made yet");
    RS_CUDA(&b->ctx, cudaMemcpyAsync(image, b->image, (size_t)b->film_pixels * sizeof(RsFloat4),
                                     cudaMemcpyDeviceToHost, b->stream));
    RS_CUDA(&b->ctx, cudaStreamSynchronize(b->stream));
    base->readback_bytes += (uint64_t)b->film_pixels * sizeof(RsFloat4);
    return 0;
}

static int cuda_display(RsBackend* base, const RsDisplaySettings* settings, uint8_t* rgba, RsDisplayStats* stats,
                        RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "display", err))
        return -1;
    if (b->display.capacity != b->film_pixels) {
        rs_display_scratch_free(&b->display);
        RS_CUDA(&b->ctx, rs_display_scratch_alloc(&b->display, b->film_pixels));
    }
    const RsFloat4* source = b->film;
    RsImageRequest request = rs_display_image_request(settings);
    if (request.layer != RS_LAYER_BEAUTY || request.denoise) {
        if (make_image(b, &request))
            return -1;
        source = b->image;
    }
    RS_CUDA(&b->ctx, rs_launch_display(source, b->film_pixels, settings->exposure, settings->auto_exposure,
                                       settings->curve, &b->display, b->stream));
    RsDeviceDisplayStats d;
    RS_CUDA(&b->ctx, cudaMemcpyAsync(&d, b->display.stats, sizeof d, cudaMemcpyDeviceToHost, b->stream));
    RS_CUDA(&b->ctx, cudaMemcpyAsync(rgba, b->display.rgba, (size_t)b->film_pixels * 4, cudaMemcpyDeviceToHost,
                                     b->stream));
    RS_CUDA(&b->ctx, cudaStreamSynchronize(b->stream));
    base->readback_bytes += sizeof d + (uint64_t)b->film_pixels * 4;
    stats->log_average = d.log_average;
    stats->max_luminance = d.max_luminance;
    stats->exposure = d.exposure;
    stats->pixels = d.pixels;
    memcpy(stats->histogram, d.histogram, sizeof stats->histogram);
    return 0;
}

static int cuda_finish(RsBackend* base, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "finish", err))
        return -1;
    RS_CUDA(&b->ctx, cudaStreamSynchronize(b->stream));
    return 0;
}

static int cuda_take_stage_times(RsBackend* base, double seconds[RS_STAGE_COUNT], RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "stage timing", err))
        return -1;
    if (flush_marks(b))
        return -1;
    for (int s = 0; s < RS_STAGE_COUNT; ++s) {
        seconds[s] += b->stage_seconds[s];
        b->stage_seconds[s] = 0.0;
    }
    return 0;
}

/* The table's figure less the alive flags that the stencil modes do without (alloc_wave keeps
 * only their stencil words; the flags mode and the compactions' keep array have one per row). */
static uint64_t cuda_bytes_per_path(const RsBackend* base)
{
    const RsCudaBackend* b = (const RsCudaBackend*)base;
    int stencil = b->mode == RS_LIVE_STENCIL || b->mode == RS_LIVE_PERSISTENT;
    return rs_wave_bytes_per_path(&base->config) - (stencil ? 4 : 0);
}

static const RsBackendOps cuda_ops = {
    /* .destroy = */ cuda_destroy,
    /* .set_scene = */ cuda_set_scene,
    /* .set_frame = */ cuda_set_frame,
    /* .generate = */ cuda_generate,
    /* .sort = */ cuda_sort,
    /* .extend = */ cuda_extend,
    /* .shade = */ cuda_shade,
    /* .connect = */ cuda_connect,
    /* .drop_dead = */ cuda_drop_dead,
    /* .read_counts = */ cuda_read_counts,
    /* .accumulate = */ cuda_accumulate,
    /* .read_film = */ cuda_read_film,
    /* .write_film = */ cuda_write_film,
    /* .read_film_span = */ cuda_read_film_span,
    /* .write_film_span = */ cuda_write_film_span,
    /* .make_image = */ cuda_make_image,
    /* .read_image = */ cuda_read_image,
    /* .display = */ cuda_display,
    /* .finish = */ cuda_finish,
    /* .take_stage_times = */ cuda_take_stage_times,
    /* .bytes_per_path = */ cuda_bytes_per_path,
};

static int live_mode(RsDeadRay d)
{
    switch (d) {
    case RS_DEADRAY_FLAGS: return RS_LIVE_FLAGS;
    case RS_DEADRAY_STENCIL: return RS_LIVE_STENCIL;
    case RS_DEADRAY_PERSISTENT: return RS_LIVE_PERSISTENT;
    default: return RS_LIVE_INDEX;
    }
}

static RsCompactMethod compact_method(RsDeadRay d)
{
    switch (d) {
    case RS_DEADRAY_COMPACT_BLOCK: return RS_COMPACT_BLOCK;
    case RS_DEADRAY_COMPACT_WARP: return RS_COMPACT_WARP;
    case RS_DEADRAY_COMPACT_CUB: return RS_COMPACT_CUB;
    default: return RS_COMPACT_SCAN;
    }
}

/* Paths per wave: a few million keep an H100's 132 SMs busy through the deep, sparse bounces
 * while the buffers stay around a gigabyte. */
#define RS_CUDA_PREFERRED_WAVE (1u << 22)

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
    b->base.preferred_wave = RS_CUDA_PREFERRED_WAVE;
    b->mode = live_mode(config->deadray);
    b->method = compact_method(config->deadray);
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
        cudaMallocHost((void**)&b->host_counters, RS_CTR_COUNT * sizeof(uint32_t)) != cudaSuccess) {
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
    cudaMemGetInfo(&free_bytes, &total);
    b->base.memory_budget = config->memory_limit && config->memory_limit < free_bytes ? config->memory_limit
                                                                                        : free_bytes / 10 * 9;
    return &b->base;
}

extern "C" int rs_cuda_built(void) { return 1; }

extern "C" int rs_cuda_device_count(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError(); /* clear the sticky "no driver" error */
        return 0;
    }
    return n;
}

extern "C" int rs_cuda_describe(char* out, size_t size)
{
    int runtime = 0, driver = 0, n = 0;
    cudaRuntimeGetVersion(&runtime);
    cudaDriverGetVersion(&driver);
    cudaError_t e = cudaGetDeviceCount(&n);
    size_t used = (size_t)snprintf(out, size, "CUDA runtime %d.%d, driver %d.%d\n", runtime / 1000,
                                   runtime % 1000 / 10, driver / 1000, driver % 1000 / 10);
    if (e != cudaSuccess) {
        cudaGetLastError();
        snprintf(out + used, size > used ? size - used : 0, "no CUDA device: %s\n", cudaGetErrorString(e));
        return 0;
    }
    for (int i = 0; i < n && used < size; ++i) {
        cudaDeviceProp p;
        if (cudaGetDeviceProperties(&p, i) != cudaSuccess)
            continue;
        used += (size_t)snprintf(out + used, size - used,
                                 "CUDA device %d: %s, %d SMs, %.1f GiB, compute capability %d.%d, L2 %d MiB\n", i,
                                 p.name, p.multiProcessorCount, p.totalGlobalMem / 1073741824.0, p.major, p.minor,
                                 p.l2CacheSize >> 20);
    }
    return 0;
}

extern "C" int rs_cuda_device_info(int device, RsDeviceInfo* info)
{
    int n = 0;
    cudaDeviceProp p;
    if (cudaGetDeviceCount(&n) != cudaSuccess || device < 0 || device >= n ||
        cudaGetDeviceProperties(&p, device) != cudaSuccess) {
        cudaGetLastError();
        return -1;
    }
    memset(info, 0, sizeof *info);
    snprintf(info->name, sizeof info->name, "%s", p.name);
    info->sm_count = p.multiProcessorCount;
    info->cc_major = p.major;
    info->cc_minor = p.minor;
    info->memory_bytes = p.totalGlobalMem;
    cudaDriverGetVersion(&info->driver_version);
    cudaRuntimeGetVersion(&info->runtime_version);
    return 0;
}
