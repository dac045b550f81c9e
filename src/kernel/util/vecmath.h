/* vecmath.h - 3-vectors and the few operations per-ray code needs.
 *
 * Shared header (gcc C11, g++, nvcc). RsVec3 is the register type used inside stage functions;
 * storage always goes through the 16-byte RsFloat4 of compat.h (xyz + one packed scalar lane).
 * Named vecmath.h, not math.h, so that it can never shadow the C library's <math.h>.
 */
#ifndef RS_KERNEL_VECMATH_H
#define RS_KERNEL_VECMATH_H

#include "kernel/util/compat.h"

typedef struct RsVec3 {
    float x, y, z;
} RsVec3;

RS_FN RsVec3 rs_vec3(float x, float y, float z)
{
    RsVec3 v;
    v.x = x;
    v.y = y;
    v.z = z;
    return v;
}

RS_FN RsVec3 rs_vec3_splat(float s) { return rs_vec3(s, s, s); }
RS_FN RsVec3 rs_add(RsVec3 a, RsVec3 b) { return rs_vec3(a.x + b.x, a.y + b.y, a.z + b.z); }
RS_FN RsVec3 rs_sub(RsVec3 a, RsVec3 b) { return rs_vec3(a.x - b.x, a.y - b.y, a.z - b.z); }
RS_FN RsVec3 rs_mul(RsVec3 a, RsVec3 b) { return rs_vec3(a.x * b.x, a.y * b.y, a.z * b.z); }
RS_FN RsVec3 rs_scale(RsVec3 a, float s) { return rs_vec3(a.x * s, a.y * s, a.z * s); }
RS_FN RsVec3 rs_neg(RsVec3 a) { return rs_vec3(-a.x, -a.y, -a.z); }
RS_FN float rs_dot(RsVec3 a, RsVec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
RS_FN float rs_length(RsVec3 a) { return sqrtf(rs_dot(a, a)); }

RS_FN RsVec3 rs_cross(RsVec3 a, RsVec3 b)
{
    return rs_vec3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

RS_FN RsVec3 rs_normalize(RsVec3 a)
{
    float len = rs_length(a);
    return len > 0.0f ? rs_scale(a, 1.0f / len) : a;
}

/* a + b * s, written once so that every caller gets the same rounding. */
RS_FN RsVec3 rs_madd(RsVec3 a, RsVec3 b, float s)
{
    return rs_vec3(a.x + b.x * s, a.y + b.y * s, a.z + b.z * s);
}

RS_FN RsVec3 rs_vmin(RsVec3 a, RsVec3 b)
{
    return rs_vec3(rs_minf(a.x, b.x), rs_minf(a.y, b.y), rs_minf(a.z, b.z));
}

RS_FN RsVec3 rs_vmax(RsVec3 a, RsVec3 b)
{
    return rs_vec3(rs_maxf(a.x, b.x), rs_maxf(a.y, b.y), rs_maxf(a.z, b.z));
}

RS_FN float rs_max_component(RsVec3 a) { return rs_maxf(a.x, rs_maxf(a.y, a.z)); }

RS_FN float rs_max_abs_component(RsVec3 a)
{
    return rs_maxf(fabsf(a.x), rs_maxf(fabsf(a.y), fabsf(a.z)));
}

RS_FN int rs_is_black(RsVec3 a) { return a.x == 0.0f && a.y == 0.0f && a.z == 0.0f; }
/* Neither NaN nor infinite (x - x is NaN for both; no build uses -ffinite-math-only). */
RS_FN int rs_is_finite(float x) { return x - x == 0.0f; }
RS_FN int rs_is_finite3(RsVec3 v) { return rs_is_finite(v.x) && rs_is_finite(v.y) && rs_is_finite(v.z); }

/* Rec. 709 / sRGB primaries luminance. */
RS_FN float rs_luminance(RsVec3 c) { return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z; }

RS_FN float rs_vec3_get(RsVec3 v, int axis) { return axis == 0 ? v.x : (axis == 1 ? v.y : v.z); }

/* Packing to and from the 16-byte storage words. */
RS_FN RsFloat4 rs_float4(float x, float y, float z, float w)
{
    RsFloat4 f;
    f.x = x;
    f.y = y;
    f.z = z;
    f.w = w;
    return f;
}

RS_FN RsFloat4 rs_pack(RsVec3 v, float w) { return rs_float4(v.x, v.y, v.z, w); }
RS_FN RsVec3 rs_xyz(RsFloat4 f) { return rs_vec3(f.x, f.y, f.z); }

RS_FN RsUint4 rs_uint4(uint32_t x, uint32_t y, uint32_t z, uint32_t w)
{
    RsUint4 u;
    u.x = x;
    u.y = y;
    u.z = z;
    u.w = w;
    return u;
}

/* Orthonormal basis around a unit vector n, branchless (Duff et al., "Building an Orthonormal
 * Basis, Revisited", JCGT 2017). */
RS_FN void rs_onb(RsVec3 n, RsVec3* t, RsVec3* b)
{
    float sign = copysignf(1.0f, n.z);
    float a = -1.0f / (sign + n.z);
    float bb = n.x * n.y * a;
    *t = rs_vec3(1.0f + sign * n.x * n.x * a, sign * bb, -sign * n.x);
    *b = rs_vec3(bb, sign + n.y * n.y * a, -n.y);
}

RS_FN RsVec3 rs_to_world(RsVec3 local, RsVec3 t, RsVec3 b, RsVec3 n)
{
    return rs_add(rs_add(rs_scale(t, local.x), rs_scale(b, local.y)), rs_scale(n, local.z));
}

RS_FN RsVec3 rs_reflect(RsVec3 wo, RsVec3 n)
{
    /* wo points away from the surface; the result does too, mirrored about n. */
    return rs_sub(rs_scale(n, 2.0f * rs_dot(wo, n)), wo);
}

#endif /* RS_KERNEL_VECMATH_H */
