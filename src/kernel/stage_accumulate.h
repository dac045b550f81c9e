/* stage_accumulate.h - wavefront stage 5: the wave's path radiance into the film.
 *
 * Shared header (gcc C11, g++, nvcc); wrapped by the CPU backend and cuda/kernel_accumulate.cu.
 * One call per pixel adds that pixel's paths in increasing sample order. The sum for a pixel
 * is therefore ((L_0 + L_1) + L_2) + ... whatever the wave size, the strategy or the thread
 * count: the film is bit-identical across all of them (DESIGN.md section 3).
 */
#ifndef RS_KERNEL_STAGE_ACCUMULATE_H
#define RS_KERNEL_STAGE_ACCUMULATE_H

#include "kernel_params.h"
#include "pixel_order.h"

RS_FN void rs_stage_accumulate(const RsKernelParams* kp, uint32_t pixel)
{
    uint32_t pixel_count = rs_pixel_count(kp);
    uint32_t first = (uint32_t)(kp->wave_first_path % pixel_count);
    uint32_t index = rs_index_of_pixel(pixel, kp->width, kp->height);
    /* the first slot of the wave that belongs to this pixel (pixel_order.h) */
    uint32_t slot = index >= first ? index - first : index + pixel_count - first;
    if (slot >= kp->wave_paths)
        return;
    RsFloat4 sum = kp->film[pixel];
    for (; slot < kp->wave_paths; slot += pixel_count) {
        RsFloat4 l = kp->path_radiance[slot];
        sum.x += l.x;
        sum.y += l.y;
        sum.z += l.z;
        sum.w += 1.0f;
    }
    kp->film[pixel] = sum;
}

#endif /* RS_KERNEL_STAGE_ACCUMULATE_H */
