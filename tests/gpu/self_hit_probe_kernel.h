/* self_hit_probe_kernel.h - the GPU side of test_gpu_self_hits.c (C11 and nvcc). */
#ifndef RS_TESTS_GPU_SELF_HIT_PROBE_KERNEL_H
#define RS_TESTS_GPU_SELF_HIT_PROBE_KERNEL_H

#include "kernel/state/kernel_params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Uploads host_kp's scene, probes width * height * spp paths (self_hit_probe.h), sums their
 * counts into counts[PROBE_COUNT]. A CUDA failure ends the process. */
void gpu_probe_paths(const RsKernelParams* host_kp, uint32_t spp, uint32_t* counts);

#ifdef __cplusplus
}
#endif

#endif /* RS_TESTS_GPU_SELF_HIT_PROBE_KERNEL_H */
