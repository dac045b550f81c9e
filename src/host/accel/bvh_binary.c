/* bvh_binary.c - the geometry under the binary SAH builder (see bvh_binary.h): box areas, a
 * primitive's bounds, the exact clipping of a primitive to a slab that spatial splits cut
 * references with, and the finished tree's SAH cost. Host C11.
 *
 * Bounds and clipping work in double on the vertices the triangle test means (v0 + e1 is exact
 * in double) and round the result outwards to float, so a box always encloses its piece. The
 * build itself is bvh_binary_build.c (bvh_binary_internal.h lists the builder's files).
 */
#include "host/accel/bvh_binary.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host/accel/bvh_binary_internal.h"

float rs_box_half_area(RsVec3 lo, RsVec3 hi) { return rs_binary_half_area(lo, hi); }

/* Float box enclosing a box given in double: rounded outwards. */
static RsBinaryBox box_from_double(const double lo[3], const double hi[3])
{
    float l[3], h[3];
    for (int k = 0; k < 3; ++k) {
        l[k] = (float)lo[k];
        if ((double)l[k] > lo[k])
            l[k] = nextafterf(l[k], -INFINITY);
        h[k] = (float)hi[k];
        if ((double)h[k] < hi[k])
            h[k] = nextafterf(h[k], INFINITY);
    }
    RsBinaryBox b = {rs_vec3(l[0], l[1], l[2]), rs_vec3(h[0], h[1], h[2])};
    return b;
}

static void triangle_vertices(const RsPrim* p, double v[3][3])
{
    double v0[3] = {p->a.x, p->a.y, p->a.z}, e1[3] = {p->b.x, p->b.y, p->b.z}, e2[3] = {p->c.x, p->c.y, p->c.z};
    for (int k = 0; k < 3; ++k) {
        v[0][k] = v0[k];
        v[1][k] = v0[k] + e1[k]; /* exact in double: what the triangle test means by v0 + e1 */
        v[2][k] = v0[k] + e2[k];
    }
}

void rs_prim_bounds(const RsPrim* p, RsVec3* lo, RsVec3* hi)
{
    double l[3], h[3];
    if (rs_prim_type(p) == RS_PRIM_BOX) {
        *lo = rs_xyz(p->a);
        *hi = rs_xyz(p->b);
        return;
    }
    if (rs_prim_type(p) == RS_PRIM_SPHERE) {
        double c[3] = {p->a.x, p->a.y, p->a.z}, r = p->b.x;
        for (int k = 0; k < 3; ++k) {
            l[k] = c[k] - r;
            h[k] = c[k] + r;
        }
    } else {
        double v[3][3];
        triangle_vertices(p, v);
        for (int k = 0; k < 3; ++k) {
            l[k] = fmin(v[0][k], fmin(v[1][k], v[2][k]));
            h[k] = fmax(v[0][k], fmax(v[1][k], v[2][k]));
        }
    }
    RsBinaryBox b = box_from_double(l, h);
    *lo = b.lo;
    *hi = b.hi;
}

/* Exact in double: the triangle's edges are cut by the slab's planes, and the float box of the
 * points that stay encloses the piece (rounded outwards). */
RsBinaryBox rs_binary_clip_prim(const RsPrim* p, RsBinaryBox within, int axis, float a, float b)
{
    RsBinaryBox slab = within;
    rs_binary_set_axis(&slab.lo, axis, rs_maxf(rs_binary_axis(within.lo, axis), a));
    rs_binary_set_axis(&slab.hi, axis, rs_minf(rs_binary_axis(within.hi, axis), b));
    if (rs_prim_type(p) == RS_PRIM_SPHERE)
        return slab;
    double v[3][3];
    triangle_vertices(p, v);
    double lo[3] = {DBL_MAX, DBL_MAX, DBL_MAX}, hi[3] = {-DBL_MAX, -DBL_MAX, -DBL_MAX};
    int any = 0;
#define GROW(pt)                                 \
    do {                                         \
        for (int k_ = 0; k_ < 3; ++k_) {         \
            lo[k_] = fmin(lo[k_], (pt)[k_]);     \
            hi[k_] = fmax(hi[k_], (pt)[k_]);     \
        }                                        \
        any = 1;                                 \
    } while (0)
    for (int i = 0; i < 3; ++i)
        if (v[i][axis] >= a && v[i][axis] <= b)
            GROW(v[i]);
    const double planes[2] = {a, b};
    for (int i = 0; i < 3; ++i) {
        const double* p0 = v[i];
        const double* p1 = v[(i + 1) % 3];
        for (int j = 0; j < 2; ++j) {
            double c = planes[j];
            if ((p0[axis] < c && p1[axis] > c) || (p0[axis] > c && p1[axis] < c)) {
                double t = (c - p0[axis]) / (p1[axis] - p0[axis]);
                double q[3];
                for (int k = 0; k < 3; ++k)
                    q[k] = p0[k] + t * (p1[k] - p0[k]);
                q[axis] = c;
                GROW(q);
            }
        }
    }
#undef GROW
    if (!any)
        return rs_binary_box_empty();
    return rs_binary_box_intersect(box_from_double(lo, hi), slab);
}


void rs_binary_bvh_free(RsBinaryBvh* bvh)
{
    free(bvh->nodes);
    free(bvh->refs);
    memset(bvh, 0, sizeof *bvh);
}

double rs_binary_bvh_sah(const RsBinaryBvh* bvh, float node_cost)
{
    double root = rs_box_half_area(bvh->nodes[0].lo, bvh->nodes[0].hi), sum = 0.0;
    if (!(root > 0.0))
        return 0.0;
    for (uint32_t i = 0; i < bvh->node_count; ++i) {
        const RsBinaryNode* n = &bvh->nodes[i];
        double a = rs_box_half_area(n->lo, n->hi);
        sum += n->count ? a * n->count : a * node_cost;
    }
    return sum / root;
}
