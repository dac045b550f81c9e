/* warp_prims.cuh - a warp tests the leaf primitives of all its lanes' walks together.
 *
 * A bvh8 node visit hands each lane a group of up to 24 leaf primitives (bvh8.h). Tested by
 * each lane on its own, the loop runs as long as the warp's largest group while most lanes
 * wait: on an H100 with Sponza the primitive tests of bounce rays ran with 6 of 32 lanes busy,
 * and were 38% of the instructions the persistent kernel issued (ncu, source counters). Here
 * the warp lays the (lane, primitive) pairs of all groups out in a row, 32 per round, and every
 * lane tests one pair against its owner's ray (fetched by shuffles); the owner then walks the
 * hits among its pairs in its own order, keeping the first nearest, and that gives exactly
 * what the lane's own loop would have: a test accepts t below the owner's nearest hit when the
 * round began, and the owner's strict minimum over the hits among its pairs, in order, picks
 * the same hit as testing them one by one. So every hit is bit-identical to the per-thread walk's
 * (rs_bvh8_traverse; tests/gpu/test_gpu_accel.c checks it).
 * When the rounds would not be fewer than the longest group's tests, the lanes test their own
 * groups as before (rs_bvh8_walk_test_prims).
 * Device-only header (nvcc).
 */
#ifndef RS_CUDA_WARP_PRIMS_CUH
#define RS_CUDA_WARP_PRIMS_CUH

#include "cuda/deadray/live_set.cuh"
#include "kernel/accel/bvh8.h"

/* The warp shares when rounds * RS_WARP_PRIMS_ROUND_COST < the longest group: a round costs about
 * this many lone tests in layout, shuffles and the owners' walk over the results. */
#ifndef RS_WARP_PRIMS_ROUND_COST
#define RS_WARP_PRIMS_ROUND_COST 2
#endif
/* The same for any-hit walks, whose owners need no pass over the results. */
#ifndef RS_WARP_PRIMS_ANY_ROUND_COST
#define RS_WARP_PRIMS_ANY_ROUND_COST 2
#endif

/* A warp's scratch space in shared memory: one round's pairs and their results. */
typedef struct RsWarpPrims {
    uint32_t pair[32];   /* owner lane | primitive bit << 5 */
    float4 result[32];   /* a pair that hit: t, u, v, scene primitive index */
} RsWarpPrims;

/* Tests the primitive groups of the warp's walks (w->prim_hits; 0 where a lane has none or no
 * walk). Every lane of the warp calls it, converged. Returns 1 in a lane whose any-hit walk (Any)
 * hit something. */
template <int Any>
__device__ __forceinline__ int rs_warp_test_prims(const RsBvh8View& view, RsBvh8Walk* w, RsWarpPrims* scratch)
{
    const uint32_t lane = threadIdx.x & 31u;
    const uint32_t count = (uint32_t)__popc(w->prim_hits);
    const uint32_t longest = __reduce_max_sync(RS_FULL_WARP, count);
    if (longest == 0)
        return 0;
    const uint32_t total = __reduce_add_sync(RS_FULL_WARP, count);
    const uint32_t rounds = (total + 31u) >> 5;
    if (rounds * (Any ? RS_WARP_PRIMS_ANY_ROUND_COST : RS_WARP_PRIMS_ROUND_COST) >= longest)
        return rs_bvh8_walk_test_prims(&view, w, Any);

    /* where this lane's pairs start in the row: an exclusive prefix sum of the counts */
    uint32_t end = count;
    for (uint32_t offset = 1; offset < 32u; offset <<= 1) {
        uint32_t below = __shfl_up_sync(RS_FULL_WARP, end, offset);
        if (lane >= offset)
            end += below;
    }
    const uint32_t start = end - count; /* row positions start .. end - 1 are this lane's pairs */
    uint32_t next = start;              /* the next of them to lay out */
    uint32_t left = w->prim_hits;
    w->prim_hits = 0;
    const float missed = __int_as_float(0x7f800000); /* +inf */
    for (uint32_t first = 0; first < total; first += 32u) {
        /* lay out this round's pairs: positions first .. first + 31 */
        while (left && next < first + 32u) {
            uint32_t k = rs_lowest_bit(left);
            left &= left - 1u;
            scratch->pair[next - first] = lane | (k << 5);
            ++next;
        }
        __syncwarp();
        /* test the pair at position first + lane against its owner's ray */
        const bool has = first + lane < total;
        const uint32_t pair = has ? scratch->pair[lane] : 0u;
        const uint32_t owner = pair & 31u;
        RsVec3 o, d;
        o.x = __shfl_sync(RS_FULL_WARP, w->ray.o.x, owner);
        o.y = __shfl_sync(RS_FULL_WARP, w->ray.o.y, owner);
        o.z = __shfl_sync(RS_FULL_WARP, w->ray.o.z, owner);
        d.x = __shfl_sync(RS_FULL_WARP, w->ray.d.x, owner);
        d.y = __shfl_sync(RS_FULL_WARP, w->ray.d.y, owner);
        d.z = __shfl_sync(RS_FULL_WARP, w->ray.d.z, owner);
        const uint32_t skip = __shfl_sync(RS_FULL_WARP, w->skip, owner);
        const uint32_t base = __shfl_sync(RS_FULL_WARP, w->prim_base, owner);
        RsHit hit;
        rs_hit_init(&hit, __shfl_sync(RS_FULL_WARP, w->hit.t, owner));
        float4 r = make_float4(missed, 0.0f, 0.0f, 0.0f);
        if (has && rs_hit_prim(&view.prims[base + (pair >> 5)], o, d, skip, view.cutouts, &hit))
            r = make_float4(hit.t, hit.u, hit.v, __uint_as_float(hit.prim));
        /* this lane's pairs in this round, as lane bits; and those that hit */
        const uint32_t lo = start > first ? start : first;
        const uint32_t hi = end < first + 32u ? end : first + 32u;
        const uint32_t hit_lanes = __ballot_sync(RS_FULL_WARP, r.x != missed);
        uint32_t mine = lo < hi ? hit_lanes & (0xffffffffu >> (32u - (hi - lo))) << (lo - first) : 0u;
        if (Any) {
            /* an any-hit walk takes the first of its pairs that hit, as its own loop would (which
             * stops there): shuffles, no pass over the results */
            uint32_t from = mine ? rs_lowest_bit(mine) : lane;
            float4 h = make_float4(__shfl_sync(RS_FULL_WARP, r.x, from), __shfl_sync(RS_FULL_WARP, r.y, from),
                                   __shfl_sync(RS_FULL_WARP, r.z, from), __shfl_sync(RS_FULL_WARP, r.w, from));
            if (mine && w->hit.prim == RS_NO_HIT) {
                w->hit.t = h.x;
                w->hit.u = h.y;
                w->hit.v = h.z;
                w->hit.prim = __float_as_uint(h.w);
            }
            __syncwarp(); /* every lane read its pair before the next round lays out more */
            continue;
        }
        /* the owner walks the hits among its pairs in its own order, keeping the first nearest */
        if (r.x != missed)
            scratch->result[lane] = r;
        __syncwarp();
        while (mine) {
            float4 h = scratch->result[rs_lowest_bit(mine)];
            mine &= mine - 1u;
            if (h.x < w->hit.t) {
                w->hit.t = h.x;
                w->hit.u = h.y;
                w->hit.v = h.z;
                w->hit.prim = __float_as_uint(h.w);
            }
        }
        __syncwarp();
    }
    return Any && count && w->hit.prim != RS_NO_HIT;
}

#endif /* RS_CUDA_WARP_PRIMS_CUH */
