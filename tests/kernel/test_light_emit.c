/* test_light_emit.c - particles leaving the lights (src/kernel/particle/light_emit.h) against
 * the definitions light tracing and SPPM rely on. Host C11, kernel suite.
 *
 * One scene holds every kind of light: two quads (one-sided and dim, two-sided and bright,
 * coloured so that a channel mix-up shows), an emitting sphere, a point light, a spot light, a
 * directional light and a constant environment, over a floor that sets the bounding sphere.
 * 1. Choice: the frequency of each light-table entry passes a chi-square test against the
 *    power table, which is proportional to the analytic powers (luminance).
 * 2. Power: per entry, the sum of the particles' weights / N estimates that light's power per
 *    channel (within 5 standard errors, computed from the samples): pi A Le (x2 two-sided),
 *    4 pi r^2 pi Le for the sphere, 4 pi I, 2 pi I times the integral of the falloff over cos
 *    (numerical here), pi r^2 E and pi r^2 4 pi L with r the header's radius. An area light's
 *    weight is the same for every particle (its direction density cancels Le |cos|).
 * 3. Where and which way: points uniform on each quad and the sphere; directions cosine about
 *    the emitting side's normal (cos^2 uniform), only on that side, each side half the time when
 *    two-sided; point lights' uniform on the sphere, spots' in the cone; particles from infinity
 *    start outside the bounding sphere heading in, uniformly over the disc across their way.
 * 4. The emission vertex: rs_emission_towards is Le |cos| on an emitting side and 0 behind a
 *    one-sided emitter, I for a point light, I times the smoothstep falloff for a spot; a
 *    surface's vertex weight is 1 / (P(light) p(point)); only surfaces have a vertex (point and
 *    spot lights are not seen directly, nor are lights at infinity).
 * 5. Instances: a lamp in an object placed twice (once scaled unevenly and turned) emits from
 *    each world-space copy, with that copy's area and normal.
 * 6. An environment map (coloured, a hot patch, turned): each weight is L pi r^2 / p(w) with the
 *    map's density of its direction; the mean is pi r^2 times the quadrature of L over the sphere.
 */
#include <stdlib.h>

#include "host/scene/env_map.h"
#include "host/scene/scene.h"
#include "host/scene/transform.h"
#include "kernel/particle/light_emit.h"
#include "kernel/sampling/rng.h"
#include "tests/chi_square.h"
#include "tests/test.h"

enum { N = 1000000, MAX_LIGHTS = 16, BINS = 16, KEEP = 32 };

static const RsVec3 DIM_LE = {1.0f, 0.5f, 0.25f}, BRIGHT_LE = {40.0f, 30.0f, 20.0f}, BALL_LE = {8.0f, 4.0f, 2.0f};
static const RsVec3 POINT_I = {2.0f, 1.0f, 0.5f}, SPOT_I = {5.0f, 4.0f, 3.0f}, SUN_E = {0.01f, 0.02f, 0.03f};
static const RsVec3 SKY_L = {0.002f, 0.003f, 0.004f};
static const float SPOT_CONE = 30.0f, SPOT_DELTA = 10.0f, BALL_R = 0.2f;

static void quad(RsScene* s, RsVec3 c, float half, uint32_t material, RsError* err)
{
    RsVec3 q[4] = {rs_vec3(c.x - half, c.y, c.z - half), rs_vec3(c.x + half, c.y, c.z - half),
                   rs_vec3(c.x + half, c.y, c.z + half), rs_vec3(c.x - half, c.y, c.z + half)};
    /* facing down (-y) */
    rs_scene_add_triangle(s, q[0], q[1], q[2], material, err);
    rs_scene_add_triangle(s, q[0], q[2], q[3], material, err);
}

static uint32_t material(RsScene* s, const char* name, RsVec3 radiance, int two_sided, RsError* err)
{
    return (uint32_t)rs_scene_add_material(
        s, name, rs_material_make(RS_MAT_DIFFUSE, rs_vec3_splat(0.5f), radiance, 1.0f, two_sided), err);
}

/* prims: 0, 1 floor; 2, 3 the dim quad; 4, 5 the bright quad; 6 the ball.
 * point lights: 0 point, 1 spot, 2 directional. */
static void build_scene(RsScene* s)
{
    RsError err = {{0}};
    rs_scene_init(s);
    quad(s, rs_vec3(0, 0, 0), 10.0f, material(s, "floor", rs_vec3_splat(0.0f), 0, &err), &err);
    quad(s, rs_vec3(-3, 4, 0), 0.5f, material(s, "dim", DIM_LE, 0, &err), &err);
    quad(s, rs_vec3(3, 4, 0), 0.25f, material(s, "bright", BRIGHT_LE, 1, &err), &err);
    rs_scene_add_sphere(s, rs_vec3(0, 5, 3), BALL_R, material(s, "ball", BALL_LE, 0, &err), &err);
    rs_scene_add_point_light(s, rs_vec3(0, 3, -3), POINT_I, &err);
    rs_scene_add_spot_light(s, rs_vec3(2, 3, -2), rs_vec3(0, -2, 0), SPOT_I, SPOT_CONE, SPOT_DELTA, &err);
    rs_scene_add_directional_light(s, rs_vec3(1, -2, 0.5f), SUN_E, &err);
    s->env.zenith = rs_float4(SKY_L.x, SKY_L.y, SKY_L.z, rs_uint_as_float(RS_ENV_CONSTANT));
    CHECK(err.message[0] == 0, "building the scene: %s", err.message);
    CHECK(rs_scene_build(s, &err) == 0, "rs_scene_build: %s", err.message);
}

static double deg(double d) { return d * RS_PI / 180.0; }

/* The spot's falloff as scene.h defines it: full up to cone - delta, none beyond cone,
 * smoothstep in cos between. */
static double spot_falloff(double cos_theta)
{
    double cos_start = cos(deg(SPOT_CONE - SPOT_DELTA)), cos_end = cos(deg(SPOT_CONE));
    if (cos_theta >= cos_start)
        return 1.0;
    if (cos_theta <= cos_end)
        return 0.0;
    double t = (cos_theta - cos_end) / (cos_start - cos_end);
    return t * t * (3.0 - 2.0 * t);
}

/* 2 pi times the integral of the falloff over cos, by the midpoint rule. */
static double spot_solid_angle(void)
{
    double lo = cos(deg(SPOT_CONE)), sum = 0.0;
    const int steps = 100000;
    for (int i = 0; i < steps; ++i)
        sum += spot_falloff(lo + (1.0 - lo) * (i + 0.5) / steps);
    return 2.0 * RS_PI * sum * (1.0 - lo) / steps;
}

/* The radius light_emit.h uses for particles from infinity, and the bounding sphere's. */
static float emit_radius(const RsSceneView* v)
{
    return 0.5f * rs_length(rs_sub(rs_xyz(v->bounds_hi), rs_xyz(v->bounds_lo))) * 1.01f + 1e-6f;
}

/* What each kind of entry must emit per channel (the analytic power), and its luminance. */
static RsVec3 expected_power(const RsSceneView* v, uint32_t i)
{
    uint32_t emitter = rs_light_emitter(v->lights[i]);
    double r = emit_radius(v);
    if (emitter == RS_LIGHT_ENVIRONMENT)
        return rs_scale(SKY_L, (float)(RS_PI * r * r * 4.0 * RS_PI));
    if (emitter == (RS_LIGHT_POINT_BIT | 0u))
        return rs_scale(POINT_I, (float)(4.0 * RS_PI));
    if (emitter == (RS_LIGHT_POINT_BIT | 1u))
        return rs_scale(SPOT_I, (float)spot_solid_angle());
    if (emitter == (RS_LIGHT_POINT_BIT | 2u))
        return rs_scale(SUN_E, (float)(RS_PI * r * r));
    if (emitter == 2 || emitter == 3) /* a triangle of the 1 x 1 quad: area 1/2 */
        return rs_scale(DIM_LE, (float)(RS_PI * 0.5));
    if (emitter == 4 || emitter == 5) /* of the 0.5 x 0.5 quad, two-sided */
        return rs_scale(BRIGHT_LE, (float)(2.0 * RS_PI * 0.125));
    if (emitter == 6)
        return rs_scale(BALL_LE, (float)(4.0 * RS_PI * BALL_R * BALL_R * RS_PI));
    return rs_vec3_splat(-1.0f);
}

typedef struct Stats {
    double count[MAX_LIGHTS];
    double sum[MAX_LIGHTS][3], sum2[MAX_LIGHTS][3];
    RsEmission kept[MAX_LIGHTS][KEEP];
    uint32_t kept_count[MAX_LIGHTS];
    double dim_cos[BINS], dim_cell[BINS], bright_cos[BINS], bright_cell[BINS], bright_front;
    double ball_cos[BINS], ball_height[BINS], ball_azimuth[BINS];
    double point_y[BINS], spot_cos[BINS], sun_disc[BINS], sky_disc[BINS], sky_y[BINS];
    uint32_t wrong_side, off_surface, off_light, constant_weight_broken, outside_cone, bad_weight;
    uint32_t not_outside, not_inward, bad_direction, refused;
} Stats;

static int bin(double x) /* x in [0, 1] */
{
    int b = (int)(x * BINS);
    return b < 0 ? 0 : b >= BINS ? BINS - 1 : b;
}

static float rel(float a, float b) { return fabsf(a - b) / fmaxf(fmaxf(fabsf(a), fabsf(b)), 1e-30f); }

static int same_vec(RsVec3 a, RsVec3 b, float tol)
{
    return rel(a.x, b.x) <= tol && rel(a.y, b.y) <= tol && rel(a.z, b.z) <= tol;
}

/* A particle from infinity: outside the bounding sphere, heading into it, spread uniformly
 * over the disc of the header's radius across its direction (distance^2 / r^2 uniform). */
static void check_from_infinity(const RsSceneView* v, const RsEmission* e, Stats* st, double* disc)
{
    RsVec3 c = rs_scale(rs_add(rs_xyz(v->bounds_lo), rs_xyz(v->bounds_hi)), 0.5f);
    float bound = 0.5f * rs_length(rs_sub(rs_xyz(v->bounds_hi), rs_xyz(v->bounds_lo))), r = emit_radius(v);
    RsVec3 oc = rs_sub(e->origin, c);
    st->not_outside += !(rs_length(oc) > bound);
    float along = -rs_dot(oc, e->dir);
    st->not_inward += !(along > 0.99f * bound);
    RsVec3 across = rs_add(oc, rs_scale(e->dir, along));
    disc[bin(rs_dot(across, across) / (r * r))] += 1.0;
    st->bad_direction += fabsf(rs_length(e->dir) - 1.0f) > 1e-5f;
    st->off_light += e->has_vertex != 0;
}

/* Directions and points of area lights; cos^2 about the emitting side's normal is uniform for
 * a cosine law. */
static void check_area(uint32_t emitter, const RsEmission* e, float pick, Stats* st)
{
    st->bad_direction += fabsf(rs_length(e->dir) - 1.0f) > 1e-5f;
    st->off_surface += rs_length(rs_sub(e->origin, e->point.p)) > 1e-3f;
    if (emitter == 6) {
        RsVec3 centre = rs_vec3(0, 5, 3), n = rs_normalize(rs_sub(e->point.p, centre));
        st->off_light += fabsf(rs_length(rs_sub(e->point.p, centre)) - BALL_R) > 1e-5f;
        float c = rs_dot(e->dir, n);
        st->wrong_side += !(c > 0.0f);
        st->ball_cos[bin(c * c)] += 1.0;
        st->ball_height[bin(0.5 * (n.y + 1.0))] += 1.0;
        st->ball_azimuth[bin((atan2(n.z, n.x) + RS_PI) / (2.0 * RS_PI))] += 1.0;
        RsVec3 w = rs_scale(BALL_LE, (float)(4.0 * RS_PI * BALL_R * BALL_R * RS_PI) / pick);
        st->constant_weight_broken += !same_vec(e->weight, w, 2e-4f);
        return;
    }
    int dim = emitter < 4;
    RsVec3 centre = dim ? rs_vec3(-3, 4, 0) : rs_vec3(3, 4, 0);
    float half = dim ? 0.5f : 0.25f;
    RsVec3 local = rs_sub(e->point.p, centre);
    st->off_light += fabsf(local.y) > 1e-5f || fabsf(local.x) > half * 1.0001f || fabsf(local.z) > half * 1.0001f;
    int cell = 4 * (int)fminf(3.0f, fmaxf(0.0f, (local.x / half + 1.0f) * 2.0f)) +
               (int)fminf(3.0f, fmaxf(0.0f, (local.z / half + 1.0f) * 2.0f));
    float c = -e->dir.y; /* the quads face -y */
    if (dim) {
        st->wrong_side += !(c > 0.0f);
        st->dim_cos[bin(c * c)] += 1.0;
        st->dim_cell[cell] += 1.0;
    } else {
        st->bright_front += c > 0.0f;
        st->bright_cos[bin(c * c)] += 1.0;
        st->bright_cell[cell] += 1.0;
    }
    RsVec3 w = dim ? rs_scale(DIM_LE, (float)(RS_PI * 0.5) / pick)
                   : rs_scale(BRIGHT_LE, (float)(2.0 * RS_PI * 0.125) / pick);
    st->constant_weight_broken += !same_vec(e->weight, w, 2e-4f);
}

static void check_point(const RsSceneView* v, uint32_t index, const RsEmission* e, float pick, Stats* st)
{
    const RsPointLight* l = &v->point_lights[index];
    st->bad_direction += fabsf(rs_length(e->dir) - 1.0f) > 1e-5f;
    if (index == 2) {
        st->bad_direction += rs_length(rs_sub(e->dir, rs_normalize(rs_vec3(1, -2, 0.5f)))) > 1e-6f;
        st->bad_weight += !same_vec(e->weight, rs_scale(SUN_E, (float)(RS_PI * emit_radius(v) * emit_radius(v)) / pick),
                                    1e-4f);
        check_from_infinity(v, e, st, st->sun_disc);
        return;
    }
    st->off_light += rs_length(rs_sub(e->origin, rs_xyz(l->a))) > 0.0f || e->has_vertex; /* not seen directly */
    if (index == 0) {
        st->point_y[bin(0.5 * (e->dir.y + 1.0))] += 1.0;
        st->bad_weight += !same_vec(e->weight, rs_scale(POINT_I, (float)(4.0 * RS_PI) / pick), 1e-4f);
        return;
    }
    double cos_end = cos(deg(SPOT_CONE)), c = -e->dir.y; /* the axis is -y */
    st->outside_cone += c < cos_end - 1e-5;
    st->spot_cos[bin((1.0 - c) / (1.0 - cos_end))] += 1.0;
    double w = spot_falloff(c) * 2.0 * RS_PI * (1.0 - cos_end) / pick;
    for (int k = 0; k < 3; ++k) {
        double got = (&e->weight.x)[k], want = w * (&SPOT_I.x)[k];
        st->bad_weight += fabs(got - want) > 2e-3 * want + 1e-6;
    }
}

static void check_uniform(const double* observed, const char* what)
{
    double total = 0.0, expected[BINS];
    for (int i = 0; i < BINS; ++i)
        total += observed[i];
    for (int i = 0; i < BINS; ++i)
        expected[i] = total / BINS;
    double p = rs_test_chi_square_p(observed, expected, BINS);
    CHECK(total > 1000.0 && p > 1e-4, "%s: %g samples, chi-square p = %g against uniform", what, total, p);
}

static void draw(const RsSceneView* v, Stats* st)
{
    for (uint32_t k = 0; k < N; ++k) {
        uint32_t key = rs_rng_path_key(17, k, 0);
        RsEmission e;
        if (!rs_light_emit(v, rs_rng(key, 0, 0), rs_rng(key, 0, 1), rs_rng(key, 0, 2), rs_rng(key, 0, 3),
                           rs_rng(key, 0, 4), rs_rng(key, 0, 5), &e)) {
            ++st->refused;
            continue;
        }
        uint32_t i = e.light, emitter = rs_light_emitter(v->lights[i]);
        float pick = v->light_select.power_pmf[i];
        st->count[i] += 1.0;
        for (int c = 0; c < 3; ++c) {
            double w = (&e.weight.x)[c];
            st->sum[i][c] += w;
            st->sum2[i][c] += w * w;
        }
        if (st->kept_count[i] < KEEP)
            st->kept[i][st->kept_count[i]++] = e;
        if (emitter == RS_LIGHT_ENVIRONMENT) {
            st->bad_weight += !same_vec(e.weight, rs_scale(SKY_L, (float)(RS_PI * 4.0 * RS_PI) * emit_radius(v) *
                                                                      emit_radius(v) / pick), 1e-4f);
            st->sky_y[bin(0.5 * (1.0 - e.dir.y))] += 1.0; /* towards the sky: -dir */
            check_from_infinity(v, &e, st, st->sky_disc);
        } else if (emitter & RS_LIGHT_POINT_BIT) {
            check_point(v, emitter & ~RS_LIGHT_POINT_BIT, &e, pick, st);
        } else {
            check_area(emitter, &e, pick, st);
        }
    }
}

static void test_choice_and_power(const RsSceneView* v, const Stats* st)
{
    CHECK(v->light_count == 9, "light table: %u entries, expected 4 triangles, the ball, 3 point-like lights, the sky",
          v->light_count);
    CHECK(st->refused == 0, "%u of %d particles refused in a scene where every light emits everywhere", st->refused, N);
    /* the power table against the analytic powers (the spot's table entry is pbrt-v4's
     * approximation of its falloff, so only the others are compared) */
    double lum_total = 0.0;
    for (uint32_t i = 0; i < v->light_count; ++i)
        lum_total += rs_light_power(v->lights[i]);
    double observed[MAX_LIGHTS] = {0}, expected[MAX_LIGHTS] = {0};
    for (uint32_t i = 0; i < v->light_count; ++i) {
        uint32_t emitter = rs_light_emitter(v->lights[i]);
        RsVec3 want = expected_power(v, i);
        CHECK(want.x >= 0.0f, "entry %u names emitter %x, which the scene does not have", i, emitter);
        double lum = rs_luminance(want);
        if (emitter == (RS_LIGHT_POINT_BIT | 2u) || emitter == RS_LIGHT_ENVIRONMENT) /* the table's disc: the bounds' */
            lum *= pow(0.5 * rs_length(rs_sub(rs_xyz(v->bounds_hi), rs_xyz(v->bounds_lo))) / emit_radius(v), 2.0);
        if (emitter != (RS_LIGHT_POINT_BIT | 1u))
            CHECK(fabs(rs_light_power(v->lights[i]) - lum) <= 1e-4 * lum, "entry %u (emitter %x): table power %g, "
                  "analytic %g", i, emitter, rs_light_power(v->lights[i]), lum);
        CHECK_NEAR(v->light_select.power_pmf[i], rs_light_power(v->lights[i]) / lum_total, 1e-6);
        observed[i] = st->count[i];
        expected[i] = (N - st->refused) * (double)v->light_select.power_pmf[i];
    }
    double p = rs_test_chi_square_p(observed, expected, (int)v->light_count);
    CHECK(p > 1e-4, "light choice frequencies against the power table: chi-square p = %g", p);

    /* per entry and channel: the mean weight estimates the power */
    for (uint32_t i = 0; i < v->light_count; ++i) {
        RsVec3 want = expected_power(v, i);
        for (int c = 0; c < 3; ++c) {
            double mean = st->sum[i][c] / N, second = st->sum2[i][c] / N;
            double sigma = sqrt(fmax(second - mean * mean, 0.0) / N), w = (&want.x)[c];
            CHECK(sigma < 0.03 * w, "entry %u channel %d: standard error %g too wide to test power %g", i, c, sigma, w);
            CHECK(fabs(mean - w) <= 5.0 * sigma + 1e-5 * w, "entry %u (emitter %x) channel %d: mean weight %.6g, "
                  "power %.6g (standard error %.3g)", i, rs_light_emitter(v->lights[i]), c, mean, w, sigma);
        }
    }
}

static void test_where_and_which_way(const Stats* st)
{
    CHECK(st->wrong_side == 0, "%u particles leave a one-sided emitter from its back", st->wrong_side);
    CHECK(st->off_surface == 0, "%u particles start more than 1e-3 from their emission point", st->off_surface);
    CHECK(st->off_light == 0, "%u emission points off their light (or a vertex where none belongs)", st->off_light);
    CHECK(st->bad_direction == 0, "%u directions not unit or not the directional light's", st->bad_direction);
    CHECK(st->constant_weight_broken == 0, "%u area-light particles whose weight is not Le sides pi A / P(light)",
          st->constant_weight_broken);
    CHECK(st->bad_weight == 0, "%u point, spot, directional or sky particles with the wrong weight", st->bad_weight);
    CHECK(st->outside_cone == 0, "%u spot particles outside the cone", st->outside_cone);
    CHECK(st->not_outside == 0, "%u particles from infinity start inside the bounding sphere", st->not_outside);
    CHECK(st->not_inward == 0, "%u particles from infinity do not head into the scene", st->not_inward);
    check_uniform(st->dim_cos, "one-sided quad: cos^2 about the normal");
    check_uniform(st->dim_cell, "one-sided quad: points over a 4 x 4 grid");
    check_uniform(st->bright_cos, "two-sided quad: cos^2 about the emitting side's normal");
    check_uniform(st->bright_cell, "two-sided quad: points over a 4 x 4 grid");
    check_uniform(st->ball_cos, "sphere: cos^2 about the normal");
    check_uniform(st->ball_height, "sphere: points' heights (uniform on a sphere)");
    check_uniform(st->ball_azimuth, "sphere: points' azimuths");
    check_uniform(st->point_y, "point light: direction's y");
    check_uniform(st->spot_cos, "spot light: cos about the axis over the cone");
    check_uniform(st->sun_disc, "directional light: squared distance from the axis over the disc");
    check_uniform(st->sky_disc, "environment: squared distance from the axis over the disc");
    check_uniform(st->sky_y, "constant environment: direction's y");
    double bright = 0.0;
    for (int i = 0; i < BINS; ++i)
        bright += st->bright_cos[i];
    double split[2] = {st->bright_front, bright - st->bright_front}, half[2] = {0.5 * bright, 0.5 * bright},
           p = rs_test_chi_square_p(split, half, 2);
    CHECK(p > 1e-4, "two-sided quad: %g of %g particles leave the front, chi-square p = %g", st->bright_front, bright, p);
}

/* The emission vertex of a few kept particles of every light, seen from random directions. */
static void test_vertex(const RsSceneView* v, const Stats* st)
{
    uint32_t bad = 0, checked = 0;
    for (uint32_t i = 0; i < v->light_count; ++i) {
        uint32_t emitter = rs_light_emitter(v->lights[i]);
        float pick = v->light_select.power_pmf[i];
        int at_infinity = emitter == RS_LIGHT_ENVIRONMENT || emitter == (RS_LIGHT_POINT_BIT | 2u);
        CHECK(st->kept_count[i] > 0, "no particle of entry %u to check", i);
        for (uint32_t k = 0; k < st->kept_count[i]; ++k) {
            const RsEmission* e = &st->kept[i][k];
            if (at_infinity) {
                bad += e->has_vertex != 0;
                continue;
            }
            int surface = !(emitter & RS_LIGHT_POINT_BIT);
            bad += e->has_vertex != surface;
            float area = emitter == 6 ? 4.0f * RS_PI * BALL_R * BALL_R : emitter < 4 ? 0.5f : 0.125f;
            bad += surface && rel(e->vertex_weight, area / pick) > 1e-5f;
            for (uint32_t j = 0; j < 8; ++j) {
                uint32_t key = rs_rng_path_key(23, i * KEEP + k, j);
                RsVec3 w = rs_sample_uniform_sphere(rs_rng(key, 0, 0), rs_rng(key, 0, 1));
                RsVec3 got = rs_emission_towards(v, e, w), want;
                if (emitter == (RS_LIGHT_POINT_BIT | 0u)) {
                    want = POINT_I;
                } else if (emitter == (RS_LIGHT_POINT_BIT | 1u)) {
                    want = rs_scale(SPOT_I, (float)spot_falloff(-w.y));
                } else if (emitter == 6) {
                    float c = rs_dot(rs_normalize(rs_sub(e->point.p, rs_vec3(0, 5, 3))), w);
                    want = c > 0.0f ? rs_scale(BALL_LE, c) : rs_vec3_splat(0.0f);
                } else if (emitter < 4) {
                    want = -w.y > 0.0f ? rs_scale(DIM_LE, -w.y) : rs_vec3_splat(0.0f);
                } else {
                    want = rs_scale(BRIGHT_LE, fabsf(w.y));
                }
                ++checked;
                for (int c = 0; c < 3; ++c)
                    bad += fabsf((&got.x)[c] - (&want.x)[c]) > 1e-3f * fmaxf(1.0f, (&want.x)[c]);
            }
        }
    }
    /* the spot's band: a direction in it gets the smoothstep's share */
    for (uint32_t i = 0; i < v->light_count; ++i) {
        if (rs_light_emitter(v->lights[i]) != (RS_LIGHT_POINT_BIT | 1u) || st->kept_count[i] == 0)
            continue;
        float a = (float)deg(SPOT_CONE - 0.5 * SPOT_DELTA);
        RsVec3 got = rs_emission_towards(v, &st->kept[i][0], rs_vec3(sinf(a), -cosf(a), 0.0f));
        CHECK(fabs(got.x - SPOT_I.x * spot_falloff(cos(a))) < 1e-4 && spot_falloff(cos(a)) > 0.1 &&
                  spot_falloff(cos(a)) < 0.9,
              "spot at the middle of its band: %g, expected %g", got.x, SPOT_I.x * spot_falloff(cos(a)));
    }
    CHECK(checked > 100 && bad == 0, "emission vertex: %u of %u checks wrong", bad, checked);
}

/* An emitting quad in an object, placed twice (moved; and scaled unevenly, turned and moved):
 * every particle leaves the world-space copy of its instance, uniformly over it, on its
 * emitting side with a cosine law, with the weight of the copy's area and a mean weight equal
 * to its power. */
static void test_instanced(void)
{
    RsError err = {{0}};
    RsScene s;
    rs_scene_init(&s);
    const RsVec3 le = rs_vec3(3.0f, 2.0f, 1.0f);
    quad(&s, rs_vec3(0, 0, 0), 10.0f, material(&s, "floor", rs_vec3_splat(0.0f), 0, &err), &err);
    uint32_t lamp = material(&s, "lamp", le, 0, &err);
    int32_t object = rs_scene_begin_object(&s, &err);
    quad(&s, rs_vec3(0, 0, 0), 0.5f, lamp, &err);
    rs_scene_end_object(&s, &err);
    RsTransform place[2];
    place[0] = rs_transform_translate(rs_vec3(-2, 4, 0));
    RsTransform scale = rs_transform_scale(rs_vec3(2.0f, 1.0f, 1.5f));
    RsTransform turn = rs_transform_rotate(30.0f, rs_vec3(1, 0, 1));
    RsTransform move = rs_transform_translate(rs_vec3(3, 4, 1)), turned = rs_transform_compose(&turn, &scale);
    place[1] = rs_transform_compose(&move, &turned);
    for (int i = 0; i < 2; ++i)
        rs_scene_add_instance(&s, (uint32_t)object, &place[i], &err);
    CHECK(object >= 0 && err.message[0] == 0, "building the instanced scene: %s", err.message);
    CHECK(rs_scene_build(&s, &err) == 0, "rs_scene_build: %s", err.message);
    RsSceneView v = rs_scene_view(&s);
    CHECK(v.light_count == 4, "two instances of a two-triangle lamp: %u lights", v.light_count);
    /* the copies: a corner, two edges (a rectangle still) and the normal, in world space */
    RsVec3 corner[2], edge_x[2], edge_z[2], normal[2];
    const float area[2] = {1.0f, 3.0f};
    for (int i = 0; i < 2; ++i) {
        corner[i] = rs_transform_point(&place[i], rs_vec3(-0.5f, 0, -0.5f));
        edge_x[i] = rs_sub(rs_transform_point(&place[i], rs_vec3(0.5f, 0, -0.5f)), corner[i]);
        edge_z[i] = rs_sub(rs_transform_point(&place[i], rs_vec3(-0.5f, 0, 0.5f)), corner[i]);
        normal[i] = rs_normalize(rs_transform_normal(&place[i], rs_vec3(0, -1, 0)));
    }
    enum { M = 200000 };
    double sum[4][3] = {{0}}, sum2[4][3] = {{0}}, cosines[2][BINS] = {{0}}, cells[2][BINS] = {{0}};
    uint32_t off = 0, wrong_side = 0, bad_weight = 0, bad_vertex = 0, refused = 0;
    for (uint32_t k = 0; k < M; ++k) {
        uint32_t key = rs_rng_path_key(29, k, 0);
        RsEmission e;
        if (!rs_light_emit(&v, rs_rng(key, 0, 0), rs_rng(key, 0, 1), rs_rng(key, 0, 2), rs_rng(key, 0, 3),
                           rs_rng(key, 0, 4), rs_rng(key, 0, 5), &e)) {
            ++refused;
            continue;
        }
        uint32_t in = e.instance;
        if (in > 1 || e.light > 3) {
            ++off;
            continue;
        }
        RsVec3 d = rs_sub(e.point.p, corner[in]);
        float a = rs_dot(d, edge_x[in]) / rs_dot(edge_x[in], edge_x[in]);
        float b = rs_dot(d, edge_z[in]) / rs_dot(edge_z[in], edge_z[in]);
        off += fabsf(rs_dot(d, normal[in])) > 1e-4f || a < -1e-5f || a > 1.00001f || b < -1e-5f || b > 1.00001f ||
               rs_length(rs_sub(e.origin, e.point.p)) > 1e-3f;
        cells[in][4 * (int)fminf(3.0f, fmaxf(0.0f, 4.0f * a)) + (int)fminf(3.0f, fmaxf(0.0f, 4.0f * b))] += 1.0;
        float c = rs_dot(e.dir, normal[in]);
        wrong_side += !(c > 0.0f);
        cosines[in][bin(c * c)] += 1.0;
        float pick = v.light_select.power_pmf[e.light];
        bad_weight += !same_vec(e.weight, rs_scale(le, RS_PI * 0.5f * area[in] / pick), 2e-4f);
        bad_vertex += !e.has_vertex || rel(e.vertex_weight, 0.5f * area[in] / pick) > 1e-4f;
        RsVec3 w = rs_sample_uniform_sphere(rs_rng(key, 1, 0), rs_rng(key, 1, 1));
        RsVec3 got = rs_emission_towards(&v, &e, w);
        RsVec3 want = rs_scale(le, fmaxf(0.0f, rs_dot(normal[in], w)));
        bad_vertex += fabsf(got.x - want.x) > 1e-3f || fabsf(got.y - want.y) > 1e-3f || fabsf(got.z - want.z) > 1e-3f;
        for (int ch = 0; ch < 3; ++ch) {
            double x = (&e.weight.x)[ch];
            sum[e.light][ch] += x;
            sum2[e.light][ch] += x * x;
        }
    }
    CHECK(refused == 0 && off == 0, "instanced lamp: %u refused, %u particles off their copy", refused, off);
    CHECK(wrong_side == 0, "instanced lamp: %u particles leave a copy from its back", wrong_side);
    CHECK(bad_weight == 0, "instanced lamp: %u weights not Le pi A_world / P(light)", bad_weight);
    CHECK(bad_vertex == 0, "instanced lamp: %u emission vertices wrong (weight or Le |cos|)", bad_vertex);
    for (int i = 0; i < 2; ++i) {
        check_uniform(cosines[i], i ? "turned copy: cos^2 about its normal" : "moved copy: cos^2 about its normal");
        check_uniform(cells[i], i ? "turned copy: points over a 4 x 4 grid" : "moved copy: points over a 4 x 4 grid");
    }
    for (uint32_t l = 0; l < 4 && l < v.light_count; ++l) {
        uint32_t in = rs_light_instance(v.lights[l]);
        CHECK(in < 2, "entry %u: instance %u", l, in);
        if (in >= 2)
            continue;
        for (int ch = 0; ch < 3; ++ch) {
            double mean = sum[l][ch] / M, sigma = sqrt(fmax(sum2[l][ch] / M - mean * mean, 0.0) / M);
            double want = RS_PI * 0.5 * area[in] * (&le.x)[ch];
            CHECK(fabs(mean - want) <= 5.0 * sigma + 1e-5 * want && sigma < 0.03 * want,
                  "instanced entry %u channel %d: mean weight %.6g, power %.6g (standard error %.3g)", l, ch, mean,
                  want, sigma);
        }
    }
    rs_scene_free(&s);
}

/* A coloured environment map with a hot patch, turned 90 degrees: particles leave from the
 * directions its importance sampling draws, outside the bounding sphere heading in, and their
 * mean weight is pi r^2 times the integral of its radiance over the sphere (quadrature here on
 * a grid of this test's own, through rs_env_radiance). */
static void test_env_map_emission(void)
{
    enum { W = 16, H = 8 };
    float rgb[W * H * 3];
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            int hot = (x == 3 || x == 4) && y == 2, ground = y >= H / 2;
            for (int c = 0; c < 3; ++c) /* hot (20, 15, 10), sky (0.2, 0.3, 0.5), ground (0.05, 0.04, 0.03) */
                rgb[3 * (y * W + x) + c] = hot      ? 20.0f - 5.0f * c
                                           : ground ? 0.05f - 0.01f * c : c < 2 ? 0.2f + 0.1f * c : 0.5f;
        }
    RsError err = {{0}};
    RsScene s;
    rs_scene_init(&s);
    CHECK(rs_env_map_from_rgb(&s.env_map, rgb, W, H, &err) == 0, "%s", err.message);
    s.env.zenith = rs_float4(1.0f, 1.0f, 1.0f, rs_uint_as_float(RS_ENV_MAP));
    s.env.horizon = rs_float4(0.0f, 1.0f, 0.0f, 0.0f); /* turned 90 degrees */
    quad(&s, rs_vec3(0, 0, 0), 3.0f, material(&s, "floor", rs_vec3_splat(0.0f), 0, &err), &err);
    CHECK(rs_scene_build(&s, &err) == 0, "rs_scene_build: %s", err.message);
    RsSceneView v = rs_scene_view(&s);
    CHECK(v.light_count == 1 && v.env_light == 0, "a map alone: %u lights, environment entry %u", v.light_count,
          v.env_light);
    double integral[3] = {0};
    const int qx = 512, qy = 256;
    for (int j = 0; j < qy; ++j) {
        double theta = RS_PI * (j + 0.5) / qy;
        for (int i = 0; i < qx; ++i) {
            double phi = 2.0 * RS_PI * (i + 0.5) / qx;
            RsVec3 d = rs_vec3((float)(sin(theta) * cos(phi)), (float)cos(theta), (float)(sin(theta) * sin(phi)));
            RsVec3 l = rs_env_radiance(&v, d);
            for (int c = 0; c < 3; ++c)
                integral[c] += (&l.x)[c] * sin(theta) * (RS_PI / qy) * (2.0 * RS_PI / qx);
        }
    }
    double r = emit_radius(&v);
    enum { M = 200000 };
    double sum[3] = {0}, sum2[3] = {0}, disc[BINS] = {0};
    Stats* st = calloc(1, sizeof *st);
    uint32_t refused = 0;
    for (uint32_t k = 0; k < M && st; ++k) {
        uint32_t key = rs_rng_path_key(41, k, 0);
        RsEmission e;
        if (!rs_light_emit(&v, rs_rng(key, 0, 0), rs_rng(key, 0, 1), rs_rng(key, 0, 2), rs_rng(key, 0, 3),
                           rs_rng(key, 0, 4), rs_rng(key, 0, 5), &e)) {
            ++refused;
            continue;
        }
        check_from_infinity(&v, &e, st, disc);
        RsVec3 sky = rs_neg(e.dir); /* the weight: L pi r^2 / (the map's density of this direction) */
        float pdf = rs_env_map_pdf(&v.env_map, rs_env_map_from_world(&v.env, &v.env_map, sky));
        st->bad_weight += !same_vec(e.weight, rs_scale(rs_env_radiance(&v, sky), RS_PI * (float)(r * r) / pdf), 2e-3f);
        for (int c = 0; c < 3; ++c)
            sum[c] += (&e.weight.x)[c], sum2[c] += (double)(&e.weight.x)[c] * (&e.weight.x)[c];
    }
    CHECK(st && refused == 0 && st->not_outside + st->not_inward + st->bad_direction + st->off_light == 0,
          "environment map: %u refused, or from inside the bounding sphere, not heading in or with a vertex", refused);
    CHECK(st && st->bad_weight == 0, "environment map: %u weights not L pi r^2 / p(direction)", st ? st->bad_weight : 0);
    check_uniform(disc, "environment map: squared distance from the axis over the disc");
    free(st);
    for (int c = 0; c < 3; ++c) {
        double mean = sum[c] / M, sigma = sqrt(fmax(sum2[c] / M - mean * mean, 0.0) / M);
        double want = RS_PI * r * r * integral[c];
        CHECK(fabs(mean - want) <= 5.0 * sigma + 2e-3 * want && sigma < 0.03 * want,
              "environment map channel %d: mean weight %.6g, pi r^2 x integral of L %.6g (standard error %.3g)", c,
              mean, want, sigma);
    }
    rs_scene_free(&s);
}

int main(void)
{
    RsScene s;
    build_scene(&s);
    RsSceneView v = rs_scene_view(&s);
    Stats* st = calloc(1, sizeof *st);
    CHECK(st != NULL, "out of memory");
    if (st && v.light_count <= MAX_LIGHTS) {
        draw(&v, st);
        test_choice_and_power(&v, st);
        test_where_and_which_way(st);
        test_vertex(&v, st);
    }
    free(st);
    rs_scene_free(&s);
    test_instanced();
    test_env_map_emission();
    return rs_test_finish("test_light_emit");
}
