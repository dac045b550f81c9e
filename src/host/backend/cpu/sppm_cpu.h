/* sppm_cpu.h - stochastic progressive photon mapping's per-chunk and per-pass steps on the
 * thread pool: the photon grid built from a chunk's photons, each pixel's gather from it, and
 * the per-pixel update at the end of a pass (kernel/particle/photon_grid.h has the per-item
 * code, which cuda/post/sppm.cu runs too, so both backends give the same bits).
 * Host C11.
 */
#ifndef RS_HOST_BACKEND_CPU_SPPM_CPU_H
#define RS_HOST_BACKEND_CPU_SPPM_CPU_H

#include "host/util/error.h"
#include "host/util/thread_pool.h"
#include "kernel/state/kernel_params.h"

/* Buffers grown on demand and kept between chunks. Zero-initialise before first use. */
typedef struct RsSppmCpuScratch {
    void* state; /* owned by sppm_cpu.c */
    uint32_t table_bits; /* 0: the photon grid's table from the photon count (rs_photon_grid_bits);
                            else 2^table_bits buckets (tests force tiny tables with it) */
} RsSppmCpuScratch;

void rs_sppm_cpu_scratch_free(RsSppmCpuScratch* scratch);

/* After a photon chunk: builds the photon grid from kp->photons (the queue's count is the
 * photon count; past the capacity is an error and nothing is gathered), gathers at every
 * pixel's visible point (kp->visible, kp->sppm_state for the radii) into kp->sppm_pass, and
 * empties the queue. pool may be NULL. */
int rs_sppm_resolve_cpu(RsThreadPool* pool, const RsKernelParams* kp, RsSppmCpuScratch* scratch, RsError* err);

/* At the end of a pass: the per-pixel update (photon_grid.h) of kp->sppm_state from
 * kp->sppm_pass, film plane 0 from the state, the pass's sums and visible points cleared. */
void rs_sppm_update_cpu(RsThreadPool* pool, const RsKernelParams* kp);

#endif /* RS_HOST_BACKEND_CPU_SPPM_CPU_H */
