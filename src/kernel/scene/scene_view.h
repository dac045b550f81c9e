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

/* How next-event estimation picks a light (light_select.h); the host builds the arrays. */
enum {
    RS_LIGHT_SELECT_POWER = 0, /* one CDF over the lights' powers */
    RS_LIGHT_SELECT_TREE = 1,  /* a light BVH with power and orientation bounds (light_tree.h) */
    RS_LIGHT_SELECT_COUNT
};

typedef struct RsLightSelectView {
    uint32_t method;     /* RS_LIGHT_SELECT_* */
    uint32_t node_count; /* TREE: nodes (each four RsFloat4); 0 when no light but the environment */
    float env_prob;      /* TREE: the probability of picking a light at infinity (the environment) */
    uint32_t pad_;
    /* POWER: cumulative probability up to and including light i (last: 1), and the probability
     * of light i. TREE: NULL unless a directional light is in the table; then, for the lights
     * at infinity only (entries infinite_first on), the cumulative share within that group
     * (last: 1) and each one's probability (env_prob times its share of their power). */
    const float* cdf;
    const float* pmf;
    /* Every method: the power table (POWER's own cdf and pmf when that is the method), from
     * which particles leave the lights in proportion to power (particle/light_emit.h). */
    const float* power_cdf;
    const float* power_pmf;
    const RsFloat4* nodes;  /* TREE: 4 * node_count blocks, depth-first (light_tree.h) */
    const uint64_t* trails; /* TREE: per light, the way from the root to its leaf; 0: not in the tree */
} RsLightSelectView;

typedef struct RsSceneView {
    RsAccelView accel;
    const RsPrim* prims; /* in scene order: what hits, lights and shading refer to */
    const RsMaterial* materials;
    const RsShading* shading; /* per primitive, or NULL when no primitive has vertex normals */
    const RsFloat4* lights; /* the light table: one entry per emitter (scene_data.h) */
    const RsPointLight* point_lights;
    uint32_t prim_count, material_count, light_count, point_light_count;
    RsLightSelectView light_select;
    RsTextureView textures;
    RsEnvironment env;
    RsEnvMapView env_map; /* the image of an RS_ENV_MAP environment */
    uint32_t env_light;   /* the environment's entry in the light table, or RS_NO_LIGHT */
    uint32_t infinite_first; /* the first entry at infinity (directional lights, then the environment) */
    uint32_t pad2_[2];
    RsFloat4 bounds_lo, bounds_hi; /* xyz: the box of every primitive */
} RsSceneView;

#endif /* RS_KERNEL_SCENE_VIEW_H */
