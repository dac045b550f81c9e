/* test_light_tree.c - RS_LIGHT_SELECT_TREE through the selection seam (src/kernel/light/
 * light_select.h, light_tree.h; built by src/host/scene/light_tree.c). Host C11, kernel suite.
 *
 * A scene of many mixed lights: 300 small triangles of random orientation and power (some
 * two-sided), quads facing down, emissive spheres, point and spot lights, an environment, over a
 * floor that does not emit.
 * 1. At random shading points (and at a point light, inside a sphere light, on a light): the
 *    probabilities of all lights sum to 1; every one is finite; rs_light_select_sample's
 *    probability is rs_light_select_pmf's to the bit and never 0; a light that can send light to
 *    the point (a point light; a spot whose cone holds it; a one-sided triangle it lies in front
 *    of; any two-sided one or sphere) has a probability above 0, so the orientation bounds
 *    are conservative.
 * 2. Chi-square: the frequencies of 300000 picks at a point against those probabilities.
 * 3. NEE against MIS: the solid-angle density of a light sample equals what rs_light_pdf_prim /
 *    rs_light_pdf_env give for the same point and direction.
 * 4. Edge cases: one light; only the environment; entries of zero power among others (never
 *    picked, probability 0) and none with any (nothing picked, rs_light_sample finds nothing);
 *    lights in one place (the builder halves them by count); a shading point of NaN (nothing
 *    NaN comes out).
 */
#include <stdlib.h>
#include <string.h>

#include "host/scene/scene.h"
#include "kernel/light/light.h"
#include "kernel/sampling/rng.h"
#include "tests/chi_square.h"
#include "tests/test.h"

enum { RANDOM_TRIANGLES = 300 };

static float rnd(uint32_t key, uint32_t dim) { return rs_rng(key, 7, dim); }

static uint32_t emitter(RsScene* s, const char* name, RsVec3 radiance, int two_sided, RsError* err)
{
    return (uint32_t)rs_scene_add_material(s, name, rs_material_make(RS_MAT_DIFFUSE, rs_vec3_splat(0.5f), radiance,
                                                                     1.0f, two_sided),
                                           err);
}

static void quad_down(RsScene* s, RsVec3 c, float half, uint32_t material, RsError* err)
{
    RsVec3 q[4] = {rs_vec3(c.x - half, c.y, c.z - half), rs_vec3(c.x + half, c.y, c.z - half),
                   rs_vec3(c.x + half, c.y, c.z + half), rs_vec3(c.x - half, c.y, c.z + half)};
    rs_scene_add_triangle(s, q[0], q[1], q[2], material, err);
    rs_scene_add_triangle(s, q[0], q[2], q[3], material, err);
}

static void floor_quad(RsScene* s, float half, RsError* err)
{
    uint32_t grey = emitter(s, "floor", rs_vec3_splat(0.0f), 0, err);
    RsVec3 q[4] = {rs_vec3(-half, 0, -half), rs_vec3(-half, 0, half), rs_vec3(half, 0, half), rs_vec3(half, 0, -half)};
    rs_scene_add_triangle(s, q[0], q[1], q[2], grey, err);
    rs_scene_add_triangle(s, q[0], q[2], q[3], grey, err);
}

static void build_mixed(RsScene* s)
{
    RsError err = {{0}};
    rs_scene_init(s);
    s->render.light_sampler = RS_LIGHT_SELECT_TREE;
    floor_quad(s, 20.0f, &err);
    char name[32];
    for (uint32_t i = 0; i < RANDOM_TRIANGLES; ++i) {
        uint32_t key = rs_rng_path_key(3, i, 0);
        snprintf(name, sizeof name, "tri%u", i);
        /* radiance over two decades, a fifth two-sided */
        float radiance = 0.1f * powf(100.0f, rnd(key, 0));
        uint32_t m = emitter(s, name, rs_vec3(radiance, 0.5f * radiance, radiance), rnd(key, 1) < 0.2f, &err);
        RsVec3 c = rs_vec3(16.0f * rnd(key, 2) - 8.0f, 0.5f + 6.0f * rnd(key, 3), 16.0f * rnd(key, 4) - 8.0f);
        RsVec3 a = rs_vec3(rnd(key, 5) - 0.5f, rnd(key, 6) - 0.5f, rnd(key, 7) - 0.5f);
        RsVec3 b = rs_vec3(rnd(key, 8) - 0.5f, rnd(key, 9) - 0.5f, rnd(key, 10) - 0.5f);
        rs_scene_add_triangle(s, c, rs_add(c, rs_scale(a, 0.4f)), rs_add(c, rs_scale(b, 0.4f)), m, &err);
    }
    quad_down(s, rs_vec3(-3, 7, 0), 0.5f, emitter(s, "panel", rs_vec3_splat(3.0f), 0, &err), &err);
    quad_down(s, rs_vec3(3, 7, 2), 0.25f, emitter(s, "bright", rs_vec3_splat(40.0f), 1, &err), &err);
    uint32_t ball = emitter(s, "ball", rs_vec3_splat(8.0f), 0, &err);
    rs_scene_add_sphere(s, rs_vec3(0, 5, 3), 0.3f, ball, &err);
    rs_scene_add_sphere(s, rs_vec3(-5, 2, -5), 0.6f, ball, &err);
    rs_scene_add_point_light(s, rs_vec3(0, 3, -3), rs_vec3(2.0f, 1.0f, 0.5f), &err);
    rs_scene_add_point_light(s, rs_vec3(6, 1, 6), rs_vec3_splat(0.2f), &err);
    rs_scene_add_spot_light(s, rs_vec3(2, 3, -2), rs_vec3(0, -1, 0), rs_vec3_splat(5.0f), 30.0f, 5.0f, &err);
    rs_scene_add_spot_light(s, rs_vec3(-4, 2, 4), rs_vec3(1, -1, 0), rs_vec3_splat(9.0f), 20.0f, 0.0f, &err);
    s->env.zenith = rs_float4(0.02f, 0.03f, 0.04f, rs_uint_as_float(RS_ENV_CONSTANT));
    CHECK(err.message[0] == 0, "building the scene: %s", err.message);
    CHECK(rs_scene_build(s, &err) == 0, "rs_scene_build: %s", err.message);
    CHECK(s->light_select.method == RS_LIGHT_SELECT_TREE && s->light_select.tree.node_count > 0,
          "the scene has no light tree (method %u, %u nodes)", s->light_select.method, s->light_select.tree.node_count);
}

/* Whether `light` can send any light to p (a ray from it could arrive), ignoring occlusion. */
static int can_light(const RsSceneView* v, uint32_t light, RsVec3 p)
{
    uint32_t e = rs_light_emitter(v->lights[light]);
    if (e == RS_LIGHT_ENVIRONMENT)
        return 1;
    if (e & RS_LIGHT_POINT_BIT) {
        const RsPointLight* l = &v->point_lights[e & ~RS_LIGHT_POINT_BIT];
        if (rs_float_as_uint(l->a.w) != RS_POINT_LIGHT_SPOT)
            return 1;
        RsVec3 d = rs_normalize(rs_sub(p, rs_xyz(l->a)));
        return rs_spot_falloff(l, d) > 1e-3f; /* well inside: rounding at the very edge is the kernel's */
    }
    const RsPrim* prim = &v->prims[e];
    if (rs_prim_type(prim) == RS_PRIM_SPHERE || rs_material_two_sided(&v->materials[rs_prim_material(prim)]))
        return 1;
    RsVec3 n = rs_normalize(rs_cross(rs_xyz(prim->b), rs_xyz(prim->c)));
    /* in front of every point of the triangle by a margin, so no point of it is grazing */
    RsVec3 v0 = rs_xyz(prim->a), v1 = rs_add(v0, rs_xyz(prim->b)), v2 = rs_add(v0, rs_xyz(prim->c));
    RsVec3 verts[3] = {v0, v1, v2};
    for (int i = 0; i < 3; ++i)
        if (rs_dot(n, rs_normalize(rs_sub(p, verts[i]))) < 1e-2f)
            return 0;
    return 1;
}

static RsVec3 random_point(uint32_t k)
{
    uint32_t key = rs_rng_path_key(11, k, 0);
    return rs_vec3(24.0f * rnd(key, 0) - 12.0f, 9.0f * rnd(key, 1) - 0.5f, 24.0f * rnd(key, 2) - 12.0f);
}

/* Check 1 at one point: the sum, finiteness, sample against pmf, and reachability. */
static void check_point(const RsSceneView* v, RsVec3 p, int check_reach, const char* what)
{
    RsLightContext ctx = rs_light_context(p, rs_vec3_splat(0.0f));
    double sum = 0.0;
    uint32_t nonfinite = 0, unreachable = 0;
    for (uint32_t i = 0; i < v->light_count; ++i) {
        float pmf = rs_light_select_pmf(v, ctx, i);
        nonfinite += !(pmf >= 0.0f && pmf <= 1.0f);
        sum += pmf;
        if (check_reach && !(pmf > 0.0f) && can_light(v, i, p))
            ++unreachable;
    }
    CHECK(fabs(sum - 1.0) <= 1e-4, "%s (%g, %g, %g): the probabilities sum to %.7f", what, p.x, p.y, p.z, sum);
    CHECK(nonfinite == 0, "%s: %u probabilities outside [0, 1]", what, nonfinite);
    CHECK(unreachable == 0, "%s (%g, %g, %g): %u lights that reach the point have probability 0", what, p.x, p.y,
          p.z, unreachable);
    uint32_t mismatched = 0, zero = 0;
    for (uint32_t k = 0; k < 64; ++k) {
        float pmf = -1.0f;
        uint32_t light = rs_light_select_sample(v, ctx, rs_rng(rs_rng_path_key(12, k, 0), 0, 0), &pmf);
        mismatched += light >= v->light_count || pmf != rs_light_select_pmf(v, ctx, light);
        zero += !(pmf > 0.0f);
    }
    CHECK(mismatched == 0, "%s: %u of 64 picks report a probability other than rs_light_select_pmf's", what,
          mismatched);
    CHECK(zero == 0, "%s: %u of 64 picks have probability 0", what, zero);
}

static void test_sums(const RsScene* s, const RsSceneView* v)
{
    for (uint32_t k = 0; k < 200; ++k)
        check_point(v, random_point(k), 1, "random point");
    check_point(v, rs_xyz(s->point_lights.data[0].a), 1, "at a point light");
    check_point(v, rs_vec3(0, 5, 3), 1, "at a sphere light's centre");
    const RsPrim* tri = &s->prims.data[2]; /* the first random light */
    check_point(v, rs_add(rs_xyz(tri->a), rs_scale(rs_add(rs_xyz(tri->b), rs_xyz(tri->c)), 0.3f)), 0, "on a light");
}

static void chi_square_at(const RsSceneView* v, RsVec3 p)
{
    enum { N = 300000 };
    RsLightContext ctx = rs_light_context(p, rs_vec3_splat(0.0f));
    double* observed = calloc(v->light_count, sizeof(double));
    double* expected = calloc(v->light_count, sizeof(double));
    for (uint32_t k = 0; k < N; ++k) {
        float pmf;
        observed[rs_light_select_sample(v, ctx, rs_rng(rs_rng_path_key(13, k, 0), 0, 0), &pmf)] += 1.0;
    }
    for (uint32_t i = 0; i < v->light_count; ++i)
        expected[i] = N * (double)rs_light_select_pmf(v, ctx, i);
    double p_value = rs_test_chi_square_p(observed, expected, (int)v->light_count);
    CHECK(p_value > 1e-4, "picks at (%g, %g, %g) against their probabilities: chi-square p = %g", p.x, p.y, p.z,
          p_value);
    free(observed);
    free(expected);
}

static float relative(float a, float b) { return fabsf(a - b) / fmaxf(fabsf(a), fabsf(b)); }

static void test_nee_against_mis(const RsSceneView* v)
{
    uint32_t area = 0, env = 0, bad_area = 0, bad_env = 0;
    for (uint32_t k = 0; k < 20000; ++k) {
        uint32_t key = rs_rng_path_key(14, k, 1);
        RsVec3 p = rs_vec3(16.0f * rnd(key, 0) - 8.0f, 0.0f, 16.0f * rnd(key, 1) - 8.0f);
        RsLightSample ls;
        if (!rs_light_sample(v, rs_light_context(p, rs_vec3(0, 1, 0)), rnd(key, 2), rnd(key, 3), rnd(key, 4), &ls) ||
            ls.delta)
            continue;
        RsLightContext from_ray = rs_light_context(p, rs_vec3_splat(0.0f));
        if (ls.at_infinity) {
            bad_env += relative(rs_light_pdf_env(v, from_ray, ls.dir), ls.pdf) > 1e-5f;
            ++env;
        } else {
            bad_area += relative(rs_light_pdf_prim(v, from_ray, &v->prims[ls.point.prim], ls.point.p, ls.point.n),
                                 ls.pdf) > 1e-4f;
            ++area;
        }
    }
    CHECK(area > 1000 && env > 100, "too few samples checked (%u on areas, %u of the sky)", area, env);
    CHECK(bad_area == 0 && bad_env == 0, "NEE's density differs from MIS's for %u of %u area and %u of %u sky samples",
          bad_area, area, bad_env, env);
}

static void test_one_light(void)
{
    RsError err = {{0}};
    RsScene s;
    rs_scene_init(&s);
    s.render.light_sampler = RS_LIGHT_SELECT_TREE;
    floor_quad(&s, 5.0f, &err);
    rs_scene_add_point_light(&s, rs_vec3(0, 2, 0), rs_vec3_splat(1.0f), &err);
    CHECK(rs_scene_build(&s, &err) == 0, "%s", err.message);
    RsSceneView v = rs_scene_view(&s);
    CHECK(v.light_count == 1 && v.light_select.node_count == 1, "one light: %u lights, %u nodes", v.light_count,
          v.light_select.node_count);
    for (uint32_t k = 0; k < 50; ++k) {
        RsLightContext ctx = rs_light_context(random_point(k), rs_vec3_splat(0.0f));
        float pmf = 0.0f;
        uint32_t light = rs_light_select_sample(&v, ctx, rs_rng(rs_rng_path_key(15, k, 0), 0, 0), &pmf);
        CHECK(light == 0 && pmf == 1.0f && rs_light_select_pmf(&v, ctx, 0) == 1.0f, "one light: picked %u with %g",
              light, pmf);
    }
    rs_scene_free(&s);
}

static void test_only_environment(void)
{
    RsError err = {{0}};
    RsScene s;
    rs_scene_init(&s);
    s.render.light_sampler = RS_LIGHT_SELECT_TREE;
    floor_quad(&s, 5.0f, &err);
    s.env.zenith = rs_float4(1.0f, 1.0f, 1.0f, rs_uint_as_float(RS_ENV_CONSTANT));
    CHECK(rs_scene_build(&s, &err) == 0, "%s", err.message);
    RsSceneView v = rs_scene_view(&s);
    CHECK(v.light_count == 1 && v.env_light == 0 && v.light_select.node_count == 0 && v.light_select.env_prob == 1.0f,
          "only the sky: %u lights, environment %u, %u nodes, environment probability %g", v.light_count, v.env_light,
          v.light_select.node_count, v.light_select.env_prob);
    RsLightContext ctx = rs_light_context(rs_vec3(0, 1, 0), rs_vec3_splat(0.0f));
    float pmf = 0.0f;
    uint32_t light = rs_light_select_sample(&v, ctx, 0.999f, &pmf);
    CHECK(light == 0 && pmf == 1.0f && rs_light_select_pmf(&v, ctx, 0) == 1.0f, "only the sky: picked %u with %g",
          light, pmf);
    rs_scene_free(&s);
}

/* Entries of zero power among others, by building the tree over the mixed scene's table with
 * some powers set to 0; then with none left. Also emitters of black emission, which the table
 * leaves out. */
static void test_zero_power(const RsScene* s)
{
    RsSceneView v = rs_scene_view(s);
    double* power = malloc(v.light_count * sizeof *power);
    for (uint32_t i = 0; i < v.light_count; ++i)
        power[i] = i % 3 == 1 ? 0.0 : rs_light_power(v.lights[i]);
    RsLightSelect sel;
    memset(&sel, 0, sizeof sel);
    RsError err = {{0}};
    CHECK(rs_light_select_build(&sel, RS_LIGHT_SELECT_TREE, &v, power, 1, &err) == 0, "%s", err.message);
    v.light_select = rs_light_select_view(&sel);
    uint32_t bad = 0;
    for (uint32_t k = 0; k < 50; ++k) {
        RsLightContext ctx = rs_light_context(random_point(k), rs_vec3_splat(0.0f));
        double sum = 0.0;
        for (uint32_t i = 0; i < v.light_count; ++i) {
            float pmf = rs_light_select_pmf(&v, ctx, i);
            bad += i % 3 == 1 ? pmf != 0.0f : !(pmf >= 0.0f);
            sum += pmf;
        }
        CHECK(fabs(sum - 1.0) <= 1e-4, "zero-power entries among others: the probabilities sum to %.7f", sum);
        for (uint32_t j = 0; j < 200; ++j) {
            float pmf;
            uint32_t light = rs_light_select_sample(&v, ctx, rs_rng(rs_rng_path_key(16, k, j), 0, 0), &pmf);
            bad += light % 3 == 1 || !(pmf > 0.0f);
        }
    }
    CHECK(bad == 0, "zero-power entries: %u picks or probabilities wrong", bad);

    for (uint32_t i = 0; i < v.light_count; ++i)
        power[i] = 0.0;
    CHECK(rs_light_select_build(&sel, RS_LIGHT_SELECT_TREE, &v, power, 1, &err) == 0, "%s", err.message);
    v.light_select = rs_light_select_view(&sel);
    RsLightContext ctx = rs_light_context(rs_vec3(0, 1, 0), rs_vec3(0, 1, 0));
    float pmf = -1.0f;
    rs_light_select_sample(&v, ctx, 0.5f, &pmf);
    RsLightSample ls;
    CHECK(pmf == 0.0f && rs_light_select_pmf(&v, ctx, 3) == 0.0f, "no power at all: a pick of probability %g", pmf);
    CHECK(!rs_light_sample(&v, ctx, 0.5f, 0.5f, 0.5f, &ls), "no power at all: rs_light_sample found a light");
    rs_light_select_free(&sel);
    free(power);

    RsScene dark;
    rs_scene_init(&dark);
    dark.render.light_sampler = RS_LIGHT_SELECT_TREE;
    floor_quad(&dark, 5.0f, &err);
    uint32_t black = emitter(&dark, "black", rs_vec3_splat(0.0f), 1, &err);
    uint32_t lamp = emitter(&dark, "lamp", rs_vec3_splat(1.0f), 0, &err);
    quad_down(&dark, rs_vec3(0, 2, 0), 0.5f, black, &err);
    quad_down(&dark, rs_vec3(1, 2, 0), 0.5f, lamp, &err);
    CHECK(rs_scene_build(&dark, &err) == 0, "%s", err.message);
    RsSceneView dv = rs_scene_view(&dark);
    CHECK(dv.light_count == 2, "black emitters are no lights: %u lights", dv.light_count);
    CHECK(rs_light_select_pmf(&dv, ctx, rs_prim_light(&dv.prims[2])) == 0.0f, "a black emitter has a probability");
    check_point(&dv, rs_vec3(0.3f, 1.0f, 0.1f), 1, "black emitters beside a lamp");
    rs_scene_free(&dark);
}

static void test_one_place(void)
{
    RsError err = {{0}};
    RsScene s;
    rs_scene_init(&s);
    s.render.light_sampler = RS_LIGHT_SELECT_TREE;
    floor_quad(&s, 5.0f, &err);
    uint32_t lamp = emitter(&s, "lamp", rs_vec3_splat(1.0f), 0, &err);
    for (uint32_t i = 0; i < 64; ++i) {
        rs_scene_add_point_light(&s, rs_vec3(0, 2, 0), rs_vec3_splat(0.5f + (float)(i % 5)), &err);
        quad_down(&s, rs_vec3(1, 2, 1), 0.25f, lamp, &err);
    }
    CHECK(rs_scene_build(&s, &err) == 0, "%s", err.message);
    RsSceneView v = rs_scene_view(&s);
    CHECK(v.light_count == 192, "lights in one place: %u lights", v.light_count);
    for (uint32_t k = 0; k < 20; ++k)
        check_point(&v, random_point(k), 1, "lights in one place");
    check_point(&v, rs_vec3(0, 2, 0), 1, "at the lights in one place");
    chi_square_at(&v, rs_vec3(0.5f, 0.0f, 0.5f));
    /* a NaN point (a broken ray): whatever the importances make of it, nothing may be NaN */
    RsLightContext nan_ctx = rs_light_context(rs_vec3(NAN, 1.0f, 0.0f), rs_vec3_splat(0.0f));
    double sum = 0.0;
    for (uint32_t i = 0; i < v.light_count; ++i)
        sum += rs_light_select_pmf(&v, nan_ctx, i);
    float pmf = -1.0f;
    uint32_t light = rs_light_select_sample(&v, nan_ctx, 0.3f, &pmf);
    CHECK(fabs(sum - 1.0) <= 1e-4 && light < v.light_count && pmf > 0.0f && pmf == rs_light_select_pmf(&v, nan_ctx, light),
          "a NaN point: sum %.7f, picked %u with %g", sum, light, pmf);
    rs_scene_free(&s);
}

int main(void)
{
    RsScene s;
    build_mixed(&s);
    RsSceneView v = rs_scene_view(&s);
    CHECK(v.light_count == RANDOM_TRIANGLES + 4 + 2 + 4 + 1, "the mixed scene has %u lights", v.light_count);
    test_sums(&s, &v);
    chi_square_at(&v, rs_vec3(1.0f, 0.0f, 1.0f));
    chi_square_at(&v, rs_vec3(-6.0f, 4.0f, 5.0f));
    test_nee_against_mis(&v);
    test_zero_power(&s);
    rs_scene_free(&s);
    test_one_light();
    test_only_environment();
    test_one_place();
    return rs_test_finish("test_light_tree");
}
