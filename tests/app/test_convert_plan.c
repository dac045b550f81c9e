/* test_convert_plan.c - `raystream convert` on what only importers make (app suite): a scene built
 * in code with textures decoded in memory (rs_texture_add_rgba8, as a glTF's embedded images),
 * a roughness read from the green channel, an environment map made in memory, non-unit vertex
 * normals and texture coordinates. Planned and written, then loaded back from the JSON: the
 * primitives, shading, lights, materials (with the texels of every texture they read) and the
 * environment are the same, bit for bit (a spot light's axis to its last bits: see below). A
 * material known only as kernel blocks is refused, naming it. The version 2 features round-trip
 * too (checkerboards as a colour and an emission, a directional light from a direction of any
 * length, texture transforms, opacity, mask and blend cut-outs reading the alpha channel of an
 * sRGB colour image as glTF's do, a thin dielectric with a textured tint), and the keys are
 * written as the spec says (orthographic camera, alpha_cutoff only for a mask, objects and
 * instances); a checkerboard JSON cannot say (a colour beyond [0, 1], as a roughness) is refused
 * naming the material. Host C11.
 *
 *   test_convert_plan TMPDIR_PARENT (a folder to make a temporary folder in)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/convert/convert_plan.h"
#include "host/import/scene_loader.h"
#include "host/scene/material.h"
#include "host/scene/texture.h"
#include "tests/test.h"

static void build_scene(RsScene* s, RsError* err)
{
    rs_scene_init(s);
    s->camera.eye = rs_vec3(0.0f, 1.0f, 4.0f);
    s->camera.look_at = rs_vec3(0.0f, 0.5f, 0.0f);
    s->camera.up = rs_vec3(0.0f, 1.0f, 0.0f);
    s->camera.fov_degrees = 41.3f;
    s->render.width = 24;
    s->render.height = 16;
    uint8_t rgba[4 * 4 * 4];
    for (int i = 0; i < 16; ++i) {
        rgba[4 * i] = (uint8_t)(17 * i);
        rgba[4 * i + 1] = (uint8_t)(255 - 13 * i);
        rgba[4 * i + 2] = (uint8_t)(40 + 7 * i);
        rgba[4 * i + 3] = (uint8_t)(i & 1 ? 255 : 90);
    }
    int32_t colour = rs_texture_add_rgba8(&s->textures, "model.glb#image0", rgba, 4, 4, RS_TEXTURE_SRGB, err);
    int32_t mr = rs_texture_add_rgba8(&s->textures, "model.glb#image1", rgba, 4, 4, 0, err);
    CHECK(colour >= 0 && mr >= 0, "textures: %s", err->message);
    RsMaterialDesc painted = rs_material_desc(RS_MAT_PLASTIC);
    painted.colour_texture = (uint32_t)colour;
    painted.roughness_texture = (uint32_t)mr;
    painted.roughness_channel = 1;
    painted.ior = 1.45f;
    RsMaterialDesc lamp = rs_material_desc(RS_MAT_DIFFUSE);
    lamp.colour = rs_vec3_splat(0.0f);
    lamp.emission = rs_vec3(3.0f, 2.5f, 2.0f);
    RsMaterialDesc metal = rs_material_desc(RS_MAT_CONDUCTOR);
    metal.colour_texture = (uint32_t)colour;
    metal.roughness_u = 0.3f;
    metal.roughness_v = 0.6f;
    /* version 2: checkerboards as a colour and as an emission, a glTF-like cut-out that reads
     * the alpha channel of its sRGB colour image, texture transforms, a thin dielectric */
    int32_t board = rs_scene_add_checkerboard(s, rs_vec3(0.8f, 0.75f, 0.1f), rs_vec3(0.05f, 0.2f, 1.0f), err);
    int32_t glow_board = rs_scene_add_checkerboard(s, rs_vec3(1.0f, 0.5f, 0.25f), rs_vec3(0.0f, 0.3f, 0.7f), err);
    CHECK(board >= 0 && glow_board >= 0, "checkerboards: %s", err->message);
    RsMaterialDesc checked = rs_material_desc(RS_MAT_DIFFUSE);
    checked.colour_texture = (uint32_t)board;
    const float transform[6] = {4.0f, 0.5f, 0.1f, -0.25f, 3.0f, 0.7f};
    memcpy(checked.uv_transform, transform, sizeof transform);
    RsMaterialDesc glow = rs_material_desc(RS_MAT_DIFFUSE);
    glow.colour = rs_vec3_splat(0.0f);
    glow.emission = rs_vec3(2.0f, 1.5f, 3.0f);
    glow.emission_texture = (uint32_t)glow_board;
    glow.uv_transform[0] = 8.0f;
    glow.opacity = 0.6f;
    RsMaterialDesc leaf = rs_material_desc(RS_MAT_PLASTIC);
    leaf.colour_texture = leaf.alpha_texture = (uint32_t)colour;
    leaf.alpha_cutoff = 0.3f;
    RsMaterialDesc veil = rs_material_desc(RS_MAT_DIFFUSE);
    veil.colour_texture = veil.alpha_texture = (uint32_t)colour;
    veil.alpha_mode = RS_ALPHA_BLEND;
    veil.opacity = 0.7f;
    RsMaterialDesc pane = rs_material_desc(RS_MAT_THIN_DIELECTRIC);
    pane.ior = 1.33f;
    pane.colour_texture = (uint32_t)board;
    CHECK(rs_scene_add_material_desc(s, "painted", &painted, err) == 0 &&
              rs_scene_add_material_desc(s, "lamp", &lamp, err) == 1 &&
              rs_scene_add_material_desc(s, "metal", &metal, err) == 2 &&
              rs_scene_add_material_desc(s, "checked", &checked, err) == 3 &&
              rs_scene_add_material_desc(s, "glow", &glow, err) == 4 &&
              rs_scene_add_material_desc(s, "leaf", &leaf, err) == 5 &&
              rs_scene_add_material_desc(s, "veil", &veil, err) == 6 &&
              rs_scene_add_material_desc(s, "pane", &pane, err) == 7,
          "materials: %s", err->message);
    /* a fan of triangles with non-unit normals and coordinates, a sphere, a lamp */
    for (int i = 0; i < 6; ++i) {
        float a = 0.37f * (float)i, b = a + 0.37f;
        RsVec3 v0 = rs_vec3(0.1f, 0.0f, 0.3f), v1 = rs_vec3(1.7f * cosf(a), 0.01f * (float)i, 1.3f * sinf(a));
        RsVec3 v2 = rs_vec3(1.7f * cosf(b), 0.02f, 1.3f * sinf(b));
        RsVec3 n[3] = {rs_vec3(0.1f, 2.0f, 0.3f), rs_vec3(-0.2f, 1.5f, 0.1f), rs_vec3(0.0f, 0.7f, -0.05f * (float)i)};
        float uv[6] = {0.0f, 0.0f, 0.9f * cosf(a), 0.4f, 0.3f, 1.1f};
        CHECK(rs_scene_add_triangle_shaded(s, v0, v1, v2, n, uv, i < 4 ? 0u : 2u, err) == 0, "%s", err->message);
    }
    CHECK(rs_scene_add_sphere(s, rs_vec3(-0.6f, 0.35f, 0.2f), 0.35f, 2, err) == 0, "%s", err->message);
    for (uint32_t m = 3; m <= 7; ++m)
        CHECK(rs_scene_add_sphere(s, rs_vec3(0.4f * (float)m - 2.0f, 0.2f, -1.0f), 0.2f, m, err) == 0, "%s",
              err->message);
    /* an importer's direction, not of unit length: the light keeps it normalized once */
    CHECK(rs_scene_add_directional_light(s, rs_vec3(0.3f, -1.7f, 0.45f), rs_vec3(2.0f, 1.9f, 1.5f), err) == 0,
          "directional light: %s", err->message);
    CHECK(rs_scene_add_triangle(s, rs_vec3(-1.0f, 2.0f, -1.0f), rs_vec3(1.0f, 2.0f, -1.0f), rs_vec3(0.0f, 2.1f, 1.0f), 1,
                                err) == 0,
          "%s", err->message);
    CHECK(rs_scene_add_spot_light(s, rs_vec3(0.3f, 3.0f, 0.7f), rs_vec3(0.1f, -1.0f, -0.2f), rs_vec3(5.0f, 5.0f, 4.0f),
                                  33.3f, 4.1f, err) == 0,
          "%s", err->message);
    float env[8 * 4 * 3];
    for (int i = 0; i < 8 * 4 * 3; ++i)
        env[i] = 0.05f + 0.013f * (float)(i % 17);
    CHECK(rs_env_map_from_rgb(&s->env_map, env, 8, 4, err) == 0, "%s", err->message);
    s->env.zenith = rs_pack(rs_vec3(0.7f, 0.8f, 0.9f), rs_uint_as_float(RS_ENV_MAP));
    s->env.horizon = rs_float4(cosf(0.4f), sinf(0.4f), 0.0f, 0.0f);
    CHECK(rs_scene_build(s, err) == 0, "build: %s", err->message);
}

/* The same texels, size and flags (a checkerboard: its two colours); alpha_only: the same size
 * and alpha channel in every mip level, whatever the flags (a cut-out reads only that). */
static int same_texture(const RsTextureSet* a, uint32_t ia, const RsTextureSet* b, uint32_t ib, int alpha_only)
{
    if (ia == RS_NO_TEXTURE || ib == RS_NO_TEXTURE)
        return ia == ib;
    RsUint4 da = a->descriptors.data[ia], db = b->descriptors.data[ib];
    if (da.y != db.y || da.z != db.z || (alpha_only ? (da.w & 0xffu) != (db.w & 0xffu) : da.w != db.w))
        return 0;
    if (rs_texture_flags(da) & RS_TEXTURE_CHECKER)
        return memcmp(&a->texels.data[da.x], &b->texels.data[db.x], 8 * sizeof *a->texels.data) == 0;
    size_t n = 0;
    for (uint32_t l = 0; l < (da.w & 0xffu); ++l) {
        uint32_t w = da.y >> l, h = da.z >> l;
        n += (size_t)(w ? w : 1) * (h ? h : 1);
    }
    if (!alpha_only)
        return memcmp(&a->texels.data[da.x], &b->texels.data[db.x], n * 4) == 0;
    for (size_t i = 0; i < n; ++i)
        if ((a->texels.data[da.x + i] >> 24) != (b->texels.data[db.x + i] >> 24))
            return 0;
    return 1;
}

static void compare(const RsScene* a, const RsScene* b)
{
    CHECK(a->prims.count == b->prims.count, "%zu primitives, reloaded %zu", a->prims.count, b->prims.count);
    if (a->prims.count == b->prims.count)
        CHECK(memcmp(a->prims.data, b->prims.data, a->prims.count * sizeof *a->prims.data) == 0, "primitives differ");
    CHECK(a->shading.count == b->shading.count, "%zu shading entries, reloaded %zu", a->shading.count, b->shading.count);
    for (size_t i = 0; i < a->shading.count && a->shading.count == b->shading.count; ++i) {
        const float* x = &a->shading.data[i].a.x;
        const float* y = &b->shading.data[i].a.x;
        for (int k = 0; k < 16; ++k)
            CHECK(x[k] == y[k] || (k == 15 && memcmp(&x[k], &y[k], 4) == 0), /* -0 and 0 alike; the flags as bits */
                  "shading %zu, float %d: %.9g, reloaded %.9g", i, k, x[k], y[k]);
    }
    CHECK(a->point_lights.count == b->point_lights.count, "%zu point lights, reloaded %zu", a->point_lights.count,
          b->point_lights.count);
    for (size_t i = 0; i < a->point_lights.count && a->point_lights.count == b->point_lights.count; ++i) {
        const float* x = &a->point_lights.data[i].a.x;
        const float* y = &b->point_lights.data[i].a.x;
        /* a spot light's axis (floats 8..10) and a directional light's direction (0..2) may
         * differ in their last bits: the JSON reader normalizes a direction twice (in double,
         * then as floats), and a unit vector normalized once from an importer's axis need not be
         * one that path can make (one it can make comes back exactly: see the end of main) */
        int directional = rs_float_as_uint(x[3]) == RS_POINT_LIGHT_DIRECTIONAL;
        for (int k = 0; k < 12; ++k)
            CHECK((directional ? k <= 2 : k >= 8 && k <= 10) ? fabsf(x[k] - y[k]) <= 4e-7f
                                                             : memcmp(&x[k], &y[k], 4) == 0,
                  "point light %zu, float %d: %.9g, reloaded %.9g", i, k, x[k], y[k]);
    }
    CHECK(a->light_count == b->light_count && memcmp(a->lights, b->lights, a->light_count * sizeof *a->lights) == 0,
          "light tables differ (%u lights, reloaded %u)", a->light_count, b->light_count);
    CHECK(memcmp(&a->env, &b->env, sizeof a->env) == 0, "environments differ");
    CHECK(a->env_map.width == b->env_map.width && a->env_map.height == b->env_map.height, "environment map size");
    for (size_t i = 0; a->env_map.width == b->env_map.width && i < (size_t)a->env_map.width * a->env_map.height; ++i) {
        RsVec3 x = rs_xyz(a->env_map.texels[i]), y = rs_xyz(b->env_map.texels[i]);
        if (x.x != y.x || x.y != y.y || x.z != y.z) {
            CHECK(0, "environment texel %zu differs", i);
            break;
        }
    }
    CHECK(a->materials.count == b->materials.count, "%zu materials, reloaded %zu", a->materials.count,
          b->materials.count);
    for (size_t i = 0; i < a->materials.count && a->materials.count == b->materials.count; ++i) {
        RsMaterial ma = a->materials.data[i], mb = b->materials.data[i];
        const uint32_t ta[6] = {rs_float_as_uint(ma.e.x), rs_float_as_uint(ma.e.y), rs_float_as_uint(ma.e.z),
                                rs_float_as_uint(ma.e.w), rs_float_as_uint(ma.f.x), rs_float_as_uint(ma.f.y)};
        const uint32_t tb[6] = {rs_float_as_uint(mb.e.x), rs_float_as_uint(mb.e.y), rs_float_as_uint(mb.e.z),
                                rs_float_as_uint(mb.e.w), rs_float_as_uint(mb.f.x), rs_float_as_uint(mb.f.y)};
        uint32_t channel_a = rs_float_as_uint(ma.f.w), channel_b = rs_float_as_uint(mb.f.w);
        for (int k = 0; k < 6; ++k) {
            /* a roughness moved from channel c into the first of its own image */
            int moved = k == 3 && channel_a != channel_b;
            CHECK(moved || same_texture(&a->textures, ta[k], &b->textures, tb[k], k == 1),
                  "material %zu: texture %d differs", i, k);
        }
        if (channel_a != channel_b && ta[3] != RS_NO_TEXTURE && tb[3] != RS_NO_TEXTURE) {
            RsUint4 da = a->textures.descriptors.data[ta[3]], db = b->textures.descriptors.data[tb[3]];
            int same = da.y == db.y && da.z == db.z;
            for (size_t t = 0; same && t < (size_t)da.y * da.z; ++t)
                same = ((a->textures.texels.data[da.x + t] >> (8 * channel_a)) & 255u) ==
                       ((b->textures.texels.data[db.x + t] >> (8 * channel_b)) & 255u);
            CHECK(same, "material %zu: the roughness channel's texels differ", i);
        }
        /* colour under a texture is not read (surface_texture.h), nor a conductor's eta and k */
        int textured = ta[0] != RS_NO_TEXTURE;
        CHECK(textured || memcmp(&ma.a, &mb.a, sizeof ma.a) == 0, "material %zu: colour block differs", i);
        CHECK(memcmp(&ma.b, &mb.b, sizeof ma.b) == 0, "material %zu: emission block differs", i);
        CHECK(ma.c.w == mb.c.w && ma.d.w == mb.d.w, "material %zu: roughness differs", i);
        CHECK(rs_float_as_uint(ma.a.w) == rs_float_as_uint(mb.a.w), "material %zu: type differs", i);
        /* flags (roughness channel aside), bump scale, texture transform, opacity; the cutoff,
         * which a blend does not read (kernel/accel/cutout.h) */
        uint32_t flags_a = rs_float_as_uint(ma.f.w) & ~(uint32_t)RS_MAT_ROUGHNESS_CHANNEL;
        uint32_t flags_b = rs_float_as_uint(mb.f.w) & ~(uint32_t)RS_MAT_ROUGHNESS_CHANNEL;
        CHECK(flags_a == flags_b && ma.f.z == mb.f.z, "material %zu: flags or bump scale differ", i);
        CHECK(memcmp(&ma.g, &mb.g, sizeof ma.g) == 0 && memcmp(&ma.h, &mb.h, 3 * sizeof(float)) == 0 &&
                  ((flags_a & RS_MAT_ALPHA_BLEND) || ma.h.w == mb.h.w),
              "material %zu: texture transform, opacity or cutoff differ", i);
    }
}

int main(int argc, char** argv)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/convert-XXXXXX", argc > 1 ? argv[1] : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    RsError err = {{0}};
    RsScene scene;
    build_scene(&scene, &err);
    char out[4200];
    snprintf(out, sizeof out, "%s/made.json", dir);
    RsFileList none = {0};
    RsConvertPlan plan;
    int planned = rs_convert_plan(&plan, &scene, &none, out, &err) == 0;
    CHECK(planned, "plan: %s", err.message);
    int pngs = 0, exrs = 0;
    for (size_t i = 0; planned && i < plan.file_count; ++i) {
        pngs += plan.files[i].kind == RS_CONVERT_PNG;
        exrs += plan.files[i].kind == RS_CONVERT_EXR;
        CHECK(rs_convert_write_file(&plan.files[i], &err) == 0, "write %s: %s", plan.files[i].path, err.message);
    }
    CHECK(pngs == 2, "%d PNG files for two in-memory textures (one of them re-channelled)", pngs);
    CHECK(exrs == 1, "%d EXR files for an in-memory environment map", exrs);
    char* text = planned ? cJSON_Print(plan.root) : NULL;
    FILE* f = text ? fopen(out, "w") : NULL;
    CHECK(f && fputs(text, f) >= 0 && fclose(f) == 0, "cannot write %s", out);
    free(text);
    RsScene back;
    RsFileList files = {0};
    if (planned && rs_scene_load(out, NULL, &back, &files, &err) == 0) {
        compare(&scene, &back);
        rs_scene_free(&back);
    } else {
        CHECK(0, "reload: %s", err.message);
    }
    rs_file_list_free(&files);
    for (size_t i = 0; planned && i < plan.file_count; ++i)
        unlink(plan.files[i].path);
    unlink(out);
    rs_convert_plan_free(&plan);
    rs_scene_free(&scene);

    /* a material without a description cannot be written: refused, naming it */
    rs_scene_init(&scene);
    rs_error_clear(&err);
    CHECK(rs_scene_add_material(&scene, "blocks only", rs_material_make(RS_MAT_DIFFUSE, rs_vec3_splat(0.5f),
                                                                        rs_vec3_splat(1.0f), 1.5f, 0),
                                &err) == 0,
          "%s", err.message);
    CHECK(rs_scene_add_sphere(&scene, rs_vec3_splat(0.0f), 1.0f, 0, &err) == 0 && rs_scene_build(&scene, &err) == 0,
          "%s", err.message);
    CHECK(rs_convert_plan(&plan, &scene, &none, out, &err) != 0 && strstr(err.message, "'blocks only'"),
          "a material without a description: '%s'", err.message);
    rs_convert_plan_free(&plan);
    rs_scene_free(&scene);

    /* the keys of format version 2 that other parts of raystream fill in (docs: json-v2 spec):
     * written from what the scene holds, whether or not this build renders them yet */
    rs_scene_init(&scene);
    rs_error_clear(&err);
    scene.camera.projection = RS_PROJECTION_ORTHOGRAPHIC;
    scene.camera.ortho_height = 2.5f;
    RsMaterialDesc pane = rs_material_desc(RS_MAT_THIN_DIELECTRIC);
    pane.ior = 1.52f;
    RsMaterialDesc decal = rs_material_desc(RS_MAT_DIFFUSE);
    const float uv[6] = {2.0f, 0.0f, 0.5f, 0.0f, 3.0f, 0.25f};
    memcpy(decal.uv_transform, uv, sizeof uv);
    decal.alpha_mode = RS_ALPHA_BLEND;
    decal.opacity = 0.75f;
    decal.alpha_cutoff = 0.25f; /* not read by a blend, and refused with one by the JSON reader */
    RsMaterialDesc stencil = rs_material_desc(RS_MAT_MIRROR);
    stencil.alpha_cutoff = 0.125f;
    CHECK(rs_scene_add_material_desc(&scene, "pane", &pane, &err) == 0 &&
              rs_scene_add_material_desc(&scene, "decal", &decal, &err) == 1 &&
              rs_scene_add_material_desc(&scene, "stencil", &stencil, &err) == 2,
          "%s", err.message);
    CHECK(rs_scene_add_directional_light(&scene, rs_vec3(0.0f, -2.0f, 0.0f), rs_vec3(1.0f, 2.0f, 3.0f), &err) == 0,
          "%s", err.message);
    int32_t object = rs_scene_begin_object(&scene, &err);
    CHECK(object == 0 && rs_scene_add_sphere(&scene, rs_vec3_splat(0.0f), 0.5f, 1, &err) == 0 &&
              rs_scene_end_object(&scene, &err) == 0,
          "object: %s", err.message);
    RsTransform to_world = rs_transform_translate(rs_vec3(1.0f, 2.0f, 3.0f));
    CHECK(rs_scene_add_instance(&scene, 0, &to_world, &err) == 0, "instance: %s", err.message);
    CHECK(rs_convert_plan(&plan, &scene, &none, out, &err) == 0, "plan of version-2 features: %s", err.message);
    char* json = plan.root ? cJSON_PrintUnformatted(plan.root) : NULL;
    const char* expected[] = {"\"projection\":\"orthographic\"", "\"ortho_height\":2.5", "\"type\":\"thin_dielectric\"",
                              "\"ior\":1.52", "\"uv_transform\":[2,0,0.5,0,3,0.25]", "\"alpha_mode\":\"blend\"",
                              "\"opacity\":0.75", "\"alpha_cutoff\":0.125",
                              "{\"type\":\"directional\",\"direction\":[0,-1,0],\"irradiance\":[1,2,3]}"};
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; ++i)
        CHECK(json && strstr(json, expected[i]), "the JSON lacks %s: %s", expected[i], json ? json : "(none)");
    /* instances: as objects and "instance" shapes, or, where this build flattens them, as the
     * world's copies only (never both: they would be drawn twice) */
    const char* objects = "\"objects\":[{\"name\":\"object0\"";
    const char* instance =
        "\"type\":\"instance\",\"object\":\"object0\",\"transform\":{\"matrix\":[1,0,0,1,0,1,0,2,0,0,1,3,0,0,0,1]}";
    const char* copy = "{\"type\":\"sphere\",\"center\":[1,2,3],\"radius\":0.5,\"material\":\"decal\"}";
    int flat = rs_convert_instances_flattened();
    int has_objects = json && strstr(json, objects), has_instance = json && strstr(json, instance);
    int has_copy = json && strstr(json, copy);
    CHECK(has_objects == !flat && has_instance == !flat && has_copy == flat,
          "instances (%s in this build) written as: %s", flat ? "flattened" : "kept apart", json ? json : "(none)");
    CHECK(json && !strstr(json, "\"fov\""), "an orthographic camera written with a fov");
    CHECK(json && !strstr(json, "\"alpha_cutoff\":0.25"), "a blend's cutoff written (the JSON reader refuses it)");
    free(json);
    rs_convert_plan_free(&plan);
    rs_scene_free(&scene);

    /* what scene JSON cannot say about a checkerboard is refused, naming the material: a colour
     * beyond [0, 1], a checkerboard as a roughness */
    const struct {
        RsVec3 c1;
        int roughness;
        const char* expected;
    } refused[] = {{{1.5f, 0.5f, 0.5f}, 0, "checkerboard's colour 1 has a channel of 1.5"},
                   {{0.5f, 0.5f, 0.5f}, 1, "its roughness texture is a checkerboard"}};
    for (int i = 0; i < 2; ++i) {
        rs_scene_init(&scene);
        rs_error_clear(&err);
        int32_t t = rs_scene_add_checkerboard(&scene, rs_vec3_splat(0.2f), refused[i].c1, &err);
        RsMaterialDesc d = rs_material_desc(RS_MAT_CONDUCTOR);
        if (refused[i].roughness)
            d.roughness_texture = (uint32_t)t;
        else
            d.colour_texture = (uint32_t)t;
        CHECK(t >= 0 && rs_scene_add_material_desc(&scene, "odd", &d, &err) == 0 &&
                  rs_scene_add_sphere(&scene, rs_vec3_splat(0.0f), 1.0f, 0, &err) == 0 &&
                  rs_scene_build(&scene, &err) == 0,
              "%s", err.message);
        CHECK(rs_convert_plan(&plan, &scene, &none, out, &err) != 0 && strstr(err.message, "'odd'") &&
                  strstr(err.message, refused[i].expected),
              "refusal %d: '%s'", i, err.message);
        rs_convert_plan_free(&plan);
        rs_scene_free(&scene);
    }
    rmdir(dir);
    return rs_test_finish("test_convert_plan");
}
