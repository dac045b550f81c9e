/* sppm_cpu.c - PLACEHOLDER until the photon grid lands (see sppm_cpu.h). Host C11. */
#include "host/backend/cpu/sppm_cpu.h"

void rs_sppm_cpu_scratch_free(RsSppmCpuScratch* scratch) { (void)scratch; }

int rs_sppm_resolve_cpu(RsThreadPool* pool, const RsKernelParams* kp, RsSppmCpuScratch* scratch, RsError* err)
{
    (void)pool;
    (void)kp;
    (void)scratch;
    return rs_error_set(err, "sppm: not built yet");
}

void rs_sppm_update_cpu(RsThreadPool* pool, const RsKernelParams* kp)
{
    (void)pool;
    (void)kp;
}
