/* two_level.h - traversal of a scene with instances: the world's own structure, then a binary
 * TLAS over the instances whose leaves each descend into one object's BLAS in object space.
 *
 * Shared header (gcc C11, g++, nvcc); accel.h calls it only for scenes that have instances
 * (RS_ACCEL_INSTANCES), so a scene without any runs exactly the flat code. The TLAS uses the
 * bvh2 node layout with one instance per leaf child (count 1, ref = the instance), walked as
 * bvh2.h walks its nodes with its own small stack; the BLAS is of the scene's kind (bvh2 or
 * bvh8, the latter with the caller's bvh8 stack, which the TLAS never touches, so the two depths
 * never add up). A hit is (instance, primitive): `skip` names the primitive a ray leaves and
 * `skip_instance` its instance (RS_NO_HIT for the world), so a ray leaving a triangle of one
 * instance can still hit the same triangle of another. t is comparable across instances because
 * the object-space direction is the transformed, unnormalised world direction (instance.h); only
 * an object with spheres under a scaling instance (RS_INSTANCE_RESCALE) is walked with a unit
 * direction, its t converted on the way in and out.
 */
#ifndef RS_KERNEL_ACCEL_TWO_LEVEL_H
#define RS_KERNEL_ACCEL_TWO_LEVEL_H

#include "kernel/accel/instance.h"

/* `wide`: the BLAS are bvh8 (else bvh2). Traverses instance `index`'s BLAS for the part of the ray nearer than hit->t; on a nearer hit
 * records it (and the instance) and returns 1. */
RS_FN int rs_instance_trace(int wide, const RsInstanceView* iv, const RsCutouts* cutouts, uint32_t index,
                            RsVec3 o, RsVec3 d, uint32_t skip, uint32_t skip_instance, int any, RsHit* hit,
                            uint32_t* hit_instance, RsTraceStack stack)
{
    const RsInstance* in = &iv->instances[index];
    RsObjectBlas ob = iv->objects[rs_instance_object(in)];
    if (ob.node_count == 0)
        return 0;
    RsVec3 oo, od;
    rs_instance_ray(in, o, d, &oo, &od);
    uint32_t s = skip_instance == index ? skip : RS_NO_HIT;
    float tmax = hit->t, scale = 1.0f;
    if (rs_instance_flags(in) & RS_INSTANCE_RESCALE) { /* spheres want a unit direction (instance.h) */
        scale = rs_uint_as_float(in->meta.w);
        od = rs_scale(od, scale);
        tmax = tmax / scale;
    }
    RsHit h;
    int found;
    if (wide) {
        RsBvh8View v = {iv->blas_bvh8 + ob.node_base, iv->blas_prims + ob.prim_base, cutouts, ob.node_count,
                        ob.prim_count};
        found = rs_bvh8_traverse(&v, oo, od, tmax, s, any, &h, stack);
    } else {
        RsBvh2View v = {iv->blas_bvh2 + ob.node_base, iv->blas_prims + ob.prim_base, cutouts, ob.node_count,
                        ob.prim_count};
        found = rs_bvh2_traverse(&v, oo, od, tmax, s, any, &h);
    }
    if (!found)
        return 0;
    if (scale != 1.0f) { /* back to the world's t; a hit the rounding puts at tmax or beyond is dropped */
        h.t = h.t * scale;
        if (!(h.t < hit->t))
            return 0;
    }
    *hit = h;
    *hit_instance = index;
    return 1;
}

/* A TLAS reference to visit: an interior node's index, or RS_TLAS_LEAF | an instance. */
#define RS_TLAS_LEAF 0x80000000u

/* The TLAS walk: hit and *hit_instance hold what the world's structure found (or a miss with
 * hit->t = tmax); instances nearer than that replace it. Returns 1 when anything was hit
 * (any-hit: as soon as something is). A leaf child is visited like a node, from the top of the
 * loop, so that while its BLAS is walked only the world ray, the hit and the TLAS stack are live
 * (the registers of a GPU thread are the two levels' sum otherwise). */
RS_FN int rs_tlas_traverse(int wide, const RsInstanceView* iv, const RsCutouts* cutouts, RsVec3 o, RsVec3 d,
                           uint32_t skip, uint32_t skip_instance, int any, RsHit* hit, uint32_t* hit_instance,
                           RsTraceStack stack)
{
    if (iv->tlas_node_count == 0) {
        if (iv->root_instance != RS_NO_HIT &&
            rs_instance_trace(wide, iv, cutouts, iv->root_instance, o, d, skip, skip_instance, any, hit, hit_instance,
                              stack) && any)
            return 1;
        return hit->prim != RS_NO_HIT;
    }
    uint32_t todo[RS_BVH2_MAX_DEPTH];
    int sp = 0;
    uint32_t ref = 0;
    for (;;) {
        if (ref & RS_TLAS_LEAF) {
            if (rs_instance_trace(wide, iv, cutouts, ref & ~RS_TLAS_LEAF, o, d, skip, skip_instance, any, hit,
                                  hit_instance, stack) && any)
                return 1;
            if (sp == 0)
                break;
            ref = todo[--sp];
            continue;
        }
        const RsBvh2Node* n = &iv->tlas[ref];
        RsVec3 inv_d = rs_safe_inverse(d); /* per node, not kept live across a BLAS walk */
        RsVec3 o_inv = rs_mul(o, inv_d);
        RsFloat4 lo_l = n->lo_left, hi_l = n->hi_left, lo_r = n->lo_right, hi_r = n->hi_right;
        float t_l, t_r;
        int hit_l = rs_intersect_box(lo_l, hi_l, inv_d, o_inv, 0.0f, hit->t, &t_l);
        int hit_r = rs_intersect_box(lo_r, hi_r, inv_d, o_inv, 0.0f, hit->t, &t_r);
        uint32_t ref_l = rs_float_as_uint(lo_l.w) | (rs_float_as_uint(lo_r.w) ? RS_TLAS_LEAF : 0u);
        uint32_t ref_r = rs_float_as_uint(hi_l.w) | (rs_float_as_uint(hi_r.w) ? RS_TLAS_LEAF : 0u);
        if (hit_l && hit_r) {
            int left_first = t_l <= t_r;
            todo[sp++] = left_first ? ref_r : ref_l;
            ref = left_first ? ref_l : ref_r;
        } else if (hit_l) {
            ref = ref_l;
        } else if (hit_r) {
            ref = ref_r;
        } else {
            if (sp == 0)
                break;
            ref = todo[--sp];
        }
    }
    return hit->prim != RS_NO_HIT;
}

#endif /* RS_KERNEL_ACCEL_TWO_LEVEL_H */
