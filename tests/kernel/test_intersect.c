/* test_intersect.c - ray against triangle, sphere and box (unit suite), including the
 * radius-1e5 "walls" of smallpt-style scenes, checked against double-precision references.
 * Host C11. */
#include "kernel/accel/trace_hit.h"
#include "kernel/geometry/intersect.h"
#include "kernel/geometry/surface.h"
#include "kernel/sampling/rng.h"
#include "kernel/sampling/warp.h"
#include "tests/test.h"

static void test_triangle(void)
{
    RsVec3 v0 = rs_vec3(0, 0, 0), e1 = rs_vec3(1, 0, 0), e2 = rs_vec3(0, 1, 0);
    float t, u, v;
    /* through the interior, from both sides */
    CHECK(rs_intersect_triangle(rs_vec3(0.25f, 0.25f, 2), rs_vec3(0, 0, -1), v0, e1, e2, 0, INFINITY, &t, &u, &v),
          "miss from the front");
    CHECK_NEAR(t, 2.0, 1e-6);
    CHECK_NEAR(u, 0.25, 1e-6);
    CHECK_NEAR(v, 0.25, 1e-6);
    CHECK(rs_intersect_triangle(rs_vec3(0.25f, 0.25f, -2), rs_vec3(0, 0, 1), v0, e1, e2, 0, INFINITY, &t, &u, &v),
          "miss from the back (triangles are two-sided for intersection)");
    /* outside the edges, behind the origin, beyond tmax, parallel */
    CHECK(!rs_intersect_triangle(rs_vec3(0.6f, 0.6f, 2), rs_vec3(0, 0, -1), v0, e1, e2, 0, INFINITY, &t, &u, &v),
          "hit outside the hypotenuse");
    CHECK(!rs_intersect_triangle(rs_vec3(-0.01f, 0.5f, 2), rs_vec3(0, 0, -1), v0, e1, e2, 0, INFINITY, &t, &u, &v),
          "hit left of the triangle");
    CHECK(!rs_intersect_triangle(rs_vec3(0.2f, 0.2f, 2), rs_vec3(0, 0, 1), v0, e1, e2, 0, INFINITY, &t, &u, &v),
          "hit behind the origin");
    CHECK(!rs_intersect_triangle(rs_vec3(0.2f, 0.2f, 2), rs_vec3(0, 0, -1), v0, e1, e2, 0, 1.5f, &t, &u, &v),
          "hit beyond tmax");
    CHECK(!rs_intersect_triangle(rs_vec3(0.2f, 0.2f, 0), rs_vec3(1, 0, 0), v0, e1, e2, 0, INFINITY, &t, &u, &v),
          "hit by a ray in the triangle's plane");
    /* tiny triangles in millimetre-scale and huge scenes still hit */
    CHECK(rs_intersect_triangle(rs_vec3(1e-4f, 1e-4f, 1), rs_vec3(0, 0, -1), v0, rs_vec3(1e-3f, 0, 0),
                                rs_vec3(0, 1e-3f, 0), 0, INFINITY, &t, &u, &v),
          "miss on a 1e-3 triangle");
}

static void test_sphere_basic(void)
{
    float t;
    CHECK(rs_intersect_sphere(rs_vec3(0, 0, 5), rs_vec3(0, 0, -1), rs_vec3(0, 0, 0), 1.0f, 0, INFINITY, &t),
          "miss from outside");
    CHECK_NEAR(t, 4.0, 1e-6);
    CHECK(rs_intersect_sphere(rs_vec3(0, 0, 0), rs_vec3(0, 1, 0), rs_vec3(0, 0, 0), 2.0f, 0, INFINITY, &t),
          "miss from inside");
    CHECK_NEAR(t, 2.0, 1e-6);
    CHECK(!rs_intersect_sphere(rs_vec3(0, 1.01f, 5), rs_vec3(0, 0, -1), rs_vec3(0, 0, 0), 1.0f, 0, INFINITY, &t),
          "hit beside the sphere");
    CHECK(!rs_intersect_sphere(rs_vec3(0, 0, 5), rs_vec3(0, 0, 1), rs_vec3(0, 0, 0), 1.0f, 0, INFINITY, &t),
          "hit behind the origin");
    CHECK(rs_intersect_sphere(rs_vec3(0, 0, 5), rs_vec3(0, 0, -1), rs_vec3(0, 0, 0), 1.0f, 4.5f, INFINITY, &t),
          "far root not found when the near one is below tmin");
    CHECK_NEAR(t, 6.0, 1e-6);
}

/* Exact distance along a unit ray to a sphere, in double precision. */
static double sphere_distance(const double o[3], const double d[3], const double c[3], double r, int inside)
{
    double f[3] = {o[0] - c[0], o[1] - c[1], o[2] - c[2]};
    double b = f[0] * d[0] + f[1] * d[1] + f[2] * d[2];
    double cc = f[0] * f[0] + f[1] * f[1] + f[2] * f[2] - r * r;
    double disc = b * b - cc;
    return inside ? -b + sqrt(disc) : -b - sqrt(disc);
}

/* smallpt's walls: spheres of radius 1e5 whose surface passes through the room. Rays from
 * inside the room hit the near wall; for hits within the room (< 300 units) the single-precision
 * t must match the exact distance to within 0.01 (the room is ~100 wide), and a ray leaving the wall
 * from the offset origin must not hit the same wall again near its start. */
static void test_sphere_walls(void)
{
    const double centres[4][3] = {{1e5 + 1, 40.8, 81.6}, {-1e5 + 99, 40.8, 81.6}, {50, 1e5, 81.6}, {50, 40.8, 1e5}};
    int self_hits = 0;
    for (int w = 0; w < 4; ++w) {
        RsPrim wall;
        wall.a = rs_float4((float)centres[w][0], (float)centres[w][1], (float)centres[w][2], 0.0f);
        wall.b = rs_float4(1e5f, 0, 0, 0);
        wall.c = rs_float4(0, 0, 0, rs_uint_as_float(RS_PRIM_SPHERE));
        for (int i = 0; i < 2000; ++i) {
            uint32_t key = rs_rng_path_key(11, (uint32_t)i, (uint32_t)w);
            RsVec3 o = rs_vec3(20.0f + 60.0f * rs_rng(key, 0, 0), 10.0f + 60.0f * rs_rng(key, 0, 1),
                               20.0f + 120.0f * rs_rng(key, 0, 2));
            RsVec3 d = rs_sample_uniform_sphere(rs_rng(key, 0, 3), rs_rng(key, 0, 4));
            /* aim at the wall: towards its centre's side */
            RsVec3 to_c = rs_sub(rs_vec3((float)centres[w][0], (float)centres[w][1], (float)centres[w][2]), o);
            if (rs_dot(d, to_c) < 0.0f)
                d = rs_neg(d);
            float t = 0.0f, u, v;
            CHECK(rs_intersect_prim(&wall, o, d, 0.0f, INFINITY, &t, &u, &v), "wall %d missed", w);
            double od[3] = {o.x, o.y, o.z}, dd[3] = {d.x, d.y, d.z};
            double exact = sphere_distance(od, dd, centres[w], 1e5, 1);
            if (exact < 300.0) /* inside the room; grazing hits thousands of units away lose more */
                CHECK_NEAR(t, exact, 0.01);
            RsSurfacePoint sp = rs_surface_at_hit(&wall, 0, o, d, rs_float4(t, u, v, 0.0f));
            /* leave the wall into the room along a random direction */
            RsVec3 out = rs_sample_uniform_sphere(rs_rng(key, 1, 0), rs_rng(key, 1, 1));
            if (rs_dot(out, sp.n) > 0.0f)
                out = rs_neg(out); /* the room is inside the sphere: away from the outward normal */
            RsVec3 start = rs_spawn_origin(&sp, out);
            float t2;
            if (rs_intersect_prim(&wall, start, out, 0.0f, INFINITY, &t2, &u, &v) && t2 < 1.0f)
                ++self_hits;
        }
    }
    CHECK(self_hits == 0, "%d rays leaving a 1e5 wall hit it again within 1 unit", self_hits);
}

static void test_box(void)
{
    RsFloat4 lo = rs_float4(-1, -1, -1, 0), hi = rs_float4(1, 1, 1, 0);
    RsVec3 o = rs_vec3(0, 0, -5), d = rs_vec3(0, 0, 1);
    RsVec3 inv = rs_safe_inverse(d), oi = rs_mul(o, inv);
    float t;
    CHECK(rs_intersect_box(lo, hi, inv, oi, 0, INFINITY, &t), "axis-parallel ray missed");
    CHECK_NEAR(t, 4.0, 1e-5);
    CHECK(!rs_intersect_box(lo, hi, inv, oi, 0, 3.0f, &t), "box beyond tmax hit");
    /* axis-parallel ray (d.y = d.z = 0): the case where 1/d is infinite without rs_safe_inverse */
    o = rs_vec3(-5, 0.5f, 0);
    d = rs_vec3(1, 0, 0);
    inv = rs_safe_inverse(d);
    oi = rs_mul(o, inv);
    CHECK(rs_intersect_box(lo, hi, inv, oi, 0, INFINITY, &t), "axis-parallel ray through the box missed");
    CHECK_NEAR(t, 4.0, 1e-5);
    /* flat box (an axis-aligned quad's bounds) crossed by an oblique ray: inclusive test */
    RsFloat4 flat_lo = rs_float4(-1, 0, -1, 0), flat_hi = rs_float4(1, 0, 1, 0);
    RsVec3 od = rs_vec3(0.2f, 3, 0.1f), dd = rs_normalize(rs_vec3(0.1f, -1, 0.05f));
    RsVec3 id = rs_safe_inverse(dd), oid = rs_mul(od, id);
    CHECK(rs_intersect_box(flat_lo, flat_hi, id, oid, 0, INFINITY, &t), "flat box missed");
    o = rs_vec3(-5, 1.001f, 0);
    oi = rs_mul(o, inv);
    CHECK(!rs_intersect_box(lo, hi, inv, oi, 0, INFINITY, &t), "ray just above a face hit");
    /* origin inside */
    o = rs_vec3(0.5f, 0.5f, 0.5f);
    d = rs_normalize(rs_vec3(1, 2, 3));
    inv = rs_safe_inverse(d);
    oi = rs_mul(o, inv);
    CHECK(rs_intersect_box(lo, hi, inv, oi, 0, INFINITY, &t), "ray from inside missed");
}

int main(void)
{
    test_triangle();
    test_sphere_basic();
    test_sphere_walls();
    test_box();
    return rs_test_finish("test_intersect");
}
