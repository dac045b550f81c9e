/* convert_plan.h - what `raystream convert` will write, worked out in full before anything is
 * written: the scene as a JSON document (format version 2, scenes/README.md) and the files
 * beside it (meshes as binary PLY, in-memory and re-channelled textures as PNG, an in-memory
 * environment map as OpenEXR). Host C11, application layer.
 *
 * The command (convert.c) plans, checks every path of the plan against each other and against
 * every file the scene read (output_paths.h), then writes the side files and the JSON last,
 * each through a temporary name (safe_file.h). Anything the in-memory scene holds that the
 * format cannot say is refused with an error naming it; nothing is dropped.
 *
 * Exactness: a scene converted and loaded again renders the same image, bit for bit. So the
 * primitives keep their order (the acceleration structure and the light table follow it):
 * each run of consecutive triangles with one material and one kind of shading data becomes
 * one PLY file, spheres stay in place between them; numbers are written with the fewest
 * digits that read back as the same float; a triangle's second and third vertices, which the
 * scene keeps only as edges from the first, are chosen so that the edges come out the same,
 * and vertex normals, spot light axes and angles and an environment's rotation so that the
 * reader's normalisations and cosines give back the stored values. One limit: a spot light
 * axis or a directional light's direction that an importer normalized once, as floats, from an
 * arbitrary vector (pbrt-v4's from/to) may not be one the JSON reader (which normalizes twice,
 * in double and then as floats) can make; it then differs in its last bits. So may a camera up
 * normalized as floats (Mitsuba's sensor), which the reader normalizes in double. Checkerboards are
 * written from their two colours (texture.h keeps them as float bits), and the version 2 keys
 * (directional lights, orthographic cameras, uv_transform, alpha_mode, alpha_cutoff, opacity,
 * thin_dielectric) from the scene's blocks and material descriptions.
 */
#ifndef RS_APP_CONVERT_PLAN_H
#define RS_APP_CONVERT_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include <cJSON.h>

#include "host/scene/scene.h"
#include "host/util/error.h"
#include "host/util/file_list.h"

typedef enum RsConvertFileKind {
    RS_CONVERT_BYTES, /* data, size: written as they are (PLY) */
    RS_CONVERT_PNG,   /* rgba (RGBA8, rows from the top), width, height */
    RS_CONVERT_EXR    /* rgb (linear floats), width, height */
} RsConvertFileKind;

typedef struct RsConvertFile {
    RsConvertFileKind kind;
    char* path; /* where it goes (the JSON's folder + name) */
    char* role; /* what it is, for messages: "mesh (materials 'red', triangles 0..9)" */
    unsigned char* data;
    size_t size;
    uint8_t* rgba;
    float* rgb;
    uint32_t width, height;
} RsConvertFile;

typedef struct RsConvertPlan {
    const RsScene* scene;
    const RsFileList* files_read;
    char* out_path;  /* the JSON file */
    char* out_dir;   /* its folder, canonical (realpath) */
    char* out_stem;  /* its name without ".json": side files are STEM.mesh-N.ply and so on */
    cJSON* root;
    RsConvertFile* files;
    size_t file_count, file_capacity;
    uint32_t mesh_count, texture_count;
    int32_t* texture_written; /* per scene texture and role kind: index into files + 1, 0 if none yet */
} RsConvertPlan;

/* Plans the conversion of a loaded (built) scene to `out_path`. files_read: what the load read
 * (a texture or map listed there is referenced by its path, made relative to the JSON; one not
 * listed was made in memory and is written out). Returns 0, or -1 with err naming what cannot
 * be written. */
int rs_convert_plan(RsConvertPlan* plan, const RsScene* scene, const RsFileList* files_read, const char* out_path,
                    RsError* err);
void rs_convert_plan_free(RsConvertPlan* plan);

/* Whether this build's rs_scene_add_instance copies the object's primitives into the world
 * (instances flattened) rather than keeping them apart (a two-level structure): found by trying
 * it on a scratch scene, once. Flattened, the plan writes the world's primitives (copies
 * included) and no objects or instances; otherwise objects and "instance" shapes. */
int rs_convert_instances_flattened(void);

/* Writes one side file of a plan, through a temporary name; 0 or -1 with err set. */
int rs_convert_write_file(const RsConvertFile* file, RsError* err);

/* ---- shared by the plan's parts (convert_plan.c, convert_material.c, convert_mesh.c) ---- */

/* A JSON number that reads back as exactly f (the fewest of 6..9 significant digits). */
cJSON* rs_convert_number(float f);
cJSON* rs_convert_vec3(RsVec3 v);
/* Adds a side file to the plan; takes ownership of its buffers on success. The name is
 * STEM + suffix in the JSON's folder; *name (may be NULL) gets the name as the JSON cites it. */
int rs_convert_add_file(RsConvertPlan* plan, RsConvertFile* file, const char* suffix, const char** name,
                        RsError* err);
/* `path` (a file the scene read) as the JSON should cite it: relative to the JSON's folder. */
char* rs_convert_cite(const RsConvertPlan* plan, const char* path, RsError* err);

/* Every material of the scene, as "materials" (convert_material.c). */
int rs_convert_materials(RsConvertPlan* plan, cJSON* materials, RsError* err);

/* Shapes of primitives [first, first + count) of `prims` (with `shading`, which may be shorter:
 * none), appended to `shapes`: spheres as spheres, runs of triangles as PLY meshes
 * (convert_mesh.c). `where` names the part of the scene in messages ("world", "object 3"). */
int rs_convert_shapes(RsConvertPlan* plan, const RsPrim* prims, const RsShading* shading, size_t shading_count,
                      size_t first, size_t count, cJSON* shapes, RsError* err);

#endif /* RS_APP_CONVERT_PLAN_H */
