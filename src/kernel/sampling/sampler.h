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
 * A sampler is chosen per render (RsKernelParams.sampler); a new one adds an RS_SAMPLER_* value
 * and a case in the two switches below (an enum switch, never a device function pointer), plus
 * whatever per-path state it needs in RsPathSampler. RS_SAMPLER_INDEPENDENT is the hash of
 * rng.h: independent uniform numbers, the first implementation.
 */
#ifndef RS_KERNEL_SAMPLER_H
#define RS_KERNEL_SAMPLER_H

#include "kernel/sampling/rng.h"

enum {
    RS_SAMPLER_INDEPENDENT = 0, /* rng.h's hash of (seed, stream, index, bounce, dimension) */
    RS_SAMPLER_SOBOL = 1,       /* Owen-scrambled Sobol points, padded per bounce (sobol.h) */
    RS_SAMPLER_COUNT
};

/* Which number of a bounce is used for what. Bounce 0 is the camera ray. A sampler that
 * stratifies lays its dimensions out in this order, so the pixel position comes first. */
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

/* One path's sampler: what its numbers are drawn from, computed once per stage call. */
typedef struct RsPathSampler {
    uint32_t kind;  /* RS_SAMPLER_* */
    uint32_t key;   /* RS_SAMPLER_INDEPENDENT: rs_rng_path_key(seed, stream, index) */
} RsPathSampler;

RS_FN RsPathSampler rs_sampler_path(uint32_t kind, uint32_t seed, uint32_t stream, uint32_t index)
{
    RsPathSampler ps;
    ps.kind = kind;
    switch (kind) {
    default: /* RS_SAMPLER_INDEPENDENT */
        ps.key = rs_rng_path_key(seed, stream, index);
        break;
    }
    return ps;
}

/* A uniform number in [0, 1). */
RS_FN float rs_sampler_1d(const RsPathSampler* ps, uint32_t bounce, uint32_t dim)
{
    switch (ps->kind) {
    default: /* RS_SAMPLER_INDEPENDENT */
        return rs_rng(ps->key, bounce, dim);
    }
}

#endif /* RS_KERNEL_SAMPLER_H */
