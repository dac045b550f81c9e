/* bvh2_build.c - the binary BVH of src/kernel/accel/bvh2.h. Host C11.
 *
 * The binary SAH tree of bvh_binary.h with leaves of up to RS_BVH2_MAX_LEAF primitives (the SAH
 * decides below that), flattened into two-wide nodes: interior nodes numbered depth-first from
 * the root, each holding both children's boxes; leaves live inside their parent as a range of
 * trace primitives. SAH cost: node visits (cost 1 each) plus primitive tests per ray, over the
 * root's area.
 */
#include <stdlib.h>

#include "host/accel/accel_build.h"
#include "host/accel/bvh_binary.h"
#include "host/util/array.h"

#define RS_BVH2_MAX_LEAF 8

/* A child reference: the first primitive of a leaf, or the flat index of an interior node. */
static uint32_t child_ref(const RsBinaryNode* child, const uint32_t* flat, uint32_t index)
{
    return child->count ? child->first : flat[index];
}

static RsBvh2Node flat_node(const RsBinaryNode* l, uint32_t l_ref, const RsBinaryNode* r, uint32_t r_ref)
{
    RsBvh2Node n;
    n.lo_left = rs_pack(l->lo, rs_uint_as_float(l_ref));
    n.hi_left = rs_pack(l->hi, rs_uint_as_float(r_ref));
    n.lo_right = rs_pack(r->lo, rs_uint_as_float(l->count));
    n.hi_right = rs_pack(r->hi, rs_uint_as_float(r->count));
    return n;
}

int rs_accel_bvh2_build(const RsPrim* prims, uint32_t count, const RsAccelOptions* opt, RsAccel* out, RsError* err)
{
    RsBinaryOptions bo = {RS_BVH2_MAX_LEAF, 1, opt->bins ? opt->bins : RS_ACCEL_DEFAULT_BINS, opt->spatial_splits,
                          1.0f, opt->pool};
    RsBinaryBvh bin;
    if (rs_binary_bvh_build(prims, count, &bo, &bin, err))
        return -1;
    /* a single primitive gives a leaf root; traversal wants an interior root, so wrap the leaf
     * as both children (the repeated test is harmless) */
    int wrapped = bin.nodes[0].count != 0;
    uint32_t* flat = malloc((size_t)bin.node_count * sizeof *flat);
    uint32_t* stack = malloc((size_t)bin.node_count * sizeof *stack);
    if (!flat || !stack) {
        free(flat);
        free(stack);
        rs_binary_bvh_free(&bin);
        return rs_error_set(err, "out of memory flattening the BVH");
    }
    uint32_t interior = 0, leaves = 0, sp = 0;
    stack[sp++] = 0;
    while (sp) {
        uint32_t t = stack[--sp];
        if (bin.nodes[t].count) {
            leaves++;
            continue;
        }
        flat[t] = interior++;
        stack[sp++] = bin.nodes[t].right;
        stack[sp++] = bin.nodes[t].left;
    }
    free(stack);
    uint32_t node_count = wrapped ? 1 : interior;
    RsBvh2Node* nodes = rs_alloc_aligned(node_count, sizeof(RsBvh2Node), 64);
    RsPrim* trace = rs_trace_prims_make(prims, bin.refs, bin.ref_count);
    if (!nodes || !trace) {
        free(nodes);
        free(trace);
        free(flat);
        rs_binary_bvh_free(&bin);
        return rs_error_set(err, "out of memory: %u BVH nodes", node_count);
    }
    if (wrapped) {
        nodes[0] = flat_node(&bin.nodes[0], bin.nodes[0].first, &bin.nodes[0], bin.nodes[0].first);
    } else {
        for (uint32_t t = 0; t < bin.node_count; ++t) {
            if (bin.nodes[t].count)
                continue;
            uint32_t li = bin.nodes[t].left, ri = bin.nodes[t].right;
            nodes[flat[t]] = flat_node(&bin.nodes[li], child_ref(&bin.nodes[li], flat, li), &bin.nodes[ri],
                                       child_ref(&bin.nodes[ri], flat, ri));
        }
    }
    out->view.bvh2.nodes = nodes;
    out->view.bvh2.prims = trace;
    out->view.bvh2.node_count = node_count;
    out->view.bvh2.prim_count = bin.ref_count;
    out->owned[0] = nodes;
    out->owned[1] = trace;
    out->stats.sah_cost = rs_binary_bvh_sah(&bin, 1.0f);
    out->stats.nodes = node_count;
    out->stats.leaves = wrapped ? 1 : leaves;
    out->stats.depth = bin.depth;
    out->stats.spatial_splits = bin.spatial_splits_made;
    out->stats.references = bin.ref_count;
    out->stats.bytes = (uint64_t)node_count * sizeof(RsBvh2Node) + (uint64_t)bin.ref_count * sizeof(RsPrim);
    free(flat);
    rs_binary_bvh_free(&bin);
    return 0;
}
