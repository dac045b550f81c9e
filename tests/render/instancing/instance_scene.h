/* instance_scene.h - a scene with instances, and its flattened twin, for the instancing tests
 * (tests/render/instancing/test_instancing.c on the CPU, tests/gpu/ against the CPU). Host C11, header-only.
 *
 * A floor (world geometry beside the instances), a textured object with vertex normals and
 * texture coordinates (a coarse sphere mesh, so smooth shading shows), placed three times: turned
 * about a skew axis, stretched non-uniformly and mirrored; an emitting quad (one-sided)
 * placed twice as lamps, turned and scaled; and a card with an alpha cut-out (a grid of holes)
 * standing turned between them. The twin adds the same triangles to the world,
 * transformed by rs_transform_point / rs_transform_normal, as a scene without instances would
 * hold them; both name their lights in the same order.
 */
#ifndef RS_TESTS_INSTANCE_SCENE_H
#define RS_TESTS_INSTANCE_SCENE_H

#include <math.h>
#include <string.h>

#include "host/scene/scene.h"

#define INSTANCE_SCENE_BLOBS 3
#define INSTANCE_SCENE_LAMPS 2
#define INSTANCE_SCENE_CARDS 1

static inline RsTransform instance_scene_place(int which)
{
    RsTransform s, r, t, rs;
    switch (which) {
    case 0: /* a turn about a skew axis */
        s = rs_transform_scale(rs_vec3(0.8f, 0.8f, 0.8f));
        r = rs_transform_rotate(35.0f, rs_vec3(1.0f, 1.0f, 0.3f));
        t = rs_transform_translate(rs_vec3(-1.6f, 0.8f, 0.0f));
        break;
    case 1: /* stretched unevenly, then turned */
        s = rs_transform_scale(rs_vec3(1.3f, 0.5f, 0.9f));
        r = rs_transform_rotate(-50.0f, rs_vec3(0.0f, 1.0f, 0.2f));
        t = rs_transform_translate(rs_vec3(0.3f, 0.55f, -0.4f));
        break;
    case 2: /* mirrored in x (negative determinant) */
        s = rs_transform_scale(rs_vec3(-0.7f, 0.9f, 0.7f));
        r = rs_transform_rotate(20.0f, rs_vec3(0.0f, 0.0f, 1.0f));
        t = rs_transform_translate(rs_vec3(1.8f, 0.9f, 0.5f));
        break;
    case 5: /* the card: upright, turned, stretched */
        s = rs_transform_scale(rs_vec3(2.0f, 1.5f, 1.0f));
        r = rs_transform_rotate(70.0f, rs_vec3(1.0f, 0.2f, 0.0f));
        t = rs_transform_translate(rs_vec3(0.0f, 1.0f, 1.6f));
        break;
    case 3: /* lamp: turned to face down */
        s = rs_transform_scale(rs_vec3(1.0f, 1.0f, 1.0f));
        r = rs_transform_rotate(180.0f, rs_vec3(1.0f, 0.0f, 0.0f));
        t = rs_transform_translate(rs_vec3(-0.8f, 3.0f, 0.5f));
        break;
    default: /* lamp: stretched, tilted */
        s = rs_transform_scale(rs_vec3(1.6f, 1.0f, 0.6f));
        r = rs_transform_rotate(160.0f, rs_vec3(1.0f, 0.0f, 0.4f));
        t = rs_transform_translate(rs_vec3(1.2f, 2.6f, -0.6f));
        break;
    }
    rs = rs_transform_compose(&r, &s);
    return rs_transform_compose(&t, &rs);
}

/* One triangle of an object, in object space, with what it is shaded with. */
typedef struct InstanceTri {
    RsVec3 v[3], n[3];
    float uv[6];
    int shaded; /* 1: normals and coordinates */
} InstanceTri;

/* The blob: a sphere of 8 x 6 facets with vertex normals and (longitude, latitude) coordinates. */
static inline int instance_scene_blob(InstanceTri* out)
{
    int k = 0;
    const int nu = 8, nv = 6;
    for (int j = 0; j < nv; ++j)
        for (int i = 0; i < nu; ++i) {
            RsVec3 p[4];
            float uv[4][2];
            for (int c = 0; c < 4; ++c) {
                int ii = i + (c == 1 || c == 2), jj = j + (c >= 2);
                float phi = 2.0f * RS_PI * (float)ii / (float)nu, theta = RS_PI * (float)jj / (float)nv;
                p[c] = rs_vec3(sinf(theta) * cosf(phi), cosf(theta), sinf(theta) * sinf(phi));
                uv[c][0] = (float)ii / (float)nu;
                uv[c][1] = (float)jj / (float)nv;
            }
            const int tri[2][3] = {{0, 2, 1}, {0, 3, 2}};
            for (int t = 0; t < 2; ++t) {
                InstanceTri* o = &out[k];
                for (int c = 0; c < 3; ++c) {
                    o->v[c] = p[tri[t][c]];
                    o->n[c] = p[tri[t][c]];
                    o->uv[2 * c] = uv[tri[t][c]][0];
                    o->uv[2 * c + 1] = uv[tri[t][c]][1];
                }
                o->shaded = 1;
                RsVec3 e1 = rs_sub(o->v[1], o->v[0]), e2 = rs_sub(o->v[2], o->v[0]);
                k += rs_length(rs_cross(e1, e2)) > 1e-6f; /* the poles' slivers are dropped */
            }
        }
    return k;
}

/* The card: a unit quad in the xz plane with texture coordinates (its cut-out's). */
static inline int instance_scene_card(InstanceTri* out)
{
    RsVec3 p[4] = {rs_vec3(-0.5f, 0.0f, -0.5f), rs_vec3(0.5f, 0.0f, -0.5f), rs_vec3(0.5f, 0.0f, 0.5f),
                   rs_vec3(-0.5f, 0.0f, 0.5f)};
    const float uv[4][2] = {{0.0f, 0.0f}, {1.0f, 0.0f}, {1.0f, 1.0f}, {0.0f, 1.0f}};
    const int tri[2][3] = {{0, 2, 1}, {0, 3, 2}};
    for (int t = 0; t < 2; ++t) {
        for (int c = 0; c < 3; ++c) {
            out[t].v[c] = p[tri[t][c]];
            out[t].n[c] = rs_vec3(0.0f, 1.0f, 0.0f);
            out[t].uv[2 * c] = uv[tri[t][c]][0];
            out[t].uv[2 * c + 1] = uv[tri[t][c]][1];
        }
        out[t].shaded = 1;
    }
    return 2;
}

/* The lamp: a unit quad in the xz plane facing +y. */
static inline int instance_scene_lamp(InstanceTri* out)
{
    RsVec3 p[4] = {rs_vec3(-0.4f, 0.0f, -0.4f), rs_vec3(0.4f, 0.0f, -0.4f), rs_vec3(0.4f, 0.0f, 0.4f),
                   rs_vec3(-0.4f, 0.0f, 0.4f)};
    const int tri[2][3] = {{0, 2, 1}, {0, 3, 2}};
    for (int t = 0; t < 2; ++t) {
        memset(&out[t], 0, sizeof out[t]);
        for (int c = 0; c < 3; ++c)
            out[t].v[c] = p[tri[t][c]];
    }
    return 2;
}

static inline int instance_scene_add(RsScene* s, const InstanceTri* t, const RsTransform* xf, uint32_t material,
                                     RsError* err)
{
    RsVec3 v[3], n[3];
    for (int c = 0; c < 3; ++c) {
        v[c] = xf ? rs_transform_point(xf, t->v[c]) : t->v[c];
        n[c] = xf ? rs_transform_normal(xf, t->n[c]) : t->n[c];
    }
    return rs_scene_add_triangle_shaded(s, v[0], v[1], v[2], t->shaded ? n : NULL, t->shaded ? t->uv : NULL,
                                        material, err);
}

/* Fills an rs_scene_init-ed scene: with instances (twin 0) or flattened (twin 1); not built. */
static inline int instance_scene_make(RsScene* s, int twin, RsError* err)
{
    uint8_t rgba[8 * 8 * 4];
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 8; ++x) {
            uint8_t* p = &rgba[(y * 8 + x) * 4];
            int odd = (x + y) & 1;
            p[0] = odd ? 230 : 40;
            p[1] = odd ? 120 : 200;
            p[2] = (uint8_t)(30 * x);
            p[3] = 255;
        }
    int32_t tex = rs_texture_add_rgba8(&s->textures, "checks", rgba, 8, 8, 0, err);
    uint8_t holes[8 * 8 * 4];
    for (int i = 0; i < 64; ++i) {
        holes[4 * i] = holes[4 * i + 1] = holes[4 * i + 2] = 200;
        holes[4 * i + 3] = ((i % 8) / 2 + (i / 8) / 2) % 2 ? 0 : 255; /* 2x2-texel holes, a checker */
    }
    int32_t mask = rs_texture_add_rgba8(&s->textures, "holes", holes, 8, 8, 0, err);
    if (tex < 0 || mask < 0)
        return -1;
    RsMaterialDesc floor = rs_material_desc(RS_MAT_DIFFUSE), blob = rs_material_desc(RS_MAT_DIFFUSE);
    RsMaterialDesc lamp = rs_material_desc(RS_MAT_DIFFUSE), card = rs_material_desc(RS_MAT_DIFFUSE);
    card.colour = rs_vec3(0.2f, 0.5f, 0.8f);
    card.alpha_texture = (uint32_t)mask;
    card.two_sided = 1;
    floor.colour = rs_vec3(0.6f, 0.6f, 0.6f);
    blob.colour_texture = (uint32_t)tex;
    lamp.emission = rs_vec3(6.0f, 5.0f, 4.0f);
    int32_t m_floor = rs_scene_add_material_desc(s, "floor", &floor, err);
    int32_t m_blob = rs_scene_add_material_desc(s, "blob", &blob, err);
    int32_t m_lamp = rs_scene_add_material_desc(s, "lamp", &lamp, err);
    int32_t m_card = rs_scene_add_material_desc(s, "card", &card, err);
    if (m_floor < 0 || m_blob < 0 || m_lamp < 0 || m_card < 0)
        return -1;
    RsVec3 f[4] = {rs_vec3(-4.0f, 0.0f, -4.0f), rs_vec3(4.0f, 0.0f, -4.0f), rs_vec3(4.0f, 0.0f, 4.0f),
                   rs_vec3(-4.0f, 0.0f, 4.0f)};
    if (rs_scene_add_triangle(s, f[0], f[2], f[1], (uint32_t)m_floor, err) ||
        rs_scene_add_triangle(s, f[0], f[3], f[2], (uint32_t)m_floor, err))
        return -1;
    InstanceTri tris[3][96];
    int counts[3] = {instance_scene_blob(tris[0]), instance_scene_lamp(tris[1]), instance_scene_card(tris[2])};
    const uint32_t materials[3] = {(uint32_t)m_blob, (uint32_t)m_lamp, (uint32_t)m_card};
    int32_t objects[3] = {-1, -1, -1};
    for (int o = 0; o < 3 && !twin; ++o) {
        objects[o] = rs_scene_begin_object(s, err);
        if (objects[o] < 0)
            return -1;
        for (int i = 0; i < counts[o]; ++i)
            if (instance_scene_add(s, &tris[o][i], NULL, materials[o], err))
                return -1;
        if (rs_scene_end_object(s, err))
            return -1;
    }
    for (int k = 0; k < INSTANCE_SCENE_BLOBS + INSTANCE_SCENE_LAMPS + INSTANCE_SCENE_CARDS; ++k) {
        int o = k < INSTANCE_SCENE_BLOBS ? 0 : k < INSTANCE_SCENE_BLOBS + INSTANCE_SCENE_LAMPS ? 1 : 2;
        RsTransform xf = instance_scene_place(k);
        if (!twin) {
            if (rs_scene_add_instance(s, (uint32_t)objects[o], &xf, err))
                return -1;
            continue;
        }
        for (int i = 0; i < counts[o]; ++i)
            if (instance_scene_add(s, &tris[o][i], &xf, materials[o], err))
                return -1;
    }
    s->camera.eye = rs_vec3(0.0f, 2.2f, 6.5f);
    s->camera.look_at = rs_vec3(0.0f, 0.9f, 0.0f);
    s->camera.fov_degrees = 45.0f;
    s->env.zenith = rs_float4(0.05f, 0.06f, 0.08f, rs_uint_as_float(RS_ENV_CONSTANT));
    return 0;
}

#endif /* RS_TESTS_INSTANCE_SCENE_H */
