/* test_env_octahedral.c - equal-area octahedral environment maps (pbrt-v4's image infinite
 * lights): the mapping, the wrap across the square's borders, and importance sampling through the
 * 2D CDF (unit suite). Host C11.
 *
 * 1. Mapping: known points (centre +z, corners -z, edge midpoints +-x and +-y); square ->
 *    sphere -> square and sphere -> square -> sphere are the identity; uniform points of the
 *    square land uniformly on the sphere (z and the azimuth each in 32 equal bins, chi-square):
 *    the mapping keeps area, independently of the code under test's own claims.
 * 2. Wrap: radiance of a random 16x16 map is continuous across the square's folded borders
 *    (directions a hair apart on either side of a seam see the same radiance), and the lookup at
 *    a texel's centre is that texel.
 * 3. The CDF: the density integrates to 1 over the sphere; every cell's probability is the
 *    integral of the lookup's luminance over its square (16x16 midpoint quadrature, no
 *    sin(theta): equal area); a sample reports rs_env_map_pdf of its direction; 400k samples
 *    binned by cell pass chi-square (p >= 0.01). Maps: random 16x16, random 7x5 (any size
 *    works; pbrt-v4 asks for square ones), one lit texel on the border.
 * 4. Unbiasedness at a sharp map: wherever the one-texel map's bilinear radiance is nonzero,
 *    the density is too.
 * 5. The frame: in a scene whose octahedral map is turned and mirrored by an orthogonal frame,
 *    a one-texel "sun" is seen from the world direction frame^T * (its map direction), NEE draws
 *    directions there, and rs_light_sample reports the density rs_light_pdf_env gives (MIS).
 */
#include <stdlib.h>
#include <string.h>

#include "host/scene/env_map.h"
#include "host/scene/scene.h"
#include "kernel/light/light.h"
#include "tests/chi_square.h"
#include "tests/test.h"

static const double identity[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};

static double frand(uint64_t* s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*s >> 11) * (1.0 / 9007199254740992.0);
}

static int near3(RsVec3 a, RsVec3 b, float eps)
{
    return fabsf(a.x - b.x) <= eps && fabsf(a.y - b.y) <= eps && fabsf(a.z - b.z) <= eps;
}

static void check_mapping(void)
{
    CHECK(near3(rs_equal_area_square_to_sphere(0.5f, 0.5f), rs_vec3(0, 0, 1), 1e-6f), "the centre is not +z");
    CHECK(near3(rs_equal_area_square_to_sphere(0.0f, 0.0f), rs_vec3(0, 0, -1), 1e-6f), "corner (0, 0) is not -z");
    CHECK(near3(rs_equal_area_square_to_sphere(1.0f, 1.0f), rs_vec3(0, 0, -1), 1e-6f), "corner (1, 1) is not -z");
    CHECK(near3(rs_equal_area_square_to_sphere(1.0f, 0.5f), rs_vec3(1, 0, 0), 1e-6f), "(1, 0.5) is not +x");
    CHECK(near3(rs_equal_area_square_to_sphere(0.0f, 0.5f), rs_vec3(-1, 0, 0), 1e-6f), "(0, 0.5) is not -x");
    CHECK(near3(rs_equal_area_square_to_sphere(0.5f, 1.0f), rs_vec3(0, 1, 0), 1e-6f), "(0.5, 1) is not +y");
    CHECK(near3(rs_equal_area_square_to_sphere(0.5f, 0.0f), rs_vec3(0, -1, 0), 1e-6f), "(0.5, 0) is not -y");
    uint64_t seed = 5;
    double worst_uv = 0.0, worst_dir = 0.0, worst_len = 0.0;
    enum { N = 200000, BINS = 32 };
    double z_bins[BINS] = {0}, phi_bins[BINS] = {0}, expected[BINS];
    for (int i = 0; i < N; ++i) {
        float u = (float)frand(&seed), v = (float)frand(&seed), u2, v2;
        RsVec3 d = rs_equal_area_square_to_sphere(u, v);
        worst_len = fmax(worst_len, fabs(rs_length(d) - 1.0));
        z_bins[(int)fmin(BINS - 1, (d.z + 1.0) * 0.5 * BINS)] += 1;
        phi_bins[(int)fmin(BINS - 1, (atan2(d.y, d.x) + RS_PI) / (2 * RS_PI) * BINS)] += 1;
        rs_equal_area_sphere_to_square(d, &u2, &v2);
        if (fabsf(fabsf(u - 0.5f) + fabsf(v - 0.5f) - 0.5f) > 1e-3f) /* off the equator's fold */
            worst_uv = fmax(worst_uv, fmax(fabs(u - u2), fabs(v - v2)));
        RsVec3 e = rs_sample_uniform_sphere((float)frand(&seed), (float)frand(&seed));
        rs_equal_area_sphere_to_square(e, &u2, &v2);
        RsVec3 back = rs_equal_area_square_to_sphere(u2, v2);
        worst_dir = fmax(worst_dir, rs_length(rs_sub(back, e)));
    }
    CHECK(worst_len < 1e-5, "square -> sphere gives directions %.3g off unit length", worst_len);
    CHECK(worst_uv < 1e-4, "square -> sphere -> square is off by %.3g", worst_uv);
    CHECK(worst_dir < 1e-4, "sphere -> square -> sphere is off by %.3g", worst_dir);
    for (int i = 0; i < BINS; ++i)
        expected[i] = (double)N / BINS;
    double pz = rs_test_chi_square_p(z_bins, expected, BINS), pphi = rs_test_chi_square_p(phi_bins, expected, BINS);
    CHECK(pz >= 0.01 && pphi >= 0.01, "uniform square points are not uniform on the sphere: p %.3g (z), %.3g (phi)", pz,
          pphi);
    printf("test_env_octahedral: round trips %.2g / %.2g, uniformity p %.3g (z) %.3g (phi)\n", worst_uv, worst_dir, pz,
           pphi);
}

static void random_map(RsEnvMap* m, uint32_t w, uint32_t h, uint64_t seed)
{
    float* rgb = malloc((size_t)w * h * 3 * sizeof *rgb);
    for (size_t i = 0; i < (size_t)w * h * 3; ++i)
        rgb[i] = (float)frand(&seed) * (frand(&seed) < 0.02 ? 50.0f : 1.0f);
    RsError err = {0};
    CHECK(rs_env_map_from_rgb(m, rgb, w, h, &err) == 0 && rs_env_map_set_octahedral(m, identity, "test", &err) == 0 &&
              rs_env_map_build_cdf(m, &err) == 0,
          "%s", err.message);
    free(rgb);
}

static void check_wrap(const RsEnvMap* m)
{
    RsEnvMapView v = rs_env_map_view(m);
    for (uint32_t y = 0; y < m->height; ++y)
        for (uint32_t x = 0; x < m->width; ++x) {
            RsVec3 c = rs_env_map_lookup(&v, (x + 0.5f) / m->width, (y + 0.5f) / m->height);
            RsFloat4 t = m->texels[y * m->width + x];
            CHECK(fabsf(c.x - t.x) <= 1e-5f * (1.0f + t.x), "lookup at the centre of texel (%u, %u) is not the texel", x,
                  y);
        }
    /* seams: the lower hemisphere's x = 0 and y = 0 planes are the square's borders */
    uint64_t seed = 9;
    double worst = 0.0, scale = 0.0;
    for (int i = 0; i < 4000; ++i) {
        float a = (float)(frand(&seed) * 2.0 - 1.0), z = -(float)frand(&seed);
        float r = sqrtf(1.0f - z * z) * (1.0f - 1e-9f), eps = 2e-5f;
        RsVec3 p, q;
        if (i & 1) { /* across x = 0 */
            p = rs_normalize(rs_vec3(eps, copysignf(r, a), z));
            q = rs_normalize(rs_vec3(-eps, copysignf(r, a), z));
        } else { /* across y = 0 */
            p = rs_normalize(rs_vec3(copysignf(r, a), eps, z));
            q = rs_normalize(rs_vec3(copysignf(r, a), -eps, z));
        }
        RsVec3 lp = rs_env_map_eval(&v, p), lq = rs_env_map_eval(&v, q);
        worst = fmax(worst, fabs(lp.x - lq.x) + fabs(lp.y - lq.y) + fabs(lp.z - lq.z));
        scale = fmax(scale, lp.x);
    }
    CHECK(worst < 1e-2 * scale, "radiance jumps by %.3g (of up to %.3g) across the square's folded border", worst,
          scale);
}

static void check_sampling(const RsEnvMap* m, const char* name)
{
    RsEnvMapView v = rs_env_map_view(m);
    uint32_t w = v.width, h = v.height, cells = w * h;
    double integral = 0.0; /* the density over the sphere: a 4x finer grid of the square, each 4 pi / n */
    for (uint32_t y = 0; y < 4 * h; ++y)
        for (uint32_t x = 0; x < 4 * w; ++x)
            integral += rs_env_map_pdf(&v, rs_equal_area_square_to_sphere((x + 0.5f) / (4 * w), (y + 0.5f) / (4 * h)));
    integral *= 4.0 * RS_PI / (16.0 * cells);
    CHECK(fabs(integral - 1.0) < 2e-3, "%s: the density integrates to %.5f over the sphere", name, integral);

    double* expected = calloc(cells, sizeof *expected);
    double total = 0.0;
    for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x) {
            double sum = 0.0;
            for (int j = 0; j < 16; ++j)
                for (int i = 0; i < 16; ++i)
                    sum += rs_luminance(rs_env_map_lookup(&v, (x + (i + 0.5f) / 16) / w, (y + (j + 0.5f) / 16) / h));
            expected[y * w + x] = sum;
            total += sum;
        }
    double worst = 0.0;
    for (uint32_t i = 0; i < cells; ++i) {
        expected[i] /= total;
        double p = rs_cdf_cell(v.marginal_cdf, i / w) * rs_cdf_cell(v.row_cdf + (i / w) * w, i % w);
        worst = fmax(worst, fabs(p - expected[i]) / (expected[i] + 1e-7));
    }
    CHECK(worst < 2e-3, "%s: a cell's probability differs from its brute-force integral by %.3g (relative)", name,
          worst);

    enum { SAMPLES = 400000 };
    double* observed = calloc(cells, sizeof *observed);
    uint64_t seed = 13;
    uint32_t pdf_mismatch = 0;
    for (uint32_t i = 0; i < SAMPLES; ++i) {
        float pdf, u, t;
        RsVec3 d = rs_env_map_sample(&v, (float)frand(&seed), (float)frand(&seed), &pdf);
        if (!(pdf > 0.0f))
            continue;
        pdf_mismatch += fabsf(rs_env_map_pdf(&v, d) - pdf) > 1e-3f * pdf;
        rs_equal_area_sphere_to_square(d, &u, &t);
        uint32_t x = (uint32_t)rs_minf(u * w, w - 1), y = (uint32_t)rs_minf(t * h, h - 1);
        observed[y * w + x] += 1.0;
    }
    CHECK(pdf_mismatch < SAMPLES / 2000, "%s: %u of %d samples report a pdf other than rs_env_map_pdf's", name,
          pdf_mismatch, SAMPLES);
    for (uint32_t i = 0; i < cells; ++i)
        expected[i] *= SAMPLES;
    double p = rs_test_chi_square_p(observed, expected, (int)cells);
    CHECK(p >= 0.01, "%s: chi-square p-value %.3g: samples do not follow the cells' probabilities", name, p);
    printf("test_env_octahedral: %s: integral %.5f, worst cell %.2g, chi-square p %.3g, %u pdf mismatches\n", name,
           integral, worst, p, pdf_mismatch);
    free(observed);
    free(expected);
}

/* A w x w map black but for texel (x, y) at `value`. */
static void one_texel_map(RsEnvMap* m, uint32_t w, uint32_t x, uint32_t y, float value)
{
    float* rgb = calloc((size_t)w * w * 3, sizeof *rgb);
    for (int k = 0; k < 3; ++k)
        rgb[(y * w + x) * 3 + k] = value;
    RsError err = {0};
    CHECK(rs_env_map_from_rgb(m, rgb, w, w, &err) == 0, "%s", err.message);
    free(rgb);
}

static void check_single_texel(void)
{
    RsEnvMap m;
    memset(&m, 0, sizeof m);
    RsError err = {0};
    one_texel_map(&m, 16, 0, 5, 1.0f); /* on the border: its light reaches across the fold */
    CHECK(rs_env_map_set_octahedral(&m, identity, "test", &err) == 0 && rs_env_map_build_cdf(&m, &err) == 0, "%s",
          err.message);
    RsEnvMapView v = rs_env_map_view(&m);
    uint32_t lit = 0, unsampled = 0;
    for (uint32_t y = 0; y < 256; ++y)
        for (uint32_t x = 0; x < 256; ++x) {
            RsVec3 d = rs_equal_area_square_to_sphere((x + 0.5f) / 256, (y + 0.5f) / 256);
            if (rs_luminance(rs_env_map_eval(&v, d)) > 0.0f) {
                ++lit;
                unsampled += !(rs_env_map_pdf(&v, d) > 0.0f);
            }
        }
    CHECK(lit > 0 && unsampled == 0, "one-texel map: %u of %u lit points have density 0", unsampled, lit);
    check_sampling(&m, "one texel on the border");
    rs_env_map_free(&m);
}

/* A scene lit by a 32x32 octahedral map with one bright texel, in a frame that turns and mirrors. */
static void check_frame(void)
{
    RsScene s;
    rs_scene_init(&s);
    RsError err = {0};
    one_texel_map(&s.env_map, 32, 21, 9, 1000.0f);
    /* world-to-map rows: a turn of 30 degrees about +x after mirroring x (det -1) */
    double c = cos(RS_PI / 6), sn = sin(RS_PI / 6);
    const double frame[3][3] = {{-1, 0, 0}, {0, c, -sn}, {0, sn, c}};
    CHECK(rs_env_map_set_octahedral(&s.env_map, frame, "test", &err) == 0, "%s", err.message);
    const double skewed[3][3] = {{1, 0.1, 0}, {0, 1, 0}, {0, 0, 1}};
    RsEnvMap other;
    memset(&other, 0, sizeof other);
    CHECK(rs_env_map_set_octahedral(&other, skewed, "skew.pbrt:3", &err) != 0 && strstr(err.message, "skew.pbrt:3"),
          "a frame that is not orthogonal is accepted");
    s.env.zenith = rs_float4(1.0f, 1.0f, 1.0f, rs_uint_as_float(RS_ENV_MAP));
    RsMaterialDesc d = rs_material_desc(RS_MAT_DIFFUSE);
    int32_t mat = rs_scene_add_material(&s, "floor", rs_material_from_desc(&d), &err);
    rs_scene_add_triangle(&s, rs_vec3(-1, -10, -1), rs_vec3(1, -10, -1), rs_vec3(0, -10, 1), (uint32_t)mat, &err);
    CHECK(rs_scene_build(&s, &err) == 0, "%s", err.message);
    RsSceneView v = rs_scene_view(&s);
    RsVec3 sun_map = rs_equal_area_square_to_sphere(21.5f / 32, 9.5f / 32);
    RsVec3 sun = rs_vec3(0, 0, 0); /* frame^T * sun_map */
    for (int i = 0; i < 3; ++i) {
        float k = i == 0 ? sun_map.x : (i == 1 ? sun_map.y : sun_map.z);
        sun = rs_add(sun, rs_scale(rs_vec3((float)frame[i][0], (float)frame[i][1], (float)frame[i][2]), k));
    }
    CHECK_NEAR(rs_env_radiance(&v, sun).x, 1000.0, 1e-2);
    CHECK(rs_env_radiance(&v, rs_neg(sun)).x == 0.0f, "the sun shines from the opposite side too");
    RsLightContext origin = rs_light_context(rs_vec3(0, 0, 0), rs_vec3(0, 1, 0));
    uint64_t seed = 17;
    uint32_t near_sun = 0, drawn = 0, mismatched = 0;
    for (int i = 0; i < 20000; ++i) {
        RsLightSample ls;
        if (!rs_light_sample(&v, origin, (float)frand(&seed), (float)frand(&seed), (float)frand(&seed), &ls) ||
            !ls.at_infinity)
            continue;
        ++drawn;
        near_sun += rs_dot(ls.dir, sun) > cosf(0.3f); /* a texel is about 0.11 rad across */
        mismatched += fabsf(rs_light_pdf_env(&v, origin, ls.dir) - ls.pdf) > 1e-3f * ls.pdf;
    }
    CHECK(drawn > 0 && near_sun == drawn, "%u of %u environment samples fall away from the sun", drawn - near_sun, drawn);
    CHECK(mismatched < drawn / 1000 + 1, "%u of %u light samples report a density other than rs_light_pdf_env's",
          mismatched, drawn);
    printf("test_env_octahedral: sun at world (%.3f, %.3f, %.3f): %u of %u samples near it\n", sun.x, sun.y, sun.z,
           near_sun, drawn);
    rs_scene_free(&s);
}

int main(void)
{
    check_mapping();
    RsEnvMap m;
    memset(&m, 0, sizeof m);
    random_map(&m, 16, 16, 21);
    check_wrap(&m);
    check_sampling(&m, "random 16x16");
    random_map(&m, 7, 5, 22);
    check_sampling(&m, "random 7x5");
    rs_env_map_free(&m);
    check_single_texel();
    check_frame();
    return rs_test_finish("test_env_octahedral");
}
