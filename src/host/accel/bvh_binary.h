/* bvh_binary.h - the binary SAH tree that both BVHs start from.
 *
 * Host C11. Binned SAH construction (Wald, "On fast Construction of SAH-based Bounding Volume
 * Hierarchies", 2007), optionally with spatial splits (Stich, Friedrich, Dietrich, "Spatial
 * Splits in Bounding Volume Hierarchies", HPG 2009), run in parallel over the thread pool: each
 * node at the top of the tree is split by every worker together, and every subtree below of
 * more than a few thousand references becomes a task that any idle worker takes. The nodes and
 * references come out the same, byte for byte, whatever the thread count. host/accel/bvh2_build.c flattens
 * the result into two-wide nodes; host/accel/bvh8_build.c collapses it into eight-wide ones.
 */
#ifndef RS_HOST_BVH_BINARY_H
#define RS_HOST_BVH_BINARY_H

#include "host/util/error.h"
#include "host/util/thread_pool.h"
#include "kernel/accel/bvh2.h"
#include "kernel/scene/scene_data.h"

typedef struct RsBinaryOptions {
    uint32_t max_leaf;     /* primitives a leaf may hold; more are always split */
    uint32_t min_leaf;     /* 1: split down to single primitives whatever the SAH says */
    uint32_t bins;         /* SAH bins per axis (and spatial-split bins) */
    int spatial_splits;    /* SBVH: split references where boxes overlap */
    float node_cost;       /* SAH cost of visiting a node, in units of one primitive test */
    RsThreadPool* pool;    /* NULL: build on the calling thread */
} RsBinaryOptions;

typedef struct RsBinaryNode {
    RsVec3 lo, hi;
    uint32_t left, right;  /* interior: child node indices */
    uint32_t first, count; /* leaf: range in RsBinaryBvh.refs; count 0 = interior */
} RsBinaryNode;

typedef struct RsBinaryBvh {
    RsBinaryNode* nodes;   /* node 0 is the root */
    uint32_t node_count;
    uint32_t* refs;        /* scene primitive indices in leaf order (repeats after spatial splits) */
    uint32_t ref_count;
    uint32_t depth;        /* longest root-to-leaf path in edges */
    uint32_t spatial_splits_made;
} RsBinaryBvh;

/* Deepest tree the builder makes: 2-wide traversal stacks are sized from it. */
#define RS_BINARY_MAX_DEPTH 62

int rs_binary_bvh_build(const RsPrim* prims, uint32_t count, const RsBinaryOptions* opt, RsBinaryBvh* out,
                        RsError* err);
void rs_binary_bvh_free(RsBinaryBvh* bvh);

/* SAH cost of the tree per ray, normalised by the root's area: node_cost per interior node
 * visited plus one per primitive tested. */
double rs_binary_bvh_sah(const RsBinaryBvh* bvh, float node_cost);

/* The tree flattened into bvh2's layout (bvh2_build.c): view's nodes and trace primitives,
 * which the caller then owns, and the flat tree's leaf count. With `collapse`, small subtrees
 * become leaves where the SAH says so (for a tree built down to single primitives). */
int rs_bvh2_from_binary(const RsBinaryBvh* bin, const RsPrim* prims, int collapse, RsBvh2View* view,
                        uint32_t* leaf_count, RsError* err);

/* A primitive type only builders see: a = box low corner, b = high corner (the TLAS builds over
 * instances' world boxes this way, without spatial splits). */
#define RS_PRIM_BOX 2u

/* Bounding box of one primitive. */
void rs_prim_bounds(const RsPrim* p, RsVec3* lo, RsVec3* hi);

/* Half the surface area of a box; 0 for an empty one. */
float rs_box_half_area(RsVec3 lo, RsVec3 hi);

#endif /* RS_HOST_BVH_BINARY_H */
