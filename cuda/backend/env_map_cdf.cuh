/* env_map_cdf.cuh - the environment map's sampling CDF, built on the GPU (the steps of
 * src/kernel/light/env_map.h, with the project's block scan for the prefix sums). nvcc glue. */
#ifndef RS_CUDA_ENV_MAP_CDF_CUH
#define RS_CUDA_ENV_MAP_CDF_CUH

#include <cuda_runtime.h>

#include "kernel/light/env_map.h"

/* Fills row_cdf (width * height floats) and marginal_cdf (height floats), device memory, from
 * the device texels of `map` (whose CDF pointers are not read). Asynchronous on `stream`. */
cudaError_t rs_cuda_env_cdf_build(const RsEnvMapView* map, float* row_cdf, float* marginal_cdf, cudaStream_t stream);

#endif /* RS_CUDA_ENV_MAP_CDF_CUH */
