/* trace_stack.cuh - where trace kernels keep bvh8's traversal stack: in the block's shared
 * memory, RS_BVH8_STACK 8-byte entries per thread, entry i of thread t at [i * block + t] so a
 * warp's 32 accesses are consecutive. The other structures need none, so their kernels reserve
 * nothing (the array is sized by the structure, a compile-time constant).
 * Device-only header (nvcc). */
#ifndef RS_CUDA_TRACE_STACK_CUH
#define RS_CUDA_TRACE_STACK_CUH

#include "kernel/accel/accel.h"

/* Threads per block of the trace kernels (extend, connect): 128 x 24 x 8 bytes = 24 KiB. */
#define RS_TRACE_BLOCK 128

#define RS_TRACE_STACK_DECLARE(accel, name)                                                            \
    __shared__ uint64_t name##_memory[((accel) & RS_ACCEL_KIND_MASK) == RS_ACCEL_BVH8 ? RS_BVH8_STACK * RS_TRACE_BLOCK : 1]; \
    RsTraceStack name = {name##_memory + threadIdx.x, RS_TRACE_BLOCK}

#endif /* RS_CUDA_TRACE_STACK_CUH */
