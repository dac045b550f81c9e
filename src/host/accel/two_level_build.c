/* two_level_build.c - the two-level structure of src/kernel/accel/two_level.h: one BLAS per
 * object (the scene's kind, bvh2 or bvh8, built once however many instances place it) and a
 * binary TLAS over the instances' world boxes. Host C11.
 *
 * Each BLAS is built by the ordinary builder over the object's slice of the scene's primitives,
 * then appended to one node array and one trace-primitive array (the kernel reaches an object's
 * part through RsObjectBlas offsets, so node and primitive references inside stay relative), with
 * the trace primitives' a.w rebased to the scene's numbering. The TLAS is the binary SAH tree of
 * bvh_binary.h over box primitives with one instance per leaf, flattened into bvh2 nodes whose
 * leaf children reference the instance itself (count 1).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host/accel/accel_build.h"
#include "host/accel/bvh_binary.h"
#include "host/util/array.h"
#include "host/util/clock.h"

void rs_two_level_free(RsTwoLevel* t)
{
    free(t->objects);
    free(t->tlas);
    free(t->blas_nodes);
    free(t->blas_prims);
    memset(t, 0, sizeof *t);
}

/* Appends `a`'s nodes and trace primitives to the concatenated arrays. */
static int append_blas(RsTwoLevel* t, const RsAccel* a, uint32_t first, RsObjectBlas* ob, size_t* node_cap,
                       size_t* prim_cap, RsError* err)
{
    int wide = a->view.kind == RS_ACCEL_BVH8;
    size_t node_size = wide ? sizeof(RsBvh8Node) : sizeof(RsBvh2Node);
    uint32_t nodes = wide ? a->view.bvh8.node_count : a->view.bvh2.node_count;
    uint32_t prims = wide ? a->view.bvh8.prim_count : a->view.bvh2.prim_count;
    const void* node_src = wide ? (const void*)a->view.bvh8.nodes : (const void*)a->view.bvh2.nodes;
    const RsPrim* prim_src = wide ? a->view.bvh8.prims : a->view.bvh2.prims;
    if ((uint64_t)t->blas_node_count + nodes > 0xffffffffu || (uint64_t)t->blas_prim_count + prims > 0xffffffffu)
        return rs_error_set(err, "instanced objects: more than 2^32 BLAS nodes or primitives");
    if (t->blas_node_count + nodes > *node_cap) {
        size_t cap = (*node_cap ? *node_cap * 2 : 1024) + nodes;
        void* p = rs_alloc_aligned(cap, node_size, 64);
        if (!p)
            return rs_error_set(err, "out of memory: BLAS nodes");
        if (t->blas_nodes)
            memcpy(p, t->blas_nodes, (size_t)t->blas_node_count * node_size);
        free(t->blas_nodes);
        t->blas_nodes = p;
        *node_cap = cap;
    }
    if (t->blas_prim_count + prims > *prim_cap) {
        size_t cap = (*prim_cap ? *prim_cap * 2 : 1024) + prims;
        RsPrim* p = rs_alloc_aligned(cap, sizeof(RsPrim), 64);
        if (!p)
            return rs_error_set(err, "out of memory: BLAS primitives");
        if (t->blas_prims)
            memcpy(p, t->blas_prims, (size_t)t->blas_prim_count * sizeof(RsPrim));
        free(t->blas_prims);
        t->blas_prims = p;
        *prim_cap = cap;
    }
    if (nodes)
        memcpy((char*)t->blas_nodes + (size_t)t->blas_node_count * node_size, node_src, (size_t)nodes * node_size);
    RsPrim* dst = t->blas_prims + t->blas_prim_count;
    for (uint32_t i = 0; i < prims; ++i) {
        dst[i] = prim_src[i];
        dst[i].a.w = rs_uint_as_float(rs_float_as_uint(prim_src[i].a.w) + first);
    }
    ob->node_base = t->blas_node_count;
    ob->node_count = nodes;
    ob->prim_base = t->blas_prim_count;
    ob->prim_count = prims;
    t->blas_node_count += nodes;
    t->blas_prim_count += prims;
    if (a->stats.depth > t->blas_depth)
        t->blas_depth = a->stats.depth;
    return 0;
}

/* The world box of an object box under to_world: its eight corners in double, rounded out. */
void rs_instance_world_box(const RsInstance* in, RsVec3 lo, RsVec3 hi, RsVec3* out_lo, RsVec3* out_hi)
{
    if (rs_instance_flags(in) & RS_INSTANCE_IDENTITY) { /* rays pass untransformed: the box as it is */
        *out_lo = lo;
        *out_hi = hi;
        return;
    }
    double l[3] = {INFINITY, INFINITY, INFINITY}, h[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int c = 0; c < 8; ++c) {
        double p[3] = {c & 1 ? hi.x : lo.x, c & 2 ? hi.y : lo.y, c & 4 ? hi.z : lo.z};
        const RsFloat4* m = in->to_world;
        for (int k = 0; k < 3; ++k) {
            double v = m[k].x * p[0] + m[k].y * p[1] + m[k].z * p[2] + m[k].w;
            l[k] = fmin(l[k], v);
            h[k] = fmax(h[k], v);
        }
    }
    /* widened by a relative 2^-20: traversal transforms the ray, not the box, in float */
    float fl[3], fh[3];
    for (int k = 0; k < 3; ++k) {
        double pad = (fabs(l[k]) + fabs(h[k])) * 1e-6 + 1e-30;
        fl[k] = nextafterf((float)(l[k] - pad), -INFINITY);
        fh[k] = nextafterf((float)(h[k] + pad), INFINITY);
    }
    *out_lo = rs_vec3(fl[0], fl[1], fl[2]);
    *out_hi = rs_vec3(fh[0], fh[1], fh[2]);
}

static int build_tlas(RsTwoLevel* t, const RsInstance* instances, uint32_t count, const RsVec3* obj_lo,
                      const RsVec3* obj_hi, const RsAccelOptions* opt, RsError* err)
{
    RsPrim* boxes = malloc((size_t)count * sizeof *boxes);
    if (!boxes)
        return rs_error_set(err, "out of memory: %u instance boxes", count);
    uint32_t used = 0;
    uint32_t* which = malloc((size_t)count * sizeof *which);
    if (!which) {
        free(boxes);
        return rs_error_set(err, "out of memory: %u instance boxes", count);
    }
    for (uint32_t i = 0; i < count; ++i) {
        uint32_t object = rs_instance_object(&instances[i]);
        if (t->objects[object].node_count == 0)
            continue; /* an empty object is never hit */
        RsVec3 lo, hi;
        rs_instance_world_box(&instances[i], obj_lo[object], obj_hi[object], &lo, &hi);
        boxes[used].a = rs_pack(lo, 0.0f);
        boxes[used].b = rs_pack(hi, 0.0f);
        boxes[used].c = rs_float4(0.0f, 0.0f, 0.0f, rs_uint_as_float(RS_PRIM_BOX));
        which[used++] = i;
        t->bounds_lo = rs_vmin(t->bounds_lo, lo);
        t->bounds_hi = rs_vmax(t->bounds_hi, hi);
    }
    if (used <= 1) { /* none, or one: entered directly (instance.h, root_instance) */
        t->view.root_instance = used ? which[0] : RS_NO_HIT;
        free(boxes);
        free(which);
        return 0;
    }
    RsBinaryOptions bo = {1, 1, opt->bins ? opt->bins : RS_ACCEL_DEFAULT_BINS, 0, 1.0f, opt->pool};
    RsBinaryBvh bin;
    int failed = rs_binary_bvh_build(boxes, used, &bo, &bin, err);
    free(boxes);
    if (failed) {
        free(which);
        return -1;
    }
    /* interior nodes numbered depth-first, as bvh2_build.c does */
    uint32_t* flat = malloc((size_t)bin.node_count * sizeof *flat);
    uint32_t* stack = malloc((size_t)bin.node_count * sizeof *stack);
    uint32_t interior = 0, sp = 0;
    if (flat && stack) {
        stack[sp++] = 0;
        while (sp) {
            uint32_t n = stack[--sp];
            if (bin.nodes[n].count)
                continue;
            flat[n] = interior++;
            stack[sp++] = bin.nodes[n].right;
            stack[sp++] = bin.nodes[n].left;
        }
    }
    uint32_t node_count = interior;
    t->tlas = flat && stack && interior ? rs_alloc_aligned(node_count, sizeof(RsBvh2Node), 64) : NULL;
    if (!t->tlas) {
        free(flat);
        free(stack);
        free(which);
        rs_binary_bvh_free(&bin);
        return rs_error_set(err, "out of memory: TLAS over %u instances", used);
    }
    /* two or more instances, one per leaf: the root is interior; a leaf child has count 1 and
     * names the instance */
    int bad_leaf = 0;
    for (uint32_t n = 0; n < bin.node_count; ++n) {
        const RsBinaryNode* b = &bin.nodes[n];
        if (b->count)
            continue;
        const RsBinaryNode* l = &bin.nodes[b->left];
        const RsBinaryNode* r = &bin.nodes[b->right];
        bad_leaf |= l->count > 1 || r->count > 1;
        uint32_t l_ref = l->count ? which[bin.refs[l->first]] : flat[b->left];
        uint32_t r_ref = r->count ? which[bin.refs[r->first]] : flat[b->right];
        RsBvh2Node out;
        out.lo_left = rs_pack(l->lo, rs_uint_as_float(l_ref));
        out.hi_left = rs_pack(l->hi, rs_uint_as_float(r_ref));
        out.lo_right = rs_pack(r->lo, rs_uint_as_float(l->count ? 1u : 0u));
        out.hi_right = rs_pack(r->hi, rs_uint_as_float(r->count ? 1u : 0u));
        t->tlas[flat[n]] = out;
    }
    t->view.tlas = t->tlas;
    t->view.tlas_node_count = node_count;
    t->tlas_depth = bin.depth;
    free(flat);
    free(stack);
    free(which);
    rs_binary_bvh_free(&bin);
    return bad_leaf ? rs_error_set(err, "internal error: a TLAS leaf holds more than one instance") : 0;
}

int rs_two_level_build(const RsPrim* prims, const uint32_t* ranges, uint32_t object_count, const RsInstance* instances,
                       uint32_t instance_count, const RsAccelOptions* opt, RsTwoLevel* out, RsError* err)
{
    memset(out, 0, sizeof *out);
    double t0 = rs_clock_seconds();
    if (opt->kind != RS_ACCEL_BVH2 && opt->kind != RS_ACCEL_BVH8)
        return rs_error_set(err, "instances need a BVH (bvh2 or bvh8)");
    out->view.root_instance = RS_NO_HIT;
    out->bounds_lo = rs_vec3_splat(INFINITY);
    out->bounds_hi = rs_vec3_splat(-INFINITY);
    out->objects = calloc(object_count ? object_count : 1, sizeof *out->objects);
    RsVec3* lo = malloc((object_count ? object_count : 1) * sizeof *lo);
    RsVec3* hi = malloc((object_count ? object_count : 1) * sizeof *hi);
    if (!out->objects || !lo || !hi) {
        free(lo);
        free(hi);
        rs_two_level_free(out);
        return rs_error_set(err, "out of memory: %u objects", object_count);
    }
    size_t node_cap = 0, prim_cap = 0;
    int status = 0;
    for (uint32_t o = 0; o < object_count && !status; ++o) {
        uint32_t first = ranges[2 * o], count = ranges[2 * o + 1];
        lo[o] = rs_vec3_splat(INFINITY);
        hi[o] = rs_vec3_splat(-INFINITY);
        if (count == 0)
            continue;
        for (uint32_t i = 0; i < count; ++i) {
            RsVec3 plo, phi;
            rs_prim_bounds(&prims[first + i], &plo, &phi);
            lo[o] = rs_vmin(lo[o], plo);
            hi[o] = rs_vmax(hi[o], phi);
        }
        RsAccel a;
        RsAccelOptions blas_opt = *opt;
        blas_opt.camera_tree = 0; /* camera rays walk a scene with instances through its TLAS */
        if (rs_accel_build(prims + first, count, &blas_opt, &a, err)) {
            status = -1;
            break;
        }
        status = append_blas(out, &a, first, &out->objects[o], &node_cap, &prim_cap, err);
        out->blas_bytes += a.stats.bytes;
        rs_accel_free(&a);
    }
    if (!status) {
        RsAccelOptions o = *opt;
        o.pool = rs_pool_create(opt->threads, err);
        status = o.pool ? build_tlas(out, instances, instance_count, lo, hi, &o, err) : -1;
        rs_pool_destroy(o.pool);
    }
    free(lo);
    free(hi);
    if (status) {
        rs_two_level_free(out);
        return -1;
    }
    out->view.instances = instances;
    out->view.instance_count = instance_count;
    out->view.objects = out->objects;
    out->view.object_count = object_count;
    if (opt->kind == RS_ACCEL_BVH8)
        out->view.blas_bvh8 = out->blas_nodes;
    else
        out->view.blas_bvh2 = out->blas_nodes;
    out->view.blas_prims = out->blas_prims;
    out->tlas_bytes = (uint64_t)out->view.tlas_node_count * sizeof(RsBvh2Node);
    out->instance_bytes = (uint64_t)instance_count * sizeof(RsInstance) + (uint64_t)object_count * sizeof(RsObjectBlas);
    out->build_seconds = rs_clock_seconds() - t0;
    return 0;
}
