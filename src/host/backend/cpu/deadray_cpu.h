/* deadray_cpu.h - the dead-ray strategies of the CPU backend (deadray_cpu.c), as the stage
 * loops of backend_cpu.c call them. Host C11; not part of any public API. */
#ifndef RS_HOST_DEADRAY_CPU_H
#define RS_HOST_DEADRAY_CPU_H

#include "host/backend/cpu/cpu_backend.h"

/* Prepares the strategy's state for a fresh wave of `paths` live rows. */
void rs_cpu_deadray_reset(RsCpuBackend* b, uint32_t paths);
/* After a generate that may have killed paths (adaptive sampling): the stencil words from the
 * alive flags generate wrote (the other strategies read the flags themselves). */
void rs_cpu_deadray_from_flags(RsCpuBackend* b, uint32_t paths);
/* --deadray auto, inside a wave after a drop: b->deadray becomes `to`'s family's state (the
 * list of live rows from the stencil bits, or the bits from the list); the caller sets
 * b->deadray. Not flags (auto never picks it). */
void rs_cpu_deadray_convert(RsCpuBackend* b, RsDeadRay to);
/* Drops the rays that shade ended; returns the number of live rays. */
uint32_t rs_cpu_deadray_drop(RsCpuBackend* b);
/* Number of items stages iterate over (rows for flags/stencil/persistent, live entries else). */
uint32_t rs_cpu_active_items(const RsCpuBackend* b);

#endif /* RS_HOST_DEADRAY_CPU_H */
