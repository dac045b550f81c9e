/* surface_texture.h - what a hit point reads from its material's textures: the level of detail
 * of the pixel's footprint there, and the material with its colour and emission looked up.
 * Shared header (gcc C11, g++, nvcc); used by shade.
 *
 * Texture coordinates come from texture_coords.h.
 * Footprint: a ray cone from the camera whose spread is one pixel, at the hit's distance from
 * the eye (an orthographic camera's rays are parallel: one pixel's size everywhere). Later bounces use the same distance from the eye, which underestimates a cone that
 * widened at a rough bounce (pbrt-v4 approximates its secondary hits from the camera the same
 * way); too sharp a lookup there only adds noise that the samples average away.
 */
#ifndef RS_KERNEL_SURFACE_TEXTURE_H
#define RS_KERNEL_SURFACE_TEXTURE_H

#include "kernel/bsdf/fresnel.h"
#include "kernel/geometry/surface.h"
#include "kernel/state/kernel_params.h"
#include "kernel/texture/coords.h"

/* The width of one pixel's footprint at p: the pixel's angle times the distance from the eye;
 * for an orthographic camera the pixel's size itself, the same at every distance (its rays are
 * parallel: a cone of spread 0 and width one pixel). A lens widens neither. */
RS_FN float rs_pixel_footprint(const RsKernelParams* kp, RsVec3 p)
{
    float pixel_angle = 2.0f * kp->camera.up.w / (float)kp->height;
    if (rs_camera_orthographic(&kp->camera))
        return pixel_angle; /* up.w is then half the view's height: this is a pixel's height */
    return pixel_angle * rs_length(rs_sub(p, rs_xyz(kp->camera.eye)));
}

/* What every texture lookup at one hit shares: where the hit is in texture coordinates, and
 * the pixel's footprint there. Computed once per shaded hit (stage_shade.h), for the normal and
 * bump maps (normal_map.h) and the material's textures alike. */
typedef struct RsTextureContext {
    RsTexturePoint t;
    float width, cos_view; /* the footprint's width at the hit, and its cosine to the normal */
} RsTextureContext;

/* Whether shading must look anything up in mat's images (cut-out masks are traversal's). */
RS_FN int rs_material_has_textures(const RsMaterial* m)
{
    return (rs_material_colour_texture(m) & rs_material_emission_texture(m) & rs_material_roughness_texture(m) &
            rs_material_normal_map(m) & rs_material_bump_map(m)) != RS_NO_TEXTURE;
}

RS_FN RsTextureContext rs_texture_context(const RsKernelParams* kp, const RsPrim* prim, uint32_t index, RsFloat4 hit,
                                          const RsSurfacePoint* sp, RsVec3 wo)
{
    RsTextureContext c;
    c.t = rs_texture_point(&kp->scene, prim, index, hit.y, hit.z, sp->p);
    c.width = rs_pixel_footprint(kp, sp->p);
    c.cos_view = rs_dot(sp->n, wo);
    return c;
}

/* The level of detail of texture `index` for the context's footprint. */
RS_FN float rs_texture_context_lod(const RsKernelParams* kp, const RsTextureContext* c, uint32_t index)
{
    return rs_texture_lod(kp->scene.textures.descriptors[index], c->t.uv_area, c->t.world_area, c->width, c->cos_view);
}

/* mat with its colour, emission and roughness read from their textures at the hit; mat itself
 * when it has none. */
RS_FN const RsMaterial* rs_textured_material(const RsKernelParams* kp, const RsMaterial* mat,
                                             const RsTextureContext* tc, RsMaterial* scratch)
{
    uint32_t colour = rs_material_colour_texture(mat), emission = rs_material_emission_texture(mat);
    uint32_t roughness = rs_material_roughness_texture(mat);
    if (colour == RS_NO_TEXTURE && emission == RS_NO_TEXTURE && roughness == RS_NO_TEXTURE)
        return mat;
    const RsSceneView* scene = &kp->scene;
    const RsTexturePoint t = tc->t;
    *scratch = *mat;
    if (colour != RS_NO_TEXTURE) {
        float lod = rs_texture_context_lod(kp, tc, colour);
        RsFloat4 c = rs_texture_lookup(&scene->textures, colour, t.u, t.v, lod);
        if (rs_material_type(mat) == RS_MAT_CONDUCTOR) { /* a reflectance, as material.c reads colours */
            scratch->c = rs_float4(1.0f, 1.0f, 1.0f, mat->c.w);
            scratch->d = rs_float4(rs_conductor_k_for_reflectance(c.x), rs_conductor_k_for_reflectance(c.y),
                                   rs_conductor_k_for_reflectance(c.z), mat->d.w);
        } else {
            scratch->a = rs_float4(c.x, c.y, c.z, mat->a.w);
        }
    }
    if (roughness != RS_NO_TEXTURE) {
        float lod = rs_texture_context_lod(kp, tc, roughness);
        RsFloat4 texel = rs_texture_lookup(&scene->textures, roughness, t.u, t.v, lod);
        uint32_t channel = rs_material_roughness_channel(mat);
        float r = rs_clampf(channel == 0 ? texel.x : channel == 1 ? texel.y : channel == 2 ? texel.z : texel.w, 0.0f,
                            1.0f);
        scratch->c.w = scratch->d.w = r * r;
    }
    if (emission != RS_NO_TEXTURE) {
        float lod = rs_texture_context_lod(kp, tc, emission);
        RsFloat4 c = rs_texture_lookup(&scene->textures, emission, t.u, t.v, lod);
        scratch->b = rs_float4(mat->b.x * c.x, mat->b.y * c.y, mat->b.z * c.z, mat->b.w);
    }
    return scratch;
}

#endif /* RS_KERNEL_SURFACE_TEXTURE_H */
