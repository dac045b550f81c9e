/* env_map.c - environment maps: loading and the CPU's CDF (see env_map.h). Host C11. */
#define _POSIX_C_SOURCE 200809L
#include "host/scene/env_map.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host/io/image_decode.h"
#include "host/io/safe_file.h"
#include "host/scene/texture.h"
#include "host/util/array.h"

#define RS_ENV_MAP_MAX_FILE_BYTES (2ull << 30)

void rs_env_map_free(RsEnvMap* m)
{
    free(m->texels);
    free(m->row_cdf);
    free(m->marginal_cdf);
    free(m->file);
    memset(m, 0, sizeof *m);
}

static int allocate(RsEnvMap* m, uint32_t width, uint32_t height, RsError* err)
{
    rs_env_map_free(m);
    m->texels = rs_alloc_aligned((size_t)width * height, sizeof(RsFloat4), 16);
    if (!m->texels)
        return rs_error_set(err, "out of memory: an environment map of %ux%u texels", width, height);
    m->width = width;
    m->height = height;
    return 0;
}

/* Texels above RS_ENV_TEXEL_MAX (env_map.h) are lowered to it, so that the CDF's sums stay
 * finite; NaN and negatives are left for bad_texel to refuse. */
static float clamp_texel(float v) { return v > RS_ENV_TEXEL_MAX ? RS_ENV_TEXEL_MAX : v; }

static void clamp_texels(RsEnvMap* m)
{
    for (size_t i = 0; i < (size_t)m->width * m->height; ++i) {
        RsFloat4* t = &m->texels[i];
        *t = rs_float4(clamp_texel(t->x), clamp_texel(t->y), clamp_texel(t->z), t->w);
    }
}

int rs_env_map_from_rgb(RsEnvMap* m, const float* rgb, uint32_t width, uint32_t height, RsError* err)
{
    if (allocate(m, width, height, err))
        return -1;
    for (size_t i = 0; i < (size_t)width * height; ++i)
        m->texels[i] = rs_float4(rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2], 0.0f);
    clamp_texels(m);
    return 0;
}

/* The first texel that is negative or not finite, or -1. */
static long bad_texel(const RsEnvMap* m)
{
    for (size_t i = 0; i < (size_t)m->width * m->height; ++i) {
        RsFloat4 t = m->texels[i];
        if (!(t.x >= 0.0f && t.y >= 0.0f && t.z >= 0.0f && t.x < INFINITY && t.y < INFINITY && t.z < INFINITY))
            return (long)i;
    }
    return -1;
}

int rs_env_map_load(RsEnvMap* m, const char* path, const char* where, RsError* err)
{
    char why[256];
    size_t size = 0;
    unsigned char* bytes = (unsigned char*)rs_file_read_all(path, RS_ENV_MAP_MAX_FILE_BYTES, &size, why, sizeof why);
    if (!bytes)
        return rs_error_set(err, "%s: environment map '%s': cannot read: %s", where, path, why);
    const RsImageLimits limits = {RS_ENV_MAP_MAX_WIDTH, RS_ENV_MAP_MAX_HEIGHT, RS_ENV_MAP_MAX_BYTES};
    RsImage image;
    RsError problem = {{0}};
    int status = rs_image_decode(bytes, size, &limits, &image, &problem);
    free(bytes);
    if (status)
        return rs_error_set(err, "%s: environment map '%s': %s", where, path, problem.message);
    rs_env_map_free(m);
    if (image.rgbaf) { /* linear already: the map takes the decoder's pixels */
        m->texels = image.rgbaf;
        m->width = image.width;
        m->height = image.height;
        image.rgbaf = NULL;
    } else if (allocate(m, image.width, image.height, err) == 0) { /* 8-bit: sRGB-encoded colour */
        float table[256];
        for (int i = 0; i < 256; ++i)
            table[i] = rs_srgb_decode((float)i / 255.0f);
        const uint8_t* p = image.rgba8;
        for (size_t i = 0; i < (size_t)image.width * image.height; ++i)
            m->texels[i] = rs_float4(table[p[4 * i]], table[p[4 * i + 1]], table[p[4 * i + 2]], 1.0f);
    } else {
        status = -1;
    }
    rs_image_free(&image);
    if (status)
        return -1;
    long bad = bad_texel(m);
    if (bad >= 0) {
        uint32_t x = (uint32_t)(bad % m->width), y = (uint32_t)(bad / m->width);
        rs_env_map_free(m);
        return rs_error_set(err, "%s: environment map '%s': texel (%u, %u) is negative or not finite", where, path, x,
                            y);
    }
    clamp_texels(m);
    m->file = strdup(path);
    if (!m->file) {
        rs_env_map_free(m);
        return rs_error_set(err, "%s: environment map '%s': out of memory", where, path);
    }
    return 0;
}

RsEnvMapView rs_env_map_view(const RsEnvMap* m)
{
    RsEnvMapView v;
    memset(&v, 0, sizeof v);
    v.texels = m->texels;
    v.row_cdf = m->row_cdf;
    v.marginal_cdf = m->marginal_cdf;
    v.width = m->width;
    v.height = m->height;
    v.mapping = m->mapping;
    for (int i = 0; i < 3; ++i)
        v.frame[i] = rs_float4(m->frame[i][0], m->frame[i][1], m->frame[i][2], 0.0f);
    return v;
}

int rs_env_map_set_octahedral(RsEnvMap* m, const double frame[3][3], const char* where, RsError* err)
{
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double dot = 0.0;
            for (int k = 0; k < 3; ++k)
                dot += frame[i][k] * frame[j][k];
            if (!(fabs(dot - (i == j ? 1.0 : 0.0)) < 1e-4))
                return rs_error_set(err, "%s: environment map frame is not orthogonal (rows %d and %d)", where, i, j);
        }
    m->mapping = RS_ENV_MAPPING_OCTAHEDRAL;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            m->frame[i][j] = (float)frame[i][j];
    return 0;
}

int rs_env_map_build_cdf(RsEnvMap* m, RsError* err)
{
    uint32_t w = m->width, h = m->height;
    free(m->row_cdf);
    free(m->marginal_cdf);
    m->row_cdf = malloc((size_t)w * h * sizeof(float));
    m->marginal_cdf = malloc((size_t)h * sizeof(float));
    if (!m->row_cdf || !m->marginal_cdf)
        return rs_error_set(err, "out of memory: the sampling table of a %ux%u environment map", w, h);
    RsEnvMapView view = rs_env_map_view(m);
    double total = 0.0;
    for (uint32_t y = 0; y < h; ++y) {
        float* row = m->row_cdf + (size_t)y * w;
        float sum = 0.0f; /* float, as the GPU's scan: the two tables agree to rounding */
        for (uint32_t x = 0; x < w; ++x)
            row[x] = sum += rs_env_cdf_weight(&view, x, y);
        for (uint32_t x = 0; x < w; ++x)
            row[x] = rs_env_cdf_normalize(row[x], sum, x, w);
        m->marginal_cdf[y] = sum;
        total += sum;
    }
    float sum = 0.0f;
    for (uint32_t y = 0; y < h; ++y)
        m->marginal_cdf[y] = sum += m->marginal_cdf[y];
    for (uint32_t y = 0; y < h; ++y)
        m->marginal_cdf[y] = rs_env_cdf_normalize(m->marginal_cdf[y], sum, y, h);
    m->total_weight = total;
    return 0;
}

double rs_env_map_mean_luminance(const RsEnvMap* m)
{
    if (m->width == 0 || m->height == 0)
        return 0.0;
    if (m->mapping == RS_ENV_MAPPING_OCTAHEDRAL)
        return m->total_weight / ((double)m->width * m->height);
    double step = m->height > 1 ? 1.0 / (double)(m->height - 1) : 1.0; /* the weights' unit of v */
    return m->total_weight * RS_PI * step / (2.0 * (double)m->width);
}
