/* kernel_shade.cuh - the shade kernel, a thin wrapper: live row -> rs_stage_shade; its verdict
 * goes to the dead-ray strategy (deadray_live.cuh), its shadow ray to the queue with one
 * atomicAdd per group of lanes that have one (warp-aggregated append). One template for every
 * kind of shade kernel; kernel_shade.cu instantiates the general and the particle kinds,
 * kernel_shade_plain.cu the plain one, so that nvcc compiles the two halves side by side (the
 * single file was the build's longest step). Device-only header (nvcc). */
#ifndef RS_CUDA_KERNEL_SHADE_CUH
#define RS_CUDA_KERNEL_SHADE_CUH

#include <cooperative_groups.h>

#include "cuda/deadray/deadray_live.cuh"
#include "cuda/stages/kernels.cuh"
#include "kernel/stages/stage_shade.h"

__device__ __forceinline__ void rs_append_shadow(const RsKernelParams& kp, uint32_t* count, const RsShadowRow& row)
{
    cooperative_groups::coalesced_group group = cooperative_groups::coalesced_threads();
    uint32_t base = 0;
    if (group.thread_rank() == 0)
        base = atomicAdd(count, group.size());
    base = group.shfl(base, 0);
    rs_shadow_store(&kp.shadows, base + group.thread_rank(), &row, kp.scene.accel.inst.instance_count != 0);
}

/* Shade's blocks and the registers they may take. Shade waits on its loads (the hit's
 * primitive, normals, material; Nsight Compute on Sponza: 53% of its cycles), so it wants
 * warps to switch between; nvcc gives it 115 registers, 16 warps an SM in blocks of 256 or of
 * 128. Blocks of 128 with 5 an SM cap it at 96 registers (a few bytes of spill): 20 warps. */
#ifndef RS_SHADE_BLOCK
#define RS_SHADE_BLOCK 128
#endif
#ifndef RS_SHADE_MIN_BLOCKS
#define RS_SHADE_MIN_BLOCKS 5
#endif

/* The kind of shade kernel: a particle wave's (stage_particle.h), a camera wave's, or a camera
 * wave's in a plain scene (no textures, no instances: rs_scene_is_plain, shade_surface.h). Camera
 * waves get kernels without the particle code, whose registers would otherwise cost the path
 * tracer's shade its occupancy; the plain kernel also leaves out textures and instances (on the
 * H100, Sponza's shade 23.4 -> 19.2 ms a frame at 1080p, depth 8, 16 spp). */
enum { RS_SHADE_CAMERA = 0, RS_SHADE_CAMERA_PLAIN = 1, RS_SHADE_PARTICLES = 2 };

template <int Mode, int Kind>
__global__ void __launch_bounds__(RS_SHADE_BLOCK, RS_SHADE_MIN_BLOCKS)
    rs_kernel_shade(const __grid_constant__ RsKernelParams kp, RsLiveSet set)
{
    auto body = [&](uint32_t row) {
        RsShadowRow shadow;
        uint32_t result = Kind == RS_SHADE_PARTICLES
                              ? rs_stage_shade_particle(&kp, row, &shadow)
                              : rs_stage_shade_camera_with(&kp, row, &shadow, Kind == RS_SHADE_CAMERA_PLAIN);
        if (result & RS_SHADE_SHADOW)
            rs_append_shadow(kp, &set.counters[RS_CTR_SHADOW], shadow);
        return (result & RS_SHADE_CONTINUE) != 0;
    };
    rs_for_live<Mode, true>(set, body);
}

template <int Kind>
void rs_launch_shade_kind(const RsKernelParams& kp, const RsLiveSet& set, int mode, RsGridCache* grids,
                         cudaStream_t stream)
{
    const unsigned block = RS_SHADE_BLOCK;
    unsigned grid = rs_blocks_for(set.n, block);
    switch (mode) {
    case RS_LIVE_FLAGS: rs_kernel_shade<RS_LIVE_FLAGS, Kind><<<grid, block, 0, stream>>>(kp, set); break;
    case RS_LIVE_STENCIL: rs_kernel_shade<RS_LIVE_STENCIL, Kind><<<grid, block, 0, stream>>>(kp, set); break;
    case RS_LIVE_PERSISTENT: {
        /* the cache is keyed by the kernel, so each variant gets its own grid */
        unsigned persistent_grid =
            rs_persistent_grid_cached(grids, (const void*)rs_kernel_shade<RS_LIVE_PERSISTENT, Kind>, block);
        rs_kernel_shade<RS_LIVE_PERSISTENT, Kind><<<persistent_grid, block, 0, stream>>>(kp, set);
        break;
    }
    default: rs_kernel_shade<RS_LIVE_INDEX, Kind><<<grid, block, 0, stream>>>(kp, set); break;
    }
}

/* The plain kind's launch (kernel_shade_plain.cu). */
void rs_launch_shade_plain(const RsKernelParams& kp, const RsLiveSet& set, int mode, RsGridCache* grids,
                           cudaStream_t stream);

#endif /* RS_CUDA_KERNEL_SHADE_CUH */
