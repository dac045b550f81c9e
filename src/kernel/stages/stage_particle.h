/* stage_particle.h - the wavefront stages of a particle: light tracing (RS_INTEGRATOR_LIGHT,
 * Mitsuba 3's ptracer) and SPPM's photon pass (RS_INTEGRATOR_SPPM, phase RS_PHASE_PARTICLES).
 *
 * Shared header (gcc C11, g++, nvcc); stage_generate.h and stage_shade.h dispatch here, so the
 * backends' wrappers, the bounce loop and every dead-ray strategy are the path tracer's.
 * docs/architecture.md, section 10.4, has the design; in short:
 *
 *   numbering  particle l of a span of per_pass particles: k = l % per_pass, pass = l / per_pass.
 *              Its random numbers are the sampler's stream k, sample index pass (a pixel's
 *              numbers, for light tracing, where k runs over the pixels).
 *   vertex 0   generate leaves the ray empty (tmax 0); the first shade draws the particle from
 *              a light (light_emit.h) and, light tracing, connects that point to the camera, so
 *              the lights themselves are drawn. (A separate first bounce, so that shade makes
 *              at most one shadow ray per bounce, as the path tracer's does.)
 *   vertex v   at each surface hit with a non-delta lobe: light tracing connects to the camera
 *              (camera_importance.h) with a shadow ray whose target is (pixel, order key), and
 *              connect adds it to the splat queue if nothing blocks it; SPPM deposits a photon
 *              from the second hit on (the first is direct light, which the camera pass's next-
 *              event estimation counts). Then, below max_depth, the BSDF continues the particle.
 *
 * Depth: vertices 1 .. max_depth scatter or connect, so a light path has at most max_depth + 1
 * segments to the camera, as the path tracer's (raystream d = Mitsuba's ptracer max_depth d + 1).
 *
 * Particles carry flux, not radiance, so scattering uses the adjoint BSDF: a refraction keeps
 * the weight that radiance would lose to 1/eta^2 (the sample's eta2), and shading normals get
 * Veach's correction |wi.ns| |wo.ng| / (|wi.ng| |wo.ns|) (thesis, section 5.3). Russian roulette
 * from rr_depth on compares the weight with the one the particle left the light with
 * (throughput.w), the path tracer's rule in relative terms.
 */
#ifndef RS_KERNEL_STAGE_PARTICLE_H
#define RS_KERNEL_STAGE_PARTICLE_H

#include "kernel/bsdf/bsdf.h"
#include "kernel/film/aov.h"
#include "kernel/geometry/camera_importance.h"
#include "kernel/particle/light_emit.h"
#include "kernel/sampling/sampler.h"
#include "kernel/stages/shade_surface.h"
#include "kernel/state/kernel_params.h"

/* A particle's empty first ray (see the top of the file). */
RS_FN int rs_stage_generate_particle(const RsKernelParams* kp, uint32_t slot)
{
    uint64_t l = kp->wave_first_path + slot;
    uint32_t k = (uint32_t)(l % kp->span_pixels), pass = (uint32_t)(l / kp->span_pixels);
    kp->rays.origin[slot] = rs_float4(0.0f, 0.0f, 0.0f, rs_uint_as_float(RS_NO_HIT));
    kp->rays.direction[slot] = rs_float4(0.0f, 0.0f, 1.0f, 0.0f); /* tmax 0: extend finds nothing */
    kp->rays.throughput[slot] = rs_float4(0.0f, 0.0f, 0.0f, 0.0f);
    kp->rays.path[slot] = rs_uint4(slot, k, 0u, pass);
    if (kp->scene.accel.inst.instance_count)
        kp->rays.instance[slot] = rs_uint4(RS_NO_HIT, RS_NO_HIT, 0u, 0u);
    /* accumulate adds this w: one particle of pixel k's share taken (light tracing) */
    kp->path_radiance[slot] = rs_float4(0.0f, 0.0f, 0.0f, 1.0f);
    rs_aov_clear(kp, slot);
    return 1;
}

/* The camera connection of a point: where it lands, through the lens sample of `vertex`. */
RS_FN int rs_particle_camera(const RsKernelParams* kp, const RsPathSampler* ps, uint32_t vertex, RsVec3 p,
                             RsCameraConnection* c)
{
    float lens_u, lens_v;
    rs_sampler_2d(ps, vertex, RS_DIM_LENS_U, &lens_u, &lens_v);
    return rs_camera_connect(&kp->camera, kp->width, kp->height, p, lens_u, lens_v, c);
}

/* Writes the shadow ray of a camera connection from `from`, adding `contribution` to pixel
 * c->pixel with the order key of (l, vertex) if nothing blocks it. */
RS_FN void rs_particle_shadow(const RsKernelParams* kp, const RsCameraConnection* c, const RsSurfacePoint* from,
                              uint32_t instance, uint64_t l, uint32_t vertex, RsVec3 contribution, RsShadowRow* shadow)
{
    RsSurfacePoint lens;
    lens.p = c->q;
    lens.n = c->to_camera;
    lens.error = rs_vec3_splat(0.0f);
    lens.prim = lens.skip = RS_NO_HIT;
    RsSpawnedRay ray = rs_spawn_ray_to(from, &lens);
    shadow->origin = rs_pack(ray.o, rs_uint_as_float(from->skip));
    shadow->direction = rs_pack(ray.dir, ray.tmax);
    shadow->contribution = rs_pack(contribution, 0.0f);
    shadow->instance = rs_uint4(instance, 0u, 0u, 0u);
    shadow->target = rs_uint4(c->pixel, rs_particle_order(kp, l, vertex), 0u, 0u);
}

/* Veach's correction for shading normals on a particle's scattering (see the top); 1 without. */
RS_FN float rs_particle_shading_factor(RsVec3 ng, RsVec3 ns, RsVec3 wi, RsVec3 wo)
{
    float num = fabsf(rs_dot(wi, ns)) * fabsf(rs_dot(wo, ng));
    float den = fabsf(rs_dot(wi, ng)) * fabsf(rs_dot(wo, ns));
    return den > 0.0f ? num / den : 0.0f;
}

/* Vertex 0: the particle leaves a light. */
RS_FN uint32_t rs_particle_emit(const RsKernelParams* kp, uint32_t row, RsUint4 path, RsShadowRow* shadow)
{
    uint64_t l = kp->wave_first_path + path.x;
    RsPathSampler ps = rs_sampler_path(kp->sampler, kp->seed, path.y, path.w);
    float u1, u2, u3, u4;
    rs_sampler_2d(&ps, 0, RS_DIM_LIGHT_U, &u1, &u2);
    rs_sampler_2d(&ps, 0, RS_DIM_BSDF_U, &u3, &u4);
    RsEmission e;
    if (!rs_light_emit(&kp->scene, rs_sampler_1d(&ps, 0, RS_DIM_LIGHT_PICK), u1, u2, u3, u4,
                       rs_sampler_1d(&ps, 0, RS_DIM_BSDF_LOBE), &e))
        return RS_SHADE_TERMINATE;
    uint32_t result = RS_SHADE_CONTINUE;
    RsCameraConnection c;
    if (kp->integrator == RS_INTEGRATOR_LIGHT && e.has_vertex && rs_particle_camera(kp, &ps, 0, e.point.p, &c)) {
        RsVec3 value = rs_scale(rs_emission_towards(&kp->scene, &e, c.to_camera), e.vertex_weight * c.importance);
        if (!rs_is_black(value) && rs_is_finite3(value)) {
            rs_particle_shadow(kp, &c, &e.point, e.instance, l, 0, value, shadow);
            result |= RS_SHADE_SHADOW;
        }
    }
    kp->rays.origin[row] = rs_pack(e.origin, rs_uint_as_float(e.skip));
    kp->rays.direction[row] = rs_pack(e.dir, RS_INFINITY);
    kp->rays.throughput[row] = rs_pack(e.weight, rs_max_component(e.weight));
    kp->rays.path[row] = rs_uint4(path.x, path.y, 1u, path.w);
    if (kp->scene.accel.inst.instance_count)
        kp->rays.instance[row] = rs_uint4(e.instance, RS_NO_HIT, 0u, 0u);
    return result;
}

RS_FN uint32_t rs_stage_shade_particle(const RsKernelParams* kp, uint32_t row, RsShadowRow* shadow)
{
    RsUint4 path = kp->rays.path[row];
    uint32_t vertex = path.z & RS_PATH_DEPTH_MASK;
    if (vertex == 0)
        return rs_particle_emit(kp, row, path, shadow);
    RsFloat4 hit4 = kp->rays.hit[row];
    if (rs_float_as_uint(hit4.w) == RS_NO_HIT)
        return RS_SHADE_TERMINATE; /* left the scene */
    uint64_t l = kp->wave_first_path + path.x;
    RsFloat4 throughput4 = kp->rays.throughput[row];
    RsVec3 beta = rs_xyz(throughput4);
    int instanced = kp->scene.accel.inst.instance_count != 0;
    uint32_t hit_instance = instanced ? kp->rays.instance[row].y : RS_NO_HIT;
    RsShadeSurface surface;
    RsShadeScratch scratch;
    const RsPrim* prim;
    const RsMaterial* mat = rs_shade_surface(kp, kp->rays.origin[row], kp->rays.direction[row], hit4, hit_instance,
                                             &surface, &scratch, &prim);
    RsVec3 ng = surface.sp.n, ns = surface.ns, wi = surface.wo; /* wi: towards where the particle came from */
    RsPathSampler ps = rs_sampler_path(kp->sampler, kp->seed, path.y, path.w);
    uint32_t result = RS_SHADE_TERMINATE;

    if (rs_bsdf_has_density(mat)) {
        if (kp->integrator == RS_INTEGRATOR_LIGHT) {
            RsCameraConnection c;
            if (rs_particle_camera(kp, &ps, vertex, surface.sp.p, &c)) {
                float pdf;
                /* f(to camera, wi) |wi.ns|: the radiance BSDF with the light arriving along wi */
                RsVec3 f = rs_bsdf_eval(mat, ng, ns, c.to_camera, wi, &pdf);
                float cos_wi = fabsf(rs_dot(wi, ng));
                if (!rs_is_black(f) && cos_wi > 0.0f) {
                    RsVec3 value = rs_scale(rs_mul(beta, f), fabsf(rs_dot(c.to_camera, ng)) / cos_wi * c.importance);
                    if (rs_is_finite3(value) && !rs_is_black(value)) {
                        rs_particle_shadow(kp, &c, &surface.sp, hit_instance, l, vertex, value, shadow);
                        result |= RS_SHADE_SHADOW;
                    }
                }
            }
        } else if (vertex >= 2) {
            rs_photon_add(kp->photons, surface.sp.p, wi, beta, rs_particle_order(kp, l, vertex));
        }
    }
    if (vertex >= kp->max_depth)
        return result;

    RsBsdfSample bs;
    float bsdf_u, bsdf_v;
    rs_sampler_2d(&ps, vertex, RS_DIM_BSDF_U, &bsdf_u, &bsdf_v);
    if (!rs_bsdf_sample(mat, ng, ns, wi, bsdf_u, bsdf_v, rs_sampler_1d(&ps, vertex, RS_DIM_BSDF_LOBE), &bs))
        return result;
    beta = rs_scale(rs_mul(beta, bs.weight), bs.eta2 * rs_particle_shading_factor(ng, ns, wi, bs.wi));
    if (vertex >= kp->rr_depth) {
        float survive = rs_minf(0.95f, rs_max_component(beta) / throughput4.w);
        if (!(rs_sampler_1d(&ps, vertex, RS_DIM_ROULETTE) < survive))
            return result;
        beta = rs_scale(beta, 1.0f / survive);
    }
    if (rs_is_black(beta) || !rs_is_finite3(beta))
        return result;
    kp->rays.origin[row] = rs_pack(rs_spawn_origin(&surface.sp, bs.wi), rs_uint_as_float(surface.sp.skip));
    kp->rays.direction[row] = rs_pack(bs.wi, RS_INFINITY);
    kp->rays.throughput[row] = rs_pack(beta, throughput4.w);
    kp->rays.path[row] = rs_uint4(path.x, path.y, vertex + 1u, path.w);
    if (instanced)
        kp->rays.instance[row] = rs_uint4(hit_instance, RS_NO_HIT, 0u, 0u);
    return result | RS_SHADE_CONTINUE;
}

#endif /* RS_KERNEL_STAGE_PARTICLE_H */
