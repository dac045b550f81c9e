/* deadray_live.cuh - "run the stage for every live row", for each way of knowing which rows
 * are live. The stage kernels (kernel_<stage>.cu) are this plus one call into src/kernel/.
 *
 * Device-only header (nvcc). Body is a callable row -> bool (true: the path continues). With
 * Writes (the shade stage), the verdict is recorded the strategy's way:
 *   flags       alive[row] = verdict, every row visited, dead ones return at once;
 *   stencil     ballot of the verdicts, one word per warp (deadray_stencil.cuh);
 *   persistent  the same inside a task-stealing loop (deadray_persistent.cuh);
 *   index       keep[position] = verdict for the compaction that follows; only live rows run.
 */
#ifndef RS_CUDA_DEADRAY_LIVE_CUH
#define RS_CUDA_DEADRAY_LIVE_CUH

#include "cuda/deadray/deadray_persistent.cuh"
#include "cuda/deadray/deadray_stencil.cuh"

template <int Mode, bool Writes, class Body>
__device__ __forceinline__ void rs_for_live(const RsLiveSet& set, Body& body)
{
    if (Mode == RS_LIVE_STENCIL) {
        rs_for_live_stencil<Writes>(set, body);
    } else if (Mode == RS_LIVE_PERSISTENT) {
        rs_for_live_persistent<Writes>(set, body);
    } else {
        uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i >= set.n)
            return;
        if (Mode == RS_LIVE_FLAGS) {
            if (!set.alive[i])
                return;
            bool continues = body(i);
            if (Writes)
                set.alive[i] = continues;
        } else {
            bool continues = body(set.index[i]);
            if (Writes)
                set.keep[i] = continues;
        }
    }
}

/* Whether `row` is live, for kernels that give every lane a row themselves (whole warps
 * stepping together: kernel_extend_fetch.cu, kernel_extend_camera.cu); with index lists every
 * listed row is. */
template <int Mode>
__device__ __forceinline__ bool rs_row_is_live(const RsLiveSet& set, uint32_t row)
{
    if (Mode == RS_LIVE_FLAGS)
        return set.alive[row] != 0;
    if (Mode == RS_LIVE_STENCIL || Mode == RS_LIVE_PERSISTENT)
        return (set.stencil[row >> 5] >> (row & 31u)) & 1u;
    return true;
}

#endif /* RS_CUDA_DEADRAY_LIVE_CUH */
