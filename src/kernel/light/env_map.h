/* env_map.h - the environment as an image, equirectangular or equal-area octahedral (pbrt-v4's
 * form, env_octahedral.h): its radiance in a direction, and directions drawn in proportion to it
 * (importance sampling through a 2D CDF).
 *
 * Shared header (gcc C11, g++, nvcc). The host loads the image (src/host/scene/env_map.c); the CDF is
 * built by the same three steps on either side, each step's per-entry arithmetic in this file:
 *   1. every cell's weight, rs_env_cdf_weight;
 *   2. an inclusive prefix sum along each row, then of the rows' totals (the CPU in a loop,
 *      src/host/scene/env_map.c; the GPU with the project's block scan, cuda/backend/env_map_cdf.cu);
 *   3. normalisation of the rows and of the marginal, rs_env_cdf_normalize.
 *
 * Mapping (Mitsuba 3's envmap, y up): a direction d has u = atan2(d.x, -d.z) / 2 pi (wrapped
 * into [0, 1)) and v = acos(d.y) / pi, so v = 0 is straight up. Texel (x, y) of a W x H image
 * (rows from the top) lies at u = (x + 0.5) / W and v = y / (H - 1): columns are centred in
 * their cells, but the first row is the zenith itself and the last the nadir (Mitsuba 3 samples
 * its bitmap this way; a one-row image is constant in v). Radiance is bilinear between texels,
 * wrapping around in u.
 *
 * Sampling uses W x H cells: cell (x, y) spans u in [x / W, (x + 1) / W] and v from half-way to
 * the row above to half-way to the row below, clipped at the poles (so the first and last rows'
 * cells are half as tall; rs_env_cdf_row_span). It picks a row by the marginal CDF, a cell in it
 * by that row's conditional CDF, and a point uniformly inside the cell; the density in solid
 * angle is then
 *     pdf(d) = p(cell) * W / ((v_hi - v_lo) * 2 pi^2 sin(theta)).
 * A cell's weight is the integral of the bilinear radiance's luminance over the cell (the
 * [1 6 1] / 8 filter across columns; across rows the same, or [3 1] / 8 for a half cell at a
 * pole: exact for bilinear interpolation) times sin(theta) at its centre. Because the bilinear
 * radiance inside a cell depends only on the 3 x 3 texels around it, every one of which counts
 * in that integral, the density is nonzero wherever the radiance is: the estimator stays
 * unbiased however sharp the image is (pbrt-v4 has the same concern and answers it the same way,
 * by the image's integral over each pixel).
 *
 * The octahedral mapping (RS_ENV_MAPPING_OCTAHEDRAL; pbrt-v4's image infinite lights): (u, v) in
 * the unit square is the direction rs_equal_area_square_to_sphere gives, +z at the centre; texel
 * (x, y) lies at ((x + 0.5) / W, (y + 0.5) / H), rows from the top as in the file, and radiance
 * is bilinear between texels, across the borders by rs_octahedral_wrap. The map's frame is any
 * orthogonal matrix (`frame`, world to map rows; it may mirror), where the equirectangular map
 * turns about +y only. Cell (x, y) is texel (x, y)'s square; because the mapping keeps area,
 * every cell covers 4 pi / (W H) steradians and its weight is the bilinear radiance's luminance
 * integrated over the square alone (the [1 6 1] / 8 filter both ways, over the wrapped 3 x 3
 * texels), with no sin(theta); the density is pdf(d) = p(cell) * W H / (4 pi).
 */
#ifndef RS_KERNEL_ENV_MAP_H
#define RS_KERNEL_ENV_MAP_H

#include "kernel/light/env_octahedral.h"
#include "kernel/util/vecmath.h"

/* The brightest texel a map keeps (src/host/scene/env_map.c clamps on load). An RGBE file can
 * hold 1.7e38, just below float's limit: its filtered weights and their row and marginal sums
 * (up to 16384 x 8192 cells) would overflow to infinity and the CDF to NaN. Up to 1e30 every
 * sum stays below 1.4e38. */
#define RS_ENV_TEXEL_MAX 1e30f

/* The most radiance a light sends along one ray (environment times scale, a point light near
 * its point): 1e30, so that a path's weights and the film's sums stay finite. A legal scene
 * reaches it only with an environment scale times texel, or a point light's intensity over
 * its squared distance, beyond 1e30 (scenes/README.md: numbers are within 1e18). */
#define RS_LIGHT_RADIANCE_MAX 1e30f

#define RS_ENV_MAPPING_EQUIRECT 0u
#define RS_ENV_MAPPING_OCTAHEDRAL 1u

typedef struct RsEnvMapView {
    RsFloat4 frame[3];         /* octahedral: world-to-map rows (orthogonal); unused for equirect */
    const RsFloat4* texels;    /* width * height, linear RGB | unused, rows from the top (v = 0) */
    const float* row_cdf;      /* height rows of width entries: inclusive CDF of each row, to 1 */
    const float* marginal_cdf; /* height entries: inclusive CDF over the rows, to 1 */
    uint32_t width, height;
    uint32_t mapping; /* RS_ENV_MAPPING_* */
    uint32_t pad_;
} RsEnvMapView;

RS_FN int rs_env_map_octahedral(const RsEnvMapView* m) { return m->mapping == RS_ENV_MAPPING_OCTAHEDRAL; }

#define RS_INV_2PI 0.15915494309189535f

/* (u, v) of a unit direction in the map's frame. */
RS_FN void rs_env_map_uv(RsVec3 d, float* u, float* v)
{
    float phi = atan2f(d.x, -d.z) * RS_INV_2PI;
    *u = phi < 0.0f ? phi + 1.0f : phi;
    *v = acosf(rs_clampf(d.y, -1.0f, 1.0f)) * RS_INV_PI;
}

/* The unit direction of (u, v); *sin_theta gets its distance from the poles' axis. */
RS_FN RsVec3 rs_env_map_direction(float u, float v, float* sin_theta)
{
    float phi = 2.0f * RS_PI * u, theta = RS_PI * v;
    float s = sinf(theta);
    *sin_theta = s;
    return rs_vec3(s * sinf(phi), cosf(theta), -s * cosf(phi));
}

RS_FN RsVec3 rs_env_map_texel(const RsEnvMapView* m, int x, int y)
{
    int w = (int)m->width, h = (int)m->height;
    if (rs_env_map_octahedral(m)) {
        rs_octahedral_wrap(&x, &y, w, h);
        return rs_xyz(m->texels[(uint32_t)y * m->width + (uint32_t)x]);
    }
    x = x % w;
    x = x < 0 ? x + w : x;
    y = y < 0 ? 0 : (y >= h ? h - 1 : y);
    return rs_xyz(m->texels[(uint32_t)y * m->width + (uint32_t)x]);
}

/* The band of v that CDF row y covers: half-way to the neighbouring texel rows, clipped at the
 * poles; the whole of [0, 1] for a one-row image. */
RS_FN void rs_env_cdf_row_span(const RsEnvMapView* m, uint32_t y, float* lo, float* hi)
{
    if (m->height < 2) {
        *lo = 0.0f;
        *hi = 1.0f;
        return;
    }
    float step = 1.0f / (float)(m->height - 1);
    *lo = y == 0 ? 0.0f : ((float)y - 0.5f) * step;
    *hi = y + 1 >= m->height ? 1.0f : ((float)y + 0.5f) * step;
}

/* The CDF row whose band holds v. */
RS_FN uint32_t rs_env_cdf_row_of(const RsEnvMapView* m, float v)
{
    if (m->height < 2)
        return 0;
    float y = floorf(v * (float)(m->height - 1) + 0.5f);
    return y <= 0.0f ? 0u : (uint32_t)rs_minf(y, (float)(m->height - 1));
}

/* Bilinear radiance of the image at (u, v), before the environment's scale. */
RS_FN RsVec3 rs_env_map_lookup(const RsEnvMapView* m, float u, float v)
{
    float x = u * (float)m->width - 0.5f, y = m->height > 1 ? v * (float)(m->height - 1) : 0.0f;
    if (rs_env_map_octahedral(m))
        y = v * (float)m->height - 0.5f;
    float fx = floorf(x), fy = floorf(y);
    float ax = x - fx, ay = y - fy;
    int x0 = (int)fx, y0 = (int)fy;
    RsVec3 top = rs_add(rs_scale(rs_env_map_texel(m, x0, y0), 1.0f - ax), rs_scale(rs_env_map_texel(m, x0 + 1, y0), ax));
    RsVec3 bottom =
        rs_add(rs_scale(rs_env_map_texel(m, x0, y0 + 1), 1.0f - ax), rs_scale(rs_env_map_texel(m, x0 + 1, y0 + 1), ax));
    return rs_add(rs_scale(top, 1.0f - ay), rs_scale(bottom, ay));
}

/* Radiance of the image in unit direction d of the map's frame, before the environment's scale. */
RS_FN RsVec3 rs_env_map_eval(const RsEnvMapView* m, RsVec3 d)
{
    float u, v;
    if (rs_env_map_octahedral(m))
        rs_equal_area_sphere_to_square(d, &u, &v);
    else
        rs_env_map_uv(d, &u, &v);
    return rs_env_map_lookup(m, u, v);
}

/* Step 1: the sampling weight of cell (x, y), the entry the CDF's row y starts from. */
RS_FN float rs_env_cdf_weight(const RsEnvMapView* m, uint32_t x, uint32_t y)
{
    const float filter[3] = {0.125f, 0.75f, 0.125f};
    float rows[3]; /* rows y - 1, y, y + 1, each filtered across its columns */
    for (int j = 0; j < 3; ++j) {
        rows[j] = 0.0f;
        for (int i = 0; i < 3; ++i)
            rows[j] += filter[i] * rs_luminance(rs_env_map_texel(m, (int)x + i - 1, (int)y + j - 1));
    }
    float sum; /* the integral over the cell's band, in units of the rows' spacing */
    if (rs_env_map_octahedral(m))
        return filter[0] * rows[0] + filter[1] * rows[1] + filter[2] * rows[2]; /* equal area */
    if (m->height < 2)
        sum = rows[1];
    else if (y == 0)
        sum = 0.375f * rows[1] + 0.125f * rows[2];
    else if (y + 1 == m->height)
        sum = 0.125f * rows[0] + 0.375f * rows[1];
    else
        sum = filter[0] * rows[0] + filter[1] * rows[1] + filter[2] * rows[2];
    float lo, hi;
    rs_env_cdf_row_span(m, y, &lo, &hi);
    return sum * sinf(RS_PI * 0.5f * (lo + hi));
}

/* Step 3, for entry i of n prefix sums ending at `total` (a row, or the marginal): a row with
 * no weight (never picked by the marginal) becomes uniform, and the last entry is exactly 1 so
 * that every u < 1 finds a cell. */
RS_FN float rs_env_cdf_normalize(float prefix, float total, uint32_t i, uint32_t n)
{
    if (i + 1 == n)
        return 1.0f;
    return total > 0.0f ? rs_minf(prefix / total, 1.0f) : (float)(i + 1) / (float)n;
}

/* The first entry of an inclusive CDF of n entries that exceeds u in [0, 1): a cell with
 * nonzero probability, since cdf[i - 1] <= u < cdf[i]. */
RS_FN uint32_t rs_cdf_find(const float* cdf, uint32_t n, float u)
{
    uint32_t lo = 0, hi = n - 1;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (u < cdf[mid])
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

RS_FN float rs_cdf_cell(const float* cdf, uint32_t i) { return cdf[i] - (i > 0 ? cdf[i - 1] : 0.0f); }

/* Solid-angle density of rs_env_map_sample for a unit direction in the map's frame. */
RS_FN float rs_env_map_pdf(const RsEnvMapView* m, RsVec3 d)
{
    float u, v;
    if (rs_env_map_octahedral(m)) {
        rs_equal_area_sphere_to_square(d, &u, &v);
        uint32_t x = (uint32_t)rs_clampf(u * (float)m->width, 0.0f, (float)(m->width - 1));
        uint32_t y = (uint32_t)rs_clampf(v * (float)m->height, 0.0f, (float)(m->height - 1));
        float p = rs_cdf_cell(m->marginal_cdf, y) * rs_cdf_cell(m->row_cdf + (size_t)y * m->width, x);
        return p * ((float)m->width * (float)m->height * RS_INV_4PI);
    }
    rs_env_map_uv(d, &u, &v);
    uint32_t x = (uint32_t)rs_minf(u * (float)m->width, (float)(m->width - 1));
    uint32_t y = rs_env_cdf_row_of(m, v);
    float sin_theta = sqrtf(d.x * d.x + d.z * d.z); /* accurate near the poles, unlike 1 - y^2 */
    if (!(sin_theta > 0.0f))
        return 0.0f;
    float lo, hi;
    rs_env_cdf_row_span(m, y, &lo, &hi);
    float p = rs_cdf_cell(m->marginal_cdf, y) * rs_cdf_cell(m->row_cdf + (size_t)y * m->width, x);
    return p * (float)m->width / ((hi - lo) * 2.0f * RS_PI * RS_PI * sin_theta);
}

/* A direction in the map's frame drawn in proportion to the map, from u1, u2 in [0, 1); *pdf
 * gets its solid-angle density (0 if it fell on a pole, where the density is unbounded). */
RS_FN RsVec3 rs_env_map_sample(const RsEnvMapView* m, float u1, float u2, float* pdf)
{
    uint32_t y = rs_cdf_find(m->marginal_cdf, m->height, u1);
    const float* row = m->row_cdf + (size_t)y * m->width;
    uint32_t x = rs_cdf_find(row, m->width, u2);
    float py = rs_cdf_cell(m->marginal_cdf, y), px = rs_cdf_cell(row, x);
    /* where inside the cell: the remainder of each uniform number, rescaled */
    float fy = (u1 - (y > 0 ? m->marginal_cdf[y - 1] : 0.0f)) / py;
    float fx = (u2 - (x > 0 ? row[x - 1] : 0.0f)) / px;
    if (rs_env_map_octahedral(m)) {
        *pdf = py * px * ((float)m->width * (float)m->height * RS_INV_4PI);
        return rs_equal_area_square_to_sphere(((float)x + rs_clampf(fx, 0.0f, 1.0f)) / (float)m->width,
                                              ((float)y + rs_clampf(fy, 0.0f, 1.0f)) / (float)m->height);
    }
    float lo, hi;
    rs_env_cdf_row_span(m, y, &lo, &hi);
    float u = ((float)x + rs_clampf(fx, 0.0f, 1.0f)) / (float)m->width;
    float v = lo + rs_clampf(fy, 0.0f, 1.0f) * (hi - lo);
    float sin_theta;
    RsVec3 d = rs_env_map_direction(u, v, &sin_theta);
    *pdf = sin_theta > 0.0f ? py * px * (float)m->width / ((hi - lo) * 2.0f * RS_PI * RS_PI * sin_theta) : 0.0f;
    return d;
}

#endif /* RS_KERNEL_ENV_MAP_H */
