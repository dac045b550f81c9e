/* mesh_stream.h - the record stream from the import child (assimp) to the parent (the scene),
 * private to src/host/import/mesh/: mesh_import.c forks, mesh_child.c writes, mesh_records.c
 * reads.
 *
 * Host C11 (POSIX). Records, in the host's byte order:
 * 'F' length path: a file assimp's IO system opened (the mesh itself, its MTL files, a glTF's
 * buffers), as assimp named it; the parent adds it to the list of files read;
 * 'M' name_length name kd[3] ke[3] clamp pbr[3] bump_scale map_count, then per map: kind length
 * path (a material of the file, numbered in order: 1 if its diffuse map clamps instead of
 * repeating, glTF's metallic-roughness as (1 if given, metallic, roughness), MTL's bump
 * multiplier (-bm), and the paths of its maps as the file wrote them, each with its RsMeshMap
 * kind);
 * 'T' material_number v0[3] v1[3] v2[3] flags, then n0[3] n1[3] n2[3] if flags has
 * RS_SHADING_NORMALS and (u, v) of the three vertices if it has RS_SHADING_UVS (a triangle, in
 * the file's own space); 'W' kind length text: part of the file that the import dropped or
 * would misread (an RsMeshDrop kind, and the sentence that says what, in raystream's words); 'X'
 * length text (assimp's error); 'Z' (done). Vertex normals and
 * texture coordinates are the file's own: a mesh without normals (an OBJ without vn) stays
 * flat, as its author made it.
 */
#ifndef RS_HOST_MESH_STREAM_H
#define RS_HOST_MESH_STREAM_H

#include <stdio.h>

#include "host/scene/scene.h"
#include "host/scene/transform.h"
#include "host/util/file_list.h"

/* The maps of a file's material that raystream reads, and what it makes of them. */
typedef enum RsMeshMap {
    RS_MESH_MAP_COLOUR,             /* MTL map_Kd, glTF baseColorTexture: replaces the diffuse colour */
    RS_MESH_MAP_MASK,               /* MTL map_d: a cut-out mask */
    RS_MESH_MAP_NORMAL,             /* MTL norm, glTF normalTexture: tangent-space normals */
    RS_MESH_MAP_BUMP,               /* MTL map_bump / bump: a height field */
    RS_MESH_MAP_EMISSION,           /* MTL map_Ke, glTF emissiveTexture */
    RS_MESH_MAP_METALLIC_ROUGHNESS, /* glTF metallicRoughnessTexture: roughness in green, metal in blue */
    RS_MESH_MAP_KINDS
} RsMeshMap;

/* What a 'W' record reports. Geometry dropped is always an error; what concerns only the file's
 * materials (a missing MTL file, an undefined material, a map assimp would misread) is one
 * unless the scene gives the mesh its own material, which replaces them all. */
typedef enum RsMeshDrop { RS_MESH_DROP_GEOMETRY, RS_MESH_DROP_MATERIAL } RsMeshDrop;

/* The longest path an 'F' record carries (PATH_MAX: no longer one can be opened). */
#define RS_MESH_STREAM_PATH_MAX 4096

/* A glTF URI's percent-encoding ("my%20tex.png") decoded into out (size bytes): 1 if it had
 * any and the result fits, else 0. Both sides use it: the child for the files assimp opens,
 * the parent for the maps, whose URIs assimp passes on as written. */
int rs_mesh_uri_decode(const char* uri, char* out, size_t size);

/* Child side: imports `path` with assimp and writes its records to `out`, 'Z' last. */
void rs_mesh_child_import(const char* path, FILE* out);

/* Parent side: the read end of the pipe, buffered, with the import's deadline. */
typedef struct RsMeshReader {
    int fd;
    double deadline;
    unsigned char buf[65536];
    size_t len, pos;
    int timed_out;
} RsMeshReader;

/* Turns the records into materials and triangles of `scene` (placed by xf; every triangle gets
 * material_override when it is >= 0) and adds every file read to `files` (may be NULL). *done
 * is set when the 'Z' record arrived. 0, or -1 with err set; a stream cut short returns 0 with
 * *done unset (the caller asks the child why). */
int rs_mesh_read_records(RsMeshReader* r, RsScene* scene, const char* path, const char* where, const RsTransform* xf,
                         int32_t material_override, RsFileList* files, int* done, RsError* err);

#endif /* RS_HOST_MESH_STREAM_H */
