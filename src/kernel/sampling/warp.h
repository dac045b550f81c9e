/* warp.h - warping uniform numbers into directions and points, and the MIS heuristic.
 *
 * Shared header (gcc C11, g++, nvcc). Each sampler states the density it draws from; the
 * callers divide by exactly that density.
 */
#ifndef RS_KERNEL_SAMPLING_H
#define RS_KERNEL_SAMPLING_H

#include "kernel/util/vecmath.h"

/* Shirley-Chiu concentric map of [0,1)^2 onto the unit disk (area-preserving, low distortion). */
RS_FN void rs_sample_disk(float u1, float u2, float* dx, float* dy)
{
    float a = 2.0f * u1 - 1.0f, b = 2.0f * u2 - 1.0f;
    if (a == 0.0f && b == 0.0f) {
        *dx = 0.0f;
        *dy = 0.0f;
        return;
    }
    float r, phi;
    if (fabsf(a) > fabsf(b)) {
        r = a;
        phi = (RS_PI / 4.0f) * (b / a);
    } else {
        r = b;
        phi = (RS_PI / 2.0f) - (RS_PI / 4.0f) * (a / b);
    }
    *dx = r * cosf(phi);
    *dy = r * sinf(phi);
}

/* Cosine-weighted hemisphere around +z (Malley's method): pdf = cos(theta) / pi. */
RS_FN RsVec3 rs_sample_cosine_hemisphere(float u1, float u2)
{
    float x, y;
    rs_sample_disk(u1, u2, &x, &y);
    float z = sqrtf(rs_maxf(0.0f, 1.0f - x * x - y * y));
    return rs_vec3(x, y, z);
}

/* Uniform direction on the unit sphere: pdf = 1 / (4 pi). */
RS_FN RsVec3 rs_sample_uniform_sphere(float u1, float u2)
{
    float z = 1.0f - 2.0f * u1;
    float r = sqrtf(rs_maxf(0.0f, 1.0f - z * z));
    float phi = 2.0f * RS_PI * u2;
    return rs_vec3(r * cosf(phi), r * sinf(phi), z);
}

/* Uniform barycentrics on a triangle (square-root parameterisation): pdf = 1 / area.
 * Returns (b1, b2); the point is v0 + b1 * e1 + b2 * e2. */
RS_FN void rs_sample_triangle(float u1, float u2, float* b1, float* b2)
{
    float su = sqrtf(u1);
    *b1 = 1.0f - su;
    *b2 = u2 * su;
}

/* Power heuristic with beta = 2 (Veach 1997, section 9.2), one sample from each strategy. */
RS_FN float rs_power_heuristic(float pdf_a, float pdf_b)
{
    float a2 = pdf_a * pdf_a, b2 = pdf_b * pdf_b;
    float sum = a2 + b2;
    if (sum < RS_INFINITY)
        return sum > 0.0f ? a2 / sum : 0.0f;
    /* a density above ~1.8e19 (a very sharp lobe, a light seen almost edge-on) squares to
     * infinity, and inf / inf is NaN: the same weight from the ratio of the densities */
    if (!(pdf_a >= pdf_b)) {
        float r = pdf_a / pdf_b;
        return r == r ? r * r / (1.0f + r * r) : 0.0f;
    }
    float r = pdf_b / pdf_a;
    return r == r ? 1.0f / (1.0f + r * r) : 0.5f;
}

#endif /* RS_KERNEL_SAMPLING_H */
