/* compat.h - the one place where the three compilers of shared per-ray code differ.
 *
 * Everything under src/kernel/ is header-only and is compiled by gcc as C11 (host library,
 * CPU backend), by g++ as C++ (the header test, which catches what nvcc would reject) and by
 * nvcc as CUDA C++ (kernels). Functions are declared with RS_FN so that they become
 * `__host__ __device__` under nvcc and plain `static inline` elsewhere.
 *
 * The storage types RsFloat4 / RsUint4 are 16 bytes and 16-byte aligned on every compiler,
 * so one field of one ray is one 128-bit load (LDG.E.128) on the GPU.
 */
#ifndef RS_KERNEL_COMPAT_H
#define RS_KERNEL_COMPAT_H

#include <stdint.h>
#include <string.h>
#include <math.h>

#if defined(__CUDACC__)
#  define RS_FN static __host__ __device__ __forceinline__
#else
#  define RS_FN static inline
#endif

#if defined(__cplusplus)
#  define RS_ALIGNAS(n) alignas(n)
#  define RS_ALIGNOF(t) alignof(t)
#  define RS_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#  define RS_ALIGNAS(n) _Alignas(n)
#  define RS_ALIGNOF(t) _Alignof(t)
#  define RS_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

/* Under nvcc the device pass sees __CUDA_ARCH__; the host pass of the same file does not. */
#if defined(__CUDA_ARCH__)
#  define RS_DEVICE_CODE 1
#else
#  define RS_DEVICE_CODE 0
#endif

typedef struct RsFloat4 {
    RS_ALIGNAS(16) float x;
    float y, z, w;
} RsFloat4;

typedef struct RsUint4 {
    RS_ALIGNAS(16) uint32_t x;
    uint32_t y, z, w;
} RsUint4;

RS_STATIC_ASSERT(sizeof(RsFloat4) == 16, "RsFloat4 must be one 128-bit word");
RS_STATIC_ASSERT(sizeof(RsUint4) == 16, "RsUint4 must be one 128-bit word");

RS_FN uint32_t rs_float_as_uint(float f)
{
#if RS_DEVICE_CODE
    return __float_as_uint(f);
#else
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
#endif
}

RS_FN float rs_uint_as_float(uint32_t u)
{
#if RS_DEVICE_CODE
    return __uint_as_float(u);
#else
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
#endif
}

/* One rounding each, never fused into an FMA. nvcc contracts a * b + c into an fma by default,
 * and it may decide differently in two kernels that inline the same function (the persistent
 * loop against a plain launch), which would break the bit-identity of the dead-ray strategies
 * wherever a result feeds a discrete choice; gcc on x86-64 never contracts. Used where the
 * rounding is part of the algorithm: surface.h's error bounds and ray offsets. */
RS_FN float rs_mul_rn(float a, float b)
{
#if RS_DEVICE_CODE
    return __fmul_rn(a, b);
#else
    return a * b;
#endif
}

RS_FN float rs_add_rn(float a, float b)
{
#if RS_DEVICE_CODE
    return __fadd_rn(a, b);
#else
    return a + b;
#endif
}

RS_FN float rs_sub_rn(float a, float b)
{
#if RS_DEVICE_CODE
    return __fsub_rn(a, b);
#else
    return a - b;
#endif
}

/* On the GPU fminf/fmaxf are one FMNMX instruction; the comparison-and-select form costs two
 * there (it must keep its own NaN behaviour). On the CPU the select form is one minss/maxss. The
 * two differ only for NaN operands, which traversal and shading never pass. */
RS_FN float rs_minf(float a, float b)
{
#if RS_DEVICE_CODE
    return fminf(a, b);
#else
    return a < b ? a : b;
#endif
}

RS_FN float rs_maxf(float a, float b)
{
#if RS_DEVICE_CODE
    return fmaxf(a, b);
#else
    return a > b ? a : b;
#endif
}
RS_FN float rs_clampf(float x, float lo, float hi) { return rs_minf(rs_maxf(x, lo), hi); }

/* *p += v from any thread; returns the old value. Relaxed: it only hands out distinct slots, and
 * what the slots hold is published by the end of the launch (the kernel boundary on the GPU,
 * the thread pool's join on the CPU). On the host this is the GCC/Clang builtin that C11's
 * atomic_fetch_add_explicit(..., memory_order_relaxed) expands to; the builtin takes a plain
 * uint64_t, so one field serves C, C++ (no <stdatomic.h> before C++23) and the device. */
RS_FN uint64_t rs_atomic_add_u64(uint64_t* p, uint64_t v)
{
#if RS_DEVICE_CODE
    return (uint64_t)atomicAdd((unsigned long long*)p, (unsigned long long)v);
#else
    return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
#endif
}

#define RS_PI 3.14159265358979323846f
#define RS_INV_PI 0.31830988618379067154f
#define RS_INV_4PI 0.07957747154594766788f
#define RS_INFINITY INFINITY

#endif /* RS_KERNEL_COMPAT_H */
