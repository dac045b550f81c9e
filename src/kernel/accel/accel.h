/* accel.h - the acceleration-structure seam: which structures exist, and one closest-hit and
 * one any-hit entry point that stage code calls without knowing which structure it walks.
 *
 * Shared header (gcc C11, g++, nvcc). RS_ACCELS is the one table of structures (X-macro, like
 * ray_state_fields.h): the enum here, and names, help texts and builders in src/host/accel/accel.c,
 * are generated from it. Adding a structure touches this table, its own accel_<name>.h and its
 * builder, nothing else.
 *
 * The dispatch takes the kind as an argument so that a caller that knows it at compile time
 * (a CUDA kernel instantiated per structure) gets only that structure's code inlined, with its
 * own register budget; the CPU passes the scene's kind at run time.
 */
#ifndef RS_KERNEL_ACCEL_H
#define RS_KERNEL_ACCEL_H

#include "kernel/accel/bvh2.h"
#include "kernel/accel/bvh8.h"
#include "kernel/accel/grid.h"
#include "kernel/accel/two_level.h"

/*   X(ENUM, name, help) */
#define RS_ACCELS(X)                                                                                         \
    X(BVH2, bvh2, "binary SAH BVH, both child boxes in one 64-byte node, stack traversal (the baseline)")   \
    X(BVH8, bvh8, "8-wide compressed BVH (Ylitie et al. 2017): 80-byte nodes of quantized child boxes, "    \
                  "visited in ray-octant order")                                                             \
    X(GRID, grid, "uniform grid (Purcell, GPU Gems 2 ch. 33): 3D-DDA through cells of primitive lists")

#define RS_ACCEL_ENUM(e, name, help) RS_ACCEL_##e,
typedef enum RsAccelKind { RS_ACCELS(RS_ACCEL_ENUM) RS_ACCEL_COUNT } RsAccelKind;
#undef RS_ACCEL_ENUM

/* Or'ed into the `kind` of rs_accel_closest/any: the scene has no alpha cut-outs. Kernels built
 * with it as a compile-time constant lose the cut-out test altogether (its code cost bvh8 4-6%
 * even where it never ran); with a run-time kind it only skips the test. */
#define RS_ACCEL_NO_CUTOUTS 0x100u
#define RS_ACCEL_KIND_MASK 0xffu
/* Or'ed into the `kind` of rs_accel_closest_instanced/any_instanced: the scene has instances
 * (two_level.h). Scenes without them never take that path, so their kernels are the flat ones. */
#define RS_ACCEL_INSTANCES 0x200u

/* The structure a scene was built with; only the member of `kind` is filled (and `bvh2` with
 * bvh8's camera tree, below). With instances,
 * that member is the world's own geometry (possibly empty) and `inst` the rest (two_level.h).
 *
 * The camera tree: a bvh8 may also keep the binary tree it was collapsed from, flattened into
 * `bvh2` (same primitives, same spatial splits; camera_tree = 1). Camera rays start at one eye
 * and fan out in one direction, so a warp's rays visit the same nodes; for them the binary tree
 * walked nearest child first beats the 8-wide nodes in octant order (Sponza: 90 boxes and 3.8
 * triangles a ray against 154 and 8.5), while incoherent rays do better on bvh8. The backends
 * walk it for the rays a wave starts with (rs_accel_camera_kind). */
typedef struct RsAccelView {
    uint32_t kind; /* RsAccelKind */
    uint32_t camera_tree; /* 1: bvh2 holds the bvh8's binary tree, for camera rays */
    uint32_t pad_[2];
    RsBvh2View bvh2;
    RsBvh8View bvh8;
    RsGridView grid;
    RsInstanceView inst;
} RsAccelView;

/* kind | RS_ACCEL_INSTANCES when the scene has instances: what stages pass at run time. */
RS_FN uint32_t rs_accel_run_kind(const RsAccelView* a)
{
    return a->kind | (a->inst.instance_count ? RS_ACCEL_INSTANCES : 0u);
}

/* The kind extend passes for a wave's camera rays: the camera tree where there is one (flat
 * scenes only; a scene with instances walks its own kind), otherwise rs_accel_run_kind. */
RS_FN uint32_t rs_accel_camera_kind(const RsAccelView* a)
{
    return a->camera_tree && !a->inst.instance_count ? (uint32_t)RS_ACCEL_BVH2 : rs_accel_run_kind(a);
}

/* Nearest hit with 0 < t < tmax, never `skip` (trace_hit.h). `stack`: bvh8's traversal stack,
 * RS_BVH8_STACK entries (ignored by the others). */
RS_FN int rs_accel_closest(uint32_t kind, const RsAccelView* a, RsVec3 o, RsVec3 d, float tmax, uint32_t skip,
                           RsHit* hit, RsTraceStack stack)
{
    int cut = !(kind & RS_ACCEL_NO_CUTOUTS);
    switch (kind & RS_ACCEL_KIND_MASK) {
    case RS_ACCEL_BVH8: {
        RsBvh8View v = a->bvh8;
        v.cutouts = cut ? v.cutouts : 0;
        return rs_bvh8_closest(&v, o, d, tmax, skip, hit, stack);
    }
    case RS_ACCEL_GRID: {
        RsGridView v = a->grid;
        v.cutouts = cut ? v.cutouts : 0;
        return rs_grid_closest(&v, o, d, tmax, skip, hit);
    }
    default: {
        RsBvh2View v = a->bvh2;
        v.cutouts = cut ? v.cutouts : 0;
        return rs_bvh2_closest(&v, o, d, tmax, skip, hit);
    }
    }
}

/* Is anything but `skip` hit with 0 < t < tmax? Stops at the first hit found. */
RS_FN int rs_accel_any(uint32_t kind, const RsAccelView* a, RsVec3 o, RsVec3 d, float tmax, uint32_t skip,
                       RsTraceStack stack)
{
    int cut = !(kind & RS_ACCEL_NO_CUTOUTS);
    switch (kind & RS_ACCEL_KIND_MASK) {
    case RS_ACCEL_BVH8: {
        RsBvh8View v = a->bvh8;
        v.cutouts = cut ? v.cutouts : 0;
        return rs_bvh8_any(&v, o, d, tmax, skip, stack);
    }
    case RS_ACCEL_GRID: {
        RsGridView v = a->grid;
        v.cutouts = cut ? v.cutouts : 0;
        return rs_grid_any(&v, o, d, tmax, skip);
    }
    default: {
        RsBvh2View v = a->bvh2;
        v.cutouts = cut ? v.cutouts : 0;
        return rs_bvh2_any(&v, o, d, tmax, skip);
    }
    }
}

/* Whether the world's own structure (beside the instances) is empty. */
RS_FN int rs_accel_world_empty(uint32_t kind, const RsAccelView* a)
{
    return ((kind & RS_ACCEL_KIND_MASK) == RS_ACCEL_BVH8 ? a->bvh8.node_count : a->bvh2.node_count) == 0;
}

/* Closest hit in a scene with instances: the world's structure, then the TLAS. `skip` and
 * `skip_instance` name the primitive the ray leaves; *hit_instance gets the instance hit
 * (RS_NO_HIT: world geometry, or a miss). */
RS_FN int rs_accel_closest_instanced(uint32_t kind, const RsAccelView* a, RsVec3 o, RsVec3 d, float tmax,
                                     uint32_t skip, uint32_t skip_instance, RsHit* hit, uint32_t* hit_instance,
                                     RsTraceStack stack)
{
    int wide = (kind & RS_ACCEL_KIND_MASK) == RS_ACCEL_BVH8;
    const RsCutouts* cut = (kind & RS_ACCEL_NO_CUTOUTS) ? 0 : a->bvh2.cutouts;
    *hit_instance = RS_NO_HIT;
    if (rs_accel_world_empty(kind, a)) /* --two-level, or a scene of instances only */
        rs_hit_init(hit, tmax);
    else
        rs_accel_closest(kind & ~RS_ACCEL_INSTANCES, a, o, d, tmax, skip_instance == RS_NO_HIT ? skip : RS_NO_HIT, hit,
                         stack);
    return rs_tlas_traverse(wide, &a->inst, cut, o, d, skip, skip_instance, 0, hit, hit_instance, stack);
}

RS_FN int rs_accel_any_instanced(uint32_t kind, const RsAccelView* a, RsVec3 o, RsVec3 d, float tmax, uint32_t skip,
                                 uint32_t skip_instance, RsTraceStack stack)
{
    if (!rs_accel_world_empty(kind, a) &&
        rs_accel_any(kind & ~RS_ACCEL_INSTANCES, a, o, d, tmax, skip_instance == RS_NO_HIT ? skip : RS_NO_HIT, stack))
        return 1;
    int wide = (kind & RS_ACCEL_KIND_MASK) == RS_ACCEL_BVH8;
    const RsCutouts* cut = (kind & RS_ACCEL_NO_CUTOUTS) ? 0 : a->bvh2.cutouts;
    RsHit hit;
    uint32_t hit_instance;
    rs_hit_init(&hit, tmax);
    return rs_tlas_traverse(wide, &a->inst, cut, o, d, skip, skip_instance, 1, &hit, &hit_instance, stack);
}

/* Whether a scene's structure has cut-outs to test (the CUDA backend picks kernels by it). */
RS_FN int rs_accel_has_cutouts(const RsAccelView* a)
{
    switch (a->kind) {
    case RS_ACCEL_BVH8: return a->bvh8.cutouts != 0;
    case RS_ACCEL_GRID: return a->grid.cutouts != 0;
    default: return a->bvh2.cutouts != 0;
    }
}

#endif /* RS_KERNEL_ACCEL_H */
