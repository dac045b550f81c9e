/* normal_map.h - shading normals bent by a material's normal map or bump map.
 *
 * Shared header (gcc C11, g++, nvcc); used by shade after rs_shading_normal.
 *
 * Both need the surface's tangent frame: the tangent T is dp/du (the direction in which the
 * texture coordinate u grows), made perpendicular to the shading normal n, and the bitangent
 * B = n x T, turned to the side where v grows (so mirrored texture coordinates keep working).
 * A triangle takes dp/du and dp/dv from its edges and its vertices' texture coordinates, a
 * sphere from its (longitude, latitude) parametrisation (kernel/texture/coords.h); a triangle without
 * texture coordinates has no frame, and its normal stays as it was. A material's uv transform
 * changes which directions u and v grow along (rs_uv_transform_tangents).
 *
 * Normal map (MTL norm, glTF normalTexture, JSON "normal_map"): a tangent-space normal stored
 * as RGB = (n + 1) / 2, linear, +x along T, +y along B (OpenGL's and glTF's convention: green
 * points to where v grows, up the image), +z along n.
 *
 * Bump map (MTL map_bump / bump, JSON "bump_map"): a height field in the image's first channel.
 * Its slope is measured per texel, so that the look of a bump map does not depend on the
 * scene's units or on how often the texture repeats: the normal becomes n - s (dh/dx T + dh/dy B)
 * (normalised), where dh/dx and dh/dy are the height's change per texel of the full-resolution
 * image and s the bump scale. s = 1 tilts the normal by 45 degrees where the height climbs its
 * whole range in one texel. The differences are taken across the texels of the mip level the
 * footprint picks and divided by their size, so a distant bump map is smoothed, not aliased,
 * and keeps its strength.
 */
#ifndef RS_KERNEL_NORMAL_MAP_H
#define RS_KERNEL_NORMAL_MAP_H

#include "kernel/geometry/surface.h"
#include "kernel/state/kernel_params.h"
#include "kernel/texture/surface_texture.h"

#define RS_MAPPED_NORMAL_MIN_COS 0.05f

/* dp/du and dp/dv of the primitive at the hit; 0 if it has no texture parametrisation. */
RS_FN int rs_surface_tangents(const RsSceneView* scene, const RsPrim* prim, uint32_t index, RsVec3 p, RsVec3* dpdu,
                              RsVec3* dpdv)
{
    if (rs_prim_type(prim) == RS_PRIM_SPHERE) {
        /* u = atan2(z, x) / 2 pi, v = 1 - acos(y / r) / pi around the centre (kernel/texture/coords.h) */
        RsVec3 d = rs_sub(p, rs_xyz(prim->a));
        float r = prim->b.x, rho = sqrtf(d.x * d.x + d.z * d.z);
        if (!(rho > 1e-6f * r))
            return 0;
        *dpdu = rs_vec3(-2.0f * RS_PI * d.z, 0.0f, 2.0f * RS_PI * d.x);
        /* dp/dv = pi dp/d(latitude): towards +y along the meridian */
        *dpdv = rs_scale(rs_vec3(-d.x * d.y / rho, rho, -d.z * d.y / rho), RS_PI);
        return 1;
    }
    const RsShading* s = scene->shading ? &scene->shading[index] : 0;
    if (!s || !(rs_float_as_uint(s->d.w) & RS_SHADING_UVS))
        return 0;
    float du1 = s->b.w - s->a.w, dv1 = s->d.y - s->d.x, du2 = s->c.w - s->a.w, dv2 = s->d.z - s->d.x;
    float det = du1 * dv2 - du2 * dv1;
    if (!(fabsf(det) > 1e-12f))
        return 0;
    RsVec3 e1 = rs_xyz(prim->b), e2 = rs_xyz(prim->c);
    float inv = 1.0f / det;
    *dpdu = rs_scale(rs_sub(rs_scale(e1, dv2), rs_scale(e2, dv1)), inv);
    *dpdv = rs_scale(rs_sub(rs_scale(e2, du1), rs_scale(e1, du2)), inv);
    return 1;
}

/* dp/du' and dp/dv' for mat's transformed coordinates (u', v') = J (u, v) + c: the columns of
 * [dp/du dp/dv] J^-1, J = [m0 m1; m3 m4]. 0 for a transform that collapses the plane. */
RS_FN int rs_uv_transform_tangents(const RsMaterial* mat, RsVec3* dpdu, RsVec3* dpdv)
{
    if (!(rs_material_flags(mat) & RS_MAT_UV_TRANSFORM))
        return 1;
    float det = rs_material_uv_det(mat);
    if (!(fabsf(det) > 1e-20f))
        return 0;
    float inv = 1.0f / det;
    RsVec3 du = *dpdu, dv = *dpdv;
    *dpdu = rs_scale(rs_sub(rs_scale(du, mat->h.y), rs_scale(dv, mat->h.x)), inv);
    *dpdv = rs_scale(rs_sub(rs_scale(dv, mat->g.x), rs_scale(du, mat->g.y)), inv);
    return 1;
}

/* The orthonormal frame (t, b, n) of the note above; 0 if dp/du lies along n. */
RS_FN int rs_tangent_frame(RsVec3 n, RsVec3 dpdu, RsVec3 dpdv, RsVec3* t, RsVec3* b)
{
    RsVec3 along = rs_sub(dpdu, rs_scale(n, rs_dot(n, dpdu)));
    float length = rs_length(along);
    if (!(length > 1e-20f))
        return 0;
    *t = rs_scale(along, 1.0f / length);
    *b = rs_cross(n, *t);
    if (rs_dot(*b, dpdv) < 0.0f)
        *b = rs_neg(*b);
    return 1;
}

/* ns bent by mat's normal map or, failing that, its bump map at the hit; ns without either. */
RS_FN RsVec3 rs_mapped_normal(const RsKernelParams* kp, const RsMaterial* mat, const RsPrim* prim, uint32_t index,
                              const RsSurfacePoint* sp, RsVec3 ns, RsVec3 wo, const RsTextureContext* tc)
{
    uint32_t normal_map = rs_material_normal_map(mat), bump_map = rs_material_bump_map(mat);
    if (normal_map == RS_NO_TEXTURE && bump_map == RS_NO_TEXTURE)
        return ns;
    const RsSceneView* scene = &kp->scene;
    RsVec3 dpdu, dpdv, t, b;
    if (!rs_surface_tangents(scene, prim, index, sp->p, &dpdu, &dpdv) || !rs_uv_transform_tangents(mat, &dpdu, &dpdv) ||
        !rs_tangent_frame(ns, dpdu, dpdv, &t, &b))
        return ns;
    const RsTexturePoint tp = tc->t;
    RsVec3 bent;
    if (normal_map != RS_NO_TEXTURE) {
        float lod = rs_texture_context_lod(kp, tc, normal_map);
        RsFloat4 c = rs_texture_lookup(&scene->textures, normal_map, tp.u, tp.v, lod);
        bent = rs_add(rs_add(rs_scale(t, 2.0f * c.x - 1.0f), rs_scale(b, 2.0f * c.y - 1.0f)),
                      rs_scale(ns, 2.0f * c.z - 1.0f));
    } else {
        RsUint4 d = scene->textures.descriptors[bump_map];
        float lod = rs_texture_context_lod(kp, tc, bump_map);
        /* one texel of the level looked up, in texture coordinates */
        float level = floorf(rs_clampf(lod, 0.0f, (float)(rs_texture_levels(d) - 1)));
        float step = ldexpf(1.0f, (int)level); /* full-resolution texels per texel of that level */
        float texel_u = step / (float)d.y, texel_v = step / (float)d.z;
        const RsTextureView* tex = &scene->textures;
        float dh_dx = (rs_texture_lookup(tex, bump_map, tp.u + texel_u, tp.v, lod).x -
                       rs_texture_lookup(tex, bump_map, tp.u - texel_u, tp.v, lod).x) /
                      (2.0f * step);
        float dh_dy = (rs_texture_lookup(tex, bump_map, tp.u, tp.v + texel_v, lod).x -
                       rs_texture_lookup(tex, bump_map, tp.u, tp.v - texel_v, lod).x) /
                      (2.0f * step);
        float s = rs_material_bump_scale(mat);
        bent = rs_sub(ns, rs_add(rs_scale(t, s * dh_dx), rs_scale(b, s * dh_dy)));
    }
    float length = rs_length(bent);
    if (!(length > 0.0f))
        return ns;
    bent = rs_scale(bent, 1.0f / length);
    /* A bent normal that faces away from the viewer would make the no-leak rule (rs_sides_agree)
     * black out the whole lobe: tip it towards wo until wo is just above it, as Cycles does
     * (ensure_valid_specular_reflection), keeping it in the plane of the map's normal and wo. */
    float side = rs_dot(ns, wo) >= 0.0f ? 1.0f : -1.0f, q = side * rs_dot(bent, wo);
    if (q < RS_MAPPED_NORMAL_MIN_COS)
        bent = rs_normalize(rs_add(bent, rs_scale(wo, side * (RS_MAPPED_NORMAL_MIN_COS - q))));
    return bent;
}

#endif /* RS_KERNEL_NORMAL_MAP_H */
