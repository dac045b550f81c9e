/* pbrt_loop.h - Loop subdivision for pbrt-v4's "loopsubdiv" shape.
 *
 * Host C11. Each level splits every triangle into four with Loop's weights (an edge's new point
 * 3/8 (a + b) + 1/8 (c + d), or its midpoint on a boundary; an old point (1 - n beta) v + beta
 * times the sum of its n neighbours, beta = 3/16 for n = 3 and 3/(8n) otherwise, or 3/4 v + 1/8
 * its two boundary neighbours), as pbrt-v4 does; then every point moves to its limit position
 * (interior: gamma = 1/(n + 3/(8 beta)); boundary: 3/5 v + 1/5 the neighbours). Edges shared by
 * more than two triangles are treated as boundaries. Normals are the area-weighted average of
 * the limit mesh's faces around each point (pbrt-v4 takes the limit surface's tangents; the two
 * agree closely once subdivided). At most RS_LOOP_MAX_TRIANGLES triangles result.
 */
#ifndef RS_HOST_PBRT_LOOP_H
#define RS_HOST_PBRT_LOOP_H

#include <stddef.h>
#include <stdint.h>

#include "host/util/error.h"

#define RS_LOOP_MAX_TRIANGLES (1u << 24)

typedef struct RsLoopMesh {
    float* P;  /* 3 per vertex */
    float* N;  /* 3 per vertex */
    size_t vertex_count;
    uint32_t* indices;
    size_t index_count;
} RsLoopMesh;

/* Subdivides the triangles indices[0, index_count) over P[0, 3 vertex_count) `levels` times.
 * -1 with err ("WHERE: ...") on failure. */
int rs_loop_subdivide(const float* P, size_t vertex_count, const uint32_t* indices, size_t index_count, int levels,
                      RsLoopMesh* out, const char* where, RsError* err);
void rs_loop_free(RsLoopMesh* mesh);

#endif /* RS_HOST_PBRT_LOOP_H */
