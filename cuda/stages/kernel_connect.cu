/* kernel_connect.cu - thin wrapper: queue entry -> rs_stage_connect (any-hit shadow ray), one
 * kernel per acceleration structure. The queue is dense, so no dead-ray strategy applies; the
 * launch covers an upper bound and each thread checks the true count, which stays on the
 * device. For flat bvh8 scenes shadow rays can also go through persistent warps with dynamic
 * fetch (fetch_loop.cuh), as bounce rays do: they head everywhere, so a warp's walks differ in
 * length as much as bounce rays' do. nvcc. */
#include "cuda/stages/fetch_loop.cuh"
#include "cuda/stages/kernels.cuh"
#include "cuda/stages/trace_stack.cuh"
#include "kernel/stages/stage_connect.h"

template <int Accel>
__global__ void RS_TRACE_LAUNCH_BOUNDS rs_kernel_connect(const __grid_constant__ RsKernelParams kp, const uint32_t* shadow_count)
{
    RS_TRACE_STACK_DECLARE(Accel, stack);
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < *shadow_count)
        rs_stage_connect_with(&kp, i, Accel, stack);
}

template <bool Cutouts>
__global__ void RS_FETCH_LAUNCH_BOUNDS
    rs_kernel_connect_fetch(const __grid_constant__ RsKernelParams kp, uint32_t* counters)
{
    RS_TRACE_STACK_DECLARE(RS_ACCEL_BVH8, stack);
    RsBvh8View view = kp.scene.accel.bvh8;
    if (!Cutouts) /* compiled out of the walk when the scene has none (accel.h) */
        view.cutouts = nullptr;
    uint32_t index = 0;
    auto begin = [&](uint32_t ticket, RsBvh8Walk* walk) {
        index = ticket;
        rs_stage_connect_walk_begin(&kp, ticket, walk);
        return true;
    };
    auto finish = [&](const RsBvh8Walk* walk) {
        if (walk->hit.prim == RS_NO_HIT)
            rs_stage_connect_unoccluded(&kp, index);
    };
    rs_fetch_walks<1, true>(&counters[RS_CTR_FETCH], counters[RS_CTR_SHADOW], view, stack, begin, finish);
}

cudaError_t rs_launch_connect(const RsKernelParams& kp, uint32_t* counters, uint32_t max_shadows, int persistent,
                              RsGridCache* grids, cudaStream_t stream)
{
    if (max_shadows == 0)
        return cudaSuccess;
    const uint32_t* shadow_count = &counters[RS_CTR_SHADOW];
    if (persistent && rs_accel_run_kind(&kp.scene.accel) == RS_ACCEL_BVH8) {
        cudaError_t e = cudaMemsetAsync(&counters[RS_CTR_FETCH], 0, sizeof(uint32_t), stream);
        if (e != cudaSuccess)
            return e;
        if (rs_accel_has_cutouts(&kp.scene.accel)) {
            unsigned g = rs_persistent_grid_cached(grids, (const void*)rs_kernel_connect_fetch<true>, RS_TRACE_BLOCK);
            rs_kernel_connect_fetch<true><<<g, RS_TRACE_BLOCK, 0, stream>>>(kp, counters);
        } else {
            unsigned g = rs_persistent_grid_cached(grids, (const void*)rs_kernel_connect_fetch<false>, RS_TRACE_BLOCK);
            rs_kernel_connect_fetch<false><<<g, RS_TRACE_BLOCK, 0, stream>>>(kp, counters);
        }
        return cudaGetLastError();
    }
    unsigned grid = rs_blocks_for(max_shadows, RS_TRACE_BLOCK);
    /* a scene without cut-outs gets kernels compiled without the test (accel.h); a scene with
     * instances, the two-level kernels */
    const uint32_t plain = rs_accel_has_cutouts(&kp.scene.accel) ? 0u : RS_ACCEL_NO_CUTOUTS;
#define RS_CONNECT(a) rs_kernel_connect<a><<<grid, RS_TRACE_BLOCK, 0, stream>>>(kp, shadow_count)
    switch (rs_accel_run_kind(&kp.scene.accel) | plain) {
    case RS_ACCEL_BVH8 | RS_ACCEL_INSTANCES: RS_CONNECT(RS_ACCEL_BVH8 | RS_ACCEL_INSTANCES); break;
    case RS_ACCEL_BVH8 | RS_ACCEL_INSTANCES | RS_ACCEL_NO_CUTOUTS:
        RS_CONNECT(RS_ACCEL_BVH8 | RS_ACCEL_INSTANCES | RS_ACCEL_NO_CUTOUTS);
        break;
    case RS_ACCEL_BVH2 | RS_ACCEL_INSTANCES: RS_CONNECT(RS_ACCEL_BVH2 | RS_ACCEL_INSTANCES); break;
    case RS_ACCEL_BVH2 | RS_ACCEL_INSTANCES | RS_ACCEL_NO_CUTOUTS:
        RS_CONNECT(RS_ACCEL_BVH2 | RS_ACCEL_INSTANCES | RS_ACCEL_NO_CUTOUTS);
        break;
    case RS_ACCEL_BVH8: RS_CONNECT(RS_ACCEL_BVH8); break;
    case RS_ACCEL_BVH8 | RS_ACCEL_NO_CUTOUTS: RS_CONNECT(RS_ACCEL_BVH8 | RS_ACCEL_NO_CUTOUTS); break;
    case RS_ACCEL_GRID: RS_CONNECT(RS_ACCEL_GRID); break;
    case RS_ACCEL_GRID | RS_ACCEL_NO_CUTOUTS: RS_CONNECT(RS_ACCEL_GRID | RS_ACCEL_NO_CUTOUTS); break;
    case RS_ACCEL_BVH2 | RS_ACCEL_NO_CUTOUTS: RS_CONNECT(RS_ACCEL_BVH2 | RS_ACCEL_NO_CUTOUTS); break;
    default: RS_CONNECT(RS_ACCEL_BVH2); break;
    }
#undef RS_CONNECT
    return cudaGetLastError();
}
