/* test_point_lights.c - point and spot lights give their analytic irradiance (render suite on
 * the CPU; the gpu suite runs it with `cuda`). Host C11.
 *
 *   test_point_lights [cpu|cuda]
 *
 * A large diffuse floor (albedo a) seen straight down through a 2-degree field from height 3, a
 * light h above the point the camera looks at. Depth 1 (next-event estimation only), so the only
 * noise is the pixel jitter: a floor point at distance d from the light, at angle theta to the
 * vertical, reflects a I falloff cos(theta) / (pi d^2), which the test averages over the view
 * (`expected`, in double on a fine grid) and compares within 0.2%.
 * 1. A point light at heights 1 and 2: their values, hence the inverse square.
 * 2. A spot light (cone 30, falloff from 25 degrees) tilted 10, 27.5 and 40 degrees away from
 *    the floor point: full intensity, pbrt-v4's smoothstep falloff, and nothing.
 * 3. Lights add up: a point light and an area light together render the sum of each alone at
 *    depths 1 and 3 (the power-proportional selection divides by the right probability, and a
 *    delta light takes no MIS weight), within 2%.
 */
#include <string.h>

#include "render_util.h"
#include "tests/test.h"

enum { SIZE = 16 };
static const float albedo = 0.6f;

static void floor_scene(RsScene* s, RsError* err)
{
    rs_scene_init(s);
    s->camera.eye = rs_vec3(0.0f, 3.0f, 0.0f);
    s->camera.look_at = rs_vec3(0.0f, 0.0f, 0.0f);
    s->camera.up = rs_vec3(0.0f, 0.0f, -1.0f);
    s->camera.fov_degrees = 2.0f;
    int32_t m = rs_scene_add_material(s, "floor", rs_material_make(RS_MAT_DIFFUSE, rs_vec3_splat(albedo),
                                                                   rs_vec3_splat(0.0f), 1.0f, 0), err);
    RsVec3 q[4] = {rs_vec3(-50, 0, -50), rs_vec3(-50, 0, 50), rs_vec3(50, 0, 50), rs_vec3(50, 0, -50)};
    rs_scene_add_triangle(s, q[0], q[1], q[2], (uint32_t)m, err);
    rs_scene_add_triangle(s, q[0], q[2], q[3], (uint32_t)m, err);
}

static double mean_of(RsScene* s, const RsBackendConfig* cfg, uint32_t depth, uint32_t spp)
{
    RsError err = {{0}};
    CHECK(rs_scene_build(s, &err) == 0, "%s", err.message);
    TestRender tr = {SIZE, SIZE, spp, depth, RS_INTEGRATOR_PATH, 1, 0, 0};
    RsFloat4* film = test_render(s, cfg, &tr, NULL, &err);
    CHECK(film != NULL, "%s", err.message);
    if (!film)
        return -1.0;
    double mean[3];
    film_mean(film, SIZE * SIZE, mean);
    free(film);
    return mean[0];
}

static double smoothstep_falloff(double cos_theta, double cone, double delta)
{
    double end = cos(cone * RS_PI / 180.0), start = cos((cone - delta) * RS_PI / 180.0);
    if (cos_theta >= start)
        return 1.0;
    if (cos_theta <= end)
        return 0.0;
    double t = (cos_theta - end) / (start - end);
    return t * t * (3.0 - 2.0 * t);
}

/* The image mean for a light at height h above the origin (a spot if axis is given), from the
 * view's footprint on the floor, [-w, w]^2 with w = 3 tan(1 degree), on a 256x256 grid. */
static double expected(double h, double intensity, const double* axis)
{
    const int n = 256;
    double w = 3.0 * tan(RS_PI / 180.0), sum = 0.0;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            double x = w * (2.0 * (i + 0.5) / n - 1.0), z = w * (2.0 * (j + 0.5) / n - 1.0);
            double d2 = x * x + h * h + z * z, d = sqrt(d2);
            double falloff = 1.0;
            if (axis) /* the direction from the light to the point against the axis */
                falloff = smoothstep_falloff((x * axis[0] - h * axis[1] + z * axis[2]) / d, 30.0, 5.0);
            sum += albedo * intensity * falloff * (h / d) / (RS_PI * d2);
        }
    return sum / (n * n);
}

static void test_point(const RsBackendConfig* cfg)
{
    const float intensity = 5.0f;
    for (int h = 1; h <= 2; ++h) {
        RsError err = {{0}};
        RsScene s;
        floor_scene(&s, &err);
        rs_scene_add_point_light(&s, rs_vec3(0.0f, (float)h, 0.0f), rs_vec3_splat(intensity), &err);
        double want = expected(h, intensity, NULL);
        CHECK_NEAR(mean_of(&s, cfg, 1, 4), want, 2e-3 * want);
        rs_scene_free(&s);
    }
}

static void test_spot(const RsBackendConfig* cfg)
{
    const float intensity = 5.0f;
    const double tilts[] = {10.0, 27.5, 40.0};
    for (int i = 0; i < 3; ++i) {
        RsError err = {{0}};
        RsScene s;
        floor_scene(&s, &err);
        double t = tilts[i] * RS_PI / 180.0;
        RsVec3 axis = rs_vec3((float)sin(t), (float)-cos(t), 0.0f);
        rs_scene_add_spot_light(&s, rs_vec3(0.0f, 1.0f, 0.0f), axis, rs_vec3_splat(intensity), 30.0f, 5.0f, &err);
        double axis_d[3] = {sin(t), -cos(t), 0.0};
        double want = expected(1.0, intensity, axis_d), got = mean_of(&s, cfg, 1, 4);
        CHECK(fabs(got - want) <= 2e-3 * albedo * intensity / RS_PI, "spot tilted %g degrees: %.6f, expected %.6f",
              tilts[i], got, want);
        rs_scene_free(&s);
    }
}

static void add_lamp(RsScene* s, RsError* err)
{
    int32_t lamp = rs_scene_add_material(s, "lamp", rs_material_make(RS_MAT_DIFFUSE, rs_vec3_splat(0.0f),
                                                                     rs_vec3_splat(2.0f), 1.0f, 0), err);
    /* a small lamp off to the side, facing down */
    RsVec3 q[4] = {rs_vec3(1.5f, 2.0f, -0.5f), rs_vec3(1.5f, 2.0f, 0.5f), rs_vec3(0.5f, 2.0f, 0.5f),
                   rs_vec3(0.5f, 2.0f, -0.5f)};
    rs_scene_add_triangle(s, q[0], q[1], q[2], (uint32_t)lamp, err);
    rs_scene_add_triangle(s, q[0], q[2], q[3], (uint32_t)lamp, err);
}

static void test_lights_add_up(const RsBackendConfig* cfg, uint32_t spp)
{
    for (uint32_t depth = 1; depth <= 3; depth += 2) {
        RsError err = {{0}};
        RsScene point, lamp, both;
        floor_scene(&point, &err);
        floor_scene(&lamp, &err);
        floor_scene(&both, &err);
        rs_scene_add_point_light(&point, rs_vec3(-0.5f, 1.0f, 0.0f), rs_vec3_splat(3.0f), &err);
        rs_scene_add_point_light(&both, rs_vec3(-0.5f, 1.0f, 0.0f), rs_vec3_splat(3.0f), &err);
        add_lamp(&lamp, &err);
        add_lamp(&both, &err);
        double p = mean_of(&point, cfg, depth, spp), l = mean_of(&lamp, cfg, depth, spp);
        double sum = mean_of(&both, cfg, depth, spp);
        CHECK(fabs(sum - (p + l)) <= 0.02 * (p + l), "depth %u: point %.5f + area %.5f = %.5f, together %.5f", depth,
              p, l, p + l, sum);
        rs_scene_free(&point);
        rs_scene_free(&lamp);
        rs_scene_free(&both);
    }
}

int main(int argc, char** argv)
{
    RsBackendConfig cfg;
    int cuda;
    if (!test_backend(argc, argv, 1, "test_point_lights", &cfg, &cuda))
        return RS_TEST_SKIP;
    test_point(&cfg);
    test_spot(&cfg);
    test_lights_add_up(&cfg, cuda ? 4096 : 512);
    return rs_test_finish("test_point_lights");
}
