/* adaptive.h - adaptive sampling: which pixels stop taking samples, decided from each pixel's
 * own film at fixed sample passes.
 *
 * Shared header (gcc C11, g++, nvcc). Adaptive sampling (render.noise_threshold > 0) runs on
 * the AOV film (aov.h), whose squares plane has each pixel's sum of squared luminance; the
 * albedo plane's w, unused by the albedo layer, keeps the pixel's bookkeeping:
 *   |w|    sample passes the pixel has been visited by (taken or skipped): what film_spans.h
 *          reads to know where a span stands, since the beauty's w counts samples taken;
 *   w < 0  the pixel has stopped.
 * A pixel is judged only at the end of a decision pass b (rs_adaptive_decides_at: b at least
 * min_spp and a multiple of rs_adaptive_step(b): every 4 passes up to 63, then every eighth of
 * the largest power of two below b, so a converged pixel takes at most about 1/8 more samples
 * than it needed and a long render is not cut into small waves) and only from its own planes, which then hold
 * exactly its samples 0 .. b-1: the bounce loop never lets a wave cross a decision pass and
 * judges the span's pixels when one ends there (wavefront.c). Nothing depends on the wave, the
 * device, the span cut, the strategy or another pixel, so adaptive images stay bit-identical
 * across all of them and across checkpoints (docs/architecture.md, section 8).
 *
 * The error is Cycles' kind of estimate: the standard error of the pixel's mean luminance over
 * the square root of that mean, sigma / sqrt(n) / sqrt(Y + 1e-4). It is relative error scaled
 * by sqrt(Y), so a dark pixel needs less relative precision than a bright one, roughly as the
 * eye does; 0.01 is a good start. A stopped pixel's later samples are dead rays at generate
 * (stage_generate.h): no ray is traced for them, and the dead-ray strategy drops them before
 * the first extend.
 */
#ifndef RS_KERNEL_ADAPTIVE_H
#define RS_KERNEL_ADAPTIVE_H

#include "kernel/film/aov.h"
#include "kernel/film/pixel_order.h"

/* The fewest passes between decisions. */
#define RS_ADAPTIVE_STEP 4u

/* Passes between the decisions around pass b (b >= 1): RS_ADAPTIVE_STEP, or an eighth of the
 * largest power of two not above b when that is more. A power of two, and never smaller for a
 * larger b, so rounding b up to a multiple of it lands on a decision (next_decision). */
RS_FN uint32_t rs_adaptive_step(uint32_t b)
{
    uint32_t p = 1u;
    while (p <= b / 2u)
        p *= 2u;
    return p / 8u > RS_ADAPTIVE_STEP ? p / 8u : RS_ADAPTIVE_STEP;
}

RS_FN int rs_adaptive_decides_at(uint32_t pass, uint32_t min_spp)
{
    return pass >= min_spp && pass >= 2u && pass % rs_adaptive_step(pass) == 0u;
}

/* The first decision pass after `pass` (pass itself excluded). */
RS_FN uint32_t rs_adaptive_next_decision(uint32_t pass, uint32_t min_spp)
{
    uint32_t b = pass + 1u;
    if (b < min_spp)
        b = min_spp;
    if (b < 2u)
        b = 2u;
    uint32_t step = rs_adaptive_step(b);
    return (b + step - 1u) / step * step;
}

/* The estimated error of a pixel's mean (above); +infinity below two samples. */
RS_FN float rs_adaptive_error(RsFloat4 beauty, RsFloat4 squares)
{
    float n = beauty.w;
    if (!(n >= 2.0f))
        return RS_INFINITY;
    float mean = rs_luminance(rs_xyz(beauty)) / n;
    float variance = rs_maxf(0.0f, (squares.w - n * mean * mean) / (n - 1.0f));
    return sqrtf(variance / n) / sqrtf(rs_maxf(mean, 0.0f) + 1e-4f);
}

/* Has the pixel stopped? Reads only its albedo plane (false without adaptive sampling). */
RS_FN int rs_adaptive_stopped(const RsKernelParams* kp, uint32_t pixel)
{
    return kp->noise_threshold > 0.0f && kp->film[(size_t)RS_PLANE_ALBEDO * rs_pixel_count(kp) + pixel].w < 0.0f;
}

/* Passes a pixel has been visited by, from its albedo plane's w. */
RS_FN float rs_adaptive_visits(float w) { return fabsf(w); }

/* Judges pixel `lane` of the span [kp->span_first_index, + kp->span_pixels) at the end of a
 * decision pass: stops it when its error is below the threshold. */
RS_FN void rs_adaptive_update(const RsKernelParams* kp, uint32_t lane)
{
    uint32_t pixels = rs_pixel_count(kp);
    uint32_t pixel = rs_pixel_of_index(kp->span_first_index + lane, kp->width, kp->height);
    RsFloat4* book = &kp->film[(size_t)RS_PLANE_ALBEDO * pixels + pixel];
    if (book->w < 0.0f)
        return;
    float error = rs_adaptive_error(kp->film[pixel], kp->film[(size_t)RS_PLANE_SQUARES * pixels + pixel]);
    if (error < kp->noise_threshold)
        book->w = -book->w;
}

#endif /* RS_KERNEL_ADAPTIVE_H */
