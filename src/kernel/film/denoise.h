/* denoise.h - the denoiser: an edge-avoiding a-trous wavelet filter (Dammertz, Sewtz, Hanika,
 * Lensch, "Edge-Avoiding A-Trous Wavelet Transform for fast Global Illumination Filtering",
 * HPG 2010) steered by a per-pixel variance estimate in the manner of SVGF's spatial filter
 * (Schied et al., "Spatiotemporal Variance-Guided Filtering", HPG 2017).
 *
 * Shared header (gcc C11, g++, nvcc): per-pixel functions that src/host/backend/cpu/denoise_cpu.c loops
 * over the thread pool and cuda/post/kernel_denoise.cu launches, one pass per function, over an AOV
 * film (aov.h). Passes:
 *   1. prepare: each pixel's mean colour c is divided by its albedo a' (demodulation: texture
 *      detail is not blurred, only lighting), its guides (unit normal, depth, depth gradient)
 *      and luminance moments are computed. a' is the albedo where a channel is at least
 *      RS_DENOISE_MIN_ALBEDO and 1 elsewhere (emitters, the sky, black surfaces).
 *   2. variance: the variance of the pixel's mean luminance, s^2 / n. With fewer than
 *      RS_DENOISE_MIN_SAMPLES samples a pixel's own s^2 is unreliable (and absent at 1 spp),
 *      so s^2 is pooled over its 5x5 neighbours with the same surface (SVGF's fallback).
 *   3. `iterations` a-trous steps, step 2^i: a 5x5 B3-spline kernel (1, 4, 6, 4, 1) / 16 with
 *      holes, each tap weighted by
 *        normal    max(0, n_p . n_q)^sigma_normal
 *        depth     exp(-|z_p - z_q| / (sigma_depth |grad z_p| |p - q| + 1e-3 z_p))
 *        luminance exp(-|l_p - l_q| / (sigma_luminance sqrt(g(var_p)) + 1e-10)), g a 3x3
 *                  Gaussian of the variance: noisy pixels accept more, converged ones less.
 *      The variance is filtered along with the colour, with squared weights, so each step
 *      trusts the image a little more (SVGF).
 *   4. finish: out = c + a' (i - i_0), the filtered lighting remodulated; written as a
 *      difference from the input so that an image that is already smooth comes out unchanged
 *      to the bit (every step filters differences i_q - i_p, which are 0 there).
 * A pixel with no samples or a non-finite value is left out of every filter (weight 0) and
 * takes its neighbours' value; no pass divides by a sum that can be 0 or produces NaN or Inf.
 */
#ifndef RS_KERNEL_DENOISE_H
#define RS_KERNEL_DENOISE_H

#include "kernel/film/aov.h"

#define RS_DENOISE_MIN_ALBEDO 0.01f
#define RS_DENOISE_MIN_SAMPLES 4.0f
#define RS_DENOISE_MAX_ITERATIONS 8u

typedef struct RsDenoiseSettings {
    uint32_t iterations;   /* a-trous steps (footprint 4 * 2^iterations + 1 pixels) */
    float sigma_luminance; /* how many standard deviations of noise a tap may differ by */
    float sigma_normal;    /* exponent on the normals' cosine */
    float sigma_depth;     /* how many depth-gradient steps a tap may differ by */
} RsDenoiseSettings;

/* SVGF's published parameters (5 steps, 4, 128, 1). */
RS_FN RsDenoiseSettings rs_denoise_defaults(void)
{
    RsDenoiseSettings s;
    s.iterations = 5u;
    s.sigma_luminance = 4.0f;
    s.sigma_normal = 128.0f;
    s.sigma_depth = 1.0f;
    return s;
}

/* The denoiser's buffers: each width * height RsFloat4, pixel order (y * width + x). */
typedef struct RsDenoiseBuffers {
    uint32_t width, height;
    const RsFloat4* film; /* RS_FILM_PLANES_AOV planes (aov.h) */
    RsFloat4* guide;      /* unit normal (0: none) | depth (0: no hit) */
    RsFloat4* factor;     /* demodulation albedo a' | |grad depth| per pixel */
    RsFloat4* moments;    /* mean luminance | mean luminance^2 | samples | unused */
    RsFloat4* lighting[2]; /* ping-pong: demodulated colour | variance (-1: left out) */
    RsFloat4* out;        /* denoised colour | 1 */
} RsDenoiseBuffers;

/* A pixel's mean colour and demodulation albedo, and whether it takes part (samples, finite
 * colour). A pixel left out keeps its albedo when that is known, so that it is remodulated
 * like its surface; without samples it shows its neighbours' lighting. */
RS_FN int rs_denoise_input(const RsDenoiseBuffers* d, uint32_t pixel, RsVec3* colour, RsVec3* factor)
{
    uint32_t pixels = d->width * d->height;
    RsFloat4 b = d->film[pixel];
    RsVec3 a = rs_xyz(d->film[(size_t)RS_PLANE_ALBEDO * pixels + pixel]);
    *colour = rs_vec3_splat(0.0f);
    *factor = rs_vec3_splat(1.0f);
    if (!(b.w > 0.0f))
        return 0;
    float inv = 1.0f / b.w;
    a = rs_scale(a, inv);
    if (rs_is_finite3(a))
        *factor = rs_vec3(a.x >= RS_DENOISE_MIN_ALBEDO ? a.x : 1.0f, a.y >= RS_DENOISE_MIN_ALBEDO ? a.y : 1.0f,
                          a.z >= RS_DENOISE_MIN_ALBEDO ? a.z : 1.0f);
    RsVec3 c = rs_scale(rs_xyz(b), inv);
    if (!rs_is_finite3(c))
        return 0;
    *colour = c;
    return 1;
}

/* Mean camera-space depth of a pixel's hits; 0 where none hit (or the value is not finite). */
RS_FN float rs_denoise_depth(const RsDenoiseBuffers* d, uint32_t x, uint32_t y)
{
    uint32_t pixels = d->width * d->height, pixel = y * d->width + x;
    float hits = d->film[(size_t)RS_PLANE_NORMAL * pixels + pixel].w;
    float z = hits > 0.0f ? d->film[(size_t)RS_PLANE_POSITION * pixels + pixel].w / hits : 0.0f;
    return rs_is_finite(z) && z > 0.0f ? z : 0.0f;
}

/* The smaller one-sided difference along an axis (the larger one crosses an edge, if any). */
RS_FN float rs_denoise_slope(float z, float before, float after)
{
    float a = before > 0.0f ? fabsf(z - before) : RS_INFINITY;
    float b = after > 0.0f ? fabsf(after - z) : RS_INFINITY;
    float s = rs_minf(a, b);
    return s == RS_INFINITY ? 0.0f : s;
}

/* Pass 1. */
RS_FN void rs_denoise_prepare(const RsDenoiseBuffers* d, uint32_t x, uint32_t y)
{
    uint32_t w = d->width, h = d->height, pixel = y * w + x, pixels = w * h;
    RsVec3 c, a;
    int valid = rs_denoise_input(d, pixel, &c, &a);
    RsFloat4 nsum = d->film[(size_t)RS_PLANE_NORMAL * pixels + pixel];
    float len = rs_length(rs_xyz(nsum));
    RsVec3 n = valid && len > 1e-6f && rs_is_finite(len) ? rs_scale(rs_xyz(nsum), 1.0f / len) : rs_vec3_splat(0.0f);
    float z = valid ? rs_denoise_depth(d, x, y) : 0.0f, slope = 0.0f;
    if (z > 0.0f) {
        float gx = rs_denoise_slope(z, x > 0 ? rs_denoise_depth(d, x - 1, y) : 0.0f,
                                    x + 1 < w ? rs_denoise_depth(d, x + 1, y) : 0.0f);
        float gy = rs_denoise_slope(z, y > 0 ? rs_denoise_depth(d, x, y - 1) : 0.0f,
                                    y + 1 < h ? rs_denoise_depth(d, x, y + 1) : 0.0f);
        slope = sqrtf(gx * gx + gy * gy);
    }
    float samples = d->film[pixel].w;
    float lum = rs_luminance(c);
    float lum2 = valid ? d->film[(size_t)RS_PLANE_SQUARES * pixels + pixel].w / samples : 0.0f;
    d->guide[pixel] = rs_pack(n, z);
    d->factor[pixel] = rs_pack(a, slope);
    d->moments[pixel] = valid && rs_is_finite(lum2) ? rs_float4(lum, lum2, samples, 0.0f) : rs_float4(0, 0, 0, 0);
    d->lighting[0][pixel] = valid ? rs_float4(c.x / a.x, c.y / a.y, c.z / a.z, 0.0f) : rs_float4(0, 0, 0, -1.0f);
}

/* The weights' transcendental functions: on the GPU the special-function unit's (__log2f,
 * __fdividef: about 2 ulp; exp2f is already one SFU instruction there), on the host libm's. The a-trous steps are bound by
 * instruction issue (Nsight Compute on an H100 at 1920x1080: SM throughput 83-85%, memory 24%),
 * and the weights need no more precision; CPU and GPU then agree to about 1e-5 relative. */
RS_FN float rs_denoise_log2(float x)
{
#if RS_DEVICE_CODE
    return __log2f(x);
#else
    return log2f(x);
#endif
}

RS_FN float rs_denoise_div(float a, float b)
{
#if RS_DEVICE_CODE
    return __fdividef(a, b);
#else
    return a / b;
#endif
}

#define RS_DENOISE_LOG2E 1.4426950408889634f
#define RS_DENOISE_NEVER (-1e30f) /* a log2 weight that exp2 turns into 0 */

/* How much two pixels' surfaces agree, as log2 of the weight (0: same, RS_DENOISE_NEVER:
 * different), so that a tap's weights multiply as one exp2:
 *   normals   sigma_normal log2 max(0, n_p . n_q)
 *   depths    -|z_p - z_q| / (sigma_depth |grad z_p| distance + 1e-3 z_p) log2(e) */
RS_FN float rs_denoise_geometry_log2(const RsDenoiseSettings* s, RsFloat4 gp, RsFloat4 gq, float slope_p,
                                     float distance)
{
    RsVec3 np = rs_xyz(gp), nq = rs_xyz(gq);
    int has_p = !rs_is_black(np), has_q = !rs_is_black(nq);
    if (has_p != has_q || (gp.w > 0.0f) != (gq.w > 0.0f))
        return RS_DENOISE_NEVER;
    float l = 0.0f;
    if (has_p) {
        float c = rs_dot(np, nq);
        if (!(c > 0.0f))
            return RS_DENOISE_NEVER;
        l = s->sigma_normal * rs_denoise_log2(c);
    }
    if (gp.w > 0.0f)
        l -= RS_DENOISE_LOG2E *
             rs_denoise_div(fabsf(gp.w - gq.w), s->sigma_depth * slope_p * distance + 1e-3f * gp.w);
    return l;
}

/* Pass 2: the variance of the pixel's mean (in demodulated units) into lighting[0].w. */
RS_FN void rs_denoise_variance(const RsDenoiseBuffers* d, const RsDenoiseSettings* s, uint32_t x, uint32_t y)
{
    uint32_t w = d->width, h = d->height, pixel = y * w + x;
    RsFloat4 l = d->lighting[0][pixel];
    if (l.w < 0.0f)
        return;
    RsFloat4 m = d->moments[pixel];
    float n = m.z, s2;
    if (n >= RS_DENOISE_MIN_SAMPLES) {
        s2 = rs_maxf(0.0f, m.y - m.x * m.x) * n / (n - 1.0f);
    } else {
        RsFloat4 gp = d->guide[pixel];
        float slope = d->factor[pixel].w, m1 = 0.0f, m2 = 0.0f, total = 0.0f;
        for (int dy = -2; dy <= 2; ++dy)
            for (int dx = -2; dx <= 2; ++dx) {
                int qx = (int)x + dx, qy = (int)y + dy;
                if (qx < 0 || qy < 0 || qx >= (int)w || qy >= (int)h)
                    continue;
                uint32_t q = (uint32_t)qy * w + (uint32_t)qx;
                RsFloat4 mq = d->moments[q];
                if (!(mq.z > 0.0f))
                    continue;
                float wq = mq.z * exp2f(rs_denoise_geometry_log2(
                                      s, gp, d->guide[q], slope, sqrtf((float)(dx * dx + dy * dy))));
                m1 += wq * mq.x;
                m2 += wq * mq.y;
                total += wq;
            }
        s2 = total > 0.0f ? rs_maxf(0.0f, m2 / total - (m1 / total) * (m1 / total)) : 0.0f;
    }
    float a = rs_maxf(rs_luminance(rs_xyz(d->factor[pixel])), RS_DENOISE_MIN_ALBEDO);
    float v = s2 / n / (a * a);
    d->lighting[0][pixel].w = rs_is_finite(v) ? v : 0.0f;
}

/* B3-spline weights (1, 4, 6, 4, 1) / 16 for offsets -2 .. 2. */
RS_FN float rs_denoise_b3(int k) { return k == 0 ? 0.375f : (k == 1 || k == -1 ? 0.25f : 0.0625f); }

/* Pass 3, one step: lighting[from] -> lighting[1 - from], taps 2^step_log2 pixels apart. */
RS_FN void rs_denoise_atrous(const RsDenoiseBuffers* d, const RsDenoiseSettings* s, uint32_t from,
                             uint32_t step_log2, uint32_t x, uint32_t y)
{
    uint32_t w = d->width, h = d->height, pixel = y * w + x;
    int step = 1 << step_log2;
    const RsFloat4* in = d->lighting[from];
    RsFloat4 ip = in[pixel];
    int valid = ip.w >= 0.0f;
    RsFloat4 gp = d->guide[pixel];
    float slope = d->factor[pixel].w;
    /* g(var_p): 3x3 Gaussian (1 2 1 / 2 4 2 / 1 2 1) / 16 over the pixels that take part */
    float gsum = 0.0f, gw = 0.0f;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            int qx = (int)x + dx, qy = (int)y + dy;
            if (qx < 0 || qy < 0 || qx >= (int)w || qy >= (int)h)
                continue;
            float v = in[(uint32_t)qy * w + (uint32_t)qx].w;
            float k = (dx == 0 ? 2.0f : 1.0f) * (dy == 0 ? 2.0f : 1.0f);
            if (v >= 0.0f) {
                gsum += k * v;
                gw += k;
            }
        }
    float lum_p = rs_luminance(rs_xyz(ip));
    /* log2 of the luminance weight per unit of |l_p - l_q| */
    float lum_rate = -RS_DENOISE_LOG2E / (s->sigma_luminance * sqrtf(gw > 0.0f ? gsum / gw : 0.0f) + 1e-10f);
    float c0 = rs_denoise_b3(0) * rs_denoise_b3(0);
    float total = valid ? c0 : 0.0f, var = valid ? c0 * c0 * ip.w : 0.0f;
    RsVec3 diff = rs_vec3_splat(0.0f);
    for (int dy = -2; dy <= 2; ++dy)
        for (int dx = -2; dx <= 2; ++dx) {
            int qx = (int)x + dx * step, qy = (int)y + dy * step;
            if ((dx == 0 && dy == 0) || qx < 0 || qy < 0 || qx >= (int)w || qy >= (int)h)
                continue;
            uint32_t q = (uint32_t)qy * w + (uint32_t)qx;
            RsFloat4 iq = in[q];
            if (iq.w < 0.0f)
                continue;
            float wq = rs_denoise_b3(dx) * rs_denoise_b3(dy);
            if (valid) /* normal, depth and luminance weights: one exp2 */
                wq *= exp2f(rs_denoise_geometry_log2(s, gp, d->guide[q], slope,
                                                               (float)step * sqrtf((float)(dx * dx + dy * dy))) +
                                      lum_rate * fabsf(rs_luminance(rs_xyz(iq)) - lum_p));
            diff = rs_madd(diff, rs_sub(rs_xyz(iq), rs_xyz(ip)), wq);
            total += wq;
            var += wq * wq * iq.w;
        }
    RsFloat4 out = ip;
    if (total > 0.0f) {
        RsVec3 c = rs_add(rs_xyz(ip), rs_scale(diff, 1.0f / total));
        out = rs_pack(c, var / (total * total));
        if (!rs_is_finite3(c) || !rs_is_finite(out.w))
            out = valid ? ip : rs_float4(0.0f, 0.0f, 0.0f, -1.0f);
    }
    d->lighting[1 - from][pixel] = out;
}

/* Pass 4: remodulation; `final` is the lighting buffer the last step wrote. */
RS_FN void rs_denoise_finish(const RsDenoiseBuffers* d, uint32_t final, uint32_t x, uint32_t y)
{
    uint32_t pixel = y * d->width + x;
    RsVec3 c, a;
    int valid = rs_denoise_input(d, pixel, &c, &a);
    RsFloat4 i = d->lighting[final][pixel];
    RsVec3 out = rs_vec3_splat(0.0f);
    if (i.w >= 0.0f) {
        RsVec3 i0 = valid ? rs_vec3(c.x / a.x, c.y / a.y, c.z / a.z) : rs_vec3_splat(0.0f);
        out = rs_add(c, rs_mul(a, rs_sub(rs_xyz(i), i0)));
        if (!rs_is_finite3(out))
            out = c;
    }
    d->out[pixel] = rs_pack(out, 1.0f);
}

#endif /* RS_KERNEL_DENOISE_H */
