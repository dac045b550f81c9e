/* scene_data.h - the scene as per-ray code sees it: flat arrays of 16-byte blocks.
 *
 * Shared header (gcc C11, g++, nvcc). The host builds these arrays once (src/host/scene.c,
 * bvh_build.c); the CPU backend reads them in place and the CUDA backend copies them to the
 * device unchanged, so both backends traverse exactly the same bytes.
 *
 * Layouts (every block is one RsFloat4; "bits" means a uint32 stored with rs_uint_as_float):
 *   RsPrim, triangle:  a = v0.xyz | material bits
 *                      b = e1.xyz | light factor        (e1 = v1 - v0)
 *                      c = e2.xyz | type bits (0)       (e2 = v2 - v0)
 *   RsPrim, sphere:    a = centre.xyz | material bits
 *                      b = (radius, 0, 0) | light factor
 *                      c = (0, 0, 0) | type bits (1)
 *     light factor = P(select this light) / area, 0 for a primitive that does not emit: what
 *     MIS needs to know the light-sampling density of a point that a BSDF ray happened to hit.
 *   RsMaterial:        a = albedo or tint .rgb | type bits (RS_MAT_*, plus RS_MAT_TWO_SIDED)
 *                      b = emitted radiance .rgb | index of refraction
 *   light entry:       x = prim index bits (RS_LIGHT_ENVIRONMENT for the sky)
 *                      y = cumulative selection probability up to and including this light
 *                      z = selection probability, w = area (0 for the environment)
 *   RsBvhNode:         see bvh_traverse.h
 */
#ifndef RS_KERNEL_SCENE_DATA_H
#define RS_KERNEL_SCENE_DATA_H

#include "vecmath.h"

enum { RS_PRIM_TRIANGLE = 0, RS_PRIM_SPHERE = 1 };

enum {
    RS_MAT_DIFFUSE = 0,
    RS_MAT_MIRROR = 1,
    RS_MAT_DIELECTRIC = 2,
    RS_MAT_TYPE_MASK = 0xff,
    /* emission leaves both faces; otherwise only the front (geometric normal) side emits */
    RS_MAT_TWO_SIDED = 0x100
};

enum { RS_ENV_CONSTANT = 0, RS_ENV_SKY = 1 };

#define RS_LIGHT_ENVIRONMENT 0xffffffffu
#define RS_NO_HIT 0xffffffffu

typedef struct RsPrim {
    RsFloat4 a, b, c;
} RsPrim;

typedef struct RsMaterial {
    RsFloat4 a, b;
} RsMaterial;

/* Two children per node, both boxes stored in the parent (Aila & Laine's layout): one visit
 * tests both children, and a leaf costs no node fetch of its own.
 *   lo_left.xyz  | left child ref          hi_left.xyz  | right child ref
 *   lo_right.xyz | left prim count         hi_right.xyz | right prim count
 * A child with count 0 is an interior node (ref = node index); otherwise ref is the first
 * primitive of a leaf of `count` primitives. An empty box (lo > hi) is never entered. */
typedef struct RsBvhNode {
    RsFloat4 lo_left, hi_left, lo_right, hi_right;
} RsBvhNode;

RS_STATIC_ASSERT(sizeof(RsPrim) == 48, "RsPrim is three 16-byte blocks");
RS_STATIC_ASSERT(sizeof(RsMaterial) == 32, "RsMaterial is two 16-byte blocks");
RS_STATIC_ASSERT(sizeof(RsBvhNode) == 64, "RsBvhNode is four 16-byte blocks");

typedef struct RsEnvironment {
    RsFloat4 zenith;  /* rgb | type bits (RS_ENV_*); the constant colour for RS_ENV_CONSTANT */
    RsFloat4 horizon; /* rgb | unused */
    RsFloat4 ground;  /* rgb | unused */
} RsEnvironment;

typedef struct RsSceneView {
    const RsBvhNode* nodes;
    const RsPrim* prims;
    const RsMaterial* materials;
    const RsFloat4* lights;
    uint32_t node_count, prim_count, material_count, light_count;
    RsEnvironment env;
    float env_select_pdf; /* probability that next-event estimation picks the environment */
    float pad_[3];
} RsSceneView;

RS_FN uint32_t rs_prim_type(const RsPrim* p) { return rs_float_as_uint(p->c.w); }
RS_FN uint32_t rs_prim_material(const RsPrim* p) { return rs_float_as_uint(p->a.w); }
RS_FN float rs_prim_light_factor(const RsPrim* p) { return p->b.w; }

RS_FN uint32_t rs_material_type(const RsMaterial* m) { return rs_float_as_uint(m->a.w) & RS_MAT_TYPE_MASK; }
RS_FN int rs_material_two_sided(const RsMaterial* m) { return (rs_float_as_uint(m->a.w) & RS_MAT_TWO_SIDED) != 0; }
RS_FN RsVec3 rs_material_albedo(const RsMaterial* m) { return rs_xyz(m->a); }
RS_FN RsVec3 rs_material_emission(const RsMaterial* m) { return rs_xyz(m->b); }
RS_FN float rs_material_ior(const RsMaterial* m) { return m->b.w; }

#endif /* RS_KERNEL_SCENE_DATA_H */
