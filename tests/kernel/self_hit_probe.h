/* self_hit_probe.h - counts rays that hit the surface they leave or the light they aim at.
 *
 * Shared test header (gcc C11 and nvcc): tests/render/test_self_hits.c runs it on the CPU,
 * tests/gpu/test_gpu_self_hits.cu in a kernel. It follows one path per call the way shade does,
 * with the same functions (rs_surface_at_hit, rs_light_sample, rs_spawn_ray_to, rs_spawn_origin,
 * rs_bsdf_sample), but traces every shadow ray for its closest hit instead of any hit, so it
 * can tell what blocked it:
 *   PROBE_SHADOW_OWN    the primitive the shadow ray leaves;
 *   PROBE_SHADOW_LIGHT  the light primitive it aims at (the ray must stop short of it);
 *   PROBE_LEAVE_OWN     a continuation ray hits the primitive it leaves (a triangle never can;
 *                       a sphere only when the ray goes inwards, and then not right away).
 * Each must stay 0. The *_NOSKIP counts trace the same rays without the triangle self-skip of
 * surface.h, so they measure the error-bound offset alone. In a scene with instances a surface is
 * (instance, primitive), shaded on its world-space copy with the widened error bound, as shade
 * does (kernel/accel/instance.h): the same primitive in another instance is another surface.
 */
#ifndef RS_TESTS_SELF_HIT_PROBE_H
#define RS_TESTS_SELF_HIT_PROBE_H

#include "kernel/accel/accel.h"
#include "kernel/bsdf/bsdf.h"
#include "kernel/light/light.h"
#include "kernel/sampling/sampler.h"
#include "kernel/state/kernel_params.h"

enum {
    PROBE_SHADOW,
    PROBE_SHADOW_OWN,
    PROBE_SHADOW_OWN_NOSKIP,
    PROBE_SHADOW_LIGHT,
    PROBE_LEAVE,
    PROBE_LEAVE_OWN,
    PROBE_LEAVE_OWN_NOSKIP,
    PROBE_COUNT
};

#define PROBE_DEPTH 3

/* Is a hit (h, in instance h_inst) of the surface s of instance s_inst at distance t (along
 * direction w) a self-intersection? */
RS_FN int rs_probe_is_self_hit(const RsSceneView* scene, const RsSurfacePoint* s, uint32_t s_inst, RsVec3 w,
                               const RsHit* h, uint32_t h_inst)
{
    if (h->prim != s->prim || h_inst != s_inst)
        return 0;
    const RsPrim* p = &scene->prims[s->prim];
    if (rs_prim_type(p) != RS_PRIM_SPHERE)
        return 1;
    return rs_dot(w, s->n) >= 0.0f || h->t < 1e-3f * p->b.x;
}

RS_FN int rs_probe_closest(const RsSceneView* scene, RsVec3 o, RsVec3 d, float tmax, uint32_t skip,
                           uint32_t skip_inst, RsHit* hit, uint32_t* hit_inst)
{
    uint64_t stack[RS_BVH8_STACK];
    RsTraceStack s = rs_trace_stack_local(stack);
    *hit_inst = RS_NO_HIT;
    uint32_t kind = rs_accel_run_kind(&scene->accel);
    if (kind & RS_ACCEL_INSTANCES)
        return rs_accel_closest_instanced(kind, &scene->accel, o, d, tmax, skip, skip_inst, hit, hit_inst, s);
    return rs_accel_closest(scene->accel.kind, &scene->accel, o, d, tmax, skip, hit, s);
}

/* Follows path (pixel, sample) for up to PROBE_DEPTH hits and adds its events to counts[]. */
RS_FN void rs_probe_path(const RsKernelParams* kp, uint32_t pixel, uint32_t sample, uint32_t counts[PROBE_COUNT])
{
    const RsSceneView* scene = &kp->scene;
    RsPathSampler ps = rs_sampler_path(kp->sampler, kp->seed, pixel, sample);
    RsVec3 o, d;
    rs_camera_ray(&kp->camera, (float)(pixel % kp->width) + rs_sampler_1d(&ps, 0, RS_DIM_PIXEL_X),
                  (float)(pixel / kp->width) + rs_sampler_1d(&ps, 0, RS_DIM_PIXEL_Y), kp->width, kp->height,
                  rs_sampler_1d(&ps, 0, RS_DIM_LENS_U), rs_sampler_1d(&ps, 0, RS_DIM_LENS_V), &o, &d);
    uint32_t skip = RS_NO_HIT, skip_inst = RS_NO_HIT, inst, h_inst;
    for (uint32_t depth = 1; depth <= PROBE_DEPTH; ++depth) {
        RsHit hit;
        if (!rs_probe_closest(scene, o, d, RS_INFINITY, skip, skip_inst, &hit, &inst))
            return;
        const RsPrim* prim = &scene->prims[hit.prim];
        const RsMaterial* mat = &scene->materials[rs_prim_material(prim)];
        RsPrim placed;
        if (inst != RS_NO_HIT) {
            placed = rs_instance_prim(&scene->accel.inst.instances[inst], prim);
            prim = &placed;
        }
        RsSurfacePoint sp = rs_surface_at_hit(prim, hit.prim, o, d, rs_float4(hit.t, hit.u, hit.v, 0.0f));
        if (inst != RS_NO_HIT)
            sp.error = rs_add(sp.error, rs_instance_error(&scene->accel.inst.instances[inst], &scene->prims[hit.prim], sp.p));
        RsVec3 wo = rs_neg(d);
        RsLightSample ls;
        float pdf;
        if (rs_bsdf_has_density(mat) &&
            rs_light_sample(scene, rs_light_context(sp.p, sp.n), rs_sampler_1d(&ps, depth, RS_DIM_LIGHT_PICK),
                            rs_sampler_1d(&ps, depth, RS_DIM_LIGHT_U), rs_sampler_1d(&ps, depth, RS_DIM_LIGHT_V), &ls) &&
            !rs_is_black(rs_bsdf_eval(mat, sp.n, sp.n, wo, ls.dir, &pdf))) {
            RsSpawnedRay ray;
            if (ls.at_infinity) {
                ray.o = rs_spawn_origin(&sp, ls.dir);
                ray.dir = ls.dir;
                ray.tmax = RS_INFINITY;
            } else {
                ray = rs_spawn_ray_to(&sp, &ls.point);
            }
            counts[PROBE_SHADOW]++;
            RsHit h;
            if (rs_probe_closest(scene, ray.o, ray.dir, ray.tmax, sp.skip, inst, &h, &h_inst)) {
                counts[PROBE_SHADOW_OWN] += rs_probe_is_self_hit(scene, &sp, inst, ray.dir, &h, h_inst);
                counts[PROBE_SHADOW_LIGHT] += !ls.at_infinity && h.prim == ls.point.prim && h_inst == ls.instance;
            }
            if (rs_probe_closest(scene, ray.o, ray.dir, ray.tmax, RS_NO_HIT, RS_NO_HIT, &h, &h_inst))
                counts[PROBE_SHADOW_OWN_NOSKIP] += rs_probe_is_self_hit(scene, &sp, inst, ray.dir, &h, h_inst);
        }
        RsBsdfSample bs;
        if (!rs_bsdf_sample(mat, sp.n, sp.n, wo, rs_sampler_1d(&ps, depth, RS_DIM_BSDF_U),
                            rs_sampler_1d(&ps, depth, RS_DIM_BSDF_V), rs_sampler_1d(&ps, depth, RS_DIM_BSDF_LOBE), &bs))
            return;
        o = rs_spawn_origin(&sp, bs.wi);
        d = bs.wi;
        skip = sp.skip;
        skip_inst = inst;
        counts[PROBE_LEAVE]++;
        RsHit h;
        if (rs_probe_closest(scene, o, d, RS_INFINITY, RS_NO_HIT, RS_NO_HIT, &h, &h_inst))
            counts[PROBE_LEAVE_OWN_NOSKIP] += rs_probe_is_self_hit(scene, &sp, inst, d, &h, h_inst);
        if (rs_probe_closest(scene, o, d, RS_INFINITY, skip, skip_inst, &h, &h_inst))
            counts[PROBE_LEAVE_OWN] += rs_probe_is_self_hit(scene, &sp, inst, d, &h, h_inst);
    }
}

#endif /* RS_TESTS_SELF_HIT_PROBE_H */
