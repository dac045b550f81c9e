/* accel_build.h - building acceleration structures on the host, and what they cost.
 *
 * Host C11. One builder per structure (accel_<name>_build.c), dispatched through the RS_ACCELS
 * table of src/kernel/accel/accel.h; this file's rs_accel_build times it and fills the view that
 * per-ray code and the backends read. Every array a view points to is owned by the RsAccel.
 */
#ifndef RS_HOST_ACCEL_BUILD_H
#define RS_HOST_ACCEL_BUILD_H

#include "host/util/error.h"
#include "host/util/thread_pool.h"
#include "kernel/accel/accel.h"

typedef struct RsAccelOptions {
    uint32_t kind;       /* RsAccelKind */
    int spatial_splits;  /* BVHs: SBVH reference splitting */
    uint32_t bins;       /* BVHs: SAH bins per axis; 0 = the default */
    uint32_t threads;    /* build threads; 0 = one per processor */
    int camera_tree;     /* bvh8: keep the binary tree for camera rays (RsAccelView.camera_tree) */
    int two_level;       /* scenes: route the world's primitives through one identity instance
                            (--two-level; the two-level path's cost on a flat scene) */
    RsThreadPool* pool;  /* set by rs_accel_build for the builders */
} RsAccelOptions;

#define RS_ACCEL_DEFAULT_BINS 32

typedef struct RsAccelStats {
    double build_seconds;
    double sah_cost;        /* expected cost per ray by the surface-area heuristic (see each builder); 0 for the grid */
    uint32_t nodes;         /* BVH nodes; grid: cells */
    uint32_t leaves;        /* BVH leaves (bvh8: leaf slots); grid: non-empty cells */
    uint32_t depth;         /* BVH: deepest interior node; grid: 0 */
    uint32_t spatial_splits;/* spatial splits made */
    uint64_t references;    /* trace primitives, or grid cell entries */
    uint64_t bytes;         /* memory the structure takes on a device: nodes, cells and trace primitives */
    uint64_t camera_tree_bytes; /* of which bvh8's camera tree */
} RsAccelStats;

typedef struct RsAccel {
    RsAccelView view;
    RsAccelStats stats;
    void* owned[4]; /* the arrays the view points to */
} RsAccel;

/* The default: kind bvh8 with spatial splits (SBVH) and its camera tree, RS_ACCEL_DEFAULT_BINS
 * bins, every processor. */
RsAccelOptions rs_accel_options_default(void);

/* Builds the structure opt->kind over prims on opt->threads threads; times it. */
int rs_accel_build(const RsPrim* prims, uint32_t count, const RsAccelOptions* opt, RsAccel* out, RsError* err);
void rs_accel_free(RsAccel* a);

const char* rs_accel_name(uint32_t kind);
const char* rs_accel_help(uint32_t kind);
int rs_accel_parse(const char* name, uint32_t* kind);
/* "bvh2, bvh8, grid" for help texts */
const char* rs_accel_list(void);

/* The per-structure builders (fill view, stats except build_seconds, and owned). */
#define RS_ACCEL_BUILDER(e, name, help) \
    int rs_accel_##name##_build(const RsPrim* prims, uint32_t count, const RsAccelOptions* opt, RsAccel* out, RsError* err);
RS_ACCELS(RS_ACCEL_BUILDER)
#undef RS_ACCEL_BUILDER

/* The two-level part of a scene with instances (kernel/accel/two_level.h): a BLAS per object,
 * concatenated, and a TLAS over the instances. The instance records stay the caller's. */
typedef struct RsTwoLevel {
    RsInstanceView view;
    RsObjectBlas* objects;
    RsBvh2Node* tlas;
    void* blas_nodes; /* RsBvh2Node or RsBvh8Node, as the kind */
    RsPrim* blas_prims;
    uint32_t blas_node_count, blas_prim_count;
    uint32_t blas_depth, tlas_depth;
    RsVec3 bounds_lo, bounds_hi; /* of the instances' world boxes */
    uint64_t blas_bytes, tlas_bytes, instance_bytes; /* what each part takes on a device */
    double build_seconds;
} RsTwoLevel;

/* Builds a BLAS of opt->kind (bvh2 or bvh8) over prims[ranges[2o], +ranges[2o+1]) for every
 * object o, and the TLAS over `instances` (their meta.x names the object). */
int rs_two_level_build(const RsPrim* prims, const uint32_t* ranges, uint32_t object_count, const RsInstance* instances,
                       uint32_t instance_count, const RsAccelOptions* opt, RsTwoLevel* out, RsError* err);
void rs_two_level_free(RsTwoLevel* t);

/* The world box of instance `in` of an object whose box is [lo, hi]: the box's corners through
 * to_world, rounded out and padded for traversal's float transform (exact for an identity).
 * The scene's bounds with instances are made of these, whichever the structure. */
void rs_instance_world_box(const RsInstance* in, RsVec3 lo, RsVec3 hi, RsVec3* out_lo, RsVec3* out_hi);

/* Trace primitives (src/kernel/accel/trace_hit.h) for refs[0..n): copies of the scene primitives with
 * a.w naming their scene index. NULL when out of memory. */
RsPrim* rs_trace_prims_make(const RsPrim* prims, const uint32_t* refs, uint32_t n);

#endif /* RS_HOST_ACCEL_BUILD_H */
