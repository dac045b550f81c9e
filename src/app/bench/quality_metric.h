/* quality_metric.h - the error measures of `raystream bench-quality`: relative mean squared
 * error against a reference, the same with the worst pixels left out, the reference's own
 * error estimated from two independent halves of it or from its per-pixel variance, and the
 * time at which an error curve first reaches a target.
 *
 * Host C11, application layer; pure functions over arrays, so that the in-process and the
 * external measurements (and the unit test) go through the same arithmetic.
 *
 * relMSE is pbrt's and Cycles' relative MSE: the mean over pixels and channels of
 * (x - r)^2 / (r^2 + RS_QUALITY_EPSILON), r the reference. The epsilon keeps black pixels from
 * dividing by zero; 1e-2 is the value Cycles' and Rousselle et al.'s comparisons use.
 * "Trimmed" leaves out the RS_QUALITY_TRIM fraction of pixels with the largest per-pixel error
 * (the mean of their three channels), so that a few fireflies are seen in the plain number but
 * do not decide the trimmed one. An image pixel without a sample or with a non-finite value
 * counts as black, as the image files show it (and is counted); a pixel whose reference is not
 * finite cannot be compared and is left out of both means (and counted).
 *
 * Every measure takes a region `mask` (bench-quality --mask): one byte a pixel, nonzero inside;
 * pixels outside it are skipped as if the image ended there (not counted anywhere), so the means
 * and the trimmed share are over the region's pixels alone. NULL is the whole image, through the
 * very same arithmetic.
 */
#ifndef RS_APP_QUALITY_METRIC_H
#define RS_APP_QUALITY_METRIC_H

#include <stdint.h>

#include "kernel/util/compat.h"

#define RS_QUALITY_EPSILON 1e-2
#define RS_QUALITY_TRIM 0.001

typedef struct RsQualityError {
    double relmse, relmse_trimmed;
    uint64_t compared;  /* pixels in the plain mean */
    uint64_t trimmed;   /* pixels left out of the trimmed one */
    uint64_t missing;   /* image pixels without a sample (film weight 0), compared as black */
    uint64_t nonfinite; /* pixels not finite: in the image (compared as black) or the reference (left out) */
} RsQualityError;

/* A film (plane 0: rgb sums | sample count) against a reference (3 floats a pixel). scratch
 * holds `pixels` doubles. */
void rs_quality_film_error(const RsFloat4* film, const float* reference, uint32_t pixels, const uint8_t* mask,
                           double* scratch, RsQualityError* out);
/* The same for an image of means (3 floats a pixel, as read from a file). */
void rs_quality_image_error(const float* image, const float* reference, uint32_t pixels, const uint8_t* mask,
                            double* scratch, RsQualityError* out);

/* The reference's own relMSE, from two independent parts of it: `half` is the mean of the first
 * `half_spp` of its `spp` samples (the rest are the other part, recovered from the whole). The
 * difference of two independent means of n_a and n_b samples has variance
 * sigma^2 (1/n_a + 1/n_b), and the whole's mean sigma^2 / (n_a + n_b), so the whole's squared
 * error is (a - b)^2 n_a n_b / n^2 in expectation. */
void rs_quality_halves_error(const float* reference, const float* half, uint32_t spp, uint32_t half_spp,
                             uint32_t pixels, const uint8_t* mask, double* scratch, RsQualityError* out);
/* The same from the variance of each pixel's mean (render --aov variance). */
void rs_quality_variance_error(const float* reference, const float* variance, uint32_t pixels, const uint8_t* mask,
                               double* scratch, RsQualityError* out);

/* The first time at which errors[] (falling, measured at increasing seconds[]) is at or below
 * target: interpolated log-log between the two points around the crossing, the first point's
 * time when it is already there; -1 when no point reaches it. */
double rs_quality_time_to(const double* seconds, const double* errors, int count, double target);

#endif /* RS_APP_QUALITY_METRIC_H */
