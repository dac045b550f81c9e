/* test_furnace.c - analytic scenes whose exact pixel value is known (render suite, CPU).
 *
 * 1. White furnace. A diffuse sphere of albedo a fills the view inside a constant environment
 *    of radiance L. The sphere is convex, so light leaving it never returns: every pixel is
 *    exactly a * L, at any max_depth >= 1 (depth 1 gets it from next-event estimation of the
 *    environment, deeper paths from MIS of NEE and the escaping BSDF ray). Both integrators.
 * 2. Emitting enclosure. The camera sits inside a closed sphere whose surface is diffuse with
 *    albedo a and emits Le from both faces. Radiance satisfies L = Le + a L, and a path limited
 *    to D segments (NEE at each of its D hits) collects
 *        L_D = Le (1 + a + a^2 + ... + a^D) = Le (1 - a^(D+1)) / (1 - a),
 *    a geometric series; pbrt-v4 with maxdepth = D gives the same.
 * 3. Specular furnaces. A white mirror sphere and a clear glass sphere (ior 1.5) in the
 *    furnace: every path eventually leaves, so every pixel is L, at depth 1 too (a specular last
 *    vertex traces its reflection for emission only, as pbrt-v4 and Mitsuba do). Inside the glass the camera sees n^2 L (radiance
 *    over n^2 is invariant along a ray), which is what checks the 1/eta^2 radiance scaling on
 *    refraction: from outside, entering and leaving cancel.
 * 4. Plastic furnaces: a white smooth-coated sphere is exactly L too, a rough-coated one a little
 *    less (test_plastic_furnace).
 * Tolerance: 2% of the expected value. The estimators' per-sample standard deviation is at most
 * ~1.5x the mean here (depth-1 NEE of a uniform sphere is the worst), so with 64x64 pixels at
 * 16+ spp the mean's standard error is below 0.6%: the bound sits beyond 3 sigma.
 */
#include "render_util.h"
#include "tests/test.h"

static const float albedo = 0.5f;

static void furnace_scene_with(RsScene* s, RsMaterial material, float env)
{
    RsError err = {{0}};
    rs_scene_init(s);
    s->camera.eye = rs_vec3(0, 0, 3);
    s->camera.look_at = rs_vec3(0, 0, 0);
    s->camera.fov_degrees = 20.0f; /* half-angle 10 deg: the unit sphere at distance 3 spans 19.5 */
    s->env.zenith = rs_float4(env, env, env, rs_uint_as_float(RS_ENV_CONSTANT));
    int32_t m = rs_scene_add_material(s, "m", material, &err);
    CHECK(m == 0, "%s", err.message);
    CHECK(rs_scene_add_sphere(s, rs_vec3(0, 0, 0), 1.0f, (uint32_t)m, &err) == 0, "%s", err.message);
    CHECK(rs_scene_build(s, &err) == 0, "%s", err.message);
}

static void furnace_scene(RsScene* s, uint32_t material_type, float env)
{
    RsVec3 colour = material_type == RS_MAT_DIFFUSE ? rs_vec3_splat(albedo) : rs_vec3_splat(1.0f);
    furnace_scene_with(s, rs_material_make(material_type, colour, rs_vec3_splat(0), 1.5f, 0), env);
}

static double render_mean(const RsScene* s, uint32_t depth, uint32_t integrator, uint32_t spp)
{
    RsError err = {{0}};
    RsBackendConfig cfg = cpu_config(RS_DEADRAY_FLAGS, 0, 0);
    TestRender tr = {64, 64, spp, depth, integrator, 1, 0, 0};
    RsFloat4* film = test_render(s, &cfg, &tr, NULL, &err);
    CHECK(film != NULL, "%s", err.message);
    if (!film)
        return -1.0;
    double mean[3];
    film_mean(film, 64 * 64, mean);
    free(film);
    CHECK_NEAR(mean[0], mean[1], 1e-6); /* grey scene: channels agree exactly */
    return mean[0];
}

static void test_white_furnace(void)
{
    RsScene s;
    const float env = 0.8f;
    furnace_scene(&s, RS_MAT_DIFFUSE, env);
    uint32_t depths[] = {1, 2, 5};
    for (int i = 0; i < 3; ++i) {
        double expected = albedo * env;
        CHECK_NEAR(render_mean(&s, depths[i], RS_INTEGRATOR_PATH, 16), expected, 0.02 * expected);
        CHECK_NEAR(render_mean(&s, depths[i], RS_INTEGRATOR_WHITTED, 16), expected, 0.02 * expected);
    }
    rs_scene_free(&s);
}

static void test_enclosure_series(void)
{
    RsScene s;
    RsError err = {{0}};
    const float le = 1.0f;
    rs_scene_init(&s);
    s.camera.eye = rs_vec3(0.1f, -0.2f, 0.3f);
    s.camera.look_at = rs_vec3(0.5f, 0.1f, -1.0f);
    s.camera.fov_degrees = 90.0f;
    int32_t m = rs_scene_add_material(&s, "shell",
                                      rs_material_make(RS_MAT_DIFFUSE, rs_vec3_splat(albedo), rs_vec3_splat(le), 1.0f, 1),
                                      &err);
    CHECK(m == 0 && rs_scene_add_sphere(&s, rs_vec3(0, 0, 0), 1.0f, 0, &err) == 0, "%s", err.message);
    CHECK(rs_scene_build(&s, &err) == 0, "%s", err.message);
    uint32_t depths[] = {1, 2, 3, 5, 8};
    for (int i = 0; i < 5; ++i) {
        double expected = le * (1.0 - pow(albedo, depths[i] + 1)) / (1.0 - albedo);
        double got = render_mean(&s, depths[i], RS_INTEGRATOR_PATH, 32);
        CHECK_NEAR(got, expected, 0.02 * expected);
    }
    rs_scene_free(&s);
}

static void test_specular_furnaces(void)
{
    const float env = 1.0f;
    RsScene mirror, glass;
    furnace_scene(&mirror, RS_MAT_MIRROR, env);
    furnace_scene(&glass, RS_MAT_DIELECTRIC, env);
    /* depth 1 too: the last vertex is specular, so its reflection is traced for emission */
    CHECK_NEAR(render_mean(&mirror, 1, RS_INTEGRATOR_PATH, 4), env, 1e-5);
    CHECK_NEAR(render_mean(&mirror, 1, RS_INTEGRATOR_WHITTED, 4), env, 1e-5);
    CHECK_NEAR(render_mean(&mirror, 2, RS_INTEGRATOR_PATH, 4), env, 1e-5);
    CHECK_NEAR(render_mean(&mirror, 2, RS_INTEGRATOR_WHITTED, 4), env, 1e-5);
    CHECK_NEAR(render_mean(&glass, 32, RS_INTEGRATOR_PATH, 16), env, 0.02 * env);
    CHECK_NEAR(render_mean(&glass, 32, RS_INTEGRATOR_WHITTED, 16), env, 0.02 * env);
    /* the same glass sphere around the camera */
    glass.camera.eye = rs_vec3(0, 0, 0);
    glass.camera.look_at = rs_vec3(0.3f, 0.2f, -1);
    glass.camera.fov_degrees = 60.0f;
    double inside = 1.5 * 1.5 * env;
    CHECK_NEAR(render_mean(&glass, 32, RS_INTEGRATOR_PATH, 16), inside, 0.02 * inside);
    CHECK_NEAR(render_mean(&glass, 32, RS_INTEGRATOR_WHITTED, 16), inside, 0.02 * inside);
    rs_scene_free(&mirror);
    rs_scene_free(&glass);
}

/* A white base under a smooth coat reflects all light (kernel/bsdf/plastic.h), split between a delta
 * lobe and a diffuse one: at depth 1 the diffuse part comes from NEE with full weight and the
 * coat's reflection from the emission-only segment. A rough coat loses a little to masking. */
static void test_plastic_furnace(void)
{
    const float env = 1.0f;
    RsScene smooth, rough;
    RsMaterialDesc d = rs_material_desc(RS_MAT_PLASTIC);
    d.colour = rs_vec3_splat(1.0f);
    furnace_scene_with(&smooth, rs_material_from_desc(&d), env);
    d.roughness_u = d.roughness_v = 0.5f;
    furnace_scene_with(&rough, rs_material_from_desc(&d), env);
    uint32_t depths[] = {1, 2, 5};
    for (int i = 0; i < 3; ++i) {
        CHECK_NEAR(render_mean(&smooth, depths[i], RS_INTEGRATOR_PATH, 16), env, 0.02 * env);
        CHECK_NEAR(render_mean(&smooth, depths[i], RS_INTEGRATOR_WHITTED, 16), env, 0.02 * env);
        double r = render_mean(&rough, depths[i], RS_INTEGRATOR_PATH, 16);
        CHECK(r > 0.9 * env && r < 1.01 * env, "rough white plastic at depth %u: %.4f, expected a little below %g",
              depths[i], r, env);
    }
    rs_scene_free(&smooth);
    rs_scene_free(&rough);
}

int main(void)
{
    test_plastic_furnace();
    test_white_furnace();
    test_enclosure_series();
    test_specular_furnaces();
    return rs_test_finish("test_furnace");
}
