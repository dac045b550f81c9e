/* cutout.h - alpha cut-outs: primitives whose material says there is no surface at the point
 * a ray hits, so the ray goes on as if the primitive were not there (leaves, chains, fences
 * modelled as textured cards; glTF's alphaMode; constant opacity).
 *
 * Shared header (gcc C11, g++, nvcc). Traversal calls it for every geometric hit (trace_hit.h),
 * closest-hit and any-hit alike, so camera rays, bounces and shadow rays all see the same holes.
 * A material's alpha is its alpha texture's value (full resolution, bilinear, at the hit's
 * texture coordinates through the material's uv transform; 1 without a texture, or on a
 * primitive without texture coordinates) times its opacity (scene_data.h, blocks g and h):
 *   RS_ALPHA_MASK (the default): a hole where alpha < the cutoff (0.5 by default, glTF's); exact.
 *   RS_ALPHA_BLEND: a hole with probability 1 - alpha (a stochastic cut-out, the unbiased
 *     stand-in for blending in a path tracer). The number is a hash of the ray (its origin and
 *     direction bits) and the primitive, so the decision is a pure function of the path's own
 *     ray: the same for every dead-ray strategy, thread, wave and acceleration structure (a
 *     primitive that a spatial-split BVH or a grid lists twice is decided the same way twice),
 *     and never of a thread or slot. A shadow ray draws its own number, so it passes a card with
 *     probability 1 - alpha, as a camera or bounce ray does: the two agree in expectation, and
 *     a shadow ray stays an any-hit query that stops at its first opaque hit (a transmittance
 *     factor would have to visit every cut-out along the ray instead).
 */
#ifndef RS_KERNEL_CUTOUT_H
#define RS_KERNEL_CUTOUT_H

#include "kernel/sampling/rng.h"
#include "kernel/scene/scene_data.h"
#include "kernel/texture/texture.h"

#define RS_CUTOUT_THRESHOLD 0.5f /* the default cutoff (RsMaterialDesc.alpha_cutoff) */

/* What traversal needs to look alpha up: scene-order primitives (for their materials), the
 * materials, the texture coordinates and the textures. A structure's view points to one of
 * these only when some material can have a hole. */
typedef struct RsCutouts {
    const RsPrim* prims;
    const RsMaterial* materials;
    const RsShading* shading;
    RsTextureView textures;
} RsCutouts;

/* A uniform number in [0, 1) from the ray and the primitive (RS_ALPHA_BLEND's decision). */
RS_FN float rs_cutout_random(uint32_t prim, RsVec3 o, RsVec3 d)
{
    uint32_t h = rs_hash_u32(prim ^ 0x27d4eb2fu);
    h = rs_hash_u32(h ^ rs_float_as_uint(o.x));
    h = rs_hash_u32(h ^ rs_float_as_uint(o.y));
    h = rs_hash_u32(h ^ rs_float_as_uint(o.z));
    h = rs_hash_u32(h ^ rs_float_as_uint(d.x));
    h = rs_hash_u32(h ^ rs_float_as_uint(d.y));
    h = rs_hash_u32(h ^ rs_float_as_uint(d.z));
    return (float)(h >> 8) * (1.0f / 16777216.0f);
}

/* 1 if scene primitive `prim` has a hole at barycentrics (b1, b2) for the ray (o, d). */
RS_FN int rs_cutout_hole(const RsCutouts* c, uint32_t prim, float b1, float b2, RsVec3 o, RsVec3 d)
{
    const RsPrim* p = &c->prims[prim];
    const RsMaterial* m = &c->materials[rs_prim_material(p)];
    uint32_t alpha = rs_float_as_uint(m->e.y);
    float opacity = rs_material_opacity(m), a = opacity;
    const RsShading* s = c->shading ? &c->shading[prim] : 0;
    if (alpha != RS_NO_TEXTURE && rs_prim_type(p) == RS_PRIM_TRIANGLE && s &&
        (rs_float_as_uint(s->d.w) & RS_SHADING_UVS)) {
        float u, v;
        rs_shading_uv(s, b1, b2, &u, &v);
        rs_material_uv(m, &u, &v);
        a = rs_texture_lookup(&c->textures, alpha, u, v, 0.0f).w * opacity;
    } else if (opacity == 1.0f) {
        return 0;
    }
    if (rs_material_flags(m) & RS_MAT_ALPHA_BLEND)
        return rs_cutout_random(prim, o, d) >= a;
    return a < rs_material_alpha_cutoff(m);
}

#endif /* RS_KERNEL_CUTOUT_H */
