/* bsdf_probe_kernel.h - the GPU side of test_gpu_bsdf (test_bsdf.c built with RS_TEST_GPU).
 * C11 and nvcc. A CUDA failure ends the process. */
#ifndef RS_TESTS_GPU_BSDF_PROBE_KERNEL_H
#define RS_TESTS_GPU_BSDF_PROBE_KERNEL_H

#include "tests/kernel/bsdf_probe.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Samples 0 .. count - 1 of stream `seed` (bsdf_probe_sample), computed on the GPU. */
void gpu_bsdf_sample(const RsMaterial* m, RsVec3 n, RsVec3 wo, uint32_t count, uint32_t seed, BsdfProbeSample* out);
/* bsdf_probe_eval of each pair (wo[i], wi[i]), computed on the GPU. */
void gpu_bsdf_eval(const RsMaterial* m, RsVec3 n, const RsVec3* wo, const RsVec3* wi, uint32_t count,
                   BsdfProbeEval* out);

#ifdef __cplusplus
}
#endif

#endif /* RS_TESTS_GPU_BSDF_PROBE_KERNEL_H */
