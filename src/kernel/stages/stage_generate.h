/* stage_generate.h - wavefront stage 1: a camera ray for every path of the wave.
 *
 * Shared header (gcc C11, g++, nvcc); wrapped by the CPU backend and cuda/stages/kernel_generate.cu.
 * Runs once per wave over all slots; every path starts alive at depth 1 (the camera segment,
 * about to be traced) with unit throughput and zero radiance. Pixel positions are jittered
 * uniformly inside the pixel (a box filter, as smallpt and Mitsuba's "box" rfilter). A pass
 * visits the pixels in 8x4 tiles (pixel_order.h). With adaptive sampling, a path of a pixel that
 * has stopped (adaptive.h) is dead from the start: it gets zero radiance and a sample weight
 * of 0 (path_radiance.w), and the return value 0 tells the dead-ray strategy to drop it.
 * A particle wave (light tracing, SPPM's photon pass) starts its particles in stage_particle.h.
 */
#ifndef RS_KERNEL_STAGE_GENERATE_H
#define RS_KERNEL_STAGE_GENERATE_H

#include "kernel/film/adaptive.h"
#include "kernel/film/aov.h"
#include "kernel/film/pixel_order.h"
#include "kernel/sampling/sampler.h"
#include "kernel/stages/stage_particle.h"
#include "kernel/state/kernel_params.h"

/* Returns 1 when the path is alive, 0 when its pixel has stopped. */
RS_FN int rs_stage_generate(const RsKernelParams* kp, uint32_t slot)
{
    if (kp->particles.phase == RS_PHASE_PARTICLES) /* light tracing, SPPM's photons: stage_particle.h */
        return rs_stage_generate_particle(kp, slot);
    uint64_t l = kp->wave_first_path + slot;
    uint32_t pixel = rs_pixel_of_index(rs_span_index(kp, l), kp->width, kp->height);
    uint32_t sample = (uint32_t)(l / kp->span_pixels);
    if (rs_adaptive_stopped(kp, pixel)) {
        kp->path_radiance[slot] = rs_float4(0.0f, 0.0f, 0.0f, 0.0f);
        rs_aov_clear(kp, slot);
        return 0;
    }
    RsPathSampler ps = rs_sampler_path(kp->sampler, kp->seed, pixel, sample);

    float jitter_x, jitter_y, lens_u, lens_v;
    rs_sampler_2d(&ps, 0, RS_DIM_PIXEL_X, &jitter_x, &jitter_y);
    rs_sampler_2d(&ps, 0, RS_DIM_LENS_U, &lens_u, &lens_v);
    float film_x = (float)(pixel % kp->width) + jitter_x;
    float film_y = (float)(pixel / kp->width) + jitter_y;
    RsVec3 origin, dir;
    rs_camera_ray(&kp->camera, film_x, film_y, kp->width, kp->height, lens_u, lens_v, &origin, &dir);

    kp->rays.origin[slot] = rs_pack(origin, rs_uint_as_float(RS_NO_HIT)); /* leaves no primitive */
    kp->rays.direction[slot] = rs_pack(dir, RS_INFINITY);
    kp->rays.throughput[slot] = rs_float4(1.0f, 1.0f, 1.0f, 0.0f);
    kp->rays.path[slot] = rs_uint4(slot, pixel, 1u, sample);
    if (kp->scene.accel.inst.instance_count) /* leaves no instance either (two_level.h) */
        kp->rays.instance[slot] = rs_uint4(RS_NO_HIT, RS_NO_HIT, 0u, 0u);
    kp->path_radiance[slot] = rs_float4(0.0f, 0.0f, 0.0f, 1.0f);
    rs_aov_clear(kp, slot);
    return 1;
}

#endif /* RS_KERNEL_STAGE_GENERATE_H */
