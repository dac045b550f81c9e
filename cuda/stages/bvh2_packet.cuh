/* bvh2_packet.cuh - closest hit through a bvh2 (bvh8's camera tree) by whole warps: the 32
 * lanes walk one node sequence together, each testing its own ray against every node the warp
 * visits (Günther, Popov, Seidel and Slusallek, "Realtime Ray Tracing on GPU with BVH-based
 * Packet Traversal", 2007, with the packet as the warp, and its stack in the lanes' registers).
 *
 * Why: camera rays from an 8x4-pixel tile (film/pixel_order.h) enter nearly the same nodes.
 * Walked one ray per thread, the lanes still take their branches apart, each keeps its own
 * stack in local memory, and a node's load is repeated per diverged group. Walked as a packet,
 * every decision is a ballot, so the warp never diverges in the walk: one node load per visit,
 * one stack shared by the lanes, and a leaf is tested by the lanes whose box test
 * reached it. The price is that a lane also tests the boxes of nodes only its neighbours need.
 *
 * Order: where lanes reached both children, the warp goes first to the child more of them
 * reach first, and pushes the other; popped nodes are tested against each lane's nearest hit
 * so far. The hit is the nearest, as in the per-ray walk (bvh2.h); where two primitives tie
 * at one distance (a shared edge) the two walks may report different ones.
 *
 * Every lane of the warp must call it (RS_FULL_WARP ballots): a lane without a ray passes
 * live = false. Device-only header (nvcc). */
#ifndef RS_CUDA_BVH2_PACKET_CUH
#define RS_CUDA_BVH2_PACKET_CUH

#include "cuda/deadray/live_set.cuh"
#include "kernel/accel/bvh2.h"

/* Tests the leaf's primitives for the lanes whose box test reached it (`reached`), if any. */
__device__ __forceinline__ void rs_bvh2_packet_leaf(const RsBvh2View& s, uint32_t first, uint32_t count, bool reached,
                                                    RsVec3 o, RsVec3 d, uint32_t skip, RsHit* hit)
{
    if (!__any_sync(RS_FULL_WARP, reached))
        return;
    for (uint32_t i = first; i < first + count; ++i)
        if (reached)
            rs_hit_prim(&s.prims[i], o, d, skip, s.cutouts, hit);
}

__device__ __forceinline__ void rs_bvh2_packet_closest(const RsBvh2View& s, RsVec3 o, RsVec3 d, float tmax,
                                                       uint32_t skip, bool live, RsHit* hit)
{
    rs_hit_init(hit, tmax);
    if (s.node_count == 0)
        return;
    RsVec3 inv_d = rs_safe_inverse(d);
    RsVec3 o_inv = rs_mul(o, inv_d);
    /* The warp's stack, spread over the lanes: entry k lives in lane k % 32, register k / 32.
     * A push is one lane's move, a pop one shuffle; nothing goes to local memory. */
    RS_STATIC_ASSERT(RS_BVH2_MAX_DEPTH <= 64, "two stack registers per lane");
    const uint32_t lane = threadIdx.x & 31u;
    uint32_t stack_lo = 0, stack_hi = 0;
    uint32_t sp = 0;
    uint32_t node = 0;
    for (;;) {
        RsBvh2Node n = rs_bvh2_load_node(&s.nodes[node]);
        float t_l, t_r;
        bool hit_l = live && rs_intersect_box(n.lo_left, n.hi_left, inv_d, o_inv, 0.0f, hit->t, &t_l);
        bool hit_r = live && rs_intersect_box(n.lo_right, n.hi_right, inv_d, o_inv, 0.0f, hit->t, &t_r);
        uint32_t ref_l = rs_float_as_uint(n.lo_left.w), ref_r = rs_float_as_uint(n.hi_left.w);
        uint32_t count_l = rs_float_as_uint(n.lo_right.w), count_r = rs_float_as_uint(n.hi_right.w);
        if (count_l != 0) { /* uniform: the node is the warp's */
            rs_bvh2_packet_leaf(s, ref_l, count_l, hit_l, o, d, skip, hit);
            hit_l = false;
        }
        if (count_r != 0) {
            rs_bvh2_packet_leaf(s, ref_r, count_r, hit_r, o, d, skip, hit);
            hit_r = false;
        }
        uint32_t lanes_l = __ballot_sync(RS_FULL_WARP, hit_l), lanes_r = __ballot_sync(RS_FULL_WARP, hit_r);
        if (lanes_l && lanes_r) {
            uint32_t first_l = __ballot_sync(RS_FULL_WARP, hit_l && (!hit_r || t_l <= t_r));
            bool left_first = __popc(first_l) * 2 >= __popc(lanes_l | lanes_r);
            uint32_t far = left_first ? ref_r : ref_l;
            if (lane == (sp & 31u)) {
                if (sp < 32u)
                    stack_lo = far;
                else
                    stack_hi = far;
            }
            ++sp;
            node = left_first ? ref_l : ref_r;
        } else if (lanes_l) {
            node = ref_l;
        } else if (lanes_r) {
            node = ref_r;
        } else {
            if (sp == 0)
                break;
            --sp;
            node = __shfl_sync(RS_FULL_WARP, sp < 32u ? stack_lo : stack_hi, sp & 31u);
        }
    }
}

#endif /* RS_CUDA_BVH2_PACKET_CUH */
