/* denoise.cuh - the denoiser (src/kernel/film/denoise.h) and the AOV layer images (aov.h) on the
 * device: working buffers and launchers (kernel_denoise.cu). Device-side host glue (nvcc). */
#ifndef RS_CUDA_DENOISE_CUH
#define RS_CUDA_DENOISE_CUH

#include <cuda_runtime.h>

#include "kernel/film/denoise.h"

typedef struct RsDenoiseScratchGpu {
    RsFloat4 *guide, *factor, *moments, *lighting[2];
    uint32_t pixels;
} RsDenoiseScratchGpu;

/* Sized for `pixels`; keeps the buffers when they already are. */
cudaError_t rs_denoise_scratch_gpu_reserve(RsDenoiseScratchGpu* s, uint32_t pixels);
void rs_denoise_scratch_gpu_free(RsDenoiseScratchGpu* s);

/* Denoises an AOV film into out (width * height, rgb | 1): 3 + iterations launches. */
cudaError_t rs_launch_denoise(const RsFloat4* film, uint32_t width, uint32_t height, const RsDenoiseSettings* settings,
                              RsDenoiseScratchGpu* s, RsFloat4* out, cudaStream_t stream);

/* One layer of a film into out (rs_film_layer, or rs_film_layer_display when for_display). */
cudaError_t rs_launch_film_layer(const RsFloat4* film, uint32_t width, uint32_t height, uint32_t layer,
                                 int for_display, RsFloat4* out, cudaStream_t stream);

#endif /* RS_CUDA_DENOISE_CUH */
