/* bvh_build.c - binned SAH construction (Wald, "On fast Construction of SAH-based Bounding
 * Volume Hierarchies", 2007) and flattening into two-wide nodes. Host C11.
 *
 * Each split bins primitive centroids into RS_SAH_BINS buckets per axis and picks the bucket
 * boundary of least surface-area cost, cost = C_trav + sum_child(area_child / area_node *
 * prims_child) with C_trav = 1 and one unit per primitive test. A node becomes a leaf when that
 * beats every split and it holds at most RS_SAH_MAX_LEAF primitives; bigger sets are always
 * split (by object median when all centroids coincide). Depth is capped below
 * RS_BVH_MAX_DEPTH so the traversal stack in bvh_traverse.h cannot overflow.
 */
#include "bvh_build.h"

#include <float.h>
#include <stdlib.h>

#include "../kernel/bvh_traverse.h"
#include "array.h"

#define RS_SAH_BINS 32
#define RS_SAH_MAX_LEAF 8
#define RS_SAH_TRAVERSAL_COST 1.0f
/* deepest level at which a node may still be split; children land one deeper */
#define RS_SAH_SPLIT_DEPTH_LIMIT (RS_BVH_MAX_DEPTH - 2)

typedef struct Box {
    RsVec3 lo, hi;
} Box;

typedef struct TmpNode {
    Box box;
    uint32_t first, count; /* leaf range in the order array (count 0 for interior) */
    int32_t left, right;   /* children (interior only) */
} TmpNode;

typedef struct Builder {
    const Box* prim_boxes;
    const RsVec3* centroids;
    uint32_t* order;
    TmpNode* nodes;
    uint32_t node_count, node_capacity;
    uint32_t max_depth;
    RsError* err;
} Builder;

static Box box_empty(void)
{
    Box b = {rs_vec3_splat(FLT_MAX), rs_vec3_splat(-FLT_MAX)};
    return b;
}

static void box_grow(Box* b, Box o)
{
    b->lo = rs_vmin(b->lo, o.lo);
    b->hi = rs_vmax(b->hi, o.hi);
}

static void box_grow_point(Box* b, RsVec3 p)
{
    b->lo = rs_vmin(b->lo, p);
    b->hi = rs_vmax(b->hi, p);
}

static float box_half_area(Box b)
{
    RsVec3 d = rs_sub(b.hi, b.lo);
    if (d.x < 0.0f || d.y < 0.0f || d.z < 0.0f)
        return 0.0f;
    return d.x * d.y + d.y * d.z + d.z * d.x;
}

void rs_prim_bounds(const RsPrim* p, RsVec3* lo, RsVec3* hi)
{
    if (rs_prim_type(p) == RS_PRIM_SPHERE) {
        RsVec3 c = rs_xyz(p->a), r = rs_vec3_splat(p->b.x);
        *lo = rs_sub(c, r);
        *hi = rs_add(c, r);
        return;
    }
    RsVec3 v0 = rs_xyz(p->a), v1 = rs_add(v0, rs_xyz(p->b)), v2 = rs_add(v0, rs_xyz(p->c));
    *lo = rs_vmin(v0, rs_vmin(v1, v2));
    *hi = rs_vmax(v0, rs_vmax(v1, v2));
}

static int32_t new_node(Builder* b)
{
    if (b->node_count == b->node_capacity) {
        uint32_t cap = b->node_capacity ? b->node_capacity * 2 : 256;
        TmpNode* grown = realloc(b->nodes, (size_t)cap * sizeof *grown);
        if (!grown) {
            rs_error_set(b->err, "out of memory building the BVH (%u nodes)", cap);
            return -1;
        }
        b->nodes = grown;
        b->node_capacity = cap;
    }
    return (int32_t)b->node_count++;
}

typedef struct Split {
    int axis;      /* -1: none found */
    int bin;       /* primitives in bins [0, bin] go left */
    float cost;    /* sum of area * count over both children */
} Split;

static Split find_split(const Builder* b, uint32_t first, uint32_t count, Box centroid_box)
{
    Split best = {-1, 0, FLT_MAX};
    for (int axis = 0; axis < 3; ++axis) {
        float lo = rs_vec3_get(centroid_box.lo, axis), hi = rs_vec3_get(centroid_box.hi, axis);
        if (!(hi > lo))
            continue;
        float scale = (float)RS_SAH_BINS / (hi - lo);
        Box bin_box[RS_SAH_BINS];
        uint32_t bin_count[RS_SAH_BINS] = {0};
        for (int i = 0; i < RS_SAH_BINS; ++i)
            bin_box[i] = box_empty();
        for (uint32_t i = first; i < first + count; ++i) {
            uint32_t p = b->order[i];
            int bin = (int)((rs_vec3_get(b->centroids[p], axis) - lo) * scale);
            bin = bin < 0 ? 0 : (bin >= RS_SAH_BINS ? RS_SAH_BINS - 1 : bin);
            bin_count[bin]++;
            box_grow(&bin_box[bin], b->prim_boxes[p]);
        }
        /* sweep from the right to get the right-hand cost of every boundary */
        float right_cost[RS_SAH_BINS];
        Box acc = box_empty();
        uint32_t n = 0;
        for (int i = RS_SAH_BINS - 1; i > 0; --i) {
            box_grow(&acc, bin_box[i]);
            n += bin_count[i];
            right_cost[i - 1] = n ? box_half_area(acc) * (float)n : 0.0f;
        }
        acc = box_empty();
        n = 0;
        for (int i = 0; i < RS_SAH_BINS - 1; ++i) {
            box_grow(&acc, bin_box[i]);
            n += bin_count[i];
            if (n == 0 || n == count)
                continue;
            float cost = box_half_area(acc) * (float)n + right_cost[i];
            if (cost < best.cost) {
                best.axis = axis;
                best.bin = i;
                best.cost = cost;
            }
        }
    }
    return best;
}

/* Partitions order[first, first+count) by the split; returns the size of the left part. */
static uint32_t partition(Builder* b, uint32_t first, uint32_t count, Split s, Box centroid_box)
{
    float lo = rs_vec3_get(centroid_box.lo, s.axis), hi = rs_vec3_get(centroid_box.hi, s.axis);
    float scale = (float)RS_SAH_BINS / (hi - lo);
    uint32_t i = first, j = first + count;
    while (i < j) {
        uint32_t p = b->order[i];
        int bin = (int)((rs_vec3_get(b->centroids[p], s.axis) - lo) * scale);
        bin = bin < 0 ? 0 : (bin >= RS_SAH_BINS ? RS_SAH_BINS - 1 : bin);
        if (bin <= s.bin) {
            ++i;
        } else {
            --j;
            b->order[i] = b->order[j];
            b->order[j] = p;
        }
    }
    return i - first;
}

static int32_t build(Builder* b, uint32_t first, uint32_t count, uint32_t depth)
{
    int32_t index = new_node(b);
    if (index < 0)
        return -1;
    Box box = box_empty(), centroid_box = box_empty();
    for (uint32_t i = first; i < first + count; ++i) {
        box_grow(&box, b->prim_boxes[b->order[i]]);
        box_grow_point(&centroid_box, b->centroids[b->order[i]]);
    }
    if (depth > b->max_depth)
        b->max_depth = depth;

    int is_root = depth == 0;
    uint32_t left_count = 0;
    if (count > 1 && depth < RS_SAH_SPLIT_DEPTH_LIMIT) {
        Split s = find_split(b, first, count, centroid_box);
        float leaf_cost = (float)count;
        float split_cost = RS_SAH_TRAVERSAL_COST + (s.axis >= 0 ? s.cost / box_half_area(box) : FLT_MAX);
        int want_split = is_root || count > RS_SAH_MAX_LEAF || split_cost < leaf_cost;
        if (want_split) {
            if (s.axis >= 0)
                left_count = partition(b, first, count, s, centroid_box);
            if (left_count == 0 || left_count == count)
                left_count = count / 2; /* coincident centroids: object median keeps leaves small */
        }
    }

    TmpNode* node = &b->nodes[index];
    node->box = box;
    if (left_count == 0) {
        node->first = first;
        node->count = count;
        node->left = node->right = -1;
        return index;
    }
    int32_t left = build(b, first, left_count, depth + 1);
    if (left < 0)
        return -1;
    int32_t right = build(b, first + left_count, count - left_count, depth + 1);
    if (right < 0)
        return -1;
    node = &b->nodes[index]; /* the array may have moved */
    node->first = 0;
    node->count = 0;
    node->left = left;
    node->right = right;
    return index;
}

/* A child reference: the first primitive of a leaf, or the flat index of an interior node. */
static uint32_t child_ref(const TmpNode* child, const uint32_t* flat_of_tmp, int32_t tmp_index)
{
    return child->count ? child->first : flat_of_tmp[tmp_index];
}

static RsBvhNode flat_node(const TmpNode* l, uint32_t l_ref, const TmpNode* r, uint32_t r_ref)
{
    RsBvhNode n;
    n.lo_left = rs_pack(l->box.lo, rs_uint_as_float(l_ref));
    n.hi_left = rs_pack(l->box.hi, rs_uint_as_float(r_ref));
    n.lo_right = rs_pack(r->box.lo, rs_uint_as_float(l->count));
    n.hi_right = rs_pack(r->box.hi, rs_uint_as_float(r->count));
    return n;
}

int rs_bvh_build(const RsPrim* prims, uint32_t count, RsBvh* out, RsError* err)
{
    RsBvh result = {0};
    *out = result;
    if (count == 0)
        return 0;
    Builder b = {0};
    b.err = err;
    Box* boxes = malloc((size_t)count * sizeof *boxes);
    RsVec3* centroids = malloc((size_t)count * sizeof *centroids);
    b.order = malloc((size_t)count * sizeof *b.order);
    uint32_t* flat_of_tmp = NULL;
    int status = -1;
    if (!boxes || !centroids || !b.order) {
        rs_error_set(err, "out of memory building the BVH over %u primitives", count);
        goto done;
    }
    for (uint32_t i = 0; i < count; ++i) {
        rs_prim_bounds(&prims[i], &boxes[i].lo, &boxes[i].hi);
        centroids[i] = rs_scale(rs_add(boxes[i].lo, boxes[i].hi), 0.5f);
        b.order[i] = i;
    }
    b.prim_boxes = boxes;
    b.centroids = centroids;
    if (build(&b, 0, count, 0) < 0)
        goto done;

    /* A single primitive gives a leaf root; traversal wants an interior root, so wrap it with
     * the same leaf on both sides (the duplicate test is harmless). */
    if (b.nodes[0].count != 0) {
        TmpNode leaf = b.nodes[0];
        int32_t l = new_node(&b), r = new_node(&b);
        if (l < 0 || r < 0)
            goto done;
        b.nodes[l] = leaf;
        b.nodes[r] = leaf;
        b.nodes[0].count = 0;
        b.nodes[0].left = l;
        b.nodes[0].right = r;
    }

    /* Interior nodes get flat indices in depth-first order, root first. */
    flat_of_tmp = malloc((size_t)b.node_count * sizeof *flat_of_tmp);
    uint32_t* stack = malloc((size_t)b.node_count * sizeof *stack);
    if (!flat_of_tmp || !stack) {
        free(stack);
        rs_error_set(err, "out of memory flattening the BVH");
        goto done;
    }
    uint32_t interior = 0, leaves = 0, sp = 0;
    stack[sp++] = 0;
    while (sp) {
        uint32_t t = stack[--sp];
        if (b.nodes[t].count) {
            leaves++;
            continue;
        }
        flat_of_tmp[t] = interior++;
        stack[sp++] = (uint32_t)b.nodes[t].right;
        stack[sp++] = (uint32_t)b.nodes[t].left;
    }
    free(stack);
    result.nodes = rs_alloc_aligned(interior, sizeof(RsBvhNode), 64);
    if (!result.nodes) {
        rs_error_set(err, "out of memory: %u BVH nodes", interior);
        goto done;
    }
    for (uint32_t t = 0; t < b.node_count; ++t) {
        if (b.nodes[t].count)
            continue;
        int32_t li = b.nodes[t].left, ri = b.nodes[t].right;
        result.nodes[flat_of_tmp[t]] = flat_node(&b.nodes[li], child_ref(&b.nodes[li], flat_of_tmp, li),
                                                 &b.nodes[ri], child_ref(&b.nodes[ri], flat_of_tmp, ri));
    }
    result.node_count = interior;
    result.leaf_count = leaves;
    result.depth = b.max_depth;
    result.prim_order = b.order;
    b.order = NULL;
    *out = result;
    status = 0;
done:
    free(flat_of_tmp);
    free(boxes);
    free(centroids);
    free(b.order);
    free(b.nodes);
    return status;
}

void rs_bvh_free(RsBvh* bvh)
{
    free(bvh->nodes);
    free(bvh->prim_order);
    bvh->nodes = NULL;
    bvh->prim_order = NULL;
    bvh->node_count = bvh->leaf_count = 0;
}
