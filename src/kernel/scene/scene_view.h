/* scene_view.h - everything per-ray code reads about the scene: primitives, materials,
 * lights, the environment and the acceleration structure, as one read-only view.
 *
 * Shared header (gcc C11, g++, nvcc). The host fills it (rs_scene_view, src/host/scene/scene.c) with
 * host pointers; the CUDA backend copies the arrays and swaps in device pointers.
 */
#ifndef RS_KERNEL_SCENE_VIEW_H
#define RS_KERNEL_SCENE_VIEW_H

#include "kernel/accel/accel.h"
#include "kernel/light/env_map.h"
#include "kernel/scene/scene_data.h"
#include "kernel/texture/texture.h"

typedef struct RsSceneView {
    RsAccelView accel;
    const RsPrim* prims; /* in scene order: what hits, lights and shading refer to */
    const RsMaterial* materials;
    const RsShading* shading; /* per primitive, or NULL when no primitive has vertex normals */
    const RsFloat4* lights;
    const RsPointLight* point_lights;
    uint32_t prim_count, material_count, light_count, point_light_count;
    RsTextureView textures;
    RsEnvironment env;
    RsEnvMapView env_map; /* the image of an RS_ENV_MAP environment */
    float env_select_pdf; /* probability that next-event estimation picks the environment */
    float pad2_[3];
    RsFloat4 bounds_lo, bounds_hi; /* xyz: the box of every primitive */
} RsSceneView;

#endif /* RS_KERNEL_SCENE_VIEW_H */
