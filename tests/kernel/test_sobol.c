/* test_sobol.c - the Owen-scrambled Sobol sampler (kernel/sampling/sobol.h, sampler.h's
 * RS_SAMPLER_SOBOL) against the properties it is built for (kernel suite). Host C11.
 *
 * 1. The parts: bit reversal, the scramble's carry-upwards structure and bijectivity, and the
 *    closed-form second dimension against Sobol's recurrence for the polynomial x + 1.
 * 2. Stratification: over a pixel's samples 0..2^k-1 (and over any aligned block of 2^k, up to
 *    the last one below 2^32) every pair of a bounce has one point in each elementary interval
 *    of area 2^-k, every single one point in each 1/2^k.
 * 3. Purity: a number depends on its arguments only (not on what was drawn before or how many
 *    samples are taken), lies in [0, 1), and rs_sampler_2d equals two rs_sampler_1d calls.
 * 4. Independence: groups, bounces and pixels are uncorrelated, and at a fixed sample index the
 *    numbers are uniform over pixels.
 * 5. Convergence: per-pixel estimates of analytic integrals are unbiased, and their RMSE falls
 *    faster than with independent numbers (slope near -1.5 for a smooth integrand).
 */
#include <string.h>

#include "kernel/sampling/sampler.h"
#include "tests/test.h"

static const uint32_t pairs[] = {RS_DIM_PIXEL_X, RS_DIM_LENS_U, RS_DIM_LIGHT_U, RS_DIM_BSDF_U};
static const uint32_t singles[] = {RS_DIM_LIGHT_PICK, RS_DIM_BSDF_LOBE, RS_DIM_ROULETTE, 11, 15};
enum { PAIR_COUNT = sizeof pairs / sizeof pairs[0], SINGLE_COUNT = sizeof singles / sizeof singles[0] };

static float draw(uint32_t kind, uint32_t seed, uint32_t pixel, uint32_t index, uint32_t bounce, uint32_t dim)
{
    RsPathSampler ps = rs_sampler_path(kind, seed, pixel, index);
    return rs_sampler_1d(&ps, bounce, dim);
}

static uint64_t test_state = 0x853c49e6748fea9bull;
static uint32_t test_random(void)
{
    test_state = test_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(test_state >> 32);
}

static void test_parts(void)
{
    /* reversal against its definition */
    int bad_reverse = 0;
    for (int t = 0; t < 1000; ++t) {
        uint32_t x = test_random(), r = 0;
        for (int b = 0; b < 32; ++b)
            r |= ((x >> b) & 1u) << (31 - b);
        bad_reverse += rs_sobol_reverse_bits(x) != r;
    }
    CHECK(bad_reverse == 0, "%d bit reversals wrong", bad_reverse);

    /* Sobol's dimension 1: m_1 = 1, m_k = 2 m_(k-1) xor m_(k-1) (polynomial x + 1, degree 1), direction
     * number v_k = m_k / 2^k; point i is the xor of v_k over the set bits k-1 of i */
    uint32_t v[32];
    uint32_t m = 1;
    for (int k = 1; k <= 32; ++k) {
        if (k > 1)
            m = (m << 1) ^ m;
        v[k - 1] = m << (32 - k);
    }
    int bad_dim1 = 0;
    for (int t = 0; t < 20000; ++t) {
        uint32_t i = t < 10000 ? (uint32_t)t : test_random(), x = 0;
        for (int b = 0; b < 32; ++b)
            if ((i >> b) & 1u)
                x ^= v[b];
        bad_dim1 += rs_sobol_reverse_bits(rs_sobol_dim1_reversed(i)) != x;
    }
    CHECK(bad_dim1 == 0, "%d points of Sobol's second dimension differ from the recurrence", bad_dim1);

    /* the scramble: bits below a flipped input bit never change; the low k bits are a bijection */
    int leaks = 0, collisions = 0;
    for (int t = 0; t < 2000; ++t) {
        uint32_t x = test_random(), seed = test_random();
        uint32_t y = rs_sobol_scramble_up(x, seed);
        for (int a = 0; a < 32; ++a) {
            uint32_t below = (1u << a) - 1u;
            leaks += ((rs_sobol_scramble_up(x ^ (1u << a), seed) ^ y) & below) != 0;
        }
    }
    static unsigned char seen[1 << 12];
    for (int s = 0; s < 8; ++s) {
        uint32_t seed = test_random(), high = test_random() << 12;
        memset(seen, 0, sizeof seen);
        for (uint32_t x = 0; x < (1u << 12); ++x) {
            uint32_t y = rs_sobol_scramble_up(high | x, seed) & 0xfffu;
            collisions += seen[y]++ != 0;
        }
    }
    CHECK(leaks == 0, "%d times a scrambled bit depended on a higher one", leaks);
    CHECK(collisions == 0, "the scramble of the low 12 bits is not a permutation (%d collisions)", collisions);
}

/* Are the 2^k points (x, y) a (0,k,2)-net: one in every 2^-a x 2^-(k-a) box, for every a? */
static int is_net(const uint32_t* x, const uint32_t* y, int k)
{
    static unsigned char cells[1 << 12];
    uint32_t n = 1u << k;
    for (int a = 0; a <= k; ++a) {
        memset(cells, 0, n);
        for (uint32_t i = 0; i < n; ++i) {
            uint32_t cx = a ? x[i] >> (32 - a) : 0, cy = k - a ? y[i] >> (32 - (k - a)) : 0;
            if (cells[(cx << (k - a)) | cy]++)
                return 0;
        }
    }
    return 1;
}

/* The 32-bit fractions behind rs_sampler_1d (its float is their top 24 bits). */
static uint32_t fraction(uint32_t seed, uint32_t pixel, uint32_t index, uint32_t bounce, uint32_t dim)
{
    RsPathSampler ps = rs_sampler_path(RS_SAMPLER_SOBOL, seed, pixel, index);
    uint32_t second = (RS_SAMPLER_PAIR_SECOND >> dim) & 1u;
    uint32_t x = rs_sobol_coord(index, rs_sampler_sobol_group(&ps, bounce, dim - second), second);
    CHECK(rs_sobol_to_float(x) == rs_sampler_1d(&ps, bounce, dim), "fraction() is not what the sampler draws");
    return x;
}

static void test_stratification(void)
{
    static uint32_t x[1 << 10], y[1 << 10];
    const uint32_t seeds[] = {1, 7, 0xdeadbeefu}, pixels[] = {0, 17, 99999}, bounces[] = {0, 1, 6};
    /* the first 2^10 samples, then aligned blocks far out (the last one ends at 2^32 - 1) */
    const uint32_t starts[] = {0, (1u << 16) + (5u << 10), (1u << 31) + (3u << 10), 0u - (1u << 10)};
    int pairs_bad = 0, singles_bad = 0, tried = 0;
    for (int s = 0; s < 3; ++s)
        for (int p = 0; p < 3; ++p)
            for (int b = 0; b < 3; ++b)
                for (int o = 0; o < 4; ++o) {
                    for (int g = 0; g < PAIR_COUNT; ++g) {
                        for (uint32_t i = 0; i < (1u << 10); ++i) {
                            x[i] = fraction(seeds[s], pixels[p], starts[o] + i, bounces[b], pairs[g]);
                            y[i] = fraction(seeds[s], pixels[p], starts[o] + i, bounces[b], pairs[g] + 1);
                        }
                        /* every prefix 2^k of the first block; the whole of the others */
                        for (int k = o ? 10 : 1; k <= 10; ++k, ++tried)
                            pairs_bad += !is_net(x, y, k);
                    }
                    for (int g = 0; g < SINGLE_COUNT; ++g) {
                        for (uint32_t i = 0; i < (1u << 10); ++i) {
                            x[i] = fraction(seeds[s], pixels[p], starts[o] + i, bounces[b], singles[g]);
                            y[i] = 0;
                        }
                        for (int k = o ? 10 : 1; k <= 10; ++k) {
                            static unsigned char cells[1 << 10];
                            memset(cells, 0, sizeof cells);
                            int dup = 0;
                            for (uint32_t i = 0; i < (1u << k); ++i)
                                dup |= cells[x[i] >> (32 - k)]++ != 0;
                            singles_bad += dup;
                        }
                    }
                }
    CHECK(pairs_bad == 0, "%d of %d pair prefixes are not (0,k,2)-nets", pairs_bad, tried);
    CHECK(singles_bad == 0, "%d single prefixes are not stratified", singles_bad);
}

static void test_purity(void)
{
    /* the same arguments give the same number; a sampler built later or reused is unaffected by
     * what was drawn; a sequence read to 16 or to 1024 samples agrees on its first 16 */
    int impure = 0, out_of_range = 0, not_2d = 0;
    float first[16];
    for (uint32_t i = 0; i < 16; ++i)
        first[i] = draw(RS_SAMPLER_SOBOL, 3, 42, i, 2, RS_DIM_BSDF_V);
    for (uint32_t i = 0; i < 1024; ++i) {
        RsPathSampler ps = rs_sampler_path(RS_SAMPLER_SOBOL, 3, 42, i);
        for (uint32_t d = 0; d < RS_DIM_COUNT; ++d)
            (void)rs_sampler_1d(&ps, 2, d);
        float u = rs_sampler_1d(&ps, 2, RS_DIM_BSDF_V);
        impure += i < 16 && u != first[i];
        impure += u != draw(RS_SAMPLER_SOBOL, 3, 42, i, 2, RS_DIM_BSDF_V);
    }
    const uint32_t indices[] = {0, 1, 1023, 65535, 65536, 1u << 24, 0x7fffffffu, 0xfffffffeu, 0xffffffffu};
    for (int n = 0; n < 9; ++n)
        for (uint32_t kind = 0; kind < RS_SAMPLER_COUNT; ++kind)
            for (uint32_t bounce = 0; bounce < 40; bounce += 13)
                for (uint32_t d = 0; d + 1 < RS_DIM_COUNT; ++d) {
                    RsPathSampler ps = rs_sampler_path(kind, 11, 1234567, indices[n]);
                    float u = rs_sampler_1d(&ps, bounce, d), a, b;
                    out_of_range += !(u >= 0.0f && u < 1.0f);
                    rs_sampler_2d(&ps, bounce, d, &a, &b);
                    not_2d += a != u || b != rs_sampler_1d(&ps, bounce, d + 1);
                }
    /* the largest fraction still maps below 1 */
    out_of_range += !(rs_sobol_to_float(0xffffffffu) < 1.0f);
    CHECK(impure == 0, "%d numbers changed with what was drawn before", impure);
    CHECK(out_of_range == 0, "%d numbers outside [0, 1)", out_of_range);
    CHECK(not_2d == 0, "%d times rs_sampler_2d differed from two rs_sampler_1d calls", not_2d);
}

static double correlation(const double* a, const double* b, int n)
{
    double ma = 0, mb = 0, sab = 0, saa = 0, sbb = 0;
    for (int i = 0; i < n; ++i) {
        ma += a[i];
        mb += b[i];
    }
    ma /= n;
    mb /= n;
    for (int i = 0; i < n; ++i) {
        sab += (a[i] - ma) * (b[i] - mb);
        saa += (a[i] - ma) * (a[i] - ma);
        sbb += (b[i] - mb) * (b[i] - mb);
    }
    return sab / sqrt(saa * sbb);
}

static void test_independence(void)
{
    enum { N = 4096, PIXELS = 65536, BINS = 64 };
    static double a[PIXELS], b[PIXELS];
    /* (bounce, dim) against (bounce, dim) within a pixel's samples, including a pair's two
     * coordinates and the same dimension at two bounces */
    const uint32_t cases[][4] = {{0, RS_DIM_PIXEL_X, 0, RS_DIM_LENS_U},   {0, RS_DIM_PIXEL_X, 0, RS_DIM_PIXEL_Y},
                                 {1, RS_DIM_LIGHT_U, 1, RS_DIM_BSDF_U},   {1, RS_DIM_LIGHT_PICK, 1, RS_DIM_BSDF_LOBE},
                                 {1, RS_DIM_BSDF_U, 2, RS_DIM_BSDF_U},    {3, RS_DIM_ROULETTE, 4, RS_DIM_ROULETTE},
                                 {1, RS_DIM_BSDF_V, 1, RS_DIM_ROULETTE}, {0, RS_DIM_PIXEL_X, 1, RS_DIM_PIXEL_X}};
    const double bound = 4.5 / sqrt((double)N); /* 4.5 sigma of a correlation of N independent pairs */
    for (int c = 0; c < 8; ++c) {
        for (int i = 0; i < N; ++i) {
            a[i] = draw(RS_SAMPLER_SOBOL, 5, 777, (uint32_t)i, cases[c][0], cases[c][1]);
            b[i] = draw(RS_SAMPLER_SOBOL, 5, 777, (uint32_t)i, cases[c][2], cases[c][3]);
        }
        double r = correlation(a, b, N);
        CHECK(fabs(r) < bound, "(bounce %u, dim %u) and (bounce %u, dim %u): correlation %.4f", cases[c][0],
              cases[c][1], cases[c][2], cases[c][3], r);
    }
    /* over pixels at a fixed sample index: neighbouring pixels uncorrelated, values uniform */
    const uint32_t indices[] = {0, 1, 1000, (1u << 20) + 5, 0xffffffffu};
    for (int n = 0; n < 5; ++n) {
        int counts[BINS] = {0};
        for (int p = 0; p < PIXELS; ++p) {
            a[p] = draw(RS_SAMPLER_SOBOL, 9, (uint32_t)p, indices[n], 1, RS_DIM_BSDF_U);
            b[p] = draw(RS_SAMPLER_SOBOL, 9, (uint32_t)p + 1, indices[n], 1, RS_DIM_BSDF_U);
            ++counts[(int)(a[p] * BINS)];
        }
        double r = correlation(a, b, PIXELS), chi2 = 0.0, expected = (double)PIXELS / BINS;
        for (int k = 0; k < BINS; ++k)
            chi2 += (counts[k] - expected) * (counts[k] - expected) / expected;
        CHECK(fabs(r) < 4.5 / sqrt((double)PIXELS), "sample %u: neighbouring pixels correlate, %.4f", indices[n], r);
        /* 63 degrees of freedom: the 99.99th percentile is about 114 */
        CHECK(chi2 < 114.0, "sample %u: not uniform over pixels, chi-square %.1f (63 dof)", indices[n], chi2);
    }
}

/* Integrands over one pair (u, v), and over two pairs (a product across groups). */
static double smooth(double u, double v) { return exp(u + v); }
static double disk(double u, double v) { return (u - 0.5) * (u - 0.5) + (v - 0.45) * (v - 0.45) < 0.16 ? 1.0 : 0.0; }

typedef struct Estimate {
    double rmse[4], mean_error[4], stderr_mean[4];
} Estimate;

enum { CONV_PIXELS = 512 };
static const int conv_n[4] = {16, 64, 256, 1024};

/* Per-pixel estimates with the first n samples (n = conv_n), over CONV_PIXELS pixels: their RMSE
 * against the exact value, their mean's error and its standard error. which: 0 smooth on the
 * bsdf pair, 1 the disk on the light pair, 2 smooth(pixel pair) * smooth(bsdf pair). */
static Estimate estimate(uint32_t kind, int which)
{
    const double e1 = exp(1.0) - 1.0, exact[3] = {e1 * e1, RS_PI * 0.16, e1 * e1 * e1 * e1};
    Estimate est;
    double se[4] = {0}, sum[4] = {0}, sum2[4] = {0};
    for (uint32_t p = 0; p < CONV_PIXELS; ++p) {
        double acc = 0.0;
        int level = 0;
        for (int i = 0; i < conv_n[3]; ++i) {
            RsPathSampler ps = rs_sampler_path(kind, 2024, p * 7919u, (uint32_t)i);
            float u, v, s, t;
            if (which == 1) {
                rs_sampler_2d(&ps, 1, RS_DIM_LIGHT_U, &u, &v);
                acc += disk(u, v);
            } else {
                rs_sampler_2d(&ps, 1, RS_DIM_BSDF_U, &u, &v);
                rs_sampler_2d(&ps, 0, RS_DIM_PIXEL_X, &s, &t);
                acc += which == 0 ? smooth(u, v) : smooth(u, v) * smooth(s, t);
            }
            if (i + 1 == conv_n[level]) {
                double e = acc / conv_n[level] - exact[which];
                se[level] += e * e;
                sum[level] += e;
                sum2[level] += e * e;
                ++level;
            }
        }
    }
    for (int l = 0; l < 4; ++l) {
        est.rmse[l] = sqrt(se[l] / CONV_PIXELS);
        est.mean_error[l] = sum[l] / CONV_PIXELS;
        double var = sum2[l] / CONV_PIXELS - est.mean_error[l] * est.mean_error[l];
        est.stderr_mean[l] = sqrt(var / (CONV_PIXELS - 1));
    }
    return est;
}

/* Least-squares slope of log RMSE against log N. */
static double slope(const Estimate* e)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int l = 0; l < 4; ++l) {
        double x = log((double)conv_n[l]), y = log(e->rmse[l]);
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
    }
    return (4 * sxy - sx * sy) / (4 * sxx - sx * sx);
}

static void test_convergence(void)
{
    const char* names[3] = {"smooth 2D", "disk", "smooth 4D across two pairs"};
    /* RMSE of Sobol over independent at N = 1024 must be below these, and the slope below these
     * (independent: -0.5; Owen-scrambled nets: -1.5 smooth, about -0.75 for a disk's edge). Across
     * padded pairs only each pair's own part of the variance is stratified: the interaction of
     * the two pairs is sampled as by independent numbers, so the slope stays -0.5 with a lower
     * constant (about 0.37 here). */
    const double max_ratio[3] = {0.1, 0.3, 0.6}, max_slope[3] = {-1.25, -0.65, -0.4};
    for (int w = 0; w < 3; ++w) {
        Estimate in = estimate(RS_SAMPLER_INDEPENDENT, w), so = estimate(RS_SAMPLER_SOBOL, w);
        double ratio = so.rmse[3] / in.rmse[3], s_in = slope(&in), s_so = slope(&so);
        printf("%-28s RMSE at N = 16, 64, 256, 1024: independent %.2e %.2e %.2e %.2e (slope %.2f), "
               "sobol %.2e %.2e %.2e %.2e (slope %.2f), ratio at 1024 %.3f\n",
               names[w], in.rmse[0], in.rmse[1], in.rmse[2], in.rmse[3], s_in, so.rmse[0], so.rmse[1], so.rmse[2],
               so.rmse[3], s_so, ratio);
        CHECK(ratio < max_ratio[w], "%s: sobol's RMSE is %.3f of independent's at 1024 samples", names[w], ratio);
        CHECK(s_so < max_slope[w], "%s: sobol's RMSE falls as N^%.2f", names[w], s_so);
        CHECK(s_in > -0.6 && s_in < -0.4, "%s: independent's RMSE falls as N^%.2f, not N^-0.5", names[w], s_in);
        for (int l = 0; l < 4; ++l) {
            CHECK(fabs(so.mean_error[l]) < 4.0 * so.stderr_mean[l] + 1e-12,
                  "%s, N = %d: sobol's mean is off by %.3g (standard error %.3g)", names[w], conv_n[l],
                  so.mean_error[l], so.stderr_mean[l]);
            CHECK(fabs(in.mean_error[l]) < 4.0 * in.stderr_mean[l] + 1e-12,
                  "%s, N = %d: independent's mean is off by %.3g (standard error %.3g)", names[w], conv_n[l],
                  in.mean_error[l], in.stderr_mean[l]);
        }
    }
}

int main(void)
{
    test_parts();
    test_stratification();
    test_purity();
    test_independence();
    test_convergence();
    return rs_test_finish("test_sobol");
}
