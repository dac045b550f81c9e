/* kernels.cuh - launchers of the stage kernels (kernel_<stage>.cu) and of the dead-ray
 * kernels (deadray_compact.cu). Each launcher picks its own launch shape for the strategy's
 * iteration mode and returns the launch's cudaError_t; the backend checks it with context.
 *
 * Every kernel takes the RsKernelParams by value as `const __grid_constant__`: the stage
 * functions take its address (const RsKernelParams*), and without the qualifier nvcc copies the
 * whole struct (about 1 KB) into every thread's local memory at the kernel's start. With it the
 * address points at the launch's parameter space: shade's stack frame fell from 1296 to 272
 * bytes (ptxas, sm_90), and no field added to RsKernelParams costs every thread a copy.
 *
 * Device-side host glue (nvcc).
 */
#ifndef RS_CUDA_KERNELS_CUH
#define RS_CUDA_KERNELS_CUH

#include <cuda_runtime.h>

#include "cuda/deadray/live_set.cuh"
#include "kernel/state/kernel_params.h"

#define RS_BLOCK 256

/* Blocks for `threads` threads (rounded up to whole warps). */
static inline unsigned rs_blocks_for(unsigned long long threads, unsigned block)
{
    unsigned long long warps = (threads + 31) / 32;
    return (unsigned)((warps * 32 + block - 1) / block);
}

/* Grid that just fills the current GPU with `kernel` at `block` threads: the persistent-threads size. */
unsigned rs_persistent_grid(const void* kernel, unsigned block);

/* Persistent grid sizes of one backend instance (so of one device), worked out on first use:
 * kernel state lives in the instance, never in function statics, so several devices of
 * different sizes can run side by side. */
#define RS_GRID_CACHE_SIZE 32
typedef struct RsGridCache {
    const void* kernel[RS_GRID_CACHE_SIZE];
    unsigned grid[RS_GRID_CACHE_SIZE];
    int count;
} RsGridCache;
unsigned rs_persistent_grid_cached(RsGridCache* cache, const void* kernel, unsigned block);

cudaError_t rs_launch_generate(const RsKernelParams& kp, const RsLiveSet& set, int mode, cudaStream_t stream);
/* `kind`: the structure to walk, as rs_accel_run_kind or rs_accel_camera_kind give it. */
cudaError_t rs_launch_extend(const RsKernelParams& kp, const RsLiveSet& set, uint32_t kind, int mode,
                             RsGridCache* grids, cudaStream_t stream);
/* A camera wave's own rays through bvh8's camera tree, by warp packets (kernel_extend_camera.cu). */
cudaError_t rs_launch_extend_camera(const RsKernelParams& kp, const RsLiveSet& set, int mode, cudaStream_t stream);
/* bvh8 only: persistent warps with dynamic fetch (kernel_extend_fetch.cu). */
cudaError_t rs_launch_extend_fetch(const RsKernelParams& kp, const RsLiveSet& set, int mode, RsGridCache* grids,
                                   cudaStream_t stream);
/* bvh8 only: one ray per thread, a warp's lanes stepping together (kernel_extend_fetch.cu). */
cudaError_t rs_launch_extend_warps(const RsKernelParams& kp, const RsLiveSet& set, int mode, cudaStream_t stream);
cudaError_t rs_launch_shade(const RsKernelParams& kp, const RsLiveSet& set, int mode, RsGridCache* grids,
                            cudaStream_t stream);
/* The film of a span in pass order, plane after plane, to or from a packed buffer (film_span.cu). */
cudaError_t rs_launch_film_span_gather(const RsFloat4* film, uint32_t width, uint32_t height, uint32_t planes,
                                       uint32_t first, uint32_t pixels, RsFloat4* packed, cudaStream_t stream);
cudaError_t rs_launch_film_span_scatter(RsFloat4* film, uint32_t width, uint32_t height, uint32_t planes,
                                        uint32_t first, uint32_t pixels, const RsFloat4* packed, cudaStream_t stream);
/* max_shadows: an upper bound (the rays that entered shade); the true count is on the device,
 * counters[RS_CTR_SHADOW]. persistent: flat bvh8 scenes trace them by persistent warps with
 * dynamic fetch (counters[RS_CTR_FETCH] is their ticket counter). */
cudaError_t rs_launch_connect(const RsKernelParams& kp, uint32_t* counters, uint32_t max_shadows, int persistent,
                              RsGridCache* grids, cudaStream_t stream);
cudaError_t rs_launch_accumulate(const RsKernelParams& kp, cudaStream_t stream);
/* Adaptive sampling: judges the span's pixels at a decision pass (kernel/film/adaptive.h). */
cudaError_t rs_launch_adaptive_update(const RsKernelParams& kp, uint32_t span_pixels, cudaStream_t stream);

#endif /* RS_CUDA_KERNELS_CUH */
