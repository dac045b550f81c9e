/* particle_trace.c - passes of the particle integrators on the renderer's device (see
 * particle_trace.h). Host C11.
 */
#include "host/render/particle_trace.h"

#include <string.h>

#include "host/scene/settings.h"

int rs_particles_check_scene(const RsScene* scene, uint32_t integrator, RsError* err)
{
    RsSceneView view = rs_scene_view(scene);
    for (uint32_t i = 0; i < view.light_count; ++i)
        if (view.light_select.power_pmf && view.light_select.power_pmf[i] > 0.0f)
            return 0;
    return rs_error_set(err,
                        "--integrator %s: the scene has no light with power for particles to leave from "
                        "(an emitting surface, a point, spot or directional light, or an environment)",
                        rs_integrator_name(integrator));
}

int rs_particles_check_frame(const RsRenderer* r, const RsFrameDesc* f, RsError* err)
{
    const char* name = rs_integrator_name(f->integrator);
    if (r->device_count > 1)
        return rs_error_set(err,
                            "--integrator %s runs on one device (its splats land anywhere in the image, so the "
                            "devices cannot share it by spans): pass --devices with one device",
                            name);
    if (r->share_count > 1)
        return rs_error_set(err, "--integrator %s runs in one process: MPI ranks cannot share it yet", name);
    if (f->noise_threshold > 0.0f)
        return rs_error_set(err, "--integrator %s: adaptive sampling (--noise-threshold) judges pixels by their own "
                                 "samples, which particles do not have; leave it off",
                            name);
    if (f->max_depth == 0)
        return rs_error_set(err, "--integrator %s needs a depth of at least 1", name);
    if (f->integrator == RS_INTEGRATOR_LIGHT && rs_camera_orthographic(&f->camera) && f->camera.eye.w > 0.0f)
        return rs_error_set(err, "--integrator light: an orthographic camera with a lens (aperture) cannot be "
                                 "connected to; use a pinhole orthographic or a perspective camera");
    if (f->integrator == RS_INTEGRATOR_SPPM) {
        if (f->photons_per_pass == 0)
            return rs_error_set(err, "--photons: at least 1 photon per pass");
        if (!(f->sppm_radius > 0.0f) || !rs_is_finite(f->sppm_radius))
            return rs_error_set(err, "--sppm-radius: a positive, finite radius in scene units (got %g)",
                                (double)f->sppm_radius);
        if (!(f->sppm_alpha > 0.0f && f->sppm_alpha < 1.0f))
            return rs_error_set(err, "--sppm-alpha: between 0 and 1, exclusive (got %g)", (double)f->sppm_alpha);
    }
    return 0;
}

/* One chunk of particles [first, first + count) of a pass of per_pass, then its resolve. */
static int trace_chunk(RsDevice* d, uint32_t per_pass, uint64_t first, uint32_t count, RsError* err)
{
    RsPathRange range = {0, per_pass, first, count, RS_PHASE_PARTICLES, first};
    if (rs_wavefront_trace(&d->wf, &range, err))
        return -1;
    return d->backend->ops->particle_resolve(d->backend, err);
}

/* One whole pass: SPPM's camera wave(s) first, then the particles chunk by chunk, then SPPM's
 * per-pixel update. */
static int trace_pass(RsDevice* d, uint64_t pass, uint32_t pixels, RsError* err)
{
    const RsFrameDesc* f = &d->wf.frame;
    int sppm = f->integrator == RS_INTEGRATOR_SPPM;
    if (sppm) {
        RsPathRange camera = {0, pixels, pass * pixels, pixels, RS_PHASE_CAMERA, 0};
        if (rs_wavefront_trace(&d->wf, &camera, err))
            return -1;
    }
    uint32_t per_pass = sppm ? f->photons_per_pass : pixels;
    for (uint32_t start = 0; start < per_pass; start += RS_PARTICLE_CHUNK) {
        uint32_t count = per_pass - start < RS_PARTICLE_CHUNK ? per_pass - start : RS_PARTICLE_CHUNK;
        if (trace_chunk(d, per_pass, pass * per_pass + start, count, err))
            return -1;
    }
    return sppm ? d->backend->ops->sppm_update(d->backend, err) : 0;
}

int rs_particles_trace(RsRenderer* r, uint64_t global_paths, RsError* err)
{
    RsDevice* d = &r->devices[0];
    RsSpan* s = &r->spans[0];
    uint32_t pixels = (uint32_t)r->pixels;
    if (r->span_count != 1 || !d->backend->ops->particle_resolve)
        return rs_error_set(err, "internal error: particle passes need one device holding the whole image");
    pthread_mutex_lock(&r->lock);
    uint64_t target = global_paths / pixels * pixels;
    s->target = target > s->done ? target : s->done;
    r->stopped = 0;
    pthread_mutex_unlock(&r->lock);
    d->wf.stop = NULL; /* a pass is never cut (particle_trace.h) */
    int status = 0;
    for (uint64_t pass = s->done / pixels; pass < target / pixels; ++pass) {
        if (r->stop_pass && *r->stop_pass) {
            status = RS_WAVEFRONT_STOPPED;
            break;
        }
        if (trace_pass(d, pass, pixels, err))
            return -1; /* the film holds the passes before this one, and a part of it */
        pthread_mutex_lock(&r->lock);
        s->done = (pass + 1) * pixels;
        d->paths += pixels;
        d->stats = d->wf.stats;
        pthread_mutex_unlock(&r->lock);
        if (r->tick)
            r->tick(r->tick_ctx);
    }
    if (status == 0 && r->stop_wave && *r->stop_wave && s->done < s->target)
        status = RS_WAVEFRONT_STOPPED;
    return status;
}
