/* stage_accumulate.h - wavefront stage 5: the wave's path radiance into the film.
 *
 * Shared header (gcc C11, g++, nvcc); wrapped by the CPU backend and cuda/kernel_accumulate.cu.
 * One call per pixel the wave touches, rs_accumulate_count of them: call `lane` starts at the
 * wave's slot `lane` and adds that pixel's paths (slots lane, lane + pixels, ...) in increasing
 * sample order. The sum for a pixel is therefore ((L_0 + L_1) + L_2) + ... whatever the wave
 * size, the strategy or the thread count: the film is bit-identical across all of them
 * (DESIGN.md section 3). The work is proportional to the wave, not to the image: a small wave
 * (--max-memory) touches only its own pixels.
 */
#ifndef RS_KERNEL_STAGE_ACCUMULATE_H
#define RS_KERNEL_STAGE_ACCUMULATE_H

#include "kernel_params.h"
#include "pixel_order.h"

/* How many accumulate calls a wave needs: one per pixel it touches. */
RS_FN uint32_t rs_accumulate_count(const RsKernelParams* kp)
{
    uint32_t pixel_count = rs_pixel_count(kp);
    return kp->wave_paths < pixel_count ? kp->wave_paths : pixel_count;
}

RS_FN void rs_stage_accumulate(const RsKernelParams* kp, uint32_t lane)
{
    uint32_t pixel_count = rs_pixel_count(kp);
    uint32_t index = (uint32_t)(kp->wave_first_path % pixel_count) + lane; /* pixel-order index of slot `lane` */
    if (index >= pixel_count)
        index -= pixel_count;
    uint32_t pixel = rs_pixel_of_index(index, kp->width, kp->height);
    RsFloat4 sum = kp->film[pixel];
    for (uint32_t slot = lane; slot < kp->wave_paths; slot += pixel_count) {
        RsFloat4 l = kp->path_radiance[slot];
        sum.x += l.x;
        sum.y += l.y;
        sum.z += l.z;
        sum.w += 1.0f;
    }
    kp->film[pixel] = sum;
}

#endif /* RS_KERNEL_STAGE_ACCUMULATE_H */
