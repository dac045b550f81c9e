/* test_env_map.c - environment maps: the image read as it was written, the mapping, and
 * importance sampling that follows the image (unit suite). Host C11.
 *
 *   test_env_map SKY_HDR
 *
 * 1. SKY_HDR (tools/make_textures.py's sky.hdr) loads as 128x64 texels whose values are the
 *    generator's within RGBE's 1% quantisation: sky, ground and sun.
 * 2. Mapping: uv -> direction -> uv is the identity; the lookup at a texel centre is that texel;
 *    turning the environment by `rotation` turns its radiance and its density alike.
 * 3. The CDF: the density integrates to 1 over the sphere (quadrature on a 4x finer grid); every
 *    cell's probability is the integral of the bilinear radiance's luminance times sin(theta)
 *    over the cell, computed here by 16x16 midpoint quadrature of the lookup (an independent
 *    route to rs_env_cdf_weight's closed form); the pdf a sample reports is rs_env_map_pdf of
 *    its direction.
 * 4. Chi-square: 400k samples binned by cell against those probabilities (p >= 0.01).
 * 5. Unbiasedness where the image is sharp: a map black but for one texel has nonzero density
 *    wherever its bilinear radiance is nonzero.
 * 6. Irradiance of the sky on an upward surface: importance sampling (256k samples) agrees with
 *    a 2048x1024 quadrature of the lookup within 4 standard errors, and NEE through
 *    rs_light_sample reports the density rs_light_pdf_env gives (MIS needs both to agree).
 * 7. Row mapping (Mitsuba 3's: row y of H at v = y / (H - 1), the first row the zenith, the last
 *    the nadir): a 16x9 map dark but for row 2 shines exactly that row's value 45 degrees from
 *    the zenith, half of it half-way to rows 1 and 3 and nothing at rows 1 and 3; every sampled
 *    direction lies in the cells of rows 1 to 3, and the irradiance it gives an upward surface matches
 *    the closed form of that ring of light (its hat profile in theta integrated by quadrature
 *    that does not use the map's code). Rows 0 and 8 alone light straight up and straight down.
 */
#include <stdlib.h>
#include <string.h>

#include "host/scene/env_map.h"
#include "host/scene/scene.h"
#include "kernel/light/light.h"
#include "tests/chi_square.h"
#include "tests/test.h"

static double frand(uint64_t* s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*s >> 11) * (1.0 / 9007199254740992.0);
}

static void check_sky_file(const char* path)
{
    RsEnvMap m;
    memset(&m, 0, sizeof m);
    RsError err = {0};
    CHECK(rs_env_map_load(&m, path, "test", &err) == 0, "%s", err.message);
    CHECK(m.width == 128 && m.height == 64, "sky.hdr is %ux%u", m.width, m.height);
    if (m.width != 128 || m.height != 64) {
        rs_env_map_free(&m);
        return;
    }
    /* the zenith row is blue, the last row the ground's (0.16, 0.13, 0.1), the sun 60 */
    RsFloat4 top = m.texels[0], ground = m.texels[63 * 128];
    CHECK(top.z > top.x * 2.5f, "zenith (%g, %g, %g) is not blue", top.x, top.y, top.z);
    CHECK_NEAR(ground.x, 0.16, 0.16 * 0.01);
    CHECK_NEAR(ground.z, 0.10, 0.10 * 0.01);
    float brightest = 0.0f;
    for (uint32_t i = 0; i < 128 * 64; ++i)
        brightest = rs_maxf(brightest, m.texels[i].x);
    CHECK_NEAR(brightest, 60.0, 60.0 * 0.01);
    rs_env_map_free(&m);
}

static void check_mapping(const RsEnvMap* m)
{
    RsEnvMapView v = rs_env_map_view(m);
    uint64_t seed = 7;
    double worst = 0.0;
    for (int i = 0; i < 10000; ++i) {
        float u = (float)frand(&seed), w = (float)(0.001 + 0.998 * frand(&seed)), s, u2, w2;
        rs_env_map_uv(rs_env_map_direction(u, w, &s), &u2, &w2);
        double du = fabs(u - u2);
        worst = fmax(worst, fmax(fmin(du, 1.0 - du), fabs(w - w2)));
    }
    CHECK(worst < 1e-5, "uv -> direction -> uv is off by %.3g", worst);
    for (uint32_t y = 0; y < m->height; y += 7)
        for (uint32_t x = 0; x < m->width; x += 5) {
            RsVec3 c = rs_env_map_lookup(&v, (x + 0.5f) / m->width, (float)y / (m->height - 1));
            RsFloat4 t = m->texels[y * m->width + x];
            CHECK(fabsf(c.x - t.x) <= 1e-5f * (1.0f + t.x) && fabsf(c.z - t.z) <= 1e-5f * (1.0f + t.z),
                  "lookup at the centre of texel (%u, %u) is not the texel", x, y);
        }
}

/* Cell probabilities by brute force: 16x16 midpoint quadrature of the lookup's luminance over
 * each cell's (u, v) rectangle, times its area and sin(theta) at its centre. */
static double* brute_force_cells(const RsEnvMapView* v)
{
    double* p = calloc((size_t)v->width * v->height, sizeof *p);
    double total = 0.0;
    for (uint32_t y = 0; y < v->height; ++y) {
        float lo, hi;
        rs_env_cdf_row_span(v, y, &lo, &hi);
        for (uint32_t x = 0; x < v->width; ++x) {
            double sum = 0.0;
            for (int j = 0; j < 16; ++j)
                for (int i = 0; i < 16; ++i)
                    sum += rs_luminance(rs_env_map_lookup(v, (x + (i + 0.5f) / 16) / v->width,
                                                          lo + (hi - lo) * (j + 0.5f) / 16));
            p[y * v->width + x] = sum * (hi - lo) * sin(RS_PI * 0.5 * (lo + hi));
            total += p[y * v->width + x];
        }
    }
    for (size_t i = 0; i < (size_t)v->width * v->height; ++i)
        p[i] /= total;
    return p;
}

static void check_sampling(const RsEnvMap* m, const char* name)
{
    RsEnvMapView v = rs_env_map_view(m);
    uint32_t cells = v.width * v.height;
    /* the density integrates to 1: sum of pdf * dOmega on a 4x finer grid of each cell */
    double integral = 0.0;
    for (uint32_t y = 0; y < v.height; ++y) {
        float lo, hi;
        rs_env_cdf_row_span(&v, y, &lo, &hi);
        for (uint32_t j = 0; j < 4; ++j)
            for (uint32_t x = 0; x < 4 * v.width; ++x) {
                float s;
                RsVec3 d = rs_env_map_direction((x + 0.5f) / (4 * v.width), lo + (hi - lo) * (j + 0.5f) / 4, &s);
                integral += rs_env_map_pdf(&v, d) * s * (2.0 * RS_PI / (4 * v.width)) * (RS_PI * (hi - lo) / 4);
            }
    }
    CHECK(fabs(integral - 1.0) < 2e-3, "%s: the density integrates to %.5f over the sphere", name, integral);

    double* expected = brute_force_cells(&v);
    double worst = 0.0;
    for (uint32_t i = 0; i < cells; ++i) {
        double p = rs_cdf_cell(v.marginal_cdf, i / v.width) * rs_cdf_cell(v.row_cdf + (i / v.width) * v.width, i % v.width);
        worst = fmax(worst, fabs(p - expected[i]) / (expected[i] + 1e-7));
    }
    CHECK(worst < 2e-3, "%s: a cell's probability differs from its brute-force integral by %.3g (relative)", name,
          worst);

    enum { SAMPLES = 400000 };
    double* observed = calloc(cells, sizeof *observed);
    uint64_t seed = 11;
    uint32_t pdf_mismatch = 0;
    for (uint32_t i = 0; i < SAMPLES; ++i) {
        float pdf;
        RsVec3 d = rs_env_map_sample(&v, (float)frand(&seed), (float)frand(&seed), &pdf);
        if (!(pdf > 0.0f))
            continue;
        pdf_mismatch += fabsf(rs_env_map_pdf(&v, d) - pdf) > 1e-3f * pdf;
        float u, w;
        rs_env_map_uv(d, &u, &w);
        uint32_t x = (uint32_t)rs_minf(u * v.width, v.width - 1), y = rs_env_cdf_row_of(&v, w);
        observed[y * v.width + x] += 1.0;
    }
    /* a sample on a cell's edge can map back into its neighbour: allow a few */
    CHECK(pdf_mismatch < SAMPLES / 2000, "%s: %u of %d samples report a pdf other than rs_env_map_pdf's", name,
          pdf_mismatch, SAMPLES);
    for (uint32_t i = 0; i < cells; ++i)
        expected[i] *= SAMPLES;
    double p = rs_test_chi_square_p(observed, expected, (int)cells);
    CHECK(p >= 0.01, "%s: chi-square p-value %.3g: samples do not follow the cells' probabilities", name, p);
    printf("test_env_map: %s: integral %.5f, worst cell %.2g, chi-square p %.3g\n", name, integral, worst, p);
    free(observed);
    free(expected);
}

static void check_single_texel(void)
{
    enum { W = 16, H = 8 };
    float rgb[W * H * 3] = {0};
    rgb[(3 * W + 5) * 3 + 0] = rgb[(3 * W + 5) * 3 + 1] = rgb[(3 * W + 5) * 3 + 2] = 1.0f;
    RsEnvMap m;
    memset(&m, 0, sizeof m);
    RsError err = {0};
    CHECK(rs_env_map_from_rgb(&m, rgb, W, H, &err) == 0 && rs_env_map_build_cdf(&m, &err) == 0, "%s", err.message);
    RsEnvMapView v = rs_env_map_view(&m);
    uint32_t lit = 0, unsampled = 0;
    for (uint32_t y = 0; y < 8 * H; ++y)
        for (uint32_t x = 0; x < 8 * W; ++x) {
            float s, u = (x + 0.5f) / (8 * W), w = (y + 0.5f) / (8 * H);
            RsVec3 d = rs_env_map_direction(u, w, &s);
            if (rs_luminance(rs_env_map_lookup(&v, u, w)) > 0.0f) {
                ++lit;
                unsampled += !(rs_env_map_pdf(&v, d) > 0.0f);
            }
        }
    CHECK(lit > 0 && unsampled == 0, "one-texel map: %u of %u lit points have density 0", unsampled, lit);
    check_sampling(&m, "one texel");
    rs_env_map_free(&m);
}

/* A scene view of just an environment map turned by `degrees`, its CDF built. */
static void map_scene(RsScene* s, const RsEnvMap* m, float degrees)
{
    rs_scene_init(s);
    RsError err = {0};
    size_t cells = (size_t)m->width * m->height;
    float* rgb = malloc(cells * 3 * sizeof *rgb);
    for (size_t i = 0; i < cells; ++i) {
        rgb[3 * i] = m->texels[i].x;
        rgb[3 * i + 1] = m->texels[i].y;
        rgb[3 * i + 2] = m->texels[i].z;
    }
    CHECK(rs_env_map_from_rgb(&s->env_map, rgb, m->width, m->height, &err) == 0, "%s", err.message);
    free(rgb);
    float a = degrees * RS_PI / 180.0f;
    s->env.zenith = rs_float4(1.0f, 1.0f, 1.0f, rs_uint_as_float(RS_ENV_MAP));
    s->env.horizon = rs_float4(cosf(a), sinf(a), 0.0f, 0.0f);
    RsMaterialDesc d = rs_material_desc(RS_MAT_DIFFUSE);
    d.colour = rs_vec3_splat(0.5f);
    int32_t mat = rs_scene_add_material(s, "floor", rs_material_from_desc(&d), &err);
    rs_scene_add_triangle(s, rs_vec3(-1, -10, -1), rs_vec3(1, -10, -1), rs_vec3(0, -10, 1), (uint32_t)mat, &err);
    CHECK(rs_scene_build(s, &err) == 0, "%s", err.message);
}

static void check_irradiance_and_rotation(const RsEnvMap* m)
{
    RsScene s0, s90;
    map_scene(&s0, m, 0.0f);
    map_scene(&s90, m, 90.0f);
    RsSceneView v0 = rs_scene_view(&s0), v90 = rs_scene_view(&s90);
    /* a direction turned by +90 degrees about +y sees in s90 what it saw in s0 */
    uint64_t seed = 3;
    RsLightContext origin = rs_light_context(rs_vec3(0, 0, 0), rs_vec3(0, 1, 0));
    int rotation_ok = 1;
    for (int i = 0; i < 1000; ++i) {
        RsVec3 d = rs_sample_uniform_sphere((float)frand(&seed), (float)frand(&seed));
        RsVec3 turned = rs_vec3(d.z, d.y, -d.x); /* +90 degrees about +y, counter-clockwise from above */
        RsVec3 a = rs_env_radiance(&v0, d), b = rs_env_radiance(&v90, turned);
        rotation_ok &= fabsf(a.x - b.x) <= 1e-4f * (1.0f + a.x);
        rotation_ok &= fabsf(rs_light_pdf_env(&v0, origin, d) - rs_light_pdf_env(&v90, origin, turned)) <=
                       1e-3f * rs_light_pdf_env(&v0, origin, d) + 1e-6f;
    }
    CHECK(rotation_ok, "a turned environment does not turn its radiance and density with it");

    /* irradiance on an upward surface: quadrature of the lookup */
    double quadrature = 0.0;
    for (uint32_t y = 0; y < 1024; ++y)
        for (uint32_t x = 0; x < 2048; ++x) {
            float sin_theta;
            RsVec3 d = rs_env_map_direction((x + 0.5f) / 2048, (y + 0.5f) / 1024, &sin_theta);
            if (d.y > 0.0f)
                quadrature += rs_luminance(rs_env_radiance(&v90, d)) * d.y * sin_theta;
        }
    quadrature *= (2.0 * RS_PI / 2048) * (RS_PI / 1024);
    enum { N = 256000 };
    double sum = 0.0, sum2 = 0.0;
    uint32_t mismatched = 0;
    for (int i = 0; i < N; ++i) {
        RsLightSample ls;
        double f = 0.0;
        if (rs_light_sample(&v90, origin, (float)frand(&seed), (float)frand(&seed), (float)frand(&seed),
                            &ls) &&
            ls.at_infinity) {
            mismatched += fabsf(rs_light_pdf_env(&v90, origin, ls.dir) - ls.pdf) > 1e-3f * ls.pdf;
            f = ls.dir.y > 0.0f ? rs_luminance(ls.radiance) * ls.dir.y / ls.pdf : 0.0;
        }
        sum += f;
        sum2 += f * f;
    }
    double mean = sum / N, se = sqrt(fmax(0.0, sum2 / N - mean * mean) / N);
    CHECK(fabs(mean - quadrature) <= 4.0 * se + 1e-3 * quadrature,
          "irradiance by importance sampling %.5f +- %.5f, by quadrature %.5f", mean, se, quadrature);
    CHECK(mismatched < N / 2000, "%u of %d light samples report a density other than rs_light_pdf_env's", mismatched, N);
    printf("test_env_map: irradiance %.5f +- %.5f (quadrature %.5f), env selection %.3f\n", mean, se, quadrature,
           rs_light_select_pmf(&v90, origin, v90.env_light));
    rs_scene_free(&s0);
    rs_scene_free(&s90);
}

/* A 16x9 map dark but for row `row`, at 1. */
static void one_row_map(RsEnvMap* m, uint32_t row)
{
    enum { W = 16, H = 9 };
    float rgb[W * H * 3] = {0};
    for (uint32_t i = row * W * 3; i < (row + 1) * W * 3; ++i)
        rgb[i] = 1.0f;
    memset(m, 0, sizeof *m);
    RsError err = {0};
    CHECK(rs_env_map_from_rgb(m, rgb, W, H, &err) == 0 && rs_env_map_build_cdf(m, &err) == 0, "%s", err.message);
}

static float radiance_at_theta(const RsEnvMapView* v, double theta_degrees, float u)
{
    float s;
    RsVec3 d = rs_env_map_direction(u, (float)(theta_degrees / 180.0), &s);
    float uu, vv;
    rs_env_map_uv(d, &uu, &vv);
    return rs_env_map_lookup(v, uu, vv).x;
}

static void check_row_mapping(void)
{
    RsEnvMap m;
    one_row_map(&m, 2); /* v = 2 / 8: 45 degrees from the zenith */
    RsEnvMapView v = rs_env_map_view(&m);
    for (int i = 0; i < 8; ++i) {
        float u = (i + 0.3f) / 8;
        CHECK_NEAR(radiance_at_theta(&v, 45.0, u), 1.0, 1e-4);
        CHECK_NEAR(radiance_at_theta(&v, 45.0 - 11.25, u), 0.5, 1e-4);
        CHECK_NEAR(radiance_at_theta(&v, 45.0 + 11.25, u), 0.5, 1e-4);
        CHECK_NEAR(radiance_at_theta(&v, 22.5, u), 0.0, 1e-4);
        CHECK_NEAR(radiance_at_theta(&v, 67.5, u), 0.0, 1e-4);
    }
    /* importance sampling: only the ring's band, and its irradiance on an upward surface */
    enum { N = 200000 };
    uint64_t seed = 5;
    double sum = 0.0, sum2 = 0.0;
    int outside = 0;
    for (int i = 0; i < N; ++i) {
        float pdf;
        RsVec3 d = rs_env_map_sample(&v, (float)frand(&seed), (float)frand(&seed), &pdf);
        double theta = acos(d.y) * 180.0 / RS_PI;
        outside += theta < 11.25 - 1e-3 || theta > 78.75 + 1e-3; /* the cells of rows 1 to 3 */
        double f = pdf > 0.0f ? rs_env_map_lookup(&v, 0.5f, (float)(theta / 180.0)).x * d.y / pdf : 0.0;
        sum += f;
        sum2 += f * f;
    }
    double exact = 0.0; /* 2 pi * integral of hat(theta) cos sin over [22.5, 67.5] degrees */
    for (int i = 0; i < 100000; ++i) {
        double t = (22.5 + 45.0 * (i + 0.5) / 100000) * RS_PI / 180.0, c = RS_PI / 4;
        exact += (1.0 - fabs(t - c) / (RS_PI / 8)) * cos(t) * sin(t) * (RS_PI / 4 / 100000);
    }
    exact *= 2.0 * RS_PI;
    double mean = sum / N, se = sqrt(fmax(0.0, sum2 / N - mean * mean) / N);
    CHECK(outside == 0, "%d samples of a ring at 45 degrees fell outside the cells of rows 1 to 3", outside);
    CHECK(fabs(mean - exact) <= 4.0 * se + 1e-4 * exact, "ring irradiance %.5f +- %.5f, closed form %.5f", mean, se,
          exact);
    rs_env_map_free(&m);
    one_row_map(&m, 0);
    v = rs_env_map_view(&m);
    CHECK_NEAR(radiance_at_theta(&v, 0.0, 0.3f), 1.0, 1e-5);
    CHECK_NEAR(radiance_at_theta(&v, 180.0, 0.3f), 0.0, 1e-5);
    rs_env_map_free(&m);
    one_row_map(&m, 8);
    v = rs_env_map_view(&m);
    CHECK_NEAR(radiance_at_theta(&v, 180.0, 0.3f), 1.0, 1e-5);
    CHECK_NEAR(radiance_at_theta(&v, 0.0, 0.3f), 0.0, 1e-5);
    check_sampling(&m, "nadir row");
    rs_env_map_free(&m);
    printf("test_env_map: ring at 45 degrees: irradiance %.5f +- %.5f, closed form %.5f\n", mean, se, exact);
}

int main(int argc, char** argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_env_map SKY_HDR\n");
        return 2;
    }
    check_sky_file(argv[1]);
    RsEnvMap sky;
    memset(&sky, 0, sizeof sky);
    RsError err = {0};
    CHECK(rs_env_map_load(&sky, argv[1], "test", &err) == 0 && rs_env_map_build_cdf(&sky, &err) == 0, "%s",
          err.message);
    if (sky.width) {
        check_mapping(&sky);
        check_sampling(&sky, "sky.hdr");
        check_irradiance_and_rotation(&sky);
    }
    check_single_texel();
    check_row_mapping();
    rs_env_map_free(&sky);
    return rs_test_finish("test_env_map");
}
