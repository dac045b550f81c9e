/* stage_accumulate.h - wavefront stage 5: the wave's path radiance into the film.
 *
 * Shared header (gcc C11, g++, nvcc); wrapped by the CPU backend and cuda/stages/kernel_accumulate.cu.
 * One call per pixel the wave touches, rs_accumulate_count of them: call `lane` starts at the
 * wave's slot `lane` and adds that pixel's paths (slots lane, lane + span pixels, ...) in increasing
 * sample order. The sum for a pixel is therefore ((L_0 + L_1) + L_2) + ... whatever the wave
 * size, the span, the device, the strategy or the thread count: the film is bit-identical across all of them
 * (docs/architecture.md, section 8). The work is proportional to the wave, not to the image: a small wave
 * (--max-memory) touches only its own pixels.
 *
 * A path whose radiance is not finite (NaN or infinity: a numerical accident the scattering
 * models and lights are meant to rule out) is dropped, as pbrt-v4 and Cycles do: it still
 * counts as a sample taken (w 1) but adds no radiance and no squares, so one bad sample cannot
 * blacken its pixel for good; kp->nonfinite_paths counts it, an integer sum whose value does
 * not depend on the order the threads add in. Light tracing's particles add w 1 each to the
 * pixel of their number (rgb 0: their light arrives through the splat film); SPPM's camera pass
 * adds its direct light to the SPPM state instead, and its photon pass nothing. The squares plane saturates at FLT_MAX rather
 * than overflow: a legal bright light (radiance up to 1e30) squares beyond float, and the
 * variance layer and adaptive sampling then read a huge variance, not infinity.
 */
#ifndef RS_KERNEL_STAGE_ACCUMULATE_H
#define RS_KERNEL_STAGE_ACCUMULATE_H

#include "kernel/film/aov.h"
#include "kernel/film/pixel_order.h"
#include "kernel/state/kernel_params.h"

/* How many accumulate calls a wave needs: one per pixel it touches. */
RS_FN uint32_t rs_accumulate_count(const RsKernelParams* kp)
{
    if (kp->integrator == RS_INTEGRATOR_SPPM && kp->particles.phase == RS_PHASE_PARTICLES)
        return 0; /* photons deposit into their queue; nothing per path */
    return kp->wave_paths < kp->span_pixels ? kp->wave_paths : kp->span_pixels;
}

/* The radiance a path adds: its own, or rgb 0 | its w when any channel is not finite. */
RS_FN RsFloat4 rs_accumulate_radiance(RsFloat4 l)
{
    if (rs_is_finite3(rs_xyz(l)))
        return l;
    return rs_float4(0.0f, 0.0f, 0.0f, l.w);
}

/* SPPM's camera pass: the direct light of the pixel's paths into the state's sum (w there is
 * the photon count N; the film's plane 0 is written by the pass's update, photon_grid.h). */
RS_FN void rs_accumulate_sppm(const RsKernelParams* kp, uint32_t lane, uint32_t pixel)
{
    RsFloat4 sum = kp->sppm_state[pixel];
    uint32_t dropped = 0;
    for (uint32_t slot = lane; slot < kp->wave_paths; slot += kp->span_pixels) {
        RsFloat4 l = kp->path_radiance[slot];
        if (!(rs_is_finite3(rs_xyz(l)))) {
            l = rs_accumulate_radiance(l);
            dropped++;
        }
        sum.x += l.x;
        sum.y += l.y;
        sum.z += l.z;
    }
    kp->sppm_state[pixel] = sum;
    if (dropped && kp->nonfinite_paths)
        rs_atomic_add_u64(kp->nonfinite_paths, dropped);
}

/* Adaptive sampling without AOVs (RsBackendConfig.film_stats): only what adaptive.h reads, the
 * squares plane and the albedo plane's visits, in the same order as rs_aov_accumulate's. */
RS_FN void rs_accumulate_stats(const RsKernelParams* kp, uint32_t lane, uint32_t pixel)
{
    uint32_t pixels = rs_pixel_count(kp);
    RsFloat4* squares = kp->film + (size_t)RS_PLANE_SQUARES * pixels + pixel;
    RsFloat4* book = kp->film + (size_t)RS_PLANE_ALBEDO * pixels + pixel;
    RsFloat4 sq = *squares;
    float visits = book->w;
    for (uint32_t slot = lane; slot < kp->wave_paths; slot += kp->span_pixels) {
        RsFloat4 l = rs_accumulate_radiance(kp->path_radiance[slot]);
        float lum = rs_luminance(rs_xyz(l));
        sq = rs_float4(rs_aov_add_square(sq.x, l.x), rs_aov_add_square(sq.y, l.y), rs_aov_add_square(sq.z, l.z),
                       rs_aov_add_square(sq.w, lum));
        visits = rs_film_visit(visits);
    }
    *squares = sq;
    book->w = visits;
}

RS_FN void rs_stage_accumulate(const RsKernelParams* kp, uint32_t lane)
{
    uint32_t span_pixels = kp->span_pixels;
    uint32_t pixel = rs_pixel_of_index(rs_span_index(kp, kp->wave_first_path + lane), kp->width, kp->height);
    if (kp->integrator == RS_INTEGRATOR_SPPM) {
        rs_accumulate_sppm(kp, lane, pixel);
        return;
    }
    RsFloat4 sum = kp->film[pixel];
    uint32_t dropped = 0;
    for (uint32_t slot = lane; slot < kp->wave_paths; slot += span_pixels) {
        RsFloat4 l = kp->path_radiance[slot];
        if (!(rs_is_finite3(rs_xyz(l)))) {
            l = rs_accumulate_radiance(l);
            dropped++;
        }
        sum.x += l.x;
        sum.y += l.y;
        sum.z += l.z;
        sum.w += l.w; /* 1 per sample taken; 0 for a stopped pixel's (adaptive.h) */
    }
    kp->film[pixel] = sum;
    if (dropped && kp->nonfinite_paths)
        rs_atomic_add_u64(kp->nonfinite_paths, dropped);
    if (!kp->path_albedo) {
        if (kp->noise_threshold > 0.0f)
            rs_accumulate_stats(kp, lane, pixel);
        return;
    }
    /* the AOV planes (aov.h), in the same order */
    uint32_t pixels = rs_pixel_count(kp);
    RsFloat4* plane = kp->film + pixel;
    RsFloat4 squares = plane[(size_t)RS_PLANE_SQUARES * pixels], albedo = plane[(size_t)RS_PLANE_ALBEDO * pixels];
    RsFloat4 normal = plane[(size_t)RS_PLANE_NORMAL * pixels], position = plane[(size_t)RS_PLANE_POSITION * pixels];
    for (uint32_t slot = lane; slot < kp->wave_paths; slot += span_pixels)
        rs_aov_accumulate(&squares, &albedo, &normal, &position, rs_accumulate_radiance(kp->path_radiance[slot]),
                          kp->path_albedo[slot],
                          kp->path_normal[slot], kp->path_position[slot]);
    plane[(size_t)RS_PLANE_SQUARES * pixels] = squares;
    plane[(size_t)RS_PLANE_ALBEDO * pixels] = albedo;
    plane[(size_t)RS_PLANE_NORMAL * pixels] = normal;
    plane[(size_t)RS_PLANE_POSITION * pixels] = position;
}

#endif /* RS_KERNEL_STAGE_ACCUMULATE_H */
