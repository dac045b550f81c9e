/* stage_extend.h - wavefront stage 2: closest hit of every live ray.
 *
 * Shared header (gcc C11, g++, nvcc); wrapped by the CPU backend and cuda/kernel_extend.cu.
 * Reads origin and direction, writes hit. It never ends a path: a ray that escapes is marked
 * RS_NO_HIT and shade decides what that means. origin.w names the primitive the ray leaves,
 * which is never reported (surface.h).
 */
#ifndef RS_KERNEL_STAGE_EXTEND_H
#define RS_KERNEL_STAGE_EXTEND_H

#include "bvh_traverse.h"
#include "kernel_params.h"

RS_FN void rs_stage_extend(const RsKernelParams* kp, uint32_t row)
{
    RsFloat4 o = kp->rays.origin[row];
    RsFloat4 d = kp->rays.direction[row];
    RsHit hit;
    rs_trace_closest(&kp->scene, rs_xyz(o), rs_xyz(d), d.w, rs_float_as_uint(o.w), &hit);
    kp->rays.hit[row] = rs_float4(hit.t, hit.u, hit.v, rs_uint_as_float(hit.prim));
}

#endif /* RS_KERNEL_STAGE_EXTEND_H */
