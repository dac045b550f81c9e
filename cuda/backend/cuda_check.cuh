/* cuda_check.cuh - checking every CUDA call and launch, with the context a user needs to
 * understand the failure: the call, file:line, and the wavefront stage, depth and sample the
 * backend was working on (docs/architecture.md, section 9).
 *
 * Device-only header (nvcc). Host glue calls RS_CUDA(ctx, call) and returns -1 on failure;
 * the message lands in ctx->err (sticky: the first failure wins).
 */
#ifndef RS_CUDA_CUDA_CHECK_CUH
#define RS_CUDA_CUDA_CHECK_CUH

#include <cuda_runtime.h>

extern "C" {
#include "host/util/error.h"
}

/* What the backend is doing right now, for error messages. */
typedef struct RsCudaContext {
    const char* stage; /* "generate", "extend", ... or "setup" */
    unsigned depth;    /* bounce, 0 outside the bounce loop */
    unsigned long long first_path; /* first global path of the current wave */
    unsigned pixels;   /* to turn a path number into a sample number */
    RsError* err;
} RsCudaContext;

int rs_cuda_fail(const RsCudaContext* ctx, cudaError_t e, const char* call, const char* file, int line);

/* Evaluates a cudaError_t expression; on failure records the message and returns -1 from the
 * enclosing function. */
#define RS_CUDA(ctx, call)                                                \
    do {                                                                  \
        cudaError_t rs_e_ = (call);                                       \
        if (rs_e_ != cudaSuccess)                                         \
            return rs_cuda_fail((ctx), rs_e_, #call, __FILE__, __LINE__); \
    } while (0)

/* After a <<<...>>> launch: launch-configuration errors now; execution errors surface at the
 * next synchronising call, which is checked too and carries the same context. */
#define RS_CUDA_LAUNCHED(ctx, kernel_name)                                                  \
    do {                                                                                     \
        cudaError_t rs_e_ = cudaGetLastError();                                              \
        if (rs_e_ != cudaSuccess)                                                            \
            return rs_cuda_fail((ctx), rs_e_, "launch of " kernel_name, __FILE__, __LINE__); \
    } while (0)

#endif /* RS_CUDA_CUDA_CHECK_CUH */
