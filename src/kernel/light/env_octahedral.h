/* env_octahedral.h - the equal-area octahedral mapping between the unit square and the sphere
 * (Clarberg 2008, "Fast equal-area mapping of the (hemi)sphere using SIMD"; pbrt-v4 stores its
 * image infinite lights this way), and the wrap of texel coordinates across the square's borders.
 *
 * Shared header (gcc C11, g++, nvcc). Written from the paper's description:
 * (u, v) in [0, 1]^2 becomes (a, b) = (2u - 1, 2v - 1) in [-1, 1]^2. The diamond |a| + |b| <= 1
 * holds the +z hemisphere, the four corner triangles the -z one (folded outwards, so the square's
 * corners are all -z and its centre +z). r = 1 - |1 - |a| - |b|| is the distance from the pole in
 * "rings": the ring r encloses the cap 1 - |z| <= r^2 of area 2 pi r^2 and, in the square,
 * the diamond of area 2 r^2 - the same fraction (r^2 / 2) of the whole, so the mapping keeps
 * area: every region of the square covers 4 pi times its area in steradians. Along a ring the
 * angle phi in each quadrant grows linearly with the position (|b| - |a|) / r from 0 at the
 * a axis to pi / 2 at the b axis; the signs of a and b pick the quadrant of (x, y).
 */
#ifndef RS_KERNEL_ENV_OCTAHEDRAL_H
#define RS_KERNEL_ENV_OCTAHEDRAL_H

#include "kernel/util/vecmath.h"

/* The unit direction at (u, v) of the square. */
RS_FN RsVec3 rs_equal_area_square_to_sphere(float u, float v)
{
    float a = 2.0f * u - 1.0f, b = 2.0f * v - 1.0f;
    float abs_a = fabsf(a), abs_b = fabsf(b);
    float signed_distance = 1.0f - (abs_a + abs_b); /* > 0 inside the diamond: the +z half */
    float r = 1.0f - fabsf(signed_distance);
    float phi = (r == 0.0f ? 1.0f : (abs_b - abs_a) / r + 1.0f) * (0.25f * RS_PI);
    float z = copysignf(1.0f - r * r, signed_distance);
    float ring = r * sqrtf(rs_maxf(0.0f, 2.0f - r * r)); /* sqrt(1 - z^2) */
    return rs_vec3(copysignf(cosf(phi) * ring, a), copysignf(sinf(phi) * ring, b), z);
}

/* (u, v) in [0, 1]^2 of a unit direction: the inverse of rs_equal_area_square_to_sphere. */
RS_FN void rs_equal_area_sphere_to_square(RsVec3 d, float* u, float* v)
{
    float x = fabsf(d.x), y = fabsf(d.y), z = fabsf(d.z);
    float r = sqrtf(rs_maxf(0.0f, 1.0f - z));
    float phi = atan2f(y, x) * (2.0f * RS_INV_PI); /* the quadrant's angle as a fraction of pi / 2 */
    float b = r * phi, a = r - b;                   /* on the diamond's ring r */
    if (d.z < 0.0f) {                               /* the folded corner triangle */
        float t = a;
        a = 1.0f - b;
        b = 1.0f - t;
    }
    *u = 0.5f * (copysignf(a, d.x) + 1.0f);
    *v = 0.5f * (copysignf(b, d.y) + 1.0f);
}

/* Texel (x, y) of a w x h octahedral image, brought back inside it. The square's border folds
 * onto itself: just past the edge u = 0 lies the point mirrored across it and flipped along it,
 * (-u, v) = (u, 1 - v), and likewise for the other edges (pbrt-v4's WrapEqualAreaSquare). Taken at
 * texel centres, texel -1 is texel 0 of the flipped row and texel w is texel w - 1; pbrt-v4's
 * integer version (RemapPixelCoords) maps -1 to 1 instead, one texel off its own rule on the
 * low edges. A corner's diagonal neighbour is the opposite corner (all four are -z). */
RS_FN void rs_octahedral_wrap(int* x, int* y, int w, int h)
{
    if (*x < 0) {
        *x = -1 - *x;
        *y = h - 1 - *y;
    } else if (*x >= w) {
        *x = 2 * w - 1 - *x;
        *y = h - 1 - *y;
    }
    if (*y < 0) {
        *x = w - 1 - *x;
        *y = -1 - *y;
    } else if (*y >= h) {
        *x = w - 1 - *x;
        *y = 2 * h - 1 - *y;
    }
    *x = *x < 0 ? 0 : (*x >= w ? w - 1 : *x); /* one-texel images */
    *y = *y < 0 ? 0 : (*y >= h ? h - 1 : *y);
}

#endif /* RS_KERNEL_ENV_OCTAHEDRAL_H */
