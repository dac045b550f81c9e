/* pbrt_ply.h - a PLY reader for pbrt-v4's "plymesh": ASCII and binary (little and big endian)
 * files, vertex x y z with optional nx ny nz and u v (or s t, texture_u texture_v, texture_s
 * texture_t), faces as lists of 3 or 4 indices (quads become two triangles, v0 v1 v2 and
 * v0 v2 v3, as pbrt-v4 splits them). Other elements and properties are read past.
 *
 * A gzip-compressed file (.ply.gz, recognised by its magic bytes) is decompressed through zlib
 * first, to at most 4 GiB.
 *
 * Host C11. Limits: the header ends within 64 KiB; the counts it declares must fit in the file
 * (each vertex or face needs at least its bytes, in binary files, or two characters a value in
 * ASCII files) and in RS_PLY_MAX_ELEMENTS; indices must name vertices; coordinates must be finite.
 */
#ifndef RS_HOST_PBRT_PLY_H
#define RS_HOST_PBRT_PLY_H

#include <stddef.h>
#include <stdint.h>

#include "host/util/error.h"

#define RS_PLY_MAX_ELEMENTS (1u << 28)

typedef struct RsPlyMesh {
    float* P;  /* 3 per vertex */
    float* N;  /* 3 per vertex, or NULL */
    float* uv; /* 2 per vertex, or NULL */
    size_t vertex_count;
    uint32_t* indices; /* 3 per triangle */
    size_t index_count;
    size_t polygons_skipped; /* faces of more than 4 or fewer than 3 vertices */
} RsPlyMesh;

/* Reads `path`; -1 with err "PATH: problem" on failure. */
int rs_ply_read(const char* path, RsPlyMesh* mesh, RsError* err);
void rs_ply_free(RsPlyMesh* mesh);

#endif /* RS_HOST_PBRT_PLY_H */
