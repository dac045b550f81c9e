/* trace_stack.cuh - where trace kernels keep bvh8's traversal stack: its first
 * RS_TRACE_STACK_ENTRIES 8-byte entries per thread in the block's shared memory, entry i of
 * thread t at [i * block + t] so a warp's 32 accesses are consecutive, and the rest, up to
 * RS_BVH8_STACK, in a per-thread array that only trees deeper than that ever touch (bvh8.h,
 * RsTraceStack). The other structures need none, so their kernels reserve nothing (the array
 * is sized by the structure, a compile-time constant).
 * Device-only header (nvcc). */
#ifndef RS_CUDA_TRACE_STACK_CUH
#define RS_CUDA_TRACE_STACK_CUH

#include "kernel/accel/accel.h"

/* Threads per block of the trace kernels (extend, connect). */
#define RS_TRACE_BLOCK 128
/* Stack entries in shared memory: 128 x 16 x 8 bytes = 16 KiB a block, so that shared memory
 * lets an H100 SM hold 14 blocks instead of the 9 that 24 entries allowed. Sponza's bvh8 is 12
 * levels deep, the dragon's 13. */
#ifndef RS_TRACE_STACK_ENTRIES
#define RS_TRACE_STACK_ENTRIES 16
#endif
#define RS_TRACE_SPILL_ENTRIES (RS_BVH8_STACK > RS_TRACE_STACK_ENTRIES ? RS_BVH8_STACK - RS_TRACE_STACK_ENTRIES : 1)
/* Blocks an SM should hold: it caps the kernels' registers (an experiment may set it). */
#ifdef RS_TRACE_MIN_BLOCKS
#define RS_TRACE_LAUNCH_BOUNDS __launch_bounds__(RS_TRACE_BLOCK, RS_TRACE_MIN_BLOCKS)
#else
#define RS_TRACE_LAUNCH_BOUNDS __launch_bounds__(RS_TRACE_BLOCK)
#endif
/* The persistent kernels (fetch_loop.cuh: extend and shadow rays) ask for 8 blocks an SM, which
 * caps them at 64 registers; with warp_prims.cuh nvcc took 66 (7 blocks). On an H100 (Sponza,
 * 1080p) that took bounce rays 1.71 -> 1.74 G/s and shadow rays 2.90 -> 3.04; before
 * warp_prims.cuh the shadow kernel did best at 9 blocks (56 registers), which now spills.
 * The plain kernels keep nvcc's choice: the same cap made camera rays no faster and plain
 * shadow rays 1% slower (tools/bench/results/traversal/). */
#ifndef RS_TRACE_MIN_BLOCKS
#define RS_FETCH_LAUNCH_BOUNDS __launch_bounds__(RS_TRACE_BLOCK, 8)
#else
#define RS_FETCH_LAUNCH_BOUNDS RS_TRACE_LAUNCH_BOUNDS
#endif

#define RS_TRACE_STACK_DECLARE(accel, name)                                                            \
    __shared__ uint64_t name##_memory[((accel) & RS_ACCEL_KIND_MASK) == RS_ACCEL_BVH8 ? RS_TRACE_STACK_ENTRIES * RS_TRACE_BLOCK : 1]; \
    uint64_t name##_spill[RS_TRACE_SPILL_ENTRIES];                                                      \
    RsTraceStack name = {name##_memory + threadIdx.x, RS_TRACE_BLOCK, RS_TRACE_STACK_ENTRIES, name##_spill}

#endif /* RS_CUDA_TRACE_STACK_CUH */
