/* pbrt_mesh.c - placing pbrt-v4 triangles in raystream's world, and the material a shape gets.
 * Host C11.
 *
 * Orientation, as pbrt-v4's Triangle decides its normal (and so the side a one-sided area
 * light emits from): without vertex normals, the counter-clockwise normal of the object-space
 * triangle carried by the transform, flipped by ReverseOrientation; with vertex normals, the
 * side they point to (ReverseOrientation does not matter then). Each triangle is wound so that
 * raystream's front, its counter-clockwise side in the world (after `mirror`), is that side.
 * Vertex normals transform by the inverse transpose. Texture coordinates are kept only where the
 * material reads an image (they cost memory and nothing else reads them); a shape without "uv"
 * whose material reads one gets pbrt's default coordinates (0,0), (1,0), (1,1).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/import/pbrt/pbrt_context.h"
#include "host/import/pbrt/pbrt_spectra.h"
#include "host/scene/settings.h"

RsPbrtMatrix rs_pbrt_placement(const RsPbrtContext* ctx) { return rs_pbrt_mul(&ctx->mirror, &ctx->gs.ctm); }

static int reads_images(const RsMaterialDesc* d)
{
    return d->colour_texture != RS_NO_TEXTURE || d->alpha_texture != RS_NO_TEXTURE ||
           d->emission_texture != RS_NO_TEXTURE || d->roughness_texture != RS_NO_TEXTURE ||
           d->normal_map != RS_NO_TEXTURE || d->bump_map != RS_NO_TEXTURE;
}

int rs_pbrt_shape_material(RsPbrtContext* ctx, RsPbrtParams* params, uint32_t* material, int* skip)
{
    *skip = 0;
    RsMaterialDesc desc = rs_material_desc(RS_MAT_DIFFUSE);
    const char* label = "pbrt-default";
    if (ctx->gs.material >= 0) {
        const RsPbrtMaterial* m = &ctx->materials.data[ctx->gs.material];
        if (m->refused)
            return rs_pbrt_fail(params, ctx->err, "its material cannot be rendered: %s", m->refused);
        if (m->interface) {
            rs_scene_warn(ctx->scene, "%s: the material \"interface\" has no surface; the shape is skipped",
                          params->where);
            *skip = 1;
            return 0;
        }
        desc = m->desc;
        label = m->label;
    }
    char key[700];
    int n = snprintf(key, sizeof key, "%s", label);
    int32_t light = ctx->gs.area_light;
    if (light >= 0 && ctx->open_object >= 0) {
        if (!(ctx->warned & RS_PBRT_WARNED_INSTANCE_LIGHT))
            rs_scene_warn(ctx->scene, "%s: an area light inside ObjectBegin is not a light (as in pbrt-v4, which "
                                      "does not support area lights in instances)", params->where);
        ctx->warned |= RS_PBRT_WARNED_INSTANCE_LIGHT;
        light = -1;
    }
    if (light >= 0) {
        const RsPbrtAreaLight* a = &ctx->area_lights.data[light];
        desc.emission = a->radiance;
        desc.two_sided = a->two_sided;
        n += snprintf(key + n, sizeof key - (size_t)n, "#light%d", (int)light);
    }
    /* "alpha": a constant or a float texture; pbrt-v4 cuts stochastically (alpha is the chance the
     * surface is there), as raystream's RS_ALPHA_BLEND does */
    RsPbrtParam* alpha = rs_pbrt_param(params, "alpha");
    if (alpha) {
        uint32_t texture = RS_NO_TEXTURE;
        float uv[6];
        RsVec3 value = rs_vec3_splat(1.0f);
        int found = 0;
        alpha->used = 0;
        if (rs_pbrt_texture_param(ctx, params, "alpha", 1, RS_TEXTURE_LOAD_MASK, &texture, uv, &value, &found))
            return -1;
        if (texture == RS_NO_TEXTURE && value.x <= 0.0f) {
            *skip = 1; /* pbrt-v4 ignores intersections with alpha 0 */
            return 0;
        }
        if (texture != RS_NO_TEXTURE || value.x < 1.0f) {
            desc.alpha_mode = RS_ALPHA_BLEND;
            if (texture != RS_NO_TEXTURE) {
                desc.alpha_texture = texture;
                memcpy(desc.uv_transform, uv, sizeof uv);
            } else {
                desc.opacity = value.x;
            }
            snprintf(key + n, sizeof key - (size_t)n, "#alpha%s%g", texture != RS_NO_TEXTURE ? alpha->strings[0] : "",
                     (double)value.x);
        }
    }
    int32_t index = rs_scene_find_material(ctx->scene, key);
    if (index < 0)
        index = rs_scene_add_material_desc(ctx->scene, key, &desc, ctx->err);
    if (index < 0)
        return rs_pbrt_fail(params, ctx->err, "cannot add the material \"%s\"", key);
    *material = (uint32_t)index;
    return 0;
}

static int to_float3(const double v[3], RsVec3* out)
{
    for (int i = 0; i < 3; ++i)
        if (!(fabs(v[i]) <= RS_SCENE_MAX_MAGNITUDE))
            return -1;
    *out = rs_vec3((float)v[0], (float)v[1], (float)v[2]);
    return 0;
}

int rs_pbrt_add_mesh(RsPbrtContext* ctx, const RsPbrtMesh* mesh, uint32_t material, const char* where)
{
    RsScene* scene = ctx->scene;
    RsPbrtMatrix a = rs_pbrt_placement(ctx);
    if (!rs_pbrt_is_affine(&a))
        return rs_error_set(ctx->err, "%s: the transform is projective", where);
    double nm[3][3];
    if (rs_pbrt_normal_matrix(&a, nm))
        return rs_error_set(ctx->err, "%s: the transform is singular (it flattens the shape)", where);
    int flip = (rs_pbrt_det3(&a) < 0.0) != (ctx->gs.reverse_orientation != 0);
    const float default_uv[6] = {0.0f, 0.0f, 1.0f, 0.0f, 1.0f, 1.0f};
    int want_uv = reads_images(&scene->material_descs.data[material]);
    for (size_t t = 0; t + 2 < mesh->index_count; t += 3) {
        uint32_t idx[3] = {mesh->indices[t], mesh->indices[t + 1], mesh->indices[t + 2]};
        RsVec3 v[3], n[3];
        float uv[6];
        double g_sign = 0.0;
        for (int k = 0; k < 3; ++k) {
            if (idx[k] >= mesh->vertex_count)
                return rs_error_set(ctx->err, "%s: index %u is beyond the %zu vertices", where, idx[k],
                                    mesh->vertex_count);
            const float* p = mesh->P + 3 * (size_t)idx[k];
            double pd[3] = {p[0], p[1], p[2]}, w[3];
            rs_pbrt_point(&a, pd, w);
            if (to_float3(w, &v[k]))
                return rs_error_set(ctx->err, "%s: a vertex lies beyond +-1e18 once transformed", where);
            if (mesh->N) {
                const float* q = mesh->N + 3 * (size_t)idx[k];
                double m[3];
                for (int i = 0; i < 3; ++i)
                    m[i] = nm[i][0] * q[0] + nm[i][1] * q[1] + nm[i][2] * q[2];
                double len = sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
                if (!(len > 0.0) || !isfinite(len))
                    m[0] = m[1] = 0.0, m[2] = len = 1.0; /* a zero normal: pbrt falls back to the face's */
                n[k] = rs_vec3((float)(m[0] / len), (float)(m[1] / len), (float)(m[2] / len));
            }
            if (mesh->uv) {
                uv[2 * k] = mesh->uv[2 * (size_t)idx[k]];
                uv[2 * k + 1] = mesh->uv[2 * (size_t)idx[k] + 1];
            } else {
                uv[2 * k] = default_uv[2 * k];
                uv[2 * k + 1] = default_uv[2 * k + 1];
            }
        }
        int swap = flip;
        if (mesh->N) {
            RsVec3 e1 = rs_sub(v[1], v[0]), e2 = rs_sub(v[2], v[0]);
            RsVec3 g = rs_cross(e1, e2), s = rs_add(rs_add(n[0], n[1]), n[2]);
            g_sign = (double)rs_dot(g, s);
            swap = g_sign < 0.0;
        }
        if (swap) {
            RsVec3 tv = v[1];
            v[1] = v[2];
            v[2] = tv;
            RsVec3 tn = n[1];
            n[1] = n[2];
            n[2] = tn;
            float tu = uv[2], tw = uv[3];
            uv[2] = uv[4];
            uv[3] = uv[5];
            uv[4] = tu;
            uv[5] = tw;
        }
        if (rs_scene_add_triangle_shaded(scene, v[0], v[1], v[2], mesh->N ? n : NULL, want_uv ? uv : NULL, material,
                                         ctx->err))
            return rs_error_set(ctx->err, "%s: cannot add a triangle", where);
    }
    return 0;
}
