/* bvh_build.h - binned SAH BVH over triangles and spheres, flattened for traversal.
 *
 * Host C11. The result is the RsBvhNode array of scene_data.h, used unchanged by the CPU
 * backend and copied as-is to the GPU, plus the order in which primitives must be stored so
 * that every leaf is a contiguous range.
 */
#ifndef RS_HOST_BVH_BUILD_H
#define RS_HOST_BVH_BUILD_H

#include "../kernel/scene_data.h"
#include "error.h"

typedef struct RsBvh {
    RsBvhNode* nodes;
    uint32_t node_count;  /* interior nodes; leaves live inside their parent */
    uint32_t leaf_count;
    uint32_t depth;       /* longest root-to-leaf path, in edges; < RS_BVH_MAX_DEPTH */
    uint32_t* prim_order; /* prim_order[i] = original index of the i-th stored primitive */
} RsBvh;

int rs_bvh_build(const RsPrim* prims, uint32_t count, RsBvh* out, RsError* err);
void rs_bvh_free(RsBvh* bvh);

/* Bounding box of one primitive. */
void rs_prim_bounds(const RsPrim* p, RsVec3* lo, RsVec3* hi);

#endif /* RS_HOST_BVH_BUILD_H */
