/* test_smooth_shading.c - vertex normals make a sphere mesh shade like the sphere it
 * approximates (render suite on the CPU; the gpu suite runs it with `cuda`). Host C11.
 *
 *   test_smooth_shading [cpu|cuda]
 *
 * A 12 x 24 latitude-longitude sphere mesh (528 triangles) whose vertex normals are the true
 * sphere's, the same mesh without normals (flat facets), and the analytic unit sphere, each
 * diffuse and lit by a square area light, rendered with the same seeds. Over the inner 80% of
 * the sphere's disk (away from the polygonal outline) the smooth mesh must be within 2% of the
 * analytic sphere on average and at least three times closer to it than the flat mesh, whose
 * facets make steps of several percent.
 */
#include <string.h>

#include "render_util.h"
#include "tests/test.h"

enum { SIZE = 64, BANDS = 12, SECTORS = 24 };

static RsVec3 sphere_point(int band, int sector)
{
    float theta = RS_PI * (float)band / BANDS, phi = 2.0f * RS_PI * (float)sector / SECTORS;
    return rs_vec3(sinf(theta) * cosf(phi), cosf(theta), sinf(theta) * sinf(phi));
}

/* kind 0: analytic sphere, 1: mesh with vertex normals, 2: flat mesh */
static void build(RsScene* s, int kind, RsError* err)
{
    rs_scene_init(s);
    s->camera.eye = rs_vec3(0.0f, 0.0f, 4.0f);
    s->camera.look_at = rs_vec3(0.0f, 0.0f, 0.0f);
    s->camera.fov_degrees = 32.0f;
    int32_t white = rs_scene_add_material(s, "white", rs_material_make(RS_MAT_DIFFUSE, rs_vec3_splat(0.7f),
                                                                       rs_vec3_splat(0.0f), 1.0f, 0), err);
    int32_t lamp = rs_scene_add_material(s, "lamp", rs_material_make(RS_MAT_DIFFUSE, rs_vec3_splat(0.0f),
                                                                     rs_vec3_splat(6.0f), 1.0f, 0), err);
    /* a lamp up and to the left, facing the sphere */
    RsVec3 c = rs_vec3(-2.5f, 2.5f, 2.0f), u = rs_vec3(0.7f, 0.7f, 0.0f), v = rs_vec3(0.0f, 0.0f, 1.0f);
    RsVec3 q[4] = {rs_sub(rs_sub(c, u), v), rs_add(rs_sub(c, u), v), rs_add(rs_add(c, u), v), rs_sub(rs_add(c, u), v)};
    rs_scene_add_triangle(s, q[0], q[2], q[1], (uint32_t)lamp, err);
    rs_scene_add_triangle(s, q[0], q[3], q[2], (uint32_t)lamp, err);
    if (kind == 0) {
        rs_scene_add_sphere(s, rs_vec3(0, 0, 0), 1.0f, (uint32_t)white, err);
    } else {
        for (int b = 0; b < BANDS; ++b)
            for (int k = 0; k < SECTORS; ++k) {
                RsVec3 p00 = sphere_point(b, k), p01 = sphere_point(b, k + 1);
                RsVec3 p10 = sphere_point(b + 1, k), p11 = sphere_point(b + 1, k + 1);
                RsVec3 n1[3] = {p00, p11, p10}, n2[3] = {p00, p01, p11};
                rs_scene_add_triangle_shaded(s, p00, p11, p10, kind == 1 ? n1 : NULL, NULL, (uint32_t)white, err);
                rs_scene_add_triangle_shaded(s, p00, p01, p11, kind == 1 ? n2 : NULL, NULL, (uint32_t)white, err);
            }
    }
    CHECK(rs_scene_build(s, err) == 0, "%s", err->message);
}

static RsFloat4* render(int kind, const RsBackendConfig* cfg, uint32_t spp)
{
    RsError err = {{0}};
    RsScene s;
    build(&s, kind, &err);
    TestRender tr = {SIZE, SIZE, spp, 3, RS_INTEGRATOR_PATH, 1, 0, 0};
    RsFloat4* film = test_render(&s, cfg, &tr, NULL, &err);
    CHECK(film != NULL, "%s", err.message);
    rs_scene_free(&s);
    return film;
}

/* Mean relative difference of a from the reference over the inner part of the disk. */
static double inner_difference(const RsFloat4* a, const RsFloat4* ref)
{
    /* the unit sphere at distance 4 with a 32-degree field: its disk's radius in pixels */
    float radius = (float)SIZE * 0.5f * tanf(asinf(0.25f)) / tanf(16.0f * RS_PI / 180.0f);
    double sum = 0.0, weight = 0.0;
    for (int y = 0; y < SIZE; ++y)
        for (int x = 0; x < SIZE; ++x) {
            float dx = (float)x + 0.5f - 0.5f * SIZE, dy = (float)y + 0.5f - 0.5f * SIZE;
            if (dx * dx + dy * dy > 0.64f * radius * radius)
                continue;
            const RsFloat4* p = &a[y * SIZE + x];
            const RsFloat4* r = &ref[y * SIZE + x];
            sum += fabs(p->x - r->x) + fabs(p->y - r->y) + fabs(p->z - r->z);
            weight += r->x + r->y + r->z;
        }
    return weight > 0.0 ? sum / weight : 1.0;
}

int main(int argc, char** argv)
{
    RsBackendConfig cfg;
    int cuda;
    if (!test_backend(argc, argv, 1, "test_smooth_shading", &cfg, &cuda))
        return RS_TEST_SKIP;
    uint32_t spp = cuda ? 1024 : 128;
    RsFloat4* sphere = render(0, &cfg, spp);
    RsFloat4* smooth = render(1, &cfg, spp);
    RsFloat4* flat = render(2, &cfg, spp);
    if (sphere && smooth && flat) {
        double d_smooth = inner_difference(smooth, sphere), d_flat = inner_difference(flat, sphere);
        printf("test_smooth_shading: mean relative difference from the analytic sphere: smooth mesh %.4f, flat "
               "mesh %.4f\n",
               d_smooth, d_flat);
        CHECK(d_smooth < 0.02, "the smooth mesh differs from the sphere by %.4f", d_smooth);
        CHECK(d_smooth * 3.0 < d_flat, "smooth %.4f is not three times closer than flat %.4f", d_smooth, d_flat);
    }
    free(sphere);
    free(smooth);
    free(flat);
    return rs_test_finish("test_smooth_shading");
}
