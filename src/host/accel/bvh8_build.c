/* bvh8_build.c - the compressed 8-wide BVH of src/kernel/accel/bvh8.h. Host C11.
 *
 * Ylitie, Karras and Laine (HPG 2017), section 3:
 * 1. A binary SAH tree split down to single primitives (bvh_binary.h).
 * 2. Their dynamic program decides, bottom-up, how to cover each binary subtree n with at most
 *    j slots of a wide node (j = 1..8), at least SAH cost:
 *      one slot:   C(n) = min(leaf: A(n) P(n) C_PRIM if P(n) <= 3,
 *                             interior: A(n) C_NODE + min_k D(left, k) + D(right, 8 - k))
 *      j slots:    D(n, j) = min(D(n, j - 1), min_k D(left, k) + D(right, j - k)),  D(n, 1) = C(n)
 *    with areas relative to the root, C_NODE = 1 and C_PRIM = 0.3 as in the paper. The sum of
 *    the chosen terms, over the root's area, is the tree's SAH cost that `info` reports.
 * 3. Top-down, each wide node gathers its slots by following those decisions, puts them in
 *    slots by direction (slot s gets the child lying farthest towards the octant s names,
 *    greedily by that score), and stores the child boxes in 8 bits per coordinate relative to
 *    a power-of-two grid over the node's box (starting one step below it), rounded outwards and,
 *    where that left less than half a step, widened by one more step: the margin covers the
 *    rounding of the box test's planes (src/kernel/accel/bvh8.h, rs_bvh8_plane). Interior
 *    children are numbered breadth-first and consecutively per node; leaf primitives are copied
 *    consecutively.
 * A binary leaf of more than 3 primitives (only where the binary builder's depth limit forced
 * one) becomes a wide node whose slots hold 3 primitives each.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host/accel/accel_build.h"
#include "host/accel/bvh_binary.h"
#include "host/util/array.h"

#define WIDTH 8
#define LEAF_MAX 3
#define C_NODE 1.0f
#define C_PRIM 0.3f

typedef struct Plan {
    float d[WIDTH];   /* d[j - 1] = D(n, j) */
    uint8_t k[WIDTH]; /* k[j - 1]: slots the left child gets in D(n, j); 0 = fewer slots do as well */
    uint8_t split8;   /* slots the left child gets when n is a wide node */
    uint8_t as_leaf;  /* C(n) is the leaf option */
    uint32_t prims;   /* references in the subtree */
} Plan;

typedef enum { SLOT_LEAF, SLOT_NODE, SLOT_CHUNK } SlotKind;

typedef struct Slot {
    SlotKind kind;
    uint32_t bin;           /* binary node (SLOT_LEAF, SLOT_NODE) or big leaf (SLOT_CHUNK) */
    uint32_t first, count;  /* SLOT_CHUNK: its references */
    RsVec3 lo, hi;
} Slot;

typedef struct Pending {
    uint32_t bin;   /* binary node the wide node stands for */
    uint32_t depth;
} Pending;

static float rel_area(const RsBinaryNode* n, float root) { return rs_box_half_area(n->lo, n->hi) / root; }

static void make_plans(const RsBinaryBvh* bin, Plan* plans)
{
    float root = rs_box_half_area(bin->nodes[0].lo, bin->nodes[0].hi);
    if (!(root > 0.0f))
        root = 1.0f;
    for (uint32_t i = bin->node_count; i-- > 0;) {
        const RsBinaryNode* n = &bin->nodes[i];
        Plan* p = &plans[i];
        float a = rel_area(n, root);
        memset(p->k, 0, sizeof p->k);
        p->split8 = 0;
        if (n->count) {
            p->prims = n->count;
            float leaf = n->count <= LEAF_MAX ? a * (float)n->count * C_PRIM : FLT_MAX;
            float node = a * C_NODE + a * (float)n->count * C_PRIM; /* slots of 3 primitives each */
            p->as_leaf = leaf <= node;
            for (int j = 0; j < WIDTH; ++j)
                p->d[j] = p->as_leaf ? leaf : node;
            continue;
        }
        const Plan* l = &plans[n->left];
        const Plan* r = &plans[n->right];
        p->prims = l->prims + r->prims;
        float best8 = FLT_MAX;
        for (int k = 1; k < WIDTH; ++k) {
            float v = l->d[k - 1] + r->d[WIDTH - k - 1];
            if (v < best8) {
                best8 = v;
                p->split8 = (uint8_t)k;
            }
        }
        float leaf = p->prims <= LEAF_MAX ? a * (float)p->prims * C_PRIM : FLT_MAX;
        float node = a * C_NODE + best8;
        p->as_leaf = leaf <= node;
        p->d[0] = p->as_leaf ? leaf : node;
        for (int j = 2; j <= WIDTH; ++j) {
            p->d[j - 1] = p->d[j - 2];
            for (int k = 1; k < j; ++k) {
                float v = l->d[k - 1] + r->d[j - k - 1];
                if (v < p->d[j - 1]) {
                    p->d[j - 1] = v;
                    p->k[j - 1] = (uint8_t)k;
                }
            }
        }
    }
}

/* Appends the slots that cover binary subtree n with at most j slots. */
static void gather(const RsBinaryBvh* bin, const Plan* plans, uint32_t n, int j, Slot* slots, int* count)
{
    while (j > 1 && plans[n].k[j - 1] == 0)
        --j;
    if (j > 1) {
        int k = plans[n].k[j - 1];
        gather(bin, plans, bin->nodes[n].left, k, slots, count);
        gather(bin, plans, bin->nodes[n].right, j - k, slots, count);
        return;
    }
    Slot* s = &slots[(*count)++];
    s->kind = plans[n].as_leaf ? SLOT_LEAF : SLOT_NODE;
    s->bin = n;
    s->first = s->count = 0;
    s->lo = bin->nodes[n].lo;
    s->hi = bin->nodes[n].hi;
}

/* The slots of the wide node that stands for binary node n. */
static int node_slots(const RsBinaryBvh* bin, const Plan* plans, uint32_t n, Slot* slots)
{
    const RsBinaryNode* b = &bin->nodes[n];
    int count = 0;
    if (b->count) { /* a leaf root or a big leaf: chunks of LEAF_MAX references */
        uint32_t chunks = (b->count + LEAF_MAX - 1) / LEAF_MAX;
        if (chunks > WIDTH)
            return (int)chunks; /* too many for one node: the caller reports it */
        for (uint32_t f = 0; f < b->count; f += LEAF_MAX) {
            Slot* s = &slots[count++];
            s->kind = SLOT_CHUNK;
            s->bin = n;
            s->first = b->first + f;
            s->count = b->count - f < LEAF_MAX ? b->count - f : LEAF_MAX;
            s->lo = b->lo;
            s->hi = b->hi;
        }
        return count;
    }
    gather(bin, plans, b->left, plans[n].split8, slots, &count);
    gather(bin, plans, b->right, WIDTH - plans[n].split8, slots, &count);
    return count;
}

/* Copies the references of binary subtree n (at most LEAF_MAX) to out; returns how many. */
static uint32_t subtree_refs(const RsBinaryBvh* bin, uint32_t n, uint32_t* out)
{
    const RsBinaryNode* b = &bin->nodes[n];
    if (b->count) {
        memcpy(out, &bin->refs[b->first], b->count * sizeof *out);
        return b->count;
    }
    uint32_t k = subtree_refs(bin, b->left, out);
    return k + subtree_refs(bin, b->right, out + k);
}

/* Slot order by direction: order[s] = index into slots of the child placed in slot s, or -1. */
static void assign_slots(const Slot* slots, int count, RsVec3 centre, int order[WIDTH])
{
    float score[WIDTH][WIDTH];
    for (int c = 0; c < count; ++c) {
        RsVec3 d = rs_sub(rs_scale(rs_add(slots[c].lo, slots[c].hi), 0.5f), centre);
        for (int s = 0; s < WIDTH; ++s)
            score[c][s] = ((s & 1) ? -d.x : d.x) + ((s & 2) ? -d.y : d.y) + ((s & 4) ? -d.z : d.z);
    }
    int child_done[WIDTH] = {0};
    for (int s = 0; s < WIDTH; ++s)
        order[s] = -1;
    for (int round = 0; round < count; ++round) {
        int bc = -1, bs = -1;
        float best = -FLT_MAX;
        for (int c = 0; c < count; ++c) {
            if (child_done[c])
                continue;
            for (int s = 0; s < WIDTH; ++s) {
                if (order[s] < 0 && (bc < 0 || score[c][s] > best)) {
                    best = score[c][s];
                    bc = c;
                    bs = s;
                }
            }
        }
        order[bs] = bc;
        child_done[bc] = 1;
    }
}

/* Steps the node's extent may span: 255 less the margin of one step at each end that the
 * widened boxes need, less one for rounding p down. */
#define GRID_SPAN 252.0f

/* Exponent byte of the power-of-two step that spans `extent` in GRID_SPAN steps. At most 2^112,
 * so that the GPU's 2^15 steps (rs_bvh8_step) are still a float. */
static uint32_t step_exponent(float extent)
{
    int e = -126;
    if (extent > 0.0f) {
        int x;
        frexpf(extent / GRID_SPAN, &x); /* extent / span = m 2^x, 0.5 <= m < 1: 2^x is enough */
        e = x < -126 ? -126 : (x > 112 ? 112 : x);
    }
    return (uint32_t)(e + 127);
}

/* The grid origin: one step below the node's low corner, rounded down to a float. */
static float grid_origin(float lo, float step)
{
    double want = (double)lo - (double)step;
    float p = (float)want;
    return (double)p > want ? nextafterf(p, -INFINITY) : p;
}

/* Margin, in grid steps, that a quantized plane keeps beyond the exact one, for the rounding of
 * the box test (rs_bvh8_plane moves a plane by 1/512 of a step at most; the rest is room for
 * the rounding of t on rays from far away). Half a step is the least margin the test had when
 * the GPU's planes could move by half a step and every box was widened by a whole one; now a
 * plane gets the extra step only where rounding outwards left less than half of one. */
#define PLANE_MARGIN 0.5

/* x in grid steps from p, rounded outwards, and one step more if that left less than
 * PLANE_MARGIN. */
static uint8_t quantize(float x, float p, float step, int high)
{
    double q = ((double)x - (double)p) / (double)step; /* exact: step is a power of two */
    double r = high ? ceil(q) : floor(q);
    if ((high ? r - q : q - r) < PLANE_MARGIN)
        r += high ? 1.0 : -1.0;
    q = r;
    return (uint8_t)(q < 0.0 ? 0.0 : (q > 255.0 ? 255.0 : q));
}

static void put_byte(uint32_t* words, int index, uint32_t value)
{
    words[index / 4] |= (value & 0xffu) << (8 * (index % 4));
}

int rs_accel_bvh8_build(const RsPrim* prims, uint32_t count, const RsAccelOptions* opt, RsAccel* out, RsError* err)
{
    RsBinaryOptions bo = {1, 1, opt->bins ? opt->bins : RS_ACCEL_DEFAULT_BINS, opt->spatial_splits, C_NODE / C_PRIM,
                          opt->pool};
    RsBinaryBvh bin;
    if (rs_binary_bvh_build(prims, count, &bo, &bin, err))
        return -1;
    Plan* plans = malloc((size_t)bin.node_count * sizeof *plans);
    RsBvh8Node* nodes = rs_alloc_aligned(bin.node_count, sizeof(RsBvh8Node), 64);
    uint32_t* refs = malloc((size_t)bin.ref_count * sizeof *refs);
    Pending* queue = malloc((size_t)bin.node_count * sizeof *queue);
    if (!plans || !nodes || !refs || !queue) {
        free(plans);
        free(nodes);
        free(refs);
        free(queue);
        rs_binary_bvh_free(&bin);
        return rs_error_set(err, "out of memory collapsing the BVH (%u binary nodes)", bin.node_count);
    }
    make_plans(&bin, plans);
    float root_area = rs_box_half_area(bin.nodes[0].lo, bin.nodes[0].hi);
    if (!(root_area > 0.0f))
        root_area = 1.0f;
    double sah = 0.0;
    uint32_t wide = 1, prim_next = 0, head = 0, tail = 0, leaves = 0, depth = 0;
    int status = 0;
    queue[tail++] = (Pending){0, 0};
    while (head < tail && status == 0) {
        Pending job = queue[head];
        uint32_t index = head++; /* wide nodes are numbered in queue order */
        Slot slots[3 * WIDTH];
        int n_slots = node_slots(&bin, plans, job.bin, slots);
        if (n_slots > WIDTH) {
            status = rs_error_set(err, "bvh8: a leaf of %u coincident primitives does not fit one node",
                                  bin.nodes[job.bin].count);
            break;
        }
        if (job.depth > depth)
            depth = job.depth;
        RsVec3 lo = slots[0].lo, hi = slots[0].hi;
        for (int i = 1; i < n_slots; ++i) {
            lo = rs_vmin(lo, slots[i].lo);
            hi = rs_vmax(hi, slots[i].hi);
        }
        sah += rs_box_half_area(lo, hi) / root_area * C_NODE;
        int order[WIDTH];
        assign_slots(slots, n_slots, rs_scale(rs_add(lo, hi), 0.5f), order);
        uint32_t e[3], words[20] = {0}; /* the five blocks as 32-bit words */
        float step[3], p[3];
        for (int k = 0; k < 3; ++k) {
            e[k] = step_exponent(rs_vec3_get(hi, k) - rs_vec3_get(lo, k));
            step[k] = rs_uint_as_float(e[k] << 23);
            p[k] = grid_origin(rs_vec3_get(lo, k), step[k]);
        }
        uint32_t imask = 0, child_base = wide, prim_base = prim_next;
        for (int s = 0; s < WIDTH; ++s) {
            if (order[s] < 0)
                continue;
            const Slot* c = &slots[order[s]];
            uint32_t meta;
            if (c->kind == SLOT_NODE) {
                imask |= 1u << s;
                meta = 0x20u | (24u + (uint32_t)s);
            } else {
                uint32_t n = c->kind == SLOT_CHUNK ? c->count : subtree_refs(&bin, c->bin, &refs[prim_next]);
                if (c->kind == SLOT_CHUNK)
                    memcpy(&refs[prim_next], &bin.refs[c->first], n * sizeof *refs);
                meta = (((1u << n) - 1u) << 5) | (prim_next - prim_base);
                prim_next += n;
                leaves++;
                sah += rs_box_half_area(c->lo, c->hi) / root_area * (float)n * C_PRIM;
            }
            put_byte(words, 24 + s, meta);
            for (int k = 0; k < 3; ++k) {
                put_byte(words, 32 + 8 * k + s, quantize(rs_vec3_get(c->lo, k), p[k], step[k], 0));
                put_byte(words, 56 + 8 * k + s, quantize(rs_vec3_get(c->hi, k), p[k], step[k], 1));
            }
        }
        /* interior children, in slot order, become the next wide nodes */
        for (int s = 0; s < WIDTH; ++s)
            if (order[s] >= 0 && slots[order[s]].kind == SLOT_NODE)
                queue[tail++] = (Pending){slots[order[s]].bin, job.depth + 1};
        wide = tail;
        words[0] = rs_float_as_uint(p[0]);
        words[1] = rs_float_as_uint(p[1]);
        words[2] = rs_float_as_uint(p[2]);
        words[3] = e[0] | (e[1] << 8) | (e[2] << 16) | (imask << 24);
        words[4] = child_base;
        words[5] = prim_base;
        RsBvh8Node* n = &nodes[index];
        n->b0 = rs_uint4(words[0], words[1], words[2], words[3]);
        n->b1 = rs_uint4(words[4], words[5], words[6], words[7]);
        n->b2 = rs_uint4(words[8], words[9], words[10], words[11]);
        n->b3 = rs_uint4(words[12], words[13], words[14], words[15]);
        n->b4 = rs_uint4(words[16], words[17], words[18], words[19]);
    }
    if (status == 0 && depth >= RS_BVH8_STACK)
        status = rs_error_set(err, "bvh8: the tree is %u levels deep, more than its traversal stack (%d); use --accel bvh2",
                              depth + 1, RS_BVH8_STACK);
    RsPrim* trace = status == 0 ? rs_trace_prims_make(prims, refs, prim_next) : NULL;
    if (status == 0 && !trace)
        status = rs_error_set(err, "out of memory: %u bvh8 trace primitives", prim_next);
    free(plans);
    free(refs);
    free(queue);
    if (status) {
        free(nodes);
        rs_binary_bvh_free(&bin);
        return -1;
    }
    /* the camera tree: the binary tree itself, for camera rays (kernel/accel/accel.h) */
    if (opt->camera_tree) {
        uint32_t camera_leaves = 0;
        if (rs_bvh2_from_binary(&bin, prims, 1, &out->view.bvh2, &camera_leaves, err)) {
            free(nodes);
            free(trace);
            rs_binary_bvh_free(&bin);
            return -1;
        }
        out->view.camera_tree = 1;
        out->owned[2] = (void*)out->view.bvh2.nodes;
        out->owned[3] = (void*)out->view.bvh2.prims;
        out->stats.camera_tree_bytes = (uint64_t)out->view.bvh2.node_count * sizeof(RsBvh2Node) +
                                       (uint64_t)out->view.bvh2.prim_count * sizeof(RsPrim);
    }
    out->view.bvh8.nodes = nodes;
    out->view.bvh8.prims = trace;
    out->view.bvh8.node_count = tail;
    out->view.bvh8.prim_count = prim_next;
    out->owned[0] = nodes;
    out->owned[1] = trace;
    out->stats.sah_cost = sah;
    out->stats.nodes = tail;
    out->stats.leaves = leaves;
    out->stats.depth = depth;
    out->stats.spatial_splits = bin.spatial_splits_made;
    out->stats.references = prim_next;
    out->stats.bytes = (uint64_t)tail * sizeof(RsBvh8Node) + (uint64_t)prim_next * sizeof(RsPrim) +
                       out->stats.camera_tree_bytes;
    rs_binary_bvh_free(&bin);
    return 0;
}
