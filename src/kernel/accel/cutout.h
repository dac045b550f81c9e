/* cutout.h - alpha cut-outs: triangles whose material's alpha texture says there is no surface
 * at the point a ray hits, so the ray goes on as if the triangle were not there (leaves,
 * chains, fences modelled as textured cards).
 *
 * Shared header (gcc C11, g++, nvcc). Traversal calls it for every geometric hit (trace_hit.h),
 * closest-hit and any-hit alike, so camera rays, bounces and shadow rays all see the same holes.
 * The test is deterministic: the alpha texture's full-resolution bilinear value at the hit's
 * texture coordinates against 0.5 (glTF's default alphaCutoff). Only triangles with texture
 * coordinates can have holes; a sphere's material alpha is ignored.
 */
#ifndef RS_KERNEL_CUTOUT_H
#define RS_KERNEL_CUTOUT_H

#include "kernel/scene/scene_data.h"
#include "kernel/texture/texture.h"

#define RS_CUTOUT_THRESHOLD 0.5f

/* What traversal needs to look alpha up: scene-order primitives (for their materials), the
 * materials, the texture coordinates and the textures. A structure's view points to one of
 * these only when some material has an alpha texture. */
typedef struct RsCutouts {
    const RsPrim* prims;
    const RsMaterial* materials;
    const RsShading* shading;
    RsTextureView textures;
} RsCutouts;

/* 1 if scene primitive `prim` has a hole at barycentrics (b1, b2). */
RS_FN int rs_cutout_hole(const RsCutouts* c, uint32_t prim, float b1, float b2)
{
    const RsPrim* p = &c->prims[prim];
    uint32_t alpha = rs_float_as_uint(c->materials[rs_prim_material(p)].e.y);
    if (alpha == RS_NO_TEXTURE || rs_prim_type(p) != RS_PRIM_TRIANGLE || !c->shading)
        return 0;
    const RsShading* s = &c->shading[prim];
    if (!(rs_float_as_uint(s->d.w) & RS_SHADING_UVS))
        return 0;
    float u, v;
    rs_shading_uv(s, b1, b2, &u, &v);
    return rs_texture_lookup(&c->textures, alpha, u, v, 0.0f).w < RS_CUTOUT_THRESHOLD;
}

#endif /* RS_KERNEL_CUTOUT_H */
