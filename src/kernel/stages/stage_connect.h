/* stage_connect.h - wavefront stage 4: shadow rays of next-event estimation.
 *
 * Shared header (gcc C11, g++, nvcc); wrapped by the CPU backend and cuda/stages/kernel_connect.cu.
 * Any-hit traversal, stopping at the first hit; an unblocked ray adds its contribution to its
 * path's radiance. One shadow ray per path and bounce, so no two entries of the queue write the
 * same accumulator. `stack` as in stage_extend.h. Light tracing's shadow rays are camera
 * connections (stage_particle.h): an unblocked one goes to the splat film (film/splat.h) with
 * its pixel and order key.
 */
#ifndef RS_KERNEL_STAGE_CONNECT_H
#define RS_KERNEL_STAGE_CONNECT_H

#include "kernel/accel/accel.h"
#include "kernel/state/kernel_params.h"

/* What an unoccluded shadow ray delivers: its contribution to its path, or for light tracing
 * a splat on the pixel it reached. */
RS_FN void rs_stage_connect_unoccluded(const RsKernelParams* kp, uint32_t index)
{
    RsFloat4 c = kp->shadows.contribution[index];
    if (kp->integrator == RS_INTEGRATOR_LIGHT) { /* a camera connection: a pixel no path owns */
        RsUint4 t = kp->shadows.target[index];
        rs_splat_add(kp->splats, t.x, t.y, rs_xyz(c));
        return;
    }
    uint32_t slot = rs_float_as_uint(c.w);
    RsFloat4 sum = kp->path_radiance[slot];
    kp->path_radiance[slot] = rs_float4(sum.x + c.x, sum.y + c.y, sum.z + c.z, sum.w);
}

RS_FN void rs_stage_connect_with(const RsKernelParams* kp, uint32_t index, uint32_t accel, RsTraceStack stack)
{
    RsFloat4 o = kp->shadows.origin[index];
    RsFloat4 d = kp->shadows.direction[index];
    if (accel & RS_ACCEL_INSTANCES) {
        if (rs_accel_any_instanced(accel, &kp->scene.accel, rs_xyz(o), rs_xyz(d), d.w, rs_float_as_uint(o.w),
                                   kp->shadows.instance[index].x, stack))
            return;
    } else if (rs_accel_any(accel, &kp->scene.accel, rs_xyz(o), rs_xyz(d), d.w, rs_float_as_uint(o.w), stack)) {
        return;
    }
    rs_stage_connect_unoccluded(kp, index);
}

/* The shadow ray as a bvh8 walk of its own (flat scenes), for the persistent shadow kernel:
 * begin, step with any = 1 until done, and the ray is unoccluded when nothing was hit. */
RS_FN void rs_stage_connect_walk_begin(const RsKernelParams* kp, uint32_t index, RsBvh8Walk* w)
{
    RsFloat4 o = kp->shadows.origin[index];
    RsFloat4 d = kp->shadows.direction[index];
    rs_bvh8_walk_begin(&kp->scene.accel.bvh8, w, rs_xyz(o), rs_xyz(d), d.w, rs_float_as_uint(o.w));
}

RS_FN void rs_stage_connect(const RsKernelParams* kp, uint32_t index, RsTraceStack stack)
{
    rs_stage_connect_with(kp, index, rs_accel_run_kind(&kp->scene.accel), stack);
}

#endif /* RS_KERNEL_STAGE_CONNECT_H */
