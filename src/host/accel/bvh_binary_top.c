/* bvh_binary_top.c - the top of the binary SAH tree, where every worker splits one node
 * together (see bvh_binary_internal.h). Host C11.
 *
 * Below the root there is too little independent work to keep the pool busy: the task stack of
 * bvh_binary_task.c hands out one subtree per worker, so the root's binning and partitioning
 * (a quarter of a 2-thread SBVH build of Sponza) ran on one thread. Here every node of at least
 * RS_BINARY_TOP_MIN_REFS references is split by all workers at once: each bins, counts and
 * partitions a contiguous share of the references, and the shares are merged. Smaller children
 * go on the task stack for the workers to take afterwards.
 *
 * The tree must not depend on the number of workers (docs/architecture.md, section 6.2): bin
 * bounds and counts merge exactly whatever the shares, and both partitions here are stable
 * (each side keeps the node's order, share after share), so a node's children hold the same
 * references in the same order for any worker count. Which partition a node gets depends only
 * on its size, never on the pool: a node this big is partitioned here even on one thread.
 */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "host/accel/bvh_binary.h"
#include "host/accel/bvh_binary_internal.h"

typedef enum { STEP_BOUNDS, STEP_OBJECT_BINS, STEP_SPATIAL_BINS, STEP_COUNT, STEP_WRITE } Step;

/* What the workers share while splitting one node. */
typedef struct TopJob {
    RsBinaryBuild* c;
    Step step;
    const RsBinaryRef* r;
    uint32_t count;
    int bins;
    RsBinarySplit split;
    RsBinaryObjectBins* obins;   /* one per worker */
    RsBinarySpatialBins* sbins;  /* one per worker */
    RsBinaryBox* box;            /* node box per worker */
    RsBinaryBox* cbox;           /* centroid box per worker */
    uint32_t* left;              /* per worker: references (pieces) going left, then where its left ones start */
    uint32_t* right;             /* the same for the right side */
    RsBinaryRef* out_left;
    RsBinaryRef* out_right;
} TopJob;

/* Which side an object split puts a reference: 1 left, 2 right. */
static int object_side(const TopJob* j, const RsBinaryRef* ref)
{
    const RsBinaryObjectBins* o = &j->obins[0];
    int axis = j->split.axis;
    float x = rs_binary_axis(rs_binary_centroid(ref->box), axis);
    float f = (x - o->lo[axis]) * o->scale[axis];
    /* rs_binary_partition_object's bin_of, as a comparison with the split's bin */
    int b = !(f >= 1.0f) ? 0 : (f >= (float)(o->bins - 1) ? o->bins - 1 : (int)f);
    return b <= j->split.bin ? 1 : 2;
}

static void top_step(void* ctx, uint32_t w, uint32_t workers)
{
    TopJob* j = ctx;
    uint64_t begin, end;
    rs_pool_share(j->count, w, workers, &begin, &end);
    const RsBinaryRef* r = j->r + begin;
    uint32_t n = (uint32_t)(end - begin);
    switch (j->step) {
    case STEP_BOUNDS: {
        RsBinaryBox box = rs_binary_box_empty(), cbox = rs_binary_box_empty();
        for (uint32_t i = 0; i < n; ++i) {
            rs_binary_box_grow(&box, r[i].box);
            RsVec3 c = rs_binary_centroid(r[i].box);
            cbox.lo = rs_vmin(cbox.lo, c);
            cbox.hi = rs_vmax(cbox.hi, c);
        }
        j->box[w] = box;
        j->cbox[w] = cbox;
        break;
    }
    case STEP_OBJECT_BINS:
        rs_binary_object_bins_init(&j->obins[w], j->cbox[0], j->bins);
        rs_binary_object_bins_add(&j->obins[w], r, n);
        break;
    case STEP_SPATIAL_BINS:
        rs_binary_spatial_bins_init(&j->sbins[w], j->box[0], j->bins);
        rs_binary_spatial_bins_add(&j->sbins[w], j->c->prims, r, n);
        break;
    case STEP_COUNT: {
        uint32_t l = 0, rr = 0;
        for (uint32_t i = 0; i < n; ++i) {
            int sides;
            if (j->split.spatial) {
                RsBinaryRef a, b;
                sides = rs_binary_spatial_cut(j->c->prims, &r[i], j->split, &a, &b);
            } else {
                sides = object_side(j, &r[i]);
            }
            l += sides & 1;
            rr += sides >> 1;
        }
        j->left[w] = l;
        j->right[w] = rr;
        break;
    }
    case STEP_WRITE: {
        uint32_t l = j->left[w], rr = j->right[w];
        for (uint32_t i = 0; i < n; ++i) {
            int sides;
            if (j->split.spatial) {
                sides = rs_binary_spatial_cut(j->c->prims, &r[i], j->split, &j->out_left[l], &j->out_right[rr]);
            } else {
                sides = object_side(j, &r[i]);
                if (sides == 1)
                    j->out_left[l] = r[i];
                else
                    j->out_right[rr] = r[i];
            }
            l += sides & 1;
            rr += sides >> 1;
        }
        break;
    }
    }
}

static void run_step(TopJob* j, Step step, uint32_t workers)
{
    j->step = step;
    if (j->c->opt->pool && workers > 1)
        rs_pool_run(j->c->opt->pool, top_step, j);
    else
        top_step(j, 0, 1);
}

/* Counts both sides by the chosen split, turns the counts into each worker's first slot, and
 * returns the totals. */
static void count_sides(TopJob* j, uint32_t workers, uint32_t* nl, uint32_t* nr)
{
    run_step(j, STEP_COUNT, workers);
    uint32_t l = 0, rr = 0;
    for (uint32_t w = 0; w < workers; ++w) {
        uint32_t a = j->left[w], b = j->right[w];
        j->left[w] = l;
        j->right[w] = rr;
        l += a;
        rr += b;
    }
    *nl = l;
    *nr = rr;
}

/* Splits big task t with every worker; its children go to *stack (big) or the task stack. */
static int split_top(TopJob* j, uint32_t workers, RsBinaryTask t, RsBinaryTask* stack, uint32_t* sp)
{
    RsBinaryBuild* c = j->c;
    const RsBinaryOptions* opt = c->opt;
    j->r = t.seg->data + t.first;
    j->count = t.count;
    j->bins = rs_binary_bins_for(t.count, opt->bins);
    run_step(j, STEP_BOUNDS, workers);
    for (uint32_t w = 1; w < workers; ++w) {
        rs_binary_box_grow(&j->box[0], j->box[w]);
        rs_binary_box_grow(&j->cbox[0], j->cbox[w]);
    }
    RsBinaryBox box = j->box[0];
    run_step(j, STEP_OBJECT_BINS, workers);
    for (uint32_t w = 1; w < workers; ++w)
        rs_binary_object_bins_merge(&j->obins[0], &j->obins[w]);
    RsBinarySplit object = rs_binary_object_best(&j->obins[0], t.count), s = object;
    float node_area = rs_binary_box_area(box);
    if (rs_binary_spatial_wanted(c, t, object, node_area)) {
        run_step(j, STEP_SPATIAL_BINS, workers);
        for (uint32_t w = 1; w < workers; ++w)
            rs_binary_spatial_bins_merge(&j->sbins[0], &j->sbins[w]);
        RsBinarySplit cut = rs_binary_spatial_best(&j->sbins[0]);
        if (cut.axis >= 0 && cut.cost < s.cost)
            s = cut;
    }
    RsBinaryTask lt = t, rt = t;
    uint32_t nl = 0, nr = 0;
    RsBinarySegment *ls = NULL, *rs = NULL;
    if (s.spatial) {
        j->split = s;
        count_sides(j, workers, &nl, &nr);
        if (nl == 0 || nr == 0 || nl + nr > t.budget) {
            s = object; /* degenerate or over this subtree's share: as bvh_binary_task.c */
        } else {
            ls = rs_binary_segment_new(nl);
            rs = rs_binary_segment_new(nr);
            if (!ls || !rs) {
                if (ls)
                    rs_binary_segment_release(ls);
                if (rs)
                    rs_binary_segment_release(rs);
                return -1;
            }
        }
    }
    if (!s.spatial && s.axis >= 0) {
        j->split = s;
        count_sides(j, workers, &nl, &nr);
        if (nl > 0 && nr > 0) {
            ls = rs = rs_binary_segment_new(t.count); /* both sides in one new segment */
            if (!ls)
                return -1;
        }
    }
    if (ls) {
        j->out_left = ls->data;
        j->out_right = s.spatial ? rs->data : ls->data + nl;
        run_step(j, STEP_WRITE, workers);
        rs_binary_segment_release(t.seg);
        if (s.spatial) {
            atomic_fetch_add(&c->spatial_made, 1u);
            rt.seg = rs;
            rt.first = 0;
        } else {
            atomic_fetch_add(&ls->users, 1); /* both children use the segment */
            rt.seg = ls;
            rt.first = nl;
        }
        lt.seg = ls;
        lt.first = 0;
        lt.count = nl;
        rt.count = nr;
    } else { /* coincident centroids: the object median, in the node's order */
        nl = t.count / 2;
        atomic_fetch_add(&t.seg->users, 1);
        lt.count = nl;
        rt.first = t.first + nl;
        rt.count = t.count - nl;
    }
    if (rs_binary_link_children(c, t, box, &lt, &rt))
        return 0; /* recorded: the build fails */
    RsBinaryTask kids[2] = {lt, rt};
    for (int k = 0; k < 2; ++k) {
        if (kids[k].count >= RS_BINARY_TOP_MIN_REFS && kids[k].depth < RS_BINARY_MAX_DEPTH)
            stack[(*sp)++] = kids[k];
        else
            rs_binary_task_push(c, kids[k]);
    }
    return 0;
}

void rs_binary_top_build(RsBinaryBuild* c, RsBinaryTask root)
{
    if (root.count < RS_BINARY_TOP_MIN_REFS) {
        rs_binary_task_push(c, root);
        return;
    }
    uint32_t workers = c->opt->pool ? rs_pool_size(c->opt->pool) : 1;
    TopJob j;
    memset(&j, 0, sizeof j);
    j.c = c;
    j.obins = malloc(workers * sizeof *j.obins);
    j.sbins = malloc(workers * sizeof *j.sbins);
    j.box = malloc(workers * sizeof *j.box);
    j.cbox = malloc(workers * sizeof *j.cbox);
    j.left = malloc(workers * sizeof *j.left);
    j.right = malloc(workers * sizeof *j.right);
    /* every split pushes at most two children and pops one, and depth is bounded */
    RsBinaryTask stack[2 * (RS_BINARY_MAX_DEPTH + 2)];
    uint32_t sp = 0;
    stack[sp++] = root;
    int oom = !j.obins || !j.sbins || !j.box || !j.cbox || !j.left || !j.right;
    while (sp) {
        RsBinaryTask t = stack[--sp];
        if (oom || atomic_load(&c->failed) || split_top(&j, workers, t, stack, &sp)) {
            oom = 1;
            rs_binary_segment_release(t.seg);
        }
    }
    if (oom)
        rs_binary_fail(c, "out of memory splitting the top of a BVH");
    free(j.obins);
    free(j.sbins);
    free(j.box);
    free(j.cbox);
    free(j.left);
    free(j.right);
}
