/* test_aov.c - the AOVs (src/kernel/film/aov.h) against analytic values, and as deterministic as the
 * beauty (render suite on the CPU; the gpu suite runs it with `cuda`). Host C11.
 *
 *   test_aov [SCENE [cpu|cuda]]
 *
 * 1. A plane seen straight on: albedo is the material's colour, the normal faces the camera,
 *    depth is the plane's distance (camera-space z is constant over a plane perpendicular to
 *    the view axis), position lies on the plane; variance is finite and not negative.
 * 2. An axis-aligned box seen from a corner: every pixel covered by one face has that face's
 *    axis as its normal and a position on that face; all three faces show; pixels that miss
 *    everything have depth +inf, zero normal and zero albedo.
 * 3. A mirror floor under a diffuse ceiling: the albedo through the mirror is the mirror's
 *    reflectance times the ceiling's (Cycles' denoising-feature convention), the normal the
 *    ceiling's; depth and position stay at the mirror (the first hit).
 * 4. (with SCENE) every plane of the film is bit-identical across dead-ray strategies, thread
 *    counts and a split over two devices (CPU instances): AOVs are summed in sample order
 *    like the beauty.
 */
#include <math.h>
#include <string.h>

#include "host/import/json/scene_json.h"
#include "kernel/film/aov.h"
#include "render_util.h"
#include "tests/test.h"

enum { SIZE = 24, SPP = 4 };

static RsBackendConfig config;

static RsFloat4* render_aovs(RsScene* s, uint32_t depth)
{
    RsError err = {{0}};
    CHECK(rs_scene_build(s, &err) == 0, "%s", err.message);
    TestRender tr = {SIZE, SIZE, SPP, depth, RS_INTEGRATOR_PATH, 1, 0, 0};
    RsFloat4* film = test_render(s, &config, &tr, NULL, &err);
    CHECK(film != NULL, "%s", err.message);
    return film;
}

static RsVec3 layer(const RsFloat4* film, uint32_t pixel, uint32_t which)
{
    return rs_xyz(rs_film_layer(film, SIZE * SIZE, pixel, which));
}

static float hits(const RsFloat4* film, uint32_t pixel) { return film[RS_PLANE_NORMAL * SIZE * SIZE + pixel].w; }

static void quad(RsScene* s, RsVec3 a, RsVec3 b, RsVec3 c, RsVec3 d, uint32_t m, RsError* err)
{
    rs_scene_add_triangle(s, a, b, c, m, err);
    rs_scene_add_triangle(s, a, c, d, m, err);
}

static void test_plane(void)
{
    RsScene s;
    RsError err = {{0}};
    rs_scene_init(&s);
    s.camera.eye = rs_vec3(0.0f, 3.0f, 0.0f);
    s.camera.look_at = rs_vec3(0.0f, 0.0f, 0.0f);
    s.camera.up = rs_vec3(0.0f, 0.0f, -1.0f);
    s.camera.fov_degrees = 40.0f;
    RsVec3 colour = rs_vec3(0.2f, 0.5f, 0.8f);
    int32_t m = rs_scene_add_material(&s, "floor", rs_material_make(RS_MAT_DIFFUSE, colour, rs_vec3_splat(0.0f), 1.0f, 0),
                                      &err);
    quad(&s, rs_vec3(-50, 0, -50), rs_vec3(-50, 0, 50), rs_vec3(50, 0, 50), rs_vec3(50, 0, -50), (uint32_t)m, &err);
    RsFloat4* film = render_aovs(&s, 2);
    for (uint32_t i = 0; film && i < SIZE * SIZE; ++i) {
        RsVec3 a = layer(film, i, RS_LAYER_ALBEDO), n = layer(film, i, RS_LAYER_NORMAL);
        RsVec3 p = layer(film, i, RS_LAYER_POSITION), v = layer(film, i, RS_LAYER_VARIANCE);
        float z = layer(film, i, RS_LAYER_DEPTH).x;
        CHECK_NEAR(a.x, colour.x, 1e-6);
        CHECK_NEAR(a.y, colour.y, 1e-6);
        CHECK_NEAR(a.z, colour.z, 1e-6);
        CHECK(fabsf(n.x) < 1e-6f && fabsf(n.y - 1.0f) < 1e-6f && fabsf(n.z) < 1e-6f, "normal (%g %g %g)", n.x, n.y, n.z);
        CHECK_NEAR(z, 3.0, 1e-5);
        CHECK_NEAR(p.y, 0.0, 1e-5);
        CHECK(fabsf(p.x) < 1.2f && fabsf(p.z) < 1.2f, "position (%g %g %g) outside the view", p.x, p.y, p.z);
        CHECK(v.x >= 0.0f && v.y >= 0.0f && v.z >= 0.0f && rs_is_finite3(v), "variance (%g %g %g)", v.x, v.y, v.z);
    }
    free(film);
    rs_scene_free(&s);
}

static void test_box(void)
{
    RsScene s;
    RsError err = {{0}};
    rs_scene_init(&s);
    s.camera.eye = rs_vec3(3.0f, 2.5f, 2.0f);
    s.camera.look_at = rs_vec3(0.0f, 0.0f, 0.0f);
    s.camera.up = rs_vec3(0.0f, 1.0f, 0.0f);
    s.camera.fov_degrees = 35.0f;
    int32_t m = rs_scene_add_material(&s, "box", rs_material_make(RS_MAT_DIFFUSE, rs_vec3_splat(0.7f),
                                                                  rs_vec3_splat(0.0f), 1.0f, 0), &err);
    float h = 0.5f;
    RsVec3 c[8];
    for (int i = 0; i < 8; ++i)
        c[i] = rs_vec3(i & 1 ? h : -h, i & 2 ? h : -h, i & 4 ? h : -h);
    quad(&s, c[1], c[3], c[7], c[5], (uint32_t)m, &err); /* +x */
    quad(&s, c[0], c[4], c[6], c[2], (uint32_t)m, &err); /* -x */
    quad(&s, c[2], c[6], c[7], c[3], (uint32_t)m, &err); /* +y */
    quad(&s, c[0], c[1], c[5], c[4], (uint32_t)m, &err); /* -y */
    quad(&s, c[4], c[5], c[7], c[6], (uint32_t)m, &err); /* +z */
    quad(&s, c[0], c[2], c[3], c[1], (uint32_t)m, &err); /* -z */
    RsFloat4* film = render_aovs(&s, 1);
    int faces[3] = {0, 0, 0}, empty = 0;
    for (uint32_t i = 0; film && i < SIZE * SIZE; ++i) {
        RsVec3 n = layer(film, i, RS_LAYER_NORMAL), p = layer(film, i, RS_LAYER_POSITION);
        if (hits(film, i) == 0.0f) {
            empty++;
            CHECK(isinf(layer(film, i, RS_LAYER_DEPTH).x), "pixel %u: no hit but depth %g", i,
                  layer(film, i, RS_LAYER_DEPTH).x);
            CHECK(rs_is_black(n) && rs_is_black(layer(film, i, RS_LAYER_ALBEDO)), "pixel %u: no hit, yet guides", i);
            continue;
        }
        if (hits(film, i) != (float)SPP)
            continue; /* an edge pixel: its samples see two faces or the background */
        int axis = fabsf(n.x) > 0.5f ? 0 : (fabsf(n.y) > 0.5f ? 1 : 2);
        float along = rs_vec3_get(n, axis), at = rs_vec3_get(p, axis);
        if (rs_length(n) < 0.999f) /* samples on two faces of the same pixel */
            continue;
        CHECK(along > 0.9999f, "pixel %u: normal (%g %g %g) is not a visible face's", i, n.x, n.y, n.z);
        CHECK_NEAR(at, h, 1e-4);
        faces[axis]++;
    }
    CHECK(faces[0] > 10 && faces[1] > 10 && faces[2] > 10, "faces seen: %d %d %d", faces[0], faces[1], faces[2]);
    CHECK(empty > 10, "%d background pixels", empty);
    free(film);
    rs_scene_free(&s);
}

static void test_mirror(void)
{
    RsScene s;
    RsError err = {{0}};
    rs_scene_init(&s);
    s.camera.eye = rs_vec3(0.0f, 1.0f, 0.0f);
    s.camera.look_at = rs_vec3(0.0f, 1.0f, -1.0f); /* level: the upper half sees the ceiling */
    s.camera.up = rs_vec3(0.0f, 1.0f, 0.0f);
    s.camera.fov_degrees = 30.0f;
    float reflectance = 0.9f, ceiling = 0.5f;
    int32_t mirror = rs_scene_add_material(&s, "mirror", rs_material_make(RS_MAT_MIRROR, rs_vec3_splat(reflectance),
                                                                          rs_vec3_splat(0.0f), 1.0f, 0), &err);
    int32_t top = rs_scene_add_material(&s, "ceiling", rs_material_make(RS_MAT_DIFFUSE, rs_vec3_splat(ceiling),
                                                                        rs_vec3_splat(0.0f), 1.0f, 0), &err);
    float w = 1000.0f;
    quad(&s, rs_vec3(-w, 0, -w), rs_vec3(-w, 0, w), rs_vec3(w, 0, w), rs_vec3(w, 0, -w), (uint32_t)mirror, &err);
    quad(&s, rs_vec3(-w, 2, -w), rs_vec3(w, 2, -w), rs_vec3(w, 2, w), rs_vec3(-w, 2, w), (uint32_t)top, &err);
    RsFloat4* film = render_aovs(&s, 3);
    int through = 0, direct = 0;
    for (uint32_t i = 0; film && i < SIZE * SIZE; ++i) {
        RsVec3 a = layer(film, i, RS_LAYER_ALBEDO), n = layer(film, i, RS_LAYER_NORMAL);
        RsVec3 p = layer(film, i, RS_LAYER_POSITION);
        if (rs_length(n) < 0.999f)
            continue; /* near the horizon some samples escape between the planes */
        CHECK(fabsf(n.y + 1.0f) < 1e-5f, "pixel %u: normal (%g %g %g), not the ceiling's", i, n.x, n.y, n.z);
        if (fabsf(p.y) < 1e-4f && fabsf(a.x - reflectance * ceiling) < 1e-5f)
            through++; /* first hit on the mirror, albedo from the ceiling through it */
        else if (fabsf(p.y - 2.0f) < 1e-4f && fabsf(a.x - ceiling) < 1e-5f)
            direct++;
    }
    CHECK(through > SIZE * 4 && direct > SIZE * 4, "through the mirror %d pixels, ceiling seen directly %d", through,
          direct);
    CHECK(through + direct >= SIZE * SIZE - 2 * SIZE, "%d pixels are neither (more than the horizon rows)",
          SIZE * SIZE - through - direct);
    free(film);
    rs_scene_free(&s);
}

static void test_determinism(const char* scene_path)
{
    RsScene scene;
    RsError err = {{0}};
    RsAccelOptions accel = rs_accel_options_default();
    CHECK(rs_scene_load_json(scene_path, &accel, &scene, &err) == 0, "%s", err.message);
    if (err.message[0])
        return;
    TestRender tr = {40, 30, 3, 5, RS_INTEGRATOR_PATH, 7, 0, 0};
    size_t entries = (size_t)40 * 30 * RS_FILM_PLANES_AOV;
    RsBackendConfig base = config;
    RsFloat4* first = test_render(&scene, &base, &tr, NULL, &err);
    CHECK(first != NULL, "%s", err.message);
    const RsDeadRay strategies[] = {RS_DEADRAY_FLAGS, RS_DEADRAY_PERSISTENT, RS_DEADRAY_COMPACT_SCAN,
                                    RS_DEADRAY_COMPACT_WARP, RS_DEADRAY_AUTO};
    for (size_t k = 0; first && k < sizeof strategies / sizeof strategies[0] + 2; ++k) {
        RsBackendConfig c = base;
        int devices = 1;
        TestRender t = tr;
        if (k < sizeof strategies / sizeof strategies[0])
            c.deadray = strategies[k];
        else if (k == sizeof strategies / sizeof strategies[0])
            t.wave_limit = 500; /* small waves cut the image mid-pass */
        else if (base.kind == RS_BACKEND_CPU)
            devices = 2; /* two CPU instances: spans move every plane between them */
        else
            continue;
        RsFloat4* other = test_render_on(&scene, &c, devices, &t, NULL, &err);
        CHECK(other != NULL, "%s", err.message);
        CHECK(other && memcmp(first, other, entries * sizeof *first) == 0,
              "case %zu: the film's planes differ from the stencil strategy's", k);
        free(other);
    }
    free(first);
    rs_scene_free(&scene);
}

int main(int argc, char** argv)
{
    int cuda = 0;
    if (!test_backend(argc, argv, 2, "test_aov", &config, &cuda))
        return RS_TEST_SKIP;
    config.aovs = 1;
    test_plane();
    test_box();
    test_mirror();
    if (argc > 1)
        test_determinism(argv[1]);
    return rs_test_finish("test_aov");
}
