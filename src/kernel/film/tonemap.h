/* tonemap.h - from accumulated radiance to display bytes: luminance statistics for
 * auto-exposure and the histogram, and the tone curves. One definition for the PNG writer, the
 * CPU display path and the CUDA display kernels, so a viewer screenshot and an offline render
 * of the same film give the same bytes (up to one level where powf rounds differently).
 *
 * Shared header (gcc C11, g++, nvcc).
 *   exposure: pixels are multiplied by 2^ev before the curve;
 *   auto-exposure (Reinhard et al. 2002, "Photographic Tone Reproduction"): the log-average
 *     luminance Lw = exp(mean(log(delta + L))) is mapped to middle grey 0.18, i.e.
 *     ev_auto = log2(0.18 / Lw). The mean runs over lit pixels only (L > 0): pixels that are
 *     exactly black (background, Whitted's unlit shadows) would otherwise pull Lw towards delta
 *     and blow the rest of the image out;
 *   histogram: RS_HIST_BINS bins of log2 luminance over [RS_HIST_MIN_EV, RS_HIST_MAX_EV),
 *     clamped at both ends; black pixels go to bin 0.
 */
#ifndef RS_KERNEL_TONEMAP_H
#define RS_KERNEL_TONEMAP_H

#include "kernel/util/vecmath.h"

enum { RS_TONE_CLAMP = 0, RS_TONE_REINHARD = 1, RS_TONE_ACES = 2, RS_TONE_COUNT = 3 };

#define RS_HIST_BINS 64
#define RS_HIST_MIN_EV (-12.0f)
#define RS_HIST_MAX_EV 4.0f
#define RS_LOG_DELTA 1e-4f   /* keeps log() finite on black pixels */
#define RS_MIDDLE_GREY 0.18f

/* Exposure in stops: the manual value, plus the automatic one when asked for. */
RS_FN float rs_exposure_ev(float manual_ev, int auto_exposure, double log_average)
{
    if (auto_exposure && log_average > 0.0)
        return manual_ev + (float)log2(RS_MIDDLE_GREY / log_average);
    return manual_ev;
}

/* The pixel's mean radiance from a film entry (sum | count). */
RS_FN RsVec3 rs_film_pixel(RsFloat4 f)
{
    float inv = f.w > 0.0f ? 1.0f / f.w : 0.0f;
    RsVec3 c = rs_vec3(f.x * inv, f.y * inv, f.z * inv);
    /* a non-finite sample shows as black rather than poisoning statistics */
    if (!rs_is_finite3(c))
        return rs_vec3_splat(0.0f);
    return c;
}

RS_FN uint32_t rs_hist_bin(float luminance)
{
    if (!(luminance > 0.0f))
        return 0;
    float t = (log2f(luminance) - RS_HIST_MIN_EV) * ((float)RS_HIST_BINS / (RS_HIST_MAX_EV - RS_HIST_MIN_EV));
    return t <= 0.0f ? 0u : (t >= (float)(RS_HIST_BINS - 1) ? (uint32_t)(RS_HIST_BINS - 1) : (uint32_t)t);
}

RS_FN float rs_srgb_encode(float c)
{
    c = c <= 0.0f ? 0.0f : (c >= 1.0f ? 1.0f : c);
    return c <= 0.0031308f ? 12.92f * c : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
}

/* Narkowicz 2015, "ACES Filmic Tone Mapping Curve" (a fit of the ACES reference curve). */
RS_FN float rs_aces_fit(float x)
{
    x = x > 0.0f ? x : 0.0f;
    return (x * (2.51f * x + 0.03f)) / (x * (2.43f * x + 0.59f) + 0.14f);
}

/* scale = 2^(exposure); writes three 8-bit sRGB values. */
RS_FN void rs_tonemap_rgb(RsVec3 c, float scale, uint32_t curve, uint8_t* out)
{
    c = rs_scale(c, scale);
    if (curve == RS_TONE_REINHARD) {
        float lum = rs_luminance(c); /* L / (1 + L) on luminance, hue kept */
        c = rs_scale(c, lum > 0.0f ? 1.0f / (1.0f + lum) : 1.0f);
    } else if (curve == RS_TONE_ACES) {
        c = rs_vec3(rs_aces_fit(c.x), rs_aces_fit(c.y), rs_aces_fit(c.z));
    }
    out[0] = (uint8_t)(255.0f * rs_srgb_encode(c.x) + 0.5f);
    out[1] = (uint8_t)(255.0f * rs_srgb_encode(c.y) + 0.5f);
    out[2] = (uint8_t)(255.0f * rs_srgb_encode(c.z) + 0.5f);
}

#endif /* RS_KERNEL_TONEMAP_H */
