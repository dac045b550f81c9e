/* bvh2_build.c - the binary BVH of src/kernel/accel/bvh2.h, and bvh8's camera tree. Host C11.
 *
 * The binary SAH tree of bvh_binary.h with leaves of up to RS_BVH2_MAX_LEAF primitives (the SAH
 * decides below that), flattened into two-wide nodes: interior nodes numbered depth-first from
 * the root, each holding both children's boxes; leaves live inside their parent as a range of
 * trace primitives. SAH cost: node visits (cost 1 each) plus primitive tests per ray, over the
 * root's area.
 *
 * bvh8 builds its binary tree down to single primitives and keeps it, flattened the same way,
 * as the tree camera rays walk (kernel/accel/accel.h, RsAccelView.camera_tree). There a subtree
 * of up to RS_BVH2_MAX_LEAF references becomes one leaf where the SAH prefers it: one box test
 * for a few triangles instead of a node per triangle.
 */
#include <stdint.h>
#include <stdlib.h>

#include "host/accel/accel_build.h"
#include "host/accel/bvh_binary.h"
#include "host/util/array.h"

#define RS_BVH2_MAX_LEAF 8

/* A node as the flat tree sees it: a leaf (count > 0: references first..first+count) or
 * interior. */
typedef struct FlatLeaf {
    uint32_t first, count;
} FlatLeaf;

/* A child reference: the first primitive of a leaf, or the flat index of an interior node. */
static uint32_t child_ref(const FlatLeaf* leaf, const uint32_t* flat, uint32_t index)
{
    return leaf[index].count ? leaf[index].first : flat[index];
}

static RsBvh2Node flat_node(const RsBinaryNode* l, uint32_t l_ref, uint32_t l_count, const RsBinaryNode* r,
                            uint32_t r_ref, uint32_t r_count)
{
    RsBvh2Node n;
    n.lo_left = rs_pack(l->lo, rs_uint_as_float(l_ref));
    n.hi_left = rs_pack(l->hi, rs_uint_as_float(r_ref));
    n.lo_right = rs_pack(r->lo, rs_uint_as_float(l_count));
    n.hi_right = rs_pack(r->hi, rs_uint_as_float(r_count));
    return n;
}

/* Which nodes are leaves. With `collapse`, an interior node whose subtree holds at most
 * RS_BVH2_MAX_LEAF references, contiguous in bin->refs, becomes a leaf where testing them all
 * costs no more by the SAH (node visits 1, primitive tests 1) than walking the subtree. The
 * builder numbers children after their parent, so one backward pass sees children first. */
static void find_leaves(const RsBinaryBvh* bin, int collapse, FlatLeaf* leaf)
{
    /* (without memory for the costs nothing collapses: a deeper tree, the same hits) */
    float* cost = collapse ? malloc((size_t)bin->node_count * sizeof *cost) : NULL;
    for (uint32_t i = bin->node_count; i-- > 0;) {
        const RsBinaryNode* n = &bin->nodes[i];
        float area = rs_box_half_area(n->lo, n->hi);
        if (n->count) {
            leaf[i] = (FlatLeaf){n->first, n->count};
            if (cost)
                cost[i] = area * (float)n->count;
            continue;
        }
        leaf[i] = (FlatLeaf){0, 0};
        if (!cost)
            continue;
        cost[i] = area + cost[n->left] + cost[n->right];
        const FlatLeaf *l = &leaf[n->left], *r = &leaf[n->right];
        uint32_t refs = l->count + r->count;
        if (n->left > i && n->right > i && l->count && r->count && r->first == l->first + l->count &&
            refs <= RS_BVH2_MAX_LEAF && area * (float)refs <= cost[i]) {
            leaf[i] = (FlatLeaf){l->first, refs};
            cost[i] = area * (float)refs;
        }
    }
    free(cost);
}

int rs_bvh2_from_binary(const RsBinaryBvh* bin, const RsPrim* prims, int collapse, RsBvh2View* view,
                        uint32_t* leaf_count, RsError* err)
{
    FlatLeaf* leaf = malloc((size_t)bin->node_count * sizeof *leaf);
    uint32_t* flat = malloc((size_t)bin->node_count * sizeof *flat);
    uint32_t* stack = malloc((size_t)bin->node_count * sizeof *stack);
    if (!leaf || !flat || !stack) {
        free(leaf);
        free(flat);
        free(stack);
        return rs_error_set(err, "out of memory flattening the BVH");
    }
    find_leaves(bin, collapse, leaf);
    /* a single primitive gives a leaf root; traversal wants an interior root, so wrap the leaf
     * as both children (the repeated test is harmless) */
    int wrapped = leaf[0].count != 0;
    for (uint32_t t = 0; t < bin->node_count; ++t)
        flat[t] = UINT32_MAX; /* not reached: below a leaf */
    uint32_t interior = 0, leaves = 0, sp = 0;
    stack[sp++] = 0;
    while (sp) {
        uint32_t t = stack[--sp];
        if (leaf[t].count) {
            leaves++;
            continue;
        }
        flat[t] = interior++;
        stack[sp++] = bin->nodes[t].right;
        stack[sp++] = bin->nodes[t].left;
    }
    free(stack);
    uint32_t node_count = wrapped ? 1 : interior;
    RsBvh2Node* nodes = rs_alloc_aligned(node_count, sizeof(RsBvh2Node), 64);
    RsPrim* trace = rs_trace_prims_make(prims, bin->refs, bin->ref_count);
    if (!nodes || !trace) {
        free(nodes);
        free(trace);
        free(flat);
        free(leaf);
        return rs_error_set(err, "out of memory: %u BVH nodes", node_count);
    }
    if (wrapped) {
        nodes[0] = flat_node(&bin->nodes[0], leaf[0].first, leaf[0].count, &bin->nodes[0], leaf[0].first,
                             leaf[0].count);
    } else {
        for (uint32_t t = 0; t < bin->node_count; ++t) {
            if (leaf[t].count || flat[t] == UINT32_MAX)
                continue;
            uint32_t li = bin->nodes[t].left, ri = bin->nodes[t].right;
            nodes[flat[t]] = flat_node(&bin->nodes[li], child_ref(leaf, flat, li), leaf[li].count, &bin->nodes[ri],
                                       child_ref(leaf, flat, ri), leaf[ri].count);
        }
    }
    view->nodes = nodes;
    view->prims = trace;
    view->node_count = node_count;
    view->prim_count = bin->ref_count;
    *leaf_count = wrapped ? 1 : leaves;
    free(flat);
    free(leaf);
    return 0;
}

int rs_accel_bvh2_build(const RsPrim* prims, uint32_t count, const RsAccelOptions* opt, RsAccel* out, RsError* err)
{
    RsBinaryOptions bo = {RS_BVH2_MAX_LEAF, 1, opt->bins ? opt->bins : RS_ACCEL_DEFAULT_BINS, opt->spatial_splits,
                          1.0f, opt->pool};
    RsBinaryBvh bin;
    if (rs_binary_bvh_build(prims, count, &bo, &bin, err))
        return -1;
    uint32_t leaves = 0;
    if (rs_bvh2_from_binary(&bin, prims, 0, &out->view.bvh2, &leaves, err)) {
        rs_binary_bvh_free(&bin);
        return -1;
    }
    uint32_t node_count = out->view.bvh2.node_count;
    out->owned[0] = (void*)out->view.bvh2.nodes;
    out->owned[1] = (void*)out->view.bvh2.prims;
    out->stats.sah_cost = rs_binary_bvh_sah(&bin, 1.0f);
    out->stats.nodes = node_count;
    out->stats.leaves = leaves;
    out->stats.depth = bin.depth;
    out->stats.spatial_splits = bin.spatial_splits_made;
    out->stats.references = bin.ref_count;
    out->stats.bytes = (uint64_t)node_count * sizeof(RsBvh2Node) + (uint64_t)bin.ref_count * sizeof(RsPrim);
    rs_binary_bvh_free(&bin);
    return 0;
}
