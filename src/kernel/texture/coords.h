/* coords.h - the texture coordinates of a point on a primitive, and how densely they
 * cover the surface there (for the level of detail). Shared header (gcc C11, g++, nvcc); used by
 * shade (surface_texture.h) and by light sampling (emission textures, light.h).
 *
 * A triangle's coordinates are interpolated from its vertices' (scene_data.h, RsShading); a
 * sphere's are (longitude / 2 pi, 1 - colatitude / pi) around +y from +x; a triangle without any
 * reads its textures at (0, 0). A material's uv transform (scene_data.h) then moves them.
 */
#ifndef RS_KERNEL_TEXTURE_COORDS_H
#define RS_KERNEL_TEXTURE_COORDS_H

#include "kernel/scene/scene_view.h"

typedef struct RsTexturePoint {
    float u, v;
    float uv_area, world_area; /* texture-coordinate area per world area around the point */
} RsTexturePoint;

RS_FN RsTexturePoint rs_texture_point_of_surface(const RsSceneView* scene, const RsPrim* prim, uint32_t index,
                                                 float b1, float b2, RsVec3 p);

/* The point as the primitive's material's textures read it: through its uv transform, which
 * also scales the texture-coordinate area by its determinant (the footprint's level of detail). */
RS_FN RsTexturePoint rs_texture_point(const RsSceneView* scene, const RsPrim* prim, uint32_t index, float b1, float b2,
                                      RsVec3 p)
{
    RsTexturePoint t = rs_texture_point_of_surface(scene, prim, index, b1, b2, p);
    const RsMaterial* m = &scene->materials[rs_prim_material(prim)];
    if (rs_material_flags(m) & RS_MAT_UV_TRANSFORM) {
        rs_material_uv(m, &t.u, &t.v);
        t.uv_area *= fabsf(rs_material_uv_det(m));
    }
    return t;
}

/* The surface's own texture coordinates at the point (before any material transform). */
RS_FN RsTexturePoint rs_texture_point_of_surface(const RsSceneView* scene, const RsPrim* prim, uint32_t index,
                                                 float b1, float b2, RsVec3 p)
{
    RsTexturePoint t;
    t.u = t.v = 0.0f;
    t.uv_area = t.world_area = 1.0f;
    if (rs_prim_type(prim) == RS_PRIM_SPHERE) {
        RsVec3 d = rs_sub(p, rs_xyz(prim->a));
        float r = prim->b.x;
        float cos_theta = rs_clampf(d.y / r, -1.0f, 1.0f);
        float phi = atan2f(d.z, d.x);
        t.u = (phi < 0.0f ? phi + 2.0f * RS_PI : phi) * (0.5f * RS_INV_PI);
        t.v = 1.0f - acosf(cos_theta) * RS_INV_PI;
        float sin_theta = sqrtf(rs_maxf(0.0f, 1.0f - cos_theta * cos_theta));
        t.world_area = 2.0f * RS_PI * RS_PI * r * r * rs_maxf(sin_theta, 1e-3f);
        return t;
    }
    const RsShading* s = scene->shading ? &scene->shading[index] : 0;
    if (!s || !(rs_float_as_uint(s->d.w) & RS_SHADING_UVS))
        return t;
    rs_shading_uv(s, b1, b2, &t.u, &t.v);
    float du1 = s->b.w - s->a.w, dv1 = s->d.y - s->d.x, du2 = s->c.w - s->a.w, dv2 = s->d.z - s->d.x;
    t.uv_area = fabsf(du1 * dv2 - du2 * dv1);
    t.world_area = rs_length(rs_cross(rs_xyz(prim->b), rs_xyz(prim->c)));
    return t;
}

#endif /* RS_KERNEL_TEXTURE_COORDS_H */
