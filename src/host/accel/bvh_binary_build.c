/* bvh_binary_build.c - rs_binary_bvh_build: the references' boxes, the root task, and the
 * tree handed back (see bvh_binary.h; bvh_binary_internal.h lists the builder's files). Host
 * C11 + POSIX threads.
 *
 * Duplication by spatial splits is limited to REF_BUDGET times the primitives, which sizes the
 * node and leaf-reference arrays in advance: workers reserve from them with atomic counters.
 * The top of the tree is split by every worker together (bvh_binary_top.c), which leaves the
 * subtrees below on the task stack; with a pool every worker takes from it (bvh_binary_task.c),
 * without one the calling thread builds them all. The finished tree is renumbered depth-first.
 */
#define _POSIX_C_SOURCE 200809L
#include "host/accel/bvh_binary.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "host/accel/bvh_binary_internal.h"

#define REF_BUDGET 2u

typedef struct BoundsTask {
    const RsPrim* prims;
    RsBinaryRef* refs;
    uint32_t count;
} BoundsTask;

static void bounds_task(void* ctx, uint32_t w, uint32_t workers)
{
    BoundsTask* t = ctx;
    uint64_t begin, end;
    rs_pool_share(t->count, w, workers, &begin, &end);
    for (uint64_t i = begin; i < end; ++i) {
        rs_prim_bounds(&t->prims[i], &t->refs[i].box.lo, &t->refs[i].box.hi);
        t->refs[i].prim = (uint32_t)i;
        t->refs[i].pad_ = 0;
    }
}

/* Numbers the nodes depth-first from the root, each node's two children side by side, and
 * copies the leaves' references in that order; returns the tree's depth. Workers reserve nodes
 * and leaf ranges in whatever order they finish, so without this the arrays would differ from
 * run to run (and with the thread count) although the tree is the same. */
static uint32_t renumber(RsBinaryBuild* c)
{
    typedef struct Visit {
        uint32_t old, now, depth;
    } Visit;
    uint32_t n = atomic_load(&c->node_count), refs = atomic_load(&c->refs_out_count);
    RsBinaryNode* nodes = malloc((size_t)n * sizeof *nodes);
    uint32_t* out = malloc((size_t)(refs ? refs : 1) * sizeof *out);
    /* at most one pending sibling per level, and depth is bounded */
    Visit stack[2 * (RS_BINARY_MAX_DEPTH + 2)];
    if (!nodes || !out) {
        free(nodes);
        free(out);
        rs_binary_fail(c, "out of memory numbering BVH nodes");
        return 0;
    }
    uint32_t next = 1, placed = 0, sp = 0, deepest = 0;
    stack[sp++] = (Visit){0, 0, 0};
    while (sp) {
        Visit v = stack[--sp];
        const RsBinaryNode* old = &c->nodes[v.old];
        RsBinaryNode* to = &nodes[v.now];
        *to = *old;
        if (v.depth > deepest)
            deepest = v.depth;
        if (old->count) {
            memcpy(out + placed, c->refs_out + old->first, old->count * sizeof *out);
            to->first = placed;
            placed += old->count;
            continue;
        }
        to->left = next;
        to->right = next + 1;
        next += 2;
        /* the left child is taken first */
        stack[sp++] = (Visit){old->right, to->right, v.depth + 1};
        stack[sp++] = (Visit){old->left, to->left, v.depth + 1};
    }
    free(c->nodes);
    free(c->refs_out);
    c->nodes = nodes;
    c->refs_out = out;
    return deepest;
}

int rs_binary_bvh_build(const RsPrim* prims, uint32_t count, const RsBinaryOptions* opt, RsBinaryBvh* out,
                        RsError* err)
{
    memset(out, 0, sizeof *out);
    if (count == 0)
        return rs_error_set(err, "cannot build a BVH over no primitives");
    if (opt->bins < 2 || opt->bins > RS_BINARY_MAX_BINS)
        return rs_error_set(err, "BVH builder: %u SAH bins (must be 2..%d)", opt->bins, RS_BINARY_MAX_BINS);
    RsBinaryBuild c;
    memset(&c, 0, sizeof c);
    c.prims = prims;
    c.opt = opt;
    c.err = err;
    c.ref_budget = opt->spatial_splits ? REF_BUDGET * count : count;
    c.refs_capacity = c.ref_budget;
    c.node_capacity = 2 * c.ref_budget;
    atomic_init(&c.node_count, 1u);
    atomic_init(&c.refs_out_count, 0u);
    atomic_init(&c.spatial_made, 0u);
    atomic_init(&c.failed, 0);
    c.nodes = malloc((size_t)c.node_capacity * sizeof *c.nodes);
    c.refs_out = malloc((size_t)c.refs_capacity * sizeof *c.refs_out);
    RsBinarySegment* root = rs_binary_segment_new(count);
    if (!c.nodes || !c.refs_out || !root) {
        free(c.nodes);
        free(c.refs_out);
        if (root)
            rs_binary_segment_release(root);
        return rs_error_set(err, "out of memory building a BVH over %u primitives", count);
    }
    BoundsTask bt = {prims, root->data, count};
    if (opt->pool)
        rs_pool_run(opt->pool, bounds_task, &bt);
    else
        bounds_task(&bt, 0, 1);
    RsBinaryBox all = rs_binary_box_empty();
    for (uint32_t i = 0; i < count; ++i)
        rs_binary_box_grow(&all, root->data[i].box);
    c.root_area = rs_binary_box_area(all);

    RsBinaryTask first = {root, 0, count, 0, 0, c.ref_budget};
    pthread_mutex_init(&c.lock, NULL);
    pthread_cond_init(&c.cond, NULL);
    rs_binary_top_build(&c, first);
    if (opt->pool) {
        rs_pool_run(opt->pool, rs_binary_task_worker, &c);
    } else {
        while (c.task_count)
            rs_binary_task_build(&c, c.tasks[--c.task_count]);
    }
    pthread_cond_destroy(&c.cond);
    pthread_mutex_destroy(&c.lock);
    free(c.tasks);
    uint32_t depth = atomic_load(&c.failed) ? 0 : renumber(&c);
    if (atomic_load(&c.failed)) {
        free(c.nodes);
        free(c.refs_out);
        return -1;
    }
    out->nodes = c.nodes;
    out->node_count = atomic_load(&c.node_count);
    out->refs = c.refs_out;
    out->ref_count = atomic_load(&c.refs_out_count);
    out->depth = depth;
    out->spatial_splits_made = atomic_load(&c.spatial_made);
    return 0;
}
