/* accel.h - the acceleration-structure seam: which structures exist, and one closest-hit and
 * one any-hit entry point that stage code calls without knowing which structure it walks.
 *
 * Shared header (gcc C11, g++, nvcc). RS_ACCELS is the one table of structures (X-macro, like
 * ray_state_fields.h): the enum here, and names, help texts and builders in src/host/accel.c,
 * are generated from it. Adding a structure touches this table, its own accel_<name>.h and its
 * builder, nothing else.
 *
 * The dispatch takes the kind as an argument so that a caller that knows it at compile time
 * (a CUDA kernel instantiated per structure) gets only that structure's code inlined, with its
 * own register budget; the CPU passes the scene's kind at run time.
 */
#ifndef RS_KERNEL_ACCEL_H
#define RS_KERNEL_ACCEL_H

#include "accel_bvh2.h"
#include "accel_bvh8.h"
#include "accel_grid.h"

/*   X(ENUM, name, help) */
#define RS_ACCELS(X)                                                                                         \
    X(BVH2, bvh2, "binary SAH BVH, both child boxes in one 64-byte node, stack traversal (the baseline)")   \
    X(BVH8, bvh8, "8-wide compressed BVH (Ylitie et al. 2017): 80-byte nodes of quantized child boxes, "    \
                  "visited in ray-octant order")                                                             \
    X(GRID, grid, "uniform grid (Purcell, GPU Gems 2 ch. 33): 3D-DDA through cells of primitive lists")

#define RS_ACCEL_ENUM(e, name, help) RS_ACCEL_##e,
typedef enum RsAccelKind { RS_ACCELS(RS_ACCEL_ENUM) RS_ACCEL_COUNT } RsAccelKind;
#undef RS_ACCEL_ENUM

/* The structure a scene was built with; only the member of `kind` is filled. */
typedef struct RsAccelView {
    uint32_t kind; /* RsAccelKind */
    uint32_t pad_[3];
    RsBvh2View bvh2;
    RsBvh8View bvh8;
    RsGridView grid;
} RsAccelView;

/* Nearest hit with 0 < t < tmax, never `skip` (trace_hit.h). `stack`: bvh8's traversal stack,
 * RS_BVH8_STACK entries (ignored by the others). */
RS_FN int rs_accel_closest(uint32_t kind, const RsAccelView* a, RsVec3 o, RsVec3 d, float tmax, uint32_t skip,
                           RsHit* hit, RsTraceStack stack)
{
    switch (kind) {
    case RS_ACCEL_BVH8: return rs_bvh8_closest(&a->bvh8, o, d, tmax, skip, hit, stack);
    case RS_ACCEL_GRID: return rs_grid_closest(&a->grid, o, d, tmax, skip, hit);
    default: return rs_bvh2_closest(&a->bvh2, o, d, tmax, skip, hit);
    }
}

/* Is anything but `skip` hit with 0 < t < tmax? Stops at the first hit found. */
RS_FN int rs_accel_any(uint32_t kind, const RsAccelView* a, RsVec3 o, RsVec3 d, float tmax, uint32_t skip,
                       RsTraceStack stack)
{
    switch (kind) {
    case RS_ACCEL_BVH8: return rs_bvh8_any(&a->bvh8, o, d, tmax, skip, stack);
    case RS_ACCEL_GRID: return rs_grid_any(&a->grid, o, d, tmax, skip);
    default: return rs_bvh2_any(&a->bvh2, o, d, tmax, skip);
    }
}

#endif /* RS_KERNEL_ACCEL_H */
