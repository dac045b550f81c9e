/* sampler.h - where every random number of a path comes from: one interface
 * over (seed, stream, index, bounce, dimension).
 *
 * Shared header (gcc C11, g++, nvcc). A number is a pure function of
 *   seed       the render's seed,
 *   stream     what is being sampled: a pixel (the path tracer), later a particle or photon,
 *   index      which sample of that stream: the sample index within the pixel, or a pass,
 *   bounce     the path vertex (0 = the camera ray),
 *   dimension  which number of the vertex (RS_DIM_*, fixed by purpose, so nothing is counted),
 * and of nothing else: not the thread, the slot, the wave, the device or the process. That is
 * what keeps an image bit-identical across dead-ray strategies, devices, MPI ranks, wave sizes
 * and a resumed checkpoint (docs/architecture.md, "Bit-identical images"). The sequence of a
 * stream must not depend on how many samples will be taken either: resuming to more samples and
 * stopping at a time limit rely on it.
 *
 * Usage in a stage: build the path's sampler once from what RayState keeps (the pixel and the
 * sample index, path.y and path.w), then draw:
 *   RsPathSampler ps = rs_sampler_path(kp->sampler, kp->seed, pixel, sample);
 *   float u = rs_sampler_1d(&ps, bounce, RS_DIM_BSDF_U);
 *   rs_sampler_2d(&ps, bounce, RS_DIM_BSDF_U, &u, &v);   the same two numbers as two 1d calls
 * A sampler is chosen per render (RsKernelParams.sampler); a new one adds an RS_SAMPLER_* value
 * and a case in the switches below (an enum switch, never a device function pointer), plus
 * whatever per-path state it needs in RsPathSampler. The samplers:
 *   RS_SAMPLER_INDEPENDENT  rng.h's hash: independent uniform numbers, the first implementation.
 *   RS_SAMPLER_SOBOL        Owen-scrambled Sobol points, padded (sobol.h): the dimensions of a
 *                           bounce form groups, pairs (pixel x/y, lens u/v, light u/v, bsdf u/v)
 *                           and singles (light pick, lobe, roulette, the reserved ones). Each
 *                           group of each bounce draws from its own shuffled 2D (or 1D) Owen-
 *                           scrambled sequence, seeded by (seed, pixel, bounce, group), so over
 *                           a pixel's samples 0..2^k-1 a pair is stratified in every elementary
 *                           interval of area 2^-k and a single in every 1/2^k, while groups and
 *                           pixels are independent of one another.
 */
#ifndef RS_KERNEL_SAMPLER_H
#define RS_KERNEL_SAMPLER_H

#include "kernel/sampling/rng.h"
#include "kernel/sampling/sobol.h"

enum {
    RS_SAMPLER_INDEPENDENT = 0, /* rng.h's hash of (seed, stream, index, bounce, dimension) */
    RS_SAMPLER_SOBOL = 1,       /* Owen-scrambled Sobol points, padded per bounce (sobol.h) */
    RS_SAMPLER_COUNT
};

/* Which number of a bounce is used for what. Bounce 0 is the camera ray. A sampler that
 * stratifies lays its dimensions out in this order, so the pixel position comes first; the
 * Sobol sampler pairs the two coordinates of one 2D decision (RS_SAMPLER_PAIR_SECOND). */
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
    RS_DIM_COUNT = RS_RNG_BOUNCE_STRIDE /* dimensions reserved per bounce */
};

/* The dimensions that are the second coordinate of a 2D group whose first is the dimension
 * before them; every other dimension is the first of its group (a pair's or a single's). */
#define RS_SAMPLER_PAIR_SECOND                                                                  \
    ((1u << RS_DIM_PIXEL_Y) | (1u << RS_DIM_LENS_V) | (1u << RS_DIM_LIGHT_V) | (1u << RS_DIM_BSDF_V))
RS_STATIC_ASSERT(RS_DIM_PIXEL_Y == RS_DIM_PIXEL_X + 1 && RS_DIM_LENS_V == RS_DIM_LENS_U + 1 &&
                     RS_DIM_LIGHT_V == RS_DIM_LIGHT_U + 1 && RS_DIM_BSDF_V == RS_DIM_BSDF_U + 1,
                 "the Sobol sampler's pairs are adjacent dimensions");
RS_STATIC_ASSERT(RS_DIM_COUNT <= 32, "RS_SAMPLER_PAIR_SECOND is a 32-bit mask");

/* One path's sampler: what its numbers are drawn from, computed once per stage call. */
typedef struct RsPathSampler {
    uint32_t kind;  /* RS_SAMPLER_* */
    uint32_t key;   /* INDEPENDENT: rs_rng_path_key(seed, stream, index); SOBOL: a hash of (seed, stream) */
    uint32_t index; /* SOBOL: the sample index (the point number before each group's shuffle) */
} RsPathSampler;

RS_FN RsPathSampler rs_sampler_path(uint32_t kind, uint32_t seed, uint32_t stream, uint32_t index)
{
    RsPathSampler ps;
    ps.kind = kind;
    ps.index = index;
    switch (kind) {
    case RS_SAMPLER_SOBOL:
        ps.key = rs_hash_u32(rs_hash_u32(seed ^ 0x3c6ef372u) ^ stream);
        break;
    default: /* RS_SAMPLER_INDEPENDENT */
        ps.key = rs_rng_path_key(seed, stream, index);
        break;
    }
    return ps;
}

/* RS_SAMPLER_SOBOL: the seed of the group that starts at dimension `first` of `bounce`. */
RS_FN uint32_t rs_sampler_sobol_group(const RsPathSampler* ps, uint32_t bounce, uint32_t first)
{
    return rs_hash_u32(ps->key ^ (bounce * (uint32_t)RS_RNG_BOUNCE_STRIDE + first) * 0xc2b2ae35u);
}

/* A uniform number in [0, 1). */
RS_FN float rs_sampler_1d(const RsPathSampler* ps, uint32_t bounce, uint32_t dim)
{
    switch (ps->kind) {
    case RS_SAMPLER_SOBOL: {
        uint32_t second = (RS_SAMPLER_PAIR_SECOND >> (dim & 31u)) & 1u;
        uint32_t group = rs_sampler_sobol_group(ps, bounce, dim - second);
        return rs_sobol_to_float(rs_sobol_coord(ps->index, group, second));
    }
    default: /* RS_SAMPLER_INDEPENDENT */
        return rs_rng(ps->key, bounce, dim);
    }
}

/* Two numbers, dimensions dim and dim + 1, equal to two rs_sampler_1d calls; when they are one
 * Sobol pair, the pair's shuffle and group seed are computed once. */
RS_FN void rs_sampler_2d(const RsPathSampler* ps, uint32_t bounce, uint32_t dim, float* u, float* v)
{
    if (ps->kind == RS_SAMPLER_SOBOL && ((RS_SAMPLER_PAIR_SECOND >> ((dim + 1u) & 31u)) & 1u)) {
        uint32_t x, y;
        rs_sobol_point2(ps->index, rs_sampler_sobol_group(ps, bounce, dim), &x, &y);
        *u = rs_sobol_to_float(x);
        *v = rs_sobol_to_float(y);
        return;
    }
    *u = rs_sampler_1d(ps, bounce, dim);
    *v = rs_sampler_1d(ps, bounce, dim + 1u);
}

#endif /* RS_KERNEL_SAMPLER_H */
