/* rng.h - stateless random numbers: a hash of (seed, pixel, sample, bounce, dimension).
 *
 * Shared header (gcc C11, g++, nvcc). Nothing here depends on a thread, a slot or the order in
 * which rays are processed, which is what makes every dead-ray strategy and every thread count
 * produce the same image bit for bit (docs/architecture.md, "Bit-identical images"). This is
 * the independent sampler of sampler.h, which is what per-ray code calls.
 *
 * The hash is split in two so that a stage does not redo the per-path part for every number:
 *   key = rs_rng_path_key(seed, pixel, sample)   once per path and stage call
 *   u   = rs_rng(key, bounce, dim)               one hash per number drawn
 * Dimensions inside a bounce are fixed by purpose (RS_DIM_*, sampler.h), so no counter is stored.
 */
#ifndef RS_KERNEL_RNG_H
#define RS_KERNEL_RNG_H

#include "kernel/util/compat.h"

/* Numbers reserved per bounce: bounce b, dimension d hashes b * RS_RNG_BOUNCE_STRIDE + d. */
enum { RS_RNG_BOUNCE_STRIDE = 16 };

/* "lowbias32" integer finaliser by Chris Wellons (hash-prospector): full avalanche, bijective. */
RS_FN uint32_t rs_hash_u32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

RS_FN uint32_t rs_rng_path_key(uint32_t seed, uint32_t pixel, uint32_t sample)
{
    uint32_t h = rs_hash_u32(seed ^ 0x9e3779b9u);
    h = rs_hash_u32(h ^ pixel);
    return rs_hash_u32(h + sample * 0x85ebca6bu);
}

/* Uniform float in [0, 1): the top 24 bits, so 1.0 can never be returned. */
RS_FN float rs_rng(uint32_t path_key, uint32_t bounce, uint32_t dim)
{
    uint32_t h = rs_hash_u32(path_key ^ (bounce * (uint32_t)RS_RNG_BOUNCE_STRIDE + dim) * 0xc2b2ae35u);
    return (float)(h >> 8) * (1.0f / 16777216.0f);
}

#endif /* RS_KERNEL_RNG_H */
