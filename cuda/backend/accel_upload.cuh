/* accel_upload.cuh - an acceleration structure's arrays in device memory.
 * Device-side host glue (nvcc). */
#ifndef RS_CUDA_ACCEL_UPLOAD_CUH
#define RS_CUDA_ACCEL_UPLOAD_CUH

#include <cuda_runtime.h>

#include "kernel/accel/accel.h"

/* Device copies of the arrays `host` points to; `device` gets the same view with device
 * pointers. The allocations are remembered in owned[] (NULL where unused); free them with
 * rs_cuda_accel_free. On failure nothing stays allocated. */
#define RS_CUDA_ACCEL_ARRAYS 10

/* A scene with instances adds five arrays (BLAS nodes and primitives, TLAS nodes, instance and
 * object records) after the world structure's; their bytes are also counted by part. Slots 8
 * and 9 hold bvh8's camera tree (nodes and trace primitives). */
typedef struct RsCudaAccel {
    RsAccelView view;
    void* owned[RS_CUDA_ACCEL_ARRAYS];
    size_t bytes;
    size_t blas_bytes, tlas_bytes, instance_bytes;
} RsCudaAccel;

cudaError_t rs_cuda_accel_upload(const RsAccelView* host, RsCudaAccel* device);
void rs_cuda_accel_free(RsCudaAccel* device);

#endif /* RS_CUDA_ACCEL_UPLOAD_CUH */
