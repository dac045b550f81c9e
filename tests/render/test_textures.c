/* test_textures.c - textured surfaces render the texture they name, right way up, filtered at a
 * distance (render suite on the CPU; the gpu suite runs it with `cuda`). Host C11.
 *
 *   test_textures TEXTURE_DIR [cpu|cuda]
 *
 * 1. Orientation: a quad filling the view, its vertices in the order bottom-left, bottom-right,
 *    top-right, top-left, textured with quadrants.png (red top left, green top right, blue bottom
 *    left, white bottom right), inside a constant environment of radiance 1 at depth 1. A diffuse
 *    plane there reflects exactly its albedo, so each quadrant of the image (away from the
 *    seams) has the mean of its colour, within 3% (noise of the environment's sampling).
 * 2. Filtering: fine_checker.png (single-texel black and white) on a quad seen at 8 texels per
 *    pixel, lit by a point light, 1 spp: the level of detail picks the mip level where the
 *    checker has averaged to grey, so every pixel is within 10% of the image mean and the mean
 *    is half the white value; a lookup without mip-mapping would make pixels black or white.
 * 3. Emission textures: a quad emitting 2 x half_mask.png (white left half, black right) seen
 *    head-on shows radiance 2 on the left and 0 on the right; a floor lit only by an emitter
 *    textured with fine_checker.png (half its texels black) receives, by next-event estimation at
 *    depth 1, what an untextured emitter of half the radiance gives it, within 2%.
 * 4. Textured parameters: a uniform image (grey188.png) as a conductor's colour, a mirror's and
 *    a glass's tint, and as roughness renders as the same value given as a constant (the sRGB
 *    decoding of 188 for colours, 188/255 for roughness), within 1e-4 of the image mean.
 */
#include <string.h>

#include "render_util.h"
#include "tests/test.h"

enum { SIZE = 32 };

static int32_t textured_material(RsScene* s, const char* dir, const char* file, RsError* err)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    int32_t texture = rs_texture_load(&s->textures, path, RS_TEXTURE_SRGB, "test_textures", err);
    CHECK(texture >= 0, "%s", err->message);
    RsMaterialDesc d = rs_material_desc(RS_MAT_DIFFUSE);
    d.colour = rs_vec3_splat(1.0f);
    d.colour_texture = texture >= 0 ? (uint32_t)texture : RS_NO_TEXTURE;
    return rs_scene_add_material(s, file, rs_material_from_desc(&d), err);
}

/* A unit-square quad in the z = 0 plane from (-h, -h) to (h, h), facing +z, (u, v) = corners. */
static void add_quad(RsScene* s, float h, uint32_t material, RsError* err)
{
    RsVec3 v[4] = {rs_vec3(-h, -h, 0), rs_vec3(h, -h, 0), rs_vec3(h, h, 0), rs_vec3(-h, h, 0)};
    const float first[6] = {0, 0, 1, 0, 1, 1}, second[6] = {0, 0, 1, 1, 0, 1};
    rs_scene_add_triangle_shaded(s, v[0], v[1], v[2], NULL, first, material, err);
    rs_scene_add_triangle_shaded(s, v[0], v[2], v[3], NULL, second, material, err);
}

/* An empty scene whose camera, 10 units up the z axis, sees exactly the quad of add_quad(1). */
static void head_on_scene(RsScene* s)
{
    rs_scene_init(s);
    s->camera.eye = rs_vec3(0, 0, 10);
    s->camera.look_at = rs_vec3(0, 0, 0);
    s->camera.fov_degrees = 2.0f * atanf(0.1f) * 180.0f / RS_PI;
}

static RsFloat4* render(RsScene* s, const RsBackendConfig* cfg, uint32_t spp)
{
    RsError err = {{0}};
    CHECK(rs_scene_build(s, &err) == 0, "%s", err.message);
    TestRender tr = {SIZE, SIZE, spp, 1, RS_INTEGRATOR_PATH, 1, 0, 0};
    RsFloat4* film = test_render(s, cfg, &tr, NULL, &err);
    CHECK(film != NULL, "%s", err.message);
    return film;
}

static void test_orientation(const char* dir, const RsBackendConfig* cfg, uint32_t spp)
{
    RsError err = {{0}};
    RsScene s;
    head_on_scene(&s);
    s.env.zenith = rs_float4(1.0f, 1.0f, 1.0f, rs_uint_as_float(RS_ENV_CONSTANT));
    add_quad(&s, 1.0f, (uint32_t)textured_material(&s, dir, "quadrants.png", &err), &err);
    RsFloat4* film = render(&s, cfg, spp);
    const float expected[4][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}}; /* TL, TR, BL, BR */
    for (int q = 0; film && q < 4; ++q) {
        double sum[3] = {0, 0, 0};
        int n = 0;
        for (int y = 0; y < SIZE / 2; ++y)
            for (int x = 0; x < SIZE / 2; ++x) {
                int px = (q % 2) * SIZE / 2 + x, py = (q / 2) * SIZE / 2 + y; /* image rows from the top */
                if (x < 2 || y < 2 || x >= SIZE / 2 - 2 || y >= SIZE / 2 - 2)
                    continue; /* the seams blend neighbouring quadrants */
                const RsFloat4* p = &film[py * SIZE + px]; /* sums over w samples */
                sum[0] += p->x / p->w, sum[1] += p->y / p->w, sum[2] += p->z / p->w;
                ++n;
            }
        for (int c = 0; c < 3; ++c)
            CHECK(fabs(sum[c] / n - expected[q][c]) <= 0.03, "quadrant %d channel %d: %.4f, expected %g", q, c,
                  sum[c] / n, expected[q][c]);
    }
    free(film);
    rs_scene_free(&s);
}

static void test_filtering(const char* dir, const RsBackendConfig* cfg)
{
    RsError err = {{0}};
    RsScene s;
    head_on_scene(&s);
    add_quad(&s, 1.0f, (uint32_t)textured_material(&s, dir, "fine_checker.png", &err), &err);
    rs_scene_add_point_light(&s, rs_vec3(0, 0, 100), rs_vec3_splat(1e4f), &err);
    RsFloat4* film = render(&s, cfg, 1);
    if (film) {
        double mean = 0.0;
        for (int i = 0; i < SIZE * SIZE; ++i)
            mean += film[i].x / film[i].w / (SIZE * SIZE);
        double worst = 0.0;
        for (int i = 0; i < SIZE * SIZE; ++i)
            worst = fmax(worst, fabs(film[i].x / film[i].w - mean) / mean);
        /* white is 1e4 / 100^2 / pi at the centre, a little less towards the corners */
        double white = 1.0 / RS_PI;
        CHECK(fabs(mean - 0.5 * white) <= 0.03 * white, "mean %.5f, expected about %.5f", mean, 0.5 * white);
        CHECK(worst <= 0.10, "a pixel differs from the mean by %.1f%%: the checker aliases", 100.0 * worst);
    }
    free(film);
    rs_scene_free(&s);
}

static int32_t emitter(RsScene* s, const char* dir, const char* file, float scale, RsError* err)
{
    RsMaterialDesc d = rs_material_desc(RS_MAT_DIFFUSE);
    d.colour = rs_vec3_splat(0.0f);
    d.emission = rs_vec3_splat(scale);
    if (file) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, file);
        int32_t t = rs_texture_load(&s->textures, path, RS_TEXTURE_SRGB, "test_textures", err);
        CHECK(t >= 0, "%s", err->message);
        d.emission_texture = t >= 0 ? (uint32_t)t : RS_NO_TEXTURE;
    }
    return rs_scene_add_material(s, file ? file : "plain", rs_material_from_desc(&d), err);
}

static void test_emission(const char* dir, const RsBackendConfig* cfg, uint32_t spp)
{
    RsError err = {{0}};
    RsScene s;
    head_on_scene(&s);
    add_quad(&s, 1.0f, (uint32_t)emitter(&s, dir, "half_mask.png", 2.0f, &err), &err);
    RsFloat4* film = render(&s, cfg, 4);
    double left = -1.0, right = -1.0;
    if (film)
        film_half_means(film, SIZE, &left, &right);
    CHECK(film && fabs(left - 2.0) < 1e-3 && fabs(right) < 1e-3, "emitter halves: %.4f and %.4f, expected 2 and 0",
          left, right);
    free(film);
    rs_scene_free(&s);

    double floor_mean[2];
    for (int textured = 0; textured < 2; ++textured) {
        rs_scene_init(&s);
        s.camera.eye = rs_vec3(0, 1.5f, 0.01f); /* under the lamp, looking down */
        s.camera.look_at = rs_vec3(0, 0, 0);
        s.camera.fov_degrees = 40.0f;
        int32_t floor_m = rs_scene_add_material(&s, "floor", rs_material_make(RS_MAT_DIFFUSE, rs_vec3_splat(0.5f),
                                                                              rs_vec3_splat(0.0f), 1.0f, 0), &err);
        RsVec3 f[4] = {rs_vec3(-3, 0, 3), rs_vec3(3, 0, 3), rs_vec3(3, 0, -3), rs_vec3(-3, 0, -3)};
        rs_scene_add_triangle(&s, f[0], f[1], f[2], (uint32_t)floor_m, &err);
        rs_scene_add_triangle(&s, f[0], f[2], f[3], (uint32_t)floor_m, &err);
        /* the lamp faces down: its vertices run counter-clockwise seen from below */
        RsVec3 l[4] = {rs_vec3(-1, 2, -1), rs_vec3(1, 2, -1), rs_vec3(1, 2, 1), rs_vec3(-1, 2, 1)};
        uint32_t lamp = (uint32_t)(textured ? emitter(&s, dir, "fine_checker.png", 4.0f, &err)
                                            : emitter(&s, dir, NULL, 2.0f, &err));
        const float first[6] = {0, 0, 1, 0, 1, 1}, second[6] = {0, 0, 1, 1, 0, 1};
        rs_scene_add_triangle_shaded(&s, l[0], l[1], l[2], NULL, first, lamp, &err);
        rs_scene_add_triangle_shaded(&s, l[0], l[2], l[3], NULL, second, lamp, &err);
        RsFloat4* img = render(&s, cfg, spp);
        double mean[3] = {0, 0, 0};
        if (img)
            film_mean(img, SIZE * SIZE, mean);
        floor_mean[textured] = mean[0];
        free(img);
        rs_scene_free(&s);
    }
    CHECK(floor_mean[0] > 0.05, "the floor is not lit (%.5f)", floor_mean[0]);
    CHECK(fabs(floor_mean[1] - floor_mean[0]) <= 0.02 * floor_mean[0],
          "a floor under a half-black lamp of radiance 4 gets %.5f, under a plain lamp of radiance 2 %.5f",
          floor_mean[1], floor_mean[0]);
}

/* A sphere of `material` under the sky and a point light, 32x32, depth 3. */
static double sphere_mean(RsScene* s, RsMaterialDesc d, const RsBackendConfig* cfg)
{
    RsError err = {{0}};
    s->camera.eye = rs_vec3(0, 0.5f, 3);
    s->camera.look_at = rs_vec3(0, 0, 0);
    s->camera.fov_degrees = 45.0f;
    s->env.zenith = rs_float4(0.3f, 0.5f, 1.0f, rs_uint_as_float(RS_ENV_SKY));
    s->env.horizon = rs_float4(1.0f, 1.0f, 1.0f, 0.0f);
    s->env.ground = rs_float4(0.3f, 0.25f, 0.2f, 0.0f);
    int32_t m = rs_scene_add_material(s, "m", rs_material_from_desc(&d), &err);
    rs_scene_add_sphere(s, rs_vec3(0, 0, 0), 1.0f, (uint32_t)m, &err);
    rs_scene_add_point_light(s, rs_vec3(2, 3, 2), rs_vec3_splat(20.0f), &err);
    CHECK(rs_scene_build(s, &err) == 0, "%s", err.message);
    TestRender tr = {SIZE, SIZE, 16, 3, RS_INTEGRATOR_PATH, 5, 0, 0};
    RsFloat4* film = test_render(s, cfg, &tr, NULL, &err);
    CHECK(film != NULL, "%s", err.message);
    double mean[3] = {0, 0, 0};
    if (film)
        film_mean(film, SIZE * SIZE, mean);
    free(film);
    return mean[0] + mean[1] + mean[2];
}

static void test_textured_parameters(const char* dir, const RsBackendConfig* cfg)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/grey188.png", dir);
    const uint32_t types[] = {RS_MAT_CONDUCTOR, RS_MAT_MIRROR, RS_MAT_DIELECTRIC, RS_MAT_CONDUCTOR};
    const char* what[] = {"conductor colour", "mirror colour", "glass tint", "conductor roughness"};
    for (int i = 0; i < 4; ++i) {
        RsError err = {{0}};
        RsScene constant, textured;
        rs_scene_init(&constant);
        rs_scene_init(&textured);
        int roughness = i == 3;
        uint32_t flags = roughness ? 0u : RS_TEXTURE_SRGB;
        int32_t t = rs_texture_load(&textured.textures, path, flags, "test_textures", &err);
        CHECK(t >= 0, "%s", err.message);
        RsMaterialDesc c = rs_material_desc(types[i]);
        c.roughness_u = c.roughness_v = types[i] == RS_MAT_MIRROR ? 0.0f : 0.3f;
        RsMaterialDesc d = c;
        if (roughness) {
            c.roughness_u = c.roughness_v = 188.0f / 255.0f;
            d.roughness_texture = (uint32_t)t;
        } else {
            c.colour = rs_vec3_splat(textured.textures.srgb_to_linear[188]);
            d.colour_texture = (uint32_t)t;
        }
        double a = sphere_mean(&constant, c, cfg), b = sphere_mean(&textured, d, cfg);
        CHECK(a > 0.01 && fabs(a - b) <= 1e-4 * a, "%s: constant %.6f, textured %.6f", what[i], a, b);
        rs_scene_free(&constant);
        rs_scene_free(&textured);
    }
}

int main(int argc, char** argv)
{
    CHECK(argc > 1, "usage: test_textures TEXTURE_DIR [cpu|cuda]");
    if (argc < 2)
        return rs_test_finish("test_textures");
    RsBackendConfig cfg;
    int cuda;
    if (!test_backend(argc, argv, 2, "test_textures", &cfg, &cuda))
        return RS_TEST_SKIP;
    test_orientation(argv[1], &cfg, cuda ? 1024 : 256);
    test_filtering(argv[1], &cfg);
    test_emission(argv[1], &cfg, cuda ? 1024 : 256);
    test_textured_parameters(argv[1], &cfg);
    return rs_test_finish("test_textures");
}
