/* surface.h - points on surfaces and the rays that leave them, without self-intersection.
 *
 * Shared header (gcc C11, g++, nvcc). Used by shade (hit points, continuation rays, shadow
 * rays) and by light sampling (points on lights).
 *
 * The approach is pbrt-v4's (Pharr, Jakob, Humphreys, "Physically Based Rendering", 4th ed.,
 * section 6.8, "Managing Rounding Error"), chosen over Wachter & Binder's fixed 256-ulp push
 * (Ray Tracing Gems, ch. 6) because its offset follows the actual error of each point, so it is
 * the same at every scene scale and camera distance, with no absolute constant near the origin:
 *
 * 1. A hit point is computed from the primitive, never as origin + t * dir (whose error grows
 *    with the distance travelled: a camera 800 units away put cornell's hit points farther from
 *    the wall than the old offset reached). Triangles: p = v0 + b1 e1 + b2 e2 from the
 *    barycentrics extend stored. Any (b1, b2) gives a point of the triangle's plane in exact
 *    arithmetic, so the error of p across the plane is only the rounding of that expression:
 *    per component at most gamma(3) (|v0| + |b1 e1| + |b2 e2|) (Higham's bound for a sum of
 *    three terms, two of them products). Spheres: p is re-projected onto the sphere,
 *    c + r (p - c) / |p - c|, whose error is gamma(5) |p - c| (pbrt-v4, Sphere::Intersect) plus
 *    one rounding of the final sum, gamma(1) |p|.
 * 2. A ray leaving p starts at p + d n on the side it leaves to, with d = dot(|n|, error): no
 *    point within the error box of p lies beyond that plane. The sum itself rounds, so each
 *    component is then moved one float further out (pbrt's NextFloatUp/Down).
 * 3. A shadow ray from p to a point q on a light offsets both ends (q towards the origin), and
 *    stops at (1 - RS_SHADOW_EPSILON) of the distance between the offset ends, measured from
 *    the origin it actually has (pbrt-v4's SpawnRayTo and ShadowEpsilon). So it can never reach
 *    the light it aims at, at any angle and any distance.
 * 4. Belt and braces for triangles: the extend and connect stages skip the triangle a ray
 *    leaves (origin.w carries its index; Cycles' "self intersection" skip does the same). A
 *    planar triangle can never be hit by a ray that leaves it, and skipping it makes the result
 *    independent of the triangle test's own rounding, which for long thin triangles leaving at
 *    grazing angles can exceed any error bound on p. Spheres cannot be skipped (a ray that
 *    enters a glass ball must hit it again), so for them the offset is the whole answer.
 */
#ifndef RS_KERNEL_SURFACE_H
#define RS_KERNEL_SURFACE_H

#include "kernel/scene/scene_data.h"

/* Relative margin by which a shadow ray stops short of its target (pbrt-v4's ShadowEpsilon). */
#define RS_SHADOW_EPSILON 1e-4f

/* gamma(n) = n u / (1 - n u), u = 2^-24: the relative error bound of n floating-point roundings
 * (Higham, "Accuracy and Stability of Numerical Algorithms", section 3.1). */
RS_FN float rs_gamma(int n)
{
    const float u = 5.9604645e-8f;
    return ((float)n * u) / (1.0f - (float)n * u);
}

typedef struct RsSurfacePoint {
    RsVec3 p;       /* on the surface, within `error` of the exact point */
    RsVec3 n;       /* unit geometric normal: triangle winding, sphere outwards */
    RsVec3 error;   /* per-component bound on |p - exact point| */
    uint32_t prim;  /* the primitive's index, for the triangle skip */
    uint32_t skip;  /* what a ray leaving here must skip: prim for a triangle, RS_NO_HIT for a sphere */
} RsSurfacePoint;

RS_FN RsVec3 rs_vabs(RsVec3 a) { return rs_vec3(fabsf(a.x), fabsf(a.y), fabsf(a.z)); }

/* Vector arithmetic with one rounding per operation (compat.h, rs_mul_rn): the error bounds
 * below count roundings, and the same point must come out bit for bit in every kernel. */
RS_FN RsVec3 rs_add_v_rn(RsVec3 a, RsVec3 b)
{
    return rs_vec3(rs_add_rn(a.x, b.x), rs_add_rn(a.y, b.y), rs_add_rn(a.z, b.z));
}

RS_FN RsVec3 rs_sub_v_rn(RsVec3 a, RsVec3 b)
{
    return rs_vec3(rs_sub_rn(a.x, b.x), rs_sub_rn(a.y, b.y), rs_sub_rn(a.z, b.z));
}

RS_FN RsVec3 rs_scale_rn(RsVec3 a, float s) { return rs_vec3(rs_mul_rn(a.x, s), rs_mul_rn(a.y, s), rs_mul_rn(a.z, s)); }

RS_FN float rs_dot_rn(RsVec3 a, RsVec3 b)
{
    return rs_add_rn(rs_add_rn(rs_mul_rn(a.x, b.x), rs_mul_rn(a.y, b.y)), rs_mul_rn(a.z, b.z));
}

/* Point of triangle `prim` at barycentrics (b1, b2) of its edges e1, e2. */
RS_FN RsSurfacePoint rs_surface_on_triangle(const RsPrim* prim, uint32_t index, float b1, float b2)
{
    RsVec3 v0 = rs_xyz(prim->a), e1 = rs_xyz(prim->b), e2 = rs_xyz(prim->c);
    RsVec3 t1 = rs_scale_rn(e1, b1), t2 = rs_scale_rn(e2, b2);
    RsSurfacePoint s;
    s.p = rs_add_v_rn(v0, rs_add_v_rn(t1, t2));
    s.error = rs_scale_rn(rs_add_v_rn(rs_vabs(v0), rs_add_v_rn(rs_vabs(t1), rs_vabs(t2))), rs_gamma(3));
    RsVec3 n = rs_vec3(rs_sub_rn(rs_mul_rn(e1.y, e2.z), rs_mul_rn(e1.z, e2.y)),
                       rs_sub_rn(rs_mul_rn(e1.z, e2.x), rs_mul_rn(e1.x, e2.z)),
                       rs_sub_rn(rs_mul_rn(e1.x, e2.y), rs_mul_rn(e1.y, e2.x)));
    s.n = rs_scale_rn(n, 1.0f / sqrtf(rs_dot_rn(n, n))); /* scene.c drops zero-area triangles */
    s.prim = index;
    s.skip = index;
    return s;
}

/* Point of sphere `prim` nearest to `near` (any point close to the surface, e.g. o + t d). */
RS_FN RsSurfacePoint rs_surface_on_sphere(const RsPrim* prim, uint32_t index, RsVec3 near)
{
    RsVec3 c = rs_xyz(prim->a);
    float r = prim->b.x;
    RsVec3 local = rs_sub_v_rn(near, c);
    float len = sqrtf(rs_dot_rn(local, local));
    RsSurfacePoint s;
    s.n = len > 0.0f ? rs_scale_rn(local, 1.0f / len) : rs_vec3(0.0f, 1.0f, 0.0f);
    local = rs_scale_rn(s.n, r);
    s.p = rs_add_v_rn(c, local);
    s.error = rs_add_v_rn(rs_scale_rn(rs_vabs(local), rs_gamma(5)), rs_scale_rn(rs_vabs(s.p), rs_gamma(1)));
    s.prim = index;
    s.skip = RS_NO_HIT;
    return s;
}

/* Where ray (o, d) hit: t, u, v and the primitive index as extend stores them. */
RS_FN RsSurfacePoint rs_surface_at_hit(const RsPrim* prim, uint32_t index, RsVec3 o, RsVec3 d, RsFloat4 hit)
{
    if (rs_prim_type(prim) == RS_PRIM_SPHERE)
        return rs_surface_on_sphere(prim, index, rs_add_v_rn(o, rs_scale_rn(d, hit.x)));
    return rs_surface_on_triangle(prim, index, hit.y, hit.z);
}

/* The shading normal at barycentrics (b1, b2) of primitive `index`: its vertex normals
 * interpolated (Phong), turned to the geometric normal's side, so that the two agree on which
 * side is the front; the geometric normal ng where there are no vertex normals or they cancel.
 * Only shading uses it: rays leave along the geometric normal's offset (above), and bsdf.h keeps
 * light from leaking through where the two normals disagree. */
RS_FN RsVec3 rs_shading_normal(const RsShading* shading, uint32_t index, float b1, float b2, RsVec3 ng)
{
    if (!shading)
        return ng;
    const RsShading* s = &shading[index];
    if (!(rs_float_as_uint(s->d.w) & RS_SHADING_NORMALS))
        return ng;
    RsVec3 n0 = rs_xyz(s->a);
    RsVec3 n = rs_add(rs_add(rs_scale(n0, 1.0f - b1 - b2), rs_scale(rs_xyz(s->b), b1)), rs_scale(rs_xyz(s->c), b2));
    float len2 = rs_dot(n, n);
    if (!(len2 > 1e-12f))
        return ng;
    n = rs_scale(n, 1.0f / sqrtf(len2));
    return rs_dot(n, ng) < 0.0f ? rs_neg(n) : n;
}

/* The neighbouring float in the direction of `sign` (away from zero for a positive sign on a
 * positive x, and so on); infinities and NaN are returned unchanged. */
RS_FN float rs_next_float(float x, float sign)
{
    if (!(fabsf(x) < RS_INFINITY) || sign == 0.0f)
        return x;
    if (x == 0.0f)
        return sign > 0.0f ? 1.4e-45f : -1.4e-45f;
    uint32_t bits = rs_float_as_uint(x);
    int away = (x > 0.0f) == (sign > 0.0f); /* moving away from zero grows the magnitude */
    return rs_uint_as_float(away ? bits + 1u : bits - 1u);
}

/* Origin for a ray leaving s towards w (any length): p pushed past its error box, along n, to
 * w's side, then one float further out in every component that has a normal component. That
 * last step absorbs the rounding of the sum, and it still moves a point whose error bound is 0
 * (a plane y = 0 built from exact zeros) strictly off the plane. */
RS_FN RsVec3 rs_spawn_origin(const RsSurfacePoint* s, RsVec3 w)
{
    float d = rs_dot_rn(rs_vabs(s->n), s->error);
    RsVec3 out = rs_dot_rn(s->n, w) >= 0.0f ? s->n : rs_neg(s->n);
    RsVec3 o = rs_add_v_rn(s->p, rs_scale_rn(out, d));
    return rs_vec3(rs_next_float(o.x, out.x), rs_next_float(o.y, out.y), rs_next_float(o.z, out.z));
}

typedef struct RsSpawnedRay {
    RsVec3 o, dir; /* dir is unit */
    float tmax;    /* RS_INFINITY for a direction, short of the target for a point */
} RsSpawnedRay;

/* Ray leaving `from` towards the point `to` (a light sample), stopping short of it. */
RS_FN RsSpawnedRay rs_spawn_ray_to(const RsSurfacePoint* from, const RsSurfacePoint* to)
{
    RsSpawnedRay r;
    r.o = rs_spawn_origin(from, rs_sub_v_rn(to->p, from->p));
    RsVec3 end = rs_spawn_origin(to, rs_sub_v_rn(r.o, to->p));
    RsVec3 d = rs_sub_v_rn(end, r.o);
    float dist = sqrtf(rs_dot_rn(d, d));
    r.dir = dist > 0.0f ? rs_scale_rn(d, 1.0f / dist) : d;
    r.tmax = rs_mul_rn(dist, 1.0f - RS_SHADOW_EPSILON);
    return r;
}

#endif /* RS_KERNEL_SURFACE_H */
