/* test_light_tree_render.c - images with the light tree (RS_LIGHT_SELECT_TREE) against the power
 * CDF (render suite on the CPU; the gpu suite runs it with `cuda`). Host C11.
 *
 *   test_light_tree_render [cpu|cuda]
 *
 * 1. Unbiased: a room of mixed lights (quads of different colours and powers, spheres, a point
 *    and a spot light, a dim sky) at depth 3, where MIS weighs BSDF rays that hit lights with the
 *    tree's probabilities: the image means of the two methods, each over 8 seeds, agree within
 *    5 standard errors (estimated from the seeds).
 * 2. Better: 64 small lights spread over a floor, radiance over two decades, direct light only:
 *    at equal samples the tree's relative squared error against a long reference is less than
 *    half the power CDF's (a point's few near lights get its shadow rays).
 */
#include <string.h>

#include "kernel/sampling/rng.h"
#include "render_util.h"
#include "tests/test.h"

enum { SEEDS = 8 };

static uint32_t material(RsScene* s, const char* name, RsVec3 albedo, RsVec3 emission, RsError* err)
{
    return (uint32_t)rs_scene_add_material(s, name, rs_material_make(RS_MAT_DIFFUSE, albedo, emission, 1.0f, 0), err);
}

/* A quad in the plane y = c.y (facing down when `down`) of half-size `half`. */
static void quad(RsScene* s, RsVec3 c, float half, int down, uint32_t m, RsError* err)
{
    RsVec3 q[4] = {rs_vec3(c.x - half, c.y, c.z - half), rs_vec3(c.x + half, c.y, c.z - half),
                   rs_vec3(c.x + half, c.y, c.z + half), rs_vec3(c.x - half, c.y, c.z + half)};
    if (down) {
        rs_scene_add_triangle(s, q[0], q[1], q[2], m, err);
        rs_scene_add_triangle(s, q[0], q[2], q[3], m, err);
    } else {
        rs_scene_add_triangle(s, q[0], q[2], q[1], m, err);
        rs_scene_add_triangle(s, q[0], q[3], q[2], m, err);
    }
}

static void mixed_room(RsScene* s, RsError* err)
{
    rs_scene_init(s);
    s->camera.eye = rs_vec3(0.0f, 3.0f, 7.0f);
    s->camera.look_at = rs_vec3(0.0f, 1.0f, 0.0f);
    s->camera.up = rs_vec3(0.0f, 1.0f, 0.0f);
    s->camera.fov_degrees = 60.0f;
    uint32_t grey = material(s, "grey", rs_vec3_splat(0.6f), rs_vec3_splat(0.0f), err);
    quad(s, rs_vec3(0, 0, 0), 6.0f, 0, grey, err);
    RsVec3 w[4] = {rs_vec3(-6, 0, -3), rs_vec3(6, 0, -3), rs_vec3(6, 6, -3), rs_vec3(-6, 6, -3)}; /* a back wall */
    rs_scene_add_triangle(s, w[0], w[1], w[2], grey, err);
    rs_scene_add_triangle(s, w[0], w[2], w[3], grey, err);
    char name[32];
    for (uint32_t i = 0; i < 16; ++i) {
        uint32_t key = rs_rng_path_key(21, i, 0);
        float r = 0.5f * powf(40.0f, rs_rng(key, 0, 0));
        snprintf(name, sizeof name, "lamp%u", i);
        uint32_t lamp = material(s, name, rs_vec3_splat(0.0f), rs_vec3(r, r * rs_rng(key, 0, 1), r * rs_rng(key, 0, 2)),
                                 err);
        quad(s, rs_vec3(8.0f * rs_rng(key, 0, 3) - 4.0f, 1.0f + 2.5f * rs_rng(key, 0, 4), 5.0f * rs_rng(key, 0, 5) - 2.5f),
             0.15f, 1, lamp, err);
    }
    uint32_t ball = material(s, "ball", rs_vec3_splat(0.0f), rs_vec3(4.0f, 3.0f, 1.0f), err);
    rs_scene_add_sphere(s, rs_vec3(-2.0f, 0.5f, 1.0f), 0.3f, ball, err);
    rs_scene_add_sphere(s, rs_vec3(2.5f, 2.0f, -1.0f), 0.2f, ball, err);
    rs_scene_add_point_light(s, rs_vec3(1.0f, 1.5f, 1.0f), rs_vec3(1.0f, 2.0f, 1.0f), err);
    rs_scene_add_spot_light(s, rs_vec3(-1.0f, 3.0f, 0.0f), rs_vec3(0.3f, -1.0f, 0.0f), rs_vec3_splat(6.0f), 35.0f,
                            10.0f, err);
    s->env.zenith = rs_float4(0.05f, 0.06f, 0.08f, rs_uint_as_float(RS_ENV_CONSTANT));
}

/* 64 small lamps facing down over a floor, seen from above. */
static void spread_lamps(RsScene* s, RsError* err)
{
    rs_scene_init(s);
    s->camera.eye = rs_vec3(0.0f, 20.0f, 0.0f);
    s->camera.look_at = rs_vec3(0.0f, 0.0f, 0.0f);
    s->camera.up = rs_vec3(0.0f, 0.0f, -1.0f);
    s->camera.fov_degrees = 50.0f;
    uint32_t grey = material(s, "grey", rs_vec3_splat(0.6f), rs_vec3_splat(0.0f), err);
    quad(s, rs_vec3(0, 0, 0), 10.0f, 0, grey, err);
    char name[32];
    for (uint32_t i = 0; i < 64; ++i) {
        uint32_t key = rs_rng_path_key(22, i, 0);
        float r = 2.0f * powf(100.0f, rs_rng(key, 0, 0));
        snprintf(name, sizeof name, "lamp%u", i);
        uint32_t lamp = material(s, name, rs_vec3_splat(0.0f), rs_vec3_splat(r), err);
        quad(s, rs_vec3(2.0f * (float)(i % 8) - 7.0f, 0.4f, 2.0f * (float)(i / 8) - 7.0f), 0.1f, 1, lamp, err);
    }
}

static RsFloat4* render(RsScene* s, uint32_t method, const RsBackendConfig* cfg, uint32_t size, uint32_t spp,
                        uint32_t depth, uint32_t seed)
{
    RsError err = {{0}};
    if (!s->built || s->render.light_sampler != method) {
        s->render.light_sampler = method;
        CHECK(s->built ? rs_scene_select_lights(s, method, &err) == 0 : rs_scene_build(s, &err) == 0, "%s",
              err.message);
    }
    TestRender tr = {size, size, spp, depth, RS_INTEGRATOR_PATH, seed, 0, 0};
    RsFloat4* film = test_render(s, cfg, &tr, NULL, &err);
    CHECK(film != NULL, "%s", err.message);
    return film;
}

static double luminance_mean(const RsFloat4* film, uint32_t pixels)
{
    double m[3];
    film_mean(film, pixels, m);
    return 0.2126 * m[0] + 0.7152 * m[1] + 0.0722 * m[2];
}

static void test_unbiased(const RsBackendConfig* cfg, uint32_t spp)
{
    enum { SIZE = 24 };
    RsError err = {{0}};
    RsScene s;
    mixed_room(&s, &err);
    CHECK(err.message[0] == 0, "%s", err.message);
    double mean[2], se[2];
    const uint32_t methods[2] = {RS_LIGHT_SELECT_POWER, RS_LIGHT_SELECT_TREE};
    for (int m = 0; m < 2; ++m) {
        double sum = 0.0, sum2 = 0.0;
        for (uint32_t seed = 0; seed < SEEDS; ++seed) {
            RsFloat4* film = render(&s, methods[m], cfg, SIZE, spp, 3, 100 + seed);
            double x = film ? luminance_mean(film, SIZE * SIZE) : 0.0;
            free(film);
            sum += x;
            sum2 += x * x;
        }
        mean[m] = sum / SEEDS;
        se[m] = sqrt(fmax(0.0, (sum2 - sum * sum / SEEDS) / (SEEDS - 1)) / SEEDS);
    }
    double diff = fabs(mean[1] - mean[0]), tolerance = 5.0 * sqrt(se[0] * se[0] + se[1] * se[1]);
    printf("mixed room, depth 3: power %.5f +- %.5f, tree %.5f +- %.5f\n", mean[0], se[0], mean[1], se[1]);
    CHECK(mean[0] > 0.0 && diff <= tolerance && diff <= 0.03 * mean[0],
          "image means differ: power %.5f +- %.5f, tree %.5f +- %.5f", mean[0], se[0], mean[1], se[1]);
    rs_scene_free(&s);
}

/* Mean over pixels of (x - ref)^2 / (ref^2 + 1e-4 mean^2), on luminance. */
static double rel_mse(const RsFloat4* film, const RsFloat4* ref, uint32_t pixels)
{
    double ref_mean = luminance_mean(ref, pixels), sum = 0.0;
    for (uint32_t i = 0; i < pixels; ++i) {
        double x = (0.2126 * film[i].x + 0.7152 * film[i].y + 0.0722 * film[i].z) / film[i].w;
        double r = (0.2126 * ref[i].x + 0.7152 * ref[i].y + 0.0722 * ref[i].z) / ref[i].w;
        sum += (x - r) * (x - r) / (r * r + 1e-4 * ref_mean * ref_mean);
    }
    return sum / pixels;
}

static void test_lower_error(const RsBackendConfig* cfg, uint32_t spp, uint32_t ref_spp)
{
    enum { SIZE = 32 };
    RsError err = {{0}};
    RsScene s;
    spread_lamps(&s, &err);
    CHECK(err.message[0] == 0, "%s", err.message);
    RsFloat4* ref = render(&s, RS_LIGHT_SELECT_TREE, cfg, SIZE, ref_spp, 1, 7);
    RsFloat4* tree = render(&s, RS_LIGHT_SELECT_TREE, cfg, SIZE, spp, 1, 8);
    RsFloat4* power = render(&s, RS_LIGHT_SELECT_POWER, cfg, SIZE, spp, 1, 8);
    if (ref && tree && power) {
        double e_tree = rel_mse(tree, ref, SIZE * SIZE), e_power = rel_mse(power, ref, SIZE * SIZE);
        printf("64 lamps over a floor, %u spp: relMSE power %.5f, tree %.5f (%.1fx less)\n", spp, e_power, e_tree,
               e_power / e_tree);
        CHECK(e_tree < 0.5 * e_power, "the tree's error %.5f is not below half the power CDF's %.5f", e_tree,
              e_power);
    }
    free(ref);
    free(tree);
    free(power);
    rs_scene_free(&s);
}

int main(int argc, char** argv)
{
    RsBackendConfig cfg;
    int cuda;
    if (!test_backend(argc, argv, 1, "test_light_tree_render", &cfg, &cuda))
        return RS_TEST_SKIP;
    test_unbiased(&cfg, cuda ? 4096 : 256);
    test_lower_error(&cfg, 16, cuda ? 8192 : 1024);
    return rs_test_finish("test_light_tree_render");
}
