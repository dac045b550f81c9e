/* wave_frame.cu - the wave buffers (RayState, shadow queue, path radiance and AOVs, the
 * dead-ray strategy's live set and scratch) sized for the wave the scheduler plans, and
 * set_frame, which also sizes and clears the film and points the kernels' parameters at them.
 *
 * Device-side host glue (nvcc).
 */
#include <string.h>

#include "cuda/backend/cuda_backend.cuh"
#include "cuda/backend/cuda_buffers.cuh"

void rs_cuda_backend_free_wave(RsCudaBackend* b)
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
    RsDeadRay d = b->base.config.deadray; /* auto: what every strategy it may pick needs */
    int stencil = d == RS_DEADRAY_STENCIL || d == RS_DEADRAY_PERSISTENT || d == RS_DEADRAY_AUTO;
    int index = rs_deadray_may_compact(d);
    RS_CUDA(c, rs_cuda_alloc_rays(&b->rays[0], n, b->base.config.instances));
    RS_CUDA(c, rs_cuda_alloc_shadows(&b->shadows, n, b->base.config.instances, b->base.config.particles));
    RS_CUDA(c, cudaMalloc((void**)&b->path_radiance, (size_t)n * sizeof(RsFloat4)));
    for (int i = 0; i < 3 && b->base.config.aovs; ++i)
        RS_CUDA(c, cudaMalloc((void**)&b->path_aov[i], (size_t)n * sizeof(RsFloat4)));
    if (d == RS_DEADRAY_FLAGS)
        RS_CUDA(c, cudaMalloc((void**)&b->alive, (size_t)n * sizeof(uint32_t)));
    if (stencil)
        RS_CUDA(c, cudaMalloc((void**)&b->stencil, words * sizeof(uint32_t)));
    if (index) {
        RS_CUDA(c, cudaMalloc((void**)&b->index[0], (size_t)n * sizeof(uint32_t)));
        RS_CUDA(c, cudaMalloc((void**)&b->index[1], (size_t)n * sizeof(uint32_t)));
        RS_CUDA(c, cudaMalloc((void**)&b->keep, (size_t)n * sizeof(uint32_t)));
        RS_CUDA(c, rs_compact_scratch_alloc(&b->scratch, n));
        if (b->base.config.sort_rays || b->base.config.sort_materials)
            RS_CUDA(c, rs_sort_scratch_alloc(&b->sort, n));
        if (b->base.config.payload)
            RS_CUDA(c, rs_cuda_alloc_rays(&b->rays[1], n, b->base.config.instances));
    }
    b->capacity = n;
    return 0;
}

int rs_cuda_backend_set_frame(RsBackend* base, const RsFrameDesc* f, uint32_t wave_capacity, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "allocation", err))
        return -1;
    uint32_t pixels = f->width * f->height;
    if (wave_capacity != b->capacity) {
        rs_cuda_backend_free_wave(b);
        if (alloc_wave(b, wave_capacity)) {
            rs_cuda_backend_free_wave(b);
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
    RS_CUDA(&b->ctx, cudaMemsetAsync(b->nonfinite_paths, 0, sizeof(uint64_t), b->stream));
    rs_kernel_params_set_frame(&b->kp, f);
    b->kp.nonfinite_paths = b->nonfinite_paths;
    b->kp.film = b->film;
    b->kp.path_radiance = b->path_radiance;
    b->kp.path_albedo = b->path_aov[0];
    b->kp.path_normal = b->path_aov[1];
    b->kp.path_position = b->path_aov[2];
    b->kp.shadows = b->shadows;
    b->kp.rays = b->rays[0];
    b->ctx.pixels = pixels;
    b->in_wave = 0; /* a wave an error cut short leaves nothing to convert */
    return rs_cuda_backend_set_frame_particles(b, f);
}
