/* kernel_params.h - everything a stage function reads besides its own ray: the scene, the
 * camera, the render settings and the buffers of the current wave.
 *
 * Shared header (gcc C11, g++, nvcc). The CPU backend passes a pointer to one of these; the
 * CUDA backend passes it by value as a kernel argument (it is a few hundred bytes of pointers
 * and scalars), so the struct holds device pointers there and host pointers here.
 *
 * index visits the pixels in 8x4 tiles (pixel_order.h). The image is traced in spans: runs of
 * pass-order indices [span_first_index, span_first_index + span_pixels) (the whole image on one
 * device; bands of rows that several devices share, renderer.c). Inside a span, paths are
 * numbered l = sample * span_pixels + (index - span_first_index), so one sample pass over the
 * span is a contiguous range and a whole-image span numbers paths exactly as the image does. A
 * wave is the range [wave_first_path, wave_first_path + wave_paths) of that numbering; slot =
 * l - wave_first_path is a path's stable id inside the wave. A path's pixel and sample, and so
 * its random numbers and its radiance, do not depend on the span it was traced in.
 */
#ifndef RS_KERNEL_KERNEL_PARAMS_H
#define RS_KERNEL_KERNEL_PARAMS_H

#include "kernel/film/splat.h"
#include "kernel/geometry/camera.h"
#include "kernel/particle/photon.h"
#include "kernel/scene/scene_view.h"
#include "kernel/state/ray_state.h"

/* path and whitted trace camera paths, one per pixel sample; light and sppm trace particles
 * from the lights too (docs/architecture.md, section 10.4; kernel/stages/stage_particle.h). */
enum { RS_INTEGRATOR_PATH = 0, RS_INTEGRATOR_WHITTED = 1, RS_INTEGRATOR_LIGHT = 2, RS_INTEGRATOR_SPPM = 3 };

/* What a wave traces (RsWaveRange.phase): camera paths, one per pixel sample (every integrator;
 * SPPM's camera pass), or particles leaving the lights (light tracing; SPPM's photon pass). */
enum { RS_PHASE_CAMERA = 0, RS_PHASE_PARTICLES = 1 };

/* Particles are traced in chunks of this many: the unit whose splats or photons are sorted and
 * reduced together. Fixed, so that no device, wave size or rank count changes which particles
 * share a chunk, and so the bits of the image. A chunk's order keys are
 * (particle in chunk) x (max_depth + 2) + vertex (rs_particle_order), under 2^32 for any depth
 * up to 16000. */
#define RS_PARTICLE_CHUNK (1u << 18)

typedef struct RsParticleParams {
    uint32_t phase;    /* RS_PHASE_* of the wave being traced */
    uint32_t per_pass; /* particles in one pass: the pixel count for light tracing, the photons
                          per pass for SPPM; the span numbering's span_pixels in a particle wave */
    uint64_t chunk_first_path; /* the chunk's first particle, in the span numbering (rs_particle_order) */
    float sppm_alpha;  /* SPPM: the fraction of a pass's photons a pixel keeps (Hachisuka's alpha) */
    float sppm_radius; /* SPPM: the initial gather radius, scene units */
    uint32_t pad_[2];
} RsParticleParams;

typedef struct RsKernelParams {
    RsSceneView scene;
    RsCamera camera;
    uint32_t width, height;
    uint32_t seed;
    uint32_t sampler;    /* RS_SAMPLER_* (sampler.h): where random numbers come from */
    uint32_t max_depth;  /* ray segments per path: 1 = camera rays with direct light only */
    uint32_t integrator; /* RS_INTEGRATOR_* */
    uint32_t rr_depth;   /* Russian roulette may end a path from this depth on */
    float noise_threshold; /* adaptive sampling (film/adaptive.h): 0 = off */
    uint32_t min_spp;      /* adaptive sampling: samples before a pixel may stop */
    uint32_t span_first_index; /* the span being traced: first pass-order index, pixel count */
    uint32_t span_pixels;
    uint64_t wave_first_path;  /* in the span's numbering (see above) */
    uint32_t wave_paths;
    RsRayStateSoA rays;
    RsShadowStateSoA shadows;
    RsFloat4* path_radiance; /* per slot: rgb | 1, or 0 for a path of a stopped pixel (adaptive.h) */
    RsFloat4* film;          /* per pixel: summed rgb | number of samples summed; with AOVs, the
                                planes of aov.h follow, each width * height entries */
    /* per slot, only with AOVs (NULL otherwise; aov.h says what they hold) */
    RsFloat4* path_albedo;   /* albedo rgb | 1 once recorded */
    RsFloat4* path_normal;   /* shading normal | 1 if the camera ray hit something */
    RsFloat4* path_position; /* first hit point | its camera-space depth */
    /* paths whose radiance was not finite, dropped by accumulate (stage_accumulate.h) since
     * set_frame; one counter per backend instance, or NULL not to count */
    uint64_t* nonfinite_paths;
    /* particle integrators only (NULL / empty otherwise; stage_particle.h) */
    RsParticleParams particles;
    RsSplatQueue splats;     /* light tracing: each camera connection a splat (film/splat.h) */
    RsPhotonQueue photons;   /* SPPM photon pass: deposits (particle/photon.h) */
    RsVisiblePoints visible; /* SPPM: per pixel, the camera pass's visible point */
    RsFloat4* sppm_state;    /* SPPM: two planes of width * height after the film's others:
                                [0] direct light summed over passes .rgb | N (photons kept);
                                [1] tau (flux kept) .rgb | R (gather radius; 0: not started) */
    RsFloat4* sppm_pass;     /* SPPM: per pixel, the pass's gathered Phi .rgb | M (photons in R) */
} RsKernelParams;

RS_FN uint32_t rs_pixel_count(const RsKernelParams* kp) { return kp->width * kp->height; }

/* The pass-order index of a path of the span (l: its number in the span's numbering). */
RS_FN uint32_t rs_span_index(const RsKernelParams* kp, uint64_t l)
{
    return kp->span_first_index + (uint32_t)(l % kp->span_pixels);
}

/* Whether the integrator traces particles (light tracing, SPPM). */
RS_FN int rs_integrator_particles(uint32_t integrator)
{
    return integrator == RS_INTEGRATOR_LIGHT || integrator == RS_INTEGRATOR_SPPM;
}

/* The order key of vertex `vertex` (0: on the light) of particle l (span numbering) in its
 * chunk: unique within the chunk, so sums over a chunk's splats or photons never depend on the
 * scheduling (film/splat.h). */
RS_FN uint32_t rs_particle_order(const RsKernelParams* kp, uint64_t l, uint32_t vertex)
{
    return (uint32_t)(l - kp->particles.chunk_first_path) * (kp->max_depth + 2u) + vertex;
}

#endif /* RS_KERNEL_KERNEL_PARAMS_H */
