/* bsdf_probe.h - one BSDF sample or evaluation as test_bsdf.c needs it, in code that runs on
 * the CPU and in a CUDA kernel (tests/gpu/bsdf_probe_kernel.cu). Shared header (C11, nvcc).
 */
#ifndef RS_TESTS_KERNEL_BSDF_PROBE_H
#define RS_TESTS_KERNEL_BSDF_PROBE_H

#include "kernel/bsdf/bsdf.h"
#include "kernel/sampling/sampler.h"

typedef struct BsdfProbeSample {
    RsVec3 wi, weight;
    float pdf;
    int ok;
} BsdfProbeSample;

typedef struct BsdfProbeEval {
    RsVec3 f_cos; /* f * |cos(wi)| */
    float pdf;
} BsdfProbeEval;

/* Sample number i of stream `seed`, with the renderer's own random numbers. */
RS_FN BsdfProbeSample bsdf_probe_sample(const RsMaterial* m, RsVec3 n, RsVec3 wo, uint32_t i, uint32_t seed)
{
    uint32_t key = rs_rng_path_key(seed, i, 0);
    RsBsdfSample s;
    BsdfProbeSample out;
    out.ok = rs_bsdf_sample(m, n, n, wo, rs_rng(key, 1, RS_DIM_BSDF_U), rs_rng(key, 1, RS_DIM_BSDF_V),
                            rs_rng(key, 1, RS_DIM_BSDF_LOBE), &s);
    out.wi = out.ok ? s.wi : rs_vec3_splat(0.0f);
    out.weight = out.ok ? s.weight : rs_vec3_splat(0.0f);
    out.pdf = out.ok ? s.pdf : 0.0f;
    return out;
}

RS_FN BsdfProbeEval bsdf_probe_eval(const RsMaterial* m, RsVec3 n, RsVec3 wo, RsVec3 wi)
{
    BsdfProbeEval e;
    e.f_cos = rs_bsdf_eval(m, n, n, wo, wi, &e.pdf);
    return e;
}

#endif /* RS_TESTS_KERNEL_BSDF_PROBE_H */
