/* texture.h - image textures as per-ray code reads them: RGBA8 mip chains, bilinear within a
 * level, linear between levels, repeat or clamp at the edges.
 *
 * Shared header (gcc C11, g++, nvcc): the CPU and the GPU run this same function on the same
 * bytes, so they agree up to float contraction (test_texture checks 1e-5). The host builds the
 * chains (src/host/scene/texture.c); the CUDA backend copies them unchanged.
 *
 * Layout: every texel is a uint32 RGBA8 (r in the low byte). Texture i's RsUint4 descriptor:
 *   x = index of its first texel (level 0) in the texel array
 *   y = width, z = height of level 0
 *   w = number of levels | flags << 8 (RS_TEXTURE_SRGB: colour stored sRGB-encoded, decoded
 *       through the 256-entry table srgb_to_linear; RS_TEXTURE_CLAMP: clamp instead of repeat)
 * Level l is max(1, width >> l) x max(1, height >> l) texels, stored right after level l - 1,
 * rows from the top of the image. Texture coordinates follow OBJ and OpenGL: (0, 0) is the
 * image's bottom-left corner, (1, 1) its top-right.
 *
 * A procedural checkerboard (RS_TEXTURE_CHECKER; rs_texture_add_checkerboard on the host) is
 * one level whose texels are not RGBA8 but its two linear colours as float bits, colour0 at
 * x..x+3 and colour1 at x+4..x+7 (rgba); y = z = RS_CHECKER_DENSITY. colour0 where
 * floor(2u) + floor(2v) is even. It is box-filtered over the footprint's width (rs_checker_lookup).
 *
 * Level of detail (rs_texture_lod) comes from a ray cone (Akenine-Moller et al., "Texture Level
 * of Detail Strategies for Real-Time Ray Tracing", Ray Tracing Gems ch. 20): the footprint of
 * a pixel at the hit, `width`, against the texel density of the surface.
 */
#ifndef RS_KERNEL_TEXTURE_H
#define RS_KERNEL_TEXTURE_H

#include "kernel/util/vecmath.h"

enum { RS_TEXTURE_SRGB = 1, RS_TEXTURE_CLAMP = 2, RS_TEXTURE_CHECKER = 4 };

/* A checkerboard's texel density for the level of detail: its footprint in texels of this
 * density per unit of (u, v) gives the box filter's width, down to 1/4096 of the unit square;
 * below that it is point-sampled. */
#define RS_CHECKER_DENSITY 4096u

#define RS_NO_TEXTURE 0xffffffffu

typedef struct RsTextureView {
    const RsUint4* descriptors;
    const uint32_t* texels;
    const float* srgb_to_linear; /* 256 entries */
    uint32_t count;       /* textures */
    uint32_t texel_count; /* texels of every level of every texture: the length of `texels` */
} RsTextureView;

RS_FN uint32_t rs_texture_levels(RsUint4 d) { return d.w & 0xffu; }
RS_FN uint32_t rs_texture_flags(RsUint4 d) { return d.w >> 8; }

/* Wraps an integer texel coordinate into [0, size). */
RS_FN uint32_t rs_texel_wrap(int x, uint32_t size, int clamp)
{
    int n = (int)size;
    if (clamp)
        return (uint32_t)(x < 0 ? 0 : (x >= n ? n - 1 : x));
    int m = x % n;
    return (uint32_t)(m < 0 ? m + n : m);
}

RS_FN RsFloat4 rs_texel_decode(const RsTextureView* t, uint32_t texel, int srgb)
{
    float c[4];
    for (int k = 0; k < 4; ++k) {
        uint32_t byte = (texel >> (8 * k)) & 0xffu;
        c[k] = (srgb && k < 3) ? t->srgb_to_linear[byte] : (float)byte * (1.0f / 255.0f);
    }
    return rs_float4(c[0], c[1], c[2], c[3]);
}

/* Bilinear lookup in one level; (u, v) in texture coordinates. */
RS_FN RsFloat4 rs_texture_bilinear(const RsTextureView* t, RsUint4 d, uint32_t level, float u, float v)
{
    uint32_t offset = d.x, w = d.y, h = d.z;
    for (uint32_t l = 0; l < level; ++l) {
        offset += w * h;
        w = w > 1 ? w >> 1 : 1;
        h = h > 1 ? h >> 1 : 1;
    }
    uint32_t flags = rs_texture_flags(d);
    int clamp = (flags & RS_TEXTURE_CLAMP) != 0, srgb = (flags & RS_TEXTURE_SRGB) != 0;
    /* texel centres at half-integers; row 0 is the top of the image, v = 1 */
    float x = u * (float)w - 0.5f, y = (1.0f - v) * (float)h - 0.5f;
    float fx = floorf(x), fy = floorf(y);
    float ax = x - fx, ay = y - fy;
    /* coordinates far outside [0, 1] would overflow int; repeat keeps only the fraction anyway */
    fx = rs_clampf(fx, -1e7f, 1e7f);
    fy = rs_clampf(fy, -1e7f, 1e7f);
    int x0 = (int)fx, y0 = (int)fy;
    uint32_t xs[2] = {rs_texel_wrap(x0, w, clamp), rs_texel_wrap(x0 + 1, w, clamp)};
    uint32_t ys[2] = {rs_texel_wrap(y0, h, clamp), rs_texel_wrap(y0 + 1, h, clamp)};
    RsFloat4 sum = rs_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int j = 0; j < 2; ++j)
        for (int i = 0; i < 2; ++i) {
            float weight = (i ? ax : 1.0f - ax) * (j ? ay : 1.0f - ay);
            RsFloat4 c = rs_texel_decode(t, t->texels[offset + ys[j] * w + xs[i]], srgb);
            sum.x += weight * c.x;
            sum.y += weight * c.y;
            sum.z += weight * c.z;
            sum.w += weight * c.w;
        }
    return sum;
}

/* The mean over [s0, s1] of a square wave that is 1 on [2k + 1, 2k + 2) and 0 elsewhere, from
 * its integral from 0, I(x) = floor(x / 2) + max(0, x - 2 floor(x / 2) - 1). */
RS_FN float rs_checker_box(float s0, float s1)
{
    float h0 = floorf(0.5f * s0), h1 = floorf(0.5f * s1);
    float i0 = h0 + rs_maxf(0.0f, s0 - 2.0f * h0 - 1.0f), i1 = h1 + rs_maxf(0.0f, s1 - 2.0f * h1 - 1.0f);
    return rs_clampf((i1 - i0) / (s1 - s0), 0.0f, 1.0f);
}

/* A checkerboard (see the top of the file) at (u, v), box-filtered over a square footprint of
 * 2^lod texels of RS_CHECKER_DENSITY: colour1's share is that of an odd floor(2u) + floor(2v),
 * which for a box (separable) is a + b - 2ab with a and b the shares of odd cells along u and
 * v (the exclusive or of the two parities). lod 0 (a footprint below 1/4096) is point-sampled. */
RS_FN RsFloat4 rs_checker_lookup(const RsTextureView* t, RsUint4 d, float u, float v, float lod)
{
    const uint32_t* c = t->texels + d.x;
    float su = 2.0f * u, sv = 2.0f * v, w1;
    float half = lod > 0.0f ? exp2f(lod) / (float)d.y : 0.0f; /* half the footprint's width, in cells (2 per unit) */
    if (half > 0.0f && su - half < su + half && sv - half < sv + half) {
        float a = rs_checker_box(su - half, su + half), b = rs_checker_box(sv - half, sv + half);
        w1 = a + b - 2.0f * a * b;
    } else {
        float fu = floorf(su), fv = floorf(sv);
        w1 = fmodf(fabsf(fu + fv), 2.0f) == 1.0f ? 1.0f : 0.0f;
    }
    float w0 = 1.0f - w1;
    return rs_float4(w0 * rs_uint_as_float(c[0]) + w1 * rs_uint_as_float(c[4]),
                     w0 * rs_uint_as_float(c[1]) + w1 * rs_uint_as_float(c[5]),
                     w0 * rs_uint_as_float(c[2]) + w1 * rs_uint_as_float(c[6]),
                     w0 * rs_uint_as_float(c[3]) + w1 * rs_uint_as_float(c[7]));
}

/* Trilinear lookup at level of detail `lod` (0 = full resolution). */
RS_FN RsFloat4 rs_texture_lookup(const RsTextureView* t, uint32_t index, float u, float v, float lod)
{
    RsUint4 d = t->descriptors[index];
    if (rs_texture_flags(d) & RS_TEXTURE_CHECKER) {
        if (!(u == u) || !(v == v))
            u = v = 0.0f;
        return rs_checker_lookup(t, d, u, v, lod == lod ? lod : 0.0f);
    }
    if (!(u == u) || !(v == v)) /* NaN coordinates read the corner */
        u = v = 0.0f;
    float top = (float)(rs_texture_levels(d) - 1);
    lod = rs_clampf(lod == lod ? lod : 0.0f, 0.0f, top);
    uint32_t l0 = (uint32_t)lod;
    float blend = lod - (float)l0;
    RsFloat4 a = rs_texture_bilinear(t, d, l0, u, v);
    if (blend == 0.0f)
        return a;
    RsFloat4 b = rs_texture_bilinear(t, d, l0 + 1, u, v);
    return rs_float4(a.x + blend * (b.x - a.x), a.y + blend * (b.y - a.y), a.z + blend * (b.z - a.z),
                     a.w + blend * (b.w - a.w));
}

/* Level of detail for a footprint of `width` (world units across, at the hit) on a surface
 * whose texture coordinates cover uv_area per world_area, seen at cos_view to its normal, in a
 * texture of level-0 size w x h: log2 of the footprint's side in texels, the footprint
 * stretched by 1 / cos as the ray cone's is (isotropic filtering: grazing views blur). */
RS_FN float rs_texture_lod(RsUint4 d, float uv_area, float world_area, float width, float cos_view)
{
    float texels_per_area = uv_area * (float)d.y * (float)d.z / world_area;
    float cos_clamped = rs_maxf(fabsf(cos_view), 0.05f); /* a grazing footprint stretches without end */
    float footprint = width * width * texels_per_area / (cos_clamped * cos_clamped);
    return footprint > 1.0f ? 0.5f * log2f(footprint) : 0.0f;
}

#endif /* RS_KERNEL_TEXTURE_H */
