/* gltf_doc.h - what the parts of the glTF 2.0 importer share: the parsed document, its
 * buffers, the scene being filled, and the checked readers of JSON values every part uses.
 *
 * Host C11, internal to src/host/import/gltf/. The parts, one job each:
 *   gltf_container.c  the file: .gltf JSON or .glb chunks; buffers (external, data: URIs,
 *                     the GLB binary chunk); image bytes
 *   gltf_accessor.c   accessors and buffer views, bounds-checked, as floats or indices
 *   gltf_node.c       the node hierarchy: world transforms, what each node places
 *   gltf_mesh.c       meshes and primitives as triangles, objects and instances
 *   gltf_material.c   materials, textures and samplers
 *   gltf_camera.c     cameras, the --camera choice, and a camera framing the scene
 *   gltf_light.c      KHR_lights_punctual
 *   gltf_load.c       the loader: extensions, the order of the parts, lighting by default
 *   gltf_json.c       checked readers of JSON values, messages and warnings
 * Every message starts "FILE: " and names the JSON path of what it is about
 * ("meshes[2].primitives[0].attributes.POSITION: ..."); nothing is trusted: every index,
 * offset, count and number is checked before it is used.
 */
#ifndef RS_HOST_GLTF_DOC_H
#define RS_HOST_GLTF_DOC_H

#include <cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "host/scene/scene.h"
#include "host/util/file_list.h"

#define RS_GLTF_MAX_FILE_BYTES (1ull << 30)  /* the .gltf/.glb and each external buffer */
#define RS_GLTF_MAX_NODE_DEPTH 128           /* nesting of the node hierarchy */
#define RS_GLTF_MAX_ELEMENTS (1u << 28)      /* elements of one accessor */
#define RS_GLTF_MAX_COMPONENTS (1ull << 27)  /* elements x components of one accessor (read as doubles) */
#define RS_GLTF_PATH_MAX 256                 /* JSON paths in messages */

typedef struct RsGltfBuffer {
    const uint8_t* data;
    size_t size;
    uint8_t* owned; /* freed with the document, NULL when data points into the .glb */
} RsGltfBuffer;

/* What a node places, in traversal order (gltf_node.c). */
typedef struct RsGltfPlacement {
    int32_t node;
    int32_t index;    /* the mesh, camera or light placed */
    int32_t instance; /* EXT_mesh_gpu_instancing: which instance; -1 otherwise */
    double world[16]; /* column-major 4x4, as glTF writes matrices */
} RsGltfPlacement;

/* An embedded image already decoded into a texture with these flags. */
typedef struct RsGltfImageUse {
    int32_t image;
    uint32_t flags;
    int32_t texture;
} RsGltfImageUse;

typedef struct RsGltf {
    const char* path; /* the file, as given */
    char* dir;        /* its folder with a trailing '/', or "" */
    cJSON* root;
    uint8_t* file;    /* the whole file */
    size_t file_size;
    const uint8_t* bin; /* .glb: the BIN chunk, or NULL */
    size_t bin_size;
    RsGltfBuffer* buffers;
    int buffer_count;

    /* the top-level arrays as tables (cJSON's arrays are linked lists): see rs_gltf_item */
    struct {
        const char* key;
        const cJSON** items;
        int count;
    } tables[12];
    int table_count;

    RsScene* scene;
    RsFileList* files;
    RsError* err;

    int32_t* mesh_uses;    /* per mesh: how many times nodes place it (EXT_mesh_gpu_instancing counts each) */
    int32_t* mesh_objects; /* per mesh: its object, or -1 */
    int32_t* materials;    /* per glTF material: the scene's material, or -1 until made */
    int32_t default_material;
    int32_t* textures;     /* per (glTF texture, 2 flag sets): the scene's texture, or -1 */
    RS_ARRAY(RsGltfImageUse) images; /* embedded images decoded so far, by (image, flags) */
    int texture_count;
    int emissive;          /* some material placed in the scene emits */
    uint32_t lights;       /* punctual lights placed */
    uint32_t left_out;     /* primitives of points or lines left out (warned) */

    RS_ARRAY(RsGltfPlacement) mesh_nodes;
    RS_ARRAY(RsGltfPlacement) camera_nodes;
    RS_ARRAY(RsGltfPlacement) light_nodes;
    RsVec3 bounds_lo, bounds_hi; /* of every placed triangle, for a camera that frames them */
    int has_bounds;
} RsGltf;

/* err = "FILE: WHERE: message"; returns -1. */
int rs_gltf_fail(RsGltf* g, const char* where, const char* fmt, ...) __attribute__((format(printf, 3, 4)));
/* A scene warning "FILE: WHERE: message". */
void rs_gltf_warn(RsGltf* g, const char* where, const char* fmt, ...) __attribute__((format(printf, 3, 4)));

/* "base.key" and "base[i]" into out[RS_GLTF_PATH_MAX]. */
void rs_gltf_join_key(char* out, const char* base, const char* key);
void rs_gltf_join_index(char* out, const char* base, int i);

/* The member `key` of object `node` (NULL if node is not an object or has none). */
const cJSON* rs_gltf_member(const cJSON* node, const char* key);
/* The array at root[key] (may be absent: *count = 0) -- not an array is an error. */
int rs_gltf_array(RsGltf* g, const cJSON* node, const char* path, const char* key, const cJSON** out, int* count);
/* Frees the tables rs_gltf_item makes. */
void rs_gltf_free_tables(RsGltf* g);
/* Element i of the top-level array `key` (e.g. "accessors"): an object, or an error naming
 * the referring path. */
int rs_gltf_item(RsGltf* g, const char* key, int64_t index, const char* referrer, const cJSON** out);

/* node[key] as an integer index in [0, limit) (limit < 0: any >= 0); absent: *out = fallback
 * and 1 if required is 0, an error otherwise. */
int rs_gltf_get_index(RsGltf* g, const cJSON* node, const char* path, const char* key, int required, int64_t limit,
                      int64_t fallback, int64_t* out);
/* node[key] as a finite number within +-RS_SCENE_MAX_MAGNITUDE (absent: fallback). */
int rs_gltf_get_number(RsGltf* g, const cJSON* node, const char* path, const char* key, double fallback,
                       double* out);
/* node[key] as an array of exactly n such numbers (absent: out keeps its values). */
int rs_gltf_get_numbers(RsGltf* g, const cJSON* node, const char* path, const char* key, int n, double* out);
/* node[key] as a string (absent: fallback). */
int rs_gltf_get_string(RsGltf* g, const cJSON* node, const char* path, const char* key, const char* fallback,
                       const char** out);
/* node.extensions[name], or NULL. */
const cJSON* rs_gltf_extension(const cJSON* node, const char* name);

/* ---- gltf_container.c ---- */

/* Reads and parses the file (text or .glb) into g->root and g->bin. */
int rs_gltf_read_container(RsGltf* g);
/* Loads every buffer (g->buffers). */
int rs_gltf_read_buffers(RsGltf* g);
/* The bytes of buffer view `view` (bounds-checked), for images. */
int rs_gltf_view_bytes(RsGltf* g, int64_t view, const char* referrer, const uint8_t** data, size_t* size);
/* Decodes a data: URI's base64 payload (after the comma) into a new buffer. */
int rs_gltf_decode_data_uri(RsGltf* g, const char* uri, const char* where, uint8_t** out, size_t* size);
/* A relative URI as a path beside the file (percent-escapes decoded), malloc'ed. */
char* rs_gltf_resolve_uri(RsGltf* g, const char* uri, const char* where);

/* ---- gltf_accessor.c ---- */

/* Accessor `index` as floats, `components` a element (its type must have that many: 3 for
 * VEC3); normalized integers scaled to [0, 1] or [-1, 1], others converted. *out (malloc'ed)
 * holds *count * components values. */
int rs_gltf_read_floats(RsGltf* g, int64_t index, const char* referrer, int components, float** out,
                        uint32_t* count);
/* Accessor `index` as unsigned indices (UNSIGNED_BYTE/SHORT/INT, SCALAR). */
int rs_gltf_read_indices(RsGltf* g, int64_t index, const char* referrer, uint32_t** out, uint32_t* count);

/* ---- the parts ---- */

/* gltf_node.c: walks the scene's nodes into mesh_nodes, camera_nodes and light_nodes. */
int rs_gltf_read_nodes(RsGltf* g);
/* gltf_mesh.c: places every entry of mesh_nodes (a mesh placed once as triangles in the world,
 * one placed more often as an object and its instances). */
int rs_gltf_place_meshes(RsGltf* g);
int rs_gltf_material(RsGltf* g, int64_t index, const char* referrer, int32_t* out); /* gltf_material.c */
int rs_gltf_read_camera(RsGltf* g, int32_t choice);                  /* gltf_camera.c */
int rs_gltf_read_lights(RsGltf* g);                                  /* gltf_light.c */

/* 4x4 column-major helpers (gltf_node.c). */
void rs_gltf_matrix_multiply(const double* a, const double* b, double* out);
RsTransform rs_gltf_matrix_transform(const double* m);

#endif /* RS_HOST_GLTF_DOC_H */
