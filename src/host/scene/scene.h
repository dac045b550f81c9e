/* scene.h - the host-side scene: what a scene file describes, and the flat arrays that
 * per-ray code reads once rs_scene_build has made the acceleration structure and the light
 * table.
 *
 * Host C11. Built by an importer (src/host/import/, through rs_scene_load) or directly through
 * the rs_scene_add_* calls (tests do this). The primitives stay in the order they were added;
 * the acceleration structure keeps its own copies. After rs_scene_build (scene_build.c) they
 * must not change.
 */
#ifndef RS_HOST_SCENE_H
#define RS_HOST_SCENE_H

#include "host/accel/accel_build.h"
#include "host/scene/env_map.h"
#include "host/scene/light_select.h"
#include "host/scene/material.h"
#include "host/scene/texture.h"
#include "host/scene/transform.h"
#include "host/util/array.h"
#include "host/util/error.h"
#include "host/util/name_index.h"
#include "kernel/accel/cutout.h"
#include "kernel/geometry/camera.h"
#include "kernel/scene/scene_view.h"
#include "kernel/state/kernel_params.h"

enum { RS_PROJECTION_PERSPECTIVE = 0, RS_PROJECTION_ORTHOGRAPHIC = 1 };

typedef struct RsCameraDesc {
    RsVec3 eye, look_at, up;
    float fov_degrees;      /* vertical */
    float aperture_radius;  /* 0: pinhole */
    float focus_distance;   /* <= 0: the distance from eye to look_at */
    uint32_t projection;    /* RS_PROJECTION_*; perspective by default */
    float ortho_height;     /* orthographic: the height of the view in scene units */
} RsCameraDesc;

typedef struct RsRenderDesc {
    uint32_t width, height;
    uint32_t spp;
    uint32_t max_depth;
    uint32_t seed;
    uint32_t integrator; /* RS_INTEGRATOR_* */
    uint32_t sampler;    /* RS_SAMPLER_* (kernel/sampling/sampler.h): where random numbers come from */
    uint32_t light_sampler;  /* RS_LIGHT_SELECT_* (kernel/light/light_select.h): how NEE picks a light */
    float noise_threshold;   /* adaptive sampling: a pixel stops below this error; 0 = off */
    uint32_t min_spp;        /* adaptive sampling: samples every pixel takes before it may stop */
} RsRenderDesc;

/* A mesh defined once (pbrt's ObjectBegin, Mitsuba's shapegroup, a glTF mesh) and placed by
 * instances: its primitives are object_prims[first_prim, first_prim + prim_count). */
typedef struct RsSceneObject {
    uint32_t first_prim, prim_count;
    uint32_t sphere_count; /* spheres stay spheres only under uniform scale (rs_scene_add_instance) */
} RsSceneObject;

typedef struct RsSceneInstance {
    uint32_t object;
    RsTransform to_world;
} RsSceneInstance;

typedef struct RsScene {
    char* file; /* where it was loaded from, for messages; NULL if built in code */
    RsCameraDesc camera;
    RsRenderDesc render;
    RsEnvironment env;
    RsEnvMap env_map; /* the image of an RS_ENV_MAP environment; its CDF is built by rs_scene_build */
    RS_ARRAY(RsMaterial) materials;
    RS_ARRAY(RsMaterialDesc) material_descs; /* in step with materials: what the scene said (convert writes it back) */
    RS_ARRAY(char*) material_names;
    RsNameIndex material_index; /* name -> material */
    RS_ARRAY(RsPrim) prims;
    RS_ARRAY(RsShading) shading; /* empty, or one per primitive once any has vertex normals */
    RS_ARRAY(RsPointLight) point_lights;
    RsTextureSet textures;
    RsCutouts cutouts; /* filled by rs_scene_build when some material has an alpha texture */
    int has_cutouts;
    uint32_t skipped_degenerate; /* zero-area triangles dropped while adding */
    /* What an importer approximated or left out, one message each ("FILE:LINE: roughplastic:
     * rendered as ..."): the library never prints, the commands show these after loading. */
    RS_ARRAY(char*) warnings;
    uint32_t warnings_dropped; /* beyond RS_SCENE_MAX_WARNINGS */

    /* Objects defined once and placed by instances (rs_scene_begin_object). While an object is
     * open, `prims` and `shading` are the object's own (swapped with object_prims and
     * object_shading), so every rs_scene_add_* call records into it. */
    RS_ARRAY(RsSceneObject) objects;
    RS_ARRAY(RsSceneInstance) instances;
    RS_ARRAY(RsPrim) object_prims;      /* every object's primitives, object after object */
    RS_ARRAY(RsShading) object_shading; /* empty, or one per entry of object_prims */
    int32_t open_object;                /* the object being recorded, or -1 */

    RsAccelOptions accel_options; /* what rs_scene_build builds (rs_accel_options_default) */

    /* filled by rs_scene_build */
    RsAccel accel; /* with instances: the world's own primitives (possibly none) */
    /* With instances (or accel_options.two_level), the arrays the view and every index refer to:
     * the world's primitives, then every object's (object_ranges in this numbering), and the
     * instance records and two-level structure (kernel/accel/instance.h). With instances and the
     * grid, view_prims holds the flattened copies instead. Empty for a scene without instances,
     * whose view is `prims` itself. */
    RS_ARRAY(RsPrim) view_prims;
    RS_ARRAY(RsShading) view_shading;
    RS_ARRAY(uint32_t) object_ranges; /* first, count per object of the two-level structure */
    RS_ARRAY(RsInstance) instance_records;
    uint32_t world_prim_count; /* view primitives [0, this) are world geometry with their own light bits */
    RsTwoLevel two_level;
    RsVec3 bounds_lo, bounds_hi; /* of every primitive */
    RsFloat4* lights;   /* the light table (lights.h): light_count entries */
    uint32_t light_count;
    uint32_t env_light; /* the environment's entry, or RS_NO_LIGHT */
    uint32_t infinite_first; /* the first entry at infinity (directional lights, the environment) */
    RsLightSelect light_select; /* how NEE picks among the lights (light_select.h) */
    int built;
} RsScene;

#define RS_SCENE_MAX_WARNINGS 200

/* Records a warning (printf-style) for the commands to show; beyond RS_SCENE_MAX_WARNINGS, or
 * out of memory, it is only counted. */
void rs_scene_warn(RsScene* scene, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

/* Defaults: camera at the origin looking down -z, 40 degrees; 512x512, 16 spp, depth 8,
 * path integrator, Sobol sampler, light tree, no adaptive sampling (min spp 16), seed 0; black
 * environment; the default acceleration structure. */
void rs_scene_init(RsScene* scene);
void rs_scene_free(RsScene* scene);

/* Returns the new material's index, or -1 (duplicate name, out of memory). Importers use
 * rs_scene_add_material_desc, which keeps the description (for `raystream convert`); a
 * material added as kernel blocks only has a description of type RS_MATERIAL_DESC_UNKNOWN. */
int32_t rs_scene_add_material_desc(RsScene* scene, const char* name, const RsMaterialDesc* desc, RsError* err);
int32_t rs_scene_add_material(RsScene* scene, const char* name, RsMaterial m, RsError* err);
int32_t rs_scene_find_material(const RsScene* scene, const char* name);

int rs_scene_add_triangle(RsScene* scene, RsVec3 v0, RsVec3 v1, RsVec3 v2, uint32_t material, RsError* err);
/* A triangle with vertex normals n[0..2] at v0, v1, v2 (smooth shading) and texture
 * coordinates uv = (u0, v0, u1, v1, u2, v2); either may be NULL. */
int rs_scene_add_triangle_shaded(RsScene* scene, RsVec3 v0, RsVec3 v1, RsVec3 v2, const RsVec3* n, const float* uv,
                                 uint32_t material, RsError* err);
/* Lights without a surface: radiant intensity in W/sr per channel. A spot light shines along
 * `axis` (need not be unit, must not be zero) with full intensity up to cone_degrees -
 * delta_degrees from it and none beyond cone_degrees (0 < cone <= 90, 0 <= delta <= cone). */
int rs_scene_add_point_light(RsScene* scene, RsVec3 position, RsVec3 intensity, RsError* err);
int rs_scene_add_spot_light(RsScene* scene, RsVec3 position, RsVec3 axis, RsVec3 intensity, float cone_degrees,
                            float delta_degrees, RsError* err);
int rs_scene_add_sphere(RsScene* scene, RsVec3 centre, float radius, uint32_t material, RsError* err);

/* A light infinitely far away (Mitsuba's directional, pbrt's distant, glTF's directional):
 * parallel rays travelling along `direction` (need not be unit, must not be zero), with
 * `irradiance` (W/m^2 per channel) on a surface facing it. */
int rs_scene_add_directional_light(RsScene* scene, RsVec3 direction, RsVec3 irradiance, RsError* err);

/* A procedural checkerboard usable wherever an image texture is (a material's colour):
 * colour0 where floor(2u) + floor(2v) is even, colour1 elsewhere (Mitsuba's and pbrt's
 * checkerboard at their default scale; scale it with the material's uv_transform). Returns the
 * texture's index, or -1. */
int32_t rs_scene_add_checkerboard(RsScene* scene, RsVec3 colour0, RsVec3 colour1, RsError* err);

/* Objects and instances. rs_scene_begin_object opens a new object and returns its index (-1 on
 * failure: one is already open); until rs_scene_end_object, rs_scene_add_triangle*, and
 * rs_scene_add_sphere record into the object instead of the world. rs_scene_add_instance places
 * a closed object with `to_world` (uniform scale if the object has spheres; a singular one, a
 * zero scale, places nothing, with a warning); an
 * object with no instance is never drawn. Objects are built once (a BLAS each) and instances
 * reference them (a TLAS over them), never copied. Emissive primitives in an object are lights
 * in every instance. */
int32_t rs_scene_begin_object(RsScene* scene, RsError* err);
int rs_scene_end_object(RsScene* scene, RsError* err);
int rs_scene_add_instance(RsScene* scene, uint32_t object, const RsTransform* to_world, RsError* err);

/* What a built scene's structure takes on a device, by part: the world's own structure, the
 * objects' BLAS (nodes and trace primitives), the TLAS and the instance and object records. */
typedef struct RsSceneAccelBytes {
    uint64_t world, blas, tlas, instances;
    uint32_t instance_count, object_count;
} RsSceneAccelBytes;

RsSceneAccelBytes rs_scene_accel_bytes(const RsScene* scene);

/* The primitives per-ray code sees (view_prims, or prims for a scene without instances). */
const RsPrim* rs_scene_view_prims(const RsScene* scene, uint32_t* count);

/* Copies instance `instance`'s primitives into the world, transformed: what the grid, which has
 * no two-level form, does with instances (rs_scene_build). */
int rs_scene_flatten_instance(RsScene* scene, const RsSceneInstance* instance, RsError* err);

/* Acceleration structure (scene->accel_options) and light table. Fails on an empty scene.
 * Instances get a two-level structure (bvh2, bvh8; the grid flattens them with a warning). */
int rs_scene_build(RsScene* scene, RsError* err);

/* Rebuilds the light table and its selection with another method (RS_LIGHT_SELECT_*) on a built
 * scene, as --light-sampler asks; render.light_sampler records it. */
int rs_scene_select_lights(RsScene* scene, uint32_t method, RsError* err);

/* Makes `render` (the scene's settings with the command line's overrides) the scene's, on a
 * built scene: reselects the lights when the light sampler changed. */
int rs_scene_set_render(RsScene* scene, const RsRenderDesc* render, RsError* err);

RsSceneView rs_scene_view(const RsScene* scene);
RsCamera rs_camera_make(const RsCameraDesc* desc, uint32_t width, uint32_t height);

#endif /* RS_HOST_SCENE_H */
