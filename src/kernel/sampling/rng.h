/* rng.h - stateless random numbers: a hash of (seed, pixel, sample, bounce, dimension).
 *
 * Shared header (gcc C11, g++, nvcc). Nothing here depends on a thread, a slot or the order in
 * which rays are processed, which is what makes every dead-ray strategy and every thread count
 * produce the same image bit for bit (DESIGN.md section 3).
 *
 * The hash is split in two so that per-ray code does not redo the per-path part:
 *   key = rs_rng_path_key(seed, pixel, sample)   computed once in generate, kept in RayState
 *   u   = rs_rng(key, bounce, dim)               one hash per number drawn
 * Dimensions inside a bounce are fixed by purpose (RS_DIM_*), so no counter is stored.
 */
#ifndef RS_KERNEL_RNG_H
#define RS_KERNEL_RNG_H

#include "kernel/util/compat.h"

/* Which number of a bounce is used for what. Bounce 0 is the camera ray. */
enum {
    RS_DIM_PIXEL_X = 0,
    RS_DIM_PIXEL_Y = 1,
    RS_DIM_LENS_U = 2,
    RS_DIM_LENS_V = 3,
    RS_DIM_LIGHT_PICK = 4,
    RS_DIM_LIGHT_U = 5,
    RS_DIM_LIGHT_V = 6,
    RS_DIM_BSDF_U = 7,
    RS_DIM_BSDF_V = 8,
    RS_DIM_BSDF_LOBE = 9,
    RS_DIM_ROULETTE = 10,
    RS_DIM_COUNT = 16
};

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
    uint32_t h = rs_hash_u32(path_key ^ (bounce * (uint32_t)RS_DIM_COUNT + dim) * 0xc2b2ae35u);
    return (float)(h >> 8) * (1.0f / 16777216.0f);
}

#endif /* RS_KERNEL_RNG_H */
