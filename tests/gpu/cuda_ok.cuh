/* cuda_ok.cuh - for the gpu tests: a CUDA call that fails ends the test at once (the checks
 * after it would only repeat the failure). nvcc. */
#ifndef RS_TESTS_GPU_CUDA_OK_CUH
#define RS_TESTS_GPU_CUDA_OK_CUH

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CUDA_OK(call)                                                                              \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

#endif /* RS_TESTS_GPU_CUDA_OK_CUH */
