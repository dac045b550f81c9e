/* stage_shade.h - wavefront stage 3: what happens where a ray landed.
 *
 * Shared header (gcc C11, g++, nvcc); wrapped by the CPU backend and cuda/stages/kernel_shade.cu.
 * For one live ray: add emitted light (escaped rays see the environment), do next-event
 * estimation by writing one shadow ray, then either sample the BSDF and rewrite the ray as the
 * next segment or end the path. The return value says, exactly once per ray, whether the path
 * continues; how a dead ray is dropped is none of this file's business (docs/architecture.md, section 4).
 *
 * Depth (docs/architecture.md, section 4): path.z counts ray segments traced, the camera ray being 1. A path
 * has next-event estimation at each of its first max_depth hits, so max_depth = 1 is camera
 * rays with direct light only and max_depth = d allows d - 1 reflections; light arrives along
 * paths of up to d + 1 segments, by NEE or by a BSDF-sampled ray that hits an emitter. So the
 * last vertex (depth d) still samples its BSDF, and the path traces one more segment, depth
 * d + 1, for emission only: it adds what it hits, weighted by MIS against the last vertex's NEE,
 * and ends. pbrt-v4 and Mitsuba 3 do the same (they count emission one vertex past the last
 * NEE), which keeps the documented equivalence exact: raystream max_depth d = pbrt-v4
 * `maxdepth` d = Mitsuba 3 `max_depth` d + 1, whatever the materials, and gives the same
 * estimator, so the same noise per sample. (Until 2026-11 the last vertex gave NEE the full
 * weight and traced no BSDF ray: unbiased too, but a constant environment sampled uniformly
 * over the sphere then had no cosine-sampled partner, 2.4x the noise per sample at depth 1.)
 *
 * Hit points and the rays leaving them come from surface.h: p from the primitive (not
 * origin + t dir), origins pushed past p's rounding error, shadow rays that stop short of the
 * light, and origin.w naming the triangle a ray leaves so traversal skips it. A hit on an
 * instance (scenes with instances: the instance lane of RayState) is shaded on the world-space
 * copy of the object's primitive, its error bound widened by the transforms' rounding
 * (accel/instance.h), and the rays leaving it name the instance as well as the primitive.
 *
 * path integrator: NEE and BSDF sampling combined with the power heuristic (Veach 1997) at
 * every vertex, the last included (above). Russian roulette at the vertices of depth rr_depth
 * and beyond (the fifth hit on, as Mitsuba 3's rr_depth 5), after the BSDF sample: survival
 * probability min(0.95, max throughput component x eta scale), the survivor's throughput divided
 * by it. The eta scale (path.z's high half, ray_state.h) undoes the 1/eta^2 that refraction puts
 * on radiance, so a path inside glass is not killed for a drop that comes back when it leaves
 * (pbrt-v4's etaScale, Mitsuba 3's eta^2).
 * whitted integrator: NEE at every surface with a non-delta lobe; only delta lobes (mirrors,
 * smooth metal, glass and coats) continue the path, and every light reached by a specular
 * chain counts fully. Rough materials therefore show direct light only under whitted.
 * sppm integrator, camera pass: whitted's camera path (direct light by NEE and through specular
 * chains), which ends at its first vertex with a non-delta lobe: the pixel's visible point,
 * stored for the photon pass's gather (particle/photon.h). A delta lobe of that material (a
 * smooth plastic's coat) is not followed: SPPM sees such a surface without its coat's
 * reflection (one visible point per pixel and pass, as pbrt-v4's SPPM).
 * Particle waves (light tracing, SPPM's photon pass) are shaded by stage_particle.h.
 */
#ifndef RS_KERNEL_STAGE_SHADE_H
#define RS_KERNEL_STAGE_SHADE_H

#include "kernel/bsdf/bsdf.h"
#include "kernel/film/aov.h"
#include "kernel/light/light.h"
#include "kernel/sampling/sampler.h"
#include "kernel/stages/shade_surface.h"
#include "kernel/stages/stage_particle.h"
#include "kernel/state/kernel_params.h"

RS_FN void rs_add_path_radiance(const RsKernelParams* kp, uint32_t slot, RsVec3 l)
{
    if (rs_is_black(l))
        return;
    RsFloat4 sum = kp->path_radiance[slot];
    kp->path_radiance[slot] = rs_float4(sum.x + l.x, sum.y + l.y, sum.z + l.z, sum.w);
}

/* Next-event estimation from surface point sp. Returns 1 and fills *shadow when there is light
 * to test. `plain`: the scene has no textures (rs_scene_is_plain), so no lamp has one. */
RS_FN int rs_shade_next_event(const RsKernelParams* kp, const RsMaterial* mat, const RsSurfacePoint* sp, RsVec3 ns,
                              RsVec3 wo, RsVec3 throughput, const RsPathSampler* ps, uint32_t depth, int use_mis,
                              uint32_t slot, uint32_t instance, RsShadowRow* shadow, int plain)
{
    RsLightSample ls;
    float light_u, light_v;
    rs_sampler_2d(ps, depth, RS_DIM_LIGHT_U, &light_u, &light_v);
    if (!rs_light_sample(&kp->scene, rs_light_context(sp->p, sp->n), rs_sampler_1d(ps, depth, RS_DIM_LIGHT_PICK),
                         light_u, light_v, &ls))
        return 0;
    if (!plain)
        rs_light_emission_texture(&kp->scene, &ls);
    if (rs_is_black(ls.radiance)) /* a black texel of a textured lamp */
        return 0;
    float bsdf_pdf;
    RsVec3 f = rs_bsdf_eval(mat, sp->n, ns, wo, ls.dir, &bsdf_pdf);
    if (rs_is_black(f))
        return 0;
    float weight = use_mis && !ls.delta ? rs_power_heuristic(ls.pdf, bsdf_pdf) : 1.0f;
    RsVec3 contribution = rs_scale(rs_mul(rs_mul(throughput, f), ls.radiance), weight / ls.pdf);
    RsSpawnedRay ray;
    if (ls.at_infinity) {
        ray.o = rs_spawn_origin(sp, ls.dir);
        ray.dir = ls.dir;
        ray.tmax = RS_INFINITY;
    } else {
        ray = rs_spawn_ray_to(sp, &ls.point);
    }
    shadow->origin = rs_pack(ray.o, rs_uint_as_float(sp->skip));
    shadow->direction = rs_pack(ray.dir, ray.tmax);
    shadow->contribution = rs_pack(contribution, rs_uint_as_float(slot));
    shadow->instance = rs_uint4(instance, 0u, 0u, 0u); /* stored only for a scene with instances */
    shadow->target = rs_uint4(0u, 0u, 0u, 0u);         /* a path's own light: no splat */
    return 1;
}

/* SPPM's camera pass: the pixel's visible point is where this ray landed. */
RS_FN void rs_sppm_store_visible_point(const RsKernelParams* kp, uint32_t pixel, RsFloat4 origin4, RsFloat4 dir4,
                                       RsFloat4 hit4, uint32_t instance, RsVec3 throughput)
{
    kp->visible.origin[pixel] = rs_pack(rs_xyz(origin4), rs_uint_as_float(instance));
    kp->visible.direction[pixel] = rs_pack(rs_xyz(dir4), 0.0f);
    kp->visible.hit[pixel] = hit4;
    kp->visible.weight[pixel] = rs_pack(throughput, 0.0f);
}

/* A camera path's vertex (every integrator's camera rays; SPPM's camera pass). `plain`: the
 * scene has neither textures nor instances (rs_scene_is_plain, shade_surface.h); the GPU passes
 * it as a constant, one kernel per kind. */
RS_FN uint32_t rs_stage_shade_camera_with(const RsKernelParams* kp, uint32_t row, RsShadowRow* shadow, int plain)
{
    const RsSceneView* scene = &kp->scene;
    RsFloat4 origin4 = kp->rays.origin[row];
    RsFloat4 dir4 = kp->rays.direction[row];
    RsFloat4 throughput4 = kp->rays.throughput[row];
    RsFloat4 hit4 = kp->rays.hit[row];
    RsUint4 path = kp->rays.path[row];
    uint32_t slot = path.x, depth = path.z & RS_PATH_DEPTH_MASK;
    RsVec3 dir = rs_xyz(dir4), throughput = rs_xyz(throughput4);
    float prev_pdf = throughput4.w; /* 0: camera ray or delta lobe, so no MIS for what it hits */
    int is_path = kp->integrator == RS_INTEGRATOR_PATH;

    uint32_t prim_index = rs_float_as_uint(hit4.w);
    if (prim_index == RS_NO_HIT) {
        float weight = 1.0f;
        if (is_path && prev_pdf > 0.0f)
            weight = rs_power_heuristic(prev_pdf, rs_light_pdf_env(scene, rs_light_context_of_ray(origin4), dir));
        rs_add_path_radiance(kp, slot, rs_scale(rs_mul(throughput, rs_env_radiance(scene, dir)), weight));
        return RS_SHADE_TERMINATE;
    }

    /* an instance's primitive is shaded as its world-space copy (accel/instance.h) */
    int instanced = !plain && scene->accel.inst.instance_count != 0;
    uint32_t hit_instance = instanced ? kp->rays.instance[row].y : RS_NO_HIT;
    RsShadeSurface surface;
    RsShadeScratch scratch;
    const RsPrim* prim;
    const RsMaterial* mat =
        rs_shade_surface_with(kp, origin4, dir4, hit4, hit_instance, &surface, &scratch, &prim, plain);
    const RsSurfacePoint sp = surface.sp;
    RsVec3 ns = surface.ns, wo = surface.wo;
    rs_aov_record(kp, slot, depth, sp.p, ns, wo, mat, throughput);

    RsVec3 emitted = rs_emitted(mat, sp.n, wo);
    if (!rs_is_black(emitted)) {
        float weight = 1.0f;
        if (is_path && prev_pdf > 0.0f)
            weight = rs_power_heuristic(prev_pdf,
                                        rs_light_pdf_prim(scene, rs_light_context_of_ray(origin4), prim, sp.p, sp.n));
        rs_add_path_radiance(kp, slot, rs_scale(rs_mul(throughput, emitted), weight));
    }
    if (depth > kp->max_depth) /* the emission-only segment after a specular last vertex */
        return RS_SHADE_TERMINATE;

    RsPathSampler ps = rs_sampler_path(kp->sampler, kp->seed, path.y, path.w);
    uint32_t result = RS_SHADE_TERMINATE;
    if (rs_bsdf_has_density(mat) &&
        rs_shade_next_event(kp, mat, &sp, ns, wo, throughput, &ps, depth, is_path, slot, hit_instance, shadow, plain))
        result |= RS_SHADE_SHADOW;

    if (kp->integrator == RS_INTEGRATOR_SPPM && rs_bsdf_has_density(mat)) {
        rs_sppm_store_visible_point(kp, path.y, origin4, dir4, hit4, hit_instance, throughput);
        return result;
    }

    /* Whitted ends where next-event estimation was possible: only a delta (specular) lobe goes
     * on. A material with both kinds (smooth plastic) picks a lobe first. */
    int delta_only = !is_path;
    if (delta_only && !rs_bsdf_has_delta(mat))
        return result;

    RsBsdfSample bs;
    float bsdf_u, bsdf_v;
    rs_sampler_2d(&ps, depth, RS_DIM_BSDF_U, &bsdf_u, &bsdf_v);
    if (!rs_bsdf_sample(mat, sp.n, ns, wo, bsdf_u, bsdf_v, rs_sampler_1d(&ps, depth, RS_DIM_BSDF_LOBE), &bs))
        return result;
    if (delta_only && bs.pdf > 0.0f)
        return result;
    throughput = rs_mul(throughput, bs.weight);
    float eta_scale = rs_path_eta_scale(path.z) * bs.eta2;
    if (is_path && depth >= kp->rr_depth) {
        float survive = rs_minf(0.95f, rs_max_component(throughput) * eta_scale);
        if (!(rs_sampler_1d(&ps, depth, RS_DIM_ROULETTE) < survive))
            return result;
        throughput = rs_scale(throughput, 1.0f / survive);
    }

    kp->rays.origin[row] = rs_pack(rs_spawn_origin(&sp, bs.wi), rs_uint_as_float(sp.skip));
    kp->rays.direction[row] = rs_pack(bs.wi, RS_INFINITY);
    kp->rays.throughput[row] = rs_pack(throughput, bs.pdf);
    kp->rays.path[row] = rs_uint4(slot, path.y, rs_path_z(depth + 1, eta_scale), path.w);
    if (instanced)
        kp->rays.instance[row] = rs_uint4(hit_instance, RS_NO_HIT, 0u, 0u);
    return result | RS_SHADE_CONTINUE;
}

/* rs_stage_shade_camera_with for any scene: the plain code where the scene is plain. */
RS_FN uint32_t rs_stage_shade_camera(const RsKernelParams* kp, uint32_t row, RsShadowRow* shadow)
{
    return rs_stage_shade_camera_with(kp, row, shadow, rs_scene_is_plain(&kp->scene));
}

/* Shade for the wave's phase. The CUDA wrapper calls the two functions from separate kernels,
 * so that a camera wave's kernel does not hold the particle code's registers. */
RS_FN uint32_t rs_stage_shade(const RsKernelParams* kp, uint32_t row, RsShadowRow* shadow)
{
    if (kp->particles.phase == RS_PHASE_PARTICLES)
        return rs_stage_shade_particle(kp, row, shadow);
    return rs_stage_shade_camera(kp, row, shadow);
}

#endif /* RS_KERNEL_STAGE_SHADE_H */
