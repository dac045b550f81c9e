/* fetch_loop.cuh - persistent warps with dynamic ray fetch around bvh8 walks: the loop that the
 * persistent extend (kernel_extend_fetch.cu) and the persistent shadow-ray kernel
 * (kernel_connect.cu) share.
 *
 * Aila and Laine, "Understanding the Efficiency of Ray Traversal on GPUs" (HPG 2009) keep warps
 * resident and let them take rays from a global counter; their Kepler/Fermi addendum (Aila,
 * Laine, Karras 2012) adds dynamic fetch: a warp whose lanes run walks of very different length
 * idles most lanes at the end of each batch, so as soon as fewer than RS_REFETCH_LANES lanes
 * still have a ray, the idle lanes fetch new ones (one atomicAdd per warp) and the warp goes on
 * stepping. Walks advance one node visit at a time, which is what lets a lane swap a finished
 * ray for a new one between steps; the leaf primitives of a step's visits are tested by the
 * whole warp together (warp_prims.cuh).
 * Device-only header (nvcc).
 */
#ifndef RS_CUDA_FETCH_LOOP_CUH
#define RS_CUDA_FETCH_LOOP_CUH

#include "cuda/deadray/live_set.cuh"
#include "cuda/stages/trace_stack.cuh"
#include "cuda/stages/warp_prims.cuh"
#include "kernel/accel/bvh8.h"

/* Refetch once fewer lanes than this are busy. On an H100 (Sponza, SBVH, 1080p) 12, 16, 20,
 * 24 and 28 gave bounce rays 1.44, 1.47, 1.53, 1.58 and 1.60 G/s and shadow rays 2.41, 2.51,
 * 2.55, 2.61 and 2.65 G/s: with short node visits, refilling lanes early pays for the
 * atomic (tools/bench/results/traversal/experiment-refetch-*). An experiment may build with
 * another (-DRS_REFETCH_LANES=N). */
#ifndef RS_REFETCH_LANES
#define RS_REFETCH_LANES 28
#endif

/* Refetch: hands out tickets 0..n-1 from *counter (zeroed before the launch) to the warps' idle
 * lanes. Without it, each thread of the grid takes the ticket of its own index, once (one ray
 * per thread, the lanes of a warp stepping together so that they share primitive tests; counter
 * unused). begin(ticket, &walk) starts the lane's walk and returns whether there is one (a dead
 * row has none); finish(&walk) takes the result of a walk that is over. Any: shadow-ray
 * semantics. */
template <int Any, bool Refetch, class Begin, class Finish>
__device__ __forceinline__ void rs_fetch_walks(uint32_t* counter, uint32_t n, const RsBvh8View& view,
                                               RsTraceStack stack, Begin& begin, Finish& finish)
{
    const uint32_t lane = threadIdx.x & 31u;
    const uint32_t lanes_below = (1u << lane) - 1u;
    __shared__ RsWarpPrims warp_prims[RS_TRACE_BLOCK / 32];
    RsWarpPrims* scratch = &warp_prims[threadIdx.x >> 5];
    RsBvh8Walk walk;
    walk.prim_hits = 0;
    bool busy = false, exhausted = !Refetch;
    if (!Refetch) {
        uint32_t ticket = blockIdx.x * blockDim.x + threadIdx.x;
        busy = ticket < n && begin(ticket, &walk);
    }
    for (;;) {
        uint32_t busy_lanes = __ballot_sync(RS_FULL_WARP, busy);
        if (!exhausted && __popc(busy_lanes) < RS_REFETCH_LANES) {
            uint32_t idle = ~busy_lanes, wanted = (uint32_t)__popc(idle), first = 0;
            if (lane == 0)
                first = atomicAdd(counter, wanted);
            first = __shfl_sync(RS_FULL_WARP, first, 0);
            exhausted = first + wanted >= n; /* the same in every lane */
            if (!busy) {
                uint32_t ticket = first + (uint32_t)__popc(idle & lanes_below);
                if (ticket < n)
                    busy = begin(ticket, &walk);
            }
            busy_lanes = __ballot_sync(RS_FULL_WARP, busy);
        }
        if (busy_lanes == 0 && exhausted)
            break;
        if (busy)
            rs_bvh8_walk_visit(&view, &walk, stack);
        int hit = rs_warp_test_prims<Any>(view, &walk, scratch); /* every lane, converged */
        if (busy && ((Any && hit) || rs_bvh8_walk_pop(&walk, stack))) {
            finish(&walk);
            busy = false;
        }
    }
}

#endif /* RS_CUDA_FETCH_LOOP_CUH */
