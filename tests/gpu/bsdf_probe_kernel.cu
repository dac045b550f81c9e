/* bsdf_probe_kernel.cu - runs tests/kernel/bsdf_probe.h on the GPU for test_gpu_bsdf. nvcc. */
#include "bsdf_probe_kernel.h"
#include "cuda_ok.cuh"

__global__ void sample_kernel(RsMaterial m, RsVec3 n, RsVec3 wo, uint32_t count, uint32_t seed, BsdfProbeSample* out)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        out[i] = bsdf_probe_sample(&m, n, wo, i, seed);
}

__global__ void eval_kernel(RsMaterial m, RsVec3 n, const RsVec3* wo, const RsVec3* wi, uint32_t count,
                            BsdfProbeEval* out)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        out[i] = bsdf_probe_eval(&m, n, wo[i], wi[i]);
}

extern "C" void gpu_bsdf_sample(const RsMaterial* m, RsVec3 n, RsVec3 wo, uint32_t count, uint32_t seed,
                                BsdfProbeSample* out)
{
    BsdfProbeSample* d_out;
    CUDA_OK(cudaMalloc(&d_out, count * sizeof *d_out));
    sample_kernel<<<(count + 255) / 256, 256>>>(*m, n, wo, count, seed, d_out);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaMemcpy(out, d_out, count * sizeof *d_out, cudaMemcpyDeviceToHost));
    CUDA_OK(cudaFree(d_out));
}

extern "C" void gpu_bsdf_eval(const RsMaterial* m, RsVec3 n, const RsVec3* wo, const RsVec3* wi, uint32_t count,
                              BsdfProbeEval* out)
{
    RsVec3 *d_wo, *d_wi;
    BsdfProbeEval* d_out;
    CUDA_OK(cudaMalloc(&d_wo, count * sizeof *d_wo));
    CUDA_OK(cudaMalloc(&d_wi, count * sizeof *d_wi));
    CUDA_OK(cudaMalloc(&d_out, count * sizeof *d_out));
    CUDA_OK(cudaMemcpy(d_wo, wo, count * sizeof *d_wo, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(d_wi, wi, count * sizeof *d_wi, cudaMemcpyHostToDevice));
    eval_kernel<<<(count + 255) / 256, 256>>>(*m, n, d_wo, d_wi, count, d_out);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaMemcpy(out, d_out, count * sizeof *d_out, cudaMemcpyDeviceToHost));
    CUDA_OK(cudaFree(d_wo));
    CUDA_OK(cudaFree(d_wi));
    CUDA_OK(cudaFree(d_out));
}
