/* deadray_stencil.cuh - the 1-bit stencil (Frolov, "Stencil Buffer, Stencil Test and Task
 * Stealing for CUDA"): one bit per ray, 32 rays per word.
 *
 * Device-only header (nvcc). A kernel first reads its warp's word: zero sends the whole warp
 * home at once (the test is warp-uniform because a warp's 32 rows share the word). A kernel
 * that ends rays collects every lane's verdict with __ballot_sync over the full warp and lane 0
 * stores the word: all 32 lanes must reach the ballot, so a dead lane skips the stage body but
 * never returns early. Launches cover whole warps (rows rounded up to 32, blocks a multiple of
 * 32 threads); lanes past the end of the wave have their bit clear.
 */
#ifndef RS_CUDA_DEADRAY_STENCIL_CUH
#define RS_CUDA_DEADRAY_STENCIL_CUH

#include "cuda/deadray/live_set.cuh"

/* Runs body(row) for the live lanes of one 32-row batch; with `writes`, stores the new word. */
template <bool Writes, class Body>
__device__ __forceinline__ void rs_stencil_batch(const RsLiveSet& set, uint32_t batch, uint32_t word, Body& body)
{
    const uint32_t lane = threadIdx.x & 31u;
    bool alive = (word >> lane) & 1u;
    bool continues = false;
    if (alive)
        continues = body(batch * 32u + lane);
    if (Writes) {
        uint32_t next = __ballot_sync(RS_FULL_WARP, continues);
        if (lane == 0)
            set.stencil[batch] = next;
    }
}

template <bool Writes, class Body>
__device__ __forceinline__ void rs_for_live_stencil(const RsLiveSet& set, Body& body)
{
    uint32_t batch = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (batch * 32u >= set.n)
        return; /* whole warp past the end */
    uint32_t word = set.stencil[batch];
    if (word == 0)
        return; /* the stencil test: the whole warp is dead */
    rs_stencil_batch<Writes>(set, batch, word, body);
}

#endif /* RS_CUDA_DEADRAY_STENCIL_CUH */
