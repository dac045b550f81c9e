/* chi_square.h - the statistics of the sampling tests: Pearson's chi-square of observed
 * counts against expected ones, cells with fewer than 5 expected pooled into one. Host C11. */
#ifndef RS_TESTS_CHI_SQUARE_H
#define RS_TESTS_CHI_SQUARE_H

#include <math.h>

/* Regularized upper incomplete gamma Q(a, x): series below a + 1, Lentz's continued fraction
 * above. */
static inline double rs_test_gamma_q(double a, double x)
{
    if (x <= 0.0)
        return 1.0;
    double log_prefix = a * log(x) - x - lgamma(a);
    if (x < a + 1.0) {
        double term = 1.0 / a, sum = term;
        for (int n = 1; n < 10000 && fabs(term) > fabs(sum) * 1e-15; ++n) {
            term *= x / (a + n);
            sum += term;
        }
        return 1.0 - sum * exp(log_prefix);
    }
    double b = x + 1.0 - a, c = 1.0 / 1e-300, d = 1.0 / b, h = d;
    for (int i = 1; i < 10000; ++i) {
        double an = -i * (i - a);
        b += 2.0;
        d = an * d + b;
        d = fabs(d) < 1e-300 ? 1e-300 : d;
        c = b + an / c;
        c = fabs(c) < 1e-300 ? 1e-300 : c;
        d = 1.0 / d;
        double delta = d * c;
        h *= delta;
        if (fabs(delta - 1.0) < 1e-15)
            break;
    }
    return exp(log_prefix) * h;
}

/* The p-value of observed[0..n) against expected[0..n) (the same total). */
static inline double rs_test_chi_square_p(const double* observed, const double* expected, int n)
{
    double chi2 = 0.0, pooled_expected = 0.0, pooled_observed = 0.0;
    int dof = -1;
    for (int i = 0; i < n; ++i) {
        if (expected[i] < 5.0) {
            pooled_expected += expected[i];
            pooled_observed += observed[i];
            continue;
        }
        double d = observed[i] - expected[i];
        chi2 += d * d / expected[i];
        ++dof;
    }
    if (pooled_expected > 0.0) {
        double d = pooled_observed - pooled_expected;
        chi2 += d * d / pooled_expected;
        ++dof;
    }
    return dof > 0 ? rs_test_gamma_q(0.5 * dof, 0.5 * chi2) : 1.0;
}

#endif /* RS_TESTS_CHI_SQUARE_H */
