/* instance.h - instances of objects: their records, the two-level structure's view, and the
 * transforms between world and object space that traversal, shading and lights apply.
 *
 * Shared header (gcc C11, g++, nvcc). An object (a mesh defined once: pbrt's ObjectBegin,
 * Mitsuba's shapegroup, a reused glTF mesh) has one bottom-level structure (BLAS) over its
 * primitives, built once however many instances place it; a top-level binary BVH (TLAS) is built
 * over the instances' world boxes (two_level.h walks both; docs/architecture.md, section 6.1).
 * Traversal transforms the ray into object space and leaves the direction unnormalised, so the
 * ray parameter t means the same point in both spaces and hits of different instances compare
 * directly. Shading and light sampling never work in object space: they take a world-space copy
 * of the hit primitive (rs_instance_prim), so every formula of surface.h, light.h and the
 * texture code applies unchanged, and a triangle's winding normal turns exactly as the
 * flattened copy's would (mirroring transforms included).
 *
 * RsInstance, 112 bytes, seven 16-byte blocks:
 *   to_object[3]  rows of the 3x4 world-to-object matrix (p_obj = L^-1 p + t)
 *   to_world[3]   rows of the 3x4 object-to-world matrix
 *   meta          x: object index bits, y: first light-table entry of this instance's emitters
 *                 bits (RS_NO_LIGHT: none), z: flags bits (RS_INSTANCE_*), w: the uniform scale of
 *                 to_world (spheres keep being spheres only under uniform scale; scene_build.c
 *                 refuses others)
 * RsObjectBlas, 16 bytes: the object's nodes and trace primitives inside the concatenated BLAS
 * arrays: node_base | node_count | prim_base | prim_count. Trace primitives' a.w names the
 * primitive in the scene's array, whose object primitives follow the world's (scene.c).
 */
#ifndef RS_KERNEL_ACCEL_INSTANCE_H
#define RS_KERNEL_ACCEL_INSTANCE_H

#include "kernel/accel/bvh2.h"
#include "kernel/accel/bvh8.h"

enum {
    RS_INSTANCE_IDENTITY = 1, /* to_world is exactly the identity: rays and primitives pass unchanged */
    RS_INSTANCE_MIRROR = 2,   /* to_world's determinant is negative */
    /* the object holds spheres and to_world scales (uniformly, by meta.w): the sphere test wants a
     * unit direction, so the object-space direction is multiplied by the scale and the BLAS works
     * in t / scale (two_level.h converts tmax and the hit) */
    RS_INSTANCE_RESCALE = 4
};

typedef struct RsInstance {
    RsFloat4 to_object[3];
    RsFloat4 to_world[3];
    RsUint4 meta;
} RsInstance;

typedef struct RsObjectBlas {
    uint32_t node_base, node_count, prim_base, prim_count;
} RsObjectBlas;

RS_STATIC_ASSERT(sizeof(RsInstance) == 112, "RsInstance is seven 16-byte blocks");
RS_STATIC_ASSERT(sizeof(RsObjectBlas) == 16, "RsObjectBlas is one 16-byte block");

/* The two-level part of a scene's structure; instance_count 0 for a scene without instances,
 * whose rays never look at any of it. The BLAS arrays are of the scene's structure kind (bvh2
 * or bvh8; a grid scene is flattened instead). */
typedef struct RsInstanceView {
    const RsBvh2Node* tlas;       /* binary nodes over the instances; a leaf child's ref is an instance */
    const RsInstance* instances;  /* in the order the scene placed them */
    const RsObjectBlas* objects;
    const RsBvh2Node* blas_bvh2;  /* every object's nodes, object after object */
    const RsBvh8Node* blas_bvh8;
    const RsPrim* blas_prims;     /* every object's trace primitives */
    uint32_t tlas_node_count, instance_count, object_count;
    uint32_t root_instance; /* a TLAS of one instance is no tree: tlas_node_count 0, and this names
                               it (RS_NO_HIT: none, or a tree) */
} RsInstanceView;

RS_FN uint32_t rs_instance_object(const RsInstance* in) { return in->meta.x; }
RS_FN uint32_t rs_instance_flags(const RsInstance* in) { return in->meta.z; }

/* Row r of a 3x4 matrix times the point (or, with w = 0, the vector) v, one rounding per
 * operation (compat.h): the CPU and every GPU kernel get the same bits. */
RS_FN float rs_row_apply(RsFloat4 r, RsVec3 v, float w)
{
    float s = rs_add_rn(rs_add_rn(rs_mul_rn(r.x, v.x), rs_mul_rn(r.y, v.y)), rs_mul_rn(r.z, v.z));
    return w != 0.0f ? rs_add_rn(s, r.w) : s;
}

RS_FN RsVec3 rs_matrix_point(const RsFloat4* m, RsVec3 p)
{
    return rs_vec3(rs_row_apply(m[0], p, 1.0f), rs_row_apply(m[1], p, 1.0f), rs_row_apply(m[2], p, 1.0f));
}

RS_FN RsVec3 rs_matrix_vector(const RsFloat4* m, RsVec3 v)
{
    return rs_vec3(rs_row_apply(m[0], v, 0.0f), rs_row_apply(m[1], v, 0.0f), rs_row_apply(m[2], v, 0.0f));
}

/* |M| |v| (+ |t| for a point): the magnitude that bounds the rounding of rs_matrix_point. */
RS_FN RsVec3 rs_matrix_abs_point(const RsFloat4* m, RsVec3 v, float w)
{
    RsVec3 a = rs_vec3(fabsf(v.x), fabsf(v.y), fabsf(v.z));
    return rs_vec3(fabsf(m[0].x) * a.x + fabsf(m[0].y) * a.y + fabsf(m[0].z) * a.z + w * fabsf(m[0].w),
                   fabsf(m[1].x) * a.x + fabsf(m[1].y) * a.y + fabsf(m[1].z) * a.z + w * fabsf(m[1].w),
                   fabsf(m[2].x) * a.x + fabsf(m[2].y) * a.y + fabsf(m[2].z) * a.z + w * fabsf(m[2].w));
}

/* The world ray (o, d) in the object space of instance `in`; d stays unnormalised, so t is the
 * same parameter on both sides. */
RS_FN void rs_instance_ray(const RsInstance* in, RsVec3 o, RsVec3 d, RsVec3* o_obj, RsVec3* d_obj)
{
    if (in->meta.z & RS_INSTANCE_IDENTITY) {
        *o_obj = o;
        *d_obj = d;
        return;
    }
    *o_obj = rs_matrix_point(in->to_object, o);
    *d_obj = rs_matrix_vector(in->to_object, d);
}

/* The world-space copy of object primitive p placed by instance `in`: a triangle's corner and
 * edges transformed (so its winding normal turns as the cofactor matrix does), a sphere's centre
 * transformed and its radius scaled. The light bits name this instance's own light-table entry:
 * an object primitive's light bits count its emitters within the object (lights.c). */
RS_FN RsPrim rs_instance_prim(const RsInstance* in, const RsPrim* p)
{
    RsPrim w = *p;
    uint32_t local_light = rs_prim_light(p);
    w.b.w = rs_uint_as_float(local_light == RS_NO_LIGHT || in->meta.y == RS_NO_LIGHT ? RS_NO_LIGHT
                                                                                       : in->meta.y + local_light);
    if (in->meta.z & RS_INSTANCE_IDENTITY)
        return w;
    w.a = rs_pack(rs_matrix_point(in->to_world, rs_xyz(p->a)), p->a.w);
    if (rs_prim_type(p) == RS_PRIM_SPHERE) {
        w.b.x = rs_mul_rn(p->b.x, rs_uint_as_float(in->meta.w));
    } else {
        w.b = rs_pack(rs_matrix_vector(in->to_world, rs_xyz(p->b)), w.b.w);
        w.c = rs_pack(rs_matrix_vector(in->to_world, rs_xyz(p->c)), p->c.w);
    }
    return w;
}

/* A bound on how far a point computed on the world copy of a primitive of `in` may lie from
 * where traversal, which works in object space, places that surface: the copy's own rounding
 * (its corner and edges are transformed, gamma(3) each of |M| |v| + |t|) and the rounding of the
 * world-to-object transform of a ray origin at p, gamma(3) (|M^-1| |p| + |t'|), mapped back
 * through |M|. Added to the point's error bound, it keeps the offsets of surface.h sufficient
 * in world space (pbrt-v4 bounds its instance transforms the same way). */
RS_FN RsVec3 rs_instance_error(const RsInstance* in, const RsPrim* object_prim, RsVec3 p_world)
{
    if (in->meta.z & RS_INSTANCE_IDENTITY)
        return rs_vec3_splat(0.0f);
    const float g3 = 1.8e-7f; /* gamma(3) = 3u / (1 - 3u), u = 2^-24, rounded up */
    RsVec3 size = rs_xyz(object_prim->a);
    RsVec3 extent = rs_prim_type(object_prim) == RS_PRIM_SPHERE
                        ? rs_vec3_splat(object_prim->b.x)
                        : rs_vec3(fabsf(object_prim->b.x) + fabsf(object_prim->c.x),
                                  fabsf(object_prim->b.y) + fabsf(object_prim->c.y),
                                  fabsf(object_prim->b.z) + fabsf(object_prim->c.z));
    size = rs_vec3(fabsf(size.x) + extent.x, fabsf(size.y) + extent.y, fabsf(size.z) + extent.z);
    RsVec3 copy = rs_matrix_abs_point(in->to_world, size, 1.0f);
    RsVec3 back = rs_matrix_abs_point(in->to_world, rs_matrix_abs_point(in->to_object, p_world, 1.0f), 0.0f);
    return rs_scale(rs_add(copy, back), 2.0f * g3);
}

/* An object-space surface normal (a vertex normal) in world space, not normalised: the
 * transpose of the world-to-object matrix, i.e. the inverse transpose of to_world. Its sign does
 * not matter where it is used (shading normals are turned to the geometric normal's side). */
RS_FN RsVec3 rs_instance_normal(const RsInstance* in, RsVec3 n)
{
    if (in->meta.z & RS_INSTANCE_IDENTITY)
        return n;
    const RsFloat4* m = in->to_object;
    return rs_vec3(m[0].x * n.x + m[1].x * n.y + m[2].x * n.z, m[0].y * n.x + m[1].y * n.y + m[2].y * n.z,
                   m[0].z * n.x + m[1].z * n.y + m[2].z * n.z);
}

/* The shading normal of object primitive `index` at barycentrics (b1, b2) hit through instance
 * `in`, against the world geometric normal ng: surface.h's rs_shading_normal with the vertex
 * normals interpolated in object space and carried to world space by the inverse transpose. */
RS_FN RsVec3 rs_instance_shading_normal(const RsInstance* in, const RsShading* shading, uint32_t index, float b1,
                                        float b2, RsVec3 ng)
{
    if (!shading)
        return ng;
    const RsShading* s = &shading[index];
    if (!(rs_float_as_uint(s->d.w) & RS_SHADING_NORMALS))
        return ng;
    RsVec3 n = rs_add(rs_add(rs_scale(rs_xyz(s->a), 1.0f - b1 - b2), rs_scale(rs_xyz(s->b), b1)),
                      rs_scale(rs_xyz(s->c), b2));
    n = rs_instance_normal(in, n);
    float len2 = rs_dot(n, n);
    if (!(len2 > 1e-12f))
        return ng;
    n = rs_scale(n, 1.0f / sqrtf(len2));
    return rs_dot(n, ng) < 0.0f ? rs_neg(n) : n;
}

#endif /* RS_KERNEL_ACCEL_INSTANCE_H */
