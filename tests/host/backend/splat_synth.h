/* splat_synth.h - synthetic splats for the splat film's tests, made from their index alone so
 * that the CPU test (tests/host/backend/test_splat.c) and the GPU test (tests/gpu/test_gpu_splat.cu)
 * append the very same set. Shared header (C11, nvcc).
 *
 * Splat i has order key i, a pixel from a hash of i (a quarter of all splats land on
 * SPLAT_SYNTH_HOT hot pixels, so some runs are thousands long) and rgb built bit by bit: a
 * hash-derived mantissa and an exponent spread over 2^-20..2^20 (41 binades, never subnormal).
 * Built from bits, not with powf, so every compiler makes the same floats; spread so widely
 * that the order of a pixel's additions shows in the sum's bits.
 */
#ifndef RS_TESTS_HOST_BACKEND_SPLAT_SYNTH_H
#define RS_TESTS_HOST_BACKEND_SPLAT_SYNTH_H

#include "kernel/film/splat.h"
#include "kernel/sampling/rng.h"

#define SPLAT_SYNTH_HOT 4u

RS_FN uint32_t splat_synth_pixel(uint32_t i, uint32_t pixels)
{
    uint32_t h = rs_hash_u32(i ^ 0x9e3779b9u);
    if ((h & 3u) == 0)
        return ((h >> 2) % SPLAT_SYNTH_HOT * 977u) % pixels;
    return (h >> 2) % pixels;
}

RS_FN float splat_synth_float(uint32_t h)
{
    uint32_t exponent = 127u - 20u + (h >> 23) % 41u;
    return rs_uint_as_float((exponent << 23) | (h & 0x7fffffu));
}

RS_FN RsVec3 splat_synth_value(uint32_t i)
{
    return rs_vec3(splat_synth_float(rs_hash_u32(3u * i + 1u)), splat_synth_float(rs_hash_u32(3u * i + 2u)),
                   splat_synth_float(rs_hash_u32(3u * i + 3u)));
}

/* Appends splat i of a plane of `pixels` pixels. */
RS_FN int splat_synth_add(RsSplatQueue q, uint32_t i, uint32_t pixels)
{
    return rs_splat_add(q, splat_synth_pixel(i, pixels), i, splat_synth_value(i));
}

/* A plane's starting value for pixel p (w: a sample count that resolve must leave alone). */
RS_FN RsFloat4 splat_synth_base(uint32_t p)
{
    uint32_t h = rs_hash_u32(p + 0x51ed27u);
    return (h & 1u) ? rs_float4(0.0f, 0.0f, 0.0f, 0.0f) : rs_pack(splat_synth_value(~p), (float)(h >> 24));
}

#endif /* RS_TESTS_HOST_BACKEND_SPLAT_SYNTH_H */
