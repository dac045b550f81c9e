/* particles_cpu.c - the CPU backend's particle buffers and steps (see particles_cpu.h). Host C11. */
#include "host/backend/cpu/particles_cpu.h"

#include <stdlib.h>
#include <string.h>

#include "host/backend/cpu/splat_cpu.h"
#include "host/backend/cpu/sppm_cpu.h"
#include "host/util/array.h"

void rs_cpu_particles_free(RsCpuBackend* b)
{
    RsCpuParticles* p = &b->particles;
    free(p->splats);
    free(p->photons);
    for (int i = 0; i < 4; ++i)
        free(p->visible[i]);
    free(p->sppm_pass);
    rs_splat_cpu_scratch_free(&p->splat_scratch);
    rs_sppm_cpu_scratch_free(&p->sppm_scratch);
    memset(p, 0, sizeof *p);
    memset(&b->kp.splats, 0, sizeof b->kp.splats);
    memset(&b->kp.photons, 0, sizeof b->kp.photons);
    memset(&b->kp.visible, 0, sizeof b->kp.visible);
    b->kp.sppm_pass = NULL;
    b->kp.sppm_state = NULL;
}

/* hit.w of a pixel without a visible point */
static void clear_visible(RsFloat4* hit, uint32_t pixels)
{
    for (uint32_t i = 0; i < pixels; ++i)
        hit[i] = rs_float4(0.0f, 0.0f, 0.0f, rs_uint_as_float(RS_NO_HIT));
}

int rs_cpu_particles_set_frame(RsCpuBackend* b, const RsFrameDesc* f, RsError* err)
{
    if (!rs_integrator_particles(f->integrator)) {
        rs_cpu_particles_free(b);
        return 0;
    }
    if (!b->base.config.particles)
        return rs_error_set(err, "internal error: the %s integrator needs a backend made for particles "
                                 "(RsBackendConfig.particles)",
                            f->integrator == RS_INTEGRATOR_LIGHT ? "light" : "sppm");
    RsCpuParticles* p = &b->particles;
    uint32_t pixels = f->width * f->height;
    uint64_t capacity = (uint64_t)RS_PARTICLE_CHUNK * (f->max_depth + 1u);
    if (capacity > UINT32_MAX)
        return rs_error_set(err, "depth %u is too deep for particle chunks of %u", f->max_depth, RS_PARTICLE_CHUNK);
    int sppm = f->integrator == RS_INTEGRATOR_SPPM;
    if (p->capacity != capacity || p->pixels != pixels || p->sppm != sppm) {
        rs_cpu_particles_free(b);
        int ok = 1;
        if (sppm) {
            ok = (p->photons = rs_alloc_aligned(capacity, sizeof(RsPhoton), 64)) != NULL;
            for (int i = 0; i < 4 && ok; ++i)
                ok = (p->visible[i] = rs_alloc_aligned(pixels, sizeof(RsFloat4), 64)) != NULL;
            ok = ok && (p->sppm_pass = rs_alloc_aligned(pixels, sizeof(RsFloat4), 64)) != NULL;
        } else {
            ok = (p->splats = rs_alloc_aligned(capacity, sizeof(RsSplat), 64)) != NULL;
        }
        if (!ok) {
            rs_cpu_particles_free(b);
            return rs_error_set(err, "out of memory: particle queues for chunks of %u particles at depth %u",
                                RS_PARTICLE_CHUNK, f->max_depth);
        }
        p->capacity = (uint32_t)capacity;
        p->pixels = pixels;
        p->sppm = sppm;
    }
    p->count = 0;
    RsKernelParams* kp = &b->kp;
    if (sppm) {
        kp->photons = (RsPhotonQueue){p->photons, &p->count, p->capacity};
        kp->visible = (RsVisiblePoints){p->visible[0], p->visible[1], p->visible[2], p->visible[3]};
        kp->sppm_pass = p->sppm_pass;
        kp->sppm_state = kp->film + (size_t)rs_film_sppm_plane(&b->base.config) * pixels;
        clear_visible(p->visible[2], pixels);
        memset(p->sppm_pass, 0, (size_t)pixels * sizeof(RsFloat4));
    } else {
        kp->splats = (RsSplatQueue){p->splats, &p->count, p->capacity};
    }
    return 0;
}

int rs_cpu_particle_resolve(RsBackend* base, RsError* err)
{
    RsCpuBackend* b = rs_cpu_of(base);
    RsKernelParams* kp = &b->kp;
    switch (kp->integrator) {
    case RS_INTEGRATOR_LIGHT: {
        RsSplatResolveStats stats;
        return rs_splat_resolve_cpu(b->pool, kp->splats, kp->film, rs_pixel_count(kp), &b->particles.splat_scratch,
                                    &stats, err);
    }
    case RS_INTEGRATOR_SPPM:
        return rs_sppm_resolve_cpu(b->pool, kp, &b->particles.sppm_scratch, err);
    default:
        return rs_error_set(err, "internal error: particle_resolve with the %u integrator", kp->integrator);
    }
}

int rs_cpu_sppm_update(RsBackend* base, RsError* err)
{
    RsCpuBackend* b = rs_cpu_of(base);
    if (b->kp.integrator != RS_INTEGRATOR_SPPM || !b->kp.sppm_pass)
        return rs_error_set(err, "internal error: sppm_update without an SPPM frame");
    rs_sppm_update_cpu(b->pool, &b->kp);
    return 0;
}
