/* light_tree_bounds.h - the light tree builder's sets of emitters: their bounds, their cones and
 * costs, and the binned split's pieces (binning, choosing, scattering). Private to light_tree.c,
 * which includes it once. Host C11.
 *
 * Orientation bounds are kept cheaply while binning: a set of emitters is the box of their unit
 * axes, the widest emitter cone and the largest theta_e. The cone of the set is then centred on
 * the box's centre m and holds every unit vector of the box, so its half-angle is asin(|h| / |m|)
 * for the box's half-diagonal h (the whole sphere once |h| >= |m|), plus the widest emitter
 * cone. Looser than merging cones one by one, but it needs no trigonometry per light, and
 * merging two sets is a min and a max.
 */
#ifndef RS_HOST_LIGHT_TREE_BOUNDS_H
#define RS_HOST_LIGHT_TREE_BOUNDS_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "kernel/light/light_tree.h"

#define BINS 12
#define PI 3.14159265358979323846
#define HALF_PI 1.57079632679489661923
#define POWER_MAX 1e30f /* keeps the kernel's sums of two powers finite */

typedef struct TreeLight {
    float lo[4];   /* box lo .xyz | cos theta_o (-1: emits into every direction) */
    float hi[4];   /* box hi .xyz | theta_e */
    float axis[4]; /* unit .xyz (two-sided: its largest component positive) | 1 if two-sided, else 0 */
    float power;
    uint32_t light; /* the entry in the light table */
    uint32_t pad_[2];
} TreeLight;

/* A set of emitters as four-wide minima and maxima, so that adding one vectorises: lo.w the
 * widest emitter cone (smallest cos theta_o), hi.w the largest theta_e, alo/ahi the box of the
 * axes (a full-sphere emitter's axis counts too: the set is then the whole sphere anyway), ahi.w
 * > 0 when some emitter is two-sided, slo/shi the box of lo + hi (twice the boxes' centres;
 * their w is meaningless). */
typedef struct Bounds {
    float lo[4], hi[4], alo[4], ahi[4], slo[4], shi[4];
    double power;
    uint32_t count;
} Bounds;

typedef struct Cone { float axis[3], cos_o, sin_o; } Cone;

/* Where a binned split puts the lights of a set: bin (twice_centre(axis) - lo) * scale. */
typedef struct Binning {
    int axis;
    float lo, scale;
} Binning;

static float minf(float a, float b) { return a < b ? a : b; }
static float maxf(float a, float b) { return a > b ? a : b; }

static void bounds_empty(Bounds* b)
{
    for (int k = 0; k < 4; ++k) {
        b->lo[k] = b->alo[k] = b->slo[k] = FLT_MAX;
        b->hi[k] = b->ahi[k] = b->shi[k] = -FLT_MAX;
    }
    b->power = 0.0;
    b->count = 0;
}

static inline void min4(float* restrict to, const float* restrict from)
{
    for (int k = 0; k < 4; ++k)
        to[k] = minf(to[k], from[k]);
}

static inline void max4(float* restrict to, const float* restrict from)
{
    for (int k = 0; k < 4; ++k)
        to[k] = maxf(to[k], from[k]);
}

static inline void bounds_add(Bounds* restrict b, const TreeLight* restrict l)
{
    /* copies of the light tell the compiler that the stores cannot change it, so each min4 and
     * max4 becomes one four-wide instruction, also where this is inlined */
    float lo[4], hi[4], axis[4], twice_centre[4];
    memcpy(lo, l->lo, sizeof lo);
    memcpy(hi, l->hi, sizeof hi);
    memcpy(axis, l->axis, sizeof axis);
    for (int k = 0; k < 4; ++k)
        twice_centre[k] = lo[k] + hi[k];
    min4(b->lo, lo);
    max4(b->hi, hi);
    min4(b->alo, axis);
    max4(b->ahi, axis);
    min4(b->slo, twice_centre);
    max4(b->shi, twice_centre);
    b->power += l->power;
    b->count++;
}

static void bounds_merge(Bounds* restrict b, const Bounds* restrict o)
{
    min4(b->lo, o->lo);
    max4(b->hi, o->hi);
    min4(b->alo, o->alo);
    max4(b->ahi, o->ahi);
    min4(b->slo, o->slo);
    max4(b->shi, o->shi);
    b->power += o->power;
    b->count += o->count;
}

/* The cone around every emitter's cone of the set (see the top of the file). */
static Cone bounds_cone(const Bounds* b)
{
    Cone c = {{0.0f, 0.0f, 1.0f}, -1.0f, 0.0f};
    float cos_e = b->lo[3]; /* the widest emitter cone */
    if (cos_e <= -1.0f)
        return c;
    float m[3], mm = 0.0f, hh = 0.0f;
    for (int k = 0; k < 3; ++k) {
        m[k] = 0.5f * (b->alo[k] + b->ahi[k]);
        float h = 0.5f * (b->ahi[k] - b->alo[k]);
        mm += m[k] * m[k];
        hh += h * h;
    }
    if (!(hh < mm))
        return c;
    float inv = 1.0f / sqrtf(mm);
    for (int k = 0; k < 3; ++k)
        c.axis[k] = m[k] * inv;
    float sin2_a = hh / mm; /* exactly 0 for one emitter: its own axis and cone */
    float cos_a = sqrtf(1.0f - sin2_a), sin_a = sqrtf(sin2_a);
    float sin_e = sqrtf(maxf(0.0f, 1.0f - cos_e * cos_e));
    float sin_t = sin_a * cos_e + cos_a * sin_e;
    if (sin_t < 0.0f) /* the two angles add up to more than pi */
        return c;
    c.cos_o = maxf(cos_a * cos_e - sin_a * sin_e, -1.0f);
    c.sin_o = sin_t;
    return c;
}

/* acos to within 7e-5 (Abramowitz & Stegun 4.4.45): enough for a cost estimate. */
static float acos_approx(float x)
{
    float a = fabsf(x);
    float r = sqrtf(maxf(0.0f, 1.0f - a)) * (1.5707288f + a * (-0.2121144f + a * (0.0742610f - 0.0187293f * a)));
    return x < 0.0f ? (float)PI - r : r;
}

/* Conty Estevez & Kulla's M_Omega: the cosine-weighted measure of the directions a cone
 * (theta_o, theta_e) can emit into. With theta_e = pi / 2, as for every emitter but spots, it
 * needs no cosine: theta_w = min(theta_o + pi / 2, pi). */
static float orientation_measure(float cos_o, float sin_o, float theta_e)
{
    const float pi = (float)PI;
    if (cos_o <= -1.0f)
        return 4.0f * pi;
    if (theta_e == (float)HALF_PI) {
        if (cos_o >= 0.0f)
            return 2.0f * pi - pi * cos_o + 0.5f * pi * pi * sin_o;
        return 2.0f * pi * (1.0f - cos_o) + pi * (pi - acos_approx(cos_o)) * sin_o;
    }
    float theta_o = acos_approx(cos_o);
    float theta_w = minf(theta_o + theta_e, pi);
    return 2.0f * pi * (1.0f - cos_o) +
           0.5f * pi * (2.0f * (theta_w - theta_o) * sin_o - cosf(theta_o - 2.0f * theta_w) + cos_o);
}

/* Surface area, each side lengthened by `pad`: points in a line still have a size. */
static float box_measure(const float lo[4], const float hi[4], float pad)
{
    float dx = hi[0] - lo[0] + pad, dy = hi[1] - lo[1] + pad, dz = hi[2] - lo[2] + pad;
    return dx * dy + dy * dz + dz * dx;
}

static float bounds_cost(const Bounds* b, float pad)
{
    Cone c = bounds_cone(b);
    return (float)b->power * orientation_measure(c.cos_o, c.sin_o, b->hi[3]) * box_measure(b->lo, b->hi, pad);
}

/* Node `index` over the set bd with cone c (bounds_cone(bd), or a leaf's own). */
static void write_node(RsFloat4* nodes, uint32_t index, const Bounds* bd, Cone c)
{
    float power = (float)bd->power;
    power = power < FLT_MIN ? FLT_MIN : (power > POWER_MAX ? POWER_MAX : power);
    float theta_e = bd->hi[3];
    float cos_e = theta_e == (float)HALF_PI ? 0.0f : (float)cos((double)theta_e);
    RsFloat4* n = nodes + 4 * (size_t)index;
    n[0] = rs_float4(bd->lo[0], bd->lo[1], bd->lo[2], power);
    n[1] = rs_float4(bd->hi[0], bd->hi[1], bd->hi[2], c.cos_o);
    n[2] = rs_float4(c.axis[0], c.axis[1], c.axis[2], cos_e);
    n[3] = rs_float4(0.0f, rs_uint_as_float(bd->ahi[3] > 0.0f ? RS_LIGHT_TREE_TWO_SIDED : 0u), c.sin_o, 0.0f);
}

static float twice_centre(const TreeLight* l, int axis) { return l->lo[axis] + l->hi[axis]; }

static int widest_axis(const float lo[4], const float hi[4])
{
    float x = hi[0] - lo[0], y = hi[1] - lo[1], z = hi[2] - lo[2];
    return x >= y && x >= z ? 0 : (y >= z ? 1 : 2);
}

static void bounds_of(const TreeLight* lights, uint32_t begin, uint32_t end, Bounds* out)
{
    bounds_empty(out);
    for (uint32_t i = begin; i < end; ++i)
        bounds_add(out, &lights[i]);
}

/* How a set with bounds `node` is binned: along the widest axis of its centres. 0 when the
 * centres do not spread (or spread too little to divide by). */
static int binning_of(const Bounds* node, Binning* bn)
{
    int k = widest_axis(node->slo, node->shi);
    float lo = node->slo[k], scale = (float)BINS * (1.0f - 1e-6f) / (node->shi[k] - lo);
    bn->axis = k;
    bn->lo = lo;
    bn->scale = scale;
    return node->shi[k] > lo && isfinite(scale);
}

/* Adds src[begin..end) to bins[] (emptied first) and keeps each light's bin in ids[], which the
 * scatter reads back: each light goes where it was counted. */
static void bin_lights(const TreeLight* restrict src, uint8_t* restrict ids, uint32_t begin, uint32_t end,
                       const Binning* bn, Bounds* restrict bins)
{
    for (int i = 0; i < BINS; ++i)
        bounds_empty(&bins[i]);
    const int k = bn->axis;
    const float lo = bn->lo, scale = bn->scale;
    for (uint32_t i = begin; i < end; ++i) {
        int bin = (int)((twice_centre(&src[i], k) - lo) * scale);
        bin = bin < 0 ? 0 : (bin >= BINS ? BINS - 1 : bin);
        ids[i] = (uint8_t)bin;
        bounds_add(&bins[bin], &src[i]);
    }
}

/* The best split of a set (bounds `node`, binned into bins[]) by the cost of Conty Estevez &
 * Kulla: power * M_Omega * area summed over the two sides. Returns the last bin of the first
 * side, or -1 when every split leaves a side empty. */
static int best_split(const Bounds* bins, const Bounds* node)
{
    float extent = 0.0f;
    for (int a = 0; a < 3; ++a)
        extent = maxf(extent, node->hi[a] - node->lo[a]);
    float pad = 1e-3f * extent;
    float after[BINS]; /* the cost of bins i + 1.. */
    Bounds acc;
    bounds_empty(&acc);
    for (int i = BINS - 1; i > 0; --i) {
        if (bins[i].count)
            bounds_merge(&acc, &bins[i]);
        after[i - 1] = bins[i].count ? bounds_cost(&acc, pad) : (i + 1 < BINS ? after[i] : 0.0f);
    }
    float best = INFINITY;
    int best_bin = -1;
    bounds_empty(&acc);
    for (int i = 0; i + 1 < BINS; ++i) {
        if (!bins[i].count) /* the same split as the one before */
            continue;
        bounds_merge(&acc, &bins[i]);
        if (acc.count == node->count)
            break;
        float cost = bounds_cost(&acc, pad) + after[i];
        if (cost < best) {
            best = cost;
            best_bin = i;
        }
    }
    return best_bin;
}

/* Copies src[begin..end) to dst, bins up to `last` from `first` on and the others from `second`
 * on, in order, without a branch to mispredict. */
static void scatter(const TreeLight* restrict src, TreeLight* restrict dst, const uint8_t* restrict ids,
                    uint32_t begin, uint32_t end, int last, uint32_t first, uint32_t second)
{
    for (uint32_t i = begin; i < end; ++i) {
        uint32_t to_first = 0u - (uint32_t)(ids[i] <= last); /* a mask, not a branch */
        dst[(first & to_first) | (second & ~to_first)] = src[i];
        first -= to_first;
        second += 1u + to_first;
    }
}

#endif /* RS_HOST_LIGHT_TREE_BOUNDS_H */
