/* image_compare.h - are two renders the same image up to noise? Host C11, header-only.
 *
 * The C twin of tools/reference/image_stats.py, for tests that compare raystream with itself
 * (the precision tests). Each side is two films rendered with independent seeds; per pixel,
 * (a1 - a2)^2 / 4 estimates the variance of the pair's mean, pixels are independent, so a
 * region's mean has the sum of its pixels' variances over n^2. On luminance (Rec. 709):
 *   ratio   mean(A) / mean(B) with its standard error (delta method);
 *   z rms   RMS over 16x16 blocks of (mean_A - mean_B) / SE; about 1 for pure noise.
 * Pixels with no noise at all on either side count with a standard error of 2e-3 of their value.
 */
#ifndef RS_TESTS_IMAGE_COMPARE_H
#define RS_TESTS_IMAGE_COMPARE_H

#include <math.h>
#include <stdlib.h>

#include "kernel/util/compat.h"

#define IMAGE_COMPARE_BLOCK 16

typedef struct ImageCompare {
    double mean_a, mean_b;
    double ratio, ratio_se, ratio_sigmas;
    double block_z_rms, worst_z;
    uint32_t worst_x, worst_y; /* pixel of the worst block's corner */
} ImageCompare;

static inline double film_luminance(const RsFloat4* f)
{
    double inv = f->w > 0.0f ? 1.0 / f->w : 0.0;
    return (0.2126 * f->x + 0.7152 * f->y + 0.0722 * f->z) * inv;
}

/* a1, a2: side A's two films; b1, b2: side B's; width x height pixels each. */
static inline ImageCompare image_compare(const RsFloat4* a1, const RsFloat4* a2, const RsFloat4* b1,
                                         const RsFloat4* b2, uint32_t width, uint32_t height)
{
    ImageCompare c = {0};
    uint32_t bw = width / IMAGE_COMPARE_BLOCK, bh = height / IMAGE_COMPARE_BLOCK;
    double* block = calloc((size_t)bw * bh * 3, sizeof(double)); /* sum A, sum B, sum of variances */
    double sum_a = 0, sum_b = 0, var_a = 0, var_b = 0;
    for (uint32_t y = 0; y < height; ++y) {
        for (uint32_t x = 0; x < width; ++x) {
            size_t i = (size_t)y * width + x;
            double la1 = film_luminance(&a1[i]), la2 = film_luminance(&a2[i]);
            double lb1 = film_luminance(&b1[i]), lb2 = film_luminance(&b2[i]);
            double ma = 0.5 * (la1 + la2), mb = 0.5 * (lb1 + lb2);
            double va = 0.25 * (la1 - la2) * (la1 - la2), vb = 0.25 * (lb1 - lb2) * (lb1 - lb2);
            sum_a += ma;
            sum_b += mb;
            var_a += va;
            var_b += vb;
            double v = va + vb;
            if (v == 0.0)
                v = pow(2e-3 * 0.5 * (ma + mb), 2.0);
            uint32_t bx = x / IMAGE_COMPARE_BLOCK, by = y / IMAGE_COMPARE_BLOCK;
            if (bx < bw && by < bh) {
                double* b = &block[3 * ((size_t)by * bw + bx)];
                b[0] += ma;
                b[1] += mb;
                b[2] += v;
            }
        }
    }
    double n = (double)width * height;
    c.mean_a = sum_a / n;
    c.mean_b = sum_b / n;
    double se_a = sqrt(var_a) / n, se_b = sqrt(var_b) / n;
    c.ratio = c.mean_b > 0 ? c.mean_a / c.mean_b : NAN;
    c.ratio_se = c.ratio * sqrt(pow(se_a / c.mean_a, 2.0) + pow(se_b / c.mean_b, 2.0));
    c.ratio_sigmas = c.ratio_se > 0 ? fabs(c.ratio - 1.0) / c.ratio_se : INFINITY;
    double z2 = 0.0, nb = (double)IMAGE_COMPARE_BLOCK * IMAGE_COMPARE_BLOCK;
    for (uint32_t k = 0; k < bw * bh; ++k) {
        double* b = &block[3 * k];
        double diff = (b[0] - b[1]) / nb, se = sqrt(b[2]) / nb;
        double z = se > 0 ? diff / se : (diff == 0 ? 0.0 : INFINITY);
        z2 += z * z;
        if (fabs(z) > fabs(c.worst_z)) {
            c.worst_z = z;
            c.worst_x = (k % bw) * IMAGE_COMPARE_BLOCK;
            c.worst_y = (k / bw) * IMAGE_COMPARE_BLOCK;
        }
    }
    c.block_z_rms = bw > 0 && bh > 0 ? sqrt(z2 / (bw * bh)) : 0.0;
    free(block);
    return c;
}

#endif /* RS_TESTS_IMAGE_COMPARE_H */
