/* bvh_binary_task.c - one subtree of the binary SAH build, and the workers that share the
 * subtrees (see bvh_binary_internal.h). Host C11 + POSIX threads.
 *
 * A node becomes a leaf when it holds at most max_leaf references and the SAH prefers a leaf
 * (or it holds min_leaf or fewer), or at RS_BINARY_MAX_DEPTH. Otherwise bvh_binary_split.c
 * finds its split: a spatial split is tried when enabled, when the object split's children
 * overlap by more than SPATIAL_ALPHA of the root's area, and while the subtree is within its
 * share of the duplication budget (each subtree gets a share in proportion to its references,
 * so the tree does not depend on which worker ran first). Coincident centroids that no
 * boundary separates are split at the object median.
 *
 * SPATIAL_ALPHA is 1e-3: at 1e-5 Sponza tried spatial splits at 17 times as many nodes for an
 * SAH cost 0.2% lower (docs/architecture.md, section 6.2).
 *
 * Parallelism: the top of the tree (nodes of RS_BINARY_TOP_MIN_REFS references or more) is
 * split by every worker together first (bvh_binary_top.c), which leaves its children here.
 * Subtrees of TASK_MIN_REFS references or more go on a shared task stack that every worker of
 * the pool takes from; smaller ones are finished by the worker that made them. Nodes and leaf
 * ranges are reserved with atomic counters in arrays sized in advance, so no worker ever waits
 * for another except at the task stack (bvh_binary_build.c renumbers the tree afterwards, so the
 * order of those reservations leaves no trace). A segment of references is freed when its last
 * user is done.
 */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "host/accel/bvh_binary.h"
#include "host/accel/bvh_binary_internal.h"

#define TASK_MIN_REFS 4096
#define SPATIAL_ALPHA 1e-3f

void rs_binary_fail(RsBinaryBuild* c, const char* message)
{
    int expected = 0;
    if (atomic_compare_exchange_strong(&c->failed, &expected, 1))
        rs_error_set(c->err, "%s", message);
}

static void box_grow_point(RsBinaryBox* b, RsVec3 p)
{
    b->lo = rs_vmin(b->lo, p);
    b->hi = rs_vmax(b->hi, p);
}

int rs_binary_spatial_wanted(const RsBinaryBuild* c, RsBinaryTask t, RsBinarySplit object, float node_area)
{
    return c->opt->spatial_splits && object.axis >= 0 && node_area > 0.0f &&
           rs_binary_box_area(rs_binary_box_intersect(object.left, object.right)) > SPATIAL_ALPHA * c->root_area &&
           t.budget > t.count;
}

int rs_binary_link_children(RsBinaryBuild* c, RsBinaryTask t, RsBinaryBox box, RsBinaryTask* lt, RsBinaryTask* rt)
{
    uint32_t children = atomic_fetch_add(&c->node_count, 2u);
    if (children + 2 > c->node_capacity) {
        rs_binary_fail(c, "internal error: BVH nodes exceed their budget");
        rs_binary_segment_release(lt->seg);
        rs_binary_segment_release(rt->seg);
        return -1;
    }
    RsBinaryNode* n = &c->nodes[t.node];
    n->lo = box.lo;
    n->hi = box.hi;
    n->left = children;
    n->right = children + 1;
    n->first = 0;
    n->count = 0;
    lt->node = children;
    rt->node = children + 1;
    /* the budget follows the references; each child keeps at least its own */
    uint64_t total = (uint64_t)lt->count + rt->count;
    lt->budget = (uint32_t)((uint64_t)t.budget * lt->count / total);
    rt->budget = (uint32_t)((uint64_t)t.budget * rt->count / total);
    lt->depth = rt->depth = t.depth + 1;
    return 0;
}

void rs_binary_task_push(RsBinaryBuild* c, RsBinaryTask t)
{
    pthread_mutex_lock(&c->lock);
    if (c->task_count == c->task_capacity) {
        uint32_t cap = c->task_capacity ? 2 * c->task_capacity : 64;
        RsBinaryTask* grown = realloc(c->tasks, cap * sizeof *grown);
        if (!grown) {
            pthread_mutex_unlock(&c->lock);
            rs_binary_fail(c, "out of memory queueing BVH build tasks");
            rs_binary_segment_release(t.seg);
            return;
        }
        c->tasks = grown;
        c->task_capacity = cap;
    }
    c->tasks[c->task_count++] = t;
    pthread_cond_signal(&c->cond);
    pthread_mutex_unlock(&c->lock);
}

static void make_leaf(RsBinaryBuild* c, RsBinaryTask t, RsBinaryBox box)
{
    RsBinaryNode* n = &c->nodes[t.node];
    uint32_t first = atomic_fetch_add(&c->refs_out_count, t.count);
    if (first + t.count > c->refs_capacity) {
        rs_binary_fail(c, "internal error: BVH leaf references exceed their budget");
        rs_binary_segment_release(t.seg);
        return;
    }
    for (uint32_t i = 0; i < t.count; ++i)
        c->refs_out[first + i] = t.seg->data[t.first + i].prim;
    n->lo = box.lo;
    n->hi = box.hi;
    n->left = n->right = 0;
    n->first = first;
    n->count = t.count;
    rs_binary_segment_release(t.seg);
}

void rs_binary_task_build(RsBinaryBuild* c, RsBinaryTask t)
{
    for (;;) {
        if (atomic_load(&c->failed)) {
            rs_binary_segment_release(t.seg);
            return;
        }
        const RsBinaryOptions* opt = c->opt;
        RsBinaryRef* r = t.seg->data + t.first;
        RsBinaryBox box = rs_binary_box_empty(), cbox = rs_binary_box_empty();
        for (uint32_t i = 0; i < t.count; ++i) {
            rs_binary_box_grow(&box, r[i].box);
            box_grow_point(&cbox, rs_binary_centroid(r[i].box));
        }
        int bins = rs_binary_bins_for(t.count, opt->bins);
        int leaf = t.count <= opt->min_leaf || t.depth >= RS_BINARY_MAX_DEPTH;
        RsBinarySplit s = {-1, 0, 0, 0.0f, FLT_MAX, rs_binary_box_empty(), rs_binary_box_empty()};
        if (!leaf) {
            s = rs_binary_object_split(r, t.count, cbox, bins);
            float node_area = rs_binary_box_area(box);
            if (rs_binary_spatial_wanted(c, t, s, node_area)) {
                RsBinarySplit sp = rs_binary_spatial_split(c, r, t.count, box, bins);
                if (sp.axis >= 0 && sp.cost < s.cost)
                    s = sp;
            }
            float split_cost = opt->node_cost + (s.axis >= 0 ? s.cost / node_area : FLT_MAX);
            leaf = t.count <= opt->max_leaf && (!(node_area > 0.0f) || (float)t.count <= split_cost);
        }
        if (leaf) {
            make_leaf(c, t, box);
            return;
        }
        RsBinaryTask lt = t, rt = t;
        if (s.spatial) {
            RsBinarySegment *ls = NULL, *rs = NULL;
            uint32_t nl = 0, nr = 0;
            int ok = rs_binary_partition_spatial(c, r, t.count, s, &ls, &nl, &rs, &nr);
            if (ok < 0) {
                rs_binary_fail(c, "out of memory splitting BVH references");
                rs_binary_segment_release(t.seg);
                return;
            }
            if (ok > 0 && nl + nr > t.budget) { /* over this subtree's share: no duplication */
                rs_binary_segment_release(ls);
                rs_binary_segment_release(rs);
                ok = 0;
                ls = rs = NULL;
            }
            if (ok == 0) { /* degenerate or too costly a cut: use the object split instead */
                if (ls)
                    rs_binary_segment_release(ls);
                if (rs)
                    rs_binary_segment_release(rs);
                s = rs_binary_object_split(r, t.count, cbox, bins);
                s.spatial = 0;
            } else {
                atomic_fetch_add(&c->spatial_made, 1u);
                rs_binary_segment_release(t.seg);
                lt.seg = ls;
                lt.first = 0;
                lt.count = nl;
                rt.seg = rs;
                rt.first = 0;
                rt.count = nr;
            }
        }
        if (!s.spatial) {
            uint32_t nl = s.axis >= 0 ? rs_binary_partition_object(r, t.count, s, cbox, bins) : 0;
            if (nl == 0 || nl == t.count)
                nl = t.count / 2; /* coincident centroids: the object median keeps leaves small */
            atomic_fetch_add(&t.seg->users, 1); /* both children use the segment */
            lt.count = nl;
            rt.first = t.first + nl;
            rt.count = t.count - nl;
        }
        if (rs_binary_link_children(c, t, box, &lt, &rt))
            return;
        /* hand the smaller side to the pool when it is worth a task; go on with the other */
        RsBinaryTask small = lt.count < rt.count ? lt : rt, big = lt.count < rt.count ? rt : lt;
        if (opt->pool && small.count >= TASK_MIN_REFS)
            rs_binary_task_push(c, small);
        else
            rs_binary_task_build(c, small);
        t = big;
    }
}

void rs_binary_task_worker(void* ctx, uint32_t index, uint32_t workers)
{
    (void)index;
    (void)workers;
    RsBinaryBuild* c = ctx;
    pthread_mutex_lock(&c->lock);
    for (;;) {
        while (c->task_count == 0 && c->active > 0)
            pthread_cond_wait(&c->cond, &c->lock);
        if (c->task_count == 0)
            break; /* nothing queued and nobody working: the tree is done */
        RsBinaryTask t = c->tasks[--c->task_count];
        c->active++;
        pthread_mutex_unlock(&c->lock);
        rs_binary_task_build(c, t);
        pthread_mutex_lock(&c->lock);
        if (--c->active == 0 && c->task_count == 0)
            pthread_cond_broadcast(&c->cond);
    }
    pthread_cond_broadcast(&c->cond);
    pthread_mutex_unlock(&c->lock);
}
