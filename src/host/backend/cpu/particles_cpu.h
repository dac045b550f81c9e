/* particles_cpu.h - the CPU backend's buffers and steps for the particle integrators (light
 * tracing and SPPM; docs/architecture.md, section 10.4): the splat and photon queues, the
 * visible points and SPPM's per-pass sums, and the chunk and pass steps that read them.
 * Host C11; backend_cpu.c calls these, nothing else does.
 */
#ifndef RS_HOST_BACKEND_CPU_PARTICLES_CPU_H
#define RS_HOST_BACKEND_CPU_PARTICLES_CPU_H

#include "host/backend/cpu/cpu_backend.h"

/* set_frame: with config.particles and a particle integrator, sizes the queues for a chunk of
 * the frame's depth and the per-pixel arrays for its image (kept when they fit), points kp at
 * them and clears them; otherwise frees them. kp's film must be set. */
int rs_cpu_particles_set_frame(RsCpuBackend* b, const RsFrameDesc* frame, RsError* err);
void rs_cpu_particles_free(RsCpuBackend* b);

/* The backend ops of the same names (backend.h). */
int rs_cpu_particle_resolve(RsBackend* base, RsError* err);
int rs_cpu_sppm_update(RsBackend* base, RsError* err);

#endif /* RS_HOST_BACKEND_CPU_PARTICLES_CPU_H */
