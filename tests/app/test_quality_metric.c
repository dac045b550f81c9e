/* test_quality_metric.c - the error measures of bench-quality (unit suite): relMSE and its
 * trimmed form on hand-made images with a firefly, pixels without samples or with non-finite
 * values, every measure over a region mask, the reference's own error from two independent halves
 * (equal and unequal) and from a variance layer against the error it really has, and the log-log
 * time to a target. Host C11. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "app/bench/quality_metric.h"
#include "tests/test.h"

#define N 2000

static uint64_t state = 0x243f6a8885a308d3ull;
static double uniform(void)
{
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return ((state >> 11) + 0.5) / 9007199254740992.0;
}
static double gaussian(void) { return sqrt(-2.0 * log(uniform())) * cos(6.283185307179586 * uniform()); }

static void test_relmse(void)
{
    static float x[3 * N], r[3 * N];
    static double scratch[N];
    for (int i = 0; i < 3 * N; ++i) {
        r[i] = 1.0f;
        x[i] = 1.1f;
    }
    x[3 * 7 + 1] = 31.0f; /* a firefly in one channel of pixel 7 */
    RsQualityError e;
    rs_quality_image_error(x, r, N, NULL, scratch, &e);
    double d = (1.1f - 1.0) * (1.1f - 1.0) / (1.0 + RS_QUALITY_EPSILON);
    double firefly = (2.0 * d + 30.0 * 30.0 / (1.0 + RS_QUALITY_EPSILON)) / 3.0;
    CHECK(e.compared == N && e.trimmed == 2 && e.missing == 0 && e.nonfinite == 0, "counts %llu %llu",
          (unsigned long long)e.compared, (unsigned long long)e.trimmed);
    CHECK_NEAR(e.relmse, ((N - 1) * d + firefly) / N, 1e-9);
    /* the worst 0.1% (2 pixels: the firefly and one ordinary) left out */
    CHECK_NEAR(e.relmse_trimmed, d, 1e-9);

    /* a black reference pixel: the epsilon keeps it finite */
    r[0] = r[1] = r[2] = 0.0f;
    x[0] = x[1] = x[2] = 0.1f;
    rs_quality_image_error(x, r, 1, NULL, scratch, &e);
    CHECK_NEAR(e.relmse, 0.01 / RS_QUALITY_EPSILON, 1e-6);

    /* a film: a pixel without samples reads black, a NaN one black, a NaN reference is left out */
    RsFloat4 film[4] = {{2.0f, 2.0f, 2.0f, 2.0f}, {0.0f, 0.0f, 0.0f, 0.0f}, {NAN, 1.0f, 1.0f, 1.0f},
                        {3.0f, 3.0f, 3.0f, 3.0f}};
    float ref[12] = {1, 1, 1, 1, 1, 1, 1, 1, 1, NAN, 1, 1};
    rs_quality_film_error(film, ref, 4, NULL, scratch, &e);
    CHECK(e.compared == 3 && e.missing == 1 && e.nonfinite == 2, "film counts %llu %llu %llu",
          (unsigned long long)e.compared, (unsigned long long)e.missing, (unsigned long long)e.nonfinite);
    CHECK_NEAR(e.relmse, (0.0 + 1.0 / 1.01 + 1.0 / 1.01) / 3.0, 1e-6);
}

/* A region mask: only its pixels count, in every measure; outside pixels are not even counted
 * as missing or not finite. */
static void test_mask(void)
{
    enum { M = 8 };
    static float x[3 * M], r[3 * M], var[3 * M];
    static uint8_t mask[M];
    static double scratch[M];
    for (int i = 0; i < 3 * M; ++i) {
        r[i] = 1.0f;
        x[i] = i < 3 * 4 ? 1.0f : 3.0f; /* exact in pixels 0-3, off by 2 in 4-7 */
        var[i] = i < 3 * 4 ? 0.0f : 0.5f;
    }
    x[0] = NAN; /* outside the region below */
    for (int i = 0; i < M; ++i)
        mask[i] = (uint8_t)(i >= 2 && i < 6 ? 1 + i : 0); /* any nonzero byte is inside */
    RsQualityError e, whole;
    rs_quality_image_error(x, r, M, mask, scratch, &e);
    rs_quality_image_error(x, r, M, NULL, scratch, &whole);
    double off = 4.0 / (1.0 + RS_QUALITY_EPSILON);
    CHECK(e.compared == 4 && e.nonfinite == 0 && whole.compared == M && whole.nonfinite == 1, "mask counts %llu %llu",
          (unsigned long long)e.compared, (unsigned long long)e.nonfinite);
    CHECK_NEAR(e.relmse, 2.0 * off / 4.0, 1e-9);
    CHECK(fabs(whole.relmse - e.relmse) > 0.1, "the mask changes nothing: %g", whole.relmse);

    RsFloat4 film[M];
    for (int i = 0; i < M; ++i)
        film[i] = (RsFloat4){x[3 * i + 1] * 2.0f, x[3 * i + 1] * 2.0f, x[3 * i + 1] * 2.0f, i == 6 ? 0.0f : 2.0f};
    rs_quality_film_error(film, r, M, mask, scratch, &e);
    CHECK(e.compared == 4 && e.missing == 0, "film mask counts %llu %llu", (unsigned long long)e.compared,
          (unsigned long long)e.missing);
    CHECK_NEAR(e.relmse, 2.0 * off / 4.0, 1e-9);

    rs_quality_variance_error(r, var, M, mask, scratch, &e);
    CHECK(e.compared == 4, "variance mask count %llu", (unsigned long long)e.compared);
    CHECK_NEAR(e.relmse, 2.0 * 0.5 / (1.0 + RS_QUALITY_EPSILON) / 4.0, 1e-9);
    rs_quality_halves_error(r, r, 4, 2, M, mask, scratch, &e);
    CHECK(e.compared == 4 && e.relmse == 0.0, "halves mask %llu %g", (unsigned long long)e.compared, e.relmse);
}

/* Halves of n_a and n_b samples of standard deviation sigma around mu: the estimate against the
 * reference's real error (sigma small against mu sqrt(n), so that dividing by the reference's
 * square rather than mu's changes little). */
static void check_halves(uint32_t na, uint32_t nb, double sigma)
{
    enum { P = 60000 };
    float* whole = malloc(3 * P * sizeof *whole);
    float* half = malloc(3 * P * sizeof *half);
    float* var = malloc(3 * P * sizeof *var);
    double* scratch = malloc(P * sizeof *scratch);
    double mu = 0.8, n = na + nb, truth = 0.0;
    for (int i = 0; i < 3 * P; ++i) {
        double a = mu + sigma / sqrt(na) * gaussian(), b = mu + sigma / sqrt(nb) * gaussian();
        half[i] = (float)a;
        whole[i] = (float)((na * a + nb * b) / n);
        var[i] = (float)(sigma * sigma / n);
        truth += (whole[i] - mu) * (whole[i] - mu) / (mu * mu + RS_QUALITY_EPSILON);
    }
    truth /= 3.0 * P;
    RsQualityError e, v;
    rs_quality_halves_error(whole, half, na + nb, na, P, NULL, scratch, &e);
    rs_quality_variance_error(whole, var, P, NULL, scratch, &v);
    /* relative to mu^2 + eps rather than whole^2 + eps: a second-order difference */
    double expect = sigma * sigma / n / (mu * mu + RS_QUALITY_EPSILON);
    CHECK(fabs(e.relmse / expect - 1.0) < 0.03, "halves %u+%u: estimate %.4g, expected %.4g", na, nb, e.relmse,
          expect);
    CHECK(fabs(e.relmse / truth - 1.0) < 0.03, "halves %u+%u: estimate %.4g, real error %.4g", na, nb, e.relmse,
          truth);
    CHECK(fabs(v.relmse / expect - 1.0) < 0.03, "variance: estimate %.4g, expected %.4g", v.relmse, expect);
    CHECK(e.relmse_trimmed < e.relmse && e.relmse_trimmed > 0.9 * e.relmse, "trimmed %.4g of %.4g", e.relmse_trimmed,
          e.relmse);
    free(whole);
    free(half);
    free(var);
    free(scratch);
}

static void test_time_to(void)
{
    double t[3] = {1.0, 2.0, 4.0}, e[3] = {1e-1, 5e-2, 2.5e-2};
    CHECK_NEAR(rs_quality_time_to(t, e, 3, 5e-2), 2.0, 1e-9);
    CHECK_NEAR(rs_quality_time_to(t, e, 3, sqrt(1e-1 * 5e-2)), sqrt(2.0), 1e-9);
    CHECK_NEAR(rs_quality_time_to(t, e, 3, 0.3), 1.0, 0.0);
    CHECK(rs_quality_time_to(t, e, 3, 1e-2) < 0.0, "never reached");
    double up[3] = {1e-1, 2e-1, 4e-2}; /* noise: crossing only at the last step */
    double x = rs_quality_time_to(t, up, 3, 5e-2);
    CHECK(x > 2.0 && x < 4.0, "crossing between the last two points: %g", x);
    double zero[3] = {0.0, 0.0, 0.02}; /* an external render too short to time */
    CHECK_NEAR(rs_quality_time_to(zero, e, 3, 5e-2), 0.0, 0.0);
}

int main(void)
{
    test_relmse();
    test_mask();
    check_halves(256, 256, 0.6);
    check_halves(3, 5, 0.05);
    test_time_to();
    return rs_test_finish("test_quality_metric");
}
