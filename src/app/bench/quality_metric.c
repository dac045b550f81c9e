/* quality_metric.c - relMSE, trimmed relMSE, the reference's error, time to a target (see
 * quality_metric.h). Host C11, application layer. */
#include "app/bench/quality_metric.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int compare_descending(const void* a, const void* b)
{
    double x = *(const double*)a, y = *(const double*)b;
    return (x < y) - (x > y);
}

/* per_pixel[0..n): the compared pixels' errors (the order is destroyed). */
static void summarise(double* per_pixel, uint64_t n, RsQualityError* out)
{
    double sum = 0.0;
    for (uint64_t i = 0; i < n; ++i)
        sum += per_pixel[i];
    out->compared = n;
    out->relmse = n ? sum / (double)n : NAN;
    uint64_t k = (uint64_t)floor((double)n * RS_QUALITY_TRIM);
    out->trimmed = k;
    if (k == 0 || k >= n) {
        out->relmse_trimmed = out->relmse;
        out->trimmed = 0;
        return;
    }
    qsort(per_pixel, n, sizeof *per_pixel, compare_descending);
    double worst = 0.0;
    for (uint64_t i = 0; i < k; ++i)
        worst += per_pixel[i];
    out->relmse_trimmed = (sum - worst) / (double)(n - k);
    if (out->relmse_trimmed < 0.0) /* rounding when the worst pixels hold nearly everything */
        out->relmse_trimmed = 0.0;
}

static int finite3(const float* v) { return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]); }

/* Mean over the channels of (x - r)^2 / (r^2 + eps), each channel's squared difference given. */
static double relative(const double* squared, const float* r)
{
    double e = 0.0;
    for (int c = 0; c < 3; ++c)
        e += squared[c] / ((double)r[c] * r[c] + RS_QUALITY_EPSILON);
    return e / 3.0;
}

void rs_quality_film_error(const RsFloat4* film, const float* reference, uint32_t pixels, const uint8_t* mask,
                           double* scratch, RsQualityError* out)
{
    memset(out, 0, sizeof *out);
    uint64_t n = 0;
    for (uint32_t i = 0; i < pixels; ++i) {
        if (mask && !mask[i])
            continue;
        const float* r = reference + 3 * (size_t)i;
        if (!finite3(r)) {
            ++out->nonfinite;
            continue;
        }
        /* as the image files hold it (rs_film_pixel): black without a sample or when not finite */
        float x[3] = {0.0f, 0.0f, 0.0f};
        if (!(film[i].w > 0.0f)) {
            ++out->missing;
        } else {
            float m[3] = {film[i].x / film[i].w, film[i].y / film[i].w, film[i].z / film[i].w};
            if (finite3(m))
                memcpy(x, m, sizeof x);
            else
                ++out->nonfinite;
        }
        double d[3];
        for (int c = 0; c < 3; ++c)
            d[c] = ((double)x[c] - r[c]) * ((double)x[c] - r[c]);
        scratch[n++] = relative(d, r);
    }
    summarise(scratch, n, out);
}

void rs_quality_image_error(const float* image, const float* reference, uint32_t pixels, const uint8_t* mask,
                            double* scratch, RsQualityError* out)
{
    memset(out, 0, sizeof *out);
    uint64_t n = 0;
    for (uint32_t i = 0; i < pixels; ++i) {
        if (mask && !mask[i])
            continue;
        const float *x = image + 3 * (size_t)i, *r = reference + 3 * (size_t)i;
        if (!finite3(r)) {
            ++out->nonfinite;
            continue;
        }
        int bad = !finite3(x);
        out->nonfinite += (uint64_t)bad;
        double d[3];
        for (int c = 0; c < 3; ++c) {
            double v = bad ? 0.0 : x[c];
            d[c] = (v - r[c]) * (v - r[c]);
        }
        scratch[n++] = relative(d, r);
    }
    summarise(scratch, n, out);
}

void rs_quality_halves_error(const float* reference, const float* half, uint32_t spp, uint32_t half_spp,
                             uint32_t pixels, const uint8_t* mask, double* scratch, RsQualityError* out)
{
    memset(out, 0, sizeof *out);
    double na = half_spp, nb = (double)spp - half_spp, n = spp;
    uint64_t count = 0;
    for (uint32_t i = 0; i < pixels && na > 0.0 && nb > 0.0; ++i) {
        if (mask && !mask[i])
            continue;
        const float *r = reference + 3 * (size_t)i, *a = half + 3 * (size_t)i;
        if (!finite3(r) || !finite3(a)) {
            ++out->nonfinite;
            continue;
        }
        double d[3];
        for (int c = 0; c < 3; ++c) {
            double b = (n * r[c] - na * a[c]) / nb; /* the second part's mean */
            d[c] = (a[c] - b) * (a[c] - b) * na * nb / (n * n);
        }
        scratch[count++] = relative(d, r);
    }
    summarise(scratch, count, out);
}

void rs_quality_variance_error(const float* reference, const float* variance, uint32_t pixels, const uint8_t* mask,
                               double* scratch, RsQualityError* out)
{
    memset(out, 0, sizeof *out);
    uint64_t count = 0;
    for (uint32_t i = 0; i < pixels; ++i) {
        if (mask && !mask[i])
            continue;
        const float *r = reference + 3 * (size_t)i, *v = variance + 3 * (size_t)i;
        if (!finite3(r) || !finite3(v)) {
            ++out->nonfinite;
            continue;
        }
        double d[3] = {v[0], v[1], v[2]};
        scratch[count++] = relative(d, r);
    }
    summarise(scratch, count, out);
}

double rs_quality_time_to(const double* seconds, const double* errors, int count, double target)
{
    for (int i = 0; i < count; ++i) {
        if (!(errors[i] <= target))
            continue;
        if (i == 0)
            return seconds[0];
        double t0 = seconds[i - 1], t1 = seconds[i], e0 = errors[i - 1], e1 = errors[i];
        if (!(t0 > 0.0 && t1 > 0.0 && e0 > 0.0 && e1 > 0.0 && e0 > e1 && isfinite(e0)))
            return t1; /* no straight line in log-log: the first point known to be there */
        double f = (log(target) - log(e0)) / (log(e1) - log(e0));
        return exp(log(t0) + f * (log(t1) - log(t0)));
    }
    return -1.0;
}
