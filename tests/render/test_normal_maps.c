/* test_normal_maps.c - normal maps and bump maps bend the shading normal the way their
 * conventions say (render suite on the CPU; the gpu suite runs it with `cuda`). Host C11.
 *
 *   test_normal_maps [cpu|cuda]
 *
 * A flat quad facing +z fills the view, its texture coordinates u along +x and v along +y (or
 * mirrored), lit at depth 1 by a point light off to the side. Each mapped quad must render as
 * the same quad with its vertex normals set to the normal the map encodes, pixel by pixel
 * within 1e-3 (both take the same samples; only the normal's arithmetic differs):
 *   1. a uniform normal map tilted 30 degrees towards +u (red channel): vertex normals tilted
 *      towards +x;
 *   2. the same map tilted towards +v (green channel, OpenGL/glTF's "up"): towards +y;
 *   3. the +u map with u running along -x (mirrored coordinates): the tangent follows u, so
 *      towards -x; the +v map there still towards +y (the bitangent follows v, not n x T);
 *   4. a flat normal map (128, 128, 255): the unmapped quad;
 *   5. a bump map rising one level per texel along u (a 256-texel ramp), scale 255 tan 20
 *      degrees: tilted 20 degrees towards -x (downhill), seen far enough away that the lookup
 *      reads a coarser mip level, whose slope must count per full-resolution texel; only the
 *      middle of the quad, away from the clamped ends of the ramp, is compared.
 * A swapped channel, a flipped bitangent or a slope per mip-level texel each fails.
 */
#include <math.h>

#include "render_util.h"
#include "tests/test.h"

enum { SIZE = 32 };

typedef struct MapCase {
    const char* name;
    int mirrored;  /* u runs along -x */
    RsVec3 normal; /* the world normal the map should produce (unnormalised) */
} MapCase;

static uint8_t encode(float c) { return (uint8_t)lrintf(255.0f * (0.5f + 0.5f * c)); }
static float decode(uint8_t b) { return 2.0f * (float)b / 255.0f - 1.0f; }

/* A 4x4 texture of one tangent-space normal; *decoded gets what the renderer will read. */
static int32_t normal_texture(RsScene* s, RsVec3 n, RsVec3* decoded, RsError* err)
{
    uint8_t rgba[16 * 4];
    for (int i = 0; i < 16; ++i) {
        rgba[4 * i] = encode(n.x);
        rgba[4 * i + 1] = encode(n.y);
        rgba[4 * i + 2] = encode(n.z);
        rgba[4 * i + 3] = 255;
    }
    *decoded = rs_vec3(decode(rgba[0]), decode(rgba[1]), decode(rgba[2]));
    char name[64];
    snprintf(name, sizeof name, "normal %g %g %g", n.x, n.y, n.z);
    return rs_texture_add_rgba8(&s->textures, name, rgba, 4, 4, 0, err);
}

/* A 256x4 ramp: texel x has height x / 255; clamped at the ends. */
static int32_t ramp_texture(RsScene* s, RsError* err)
{
    static uint8_t rgba[256 * 4 * 4];
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 256; ++x)
            for (int k = 0; k < 4; ++k)
                rgba[4 * (y * 256 + x) + k] = k < 3 ? (uint8_t)x : 255;
    return rs_texture_add_rgba8(&s->textures, "ramp", rgba, 256, 4, RS_TEXTURE_CLAMP, err);
}

/* The head-on scene: the camera at `distance` up the z axis sees exactly the 2x2 quad that
 * add_quad puts at z = 0; a point light up and to the right. */
static void quad_scene(RsScene* s, float distance, RsError* err)
{
    rs_scene_init(s);
    s->camera.eye = rs_vec3(0, 0, distance);
    s->camera.look_at = rs_vec3(0, 0, 0);
    s->camera.fov_degrees = 2.0f * atanf(1.0f / distance) * 180.0f / RS_PI;
    rs_scene_add_point_light(s, rs_vec3(6.0f, 3.0f, 5.0f), rs_vec3_splat(40.0f), err);
}

/* The quad, u along +x (or -x if mirrored) and v along +y; normal: its vertex normals, or NULL. */
static void add_quad(RsScene* s, int mirrored, int32_t material, const RsVec3* normal, RsError* err)
{
    RsVec3 v[4] = {rs_vec3(-1, -1, 0), rs_vec3(1, -1, 0), rs_vec3(1, 1, 0), rs_vec3(-1, 1, 0)};
    float u0 = mirrored ? 1.0f : 0.0f, u1 = mirrored ? 0.0f : 1.0f;
    const float first[6] = {u0, 0, u1, 0, u1, 1}, second[6] = {u0, 0, u1, 1, u0, 1};
    RsVec3 n[3];
    if (normal)
        n[0] = n[1] = n[2] = rs_normalize(*normal);
    CHECK(material >= 0, "%s", err->message);
    rs_scene_add_triangle_shaded(s, v[0], v[1], v[2], normal ? n : NULL, first, (uint32_t)material, err);
    rs_scene_add_triangle_shaded(s, v[0], v[2], v[3], normal ? n : NULL, second, (uint32_t)material, err);
}

static int32_t diffuse(RsScene* s, uint32_t normal_map, uint32_t bump_map, float bump_scale, RsError* err)
{
    RsMaterialDesc d = rs_material_desc(RS_MAT_DIFFUSE);
    d.colour = rs_vec3_splat(0.8f);
    d.normal_map = normal_map;
    d.bump_map = bump_map;
    d.bump_scale = bump_scale;
    return rs_scene_add_material(s, "quad", rs_material_from_desc(&d), err);
}

static RsFloat4* render(RsScene* s, const RsBackendConfig* cfg)
{
    RsError err = {{0}};
    CHECK(rs_scene_build(s, &err) == 0, "%s", err.message);
    TestRender tr = {SIZE, SIZE, 4, 1, RS_INTEGRATOR_PATH, 1, 0, 0};
    RsFloat4* film = test_render(s, cfg, &tr, NULL, &err);
    CHECK(film != NULL, "%s", err.message);
    return film;
}

/* Largest relative difference between the two films over columns [x0, x1). */
static double compare(const RsFloat4* a, const RsFloat4* b, int x0, int x1, double* mean)
{
    double worst = 0.0, sum = 0.0;
    int n = 0;
    for (int y = 0; y < SIZE; ++y)
        for (int x = x0; x < x1; ++x) {
            const RsFloat4 *p = &a[y * SIZE + x], *q = &b[y * SIZE + x];
            double va = p->x / p->w, vb = q->x / q->w;
            worst = fmax(worst, fabs(va - vb) / fmax(vb, 1e-3));
            sum += vb;
            ++n;
        }
    *mean = sum / n;
    return worst;
}

static void check_case(const char* name, RsScene* mapped, RsScene* reference, const RsBackendConfig* cfg, int x0,
                       int x1)
{
    RsFloat4* a = render(mapped, cfg);
    RsFloat4* b = render(reference, cfg);
    if (a && b) {
        double mean, worst = compare(a, b, x0, x1, &mean);
        CHECK(worst <= 1e-3, "%s: a pixel differs from the vertex-normal reference by %.3g (relative)", name, worst);
        CHECK(mean > 0.01, "%s: the reference is black (mean %.4f)", name, mean);
        printf("test_normal_maps: %-22s largest difference %.2g (mean radiance %.4f)\n", name, worst, mean);
    }
    free(a);
    free(b);
    rs_scene_free(mapped);
    rs_scene_free(reference);
}

static void test_normal_map(const RsBackendConfig* cfg, RsVec3 tangent_normal, int mirrored, RsVec3 expected_sign,
                            const char* name)
{
    RsError err = {{0}};
    RsScene mapped, reference;
    RsVec3 decoded;
    quad_scene(&mapped, 10.0f, &err);
    int32_t t = normal_texture(&mapped, tangent_normal, &decoded, &err);
    CHECK(t >= 0, "%s", err.message);
    add_quad(&mapped, mirrored, diffuse(&mapped, (uint32_t)t, RS_NO_TEXTURE, 1.0f, &err), NULL, &err);
    /* world normal: tangent along +x (or -x when mirrored), bitangent +y, normal +z */
    RsVec3 world = rs_vec3(expected_sign.x * decoded.x, expected_sign.y * decoded.y, decoded.z);
    quad_scene(&reference, 10.0f, &err);
    add_quad(&reference, mirrored, diffuse(&reference, RS_NO_TEXTURE, RS_NO_TEXTURE, 1.0f, &err), &world, &err);
    check_case(name, &mapped, &reference, cfg, 0, SIZE);
}

static void test_bump_map(const RsBackendConfig* cfg)
{
    RsError err = {{0}};
    RsScene mapped, reference;
    float tilt = 20.0f * RS_PI / 180.0f;
    /* 256 texels across 32 pixels: the lookup reads mip level 3 */
    quad_scene(&mapped, 10.0f, &err);
    int32_t t = ramp_texture(&mapped, &err);
    CHECK(t >= 0, "%s", err.message);
    add_quad(&mapped, 0, diffuse(&mapped, RS_NO_TEXTURE, (uint32_t)t, 255.0f * tanf(tilt), &err), NULL, &err);
    RsVec3 world = rs_vec3(-sinf(tilt), 0.0f, cosf(tilt));
    quad_scene(&reference, 10.0f, &err);
    add_quad(&reference, 0, diffuse(&reference, RS_NO_TEXTURE, RS_NO_TEXTURE, 1.0f, &err), &world, &err);
    check_case("bump ramp along u", &mapped, &reference, cfg, SIZE / 8, SIZE - SIZE / 8);
}

int main(int argc, char** argv)
{
    RsBackendConfig cfg;
    int cuda;
    if (!test_backend(argc, argv, 1, "test_normal_maps", &cfg, &cuda))
        return RS_TEST_SKIP;
    float s = sinf(30.0f * RS_PI / 180.0f), c = cosf(30.0f * RS_PI / 180.0f);
    test_normal_map(&cfg, rs_vec3(s, 0, c), 0, rs_vec3(1, 1, 1), "normal map towards +u");
    test_normal_map(&cfg, rs_vec3(0, s, c), 0, rs_vec3(1, 1, 1), "normal map towards +v");
    test_normal_map(&cfg, rs_vec3(s, 0, c), 1, rs_vec3(-1, 1, 1), "mirrored u");
    test_normal_map(&cfg, rs_vec3(0, s, c), 1, rs_vec3(-1, 1, 1), "mirrored u, towards +v");
    test_normal_map(&cfg, rs_vec3(0, 0, 1), 0, rs_vec3(1, 1, 1), "flat normal map");
    test_bump_map(&cfg);
    return rs_test_finish("test_normal_maps");
}
