/* sobol.h - Owen-scrambled Sobol points in one and two dimensions, shuffled per group of
 * dimensions: the arithmetic behind sampler.h's RS_SAMPLER_SOBOL.
 *
 * Shared header (gcc C11, g++, nvcc). No tables: both Sobol dimensions used here are computed
 * from the index with a few shifts, so nothing needs __constant__ memory or a load.
 *
 * The design follows Burley 2020, "Practical Hash-based Owen Scrambling" (JCGT 9(4)):
 *  - Only the first two Sobol dimensions are used. Dimension 0 is van der Corput (the index's
 *    bits reversed); dimension 1 comes from the primitive polynomial x + 1, whose direction
 *    numbers are the rows of Pascal's triangle mod 2. Together they are a (0,2)-sequence: every
 *    aligned block of 2^k consecutive points has exactly one point in each elementary interval
 *    of area 2^-k.
 *  - Each coordinate is Owen-scrambled (nested uniform scrambling: digit d flips by a random
 *    function of the digits before it), which keeps the net property and makes the points an
 *    unbiased, randomised quadrature with variance O(N^-3) on smooth integrands. It is done
 *    with a hash in which every bit depends only on the bits below it, applied to the
 *    coordinate with its bits reversed (Laine and Karras 2011 showed the idea).
 *  - Padding: a path needs many dimensions, but only two are Sobol's. Each group of one or two
 *    dimensions (sampler.h lays them out) draws point number shuffle(index) instead of point
 *    number index, where the shuffle is the same nested scramble of the index's own bits, seeded
 *    per (seed, pixel, bounce, group). Index bit q of the shuffled index depends only on the
 *    index's bits at q and above, so samples 0..2^k-1 land on one aligned block of 2^k points
 *    (a full net, in another order): stratification holds at every power of two, whatever the
 *    total sample count, and groups and pixels are decorrelated from one another.
 * Everything is a pure function of its arguments, over the full 32-bit index range.
 */
#ifndef RS_KERNEL_SOBOL_H
#define RS_KERNEL_SOBOL_H

#include "kernel/sampling/rng.h"

RS_FN uint32_t rs_sobol_reverse_bits(uint32_t x)
{
#if RS_DEVICE_CODE
    return __brev(x);
#else
    x = (x >> 16) | (x << 16);
    x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    return ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
#endif
}

/* A seeded bijection of 32-bit words in which output bit p depends only on the seed and input
 * bits 0..p: additions, multiplications and x ^= x * even only carry upwards. On a bit-reversed
 * fraction that is a nested uniform scramble: each digit flips by a function of the digits
 * before it. The seed enters by an addition (so the first digit is a fair coin) and as an odd
 * multiplier; the constants were picked by a search for the flattest upward avalanche (every
 * input bit flips every higher output bit with probability 1/2 to within sampling noise, over
 * random seeds and inputs). */
RS_FN uint32_t rs_sobol_scramble_up(uint32_t x, uint32_t seed)
{
    x += seed;
    x ^= x * 0x1ea9b800u;
    x *= ((seed >> 16) ^ (seed << 16) ^ 0xe027d956u) | 1u;
    x ^= x * 0x6763aa0au;
    x ^= x * 0xa6a59b22u;
    return x;
}

/* Nested uniform scramble of a 32-bit fixed-point fraction (bit 31 is the first binary digit). */
RS_FN uint32_t rs_sobol_owen(uint32_t x, uint32_t seed)
{
    return rs_sobol_reverse_bits(rs_sobol_scramble_up(rs_sobol_reverse_bits(x), seed));
}

/* Sobol's dimension 1 for index i, bit-reversed (bit 0 is the first digit). Its direction number
 * for index bit q, reversed, is row q of Pascal's triangle mod 2: bit p is set when the binary
 * digits of p are a subset of those of q (Lucas). So digit p of the point is the parity of the
 * index bits at positions q that contain p: a superset sum over the 5-bit position, one
 * shift-and-mask per position bit instead of a loop over the index's bits. */
RS_FN uint32_t rs_sobol_dim1_reversed(uint32_t i)
{
    i ^= (i >> 1) & 0x55555555u;
    i ^= (i >> 2) & 0x33333333u;
    i ^= (i >> 4) & 0x0f0f0f0fu;
    i ^= (i >> 8) & 0x00ff00ffu;
    i ^= (i >> 16) & 0x0000ffffu;
    return i;
}

/* The index shuffle of a group: a nested uniform scramble of the index's bits taken from the
 * top, so bits q and above of the result depend only on bits q and above of the index. */
RS_FN uint32_t rs_sobol_shuffle(uint32_t index, uint32_t group_seed)
{
    return rs_sobol_owen(index, group_seed);
}

/* The seeds of a group's two coordinate scrambles: other hashes of the group's seed than the
 * shuffle's (which is the group seed itself). */
RS_FN uint32_t rs_sobol_coord_seed(uint32_t group_seed, uint32_t coord)
{
    return rs_hash_u32(group_seed ^ (coord ? 0x2c1b3c6du : 0x297a2d39u));
}

/* One coordinate (0 or 1) of the group's point for sample `index`, as a 32-bit fraction. */
RS_FN uint32_t rs_sobol_coord(uint32_t index, uint32_t group_seed, uint32_t coord)
{
    uint32_t j = rs_sobol_shuffle(index, group_seed);
    /* reversed Sobol coordinate: van der Corput's is the shuffled index itself */
    uint32_t r = coord ? rs_sobol_dim1_reversed(j) : j;
    return rs_sobol_reverse_bits(rs_sobol_scramble_up(r, rs_sobol_coord_seed(group_seed, coord)));
}

/* Both coordinates of the group's point, sharing the shuffle. */
RS_FN void rs_sobol_point2(uint32_t index, uint32_t group_seed, uint32_t* x, uint32_t* y)
{
    uint32_t j = rs_sobol_shuffle(index, group_seed);
    *x = rs_sobol_reverse_bits(rs_sobol_scramble_up(j, rs_sobol_coord_seed(group_seed, 0)));
    *y = rs_sobol_reverse_bits(rs_sobol_scramble_up(rs_sobol_dim1_reversed(j), rs_sobol_coord_seed(group_seed, 1)));
}

/* A 32-bit fraction as a float in [0, 1): the top 24 bits, so 1.0 never appears (as rng.h). */
RS_FN float rs_sobol_to_float(uint32_t x) { return (float)(x >> 8) * (1.0f / 16777216.0f); }

#endif /* RS_KERNEL_SOBOL_H */
