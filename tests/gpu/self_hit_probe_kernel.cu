/* self_hit_probe_kernel.cu - runs tests/kernel/self_hit_probe.h on the GPU for
 * test_gpu_self_hits.c. nvcc. */
#include "cuda_ok.cuh"
#include "self_hit_probe_kernel.h"

#include "cuda/backend/accel_upload.cuh"
#include "tests/kernel/self_hit_probe.h"

__global__ void probe_kernel(RsKernelParams kp, uint32_t spp, uint32_t* counts)
{
    uint32_t pixels = kp.width * kp.height;
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= pixels * spp)
        return;
    uint32_t local[PROBE_COUNT] = {0};
    rs_probe_path(&kp, i % pixels, i / pixels, local);
    for (int k = 0; k < PROBE_COUNT; ++k)
        if (local[k])
            atomicAdd(&counts[k], local[k]);
}

template <typename T> static T* upload(const T* host, uint32_t count)
{
    T* device = NULL;
    if (count == 0)
        return NULL;
    CUDA_OK(cudaMalloc(&device, count * sizeof(T)));
    CUDA_OK(cudaMemcpy(device, host, count * sizeof(T), cudaMemcpyHostToDevice));
    return device;
}

extern "C" void gpu_probe_paths(const RsKernelParams* host_kp, uint32_t spp, uint32_t counts[PROBE_COUNT])
{
    RsKernelParams kp = *host_kp;
    RsCudaAccel accel;
    CUDA_OK(rs_cuda_accel_upload(&kp.scene.accel, &accel));
    RsPrim* prims = upload(kp.scene.prims, kp.scene.prim_count);
    RsMaterial* materials = upload(kp.scene.materials, kp.scene.material_count);
    RsFloat4* lights = upload(kp.scene.lights, kp.scene.light_count);
    RsPointLight* point_lights = upload(kp.scene.point_lights, kp.scene.point_light_count);
    /* the light selection's arrays, whichever method built them (the others are NULL) */
    const RsLightSelectView* sel = &kp.scene.light_select;
    float* light_cdf = sel->cdf ? upload(sel->cdf, kp.scene.light_count) : NULL;
    float* light_pmf = sel->pmf ? upload(sel->pmf, kp.scene.light_count) : NULL;
    RsFloat4* tree_nodes = sel->nodes ? upload(sel->nodes, 4 * sel->node_count) : NULL;
    uint64_t* tree_trails = sel->trails ? upload(sel->trails, kp.scene.light_count) : NULL;
    kp.scene.accel = accel.view;
    kp.scene.prims = prims;
    kp.scene.materials = materials;
    kp.scene.lights = lights;
    kp.scene.point_lights = point_lights;
    kp.scene.light_select.cdf = light_cdf;
    kp.scene.light_select.pmf = light_pmf;
    kp.scene.light_select.nodes = tree_nodes;
    kp.scene.light_select.trails = tree_trails;
    kp.scene.shading = NULL; /* the probe shades with geometric normals */
    uint32_t* d_counts;
    CUDA_OK(cudaMalloc(&d_counts, PROBE_COUNT * sizeof(uint32_t)));
    CUDA_OK(cudaMemset(d_counts, 0, PROBE_COUNT * sizeof(uint32_t)));
    uint32_t n = kp.width * kp.height * spp;
    probe_kernel<<<(n + 127) / 128, 128>>>(kp, spp, d_counts);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaMemcpy(counts, d_counts, PROBE_COUNT * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    CUDA_OK(cudaFree(d_counts));
    rs_cuda_accel_free(&accel);
    CUDA_OK(cudaFree(prims));
    CUDA_OK(cudaFree(materials));
    CUDA_OK(cudaFree(lights));
    CUDA_OK(cudaFree(point_lights));
    CUDA_OK(cudaFree(light_cdf));
    CUDA_OK(cudaFree(light_pmf));
    CUDA_OK(cudaFree(tree_nodes));
    CUDA_OK(cudaFree(tree_trails));
}
