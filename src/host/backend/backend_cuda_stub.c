/* backend_cuda_stub.c - what the CUDA entry points answer in a build without CUDA. Host C11.
 * Linked only when meson does not build cuda/ (see meson.build). */
#include <stdio.h>

#include "host/backend/backend.h"

int rs_cuda_built(void) { return 0; }
int rs_cuda_device_count(void) { return 0; }

RsBackend* rs_backend_cuda_create(const RsBackendConfig* config, RsError* err)
{
    (void)config;
    rs_error_set(err, "this raystream was built without CUDA");
    return NULL;
}

int rs_cuda_describe(char* out, size_t size)
{
    snprintf(out, size, "CUDA: not built (configure with -Dcuda=enabled where nvcc is installed)\n");
    return 0;
}

int rs_cuda_device_info(int device, RsDeviceInfo* info)
{
    (void)device;
    (void)info;
    return -1;
}

#include "host/backend/bench_compact.h"

int rs_cuda_bench_compact(const RsCompactBenchConfig* config, RsCompactBenchEmit emit, void* ctx, RsError* err)
{
    (void)config;
    (void)emit;
    (void)ctx;
    return rs_error_set(err, "bench-compact measures CUDA kernels; this raystream was built without CUDA");
}
