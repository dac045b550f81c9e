/* stage_timing.cu - per-stage GPU time (config.time_stages): the event pairs that mark_begin
 * and mark_end (cuda_backend.cuh) record around each stage, resolved into seconds in batches
 * and handed out by take_stage_times.
 *
 * Device-side host glue (nvcc).
 */
#include "cuda/backend/cuda_backend.cuh"

/* Resolves the recorded event pairs into per-stage seconds (waits for them). */
int rs_cuda_backend_flush_marks(RsCudaBackend* b)
{
    if (b->mark_count == 0)
        return 0;
    RS_CUDA(&b->ctx, cudaEventSynchronize(b->marks[b->mark_count - 1].stop));
    for (int i = 0; i < b->mark_count; ++i) {
        float ms = 0.0f;
        RS_CUDA(&b->ctx, cudaEventElapsedTime(&ms, b->marks[i].start, b->marks[i].stop));
        b->stage_seconds[b->marks[i].stage] += ms * 1e-3;
    }
    b->mark_count = 0;
    return 0;
}

int rs_cuda_backend_take_stage_times(RsBackend* base, double seconds[RS_STAGE_COUNT], RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "stage timing", err))
        return -1;
    if (rs_cuda_backend_flush_marks(b))
        return -1;
    for (int s = 0; s < RS_STAGE_COUNT; ++s) {
        seconds[s] += b->stage_seconds[s];
        b->stage_seconds[s] = 0.0;
    }
    return 0;
}
