/* denoise_cpu.h - the denoiser (src/kernel/film/denoise.h) and the AOV layers (src/kernel/film/aov.h) on
 * the host: for the CPU backend, for render's outputs, and as the reference that the CUDA
 * kernels are tested against. Host C11.
 */
#ifndef RS_HOST_DENOISE_CPU_H
#define RS_HOST_DENOISE_CPU_H

#include "host/backend/backend.h"
#include "host/util/error.h"
#include "host/util/thread_pool.h"

/* The denoiser's working buffers, kept between frames (the viewer denoises every one). */
typedef struct RsDenoiseScratch {
    RsFloat4 *guide, *factor, *moments, *lighting[2];
    uint32_t pixels;
} RsDenoiseScratch;

void rs_denoise_scratch_free(RsDenoiseScratch* scratch);

/* Denoises an AOV film (RS_FILM_PLANES_AOV planes of width * height) into out (width * height,
 * rgb | 1). pool may be NULL (this thread only). */
int rs_denoise_cpu(RsThreadPool* pool, const RsFloat4* film, uint32_t width, uint32_t height,
                   const RsDenoiseSettings* settings, RsDenoiseScratch* scratch, RsFloat4* out, RsError* err);

/* One layer of a film into out (width * height, rgb | 1; w 0 where a pixel has no samples):
 * rs_film_layer's values, or rs_film_layer_display's when for_display. */
void rs_film_layer_cpu(RsThreadPool* pool, const RsFloat4* film, uint32_t width, uint32_t height, uint32_t layer,
                       int for_display, RsFloat4* out);

#endif /* RS_HOST_DENOISE_CPU_H */
