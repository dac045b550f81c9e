/* display.cuh - the display pipeline on the GPU (GPGPU seed: parallel reduction and histogram
 * by scatter): log-average and maximum luminance by a two-level reduction (warp shuffles and a
 * shared-memory tree per block, then one block over the block partials, in a fixed order so the
 * result does not change between runs), a luminance histogram by shared-memory atomics per
 * block flushed to global memory, and tone mapping to RGBA8 with the exposure computed on the
 * device (no read-back in between). Device-side host glue (nvcc). */
#ifndef RS_CUDA_DISPLAY_CUH
#define RS_CUDA_DISPLAY_CUH

#include <cuda_runtime.h>

#include "kernel/film/tonemap.h"

/* Device-side result of the reduction, read back with the image. */
typedef struct RsDeviceDisplayStats {
    double sum_log;
    double log_average;
    float max_luminance;
    float exposure;
    uint32_t pixels;
    uint32_t histogram[RS_HIST_BINS];
} RsDeviceDisplayStats;

#define RS_DISPLAY_MAX_BLOCKS 1024

typedef struct RsDisplayScratch {
    float* partial_sum;     /* per block */
    float* partial_max;
    uint32_t* partial_count; /* pixels with samples */
    uint32_t* partial_lit;   /* of which luminance > 0: the log-average's population */
    RsDeviceDisplayStats* stats;
    uint8_t* rgba;
    uint32_t capacity;      /* pixels */
} RsDisplayScratch;

cudaError_t rs_display_scratch_alloc(RsDisplayScratch* s, uint32_t pixels);
void rs_display_scratch_free(RsDisplayScratch* s);

/* Statistics into s->stats, then (if rgba) the tone-mapped image into s->rgba. */
cudaError_t rs_launch_display(const RsFloat4* film, uint32_t pixels, float manual_ev, int auto_exposure,
                              uint32_t curve, RsDisplayScratch* s, cudaStream_t stream);

#endif /* RS_CUDA_DISPLAY_CUH */
