/* test_cutouts.c - alpha cut-outs let camera rays and shadow rays through their holes, in every
 * acceleration structure (render suite on the CPU; the gpu suite runs it with `cuda`). Host C11.
 *
 *   test_cutouts TEXTURE_DIR [cpu|cuda]
 *
 * Looking straight down from y = 5 at a white floor (y = 0) under a dark card (y = 1) whose
 * alpha mask is half_mask.png (tools/make_textures.py: opaque left half, a hole on the right,
 * an RGB image, so the grey level is the coverage), a point light straight above at y = 10,
 * depth 1 (no noise but the pixel jitter). The left half of the image must show the card lit
 * from 9 units, a_card I / (81 pi); the right half the floor through the hole, lit through the
 * hole, a_floor I / (100 pi). Closest-hit traversal that ignored the mask would show the card on
 * the right too; any-hit traversal that ignored it would leave the floor there in shadow.
 *
 * The same scene is also read from JSON (the card a "quad" with "alpha"), which must cut the same
 * way: a JSON quad once got texture coordinates only for a colour texture, so its mask, like its
 * emission, roughness, normal and bump images, was silently ignored. Every one of those images
 * on a JSON quad and triangle must give their triangles coordinates.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "host/import/json/scene_json.h"

#include "render_util.h"
#include "tests/test.h"

enum { SIZE = 32 };
static const float card_albedo = 0.3f, floor_albedo = 0.8f, intensity = 100.0f;

static void build(RsScene* s, const char* dir, RsAccelKind kind, RsError* err)
{
    rs_scene_init(s);
    s->accel_options.kind = kind;
    s->camera.eye = rs_vec3(0, 5, 0);
    s->camera.look_at = rs_vec3(0, 0, 0);
    s->camera.up = rs_vec3(0, 0, -1);
    s->camera.fov_degrees = 2.0f * atanf(0.8f / 4.0f) * 180.0f / RS_PI; /* the card spans the view */
    int32_t floor_m = rs_scene_add_material(s, "floor", rs_material_make(RS_MAT_DIFFUSE, rs_vec3_splat(floor_albedo),
                                                                         rs_vec3_splat(0.0f), 1.0f, 0), err);
    char path[1024];
    snprintf(path, sizeof path, "%s/half_mask.png", dir);
    int32_t mask = rs_texture_load(&s->textures, path, RS_TEXTURE_LOAD_MASK, "test_cutouts", err);
    CHECK(mask >= 0, "%s", err->message);
    RsMaterialDesc card = rs_material_desc(RS_MAT_DIFFUSE);
    card.colour = rs_vec3_splat(card_albedo);
    card.alpha_texture = mask >= 0 ? (uint32_t)mask : RS_NO_TEXTURE;
    int32_t card_m = rs_scene_add_material(s, "card", rs_material_from_desc(&card), err);
    RsVec3 f[4] = {rs_vec3(-5, 0, 5), rs_vec3(5, 0, 5), rs_vec3(5, 0, -5), rs_vec3(-5, 0, -5)};
    rs_scene_add_triangle(s, f[0], f[1], f[2], (uint32_t)floor_m, err);
    rs_scene_add_triangle(s, f[0], f[2], f[3], (uint32_t)floor_m, err);
    /* the card seen from above: image left is -x, image top is -z; u runs along +x */
    RsVec3 c[4] = {rs_vec3(-1, 1, 1), rs_vec3(1, 1, 1), rs_vec3(1, 1, -1), rs_vec3(-1, 1, -1)};
    const float first[6] = {0, 0, 1, 0, 1, 1}, second[6] = {0, 0, 1, 1, 0, 1};
    rs_scene_add_triangle_shaded(s, c[0], c[1], c[2], NULL, first, (uint32_t)card_m, err);
    rs_scene_add_triangle_shaded(s, c[0], c[2], c[3], NULL, second, (uint32_t)card_m, err);
    rs_scene_add_point_light(s, rs_vec3(0, 10, 0), rs_vec3_splat(intensity), err);
    CHECK(rs_scene_build(s, err) == 0, "%s", err->message);
}

/* The scene of build() as a JSON file in `tmp` (the card a quad with an alpha mask). */
static void write_json(const char* tmp, const char* dir, char* out, size_t size)
{
    snprintf(out, size, "%s/cutout.json", tmp);
    FILE* f = fopen(out, "w");
    CHECK(f != NULL, "cannot write %s", out);
    if (!f)
        return;
    fprintf(f,
            "{\"version\": 1, \"camera\": {\"eye\": [0, 5, 0], \"look_at\": [0, 0, 0], \"up\": [0, 0, -1], "
            "\"fov\": %.9g, \"resolution\": [%d, %d]},\n"
            " \"materials\": [{\"name\": \"floor\", \"type\": \"diffuse\", \"albedo\": [%g, %g, %g]},\n"
            "  {\"name\": \"card\", \"type\": \"diffuse\", \"albedo\": [%g, %g, %g], \"alpha\": {\"texture\": "
            "\"%s/half_mask.png\"}}],\n"
            " \"shapes\": [{\"type\": \"quad\", \"vertices\": [[-5, 0, 5], [5, 0, 5], [5, 0, -5], [-5, 0, -5]], "
            "\"material\": \"floor\"},\n"
            "  {\"type\": \"quad\", \"vertices\": [[-1, 1, 1], [1, 1, 1], [1, 1, -1], [-1, 1, -1]], \"material\": "
            "\"card\"}],\n"
            " \"lights\": [{\"type\": \"point\", \"position\": [0, 10, 0], \"intensity\": [%g, %g, %g]}]}\n",
            2.0 * atan(0.8 / 4.0) * 180.0 / RS_PI, SIZE, SIZE, floor_albedo, floor_albedo, floor_albedo, card_albedo,
            card_albedo, card_albedo, dir, intensity, intensity, intensity);
    fclose(f);
}

/* Every image a JSON quad or triangle may read gives its triangles texture coordinates. */
static void check_json_coordinates(const char* tmp, const char* dir)
{
    static const char* const images[] = {
        "\"albedo\": [0.5, 0.5, 0.5], \"alpha\": {\"texture\": \"%s/half_mask.png\"}",
        "\"albedo\": [0.5, 0.5, 0.5], \"emission\": {\"texture\": \"%s/half_mask.png\"}",
        "\"albedo\": [0.5, 0.5, 0.5], \"normal_map\": {\"texture\": \"%s/bumps_normal.png\"}",
        "\"albedo\": [0.5, 0.5, 0.5], \"bump_map\": {\"texture\": \"%s/bumps_height.png\"}",
        "\"albedo\": {\"texture\": \"%s/checker.png\"}",
    };
    char path[1100], material[600];
    for (int shape = 0; shape < 2; ++shape)
        for (size_t i = 0; i < sizeof images / sizeof images[0] + 1; ++i) {
            int rough = i == sizeof images / sizeof images[0]; /* a conductor's roughness image */
            if (rough)
                snprintf(material, sizeof material,
                         "\"type\": \"conductor\", \"metal\": \"Au\", \"roughness\": {\"texture\": \"%s/grey188.png\"}",
                         dir);
            else {
                char fmt[300];
                snprintf(fmt, sizeof fmt, "\"type\": \"diffuse\", %s", images[i]);
                snprintf(material, sizeof material, fmt, dir);
            }
            snprintf(path, sizeof path, "%s/uv.json", tmp);
            FILE* f = fopen(path, "w");
            CHECK(f != NULL, "cannot write %s", path);
            if (!f)
                return;
            fprintf(f,
                    "{\"version\": 1, \"camera\": {\"eye\": [0, 0, 3], \"look_at\": [0, 0, 0]},\n"
                    " \"materials\": [{\"name\": \"m\", %s}],\n \"shapes\": [{\"type\": \"%s\", \"vertices\": "
                    "[[0, 0, 0], [1, 0, 0], [1, 1, 0]%s], \"material\": \"m\"}]}\n",
                    material, shape ? "triangle" : "quad", shape ? "" : ", [0, 1, 0]");
            fclose(f);
            RsScene s;
            RsError err = {{0}};
            int loaded = rs_scene_load_json(path, NULL, &s, &err) == 0;
            CHECK(loaded, "%s", err.message);
            if (!loaded)
                continue;
            CHECK(s.shading.count == s.prims.count && s.prims.count == (shape ? 1u : 2u),
                  "%s %zu: %zu primitives, %zu with shading data", shape ? "triangle" : "quad", i, s.prims.count,
                  s.shading.count);
            for (size_t p = 0; p < s.shading.count; ++p)
                CHECK(rs_float_as_uint(s.shading.data[p].d.w) & RS_SHADING_UVS,
                      "a JSON %s whose material has %s gets no texture coordinates", shape ? "triangle" : "quad",
                      material);
            rs_scene_free(&s);
        }
}

int main(int argc, char** argv)
{
    CHECK(argc > 1, "usage: test_cutouts TEXTURE_DIR [cpu|cuda]");
    if (argc < 2)
        return rs_test_finish("test_cutouts");
    RsBackendConfig cfg;
    int cuda;
    if (!test_backend(argc, argv, 2, "test_cutouts", &cfg, &cuda))
        return RS_TEST_SKIP;
    const RsAccelKind kinds[] = {RS_ACCEL_BVH2, RS_ACCEL_BVH8, RS_ACCEL_GRID};
    const char* names[] = {"bvh2", "bvh8", "grid"};
    for (int k = 0; k < 3; ++k) {
        RsError err = {{0}};
        RsScene s;
        build(&s, argv[1], kinds[k], &err);
        TestRender tr = {SIZE, SIZE, 4, 1, RS_INTEGRATOR_PATH, 1, 0, 0};
        RsFloat4* film = test_render(&s, &cfg, &tr, NULL, &err);
        CHECK(film != NULL, "%s: %s", names[k], err.message);
        if (film) {
            double left, right;
            film_half_means(film, SIZE, &left, &right);
            double card = card_albedo * intensity / (81.0 * RS_PI), ground = floor_albedo * intensity / (100.0 * RS_PI);
            /* within 3.5%: away from the axis the light arrives at an angle (cos^3 is 0.94 in the
             * corners), which the means over each half soften to about 2% */
            CHECK(fabs(left - card) <= 0.035 * card, "%s: the opaque half shows %.5f, expected %.5f (the card)",
                  names[k], left, card);
            CHECK(fabs(right - ground) <= 0.035 * ground, "%s: the hole shows %.5f, expected %.5f (the floor, lit through it)",
                  names[k], right, ground);
        }
        free(film);
        rs_scene_free(&s);
    }
    /* the card from a JSON scene: its mask cuts as the built one's does */
    char tmp[] = "/tmp/test_cutouts_XXXXXX", json[1100];
    CHECK(mkdtemp(tmp) != NULL, "mkdtemp failed");
    write_json(tmp, argv[1], json, sizeof json);
    RsError err = {{0}};
    RsScene s;
    RsAccelOptions accel = rs_accel_options_default();
    CHECK(rs_scene_json_load(json, &accel, &s, NULL, &err) == 0, "%s", err.message);
    if (!err.message[0]) {
        TestRender tr = {SIZE, SIZE, 4, 1, RS_INTEGRATOR_PATH, 1, 0, 0};
        RsFloat4* film = test_render(&s, &cfg, &tr, NULL, &err);
        CHECK(film != NULL, "json: %s", err.message);
        if (film) {
            double left, right;
            film_half_means(film, SIZE, &left, &right);
            double card = card_albedo * intensity / (81.0 * RS_PI), ground = floor_albedo * intensity / (100.0 * RS_PI);
            CHECK(fabs(left - card) <= 0.035 * card, "json: the opaque half shows %.5f, expected %.5f (the card)", left,
                  card);
            CHECK(fabs(right - ground) <= 0.035 * ground,
                  "json: the hole shows %.5f, expected %.5f (the floor): the quad's mask was ignored", right, ground);
        }
        free(film);
        rs_scene_free(&s);
    }
    check_json_coordinates(tmp, argv[1]);
    unlink(json);
    char uv[1100];
    snprintf(uv, sizeof uv, "%s/uv.json", tmp);
    unlink(uv);
    rmdir(tmp);
    return rs_test_finish("test_cutouts");
}
