/* test_light_select.c - the light-selection seam (src/kernel/light/light_select.h over the
 * table of src/host/scene/lights.c): what next-event estimation picks and what MIS believes it
 * picked must agree. Host C11, kernel suite.
 *
 * A scene with four emitting primitives of different powers (one two-sided, one a sphere),
 * a point light, a spot light, an environment and a non-emitting floor:
 * 1. the table: one entry per emitter, each emitting primitive names its own entry, the floor
 *    none, the environment its own; powers as pbrt-v4's Phi for the quads (pi A L, doubled when
 *    two-sided).
 * 2. POWER selection: probabilities sum to 1, are proportional to power, the CDF rises to
 *    exactly 1; rs_light_select_sample's probability is rs_light_select_pmf's to the bit, and
 *    its frequencies pass a chi-square test against those probabilities.
 * 3. NEE against MIS: for light samples from random shading points, the solid-angle density NEE
 *    reports equals what rs_light_pdf_prim / rs_light_pdf_env compute for the same point and
 *    direction (what a BSDF ray that hits the light uses for its weight); a non-emitter has 0.
 * 4. A scene without lights: no table, no environment entry, rs_light_sample finds nothing.
 * 5. Directional lights: the table puts them after the other lights and before the
 *    environment (the lights at infinity, from infinite_first on) with power pi R^2 E; with
 *    both methods the probabilities sum to 1, sampling reports rs_light_select_pmf's to the
 *    bit and its frequencies pass a chi-square test; with the tree, the lights at infinity
 *    share the environment's fixed probability by their powers; a sample is a delta at
 *    infinity from the direction the light comes from, with the irradiance as its radiance.
 */
#include <stdlib.h>

#include "host/scene/scene.h"
#include "kernel/light/light.h"
#include "kernel/sampling/rng.h"
#include "tests/chi_square.h"
#include "tests/test.h"

static void quad(RsScene* s, RsVec3 c, float half, uint32_t material, RsError* err)
{
    RsVec3 q[4] = {rs_vec3(c.x - half, c.y, c.z - half), rs_vec3(c.x + half, c.y, c.z - half),
                   rs_vec3(c.x + half, c.y, c.z + half), rs_vec3(c.x - half, c.y, c.z + half)};
    /* facing down (-y): the lights hang above the floor */
    rs_scene_add_triangle(s, q[0], q[1], q[2], material, err);
    rs_scene_add_triangle(s, q[0], q[2], q[3], material, err);
}

static uint32_t emitter(RsScene* s, const char* name, float radiance, int two_sided, RsError* err)
{
    return (uint32_t)rs_scene_add_material(
        s, name, rs_material_make(RS_MAT_DIFFUSE, rs_vec3_splat(0.5f), rs_vec3_splat(radiance), 1.0f, two_sided), err);
}

static void build_scene(RsScene* s)
{
    RsError err = {{0}};
    rs_scene_init(s);
    s->render.light_sampler = RS_LIGHT_SELECT_POWER; /* this test reads the power method's table */
    uint32_t floor = (uint32_t)rs_scene_add_material(
        s, "floor", rs_material_make(RS_MAT_DIFFUSE, rs_vec3_splat(0.5f), rs_vec3_splat(0.0f), 1.0f, 0), &err);
    quad(s, rs_vec3(0, 0, 0), 10.0f, floor, &err);                              /* prims 0, 1 */
    quad(s, rs_vec3(-3, 4, 0), 0.5f, emitter(s, "dim", 1.0f, 0, &err), &err);   /* prims 2, 3 */
    quad(s, rs_vec3(3, 4, 0), 0.25f, emitter(s, "bright", 40.0f, 1, &err), &err); /* prims 4, 5 */
    rs_scene_add_sphere(s, rs_vec3(0, 5, 3), 0.2f, emitter(s, "ball", 8.0f, 0, &err), &err); /* prim 6 */
    rs_scene_add_point_light(s, rs_vec3(0, 3, -3), rs_vec3(2.0f, 1.0f, 0.5f), &err);
    rs_scene_add_spot_light(s, rs_vec3(2, 3, -2), rs_vec3(0, -1, 0), rs_vec3_splat(5.0f), 30.0f, 5.0f, &err);
    s->env.zenith = rs_float4(0.002f, 0.003f, 0.004f, rs_uint_as_float(RS_ENV_CONSTANT)); /* as bright as the rest */
    CHECK(err.message[0] == 0, "building the scene: %s", err.message);
    CHECK(rs_scene_build(s, &err) == 0, "rs_scene_build: %s", err.message);
}

static void test_table(const RsScene* s, const RsSceneView* v)
{
    /* 4 emitting triangles, the sphere, the point and spot lights, the environment */
    CHECK(v->light_count == 8, "light table has %u entries, expected 8", v->light_count);
    for (uint32_t i = 0; i < 2; ++i)
        CHECK(rs_prim_light(&v->prims[i]) == RS_NO_LIGHT, "the floor (prim %u) names light %u", i,
              rs_prim_light(&v->prims[i]));
    for (uint32_t i = 2; i < 7; ++i) {
        uint32_t light = rs_prim_light(&v->prims[i]);
        CHECK(light < v->light_count && rs_light_emitter(v->lights[light]) == i,
              "prim %u names light %u, which is not its own", i, light);
    }
    CHECK(v->env_light < v->light_count && rs_light_emitter(v->lights[v->env_light]) == RS_LIGHT_ENVIRONMENT,
          "the environment's entry %u", v->env_light);
    /* a quad of half-size h is two triangles of area 2 h^2 each; two-sided doubles the power */
    float lum_dim = rs_luminance(rs_vec3_splat(1.0f)), lum_bright = rs_luminance(rs_vec3_splat(40.0f));
    uint32_t dim = rs_prim_light(&v->prims[2]), bright = rs_prim_light(&v->prims[4]);
    CHECK_NEAR(rs_light_area(v->lights[dim]), 0.5f, 1e-6);
    CHECK_NEAR(rs_light_power(v->lights[dim]), RS_PI * 0.5 * lum_dim, 1e-5);
    CHECK_NEAR(rs_light_power(v->lights[bright]), 2.0 * RS_PI * 0.125 * lum_bright, 1e-4);
    (void)s;
}

static void test_power_selection(const RsSceneView* v)
{
    RsLightContext ctx = rs_light_context(rs_vec3(0, 1, 0), rs_vec3(0, 1, 0));
    double sum = 0.0, total_power = 0.0;
    float previous = 0.0f;
    for (uint32_t i = 0; i < v->light_count; ++i) {
        sum += rs_light_select_pmf(v, ctx, i);
        total_power += rs_light_power(v->lights[i]);
        CHECK(v->light_select.cdf[i] >= previous, "CDF falls at %u", i);
        previous = v->light_select.cdf[i];
    }
    CHECK(v->light_select.cdf[v->light_count - 1] == 1.0f, "the CDF must end at exactly 1");
    CHECK_NEAR(sum, 1.0, 1e-6);
    for (uint32_t i = 0; i < v->light_count; ++i)
        CHECK_NEAR(rs_light_select_pmf(v, ctx, i), rs_light_power(v->lights[i]) / total_power, 1e-6);
    CHECK(rs_light_select_pmf(v, ctx, RS_NO_LIGHT) == 0.0f, "RS_NO_LIGHT must have probability 0");

    enum { N = 400000, MAX_LIGHTS = 16 };
    double observed[MAX_LIGHTS] = {0}, expected[MAX_LIGHTS] = {0};
    int same_pmf = 1;
    for (uint32_t k = 0; k < N; ++k) {
        float pmf = -1.0f;
        uint32_t light = rs_light_select_sample(v, ctx, rs_rng(rs_rng_path_key(5, k, 0), 0, 0), &pmf);
        observed[light] += 1.0;
        same_pmf &= pmf == rs_light_select_pmf(v, ctx, light);
    }
    for (uint32_t i = 0; i < v->light_count; ++i)
        expected[i] = N * (double)rs_light_select_pmf(v, ctx, i);
    CHECK(same_pmf, "rs_light_select_sample reports a probability other than rs_light_select_pmf's");
    double p = rs_test_chi_square_p(observed, expected, (int)v->light_count);
    CHECK(p > 1e-4, "selection frequencies against their probabilities: chi-square p = %g", p);
}

static float relative(float a, float b) { return fabsf(a - b) / fmaxf(fabsf(a), fabsf(b)); }

static void test_nee_against_mis(const RsSceneView* v)
{
    uint32_t checked_area = 0, checked_env = 0, worst_area = 0, worst_env = 0;
    for (uint32_t k = 0; k < 20000; ++k) {
        uint32_t key = rs_rng_path_key(9, k, 1);
        RsVec3 p = rs_vec3(8.0f * rs_rng(key, 0, 0) - 4.0f, 0.0f, 8.0f * rs_rng(key, 0, 1) - 4.0f);
        RsLightContext ctx = rs_light_context(p, rs_vec3(0, 1, 0));
        RsLightSample ls;
        if (!rs_light_sample(v, ctx, rs_rng(key, 1, 0), rs_rng(key, 1, 1), rs_rng(key, 1, 2), &ls) || ls.delta)
            continue;
        /* what shade computes when a BSDF ray from p reaches the same point or direction; the
         * ray knows no normal (light_select.h), which the power method ignores */
        RsLightContext from_ray = rs_light_context(p, rs_vec3_splat(0.0f));
        if (ls.at_infinity) {
            worst_env += relative(rs_light_pdf_env(v, from_ray, ls.dir), ls.pdf) > 1e-5f;
            ++checked_env;
        } else {
            const RsPrim* prim = &v->prims[ls.point.prim];
            worst_area += relative(rs_light_pdf_prim(v, from_ray, prim, ls.point.p, ls.point.n), ls.pdf) > 1e-4f;
            ++checked_area;
        }
    }
    CHECK(checked_area > 1000 && checked_env > 100, "too few samples checked (%u on areas, %u of the sky)",
          checked_area, checked_env);
    CHECK(worst_area == 0, "%u of %u area-light samples: NEE's density differs from MIS's", worst_area,
          checked_area);
    CHECK(worst_env == 0, "%u of %u environment samples: NEE's density differs from MIS's", worst_env, checked_env);
    CHECK(rs_light_pdf_prim(v, rs_light_context(rs_vec3(0, 1, 0), rs_vec3_splat(0.0f)), &v->prims[0],
                            rs_vec3(1, 0, 1), rs_vec3(0, 1, 0)) == 0.0f,
          "a primitive that does not emit must have density 0");
}

static void test_no_lights(void)
{
    RsError err = {{0}};
    RsScene s;
    rs_scene_init(&s);
    uint32_t m = (uint32_t)rs_scene_add_material(
        &s, "grey", rs_material_make(RS_MAT_DIFFUSE, rs_vec3_splat(0.5f), rs_vec3_splat(0.0f), 1.0f, 0), &err);
    quad(&s, rs_vec3(0, 0, 0), 1.0f, m, &err);
    CHECK(rs_scene_build(&s, &err) == 0, "%s", err.message);
    RsSceneView v = rs_scene_view(&s);
    RsLightSample ls;
    CHECK(v.light_count == 0 && v.env_light == RS_NO_LIGHT, "a dark scene has %u lights, environment entry %u",
          v.light_count, v.env_light);
    CHECK(!rs_light_sample(&v, rs_light_context(rs_vec3(0, 1, 0), rs_vec3(0, 1, 0)), 0.5f, 0.5f, 0.5f, &ls),
          "a dark scene has no light to sample");
    CHECK(rs_light_pdf_env(&v, rs_light_context(rs_vec3(0, 1, 0), rs_vec3_splat(0.0f)), rs_vec3(0, 1, 0)) == 0.0f,
          "a black environment is no light");
    rs_scene_free(&s);
}

static void check_selection(const RsSceneView* v, RsVec3 p, uint32_t seed)
{
    RsLightContext ctx = rs_light_context(p, rs_vec3_splat(0.0f));
    enum { N = 200000, MAX_LIGHTS = 16 };
    double observed[MAX_LIGHTS] = {0}, expected[MAX_LIGHTS] = {0}, sum = 0.0;
    for (uint32_t i = 0; i < v->light_count; ++i)
        sum += rs_light_select_pmf(v, ctx, i);
    CHECK_NEAR(sum, 1.0, 1e-5);
    int same_pmf = 1;
    for (uint32_t k = 0; k < N; ++k) {
        float pmf = -1.0f;
        uint32_t light = rs_light_select_sample(v, ctx, rs_rng(rs_rng_path_key(seed, k, 0), 0, 0), &pmf);
        observed[light] += 1.0;
        same_pmf &= pmf == rs_light_select_pmf(v, ctx, light);
    }
    for (uint32_t i = 0; i < v->light_count; ++i)
        expected[i] = N * (double)rs_light_select_pmf(v, ctx, i);
    CHECK(same_pmf, "method %u: sampling reports a probability other than rs_light_select_pmf's",
          v->light_select.method);
    double chi = rs_test_chi_square_p(observed, expected, (int)v->light_count);
    CHECK(chi > 1e-4, "method %u: frequencies against probabilities: chi-square p = %g", v->light_select.method, chi);
}

static void test_directional(void)
{
    for (uint32_t method = 0; method < RS_LIGHT_SELECT_COUNT; ++method) {
        RsError err = {{0}};
        RsScene s;
        rs_scene_init(&s);
        s.render.light_sampler = method;
        uint32_t floor = (uint32_t)rs_scene_add_material(
            &s, "floor", rs_material_make(RS_MAT_DIFFUSE, rs_vec3_splat(0.5f), rs_vec3_splat(0.0f), 1.0f, 0), &err);
        quad(&s, rs_vec3(0, 0, 0), 10.0f, floor, &err);
        quad(&s, rs_vec3(-3, 4, 0), 0.5f, emitter(&s, "lamp", 4.0f, 0, &err), &err);
        rs_scene_add_directional_light(&s, rs_vec3(0, -2, 0), rs_vec3(1.0f, 2.0f, 3.0f), &err); /* point light 0 */
        rs_scene_add_point_light(&s, rs_vec3(0, 3, -3), rs_vec3_splat(2.0f), &err);            /* point light 1 */
        rs_scene_add_directional_light(&s, rs_vec3(1, -1, 0), rs_vec3_splat(0.02f), &err);      /* point light 2 */
        s.env.zenith = rs_float4(0.01f, 0.01f, 0.01f, rs_uint_as_float(RS_ENV_CONSTANT));
        CHECK(rs_scene_add_directional_light(&s, rs_vec3_splat(0.0f), rs_vec3_splat(1.0f), &err) != 0,
              "a directional light without a direction must be refused");
        CHECK(rs_scene_add_directional_light(&s, rs_vec3(0, -1, 0), rs_vec3(-1.0f, 0.0f, 0.0f), &err) != 0,
              "a negative irradiance must be refused");
        CHECK(rs_scene_build(&s, &err) == 0, "%s", err.message);
        RsSceneView v = rs_scene_view(&s);
        /* the lamp's two triangles, the point light, two directional lights, the environment */
        CHECK(v.light_count == 6 && v.infinite_first == 3 && v.env_light == 5, "table: %u lights, infinite from %u, "
              "environment %u", v.light_count, v.infinite_first, v.env_light);
        CHECK(rs_light_emitter(v.lights[3]) == (RS_LIGHT_POINT_BIT | 0u) &&
              rs_light_emitter(v.lights[4]) == (RS_LIGHT_POINT_BIT | 2u), "directional lights at %x and %x",
              rs_light_emitter(v.lights[3]), rs_light_emitter(v.lights[4]));
        double r = 0.5 * rs_length(rs_sub(s.bounds_hi, s.bounds_lo));
        CHECK_NEAR(rs_light_power(v.lights[3]), RS_PI * r * r * rs_luminance(rs_vec3(1.0f, 2.0f, 3.0f)),
                   1e-5 * rs_light_power(v.lights[3]));
        check_selection(&v, rs_vec3(0.5f, 0.0f, 0.5f), 11 + method);
        check_selection(&v, rs_vec3(-3.0f, 3.9f, 0.0f), 13 + method);
        if (method == RS_LIGHT_SELECT_TREE) {
            RsLightContext ctx = rs_light_context(rs_vec3(1, 1, 1), rs_vec3_splat(0.0f));
            double infinite = 0.0;
            for (uint32_t i = 3; i < 6; ++i)
                infinite += rs_light_power(v.lights[i]);
            for (uint32_t i = 3; i < 6; ++i)
                CHECK_NEAR(rs_light_select_pmf(&v, ctx, i),
                           v.light_select.env_prob * rs_light_power(v.lights[i]) / infinite, 1e-6);
        }
        RsLightSample ls;
        int found = 0;
        for (uint32_t k = 0; k < 64 && !found; ++k) {
            float u = rs_rng(rs_rng_path_key(3, k, 0), 0, 0);
            if (rs_light_sample(&v, rs_light_context(rs_vec3(0, 0, 0), rs_vec3(0, 1, 0)), u, 0.5f, 0.5f, &ls) &&
                ls.delta && ls.at_infinity && ls.radiance.z == 3.0f) {
                found = 1;
                CHECK(ls.dir.y == 1.0f && ls.radiance.x == 1.0f, "the first directional light's sample: dir "
                      "(%g, %g, %g), radiance %g", ls.dir.x, ls.dir.y, ls.dir.z, ls.radiance.x);
            }
        }
        CHECK(found, "no sample of the bright directional light in 64 tries");
        rs_scene_free(&s);
    }
}

int main(void)
{
    RsScene s;
    build_scene(&s);
    RsSceneView v = rs_scene_view(&s);
    test_table(&s, &v);
    test_power_selection(&v);
    test_nee_against_mis(&v);
    rs_scene_free(&s);
    test_no_lights();
    test_directional();
    return rs_test_finish("test_light_select");
}
