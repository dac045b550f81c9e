/* bvh_binary_build.c - rs_binary_bvh_build: the references' boxes, the root task, and the
 * tree handed back (see bvh_binary.h; bvh_binary_internal.h lists the builder's files). Host
 * C11 + POSIX threads.
 *
 * Duplication by spatial splits is limited to REF_BUDGET times the primitives, which sizes the
 * node and leaf-reference arrays in advance: workers reserve from them with atomic counters.
 * With a pool the root is the first task on the stack and every worker takes from it
 * (bvh_binary_task.c); without one the calling thread builds the whole tree.
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

static uint32_t tree_depth(const RsBinaryNode* nodes, uint32_t node)
{
    uint32_t stack_nodes[2 * (RS_BINARY_MAX_DEPTH + 2)], stack_depth[2 * (RS_BINARY_MAX_DEPTH + 2)];
    uint32_t sp = 0, deepest = 0;
    stack_nodes[sp] = node;
    stack_depth[sp++] = 0;
    while (sp) {
        --sp;
        uint32_t n = stack_nodes[sp], d = stack_depth[sp];
        if (d > deepest)
            deepest = d;
        if (nodes[n].count == 0) {
            stack_nodes[sp] = nodes[n].left;
            stack_depth[sp++] = d + 1;
            stack_nodes[sp] = nodes[n].right;
            stack_depth[sp++] = d + 1;
        }
    }
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
    atomic_init(&c.depth, 0u);
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
    if (opt->pool) {
        pthread_mutex_init(&c.lock, NULL);
        pthread_cond_init(&c.cond, NULL);
        c.tasks = malloc(64 * sizeof *c.tasks);
        c.task_capacity = c.tasks ? 64 : 0;
        c.tasks[c.task_count++] = first;
        rs_pool_run(opt->pool, rs_binary_task_worker, &c);
        pthread_cond_destroy(&c.cond);
        pthread_mutex_destroy(&c.lock);
        free(c.tasks);
    } else {
        rs_binary_task_build(&c, first);
    }
    if (atomic_load(&c.failed)) {
        free(c.nodes);
        free(c.refs_out);
        return -1;
    }
    out->nodes = c.nodes;
    out->node_count = atomic_load(&c.node_count);
    out->refs = c.refs_out;
    out->ref_count = atomic_load(&c.refs_out_count);
    out->depth = tree_depth(c.nodes, 0);
    out->spatial_splits_made = atomic_load(&c.spatial_made);
    return 0;
}
