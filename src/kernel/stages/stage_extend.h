/* stage_extend.h - wavefront stage 2: closest hit of every live ray.
 *
 * Shared header (gcc C11, g++, nvcc); wrapped by the CPU backend and cuda/stages/kernel_extend.cu.
 * Reads origin and direction, writes hit. It never ends a path: a ray that escapes is marked
 * RS_NO_HIT and shade decides what that means. origin.w names the primitive the ray leaves,
 * which is never reported (surface.h). Which acceleration structure answers is accel.h's
 * business; `stack` is the traversal stack the caller provides (kernel/accel/bvh8.h).
 */
#ifndef RS_KERNEL_STAGE_EXTEND_H
#define RS_KERNEL_STAGE_EXTEND_H

#include "kernel/accel/accel.h"
#include "kernel/state/kernel_params.h"

/* Stores the hit found for row's ray: rs_stage_extend_with's, and that of kernels with walks of
 * their own (bvh8's warp walks, the camera tree's warp packets). */
RS_FN void rs_stage_extend_store(const RsKernelParams* kp, uint32_t row, const RsHit* hit)
{
    kp->rays.hit[row] = rs_float4(hit->t, hit->u, hit->v, rs_uint_as_float(hit->prim));
}

/* `accel`: the scene's RsAccelKind (with RS_ACCEL_INSTANCES for a scene with instances), a
 * compile-time constant in kernels built per structure. With instances, the ray's instance lane
 * says which instance it leaves, and gets the one it hits. */
RS_FN void rs_stage_extend_with(const RsKernelParams* kp, uint32_t row, uint32_t accel, RsTraceStack stack)
{
    RsFloat4 o = kp->rays.origin[row];
    RsFloat4 d = kp->rays.direction[row];
    RsHit hit;
    if (accel & RS_ACCEL_INSTANCES) {
        RsUint4 inst = kp->rays.instance[row];
        uint32_t hit_instance;
        rs_accel_closest_instanced(accel, &kp->scene.accel, rs_xyz(o), rs_xyz(d), d.w, rs_float_as_uint(o.w), inst.x,
                                   &hit, &hit_instance, stack);
        kp->rays.instance[row] = rs_uint4(inst.x, hit_instance, 0u, 0u);
    } else {
        rs_accel_closest(accel, &kp->scene.accel, rs_xyz(o), rs_xyz(d), d.w, rs_float_as_uint(o.w), &hit, stack);
    }
    rs_stage_extend_store(kp, row, &hit);
}

/* For a kernel that interleaves many bvh8 traversals (persistent warps with dynamic fetch,
 * cuda/stages/kernel_extend_fetch.cu): row's ray as a walk to step, and the walk's result stored.
 * Flat bvh8 scenes only: a scene with instances runs the plain kernel. */
RS_FN void rs_stage_extend_walk_begin(const RsKernelParams* kp, uint32_t row, RsBvh8Walk* w)
{
    RsFloat4 o = kp->rays.origin[row];
    RsFloat4 d = kp->rays.direction[row];
    rs_bvh8_walk_begin(&kp->scene.accel.bvh8, w, rs_xyz(o), rs_xyz(d), d.w, rs_float_as_uint(o.w));
}

RS_FN void rs_stage_extend_walk_end(const RsKernelParams* kp, uint32_t row, const RsBvh8Walk* w)
{
    rs_stage_extend_store(kp, row, &w->hit);
}

RS_FN void rs_stage_extend(const RsKernelParams* kp, uint32_t row, RsTraceStack stack)
{
    rs_stage_extend_with(kp, row, rs_accel_run_kind(&kp->scene.accel), stack);
}

#endif /* RS_KERNEL_STAGE_EXTEND_H */
