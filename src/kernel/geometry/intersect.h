/* intersect.h - ray against triangle, sphere and box; surface normals and safe ray offsets.
 *
 * Shared header (gcc C11, g++, nvcc). Ray directions are unit length everywhere in raystream
 * (the sphere test relies on it). A hit is accepted for tmin < t < tmax. Points on surfaces,
 * normals and the offsets of rays that leave them are surface.h's business.
 */
#ifndef RS_KERNEL_INTERSECT_H
#define RS_KERNEL_INTERSECT_H

#include "kernel/scene/scene_data.h"

/* Moller-Trumbore with the edges stored in the primitive. The tests run on the numerators
 * scaled by |det| (det's sign moved into them, which is exact), so the division happens only
 * for a hit: most tests reject, and a division is the most expensive thing here (on the GPU a
 * subroutine call). The accepted t, u, v are the same numbers as numerator / det. Only an
 * exactly singular determinant is rejected: scenes in millimetres and kilometres both work. */
RS_FN int rs_intersect_triangle(RsVec3 o, RsVec3 d, RsVec3 v0, RsVec3 e1, RsVec3 e2, float tmin,
                                float tmax, float* t_out, float* u_out, float* v_out)
{
    RsVec3 pvec = rs_cross(d, e2);
    float det = rs_dot(e1, pvec);
    RsVec3 tvec = rs_sub(o, v0);
    RsVec3 qvec = rs_cross(tvec, e1);
    float sign = copysignf(1.0f, det), a = fabsf(det);
    float u = sign * rs_dot(tvec, pvec), v = sign * rs_dot(d, qvec), t = sign * rs_dot(e2, qvec);
    if (!(u >= 0.0f && v >= 0.0f && u + v <= a && t > tmin * a && a > 0.0f))
        return 0;
    float inv = 1.0f / a;
    t *= inv;
    if (!(t < tmax))
        return 0;
    *t_out = t;
    *u_out = u * inv;
    *v_out = v * inv;
    return 1;
}

/* Ray-sphere in the form of Haines et al., "Precision Improvements for Ray/Sphere
 * Intersection" (Ray Tracing Gems, ch. 7). With f = o - c and unit d:
 *   discriminant r^2 - |f - (f.d) d|^2, evaluated as (r - l)(r + l) to avoid cancellation;
 *   the near root from c/q (c = |f|^2 - r^2, again factored) and the far one from q,
 *   so neither root is the difference of two large numbers. That is what makes the radius-1e5
 *   walls of smallpt-style scenes usable in single precision. */
RS_FN int rs_intersect_sphere(RsVec3 o, RsVec3 d, RsVec3 centre, float radius, float tmin,
                              float tmax, float* t_out)
{
    RsVec3 f = rs_sub(o, centre);
    float b = rs_dot(f, d);
    RsVec3 perp = rs_madd(f, d, -b);
    float l = rs_length(perp);
    float disc = (radius - l) * (radius + l);
    if (disc < 0.0f)
        return 0;
    float fl = rs_length(f);
    float c = (fl - radius) * (fl + radius);
    float q = -b - copysignf(sqrtf(disc), b);
    float t0 = q != 0.0f ? c / q : 0.0f;
    float t1 = q;
    if (t0 > t1) {
        float tmp = t0;
        t0 = t1;
        t1 = tmp;
    }
    if (t0 > tmin && t0 < tmax) {
        *t_out = t0;
        return 1;
    }
    if (t1 > tmin && t1 < tmax) {
        *t_out = t1;
        return 1;
    }
    return 0;
}

RS_FN int rs_intersect_prim(const RsPrim* p, RsVec3 o, RsVec3 d, float tmin, float tmax,
                            float* t, float* u, float* v)
{
    if (rs_prim_type(p) == RS_PRIM_SPHERE) {
        *u = 0.0f;
        *v = 0.0f;
        return rs_intersect_sphere(o, d, rs_xyz(p->a), p->b.x, tmin, tmax, t);
    }
    return rs_intersect_triangle(o, d, rs_xyz(p->a), rs_xyz(p->b), rs_xyz(p->c), tmin, tmax, t, u, v);
}

/* Slab test. inv_d = rs_safe_inverse(d) (finite), o_inv = o * inv_d. */
RS_FN int rs_intersect_box(RsFloat4 lo, RsFloat4 hi, RsVec3 inv_d, RsVec3 o_inv, float tmin,
                           float tmax, float* t_enter)
{
    float tx0 = lo.x * inv_d.x - o_inv.x, tx1 = hi.x * inv_d.x - o_inv.x;
    float ty0 = lo.y * inv_d.y - o_inv.y, ty1 = hi.y * inv_d.y - o_inv.y;
    float tz0 = lo.z * inv_d.z - o_inv.z, tz1 = hi.z * inv_d.z - o_inv.z;
    float tnear = rs_maxf(rs_maxf(rs_minf(tx0, tx1), rs_minf(ty0, ty1)), rs_maxf(rs_minf(tz0, tz1), tmin));
    float tfar = rs_minf(rs_minf(rs_maxf(tx0, tx1), rs_maxf(ty0, ty1)), rs_minf(rs_maxf(tz0, tz1), tmax));
    *t_enter = tnear;
    return tnear <= tfar;
}

#endif /* RS_KERNEL_INTERSECT_H */
