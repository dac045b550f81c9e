/* ray_sort.h - the key by which --sort-rays orders bounce rays before extend.
 *
 * Shared header (gcc C11, g++, nvcc); the CPU backend sorts with it, the CUDA backend computes
 * it in a kernel and sorts with CUB's radix sort. Rays that start near each other and head the
 * same way tend to visit the same nodes, so tracing them in neighbouring lanes keeps a warp's
 * walks alike (Garanzha and Loop 2010; Cycles sorts by shader for the same reason). The key:
 * the direction's octant in bits 27..29, then a Morton code of the origin quantised to a
 * 512^3 grid over the scene's box in bits 0..26, so the octant splits first and space second.
 */
#ifndef RS_KERNEL_RAY_SORT_H
#define RS_KERNEL_RAY_SORT_H

#include "kernel/util/vecmath.h"

/* Spreads the low 9 bits of x to every third bit (bit i -> bit 3i). */
RS_FN uint32_t rs_morton_spread9(uint32_t x)
{
    x &= 0x1ffu;
    x = (x | (x << 16)) & 0x030000ffu;
    x = (x | (x << 8)) & 0x0300f00fu;
    x = (x | (x << 4)) & 0x030c30c3u;
    x = (x | (x << 2)) & 0x09249249u;
    return x;
}

RS_FN uint32_t rs_sort_cell(float p, float lo, float scale)
{
    float c = (p - lo) * scale;
    return c <= 0.0f ? 0u : (c >= 511.0f ? 511u : (uint32_t)c);
}

/* 512 / the box's extent per axis (0 on a flat axis): the quantisation of rs_ray_sort_key. */
RS_FN RsVec3 rs_sort_scale(RsFloat4 lo, RsFloat4 hi)
{
    RsVec3 e = rs_sub(rs_xyz(hi), rs_xyz(lo));
    return rs_vec3(e.x > 0.0f ? 512.0f / e.x : 0.0f, e.y > 0.0f ? 512.0f / e.y : 0.0f,
                   e.z > 0.0f ? 512.0f / e.z : 0.0f);
}

/* lo: the scene box's low corner; scale: rs_sort_scale. */
RS_FN uint32_t rs_ray_sort_key(RsVec3 o, RsVec3 d, RsVec3 lo, RsVec3 scale)
{
    uint32_t octant = (d.x < 0.0f ? 1u : 0u) | (d.y < 0.0f ? 2u : 0u) | (d.z < 0.0f ? 4u : 0u);
    uint32_t morton = rs_morton_spread9(rs_sort_cell(o.x, lo.x, scale.x)) |
                      (rs_morton_spread9(rs_sort_cell(o.y, lo.y, scale.y)) << 1) |
                      (rs_morton_spread9(rs_sort_cell(o.z, lo.z, scale.z)) << 2);
    return (octant << 27) | morton;
}

#endif /* RS_KERNEL_RAY_SORT_H */
