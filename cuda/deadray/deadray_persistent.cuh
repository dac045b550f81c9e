/* deadray_persistent.cuh - persistent threads with task stealing (Aila & Laine, HPG 2009;
 * Frolov's article): launch only as many warps as fit on the GPU at once, and let each warp
 * take the next 32-ray batch from a global counter with one atomicAdd until the work runs out.
 *
 * Device-only header (nvcc). Batches whose stencil word is zero are skipped without running the
 * stage. The counter is reset on the device, never read back: the last warp to run out of work
 * (counted by a second counter) zeroes both, ready for the next launch. That is safe because a
 * warp only counts itself done after it has drawn its last, failing ticket.
 */
#ifndef RS_CUDA_DEADRAY_PERSISTENT_CUH
#define RS_CUDA_DEADRAY_PERSISTENT_CUH

#include "cuda/deadray/deadray_stencil.cuh"

template <bool Writes, class Body>
__device__ __forceinline__ void rs_for_live_persistent(const RsLiveSet& set, Body& body)
{
    const uint32_t lane = threadIdx.x & 31u;
    const uint32_t batches = (set.n + 31u) / 32u;
    for (;;) {
        uint32_t batch = 0;
        if (lane == 0)
            batch = atomicAdd(&set.counters[RS_CTR_TICKET], 1u);
        batch = __shfl_sync(RS_FULL_WARP, batch, 0);
        if (batch >= batches)
            break;
        uint32_t word = set.stencil[batch];
        if (word != 0)
            rs_stencil_batch<Writes>(set, batch, word, body);
    }
    if (lane == 0) {
        uint32_t warps = gridDim.x * (blockDim.x / 32u);
        if (atomicAdd(&set.counters[RS_CTR_DONE], 1u) == warps - 1u) {
            atomicExch(&set.counters[RS_CTR_TICKET], 0u);
            atomicExch(&set.counters[RS_CTR_DONE], 0u);
        }
    }
}

#endif /* RS_CUDA_DEADRAY_PERSISTENT_CUH */
