/* test_pbrt_spectra.c - the pbrt-v4 importer's spectra and transforms (host suite). Host C11.
 *
 * Spectra: the CIE tables and the conversions must give white for white (a constant reflectance,
 * D65 as a light, a 6504 K blackbody: D65's correlated colour temperature), warm colours for
 * warm light (2000 K, illuminant A), luminance 1 for every light spectrum, and named glasses their
 * catalogue index. Transforms: pbrt's LookAt is camera-from-world with `up x dir` as camera +x,
 * Rotate is right-handed, Transform reads 16 numbers column by column, and inversion round-trips.
 */
#include <math.h>
#include <stdio.h>

#include "host/import/pbrt/pbrt_spectra.h"
#include "host/import/pbrt/pbrt_transform.h"
#include "tests/test.h"

static double luminance(RsVec3 c) { return 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z; }

static void check_white(RsVec3 c, double tolerance, const char* what)
{
    CHECK(fabs(c.x - 1.0) < tolerance && fabs(c.y - 1.0) < tolerance && fabs(c.z - 1.0) < tolerance,
          "%s: (%g, %g, %g), expected white within %g", what, c.x, c.y, c.z, tolerance);
}

static void test_spectra(void)
{
    const double flat[4] = {360.0, 1.0, 830.0, 1.0};
    check_white(rs_pbrt_spectrum_rgb(flat, 4, RS_PBRT_REFLECTANCE), 0.01, "a constant reflectance of 1");
    const double half[4] = {360.0, 0.5, 830.0, 0.5};
    RsVec3 grey = rs_pbrt_spectrum_rgb(half, 4, RS_PBRT_REFLECTANCE);
    CHECK(fabs(grey.x - 0.5) < 0.005 && fabs(grey.y - 0.5) < 0.005 && fabs(grey.z - 0.5) < 0.005,
          "a constant reflectance of 0.5: (%g, %g, %g)", grey.x, grey.y, grey.z);
    check_white(rs_pbrt_blackbody(6504.0), 0.05, "a 6504 K blackbody");
    RsVec3 warm = rs_pbrt_blackbody(2000.0);
    CHECK(warm.x > 2.0 * warm.z, "a 2000 K blackbody is red, not blue: (%g, %g, %g)", warm.x, warm.y, warm.z);
    for (double k = 1000.0; k <= 20000.0; k *= 1.7)
        CHECK(fabs(luminance(rs_pbrt_blackbody(k)) - 1.0) < 0.01, "blackbody %g K: luminance %g", k,
              luminance(rs_pbrt_blackbody(k)));
    /* a light's spectrum is normalised: a flat light of any level has luminance 1 */
    const double bright[4] = {360.0, 40.0, 830.0, 40.0};
    CHECK(fabs(luminance(rs_pbrt_spectrum_rgb(bright, 4, RS_PBRT_ILLUMINANT)) - 1.0) < 0.01, "a flat light spectrum");
    int seen = 0;
    for (int i = 0; rs_pbrt_illuminants[i].name; ++i, ++seen) {
        RsVec3 c = rs_vec3(rs_pbrt_illuminants[i].rgb[0], rs_pbrt_illuminants[i].rgb[1], rs_pbrt_illuminants[i].rgb[2]);
        CHECK(fabs(luminance(c) - 1.0) < 0.01, "%s: luminance %g", rs_pbrt_illuminants[i].name, luminance(c));
        if (i == 2)
            check_white(c, 0.005, "stdillum-D65");
        if (i == 0)
            CHECK(c.x > 3.0 * c.z, "stdillum-A is warm: (%g, %g, %g)", c.x, c.y, c.z);
    }
    CHECK(seen == 15, "15 named illuminants (A, D50, D65, F1..F12), got %d", seen);
    /* the colour-matching functions peak where the CIE tables do */
    int peak = 0;
    for (int i = 1; i < RS_PBRT_CIE_SAMPLES; ++i)
        if (rs_pbrt_cie_xyz[i][1] > rs_pbrt_cie_xyz[peak][1])
            peak = i;
    CHECK(360 + 5 * peak == 555, "y-bar peaks at %d nm", 360 + 5 * peak);
    CHECK(fabs(rs_pbrt_glass_ior("glass-BK7") - 1.5168) < 1e-9 && rs_pbrt_glass_ior("glass-nonsense") == 0.0,
          "named glasses");
}

static void test_transforms(void)
{
    const double eye[3] = {0, 0, 5}, look[3] = {0, 0, 0}, up[3] = {0, 1, 0};
    RsPbrtMatrix m, inv;
    CHECK(rs_pbrt_look_at(eye, look, up, &m) == 0, "LookAt");
    CHECK(rs_pbrt_invert(&m, &inv) == 0, "the LookAt matrix inverts");
    const double x[3] = {1, 0, 0}, z[3] = {0, 0, 1}, o[3] = {0, 0, 0};
    double right[3], dir[3], pos[3];
    rs_pbrt_vector(&inv, x, right);
    rs_pbrt_vector(&inv, z, dir);
    rs_pbrt_point(&inv, o, pos);
    /* looking down -z with y up, pbrt's camera +x (the image's right) is world -x */
    CHECK(fabs(right[0] + 1.0) < 1e-12 && fabs(dir[2] + 1.0) < 1e-12 && fabs(pos[2] - 5.0) < 1e-12,
          "camera +x (%g, %g, %g), +z (%g, %g, %g), at (%g, %g, %g)", right[0], right[1], right[2], dir[0], dir[1],
          dir[2], pos[0], pos[1], pos[2]);
    CHECK(rs_pbrt_det3(&m) > 0.0, "LookAt keeps handedness");
    RsPbrtMatrix r = rs_pbrt_rotate(90.0, 0, 0, 1);
    double y[3];
    rs_pbrt_vector(&r, x, y);
    CHECK(fabs(y[0]) < 1e-12 && fabs(y[1] - 1.0) < 1e-12, "Rotate 90 about z takes x to y: (%g, %g, %g)", y[0], y[1],
          y[2]);
    const double columns[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 7, 8, 9, 1};
    RsPbrtMatrix t = rs_pbrt_from_columns(columns);
    CHECK(t.m[0][3] == 7.0 && t.m[1][3] == 8.0 && t.m[2][3] == 9.0 && rs_pbrt_is_affine(&t),
          "Transform's last four numbers are the translation");
    RsPbrtMatrix s = rs_pbrt_scale(2, 2, 2), round;
    RsPbrtMatrix composed = rs_pbrt_mul(&r, &s);
    double scale = 0.0;
    CHECK(rs_pbrt_is_similarity(&composed, &scale) && fabs(scale - 2.0) < 1e-12, "a rotation times 2 is a similarity");
    RsPbrtMatrix stretch = rs_pbrt_scale(1, 2, 1);
    CHECK(!rs_pbrt_is_similarity(&stretch, &scale), "a stretch is not a similarity");
    CHECK(rs_pbrt_invert(&composed, &inv) == 0, "invert");
    round = rs_pbrt_mul(&composed, &inv);
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            CHECK(fabs(round.m[i][j] - (i == j ? 1.0 : 0.0)) < 1e-12, "M M^-1 [%d][%d] = %g", i, j, round.m[i][j]);
}

int main(void)
{
    test_spectra();
    test_transforms();
    return rs_test_finish("test_pbrt_spectra");
}
