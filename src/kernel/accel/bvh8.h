/* bvh8.h - the 8-wide compressed BVH: node layout, closest-hit and any-hit traversal.
 *
 * Shared header (gcc C11, g++, nvcc). After Ylitie, Karras and Laine, "Efficient Incoherent
 * Ray Traversal on GPUs Through Compressed Wide BVHs" (HPG 2017). The builder
 * (src/host/accel/bvh8_build.c) collapses a binary SAH tree into nodes of up to eight children
 * by their SAH-optimal dynamic program, stores each child's box in 8-bit coordinates relative
 * to the node, and puts children in slots by direction so that the ray's octant alone gives a
 * near-to-far visiting order.
 *
 * RsBvh8Node, 80 bytes, five 16-byte blocks (byte offsets, little-endian words):
 *   offset  0  p.xyz        float x3  origin of the node's quantization grid (its box's low corner)
 *   offset 12  e.xyz        uint8 x3  grid step per axis is 2^(e - 127): e is a float's exponent
 *   offset 15  imask        uint8     bit s set: slot s holds an interior child
 *   offset 16  child_base   uint32    node index of the first interior child; the interior
 *                                     children follow each other in slot order
 *   offset 20  prim_base    uint32    trace primitive index of the node's first leaf primitive
 *   offset 24  meta[8]      uint8     per slot: 0 empty; interior 0b001_11sss (0x38 + s, i.e.
 *                                     count 1 at bit 24 + s); leaf: its primitive count in unary
 *                                     in the top 3 bits (001, 011, 111) and the offset of its
 *                                     first primitive from prim_base (0..21) in the low 5 bits
 *   offset 32  qlo_x[8]     uint8     child box low corner = p + qlo * step (rounded down, and
 *                                     a step lower where that left less than half a step)
 *   offset 40  qlo_y[8], offset 48 qlo_z[8]
 *   offset 56  qhi_x[8]     uint8     high corner = p + qhi * step (rounded up, likewise)
 *   offset 64  qhi_y[8], offset 72 qhi_z[8]
 * So (meta >> 5) << (meta & 31) is a child's bits in a 32-bit hit mask: leaf primitives at
 * bits 0..23, interior children at bits 24..31.
 *
 * Ordering: slot s faces the direction whose axis k is negative where bit k of s is set; the
 * builder puts in slot s the child lying farthest that way. For a ray whose octant (bit k set:
 * d_k < 0) is o, slot o holds the child farthest along the ray and slot o ^ 7 the nearest, so an
 * interior child's hit bit goes to 24 + (s ^ o) and taking the highest set bit first visits
 * children near to far, with no sorting.
 *
 * Traversal keeps a node group (child_base, the interior hits not yet visited, imask) and a
 * primitive group (prim_base, leaf primitive hits) in registers. Visiting takes the nearest
 * interior child out of the node group, pushes what is left, and replaces both groups by the
 * child's. The stack holds only node groups, one per level at most, so it needs no more than
 * the tree's depth of entries: the builder refuses trees deeper than RS_BVH8_STACK. Where the
 * stack lives is the caller's choice (RsTraceStack): a local array on the CPU; on the GPU the
 * block's shared memory for the first 16 entries and a per-thread array beyond, so no local
 * memory is touched in the loop unless a tree is deeper than 16 levels.
 *
 * The box test of the GPU (rs_bvh8_slab_hit) uses Hopper's three-way integer min/max on the
 * planes' float bits; the CPU compares floats. The two agree except for an exit plane at
 * exactly -0, which cannot hold a hit with t > 0 (see there).
 */
#ifndef RS_KERNEL_ACCEL_BVH8_H
#define RS_KERNEL_ACCEL_BVH8_H

#include "kernel/accel/trace_hit.h"

#define RS_BVH8_STACK 24

typedef struct RsBvh8Node {
    RsUint4 b0; /* p.x bits | p.y bits | p.z bits | e.x, e.y, e.z, imask (bytes 0..3) */
    RsUint4 b1; /* child_base | prim_base | meta[0..3] | meta[4..7] */
    RsUint4 b2; /* qlo_x[0..3] | qlo_x[4..7] | qlo_y[0..3] | qlo_y[4..7] */
    RsUint4 b3; /* qlo_z[0..3] | qlo_z[4..7] | qhi_x[0..3] | qhi_x[4..7] */
    RsUint4 b4; /* qhi_y[0..3] | qhi_y[4..7] | qhi_z[0..3] | qhi_z[4..7] */
} RsBvh8Node;

RS_STATIC_ASSERT(sizeof(RsBvh8Node) == 80, "RsBvh8Node is five 16-byte blocks");

typedef struct RsBvh8View {
    const RsBvh8Node* nodes; /* node 0 is the root */
    const RsPrim* prims;     /* trace primitives (trace_hit.h) in leaf order */
    const RsCutouts* cutouts; /* alpha cut-outs, or NULL (cutout.h) */
    uint32_t node_count, prim_count;
} RsBvh8View;

/* A traversal stack of RS_BVH8_STACK 64-bit entries: entry i at base[i * stride] while i < near,
 * beyond that at spill[i - near]; near 0 means every entry is at base (the CPU's local array).
 * The GPU passes its slice of a shared-memory array (stride = threads per block, so a warp's
 * accesses are consecutive) that holds the first entries only, and a small per-thread array for
 * the rest: trees are rarely deeper than a dozen levels, so the spill array (local memory) is
 * almost never touched, and the shared memory a block reserves, which limits how many blocks an
 * SM holds, shrinks by a third (trace_stack.cuh). */
typedef struct RsTraceStack {
    uint64_t* base;
    uint32_t stride;
    uint32_t near;
    uint64_t* spill;
} RsTraceStack;

/* The CPU's stack: RS_BVH8_STACK entries at mem, one after another. */
RS_FN RsTraceStack rs_trace_stack_local(uint64_t* mem)
{
    RsTraceStack s = {mem, 1, 0, 0};
    return s;
}

RS_FN void rs_trace_stack_put(RsTraceStack s, uint32_t i, uint64_t e)
{
    if (s.near == 0 || i < s.near)
        s.base[i * s.stride] = e;
    else
        s.spill[i - s.near] = e;
}

RS_FN uint64_t rs_trace_stack_get(RsTraceStack s, uint32_t i)
{
    return s.near == 0 || i < s.near ? s.base[i * s.stride] : s.spill[i - s.near];
}

RS_FN uint32_t rs_highest_bit(uint32_t x)
{
#if RS_DEVICE_CODE
    return 31u - (uint32_t)__clz(x);
#else
    return 31u - (uint32_t)__builtin_clz(x);
#endif
}

RS_FN uint32_t rs_lowest_bit(uint32_t x)
{
#if RS_DEVICE_CODE
    return (uint32_t)__ffs(x) - 1u;
#else
    return (uint32_t)__builtin_ctz(x);
#endif
}

RS_FN uint32_t rs_popcount(uint32_t x)
{
#if RS_DEVICE_CODE
    return (uint32_t)__popc(x);
#else
    return (uint32_t)__builtin_popcount(x);
#endif
}

/* Per-ray constants of the box tests. */
typedef struct RsBvh8Ray {
    RsVec3 o, d, inv_d;
    uint32_t octant;  /* bit k set: d_k < 0 */
    uint32_t octant4; /* the octant in every byte */
    uint32_t near_x, near_y, near_z; /* 1: the near plane is the high one (d < 0) */
} RsBvh8Ray;

/* The t at which the ray meets the plane q = byte k of w, given the axis' t per grid step `s`
 * and t at the grid's origin `c` (as rs_bvh8_step and rs_bvh8_origin made them): t = q s + c.
 * On the GPU one byte permute puts q in bits 8..15 of the float 1.0, which makes 1 + q 2^-15
 * exactly; s there is 2^15 steps and c is less one such s, so a plane costs the permute and one
 * multiply-add. Folding the 1.0 into c rounds c to the precision of 2^15 s: it moves a plane by
 * at most 1/512 of a step, which the builder's margin of half a step covers
 * (host/accel/bvh8_build.c). (With the byte at bits 0..7 of 2^23 the fold moved planes by half
 * a step, and every box needed one more step on each side: Sponza's camera and bounce rays
 * visited 2.3% more nodes, counted on the CPU.) */
RS_FN float rs_bvh8_plane(uint32_t w, uint32_t k, float s, float c)
{
#if RS_DEVICE_CODE
    return __fmaf_rn(__uint_as_float(__byte_perm(0x3f800000u, w, 0x3240u + (k << 4))), s, c);
#else
    return (float)((w >> (8u * k)) & 0xffu) * s + c;
#endif
}

/* Grid step 2^(e - 127) in t: s = step / d, exact (a power of two times 1/d); on the GPU 2^15
 * steps (see rs_bvh8_plane; the builder keeps e + 15 a float's exponent). */
RS_FN float rs_bvh8_step(uint32_t e, float inv_d)
{
#if RS_DEVICE_CODE
    return rs_uint_as_float((e + 15u) << 23) * inv_d;
#else
    return rs_uint_as_float(e << 23) * inv_d;
#endif
}

/* t at the grid origin p: (p - o) / d, less s on the GPU (see rs_bvh8_plane). */
RS_FN float rs_bvh8_origin(float p, float o, float inv_d, float s)
{
#if RS_DEVICE_CODE
    return (p - o) * inv_d - s;
#else
    (void)s;
    return (p - o) * inv_d;
#endif
}

/* Whether a child's box is hit: entry max(near planes, 0) <= exit min(far planes, tmax).
 * On the GPU the comparisons run on the floats' bit patterns as signed integers, with Hopper's
 * three-way integer min/max (DPX: __vimax3_s32_relu is max(a, b, c, 0) in one instruction), two
 * instructions for entry and exit where float min/max takes six. That order is the floats' order
 * for non-negative values; a negative value's pattern is a negative integer, below every
 * non-negative one. The entry is clamped at 0, so it is exact; an exit that is negative (as a
 * float, or -0) compares below any entry, a miss, which is right for a box behind the ray (the
 * float test would call a box whose far side is exactly at -0 hit: no hit with t > 0 is in it). */
RS_FN int rs_bvh8_slab_hit(float nx, float ny, float nz, float fx, float fy, float fz, float tmax)
{
#if RS_DEVICE_CODE && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    int enter = __vimax3_s32_relu(__float_as_int(nx), __float_as_int(ny), __float_as_int(nz));
    int exit = __vimin3_s32(__float_as_int(fx), __float_as_int(fy), min(__float_as_int(fz), __float_as_int(tmax)));
    return enter <= exit;
#else
    float enter = rs_maxf(rs_maxf(nx, ny), rs_maxf(nz, 0.0f));
    float exit = rs_minf(rs_minf(fx, fy), rs_minf(fz, tmax));
    return enter <= exit;
#endif
}

/* Slot k's bits in the hit mask: byte k of bits4 shifted by byte k of index4 (rs_bvh8_intersect_children).
 * On the GPU a byte permute and a funnel shift, which takes the shift modulo 32 itself (on an H100,
 * Sponza's camera rays 2.94 -> 2.98 G/s against shifts and masks). */
RS_FN uint32_t rs_bvh8_slot_bits(uint32_t bits4, uint32_t index4, uint32_t k)
{
#if RS_DEVICE_CODE
    return __funnelshift_l(0u, __byte_perm(bits4, 0u, 0x4440u + k), index4 >> (8u * k));
#else
    return ((bits4 >> (8u * k)) & 7u) << ((index4 >> (8u * k)) & 31u);
#endif
}

/* Node n as a copy. The GPU reads its five blocks through the read-only data path
 * (ld.global.nc): nodes never change during a launch, and on an H100 that took Sponza's bounce
 * rays 1.98 -> 2.00 G/s against plain loads. */
RS_FN RsUint4 rs_bvh8_load_block(const RsUint4* block)
{
#if RS_DEVICE_CODE
    uint4 v = __ldg((const uint4*)block);
    RsUint4 r = {v.x, v.y, v.z, v.w};
    return r;
#else
    return *block;
#endif
}

RS_FN RsBvh8Node rs_bvh8_load_node(const RsBvh8Node* n)
{
    RsBvh8Node c = {rs_bvh8_load_block(&n->b0), rs_bvh8_load_block(&n->b1), rs_bvh8_load_block(&n->b2),
                    rs_bvh8_load_block(&n->b3), rs_bvh8_load_block(&n->b4)};
    return c;
}

/* Hit mask of node n's children for the ray, up to distance tmax: leaf primitives at bits
 * 0..23 (relative to prim_base), interior children at bits 24 + (slot ^ octant). All eight slots
 * are tested without branches: an empty slot's meta is 0, so it sets no bit whatever its box.
 * Near and far planes of an axis use the same constants, so a flat box (a wall) has equal entry
 * and exit on that axis and stays hit. (Testing the node's whole grid first, to skip nodes popped
 * beyond a nearer hit, was measured and dropped: it culled 3.5 of Sponza's 22 visits per camera
 * ray and made path tracing 8% slower.) */
RS_FN uint32_t rs_bvh8_intersect_children(const RsBvh8Node* n, const RsBvh8Ray* r, float tmax)
{
    RsUint4 b0 = n->b0, b1 = n->b1, b2 = n->b2, b3 = n->b3, b4 = n->b4;
    float sx = rs_bvh8_step(b0.w & 0xffu, r->inv_d.x);
    float sy = rs_bvh8_step((b0.w >> 8) & 0xffu, r->inv_d.y);
    float sz = rs_bvh8_step((b0.w >> 16) & 0xffu, r->inv_d.z);
    float cx = rs_bvh8_origin(rs_uint_as_float(b0.x), r->o.x, r->inv_d.x, sx);
    float cy = rs_bvh8_origin(rs_uint_as_float(b0.y), r->o.y, r->inv_d.y, sy);
    float cz = rs_bvh8_origin(rs_uint_as_float(b0.z), r->o.z, r->inv_d.z, sz);
    uint32_t hits = 0;
    for (uint32_t half = 0; half < 2; ++half) {
        uint32_t meta4 = half ? b1.w : b1.z;
        /* per slot of the four: interior (bits 3 and 4 of meta both set, which a leaf's offset
         * below 24 never has) -> 0xff; its hit bit 24 + slot becomes 24 + (slot ^ octant) */
        uint32_t inner4 = (((meta4 & (meta4 << 1)) & 0x10101010u) >> 4) * 0xffu;
        uint32_t index4 = (meta4 ^ (r->octant4 & inner4)) & 0x1f1f1f1fu;
        uint32_t bits4 = (meta4 >> 5) & 0x07070707u;
        uint32_t lo_x = half ? b2.y : b2.x, lo_y = half ? b2.w : b2.z, lo_z = half ? b3.y : b3.x;
        uint32_t hi_x = half ? b3.w : b3.z, hi_y = half ? b4.y : b4.x, hi_z = half ? b4.w : b4.z;
        uint32_t nx = r->near_x ? hi_x : lo_x, fx = r->near_x ? lo_x : hi_x;
        uint32_t ny = r->near_y ? hi_y : lo_y, fy = r->near_y ? lo_y : hi_y;
        uint32_t nz = r->near_z ? hi_z : lo_z, fz = r->near_z ? lo_z : hi_z;
        for (uint32_t k = 0; k < 4; ++k) {
            uint32_t slot_bits = rs_bvh8_slot_bits(bits4, index4, k);
            hits |= rs_bvh8_slab_hit(rs_bvh8_plane(nx, k, sx, cx), rs_bvh8_plane(ny, k, sy, cy),
                                     rs_bvh8_plane(nz, k, sz, cz), rs_bvh8_plane(fx, k, sx, cx),
                                     rs_bvh8_plane(fy, k, sy, cy), rs_bvh8_plane(fz, k, sz, cz), tmax)
                        ? slot_bits
                        : 0u;
        }
    }
    return hits;
}

/* A traversal in progress: the while-while loop of Aila & Laine as a state that one step at a
 * time advances, so that a persistent kernel can swap a finished ray for a new one between
 * steps (dynamic fetch, Aila, Laine and Karras 2012). The plain traversal just steps until done.
 * A step is three parts, so that a GPU warp can test the leaf primitives of its lanes' steps
 * together (cuda/stages/warp_prims.cuh) between the first and the last: visit the nearest node
 * of the node group (its leaf primitive hits become the primitive group), test the primitive
 * group, and pop a node group once the current one is used up. */
typedef struct RsBvh8Walk {
    RsBvh8Ray ray;
    RsHit hit;
    uint32_t skip;
    uint32_t group_base, group_hits, group_imask; /* the node group: interior hits not yet visited */
    uint32_t prim_base, prim_hits;                /* the primitive group: leaf primitives to test */
    uint32_t sp;                                  /* stack entries in use */
} RsBvh8Walk;

RS_FN void rs_bvh8_walk_begin(const RsBvh8View* s, RsBvh8Walk* w, RsVec3 o, RsVec3 d, float tmax, uint32_t skip)
{
    rs_hit_init(&w->hit, tmax);
    w->ray.o = o;
    w->ray.d = d;
    w->ray.inv_d = rs_safe_inverse(d);
    w->ray.near_x = w->ray.inv_d.x < 0.0f;
    w->ray.near_y = w->ray.inv_d.y < 0.0f;
    w->ray.near_z = w->ray.inv_d.z < 0.0f;
    w->ray.octant = w->ray.near_x | (w->ray.near_y << 1) | (w->ray.near_z << 2);
    w->ray.octant4 = w->ray.octant * 0x01010101u;
    w->skip = skip;
    /* the root is the one interior child, in slot 0, of an imaginary parent (none: an empty tree) */
    w->group_base = 0;
    w->group_hits = s->node_count ? 1u << (24u + w->ray.octant) : 0u;
    w->group_imask = 1u;
    w->prim_base = 0;
    w->prim_hits = 0;
    w->sp = 0;
}

/* Visits the nearest interior child of the node group, if it has one: what is left of the group
 * goes on the stack, the child's interior hits become the node group and its leaf primitive hits
 * the primitive group (bit k: primitive prim_base + k). */
RS_FN void rs_bvh8_walk_visit(const RsBvh8View* s, RsBvh8Walk* w, RsTraceStack stack)
{
    w->prim_hits = 0;
    if (!(w->group_hits & 0xff000000u))
        return;
    uint32_t bit = rs_highest_bit(w->group_hits);
    w->group_hits &= ~(1u << bit);
    uint32_t slot = (bit - 24u) ^ w->ray.octant;
    uint32_t node = w->group_base + rs_popcount(w->group_imask & ((1u << slot) - 1u));
    if (w->group_hits & 0xff000000u) {
        rs_trace_stack_put(stack, w->sp, (uint64_t)w->group_base | ((uint64_t)(w->group_hits | w->group_imask) << 32));
        ++w->sp;
    }
    const RsBvh8Node n = rs_bvh8_load_node(&s->nodes[node]);
    uint32_t hits = rs_bvh8_intersect_children(&n, &w->ray, w->hit.t);
    w->group_base = n.b1.x;
    w->group_imask = n.b0.w >> 24;
    w->group_hits = hits & 0xff000000u;
    w->prim_base = n.b1.y;
    w->prim_hits = hits & 0x00ffffffu;
}

/* Tests the primitive group in order, lowest bit first, keeping the nearest hit (the first of
 * equals). Returns 1 when an any-hit walk hit something. */
RS_FN int rs_bvh8_walk_test_prims(const RsBvh8View* s, RsBvh8Walk* w, int any)
{
    uint32_t prims = w->prim_hits;
    w->prim_hits = 0;
    while (prims) {
        uint32_t k = rs_lowest_bit(prims);
        prims &= prims - 1u;
        if (rs_hit_prim(&s->prims[w->prim_base + k], w->ray.o, w->ray.d, w->skip, s->cutouts, &w->hit) && any)
            return 1;
    }
    return 0;
}

/* Pops a node group once the current one has no interior hits left. Returns 1 when the walk is
 * over: nothing left to visit. */
RS_FN int rs_bvh8_walk_pop(RsBvh8Walk* w, RsTraceStack stack)
{
    if (!(w->group_hits & 0xff000000u)) {
        if (w->sp == 0)
            return 1;
        --w->sp;
        uint64_t e = rs_trace_stack_get(stack, w->sp);
        w->group_base = (uint32_t)e;
        w->group_hits = (uint32_t)(e >> 32) & 0xff000000u;
        w->group_imask = (uint32_t)(e >> 32) & 0xffu;
    }
    return 0;
}

/* Visits one node and tests the leaf primitives it hits, then pops a node group if the current
 * one is used up. Returns 1 when the walk is over: nothing left to visit, or, for an any-hit walk
 * (`any`, a constant at every call so that each kind of walk compiles to its own loop),
 * something was hit. */
RS_FN int rs_bvh8_walk_step(const RsBvh8View* s, RsBvh8Walk* w, RsTraceStack stack, int any)
{
    rs_bvh8_walk_visit(s, w, stack);
    if (rs_bvh8_walk_test_prims(s, w, any))
        return 1;
    return rs_bvh8_walk_pop(w, stack);
}

/* Shared loop; `any` selects shadow-ray semantics (stop at the first hit). */
RS_FN int rs_bvh8_traverse(const RsBvh8View* s, RsVec3 o, RsVec3 d, float tmax, uint32_t skip, int any,
                           RsHit* hit, RsTraceStack stack)
{
    RsBvh8Walk w;
    rs_bvh8_walk_begin(s, &w, o, d, tmax, skip);
    while (!rs_bvh8_walk_step(s, &w, stack, any)) {
    }
    *hit = w.hit;
    return hit->prim != RS_NO_HIT;
}

RS_FN int rs_bvh8_closest(const RsBvh8View* s, RsVec3 o, RsVec3 d, float tmax, uint32_t skip, RsHit* hit,
                          RsTraceStack stack)
{
    return rs_bvh8_traverse(s, o, d, tmax, skip, 0, hit, stack);
}

RS_FN int rs_bvh8_any(const RsBvh8View* s, RsVec3 o, RsVec3 d, float tmax, uint32_t skip, RsTraceStack stack)
{
    RsHit hit;
    return rs_bvh8_traverse(s, o, d, tmax, skip, 1, &hit, stack);
}

#endif /* RS_KERNEL_ACCEL_BVH8_H */
