/* accel_probe_kernel.h - the GPU side of test_gpu_accel.c (C11 and nvcc). */
#ifndef RS_TESTS_GPU_ACCEL_PROBE_KERNEL_H
#define RS_TESTS_GPU_ACCEL_PROBE_KERNEL_H

#include "kernel/accel/accel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Traces n rays (origin xyz | tmax, direction xyz) through `accel` on the GPU with the same
 * traversal the trace kernels use (bvh8's stack in shared memory): closest[i] gets (t, u, v,
 * prim bits), any[i] the any-hit verdict. A CUDA failure ends the process. */
void gpu_trace_rays(const RsAccelView* accel, const RsFloat4* origins, const RsFloat4* directions, uint32_t n,
                    RsFloat4* closest, uint32_t* any);

/* The same through bvh8 walks that whole warps step together, sharing their leaf primitive tests
 * (cuda/stages/fetch_loop.cuh): refetch 0, one ray per thread; 1, a few persistent blocks
 * refilling idle lanes. Flat bvh8 only. */
void gpu_trace_rays_warps(const RsAccelView* accel, const RsFloat4* origins, const RsFloat4* directions, uint32_t n,
                          int refetch, RsFloat4* closest, uint32_t* any);

/* The same through warp packets (cuda/stages/bvh2_packet.cuh) over accel->bvh2, closest hit
 * only: how camera rays walk bvh8's camera tree. */
void gpu_trace_rays_packets(const RsAccelView* accel, const RsFloat4* origins, const RsFloat4* directions, uint32_t n,
                            RsFloat4* closest);

/* The same for a scene with instances (kind | RS_ACCEL_INSTANCES, two_level.h): instance[i] gets
 * the instance hit (RS_NO_HIT: world or none). */
void gpu_trace_rays_instanced(const RsAccelView* accel, const RsFloat4* origins, const RsFloat4* directions,
                              uint32_t n, RsFloat4* closest, uint32_t* instance, uint32_t* any);

/* The same rays against every one of `count` primitives on the GPU (brute force, with the GPU's
 * own rounding): nearest[i] gets (t, u, v, prim bits). */
void gpu_brute_force(const RsPrim* prims, uint32_t count, const RsFloat4* origins, const RsFloat4* directions,
                     uint32_t n, RsFloat4* nearest);

#ifdef __cplusplus
}
#endif

#endif /* RS_TESTS_GPU_ACCEL_PROBE_KERNEL_H */
