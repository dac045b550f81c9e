/* surface_texture.h - what a hit point reads from its material's textures: texture coordinates,
 * the level of detail of the pixel's footprint there, and the material with its colour looked
 * up. Shared header (gcc C11, g++, nvcc); used by shade.
 *
 * Texture coordinates: a triangle's are interpolated from its vertices' (scene_data.h,
 * RsShading), a sphere's are (longitude / 2 pi, 1 - colatitude / pi) around +y from +x, and a
 * triangle without any reads the texture at (0, 0).
 * Footprint: a ray cone from the camera whose spread is one pixel, at the hit's distance from
 * the eye. Later bounces use the same distance from the eye, which underestimates a cone that
 * widened at a rough bounce (pbrt-v4 approximates its secondary hits from the camera the same
 * way); too sharp a lookup there only adds noise that the samples average away.
 */
#ifndef RS_KERNEL_SURFACE_TEXTURE_H
#define RS_KERNEL_SURFACE_TEXTURE_H

#include "kernel_params.h"
#include "surface.h"

typedef struct RsTexturePoint {
    float u, v;
    float uv_area, world_area; /* texture-coordinate area per world area around the point */
} RsTexturePoint;

RS_FN RsTexturePoint rs_texture_point(const RsSceneView* scene, const RsPrim* prim, uint32_t index, float b1, float b2,
                                      RsVec3 p)
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
    float b0 = 1.0f - b1 - b2;
    t.u = b0 * s->a.w + b1 * s->b.w + b2 * s->c.w;
    t.v = b0 * s->d.x + b1 * s->d.y + b2 * s->d.z;
    float du1 = s->b.w - s->a.w, dv1 = s->d.y - s->d.x, du2 = s->c.w - s->a.w, dv2 = s->d.z - s->d.x;
    t.uv_area = fabsf(du1 * dv2 - du2 * dv1);
    t.world_area = rs_length(rs_cross(rs_xyz(prim->b), rs_xyz(prim->c)));
    return t;
}

/* The width of one pixel's footprint at p: the pixel's angle times the distance from the eye. */
RS_FN float rs_pixel_footprint(const RsKernelParams* kp, RsVec3 p)
{
    float pixel_angle = 2.0f * kp->camera.up.w / (float)kp->height;
    return pixel_angle * rs_length(rs_sub(p, rs_xyz(kp->camera.eye)));
}

/* mat with its colour read from its texture at the hit; mat itself when it has none. */
RS_FN const RsMaterial* rs_textured_material(const RsKernelParams* kp, const RsMaterial* mat, const RsPrim* prim,
                                             uint32_t index, RsFloat4 hit, const RsSurfacePoint* sp, RsVec3 wo,
                                             RsMaterial* scratch)
{
    uint32_t texture = rs_material_colour_texture(mat);
    if (texture == RS_NO_TEXTURE)
        return mat;
    const RsSceneView* scene = &kp->scene;
    RsTexturePoint t = rs_texture_point(scene, prim, index, hit.y, hit.z, sp->p);
    float lod = rs_texture_lod(scene->textures.descriptors[texture], t.uv_area, t.world_area,
                               rs_pixel_footprint(kp, sp->p), rs_dot(sp->n, wo));
    RsFloat4 c = rs_texture_lookup(&scene->textures, texture, t.u, t.v, lod);
    *scratch = *mat;
    scratch->a = rs_float4(c.x, c.y, c.z, mat->a.w);
    return scratch;
}

#endif /* RS_KERNEL_SURFACE_TEXTURE_H */
