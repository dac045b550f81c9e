/* accel_probe_kernel.cu - closest-hit and any-hit of arbitrary rays on the GPU, one kernel per
 * structure, for test_gpu_accel.c. nvcc. */
#include "accel_probe_kernel.h"
#include "cuda/backend/accel_upload.cuh"
#include "cuda/stages/bvh2_packet.cuh"
#include "cuda/stages/fetch_loop.cuh"
#include "cuda/stages/trace_stack.cuh"
#include "cuda_ok.cuh"

template <int Accel>
__global__ void __launch_bounds__(RS_TRACE_BLOCK) probe_kernel(RsAccelView a, const RsFloat4* origins,
                                                                const RsFloat4* directions, uint32_t n,
                                                                RsFloat4* closest, uint32_t* any)
{
    RS_TRACE_STACK_DECLARE(Accel, stack);
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    RsFloat4 o = origins[i], d = directions[i];
    RsHit hit;
    rs_accel_closest(Accel, &a, rs_xyz(o), rs_xyz(d), o.w, RS_NO_HIT, &hit, stack);
    closest[i] = rs_float4(hit.t, hit.u, hit.v, rs_uint_as_float(hit.prim));
    any[i] = (uint32_t)rs_accel_any(Accel, &a, rs_xyz(o), rs_xyz(d), o.w, RS_NO_HIT, stack);
}

template <int Accel>
__global__ void __launch_bounds__(RS_TRACE_BLOCK) probe_instanced_kernel(RsAccelView a, const RsFloat4* origins,
                                                                          const RsFloat4* directions, uint32_t n,
                                                                          RsFloat4* closest, uint32_t* instance,
                                                                          uint32_t* any)
{
    RS_TRACE_STACK_DECLARE(Accel, stack);
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    RsFloat4 o = origins[i], d = directions[i];
    RsHit hit;
    uint32_t inst;
    rs_accel_closest_instanced(Accel, &a, rs_xyz(o), rs_xyz(d), o.w, RS_NO_HIT, RS_NO_HIT, &hit, &inst, stack);
    closest[i] = rs_float4(hit.t, hit.u, hit.v, rs_uint_as_float(hit.prim));
    instance[i] = inst;
    any[i] = (uint32_t)rs_accel_any_instanced(Accel, &a, rs_xyz(o), rs_xyz(d), o.w, RS_NO_HIT, RS_NO_HIT, stack);
}

/* The camera tree's warp packets (bvh2_packet.cuh), closest hit only: every lane runs the walk,
 * those past n without a ray. */
__global__ void __launch_bounds__(RS_TRACE_BLOCK) probe_packet_kernel(RsAccelView a, const RsFloat4* origins,
                                                                       const RsFloat4* directions, uint32_t n,
                                                                       RsFloat4* closest)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    bool live = i < n;
    RsFloat4 o = live ? origins[i] : rs_float4(0.0f, 0.0f, 0.0f, 0.0f);
    RsFloat4 d = live ? directions[i] : rs_float4(0.0f, 0.0f, 1.0f, 0.0f);
    RsHit hit;
    rs_bvh2_packet_closest(a.bvh2, rs_xyz(o), rs_xyz(d), o.w, RS_NO_HIT, live, &hit);
    if (live)
        closest[i] = rs_float4(hit.t, hit.u, hit.v, rs_uint_as_float(hit.prim));
}

/* bvh8 walks stepped by whole warps, leaf primitives shared (fetch_loop.cuh, warp_prims.cuh). */
template <int Any, bool Refetch>
__global__ void __launch_bounds__(RS_TRACE_BLOCK) probe_warps_kernel(RsAccelView a, const RsFloat4* origins,
                                                                      const RsFloat4* directions, uint32_t n,
                                                                      RsFloat4* closest, uint32_t* any,
                                                                      uint32_t* counter)
{
    RS_TRACE_STACK_DECLARE(RS_ACCEL_BVH8, stack);
    const RsBvh8View view = a.bvh8;
    uint32_t index = 0;
    auto begin = [&](uint32_t ticket, RsBvh8Walk* w) {
        index = ticket;
        RsFloat4 o = origins[ticket], d = directions[ticket];
        rs_bvh8_walk_begin(&view, w, rs_xyz(o), rs_xyz(d), o.w, RS_NO_HIT);
        return true;
    };
    auto finish = [&](const RsBvh8Walk* w) {
        if (Any)
            any[index] = w->hit.prim != RS_NO_HIT;
        else
            closest[index] = rs_float4(w->hit.t, w->hit.u, w->hit.v, rs_uint_as_float(w->hit.prim));
    };
    rs_fetch_walks<Any, Refetch>(counter, n, view, stack, begin, finish);
}

__global__ void brute_kernel(const RsPrim* prims, uint32_t count, const RsFloat4* origins,
                             const RsFloat4* directions, uint32_t n, RsFloat4* nearest)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    RsFloat4 o = origins[i], d = directions[i];
    float best = o.w, u = 0.0f, v = 0.0f;
    uint32_t prim = RS_NO_HIT;
    for (uint32_t k = 0; k < count; ++k) {
        float t, a, b;
        if (rs_intersect_prim(&prims[k], rs_xyz(o), rs_xyz(d), 0.0f, best, &t, &a, &b)) {
            best = t;
            u = a;
            v = b;
            prim = k;
        }
    }
    nearest[i] = rs_float4(best, u, v, rs_uint_as_float(prim));
}

template <class T> static T* to_device(const T* host, uint32_t n)
{
    T* d = NULL;
    CUDA_OK(cudaMalloc((void**)&d, (size_t)(n ? n : 1) * sizeof(T)));
    if (host)
        CUDA_OK(cudaMemcpy(d, host, (size_t)n * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

extern "C" void gpu_brute_force(const RsPrim* prims, uint32_t count, const RsFloat4* origins,
                                const RsFloat4* directions, uint32_t n, RsFloat4* nearest)
{
    RsPrim* d_p = to_device(prims, count);
    RsFloat4 *d_o = to_device(origins, n), *d_d = to_device(directions, n), *d_n = to_device<RsFloat4>(NULL, n);
    brute_kernel<<<(n + 127) / 128, 128>>>(d_p, count, d_o, d_d, n, d_n);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaMemcpy(nearest, d_n, (size_t)n * sizeof(RsFloat4), cudaMemcpyDeviceToHost));
    CUDA_OK(cudaFree(d_p));
    CUDA_OK(cudaFree(d_o));
    CUDA_OK(cudaFree(d_d));
    CUDA_OK(cudaFree(d_n));
}

/* A probe's device side: the structure, the rays and the result arrays. */
typedef struct Probe {
    RsCudaAccel accel;
    RsFloat4 *origins, *directions, *closest;
    uint32_t *any, *instance, *counter;
    uint32_t n;
} Probe;

static Probe probe_begin(const RsAccelView* accel, const RsFloat4* origins, const RsFloat4* directions, uint32_t n)
{
    Probe p;
    p.n = n;
    CUDA_OK(rs_cuda_accel_upload(accel, &p.accel));
    p.origins = to_device(origins, n);
    p.directions = to_device(directions, n);
    p.closest = to_device<RsFloat4>(NULL, n);
    p.any = to_device<uint32_t>(NULL, n);
    p.instance = to_device<uint32_t>(NULL, n);
    p.counter = to_device<uint32_t>(NULL, 2);
    CUDA_OK(cudaMemset(p.counter, 0, 2 * sizeof(uint32_t)));
    return p;
}

/* Copies the results back (instance: NULL to skip) and frees the device side. */
static void probe_end(Probe* p, RsFloat4* closest, uint32_t* any, uint32_t* instance)
{
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaMemcpy(closest, p->closest, (size_t)p->n * sizeof(RsFloat4), cudaMemcpyDeviceToHost));
    if (any) /* (NULL: the probe ran no any-hit walk) */
        CUDA_OK(cudaMemcpy(any, p->any, (size_t)p->n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    if (instance)
        CUDA_OK(cudaMemcpy(instance, p->instance, (size_t)p->n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    CUDA_OK(cudaFree(p->origins));
    CUDA_OK(cudaFree(p->directions));
    CUDA_OK(cudaFree(p->closest));
    CUDA_OK(cudaFree(p->any));
    CUDA_OK(cudaFree(p->instance));
    CUDA_OK(cudaFree(p->counter));
    rs_cuda_accel_free(&p->accel);
}

extern "C" void gpu_trace_rays(const RsAccelView* accel, const RsFloat4* origins, const RsFloat4* directions,
                               uint32_t n, RsFloat4* closest, uint32_t* any)
{
    Probe p = probe_begin(accel, origins, directions, n);
    unsigned grid = (n + RS_TRACE_BLOCK - 1) / RS_TRACE_BLOCK;
    const RsAccelView v = p.accel.view;
    switch (accel->kind) {
    case RS_ACCEL_BVH8: probe_kernel<RS_ACCEL_BVH8><<<grid, RS_TRACE_BLOCK>>>(v, p.origins, p.directions, n, p.closest, p.any); break;
    case RS_ACCEL_GRID: probe_kernel<RS_ACCEL_GRID><<<grid, RS_TRACE_BLOCK>>>(v, p.origins, p.directions, n, p.closest, p.any); break;
    default: probe_kernel<RS_ACCEL_BVH2><<<grid, RS_TRACE_BLOCK>>>(v, p.origins, p.directions, n, p.closest, p.any); break;
    }
    probe_end(&p, closest, any, NULL);
}

extern "C" void gpu_trace_rays_packets(const RsAccelView* accel, const RsFloat4* origins,
                                       const RsFloat4* directions, uint32_t n, RsFloat4* closest)
{
    Probe p = probe_begin(accel, origins, directions, n);
    unsigned grid = (n + RS_TRACE_BLOCK - 1) / RS_TRACE_BLOCK;
    probe_packet_kernel<<<grid, RS_TRACE_BLOCK>>>(p.accel.view, p.origins, p.directions, n, p.closest);
    probe_end(&p, closest, NULL, NULL);
}

extern "C" void gpu_trace_rays_warps(const RsAccelView* accel, const RsFloat4* origins, const RsFloat4* directions,
                                     uint32_t n, int refetch, RsFloat4* closest, uint32_t* any)
{
    Probe p = probe_begin(accel, origins, directions, n);
    const RsAccelView v = p.accel.view;
    /* with refetch, a few blocks take all the rays, so warps refill many times */
    unsigned grid = refetch ? 8u : (n + RS_TRACE_BLOCK - 1) / RS_TRACE_BLOCK;
    if (refetch) {
        probe_warps_kernel<0, true><<<grid, RS_TRACE_BLOCK>>>(v, p.origins, p.directions, n, p.closest, p.any, p.counter);
        probe_warps_kernel<1, true><<<grid, RS_TRACE_BLOCK>>>(v, p.origins, p.directions, n, p.closest, p.any,
                                                              p.counter + 1);
    } else {
        probe_warps_kernel<0, false><<<grid, RS_TRACE_BLOCK>>>(v, p.origins, p.directions, n, p.closest, p.any, p.counter);
        probe_warps_kernel<1, false><<<grid, RS_TRACE_BLOCK>>>(v, p.origins, p.directions, n, p.closest, p.any, p.counter);
    }
    probe_end(&p, closest, any, NULL);
}

extern "C" void gpu_trace_rays_instanced(const RsAccelView* accel, const RsFloat4* origins,
                                         const RsFloat4* directions, uint32_t n, RsFloat4* closest,
                                         uint32_t* instance, uint32_t* any)
{
    Probe p = probe_begin(accel, origins, directions, n);
    const RsAccelView v = p.accel.view;
    unsigned grid = (n + RS_TRACE_BLOCK - 1) / RS_TRACE_BLOCK;
    const uint32_t k = RS_ACCEL_INSTANCES | RS_ACCEL_NO_CUTOUTS;
    if (accel->kind == RS_ACCEL_BVH8)
        probe_instanced_kernel<RS_ACCEL_BVH8 | k><<<grid, RS_TRACE_BLOCK>>>(v, p.origins, p.directions, n, p.closest,
                                                                           p.instance, p.any);
    else
        probe_instanced_kernel<RS_ACCEL_BVH2 | k><<<grid, RS_TRACE_BLOCK>>>(v, p.origins, p.directions, n, p.closest,
                                                                           p.instance, p.any);
    probe_end(&p, closest, any, instance);
}
