/* light_tree.c - the light tree's builder (see light_tree.h). Host C11.
 *
 * Orientation bounds are kept cheaply while binning: a set of emitters is the box of their unit
 * axes, the widest emitter cone and the largest theta_e. The cone of the set is then centred on
 * the box's centre m and holds every unit vector of the box, so its half-angle is asin(|h| / |m|)
 * for the box's half-diagonal h (the whole sphere once |h| >= |m|), plus the widest emitter
 * cone. Looser than merging cones one by one, but it needs no trigonometry per light, and
 * merging two sets is a min and a max.
 *
 * Speed (it is built with the scene, in a tenth of the BVH's time): lights are 64-byte records
 * and a set is four-wide minima and maxima; a binned split copies its range into the other of
 * two buffers without a branch to mispredict; nodes of at most SAH_MIN lights are halved at
 * their median and take their bounds from their children; subtrees go to a thread pool.
 */
#include "host/scene/light_tree.h"

#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "host/util/array.h"
#include "host/util/thread_pool.h"
#include "kernel/light/light_tree.h"

#define BINS 12
#define SAH_MIN 16      /* nodes of at most this many lights are halved by count */
#define MEDIAN_DEPTH 32 /* from here on, splits halve by count: depth <= 32 + 30 */
#define PARALLEL_MIN 16384 /* fewer lights are built on the calling thread alone */
#define MAX_LIGHTS (1u << 30)
#define PI 3.14159265358979323846
#define HALF_PI 1.57079632679489661923
#define POWER_MAX 1e30f /* keeps the kernel's sums of two powers finite */
#define SPOT_SLACK 1e-3 /* added to a spot's theta_e: rounding must not cut off its cone's rim */

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

/* What one thread needs of its own while it builds. */
typedef struct Worker {
    Bounds bins[BINS];
    uint32_t depth; /* the deepest node it made */
} Worker;

/* A subtree left to the workers: lights[begin..end) of buffers[buf] at node `index`. */
typedef struct Subtree {
    uint32_t buf, begin, end, depth, index;
    uint64_t path;
} Subtree;

typedef struct Build {
    TreeLight* buffers[2]; /* the lights; a binned split copies a range into the other buffer */
    RsFloat4* nodes;
    uint64_t* trails;
    Subtree* subtrees;
    uint32_t subtree_count;
    uint32_t subtree_max; /* lights; a node with no more becomes a subtree */
    atomic_uint next;     /* the next subtree for a worker to take */
    Worker* workers;
    uint32_t worker_count;
} Build;

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

static void min4(float* restrict to, const float* restrict from)
{
    for (int k = 0; k < 4; ++k)
        to[k] = minf(to[k], from[k]);
}

static void max4(float* restrict to, const float* restrict from)
{
    for (int k = 0; k < 4; ++k)
        to[k] = maxf(to[k], from[k]);
}

static void bounds_add(Bounds* restrict b, const TreeLight* restrict l)
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

static void bounds_of(const TreeLight* lights, uint32_t begin, uint32_t end, Bounds* out)
{
    bounds_empty(out);
    for (uint32_t i = begin; i < end; ++i)
        bounds_add(out, &lights[i]);
}

static float twice_centre(const TreeLight* l, int axis) { return l->lo[axis] + l->hi[axis]; }

static int widest_axis(const float lo[4], const float hi[4])
{
    float x = hi[0] - lo[0], y = hi[1] - lo[1], z = hi[2] - lo[2];
    return x >= y && x >= z ? 0 : (y >= z ? 1 : 2);
}

/* Quickselect: lights[begin..mid) before lights[mid..end) by centre on `axis`. */
static void select_median(TreeLight* lights, uint32_t begin, uint32_t end, uint32_t mid, int axis)
{
    while (end - begin > 1) {
        float pivot = twice_centre(&lights[begin + (end - begin - 1) / 2], axis); /* never the last */
        uint32_t i = begin, j = end - 1;
        for (;;) {
            while (twice_centre(&lights[i], axis) < pivot)
                ++i;
            while (twice_centre(&lights[j], axis) > pivot)
                --j;
            if (i >= j)
                break;
            TreeLight t = lights[i];
            lights[i++] = lights[j];
            lights[j--] = t;
        }
        /* Hoare's scheme: [begin, j] <= pivot <= [j + 1, end) */
        if (mid <= j)
            end = j + 1;
        else
            begin = j + 1;
    }
}

/* The best split of src[begin..end) (bounds `node`) by the cost of Conty Estevez & Kulla:
 * power * M_Omega * area summed over the two sides, over BINS bins of the centres along their
 * widest axis. Copies the range into dst[begin..end), the first side first, and returns where
 * the second starts, with both sides' bounds; returns `begin` (nothing copied) when the centres
 * do not spread. */
static uint32_t split_sah(Worker* w, const TreeLight* src, TreeLight* dst, uint32_t begin, uint32_t end,
                          const Bounds* node, Bounds* left, Bounds* right)
{
    uint32_t count = end - begin;
    int k = widest_axis(node->slo, node->shi);
    float lo = node->slo[k], scale = (float)BINS * (1.0f - 1e-6f) / (node->shi[k] - lo);
    if (!(node->shi[k] > lo) || !isfinite(scale)) /* no spread, or one too small to divide by */
        return begin;
    Bounds* bins = w->bins;
    for (int i = 0; i < BINS; ++i)
        bounds_empty(&bins[i]);
    for (uint32_t i = begin; i < end; ++i) {
        int bin = (int)((twice_centre(&src[i], k) - lo) * scale);
        bounds_add(&bins[bin < 0 ? 0 : (bin >= BINS ? BINS - 1 : bin)], &src[i]);
    }
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
        if (acc.count == count)
            break;
        float cost = bounds_cost(&acc, pad) + after[i];
        if (cost < best) {
            best = cost;
            best_bin = i;
        }
    }
    if (best_bin < 0)
        return begin;
    bounds_empty(left);
    bounds_empty(right);
    for (int n = 0; n < BINS; ++n)
        bounds_merge(n <= best_bin ? left : right, &bins[n]);
    uint32_t first = begin, second = begin + left->count;
    for (uint32_t i = begin; i < end; ++i) { /* the bins' own arithmetic: each light goes where it was counted */
        int bin = (int)((twice_centre(&src[i], k) - lo) * scale);
        uint32_t to_first = 0u - (uint32_t)(bin <= best_bin); /* a mask, not a branch */
        dst[(first & to_first) | (second & ~to_first)] = src[i];
        first -= to_first;
        second += 1u + to_first;
    }
    return begin + left->count;
}

/* Halves lights[begin..end) by count, at the median centre on the widest axis. */
static uint32_t split_median(TreeLight* lights, uint32_t begin, uint32_t end)
{
    float lo[4] = {FLT_MAX, FLT_MAX, FLT_MAX, 0.0f}, hi[4] = {-FLT_MAX, -FLT_MAX, -FLT_MAX, 0.0f};
    for (uint32_t i = begin; i < end; ++i)
        for (int k = 0; k < 3; ++k) {
            lo[k] = minf(lo[k], twice_centre(&lights[i], k));
            hi[k] = maxf(hi[k], twice_centre(&lights[i], k));
        }
    int k = widest_axis(lo, hi);
    uint32_t mid = begin + (end - begin) / 2;
    if (hi[k] > lo[k])
        select_median(lights, begin, end, mid, k);
    return mid;
}

/* Splits lights[begin..end) of buffer *buf (more than one) and returns where the second child
 * starts; *buf becomes the children's buffer. With `known` (the bounds, which the binned split
 * needs first) the children's bounds go to *left and *right when found, else those are NULL. */
static uint32_t split(const Build* b, Worker* w, uint32_t* buf, uint32_t begin, uint32_t end, const Bounds* known,
                      uint32_t depth, Bounds* left_store, Bounds* right_store, const Bounds** left,
                      const Bounds** right, int want_bounds)
{
    TreeLight* lights = b->buffers[*buf];
    *left = *right = NULL;
    if (end - begin == 2) /* nothing to choose */
        return begin + 1;
    uint32_t mid = begin;
    if (known && end - begin > SAH_MIN && depth < MEDIAN_DEPTH) {
        mid = split_sah(w, lights, b->buffers[!*buf], begin, end, known, left_store, right_store);
        if (mid != begin) {
            *buf = !*buf;
            *left = left_store;
            *right = right_store;
            return mid;
        }
    }
    mid = split_median(lights, begin, end);
    if (want_bounds) {
        bounds_of(lights, begin, mid, left_store);
        bounds_of(lights, mid, end, right_store);
        *left = left_store;
        *right = right_store;
    }
    return mid;
}

static void make_leaf(const Build* b, const TreeLight* l, uint32_t index, uint32_t depth, uint64_t path, Bounds* out)
{
    bounds_of(l, 0, 1, out);
    Cone own = {{l->axis[0], l->axis[1], l->axis[2]}, l->lo[3], sqrtf(maxf(0.0f, 1.0f - l->lo[3] * l->lo[3]))};
    write_node(b->nodes, index, out, own);
    b->nodes[4 * (size_t)index + 3].x = rs_uint_as_float(RS_LIGHT_TREE_LEAF | l->light);
    b->trails[l->light] = ((uint64_t)1 << depth) | path;
}

/* Builds the subtree of lights[begin..end) (in buffer `buf`) at node `index`, depth-first (a
 * subtree of k lights has 2k - 1 nodes, so where each node goes follows from the counts alone),
 * and returns its bounds in *out. `known`: its bounds when the parent's split found them;
 * NULL below SAH_MIN, where each node's bounds are its children's. */
static void build_node(const Build* b, Worker* w, uint32_t buf, uint32_t begin, uint32_t end, const Bounds* known,
                       uint32_t depth, uint64_t path, uint32_t index, Bounds* out)
{
    if (depth > w->depth)
        w->depth = depth;
    if (end - begin == 1) {
        make_leaf(b, &b->buffers[buf][begin], index, depth, path, out);
        return;
    }
    Bounds left_store, right_store, got_left, got_right;
    const Bounds *left, *right;
    uint32_t mid = split(b, w, &buf, begin, end, known, depth, &left_store, &right_store, &left, &right,
                         end - begin > 2 * SAH_MIN && depth < MEDIAN_DEPTH);
    build_node(b, w, buf, begin, mid, left, depth + 1, path, index + 1, &got_left);
    uint32_t second = index + 2 * (mid - begin);
    build_node(b, w, buf, mid, end, right, depth + 1, path | ((uint64_t)1 << depth), second, &got_right);
    *out = got_left;
    bounds_merge(out, &got_right);
    write_node(b->nodes, index, out, bounds_cone(out));
    b->nodes[4 * (size_t)index + 3].x = rs_uint_as_float(second);
}

/* The top of the tree, on the calling thread: as build_node, but a node of at most
 * b->subtree_max lights is left to the workers (Subtree), and every node's bounds are known
 * (found by its parent's split), so it is written before its subtrees are built. */
static void build_top(Build* b, uint32_t buf, uint32_t begin, uint32_t end, const Bounds* known, uint32_t depth,
                      uint64_t path, uint32_t index)
{
    if (depth > b->workers[0].depth)
        b->workers[0].depth = depth;
    if (end - begin <= b->subtree_max) { /* its worker finds its bounds again: one pass */
        Subtree t = {buf, begin, end, depth, index, path};
        b->subtrees[b->subtree_count++] = t;
        return;
    }
    Bounds left_store, right_store;
    const Bounds *left, *right;
    uint32_t mid = split(b, &b->workers[0], &buf, begin, end, known, depth, &left_store, &right_store, &left, &right, 1);
    uint32_t second = index + 2 * (mid - begin);
    write_node(b->nodes, index, known, bounds_cone(known));
    b->nodes[4 * (size_t)index + 3].x = rs_uint_as_float(second);
    build_top(b, buf, begin, mid, left, depth + 1, path, index + 1);
    build_top(b, buf, mid, end, right, depth + 1, path | ((uint64_t)1 << depth), second);
}

static void subtree_task(void* ctx, uint32_t worker, uint32_t workers)
{
    (void)workers;
    Build* b = ctx;
    for (;;) {
        uint32_t i = atomic_fetch_add(&b->next, 1u);
        if (i >= b->subtree_count)
            return;
        const Subtree* t = &b->subtrees[i];
        Bounds bounds, got;
        bounds_of(b->buffers[t->buf], t->begin, t->end, &bounds);
        build_node(b, &b->workers[worker], t->buf, t->begin, t->end, &bounds, t->depth, t->path, t->index, &got);
    }
}

/* The whole tree over lights[0..n) (buffer 0): its top on this thread, then its subtrees on a
 * pool's workers when there are enough lights to pay for starting one. The tree is the same
 * whoever builds which subtree. */
static int build_tree(Build* b, uint32_t n, uint32_t threads, RsError* err)
{
    Bounds root;
    bounds_of(b->buffers[0], 0, n, &root);
    uint32_t workers = n >= PARALLEL_MIN ? (threads ? threads : rs_cpu_count()) : 1;
    RsThreadPool* pool = NULL;
    if (workers > 1) {
        pool = rs_pool_create(workers, err);
        if (!pool)
            return -1;
        workers = rs_pool_size(pool);
    }
    b->workers = calloc(workers, sizeof *b->workers);
    b->worker_count = b->workers ? workers : 0;
    /* about 8 subtrees a worker, so that an uneven split does not leave one worker the rest */
    b->subtree_max = workers > 1 ? n / (8 * workers) : n;
    if (b->subtree_max < SAH_MIN + 1)
        b->subtree_max = SAH_MIN + 1;
    b->subtrees = malloc(n * sizeof *b->subtrees); /* as many as lights, should the splits be lopsided */
    if (!b->workers || !b->subtrees) {
        rs_pool_destroy(pool);
        return rs_error_set(err, "out of memory building the light tree (%u lights)", n);
    }
    atomic_init(&b->next, 0u);
    build_top(b, 0, 0, n, &root, 0, 0, 0);
    if (pool)
        rs_pool_run(pool, subtree_task, b);
    else
        subtree_task(b, 0, 1);
    rs_pool_destroy(pool);
    return 0;
}

static void set_axis(TreeLight* l, RsVec3 n, int two_sided)
{
    float len = rs_length(n);
    l->axis[3] = two_sided ? 1.0f : 0.0f;
    if (!(len > 0.0f)) { /* too small a triangle for its normal to be known */
        l->axis[0] = l->axis[1] = 0.0f;
        l->axis[2] = 1.0f;
        l->lo[3] = -1.0f;
        return;
    }
    n = rs_scale(n, 1.0f / len);
    if (two_sided) { /* the cone bounds the axis up to sign: one representative of the two */
        float big = rs_max_abs_component(n);
        float lead = fabsf(n.x) == big ? n.x : (fabsf(n.y) == big ? n.y : n.z);
        if (lead < 0.0f)
            n = rs_neg(n);
    }
    l->axis[0] = n.x;
    l->axis[1] = n.y;
    l->axis[2] = n.z;
}

/* The emitter of table entry `entry` as the tree sees it: a box, a cone (lo[3] = cos theta_o,
 * hi[3] = theta_e; pi / 2 but for spots), an axis. */
static void describe_light(const RsSceneView* v, uint32_t entry, double power, TreeLight* l)
{
    uint32_t emitter = rs_light_emitter(v->lights[entry]);
    RsVec3 lo, hi, axis = rs_vec3(0.0f, 0.0f, 1.0f);
    float cos_o = -1.0f, theta_e = (float)HALF_PI;
    int two_sided = 0;
    if (emitter & RS_LIGHT_POINT_BIT) {
        const RsPointLight* pl = &v->point_lights[emitter & ~RS_LIGHT_POINT_BIT];
        lo = hi = rs_xyz(pl->a);
        if (rs_float_as_uint(pl->a.w) == RS_POINT_LIGHT_SPOT) {
            double start = acos(fmax(-1.0, fmin(1.0, (double)pl->c.w)));
            double end = acos(fmax(-1.0, fmin(1.0, (double)pl->b.w)));
            axis = rs_xyz(pl->c);
            cos_o = (float)cos(start);
            theta_e = (float)fmin(fmax(end - start, 0.0) + SPOT_SLACK, PI);
        }
    } else if (rs_prim_type(&v->prims[emitter]) == RS_PRIM_SPHERE) {
        const RsPrim* prim = &v->prims[emitter];
        RsVec3 r = rs_vec3_splat(prim->b.x);
        lo = rs_sub(rs_xyz(prim->a), r);
        hi = rs_add(rs_xyz(prim->a), r);
    } else {
        const RsPrim* prim = &v->prims[emitter];
        RsVec3 v0 = rs_xyz(prim->a), v1 = rs_add(v0, rs_xyz(prim->b)), v2 = rs_add(v0, rs_xyz(prim->c));
        lo = rs_vmin(v0, rs_vmin(v1, v2));
        hi = rs_vmax(v0, rs_vmax(v1, v2));
        axis = rs_cross(rs_xyz(prim->b), rs_xyz(prim->c));
        cos_o = 1.0f;
        two_sided = rs_material_two_sided(&v->materials[rs_prim_material(prim)]) != 0;
    }
    float p = (float)power;
    l->lo[0] = lo.x, l->lo[1] = lo.y, l->lo[2] = lo.z, l->lo[3] = cos_o;
    l->hi[0] = hi.x, l->hi[1] = hi.y, l->hi[2] = hi.z, l->hi[3] = theta_e;
    l->power = p < FLT_MIN ? FLT_MIN : (p > POWER_MAX ? POWER_MAX : p);
    l->light = entry;
    set_axis(l, axis, two_sided);
}

int rs_light_tree_build(RsLightTree* tree, const RsSceneView* view, const double* power, uint32_t threads,
                        RsError* err)
{
    uint32_t count = view->light_count;
    if (count >= MAX_LIGHTS)
        return rs_error_set(err, "too many lights for the light tree (%u; at most %u)", count, MAX_LIGHTS - 1);
    Build b;
    memset(&b, 0, sizeof b);
    b.buffers[0] = rs_alloc_aligned(2 * (size_t)count, sizeof(TreeLight), 64);
    b.buffers[1] = b.buffers[0] ? b.buffers[0] + count : NULL;
    tree->trails = rs_alloc_aligned(count, sizeof(uint64_t), 16);
    tree->nodes = rs_alloc_aligned(count ? 8 * (size_t)count : 4, sizeof(RsFloat4), 64);
    if (!b.buffers[0] || !tree->trails || !tree->nodes) {
        free(b.buffers[0]);
        return rs_error_set(err, "out of memory building the light tree (%u lights)", count);
    }
    memset(tree->trails, 0, count * sizeof(uint64_t));
    uint32_t n = 0;
    double tree_power = 0.0, env_power = 0.0;
    for (uint32_t i = 0; i < count; ++i) {
        if (!(power[i] > 0.0) || !isfinite(power[i]))
            continue;
        if (i == view->env_light) {
            env_power = power[i];
            continue;
        }
        describe_light(view, i, power[i], &b.buffers[0][n++]);
        tree_power += power[i];
    }
    /* the environment's share of the power, as RS_LIGHT_SELECT_POWER gives it */
    tree->env_prob = env_power > 0.0 ? (n ? (float)(env_power / (env_power + tree_power)) : 1.0f) : 0.0f;
    int failed = 0;
    if (n) {
        b.nodes = tree->nodes;
        b.trails = tree->trails;
        failed = build_tree(&b, n, threads, err);
    }
    tree->node_count = n ? 2 * n - 1 : 0;
    tree->depth = 0;
    for (uint32_t w = 0; b.workers && w < b.worker_count; ++w)
        if (b.workers[w].depth > tree->depth)
            tree->depth = b.workers[w].depth;
    free(b.buffers[0]);
    free(b.workers);
    free(b.subtrees);
    return failed;
}

void rs_light_tree_free(RsLightTree* tree)
{
    free(tree->nodes);
    free(tree->trails);
    memset(tree, 0, sizeof *tree);
}
