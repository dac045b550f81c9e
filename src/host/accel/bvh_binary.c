/* bvh_binary.c - parallel binned-SAH construction with optional spatial splits (see
 * bvh_binary.h). Host C11.
 *
 * A node's references (a primitive and the part of its box that lies in the node) are split by
 * the cheaper of:
 *   - an object split: centroids binned into `bins` buckets per axis, the boundary of least
 *     SAH cost A_L N_L + A_R N_R (Wald 2007); references are partitioned in place;
 *   - a spatial split (when enabled and the object split's children overlap by more than
 *     SPATIAL_ALPHA of the root's area, Stich et al. 2009): the node box cut into `bins` slabs
 *     per axis, each reference clipped to every slab it crosses (triangles are clipped exactly,
 *     so a long thin triangle only adds its own slab-sized pieces), the boundary of least cost;
 *     straddling references go to both sides with clipped boxes. Duplication is limited to
 *     REF_BUDGET times the primitives: each subtree gets a share of that budget in proportion to
 *     its references, so the tree does not depend on which worker ran first.
 * A node becomes a leaf when it holds at most max_leaf references and the SAH prefers a leaf
 * (or it holds min_leaf or fewer), or at RS_BINARY_MAX_DEPTH. Coincident centroids that no
 * boundary separates are split at the object median.
 *
 * Parallelism: subtrees of TASK_MIN_REFS references or more go on a shared task stack that
 * every worker of the pool takes from; smaller ones are finished by the worker that made them.
 * Nodes and leaf ranges are reserved with atomic counters in arrays sized in advance, so no
 * worker ever waits for another except at the task stack. References live in segments shared by
 * a node's descendants (object splits partition in place); a spatial split copies into two new
 * segments, and a segment is freed when its last user is done.
 */
#define _POSIX_C_SOURCE 200809L
#include "host/accel/bvh_binary.h"

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BINS 64
#define TASK_MIN_REFS 4096
#define SPATIAL_ALPHA 1e-5f
#define REF_BUDGET 2u

typedef struct Box {
    RsVec3 lo, hi;
} Box;

typedef struct Ref {
    Box box;
    uint32_t prim;
    uint32_t pad_;
} Ref;

typedef struct Segment {
    Ref* data;
    atomic_int users;
} Segment;

typedef struct Task {
    Segment* seg;
    uint32_t first, count, node, depth;
    uint32_t budget; /* references this subtree may grow to through spatial splits */
} Task;

typedef struct Ctx {
    const RsPrim* prims;
    const RsBinaryOptions* opt;
    RsBinaryNode* nodes;
    uint32_t node_capacity;
    atomic_uint node_count;
    uint32_t* refs_out;
    uint32_t refs_capacity;
    atomic_uint refs_out_count;
    uint32_t ref_budget;
    float root_area;
    atomic_uint depth;
    atomic_uint spatial_made;
    atomic_int failed;
    RsError* err;
    /* the task stack */
    pthread_mutex_t lock;
    pthread_cond_t cond;
    Task* tasks;
    uint32_t task_count, task_capacity, active;
} Ctx;

static Box box_empty(void)
{
    Box b = {rs_vec3_splat(FLT_MAX), rs_vec3_splat(-FLT_MAX)};
    return b;
}

static void box_grow(Box* b, Box o)
{
    b->lo = rs_vmin(b->lo, o.lo);
    b->hi = rs_vmax(b->hi, o.hi);
}

static void box_grow_point(Box* b, RsVec3 p)
{
    b->lo = rs_vmin(b->lo, p);
    b->hi = rs_vmax(b->hi, p);
}

static int box_valid(Box b) { return b.lo.x <= b.hi.x && b.lo.y <= b.hi.y && b.lo.z <= b.hi.z; }

static Box box_intersect(Box a, Box b)
{
    Box r = {rs_vmax(a.lo, b.lo), rs_vmin(a.hi, b.hi)};
    return r;
}

float rs_box_half_area(RsVec3 lo, RsVec3 hi)
{
    RsVec3 d = rs_sub(hi, lo);
    if (d.x < 0.0f || d.y < 0.0f || d.z < 0.0f)
        return 0.0f;
    return d.x * d.y + d.y * d.z + d.z * d.x;
}

static float area(Box b) { return rs_box_half_area(b.lo, b.hi); }

static RsVec3 centroid(Box b) { return rs_scale(rs_add(b.lo, b.hi), 0.5f); }

static float axis_of(RsVec3 v, int axis) { return rs_vec3_get(v, axis); }

static void set_axis(RsVec3* v, int axis, float x)
{
    if (axis == 0)
        v->x = x;
    else if (axis == 1)
        v->y = x;
    else
        v->z = x;
}

/* Float box enclosing a box given in double: rounded outwards. */
static Box box_from_double(const double lo[3], const double hi[3])
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
    Box b = {rs_vec3(l[0], l[1], l[2]), rs_vec3(h[0], h[1], h[2])};
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
    Box b = box_from_double(l, h);
    *lo = b.lo;
    *hi = b.hi;
}

/* The part of primitive p inside the slab a <= x_axis <= b, bounded, and within `within`. */
static Box clip_prim(const RsPrim* p, Box within, int axis, float a, float b)
{
    Box slab = within;
    set_axis(&slab.lo, axis, rs_maxf(axis_of(within.lo, axis), a));
    set_axis(&slab.hi, axis, rs_minf(axis_of(within.hi, axis), b));
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
        return box_empty();
    return box_intersect(box_from_double(lo, hi), slab);
}

/* ---- bookkeeping ---- */

static void fail(Ctx* c, const char* message)
{
    int expected = 0;
    if (atomic_compare_exchange_strong(&c->failed, &expected, 1))
        rs_error_set(c->err, "%s", message);
}

static void release(Segment* seg)
{
    if (atomic_fetch_sub(&seg->users, 1) == 1) {
        free(seg->data);
        free(seg);
    }
}

static Segment* new_segment(uint32_t count)
{
    Segment* s = malloc(sizeof *s);
    if (!s)
        return NULL;
    s->data = malloc((size_t)(count ? count : 1) * sizeof(Ref));
    if (!s->data) {
        free(s);
        return NULL;
    }
    atomic_init(&s->users, 1);
    return s;
}

static void atomic_max_u(atomic_uint* a, uint32_t v)
{
    uint32_t cur = atomic_load(a);
    while (v > cur && !atomic_compare_exchange_weak(a, &cur, v)) {
    }
}

/* ---- split search ---- */

typedef struct Split {
    int axis;     /* -1: none */
    int spatial;  /* 0: object split at bin boundary, 1: spatial split at a plane */
    int bin;      /* object: bins [0, bin] go left */
    float plane;  /* spatial: the cut */
    float cost;   /* A_L N_L + A_R N_R */
    Box left, right;
} Split;

static int bin_of(float x, float lo, float scale, int bins)
{
    int b = (int)((x - lo) * scale);
    return b < 0 ? 0 : (b >= bins ? bins - 1 : b);
}

/* Best object split over all three axes; the references are binned in one pass. */
static Split object_split(const Ref* r, uint32_t count, Box cbox, int bins)
{
    Split best = {-1, 0, 0, 0.0f, FLT_MAX, box_empty(), box_empty()};
    Box bin_box[3][MAX_BINS];
    uint32_t bin_count[3][MAX_BINS];
    float lo[3] = {0.0f, 0.0f, 0.0f}, scale[3] = {0.0f, 0.0f, 0.0f};
    int live[3] = {0, 0, 0};
    for (int axis = 0; axis < 3; ++axis) {
        lo[axis] = axis_of(cbox.lo, axis);
        float hi = axis_of(cbox.hi, axis);
        live[axis] = hi > lo[axis];
        scale[axis] = live[axis] ? (float)bins / (hi - lo[axis]) : 0.0f;
        for (int i = 0; i < bins; ++i) {
            bin_box[axis][i] = box_empty();
            bin_count[axis][i] = 0;
        }
    }
    for (uint32_t i = 0; i < count; ++i) {
        RsVec3 c = centroid(r[i].box);
        for (int axis = 0; axis < 3; ++axis) {
            int b = bin_of(axis_of(c, axis), lo[axis], scale[axis], bins);
            bin_count[axis][b]++;
            box_grow(&bin_box[axis][b], r[i].box);
        }
    }
    for (int axis = 0; axis < 3; ++axis) {
        if (!live[axis])
            continue;
        float right_cost[MAX_BINS];
        Box right_box[MAX_BINS];
        Box acc = box_empty();
        uint32_t n = 0;
        for (int i = bins - 1; i > 0; --i) {
            box_grow(&acc, bin_box[axis][i]);
            n += bin_count[axis][i];
            right_cost[i - 1] = n ? area(acc) * (float)n : 0.0f;
            right_box[i - 1] = acc;
        }
        acc = box_empty();
        n = 0;
        for (int i = 0; i < bins - 1; ++i) {
            box_grow(&acc, bin_box[axis][i]);
            n += bin_count[axis][i];
            if (n == 0 || n == count)
                continue;
            float cost = area(acc) * (float)n + right_cost[i];
            if (cost < best.cost) {
                best.axis = axis;
                best.bin = i;
                best.cost = cost;
                best.left = acc;
                best.right = right_box[i];
            }
        }
    }
    return best;
}

/* Bins for a node of `count` references: the full count for big nodes, where a better split
 * pays back over many rays, and about two per reference below that, since more bins than
 * references only cost sweep time. */
static int bins_for(uint32_t count, uint32_t max_bins)
{
    uint32_t b = 2 * count;
    return (int)(b < 4 ? 4 : (b > max_bins ? max_bins : b));
}

static float spatial_plane(Box box, int axis, int i, int bins)
{
    float lo = axis_of(box.lo, axis), hi = axis_of(box.hi, axis);
    return lo + (hi - lo) * ((float)i / (float)bins);
}

static Split spatial_split(const Ctx* c, const Ref* r, uint32_t count, Box box, int bins)
{
    Split best = {-1, 1, 0, 0.0f, FLT_MAX, box_empty(), box_empty()};
    for (int axis = 0; axis < 3; ++axis) {
        float lo = axis_of(box.lo, axis), hi = axis_of(box.hi, axis);
        if (!(hi > lo))
            continue;
        float scale = (float)bins / (hi - lo);
        Box bin_box[MAX_BINS];
        uint32_t entry[MAX_BINS] = {0}, exit_[MAX_BINS] = {0};
        for (int i = 0; i < bins; ++i)
            bin_box[i] = box_empty();
        for (uint32_t i = 0; i < count; ++i) {
            int b0 = bin_of(axis_of(r[i].box.lo, axis), lo, scale, bins);
            int b1 = bin_of(axis_of(r[i].box.hi, axis), lo, scale, bins);
            entry[b0]++;
            exit_[b1]++;
            const RsPrim* p = &c->prims[r[i].prim];
            for (int b = b0; b <= b1; ++b) {
                Box piece = b0 == b1 ? r[i].box
                                     : clip_prim(p, r[i].box, axis, spatial_plane(box, axis, b, bins),
                                                 spatial_plane(box, axis, b + 1, bins));
                box_grow(&bin_box[b], piece);
            }
        }
        float right_cost[MAX_BINS];
        Box right_box[MAX_BINS];
        Box acc = box_empty();
        uint32_t n = 0;
        for (int i = bins - 1; i > 0; --i) {
            box_grow(&acc, bin_box[i]);
            n += exit_[i];
            right_cost[i - 1] = n ? area(acc) * (float)n : 0.0f;
            right_box[i - 1] = acc;
        }
        acc = box_empty();
        n = 0;
        for (int i = 0; i < bins - 1; ++i) {
            box_grow(&acc, bin_box[i]);
            n += entry[i];
            uint32_t right_n = 0;
            for (int j = i + 1; j < bins; ++j)
                right_n += exit_[j];
            if (n == 0 || right_n == 0)
                continue;
            float cost = area(acc) * (float)n + right_cost[i];
            if (cost < best.cost) {
                best.axis = axis;
                best.plane = spatial_plane(box, axis, i + 1, bins);
                best.cost = cost;
                best.left = acc;
                best.right = right_box[i];
            }
        }
    }
    return best;
}

/* ---- partitioning ---- */

static uint32_t partition_object(Ref* r, uint32_t count, Split s, Box cbox, int bins)
{
    float lo = axis_of(cbox.lo, s.axis), hi = axis_of(cbox.hi, s.axis);
    float scale = (float)bins / (hi - lo);
    uint32_t i = 0, j = count;
    while (i < j) {
        if (bin_of(axis_of(centroid(r[i].box), s.axis), lo, scale, bins) <= s.bin) {
            ++i;
        } else {
            --j;
            Ref t = r[i];
            r[i] = r[j];
            r[j] = t;
        }
    }
    return i;
}

/* Copies the references into two new segments by the plane; returns -1 when out of memory,
 * 0 when one side would be empty (the caller falls back to an object split). */
static int partition_spatial(Ctx* c, const Ref* r, uint32_t count, Split s, Segment** left, uint32_t* nl,
                             Segment** right, uint32_t* nr)
{
    /* a reference goes left when it ends at or before the plane (a flat one lying in it too),
     * right when it starts at or after it, and to both, clipped, when it straddles it */
    uint32_t l = 0, rr = 0;
    for (uint32_t i = 0; i < count; ++i) {
        float lo = axis_of(r[i].box.lo, s.axis), hi = axis_of(r[i].box.hi, s.axis);
        l += hi <= s.plane || lo < s.plane;
        rr += !(hi <= s.plane) && (lo >= s.plane || hi > s.plane);
    }
    if (l == 0 || rr == 0)
        return 0;
    *left = new_segment(l);
    *right = new_segment(rr);
    if (!*left || !*right) {
        if (*left)
            release(*left);
        if (*right)
            release(*right);
        return -1;
    }
    uint32_t a = 0, b = 0;
    for (uint32_t i = 0; i < count; ++i) {
        float lo = axis_of(r[i].box.lo, s.axis), hi = axis_of(r[i].box.hi, s.axis);
        if (hi <= s.plane) {
            (*left)->data[a++] = r[i];
        } else if (lo >= s.plane) {
            (*right)->data[b++] = r[i];
        } else {
            const RsPrim* p = &c->prims[r[i].prim];
            Ref piece = r[i];
            piece.box = clip_prim(p, r[i].box, s.axis, lo, s.plane);
            if (box_valid(piece.box))
                (*left)->data[a++] = piece;
            piece.box = clip_prim(p, r[i].box, s.axis, s.plane, hi);
            if (box_valid(piece.box))
                (*right)->data[b++] = piece;
        }
    }
    *nl = a;
    *nr = b;
    return a > 0 && b > 0 ? 1 : 0;
}

/* ---- the recursion ---- */

static void push_task(Ctx* c, Task t)
{
    pthread_mutex_lock(&c->lock);
    if (c->task_count == c->task_capacity) {
        uint32_t cap = c->task_capacity ? 2 * c->task_capacity : 64;
        Task* grown = realloc(c->tasks, cap * sizeof *grown);
        if (!grown) {
            pthread_mutex_unlock(&c->lock);
            fail(c, "out of memory queueing BVH build tasks");
            release(t.seg);
            return;
        }
        c->tasks = grown;
        c->task_capacity = cap;
    }
    c->tasks[c->task_count++] = t;
    pthread_cond_signal(&c->cond);
    pthread_mutex_unlock(&c->lock);
}

static void make_leaf(Ctx* c, Task t, Box box)
{
    RsBinaryNode* n = &c->nodes[t.node];
    uint32_t first = atomic_fetch_add(&c->refs_out_count, t.count);
    if (first + t.count > c->refs_capacity) {
        fail(c, "internal error: BVH leaf references exceed their budget");
        release(t.seg);
        return;
    }
    for (uint32_t i = 0; i < t.count; ++i)
        c->refs_out[first + i] = t.seg->data[t.first + i].prim;
    n->lo = box.lo;
    n->hi = box.hi;
    n->left = n->right = 0;
    n->first = first;
    n->count = t.count;
    release(t.seg);
}

static void build(Ctx* c, Task t)
{
    for (;;) {
        if (atomic_load(&c->failed)) {
            release(t.seg);
            return;
        }
        const RsBinaryOptions* opt = c->opt;
        Ref* r = t.seg->data + t.first;
        Box box = box_empty(), cbox = box_empty();
        for (uint32_t i = 0; i < t.count; ++i) {
            box_grow(&box, r[i].box);
            box_grow_point(&cbox, centroid(r[i].box));
        }
        atomic_max_u(&c->depth, t.depth);
        int bins = bins_for(t.count, opt->bins);
        int leaf = t.count <= opt->min_leaf || t.depth >= RS_BINARY_MAX_DEPTH;
        Split s = {-1, 0, 0, 0.0f, FLT_MAX, box_empty(), box_empty()};
        if (!leaf) {
            s = object_split(r, t.count, cbox, bins);
            float node_area = area(box);
            if (opt->spatial_splits && s.axis >= 0 && node_area > 0.0f &&
                area(box_intersect(s.left, s.right)) > SPATIAL_ALPHA * c->root_area && t.budget > t.count) {
                Split sp = spatial_split(c, r, t.count, box, bins);
                if (sp.axis >= 0 && sp.cost < s.cost)
                    s = sp;
            }
            float split_cost = opt->node_cost + (s.axis >= 0 ? s.cost / node_area : FLT_MAX);
            leaf = t.count <= opt->max_leaf && (!(node_area > 0.0f) || (float)t.count <= split_cost);
        }
        if (leaf) {
            make_leaf(c, t, box);
            return;
        }
        Task lt = t, rt = t;
        if (s.spatial) {
            Segment *ls = NULL, *rs = NULL;
            uint32_t nl = 0, nr = 0;
            int ok = partition_spatial(c, r, t.count, s, &ls, &nl, &rs, &nr);
            if (ok < 0) {
                fail(c, "out of memory splitting BVH references");
                release(t.seg);
                return;
            }
            if (ok > 0 && nl + nr > t.budget) { /* over this subtree's share: no duplication */
                release(ls);
                release(rs);
                ok = 0;
                ls = rs = NULL;
            }
            if (ok == 0) { /* degenerate or too costly a cut: use the object split instead */
                if (ls)
                    release(ls);
                if (rs)
                    release(rs);
                s = object_split(r, t.count, cbox, bins);
                s.spatial = 0;
            } else {
                atomic_fetch_add(&c->spatial_made, 1u);
                release(t.seg);
                lt.seg = ls;
                lt.first = 0;
                lt.count = nl;
                rt.seg = rs;
                rt.first = 0;
                rt.count = nr;
            }
        }
        if (!s.spatial) {
            uint32_t nl = s.axis >= 0 ? partition_object(r, t.count, s, cbox, bins) : 0;
            if (nl == 0 || nl == t.count)
                nl = t.count / 2; /* coincident centroids: the object median keeps leaves small */
            atomic_fetch_add(&t.seg->users, 1); /* both children use the segment */
            lt.count = nl;
            rt.first = t.first + nl;
            rt.count = t.count - nl;
        }
        uint32_t children = atomic_fetch_add(&c->node_count, 2u);
        if (children + 2 > c->node_capacity) {
            fail(c, "internal error: BVH nodes exceed their budget");
            release(lt.seg);
            release(rt.seg);
            return;
        }
        RsBinaryNode* n = &c->nodes[t.node];
        n->lo = box.lo;
        n->hi = box.hi;
        n->left = children;
        n->right = children + 1;
        n->first = 0;
        n->count = 0;
        lt.node = children;
        rt.node = children + 1;
        /* the budget follows the references; each child keeps at least its own */
        uint64_t total = (uint64_t)lt.count + rt.count;
        lt.budget = (uint32_t)((uint64_t)t.budget * lt.count / total);
        rt.budget = (uint32_t)((uint64_t)t.budget * rt.count / total);
        lt.depth = rt.depth = t.depth + 1;
        /* hand the smaller side to the pool when it is worth a task; go on with the other */
        Task small = lt.count < rt.count ? lt : rt, big = lt.count < rt.count ? rt : lt;
        if (opt->pool && small.count >= TASK_MIN_REFS)
            push_task(c, small);
        else
            build(c, small);
        t = big;
    }
}

static void worker(void* ctx, uint32_t index, uint32_t workers)
{
    (void)index;
    (void)workers;
    Ctx* c = ctx;
    pthread_mutex_lock(&c->lock);
    for (;;) {
        while (c->task_count == 0 && c->active > 0)
            pthread_cond_wait(&c->cond, &c->lock);
        if (c->task_count == 0)
            break; /* nothing queued and nobody working: the tree is done */
        Task t = c->tasks[--c->task_count];
        c->active++;
        pthread_mutex_unlock(&c->lock);
        build(c, t);
        pthread_mutex_lock(&c->lock);
        if (--c->active == 0 && c->task_count == 0)
            pthread_cond_broadcast(&c->cond);
    }
    pthread_cond_broadcast(&c->cond);
    pthread_mutex_unlock(&c->lock);
}

typedef struct BoundsTask {
    const RsPrim* prims;
    Ref* refs;
    uint32_t count;
} BoundsTask;

static void bounds_task(void* ctx, uint32_t w, uint32_t workers)
{
    BoundsTask* t = ctx;
    uint64_t begin, end;
    rs_pool_share(t->count, w, workers, &begin, &end);
    for (uint64_t i = begin; i < end; ++i) {
        rs_prim_bounds(&t->prims[i], &t->refs[i].box.lo, &t->refs[i].box.hi);
        t->refs[i].prim = (uint32_t)i;
        t->refs[i].pad_ = 0;
    }
}

static uint32_t tree_depth(const RsBinaryNode* nodes, uint32_t node)
{
    uint32_t stack_nodes[2 * (RS_BINARY_MAX_DEPTH + 2)], stack_depth[2 * (RS_BINARY_MAX_DEPTH + 2)];
    uint32_t sp = 0, deepest = 0;
    stack_nodes[sp] = node;
    stack_depth[sp++] = 0;
    while (sp) {
        --sp;
        uint32_t n = stack_nodes[sp], d = stack_depth[sp];
        if (d > deepest)
            deepest = d;
        if (nodes[n].count == 0) {
            stack_nodes[sp] = nodes[n].left;
            stack_depth[sp++] = d + 1;
            stack_nodes[sp] = nodes[n].right;
            stack_depth[sp++] = d + 1;
        }
    }
    return deepest;
}

int rs_binary_bvh_build(const RsPrim* prims, uint32_t count, const RsBinaryOptions* opt, RsBinaryBvh* out,
                        RsError* err)
{
    memset(out, 0, sizeof *out);
    if (count == 0)
        return rs_error_set(err, "cannot build a BVH over no primitives");
    if (opt->bins < 2 || opt->bins > MAX_BINS)
        return rs_error_set(err, "BVH builder: %u SAH bins (must be 2..%d)", opt->bins, MAX_BINS);
    Ctx c;
    memset(&c, 0, sizeof c);
    c.prims = prims;
    c.opt = opt;
    c.err = err;
    c.ref_budget = opt->spatial_splits ? REF_BUDGET * count : count;
    c.refs_capacity = c.ref_budget;
    c.node_capacity = 2 * c.ref_budget;
    atomic_init(&c.node_count, 1u);
    atomic_init(&c.refs_out_count, 0u);
    atomic_init(&c.depth, 0u);
    atomic_init(&c.spatial_made, 0u);
    atomic_init(&c.failed, 0);
    c.nodes = malloc((size_t)c.node_capacity * sizeof *c.nodes);
    c.refs_out = malloc((size_t)c.refs_capacity * sizeof *c.refs_out);
    Segment* root = new_segment(count);
    if (!c.nodes || !c.refs_out || !root) {
        free(c.nodes);
        free(c.refs_out);
        if (root)
            release(root);
        return rs_error_set(err, "out of memory building a BVH over %u primitives", count);
    }
    BoundsTask bt = {prims, root->data, count};
    if (opt->pool)
        rs_pool_run(opt->pool, bounds_task, &bt);
    else
        bounds_task(&bt, 0, 1);
    Box all = box_empty();
    for (uint32_t i = 0; i < count; ++i)
        box_grow(&all, root->data[i].box);
    c.root_area = area(all);

    Task first = {root, 0, count, 0, 0, c.ref_budget};
    if (opt->pool) {
        pthread_mutex_init(&c.lock, NULL);
        pthread_cond_init(&c.cond, NULL);
        c.tasks = malloc(64 * sizeof *c.tasks);
        c.task_capacity = c.tasks ? 64 : 0;
        c.tasks[c.task_count++] = first;
        rs_pool_run(opt->pool, worker, &c);
        pthread_cond_destroy(&c.cond);
        pthread_mutex_destroy(&c.lock);
        free(c.tasks);
    } else {
        build(&c, first);
    }
    if (atomic_load(&c.failed)) {
        free(c.nodes);
        free(c.refs_out);
        return -1;
    }
    out->nodes = c.nodes;
    out->node_count = atomic_load(&c.node_count);
    out->refs = c.refs_out;
    out->ref_count = atomic_load(&c.refs_out_count);
    out->depth = tree_depth(c.nodes, 0);
    out->spatial_splits_made = atomic_load(&c.spatial_made);
    return 0;
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
