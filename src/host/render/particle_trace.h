/* particle_trace.h - how the renderer traces the particle integrators: light tracing and
 * stochastic progressive photon mapping (docs/architecture.md, section 10.4).
 *
 * Host C11. The unit of work is a pass: for light tracing one particle per pixel (so `--spp N`
 * is N x pixels particles, as Mitsuba's ptracer counts), for SPPM a camera pass over every pixel
 * and then photons_per_pass photons. Particles go in chunks of RS_PARTICLE_CHUNK; after each
 * chunk the device resolves its splats (light tracing) or gathers its photons (SPPM), so sums
 * run in chunk order on one device: the image does not depend on the wave size or the dead-ray
 * strategy. A pass is never cut: the film after any number of whole passes is an estimate, so
 * stops, ticks, progress and checkpoints all fall between passes, and the film's w counts the
 * passes in every pixel (rs_renderer_resume's spans then read the same).
 * One device in one process: the splats of a chunk land anywhere in the image, so the span
 * split that shares camera paths among devices and MPI ranks does not apply; the renderer
 * refuses several devices or ranks for these integrators (rs_renderer_begin).
 */
#ifndef RS_HOST_PARTICLE_TRACE_H
#define RS_HOST_PARTICLE_TRACE_H

#include "host/render/renderer_queue.h"
#include "host/scene/scene.h"

/* Whether a scene can send particles: a light with power that a particle can leave from. 0, or
 * -1 with the reason naming the integrator. */
int rs_particles_check_scene(const RsScene* scene, uint32_t integrator, RsError* err);

/* What the particle integrators cannot honour in a frame (an orthographic camera with a lens
 * for light tracing, adaptive sampling, SPPM options out of range), and the renderer's shape
 * (several devices or processes). */
int rs_particles_check_frame(const RsRenderer* r, const RsFrameDesc* frame, RsError* err);

/* rs_renderer_trace for a particle integrator: whole passes until the film holds
 * global_paths / pixels of them. */
int rs_particles_trace(RsRenderer* r, uint64_t global_paths, RsError* err);

#endif /* RS_HOST_PARTICLE_TRACE_H */
