/* particle_ops.cu - the particle integrators' buffers and steps on the CUDA backend (light
 * tracing and SPPM; docs/architecture.md, section 10.4): the splat and photon queues with their
 * resolve scratch, SPPM's visible points and per-pass sums, sized by set_frame; the
 * particle_resolve and sppm_update entry points.
 *
 * Device-side host glue (nvcc). A queue holds one chunk: RS_PARTICLE_CHUNK particles x
 * (max_depth + 1) records, so it cannot overflow (a particle appends at most one record per
 * vertex after the light); a count past the capacity is still an error, never a silent drop.
 * Each integrator gets only what it uses (light: the splat queue; sppm: the photon queue, the
 * visible points and sppm_pass), and a path or whitted frame frees them, so a viewer that may
 * trace particles holds none of it while it renders paths. The buffers only grow between frames
 * of the same integrator: a chunk's worth of records is the same for every frame of one depth.
 */
#include <stdint.h>
#include <string.h>

#include "cuda/backend/cuda_backend.cuh"

extern "C" {
#include "host/backend/cpu/splat_cpu.h"
}

static void free_splats(RsCudaParticles* p)
{
    cudaFree(p->splats.entries);
    cudaFree(p->splats.count);
    rs_splat_scratch_free(&p->splat_scratch);
    memset(&p->splats, 0, sizeof p->splats);
}

static void free_sppm(RsCudaParticles* p)
{
    cudaFree(p->photons.entries);
    cudaFree(p->photons.count);
    if (p->sppm_scratch.state)
        rs_sppm_scratch_free(&p->sppm_scratch);
    memset(&p->photons, 0, sizeof p->photons);
    memset(&p->sppm_scratch, 0, sizeof p->sppm_scratch);
    cudaFree(p->visible.origin);
    cudaFree(p->visible.direction);
    cudaFree(p->visible.hit);
    cudaFree(p->visible.weight);
    cudaFree(p->sppm_pass);
    memset(&p->visible, 0, sizeof p->visible);
    p->sppm_pass = NULL;
    p->sppm_pixels = p->sppm_scratch_photons = p->sppm_scratch_pixels = 0;
}

void rs_cuda_backend_free_particles(RsCudaBackend* b)
{
    free_splats(&b->particles);
    free_sppm(&b->particles);
}

/* The light tracer's queue and its resolve scratch, for `capacity` splats. */
static int reserve_splats(RsCudaBackend* b, uint32_t capacity)
{
    RsCudaParticles* p = &b->particles;
    if (p->splats.entries && p->splats.capacity >= capacity)
        return 0;
    free_splats(p);
    RS_CUDA(&b->ctx, cudaMalloc((void**)&p->splats.entries, (size_t)capacity * sizeof(RsSplat)));
    RS_CUDA(&b->ctx, cudaMalloc((void**)&p->splats.count, sizeof(uint64_t)));
    RS_CUDA(&b->ctx, rs_splat_scratch_alloc(&p->splat_scratch, capacity));
    p->splats.capacity = capacity;
    return 0;
}

/* SPPM's photon queue for `capacity` photons, its grid scratch, and the per-pixel visible
 * points and pass sums for `pixels` pixels. */
static int reserve_sppm(RsCudaBackend* b, uint32_t capacity, uint32_t pixels)
{
    RsCudaParticles* p = &b->particles;
    RsCudaContext* c = &b->ctx;
    if (!p->photons.entries || p->photons.capacity < capacity) {
        cudaFree(p->photons.entries);
        cudaFree(p->photons.count);
        memset(&p->photons, 0, sizeof p->photons);
        RS_CUDA(c, cudaMalloc((void**)&p->photons.entries, (size_t)capacity * sizeof(RsPhoton)));
        RS_CUDA(c, cudaMalloc((void**)&p->photons.count, sizeof(uint64_t)));
        p->photons.capacity = capacity;
    }
    if (!p->sppm_pass || p->sppm_pixels < pixels) {
        RsFloat4** planes[5] = {&p->visible.origin, &p->visible.direction, &p->visible.hit, &p->visible.weight,
                                &p->sppm_pass};
        for (int i = 0; i < 5; ++i) {
            cudaFree(*planes[i]);
            *planes[i] = NULL;
        }
        p->sppm_pixels = 0;
        for (int i = 0; i < 5; ++i)
            RS_CUDA(c, cudaMalloc((void**)planes[i], (size_t)pixels * sizeof(RsFloat4)));
        p->sppm_pixels = pixels;
    }
    if (!p->sppm_scratch.state || p->sppm_scratch_photons < capacity || p->sppm_scratch_pixels < pixels) {
        if (p->sppm_scratch.state)
            rs_sppm_scratch_free(&p->sppm_scratch);
        memset(&p->sppm_scratch, 0, sizeof p->sppm_scratch);
        p->sppm_scratch_photons = p->sppm_scratch_pixels = 0;
        RS_CUDA(c, rs_sppm_scratch_alloc(&p->sppm_scratch, capacity, pixels));
        p->sppm_scratch_photons = capacity;
        p->sppm_scratch_pixels = pixels;
    }
    return 0;
}

/* A queue that does not fit: frees what the particles hold and replaces the failed call's
 * message with what to change (record_bytes: a record and its share of the resolve's scratch). */
static int out_of_memory(RsCudaBackend* b, const char* what, uint32_t capacity, size_t record_bytes,
                         uint32_t max_depth)
{
    rs_cuda_backend_free_particles(b);
    size_t free_bytes = 0, total = 0;
    cudaMemGetInfo(&free_bytes, &total);
    rs_error_clear(b->ctx.err);
    return rs_error_set(b->ctx.err,
                        "CUDA: cannot allocate the %s for a chunk of %u particles at max depth %u (%u records, "
                        "about %.1f MiB; %.1f MiB free of %.1f MiB); try a smaller --max-depth",
                        what, RS_PARTICLE_CHUNK, max_depth, capacity,
                        (double)capacity * (double)record_bytes / 1048576.0, free_bytes / 1048576.0,
                        total / 1048576.0);
}

int rs_cuda_backend_set_frame_particles(RsCudaBackend* b, const RsFrameDesc* f)
{
    RsCudaParticles* p = &b->particles;
    RsKernelParams* kp = &b->kp;
    uint32_t pixels = f->width * f->height;
    memset(&kp->splats, 0, sizeof kp->splats);
    memset(&kp->photons, 0, sizeof kp->photons);
    memset(&kp->visible, 0, sizeof kp->visible);
    kp->sppm_state = NULL;
    kp->sppm_pass = NULL;
    if (!b->base.config.particles) {
        if (rs_integrator_particles(f->integrator))
            return rs_error_set(b->ctx.err, "internal error: the %s integrator needs a backend made for particles "
                                            "(RsBackendConfig.particles)",
                                f->integrator == RS_INTEGRATOR_LIGHT ? "light" : "sppm");
        return 0;
    }
    /* the film has the SPPM planes whenever the backend may trace particles (rs_film_planes) */
    kp->sppm_state = b->film + (size_t)rs_film_sppm_plane(&b->base.config) * pixels;
    if (!rs_integrator_particles(f->integrator)) {
        rs_cuda_backend_free_particles(b);
        return 0;
    }
    /* one record per vertex after the light, up to max_depth of them, plus the light's own
     * (a connection from the light vertex): (max_depth + 1) per particle of a chunk */
    if ((uint64_t)f->max_depth + 1u > UINT32_MAX / RS_PARTICLE_CHUNK)
        return rs_error_set(b->ctx.err, "max depth %u is too large for particle tracing (at most %u)", f->max_depth,
                            UINT32_MAX / RS_PARTICLE_CHUNK - 1u);
    uint32_t capacity = RS_PARTICLE_CHUNK * (f->max_depth + 1u);
    RsCudaContext* c = &b->ctx;
    if (f->integrator == RS_INTEGRATOR_LIGHT) {
        free_sppm(p);
        if (reserve_splats(b, capacity))
            return out_of_memory(b, "splat queue", capacity, sizeof(RsSplat) + 24u, f->max_depth);
        RS_CUDA(c, cudaMemsetAsync(p->splats.count, 0, sizeof(uint64_t), b->stream));
        kp->splats = p->splats;
        return 0;
    }
    free_splats(p);
    if (reserve_sppm(b, capacity, pixels))
        return out_of_memory(b, "photon queue", capacity, sizeof(RsPhoton), f->max_depth);
    RS_CUDA(c, cudaMemsetAsync(p->photons.count, 0, sizeof(uint64_t), b->stream));
    /* no visible point yet: a hit whose primitive is RS_NO_HIT (0xffffffff, every byte 0xff) */
    RS_CUDA(c, cudaMemsetAsync(p->visible.origin, 0, (size_t)pixels * sizeof(RsFloat4), b->stream));
    RS_CUDA(c, cudaMemsetAsync(p->visible.direction, 0, (size_t)pixels * sizeof(RsFloat4), b->stream));
    RS_CUDA(c, cudaMemsetAsync(p->visible.hit, 0xff, (size_t)pixels * sizeof(RsFloat4), b->stream));
    RS_CUDA(c, cudaMemsetAsync(p->visible.weight, 0, (size_t)pixels * sizeof(RsFloat4), b->stream));
    RS_CUDA(c, cudaMemsetAsync(p->sppm_pass, 0, (size_t)pixels * sizeof(RsFloat4), b->stream));
    kp->photons = p->photons;
    kp->visible = p->visible;
    kp->sppm_pass = p->sppm_pass;
    return 0;
}

int rs_cuda_backend_particle_resolve(RsBackend* base, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "particle_resolve", err))
        return -1;
    b->ctx.depth = 0;
    if (!base->config.particles)
        return rs_error_set(err, "internal error: particle_resolve on a backend configured without particles");
    if (b->kp.integrator == RS_INTEGRATOR_LIGHT) {
        if (!b->kp.splats.entries)
            return rs_error_set(err, "internal error: particle_resolve without a splat queue (set_frame)");
        if (mark_begin(b, RS_STAGE_ACCUMULATE))
            return -1;
        RsSplatResolveStats stats;
        /* splats add to film plane 0's rgb; accumulate counts the passes in its w */
        RS_CUDA(&b->ctx, rs_launch_splat_resolve(b->kp.splats, b->film, b->film_pixels, &b->particles.splat_scratch,
                                                 &stats, b->stream));
        if (mark_end(b))
            return -1;
        return rs_splat_check(&stats, b->kp.splats.capacity, b->film_pixels, err);
    }
    if (b->kp.integrator == RS_INTEGRATOR_SPPM) {
        if (!b->kp.photons.entries)
            return rs_error_set(err, "internal error: particle_resolve without a photon queue (set_frame)");
        if (mark_begin(b, RS_STAGE_ACCUMULATE))
            return -1;
        uint64_t photons = 0;
        RS_CUDA(&b->ctx, rs_launch_sppm_resolve(&b->kp, &b->particles.sppm_scratch, &photons, b->stream));
        if (mark_end(b))
            return -1;
        /* resolve has emptied the queue either way; on overflow it gathered nothing (the CPU's words) */
        if (photons > b->kp.photons.capacity)
            return rs_error_set(err, "photon queue overflow: %llu photons for a capacity of %u",
                                (unsigned long long)photons, b->kp.photons.capacity);
        return 0;
    }
    return rs_error_set(err, "internal error: particle_resolve with the %s integrator",
                        b->kp.integrator == RS_INTEGRATOR_WHITTED ? "whitted" : "path");
}

int rs_cuda_backend_sppm_update(RsBackend* base, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "sppm_update", err))
        return -1;
    b->ctx.depth = 0;
    if (!base->config.particles || b->kp.integrator != RS_INTEGRATOR_SPPM || !b->kp.sppm_pass)
        return rs_error_set(err, "internal error: sppm_update outside an SPPM frame");
    if (mark_begin(b, RS_STAGE_ACCUMULATE))
        return -1;
    RS_CUDA(&b->ctx, rs_launch_sppm_update(&b->kp, b->stream));
    return mark_end(b);
}
