/* pbrt_context.h - the state of one pbrt-v4 import, shared by the directive handlers
 * (pbrt_loader.c: the directive loop, transforms, attributes, objects; pbrt_camera.c;
 * pbrt_shapes.c and pbrt_mesh.c; pbrt_materials.c; pbrt_textures.c; pbrt_lights.c).
 *
 * Host C11. Handedness: pbrt-v4's camera space is left-handed (its LookAt puts `up x dir` on
 * the image's right), raystream's camera right-handed (`dir x up` on the right). So that the
 * image is not mirrored, everything is placed in raystream's world through `mirror`: x -> -x
 * when the camera's transform keeps handedness (the usual LookAt), the identity when the scene
 * already flips it (a "Scale -1 1 1" before LookAt, as exporters write). Triangles are wound so
 * that their front (counter-clockwise) side is the side pbrt-v4's normal points to (see
 * pbrt_mesh.c), which is the side a one-sided area light emits from.
 */
#ifndef RS_HOST_PBRT_CONTEXT_H
#define RS_HOST_PBRT_CONTEXT_H

#include "host/import/pbrt/pbrt_lexer.h"
#include "host/import/pbrt/pbrt_params.h"
#include "host/import/pbrt/pbrt_transform.h"
#include "host/scene/scene.h"
#include "host/util/array.h"

typedef struct RsPbrtGraphics {
    RsPbrtMatrix ctm;        /* object to pbrt world */
    int reverse_orientation;
    int32_t material;        /* in ctx->materials; -1: pbrt's default (diffuse, 0.5) */
    int32_t area_light;      /* in ctx->area_lights; -1: none */
    int pushed_by_attribute; /* on the stack: AttributeBegin (1) or TransformBegin (0) */
} RsPbrtGraphics;

typedef struct RsPbrtMaterial {
    char* name;         /* MakeNamedMaterial's; NULL for Material */
    char* label;        /* the raystream material's name */
    RsMaterialDesc desc;
    int interface;      /* "interface": no surface at all */
    char* refused;      /* why raystream cannot render it (said where a shape uses it), or NULL */
} RsPbrtMaterial;

typedef struct RsPbrtAreaLight {
    RsVec3 radiance;
    int two_sided;
} RsPbrtAreaLight;

enum { RS_PBRT_TEX_CONSTANT = 0, RS_PBRT_TEX_IMAGE = 1, RS_PBRT_TEX_CHECKER = 2 };

typedef struct RsPbrtTexture {
    char* name;
    int is_float;         /* pbrt keeps "float" and "spectrum" textures apart */
    int kind;             /* RS_PBRT_TEX_* */
    RsVec3 value;         /* constant: the value */
    RsVec3 colour0, colour1; /* checkerboard: tex1, tex2 */
    char* file;           /* image: resolved path */
    uint32_t flags;       /* image: RS_TEXTURE_* */
    float uv_transform[6];
    int32_t index;        /* image, checkerboard: the scene texture once made; -1 before */
    char* where;          /* "FILE:LINE: Texture \"name\"" */
    char* refused;        /* why raystream cannot make it (said where it is used), or NULL */
} RsPbrtTexture;

typedef struct RsPbrtObject {
    char* name;
    int32_t object; /* the scene's object */
} RsPbrtObject;

typedef struct RsPbrtContext {
    RsScene* scene;
    RsError* err;
    RsFileList* files;
    RsPbrtLexer lexer;
    RsPbrtGraphics gs;
    RS_ARRAY(RsPbrtGraphics) stack;
    RS_ARRAY(char*) coord_names;
    RS_ARRAY(RsPbrtMatrix) coord_matrices;
    RS_ARRAY(RsPbrtMaterial) materials;
    RS_ARRAY(RsPbrtAreaLight) area_lights;
    RS_ARRAY(RsPbrtTexture) textures;
    RS_ARRAY(RsPbrtObject) objects;
    int32_t open_object; /* in objects, or -1 */
    int in_world;
    int transforms_frozen; /* ActiveTransform EndTime: motion is not rendered */
    RsPbrtMatrix mirror;   /* raystream world from pbrt world (see the top) */
    /* the camera, placed at WorldBegin once the film's size is known */
    int has_camera;
    char camera_type[32];
    RsPbrtMatrix camera_from_world;
    double fov, lens_radius, focal_distance, frame_aspect, screen_window[4];
    int has_screen_window;
    long width, height;
    uint32_t shape_count, light_count;
    uint32_t warned; /* RS_PBRT_WARNED_* bits: warnings given once */
} RsPbrtContext;

enum { RS_PBRT_WARNED_MOTION = 1u, RS_PBRT_WARNED_INSTANCE_LIGHT = 2u, RS_PBRT_WARNED_BILINEAR = 4u };

/* pbrt_camera.c */
int rs_pbrt_camera(RsPbrtContext* ctx, const char* type, RsPbrtParams* params);
int rs_pbrt_film(RsPbrtContext* ctx, const char* type, RsPbrtParams* params);
int rs_pbrt_sampler(RsPbrtContext* ctx, const char* type, RsPbrtParams* params);
int rs_pbrt_integrator(RsPbrtContext* ctx, const char* type, RsPbrtParams* params);
/* At WorldBegin: chooses the mirror and fills scene->camera and the size. */
int rs_pbrt_place_camera(RsPbrtContext* ctx, const char* where);

/* pbrt_shapes.c */
int rs_pbrt_shape(RsPbrtContext* ctx, const char* type, RsPbrtParams* params);

/* pbrt_mesh.c: triangles in object space (P: 3 floats a vertex; N: 3, uv: 2, either NULL)
 * placed with the current transform and orientation. */
typedef struct RsPbrtMesh {
    const float* P;
    const float* N;
    const float* uv;
    size_t vertex_count;
    const uint32_t* indices;
    size_t index_count; /* a multiple of 3 */
} RsPbrtMesh;
/* The scene material for a shape of the current state with its "alpha" parameter; *skip = 1
 * when the shape has no surface (an "interface" material, or alpha 0). */
int rs_pbrt_shape_material(RsPbrtContext* ctx, RsPbrtParams* params, uint32_t* material, int* skip);
int rs_pbrt_add_mesh(RsPbrtContext* ctx, const RsPbrtMesh* mesh, uint32_t material, const char* where);
/* The object-to-raystream-world transform of the current state. */
RsPbrtMatrix rs_pbrt_placement(const RsPbrtContext* ctx);

/* pbrt_materials.c: Material (name NULL) and MakeNamedMaterial */
int rs_pbrt_material(RsPbrtContext* ctx, const char* name, const char* type, RsPbrtParams* params);
int rs_pbrt_find_material(const RsPbrtContext* ctx, const char* name);

/* pbrt_textures.c */
int rs_pbrt_texture(RsPbrtContext* ctx, const char* name, const char* value_type, const char* class_name,
                    RsPbrtParams* params);
/* The texture parameter `name` of a material: the colour's texture, or a constant in *value.
 * *found = 0 if absent. */
int rs_pbrt_texture_param(RsPbrtContext* ctx, RsPbrtParams* params, const char* name, int is_float,
                          uint32_t load_flags, uint32_t* texture, float uv_transform[6], RsVec3* value, int* found);

/* pbrt_lights.c */
int rs_pbrt_light(RsPbrtContext* ctx, const char* type, RsPbrtParams* params);
int rs_pbrt_area_light(RsPbrtContext* ctx, const char* type, RsPbrtParams* params);

/* pbrt_loader.c: defines (or redefines) the named coordinate system `name` as m; -1 out of memory */
int rs_pbrt_define_coords(RsPbrtContext* ctx, const char* name, const RsPbrtMatrix* m);

/* "FILE:LINE" helpers */
int rs_pbrt_fail(const RsPbrtParams* params, RsError* err, const char* fmt, ...) __attribute__((format(printf, 3, 4)));

#endif /* RS_HOST_PBRT_CONTEXT_H */
