/* bvh_binary_internal.h - what the files of the binary SAH builder share, and nothing else may
 * include. Host C11; not part of any public API (bvh_binary.h is).
 *
 * The builder is five files, from the bottom up:
 *   bvh_binary.c        box areas, primitive bounds and the exact clipping of a primitive to a
 *                       slab (what spatial splits cut references with), the tree's SAH cost;
 *   bvh_binary_split.c  the split search (binned object splits, spatial splits) and the
 *                       partitioning of a node's references by the split found;
 *   bvh_binary_task.c   one subtree's recursion, and the workers that share the task stack;
 *   bvh_binary_top.c    the top of the tree, each node split by every worker together;
 *   bvh_binary_build.c  rs_binary_bvh_build: the references' boxes, the root task, the result
 *                       renumbered depth-first (the same arrays whatever the thread count).
 * This header holds the types they pass each other and the small box and segment helpers that
 * every one of them calls in its inner loops (static inline, so that splitting the builder into
 * files cost no call per reference). It names no type of bvh_binary.h (only forward
 * declarations), so that bvh_binary.c may include it without an include circle.
 */
#ifndef RS_HOST_BVH_BINARY_INTERNAL_H
#define RS_HOST_BVH_BINARY_INTERNAL_H

#include <float.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "host/util/error.h"
#include "kernel/scene/scene_data.h"

/* Most SAH bins per axis a build may ask for (RsBinaryOptions.bins): the bin arrays live on the
 * stack. */
#define RS_BINARY_MAX_BINS 64

struct RsBinaryOptions;
struct RsBinaryNode;

typedef struct RsBinaryBox {
    RsVec3 lo, hi;
} RsBinaryBox;

/* A reference: a primitive and the part of its box that lies in the node. */
typedef struct RsBinaryRef {
    RsBinaryBox box;
    uint32_t prim;
    uint32_t pad_;
} RsBinaryRef;

/* References shared by a node's descendants (object splits partition them in place); freed
 * when its last user is done. */
typedef struct RsBinarySegment {
    RsBinaryRef* data;
    atomic_int users;
} RsBinarySegment;

/* A subtree to build: references [first, first + count) of seg into node `node`. */
typedef struct RsBinaryTask {
    RsBinarySegment* seg;
    uint32_t first, count, node, depth;
    uint32_t budget; /* references this subtree may grow to through spatial splits */
} RsBinaryTask;

/* One build's state, shared by every worker. */
typedef struct RsBinaryBuild {
    const RsPrim* prims;
    const struct RsBinaryOptions* opt;
    struct RsBinaryNode* nodes;
    uint32_t node_capacity;
    atomic_uint node_count;
    uint32_t* refs_out;
    uint32_t refs_capacity;
    atomic_uint refs_out_count;
    uint32_t ref_budget;
    float root_area;
    atomic_uint spatial_made;
    atomic_int failed;
    RsError* err;
    /* the task stack */
    pthread_mutex_t lock;
    pthread_cond_t cond;
    RsBinaryTask* tasks;
    uint32_t task_count, task_capacity, active;
} RsBinaryBuild;

typedef struct RsBinarySplit {
    int axis;     /* -1: none */
    int spatial;  /* 0: object split at bin boundary, 1: spatial split at a plane */
    int bin;      /* object: bins [0, bin] go left */
    float plane;  /* spatial: the cut */
    float cost;   /* A_L N_L + A_R N_R */
    RsBinaryBox left, right;
} RsBinarySplit;

/* ---- boxes ---- */

static inline RsBinaryBox rs_binary_box_empty(void)
{
    RsBinaryBox b = {rs_vec3_splat(FLT_MAX), rs_vec3_splat(-FLT_MAX)};
    return b;
}

static inline void rs_binary_box_grow(RsBinaryBox* b, RsBinaryBox o)
{
    b->lo = rs_vmin(b->lo, o.lo);
    b->hi = rs_vmax(b->hi, o.hi);
}

static inline RsBinaryBox rs_binary_box_intersect(RsBinaryBox a, RsBinaryBox b)
{
    RsBinaryBox r = {rs_vmax(a.lo, b.lo), rs_vmin(a.hi, b.hi)};
    return r;
}

/* rs_box_half_area's arithmetic (bvh_binary.c returns this), here for the inner loops. */
static inline float rs_binary_half_area(RsVec3 lo, RsVec3 hi)
{
    RsVec3 d = rs_sub(hi, lo);
    if (d.x < 0.0f || d.y < 0.0f || d.z < 0.0f)
        return 0.0f;
    return d.x * d.y + d.y * d.z + d.z * d.x;
}

static inline float rs_binary_box_area(RsBinaryBox b) { return rs_binary_half_area(b.lo, b.hi); }

static inline RsVec3 rs_binary_centroid(RsBinaryBox b) { return rs_scale(rs_add(b.lo, b.hi), 0.5f); }

static inline float rs_binary_axis(RsVec3 v, int axis) { return rs_vec3_get(v, axis); }

static inline void rs_binary_set_axis(RsVec3* v, int axis, float x)
{
    if (axis == 0)
        v->x = x;
    else if (axis == 1)
        v->y = x;
    else
        v->z = x;
}

/* ---- segments ---- */

static inline void rs_binary_segment_release(RsBinarySegment* seg)
{
    if (atomic_fetch_sub(&seg->users, 1) == 1) {
        free(seg->data);
        free(seg);
    }
}

/* A segment of room for `count` references and one user; NULL when out of memory. */
static inline RsBinarySegment* rs_binary_segment_new(uint32_t count)
{
    RsBinarySegment* s = malloc(sizeof *s);
    if (!s)
        return NULL;
    s->data = malloc((size_t)(count ? count : 1) * sizeof(RsBinaryRef));
    if (!s->data) {
        free(s);
        return NULL;
    }
    atomic_init(&s->users, 1);
    return s;
}

/* ---- bvh_binary.c ---- */

/* The part of primitive p inside the slab a <= x_axis <= b, bounded, and within `within`. */
RsBinaryBox rs_binary_clip_prim(const RsPrim* p, RsBinaryBox within, int axis, float a, float b);

/* ---- bvh_binary_split.c ---- */

/* Object-split bins of one node, filled by any number of workers over parts of its references
 * and merged: bounds and counts are exact, so the split found does not depend on the parts. */
typedef struct RsBinaryObjectBins {
    int bins, live[3];
    float lo[3], scale[3];
    RsBinaryBox box[3][RS_BINARY_MAX_BINS];
    uint32_t count[3][RS_BINARY_MAX_BINS];
} RsBinaryObjectBins;

/* Spatial-split bins of one node (the node box cut into `bins` slabs per axis), as above. */
typedef struct RsBinarySpatialBins {
    int bins, live[3];
    float lo[3], scale[3];
    RsBinaryBox box;
    RsBinaryBox bin_box[3][RS_BINARY_MAX_BINS];
    uint32_t entry[3][RS_BINARY_MAX_BINS], exit[3][RS_BINARY_MAX_BINS];
} RsBinarySpatialBins;

void rs_binary_object_bins_init(RsBinaryObjectBins* o, RsBinaryBox cbox, int bins);
void rs_binary_object_bins_add(RsBinaryObjectBins* o, const RsBinaryRef* r, uint32_t count);
void rs_binary_object_bins_merge(RsBinaryObjectBins* o, const RsBinaryObjectBins* from);
/* Best boundary of the merged bins over all three axes for a node of `count` references. */
RsBinarySplit rs_binary_object_best(const RsBinaryObjectBins* o, uint32_t count);
void rs_binary_spatial_bins_init(RsBinarySpatialBins* o, RsBinaryBox box, int bins);
void rs_binary_spatial_bins_add(RsBinarySpatialBins* o, const RsPrim* prims, const RsBinaryRef* r, uint32_t count);
void rs_binary_spatial_bins_merge(RsBinarySpatialBins* o, const RsBinarySpatialBins* from);
RsBinarySplit rs_binary_spatial_best(const RsBinarySpatialBins* o);

/* Bins for a node of `count` references, at most max_bins. */
int rs_binary_bins_for(uint32_t count, uint32_t max_bins);
/* Best object split over all three axes (axis -1: none); cbox bounds the centroids. */
RsBinarySplit rs_binary_object_split(const RsBinaryRef* r, uint32_t count, RsBinaryBox cbox, int bins);
/* Best spatial split of the node box `box` (axis -1: none). */
RsBinarySplit rs_binary_spatial_split(const RsBinaryBuild* c, const RsBinaryRef* r, uint32_t count, RsBinaryBox box,
                                      int bins);
/* Partitions the references in place by an object split; returns how many went left. */
uint32_t rs_binary_partition_object(RsBinaryRef* r, uint32_t count, RsBinarySplit s, RsBinaryBox cbox, int bins);
/* Where a spatial split puts one reference: bit 0 set when a piece went to *left, bit 1 when
 * one went to *right (a straddler is clipped exactly to both sides; an empty piece is dropped). */
int rs_binary_spatial_cut(const RsPrim* prims, const RsBinaryRef* ref, RsBinarySplit s, RsBinaryRef* left,
                          RsBinaryRef* right);
/* Copies the references into two new segments by a spatial split's plane; returns -1 when out
 * of memory, 0 when one side would be empty (the caller falls back to an object split). */
int rs_binary_partition_spatial(RsBinaryBuild* c, const RsBinaryRef* r, uint32_t count, RsBinarySplit s,
                                RsBinarySegment** left, uint32_t* nl, RsBinarySegment** right, uint32_t* nr);

/* ---- bvh_binary_task.c ---- */

/* Records the build's first failure (rs_binary_bvh_build returns it). */
void rs_binary_fail(RsBinaryBuild* c, const char* message);
/* Whether a node whose best object split is `object` tries a spatial split: enabled, the
 * children overlap by more than SPATIAL_ALPHA of the root's area, and budget is left. */
int rs_binary_spatial_wanted(const RsBinaryBuild* c, RsBinaryTask t, RsBinarySplit object, float node_area);
/* Makes node t.node interior over `box` with two new children, and gives lt and rt (t's
 * references, split between them) those nodes, their share of t's budget and the next depth.
 * -1 when the node budget is spent (the failure is recorded and the children's segments
 * released). */
int rs_binary_link_children(RsBinaryBuild* c, RsBinaryTask t, RsBinaryBox box, RsBinaryTask* lt, RsBinaryTask* rt);
/* Puts t on the task stack for any worker (bvh_binary_top.c fills it before the workers start). */
void rs_binary_task_push(RsBinaryBuild* c, RsBinaryTask t);

/* Builds subtree t on this thread, pushing big enough parts on the task stack when there is a
 * pool; releases t's segment. */
void rs_binary_task_build(RsBinaryBuild* c, RsBinaryTask t);
/* A pool worker (rs_pool_run with the RsBinaryBuild): takes tasks until the tree is done. */
void rs_binary_task_worker(void* ctx, uint32_t index, uint32_t workers);

/* ---- bvh_binary_top.c ---- */

/* Nodes of this many references or more are split by every worker together. A constant, not a
 * share of the pool: which partition a node gets must not depend on the thread count. */
#define RS_BINARY_TOP_MIN_REFS 32768u

/* Splits the top of the tree from `root` down to nodes under RS_BINARY_TOP_MIN_REFS with every
 * worker of the pool at once, leaving those nodes on the task stack. */
void rs_binary_top_build(RsBinaryBuild* c, RsBinaryTask root);

#endif /* RS_HOST_BVH_BINARY_INTERNAL_H */
