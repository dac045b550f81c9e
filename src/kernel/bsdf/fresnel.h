/* fresnel.h - how much light a smooth boundary reflects: dielectric and conductor Fresnel terms.
 *
 * Shared header (gcc C11, g++, nvcc). Unpolarised light throughout (the average of the s and p
 * reflectances). A conductor has a complex index of refraction eta + i k per colour channel;
 * the formula is the dielectric one evaluated in complex arithmetic (pbrt-v4, section 9.3.6),
 * so that one function serves measured metals and artist colours alike (scene.c turns a colour
 * r into eta = 1, k = 2 sqrt(r / (1 - r)), whose normal-incidence reflectance is exactly r).
 */
#ifndef RS_KERNEL_FRESNEL_H
#define RS_KERNEL_FRESNEL_H

#include "kernel/util/vecmath.h"

/* Reflectance of a dielectric boundary for light arriving at cos_i to the normal, on the side
 * the normal points to when cos_i > 0. eta = eta(other side) / eta(normal side). Negative
 * cos_i means the ray comes from the other side, where the ratio is 1/eta. Returns 1 under
 * total internal reflection. */
RS_FN float rs_fresnel_dielectric(float cos_i, float eta)
{
    if (cos_i < 0.0f) {
        eta = 1.0f / eta;
        cos_i = -cos_i;
    }
    cos_i = rs_minf(cos_i, 1.0f);
    float sin2_t = (1.0f - cos_i * cos_i) / (eta * eta);
    if (sin2_t >= 1.0f)
        return 1.0f;
    float cos_t = sqrtf(1.0f - sin2_t);
    float r_parallel = (eta * cos_i - cos_t) / (eta * cos_i + cos_t);
    float r_perpendicular = (cos_i - eta * cos_t) / (cos_i + eta * cos_t);
    return 0.5f * (r_parallel * r_parallel + r_perpendicular * r_perpendicular);
}

typedef struct RsComplex {
    float re, im;
} RsComplex;

RS_FN RsComplex rs_complex(float re, float im)
{
    RsComplex c;
    c.re = re;
    c.im = im;
    return c;
}

RS_FN RsComplex rs_c_add(RsComplex a, RsComplex b) { return rs_complex(a.re + b.re, a.im + b.im); }
RS_FN RsComplex rs_c_sub(RsComplex a, RsComplex b) { return rs_complex(a.re - b.re, a.im - b.im); }
RS_FN RsComplex rs_c_mul(RsComplex a, RsComplex b)
{
    return rs_complex(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}
RS_FN RsComplex rs_c_div(RsComplex a, RsComplex b)
{
    float scale = 1.0f / (b.re * b.re + b.im * b.im);
    return rs_complex(scale * (a.re * b.re + a.im * b.im), scale * (a.im * b.re - a.re * b.im));
}
RS_FN float rs_c_norm(RsComplex a) { return a.re * a.re + a.im * a.im; }

/* Principal square root, computed without cancellation in either part. */
RS_FN RsComplex rs_c_sqrt(RsComplex z)
{
    float n = sqrtf(rs_c_norm(z));
    if (n == 0.0f)
        return rs_complex(0.0f, 0.0f);
    float t1 = sqrtf(0.5f * (n + fabsf(z.re)));
    float t2 = 0.5f * z.im / t1;
    if (z.re >= 0.0f)
        return rs_complex(t1, t2);
    return rs_complex(fabsf(t2), copysignf(t1, z.im));
}

/* Reflectance of a conductor of complex index eta + i k seen from outside at cos_i >= 0. */
RS_FN float rs_fresnel_complex(float cos_i, float eta_re, float eta_im)
{
    cos_i = rs_clampf(cos_i, 0.0f, 1.0f);
    RsComplex eta = rs_complex(eta_re, eta_im);
    RsComplex cos_i_c = rs_complex(cos_i, 0.0f);
    RsComplex sin2_t = rs_c_div(rs_complex(1.0f - cos_i * cos_i, 0.0f), rs_c_mul(eta, eta));
    RsComplex cos_t = rs_c_sqrt(rs_c_sub(rs_complex(1.0f, 0.0f), sin2_t));
    RsComplex eta_cos_i = rs_c_mul(eta, cos_i_c), eta_cos_t = rs_c_mul(eta, cos_t);
    RsComplex r_parallel = rs_c_div(rs_c_sub(eta_cos_i, cos_t), rs_c_add(eta_cos_i, cos_t));
    RsComplex r_perpendicular = rs_c_div(rs_c_sub(cos_i_c, eta_cos_t), rs_c_add(cos_i_c, eta_cos_t));
    return 0.5f * (rs_c_norm(r_parallel) + rs_c_norm(r_perpendicular));
}

/* k of a conductor of index 1 + i k that reflects r at normal incidence: k^2 / (4 + k^2) = r
 * for k = 2 sqrt(r / (1 - r)) (pbrt-v4's ConductorMaterial does the same). r is kept below 1 so
 * that k stays finite; 0.9999 reflects 99.99% head-on and more elsewhere. */
RS_FN float rs_conductor_k_for_reflectance(float r)
{
    r = rs_clampf(r, 0.0f, 0.9999f);
    return 2.0f * sqrtf(r / (1.0f - r));
}

RS_FN RsVec3 rs_fresnel_conductor(float cos_i, RsVec3 eta, RsVec3 k)
{
    return rs_vec3(rs_fresnel_complex(cos_i, eta.x, k.x), rs_fresnel_complex(cos_i, eta.y, k.y),
                   rs_fresnel_complex(cos_i, eta.z, k.z));
}

#endif /* RS_KERNEL_FRESNEL_H */
