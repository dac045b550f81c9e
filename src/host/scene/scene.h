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
#include "host/util/array.h"
#include "host/util/error.h"
#include "host/util/name_index.h"
#include "kernel/accel/cutout.h"
#include "kernel/geometry/camera.h"
#include "kernel/scene/scene_view.h"
#include "kernel/state/kernel_params.h"

typedef struct RsCameraDesc {
    RsVec3 eye, look_at, up;
    float fov_degrees;      /* vertical */
    float aperture_radius;  /* 0: pinhole */
    float focus_distance;   /* <= 0: the distance from eye to look_at */
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

typedef struct RsScene {
    char* file; /* where it was loaded from, for messages; NULL if built in code */
    RsCameraDesc camera;
    RsRenderDesc render;
    RsEnvironment env;
    RsEnvMap env_map; /* the image of an RS_ENV_MAP environment; its CDF is built by rs_scene_build */
    RS_ARRAY(RsMaterial) materials;
    RS_ARRAY(char*) material_names;
    RsNameIndex material_index; /* name -> material */
    RS_ARRAY(RsPrim) prims;
    RS_ARRAY(RsShading) shading; /* empty, or one per primitive once any has vertex normals */
    RS_ARRAY(RsPointLight) point_lights;
    RsTextureSet textures;
    RsCutouts cutouts; /* filled by rs_scene_build when some material has an alpha texture */
    int has_cutouts;
    uint32_t skipped_degenerate; /* zero-area triangles dropped while adding */

    RsAccelOptions accel_options; /* what rs_scene_build builds (rs_accel_options_default) */

    /* filled by rs_scene_build */
    RsAccel accel;
    RsVec3 bounds_lo, bounds_hi; /* of every primitive */
    RsFloat4* lights;   /* the light table (lights.h): light_count entries */
    uint32_t light_count;
    uint32_t env_light; /* the environment's entry, or RS_NO_LIGHT */
    RsLightSelect light_select; /* how NEE picks among the lights (light_select.h) */
    int built;
} RsScene;

/* Defaults: camera at the origin looking down -z, 40 degrees; 512x512, 16 spp, depth 8,
 * path integrator, Sobol sampler, light tree, no adaptive sampling (min spp 16), seed 0; black
 * environment; the default acceleration structure. */
void rs_scene_init(RsScene* scene);
void rs_scene_free(RsScene* scene);

/* Returns the new material's index, or -1 (duplicate name, out of memory). */
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

/* Acceleration structure (scene->accel_options) and light table. Fails on an empty scene. */
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
