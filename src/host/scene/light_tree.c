/* light_tree.c - the light tree's builder (see light_tree.h; the sets of emitters and the binned
 * split's pieces are in light_tree_bounds.h). Host C11 + C11 atomics.
 *
 * Speed (it is built with the scene, in a tenth of the BVH's time): lights are 64-byte records
 * and a set is four-wide minima and maxima; binning notes each light's bin, and the split copies
 * the range into the other of two buffers by it without a branch; nodes of at most SAH_MIN
 * lights are halved at their median and take their bounds from their children. Every pass is
 * spread over a thread pool: the description of the lights in chunks of table entries; the top
 * of the tree (nodes of more than subtree_max lights) a level at a time, each node's binning and
 * copying in chunks of CHUNK lights; below it, whole subtrees. The chunks and subtree_max follow
 * from the light count alone and partial sums are merged in chunk order, so the tree is the same
 * bytes for any number of threads.
 */
#include "host/scene/light_tree.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "host/scene/light_tree_bounds.h"
#include "host/util/array.h"
#include "host/util/thread_pool.h"
#include "kernel/light/light.h"

#define SAH_MIN 16      /* nodes of at most this many lights are halved by count */
#define MEDIAN_DEPTH 32 /* from here on, splits halve by count: depth <= 32 + 30 */
#define PER_WORKER 2048 /* lights a worker should have at least, to pay for starting it */
#define CHUNK 4096         /* lights a top node's binning and copying are cut into */
#define ENTRY_CHUNK 8192   /* light table entries a worker describes at a time */
#define SUBTREE_MIN 1024   /* the least subtree_max */
#define MAX_LIGHTS (1u << 30)
#define SPOT_SLACK 1e-3 /* added to a spot's theta_e: rounding must not cut off its cone's rim */

/* What one thread needs of its own while it builds. */
typedef struct Worker {
    Bounds bins[BINS];
    uint32_t depth; /* the deepest node it made */
} Worker;

/* A node: lights[begin..end) of buffers[buf] at node `index`, with its bounds; for a node of the
 * top, also how it is binned (ok = 0: halved at its median instead), its chunks and its split. */
typedef struct Node {
    Bounds bounds;
    Binning bn;
    uint32_t buf, begin, end, depth, index, first_chunk, chunk_end;
    int ok, last;
    uint64_t path;
} Node;

/* A chunk of a top node's lights (or of the light table's entries), with its partial bins (or
 * bounds) and, for the copy, where its two sides go. */
typedef struct Chunk {
    Bounds bins[BINS];
    uint32_t node, begin, end, first, second;
} Chunk;

typedef struct Build {
    TreeLight* buffers[2]; /* the lights; a binned split copies a range into the other buffer */
    uint8_t* ids;          /* per light position, its bin in the last binning of its range */
    RsFloat4* nodes;
    uint64_t* trails;
    const RsSceneView* view;
    const double* power;
    Node *level, *spare; /* the top's nodes of one depth, and room for the next */
    Chunk* chunks;
    uint32_t level_count, chunk_count;
    Node* subtrees;    /* nodes of at most subtree_max lights, each left to one worker */
    uint32_t subtree_count, subtree_cap;
    uint32_t subtree_max;
    atomic_uint next;  /* the next chunk or subtree for a worker to take */
    RsThreadPool* pool;
    Worker* workers;
    uint32_t worker_count;
} Build;

/* Runs `task` on every worker (or on this thread alone), with the shared counter at 0. */
static void run_all(Build* b, RsPoolTask task)
{
    atomic_store(&b->next, 0u);
    if (b->pool)
        rs_pool_run(b->pool, task, b);
    else
        task(b, 0, 1);
}

/* Quickselect: lights[begin..mid) before lights[mid..end) by centre on `axis`. */
static void select_median(TreeLight* lights, uint32_t begin, uint32_t end, uint32_t mid, int axis)
{
    while (end - begin > 1) {
        float pivot = twice_centre(&lights[begin + (end - begin - 1) / 2], axis); /* never the last */
        uint32_t i = begin, j = end - 1;
        for (;;) {
            while (twice_centre(&lights[i], axis) < pivot)
                ++i;
            while (twice_centre(&lights[j], axis) > pivot)
                --j;
            if (i >= j)
                break;
            TreeLight t = lights[i];
            lights[i++] = lights[j];
            lights[j--] = t;
        }
        /* Hoare's scheme: [begin, j] <= pivot <= [j + 1, end) */
        if (mid <= j)
            end = j + 1;
        else
            begin = j + 1;
    }
}

/* Halves lights[begin..end) by count, at the median centre on the widest axis. */
static uint32_t split_median(TreeLight* lights, uint32_t begin, uint32_t end)
{
    float lo[4] = {FLT_MAX, FLT_MAX, FLT_MAX, 0.0f}, hi[4] = {-FLT_MAX, -FLT_MAX, -FLT_MAX, 0.0f};
    for (uint32_t i = begin; i < end; ++i)
        for (int k = 0; k < 3; ++k) {
            lo[k] = minf(lo[k], twice_centre(&lights[i], k));
            hi[k] = maxf(hi[k], twice_centre(&lights[i], k));
        }
    int k = widest_axis(lo, hi);
    uint32_t mid = begin + (end - begin) / 2;
    if (hi[k] > lo[k])
        select_median(lights, begin, end, mid, k);
    return mid;
}

/* The two sides' bounds of a binned split after bin `last`. */
static void sides_of(const Bounds* bins, int last, Bounds* left, Bounds* right)
{
    bounds_empty(left);
    bounds_empty(right);
    for (int i = 0; i < BINS; ++i)
        bounds_merge(i <= last ? left : right, &bins[i]);
}

/* Splits lights[begin..end) of buffer *buf (more than one) and returns where the second child
 * starts; *buf becomes the children's buffer. With `known` (the bounds, which the binned split
 * needs first) the children's bounds go to *left and *right when found, else those are NULL. */
static uint32_t split(const Build* b, Worker* w, uint32_t* buf, uint32_t begin, uint32_t end, const Bounds* known,
                      uint32_t depth, Bounds* left_store, Bounds* right_store, const Bounds** left,
                      const Bounds** right, int want_bounds)
{
    TreeLight* lights = b->buffers[*buf];
    *left = *right = NULL;
    if (end - begin == 2) /* nothing to choose */
        return begin + 1;
    Binning bn;
    if (known && end - begin > SAH_MIN && depth < MEDIAN_DEPTH && binning_of(known, &bn)) {
        bin_lights(lights, b->ids, begin, end, &bn, w->bins);
        int last = best_split(w->bins, known);
        if (last >= 0) {
            sides_of(w->bins, last, left_store, right_store);
            scatter(lights, b->buffers[!*buf], b->ids, begin, end, last, begin, begin + left_store->count);
            *buf = !*buf;
            *left = left_store;
            *right = right_store;
            return begin + left_store->count;
        }
    }
    uint32_t mid = split_median(lights, begin, end);
    if (want_bounds) {
        bounds_of(lights, begin, mid, left_store);
        bounds_of(lights, mid, end, right_store);
        *left = left_store;
        *right = right_store;
    }
    return mid;
}

static void make_leaf(const Build* b, const TreeLight* l, uint32_t index, uint32_t depth, uint64_t path, Bounds* out)
{
    bounds_of(l, 0, 1, out);
    Cone own = {{l->axis[0], l->axis[1], l->axis[2]}, l->lo[3], sqrtf(maxf(0.0f, 1.0f - l->lo[3] * l->lo[3]))};
    write_node(b->nodes, index, out, own);
    b->nodes[4 * (size_t)index + 3].x = rs_uint_as_float(RS_LIGHT_TREE_LEAF | l->light);
    b->trails[l->light] = ((uint64_t)1 << depth) | path;
}

/* Builds the subtree of lights[begin..end) (in buffer `buf`) at node `index`, depth-first (a
 * subtree of k lights has 2k - 1 nodes, so where each node goes follows from the counts alone),
 * and returns its bounds in *out. `known`: its bounds when the parent's split found them;
 * NULL below SAH_MIN, where each node's bounds are its children's. */
static void build_node(const Build* b, Worker* w, uint32_t buf, uint32_t begin, uint32_t end, const Bounds* known,
                       uint32_t depth, uint64_t path, uint32_t index, Bounds* out)
{
    if (depth > w->depth)
        w->depth = depth;
    if (end - begin == 1) {
        make_leaf(b, &b->buffers[buf][begin], index, depth, path, out);
        return;
    }
    Bounds left_store, right_store, got_left, got_right;
    const Bounds *left, *right;
    uint32_t mid = split(b, w, &buf, begin, end, known, depth, &left_store, &right_store, &left, &right,
                         end - begin > 2 * SAH_MIN && depth < MEDIAN_DEPTH);
    build_node(b, w, buf, begin, mid, left, depth + 1, path, index + 1, &got_left);
    uint32_t second = index + 2 * (mid - begin);
    build_node(b, w, buf, mid, end, right, depth + 1, path | ((uint64_t)1 << depth), second, &got_right);
    *out = got_left;
    bounds_merge(out, &got_right);
    write_node(b->nodes, index, out, bounds_cone(out));
    b->nodes[4 * (size_t)index + 3].x = rs_uint_as_float(second);
}

static void subtree_task(void* ctx, uint32_t worker, uint32_t workers)
{
    (void)workers;
    Build* b = ctx;
    for (uint32_t i; (i = atomic_fetch_add(&b->next, 1u)) < b->subtree_count;) {
        const Node* t = &b->subtrees[i];
        Bounds got;
        build_node(b, &b->workers[worker], t->buf, t->begin, t->end, &t->bounds, t->depth, t->path, t->index, &got);
    }
}

/* Largest first, so that no worker is left with a big one at the end. */
static int larger_first(const void* a, const void* b)
{
    const Node *x = a, *y = b;
    uint32_t nx = x->end - x->begin, ny = y->end - y->begin;
    return nx != ny ? (nx < ny ? 1 : -1) : (x->index < y->index ? -1 : 1);
}

static void bin_task(void* ctx, uint32_t worker, uint32_t workers)
{
    (void)worker, (void)workers;
    Build* b = ctx;
    for (uint32_t i; (i = atomic_fetch_add(&b->next, 1u)) < b->chunk_count;) {
        Chunk* c = &b->chunks[i];
        const Node* t = &b->level[c->node];
        bin_lights(b->buffers[t->buf], b->ids, c->begin, c->end, &t->bn, c->bins);
    }
}

static void scatter_task(void* ctx, uint32_t worker, uint32_t workers)
{
    (void)worker, (void)workers;
    Build* b = ctx;
    for (uint32_t i; (i = atomic_fetch_add(&b->next, 1u)) < b->chunk_count;) {
        const Chunk* c = &b->chunks[i];
        const Node* t = &b->level[c->node];
        if (t->last >= 0)
            scatter(b->buffers[t->buf], b->buffers[!t->buf], b->ids, c->begin, c->end, t->last, c->first, c->second);
    }
}

/* Splits top node t, whose chunks are binned, and returns where its second child starts, with
 * both children's bounds; when binned (t->last >= 0) the copy is left to scatter_task, which
 * finds where each chunk's sides go in the chunk. */
static uint32_t split_top(Build* b, Node* t, Bounds* left, Bounds* right)
{
    t->last = -1;
    Bounds bins[BINS];
    if (t->ok) {
        for (int i = 0; i < BINS; ++i)
            bounds_empty(&bins[i]);
        for (uint32_t c = t->first_chunk; c < t->chunk_end; ++c)
            for (int i = 0; i < BINS; ++i)
                bounds_merge(&bins[i], &b->chunks[c].bins[i]);
        t->last = best_split(bins, &t->bounds);
    }
    if (t->last < 0) {
        uint32_t mid = split_median(b->buffers[t->buf], t->begin, t->end);
        bounds_of(b->buffers[t->buf], t->begin, mid, left);
        bounds_of(b->buffers[t->buf], mid, t->end, right);
        return mid;
    }
    sides_of(bins, t->last, left, right);
    uint32_t first = t->begin, second = t->begin + left->count;
    for (uint32_t c = t->first_chunk; c < t->chunk_end; ++c) {
        Chunk* ch = &b->chunks[c];
        ch->first = first;
        ch->second = second;
        for (int i = 0; i < BINS; ++i)
            *(i <= t->last ? &first : &second) += ch->bins[i].count;
    }
    return t->begin + left->count;
}

static int push_subtree(Build* b, const Node* t, RsError* err)
{
    if (b->subtree_count == b->subtree_cap) {
        uint32_t cap = b->subtree_cap ? 2 * b->subtree_cap : 64;
        Node* grown = realloc(b->subtrees, cap * sizeof *grown);
        if (!grown)
            return rs_error_set(err, "out of memory building the light tree");
        b->subtrees = grown;
        b->subtree_cap = cap;
    }
    b->subtrees[b->subtree_count++] = *t;
    return 0;
}

/* The top of the tree, a level at a time: every node of more than subtree_max lights is binned
 * and copied in chunks by all workers, and written (its bounds are known: its parent's split
 * found them); smaller nodes become subtrees. */
static int build_top(Build* b, RsError* err)
{
    while (b->level_count) {
        Node* next = b->spare;
        b->chunk_count = 0;
        for (uint32_t j = 0; j < b->level_count; ++j) {
            Node* t = &b->level[j];
            t->ok = t->depth < MEDIAN_DEPTH && binning_of(&t->bounds, &t->bn);
            t->first_chunk = b->chunk_count;
            for (uint32_t s = t->begin; t->ok && s < t->end; s += CHUNK) {
                Chunk* c = &b->chunks[b->chunk_count++];
                c->node = j;
                c->begin = s;
                c->end = t->end - s > CHUNK ? s + CHUNK : t->end;
            }
            t->chunk_end = b->chunk_count;
        }
        run_all(b, bin_task);
        uint32_t next_count = 0;
        for (uint32_t j = 0; j < b->level_count; ++j) {
            Node* t = &b->level[j];
            if (t->depth > b->workers[0].depth)
                b->workers[0].depth = t->depth;
            Node kids[2];
            uint32_t mid = split_top(b, t, &kids[0].bounds, &kids[1].bounds);
            uint32_t second = t->index + 2 * (mid - t->begin);
            write_node(b->nodes, t->index, &t->bounds, bounds_cone(&t->bounds));
            b->nodes[4 * (size_t)t->index + 3].x = rs_uint_as_float(second);
            for (int k = 0; k < 2; ++k) {
                Node* kid = &kids[k];
                kid->buf = t->last >= 0 ? !t->buf : t->buf;
                kid->begin = k ? mid : t->begin;
                kid->end = k ? t->end : mid;
                kid->depth = t->depth + 1;
                kid->index = k ? second : t->index + 1;
                kid->path = k ? t->path | ((uint64_t)1 << t->depth) : t->path;
                if (kid->end - kid->begin > b->subtree_max)
                    next[next_count++] = *kid;
                else if (push_subtree(b, kid, err))
                    return -1;
            }
        }
        run_all(b, scatter_task);
        b->spare = b->level;
        b->level = next;
        b->level_count = next_count;
    }
    return 0;
}

static int in_tree(const Build* b, uint32_t entry)
{
    /* lights at infinity (the environment, directional lights) are picked beside the tree */
    return b->power[entry] > 0.0 && isfinite(b->power[entry]) && entry < b->view->infinite_first &&
           entry != b->view->env_light;
}

static void set_axis(TreeLight* l, RsVec3 n, int two_sided)
{
    float len = rs_length(n);
    l->axis[3] = two_sided ? 1.0f : 0.0f;
    if (!(len > 0.0f)) { /* too small a triangle for its normal to be known */
        l->axis[0] = l->axis[1] = 0.0f;
        l->axis[2] = 1.0f;
        l->lo[3] = -1.0f;
        return;
    }
    n = rs_scale(n, 1.0f / len);
    if (two_sided) { /* the cone bounds the axis up to sign: one representative of the two */
        float big = rs_max_abs_component(n);
        float lead = fabsf(n.x) == big ? n.x : (fabsf(n.y) == big ? n.y : n.z);
        if (lead < 0.0f)
            n = rs_neg(n);
    }
    l->axis[0] = n.x;
    l->axis[1] = n.y;
    l->axis[2] = n.z;
}

/* The emitter of table entry `entry` as the tree sees it: a box, a cone (lo[3] = cos theta_o,
 * hi[3] = theta_e; pi / 2 but for spots), an axis. */
static void describe_light(const RsSceneView* v, uint32_t entry, double power, TreeLight* l)
{
    uint32_t emitter = rs_light_emitter(v->lights[entry]);
    RsVec3 lo, hi, axis = rs_vec3(0.0f, 0.0f, 1.0f);
    float cos_o = -1.0f, theta_e = (float)HALF_PI;
    int two_sided = 0;
    RsPrim placed; /* an emitting primitive in world space (an instance's copy) */
    if (emitter & RS_LIGHT_POINT_BIT) {
        const RsPointLight* pl = &v->point_lights[emitter & ~RS_LIGHT_POINT_BIT];
        lo = hi = rs_xyz(pl->a);
        if (rs_float_as_uint(pl->a.w) == RS_POINT_LIGHT_SPOT) {
            double start = acos(fmax(-1.0, fmin(1.0, (double)pl->c.w)));
            double end = acos(fmax(-1.0, fmin(1.0, (double)pl->b.w)));
            axis = rs_xyz(pl->c);
            cos_o = (float)cos(start);
            theta_e = (float)fmin(fmax(end - start, 0.0) + SPOT_SLACK, PI);
        }
    } else if (placed = rs_light_prim(v, emitter, rs_light_instance(v->lights[entry])),
               rs_prim_type(&placed) == RS_PRIM_SPHERE) {
        const RsPrim* prim = &placed;
        RsVec3 r = rs_vec3_splat(prim->b.x);
        lo = rs_sub(rs_xyz(prim->a), r);
        hi = rs_add(rs_xyz(prim->a), r);
    } else {
        const RsPrim* prim = &placed;
        RsVec3 v0 = rs_xyz(prim->a), v1 = rs_add(v0, rs_xyz(prim->b)), v2 = rs_add(v0, rs_xyz(prim->c));
        lo = rs_vmin(v0, rs_vmin(v1, v2));
        hi = rs_vmax(v0, rs_vmax(v1, v2));
        axis = rs_cross(rs_xyz(prim->b), rs_xyz(prim->c));
        cos_o = 1.0f;
        two_sided = rs_material_two_sided(&v->materials[rs_prim_material(prim)]) != 0;
    }
    float p = (float)power;
    l->lo[0] = lo.x, l->lo[1] = lo.y, l->lo[2] = lo.z, l->lo[3] = cos_o;
    l->hi[0] = hi.x, l->hi[1] = hi.y, l->hi[2] = hi.z, l->hi[3] = theta_e;
    l->power = p < FLT_MIN ? FLT_MIN : (p > POWER_MAX ? POWER_MAX : p);
    l->light = entry;
    set_axis(l, axis, two_sided);
}

/* Describes the tree's lights of a chunk of table entries into their slots of buffer 0 (from
 * c->first on), zeroes the chunk's trails and sums its lights' bounds into c->bins[0]. */
static void describe_task(void* ctx, uint32_t worker, uint32_t workers)
{
    (void)worker, (void)workers;
    Build* b = ctx;
    for (uint32_t i; (i = atomic_fetch_add(&b->next, 1u)) < b->chunk_count;) {
        Chunk* c = &b->chunks[i];
        memset(b->trails + c->begin, 0, (c->end - c->begin) * sizeof *b->trails);
        bounds_empty(&c->bins[0]);
        TreeLight* out = b->buffers[0] + c->first;
        for (uint32_t e = c->begin; e < c->end; ++e)
            if (in_tree(b, e)) {
                describe_light(b->view, e, b->power[e], out);
                bounds_add(&c->bins[0], out++);
            }
    }
}

/* Everything but the lights' records: the pool (when there are enough lights to pay for
 * starting one), the workers, the chunks, the top's levels. */
static int start_build(Build* b, uint32_t count, uint32_t n, uint32_t threads, RsError* err)
{
    uint32_t workers = threads ? threads : rs_cpu_count();
    if (workers > n / PER_WORKER)
        workers = n / PER_WORKER > 1 ? n / PER_WORKER : 1;
    if (workers > 1) {
        b->pool = rs_pool_create(workers, err);
        if (!b->pool)
            return -1;
        workers = rs_pool_size(b->pool);
    }
    b->workers = calloc(workers, sizeof *b->workers);
    b->worker_count = b->workers ? workers : 0;
    /* about 256 subtrees, whatever the number of workers, so that the tree does not depend on it
     * and an uneven split does not leave one worker the rest */
    b->subtree_max = n / 256 > SUBTREE_MIN ? n / 256 : SUBTREE_MIN;
    uint32_t level_max = n / (b->subtree_max + 1) + 1; /* a level's nodes hold more lights each */
    uint32_t entry_chunks = (count + ENTRY_CHUNK - 1) / ENTRY_CHUNK;
    uint32_t chunk_max = n / CHUNK + level_max;
    b->chunks = malloc((chunk_max > entry_chunks ? chunk_max : entry_chunks) * sizeof *b->chunks);
    b->level = malloc(2 * (size_t)level_max * sizeof *b->level);
    b->spare = b->level ? b->level + level_max : NULL;
    b->ids = malloc(n);
    if (!b->workers || !b->chunks || !b->level || !b->ids)
        return rs_error_set(err, "out of memory building the light tree (%u lights)", n);
    return 0;
}

static void end_build(Build* b)
{
    rs_pool_destroy(b->pool);
    free(b->buffers[0]);
    free(b->ids);
    free(b->workers);
    free(b->chunks);
    free(b->level < b->spare ? b->level : b->spare);
    free(b->subtrees);
}

/* The whole tree: the lights described, the top a level at a time, then the subtrees. */
static int build_tree(Build* b, uint32_t count, uint32_t n, uint32_t threads, RsError* err)
{
    if (start_build(b, count, n, threads, err))
        return -1;
    b->chunk_count = 0;
    for (uint32_t e = 0, slot = 0; e < count; e += ENTRY_CHUNK) {
        Chunk* c = &b->chunks[b->chunk_count++];
        c->begin = e;
        c->end = count - e > ENTRY_CHUNK ? e + ENTRY_CHUNK : count;
        c->first = slot;
        for (uint32_t i = c->begin; i < c->end; ++i)
            slot += (uint32_t)in_tree(b, i);
    }
    run_all(b, describe_task);
    if (!n)
        return 0;
    Node root;
    memset(&root, 0, sizeof root);
    bounds_empty(&root.bounds);
    for (uint32_t c = 0; c < b->chunk_count; ++c) /* in order: the same sum for any number of threads */
        bounds_merge(&root.bounds, &b->chunks[c].bins[0]);
    root.end = n;
    if (n > b->subtree_max) {
        b->level[0] = root;
        b->level_count = 1;
    } else if (push_subtree(b, &root, err))
        return -1;
    if (build_top(b, err))
        return -1;
    qsort(b->subtrees, b->subtree_count, sizeof *b->subtrees, larger_first);
    run_all(b, subtree_task);
    return 0;
}

/* With directional lights, the lights at infinity share env_prob by power (kernel light_tree.h):
 * a CDF within the group (its last entry exactly 1, like the power method's) and each one's
 * probability, indexed by table entry. Without any, nothing: the environment alone takes
 * env_prob, as it always did. */
static int build_infinite(RsLightTree* tree, const RsSceneView* view, const double* power, double total,
                          RsError* err)
{
    uint32_t count = view->light_count, first = view->infinite_first;
    if (first >= count || (count - first == 1 && view->env_light == first) || !(total > 0.0))
        return 0;
    tree->infinite_cdf = calloc(count, sizeof(float));
    tree->infinite_pmf = calloc(count, sizeof(float));
    if (!tree->infinite_cdf || !tree->infinite_pmf)
        return rs_error_set(err, "out of memory choosing among %u lights at infinity", count - first);
    uint32_t last = first;
    for (uint32_t i = first; i < count; ++i)
        if (power[i] > 0.0 && isfinite(power[i]))
            last = i;
    double cumulative = 0.0;
    for (uint32_t i = first; i < count; ++i) {
        double share = power[i] > 0.0 && isfinite(power[i]) ? power[i] / total : 0.0;
        cumulative += share;
        tree->infinite_cdf[i] = i >= last ? 1.0f : (float)cumulative;
        tree->infinite_pmf[i] = (float)(share * tree->env_prob);
    }
    return 0;
}

int rs_light_tree_build(RsLightTree* tree, const RsSceneView* view, const double* power, uint32_t threads,
                        RsError* err)
{
    uint32_t count = view->light_count;
    if (count >= MAX_LIGHTS)
        return rs_error_set(err, "too many lights for the light tree (%u; at most %u)", count, MAX_LIGHTS - 1);
    Build b;
    memset(&b, 0, sizeof b);
    b.view = view;
    b.power = power;
    uint32_t n = 0;
    double tree_power = 0.0, env_power = 0.0;
    for (uint32_t i = 0; i < count; ++i) {
        if (!(power[i] > 0.0) || !isfinite(power[i]))
            continue;
        if (i == view->env_light || i >= view->infinite_first) {
            env_power += power[i];
            continue;
        }
        ++n;
        tree_power += power[i];
    }
    /* the environment's share of the power, as RS_LIGHT_SELECT_POWER gives it */
    tree->env_prob = env_power > 0.0 ? (n ? (float)(env_power / (env_power + tree_power)) : 1.0f) : 0.0f;
    if (build_infinite(tree, view, power, env_power, err))
        return -1;
    b.buffers[0] = rs_alloc_aligned(n ? 2 * (size_t)n : 1, sizeof(TreeLight), 64);
    b.buffers[1] = b.buffers[0] ? b.buffers[0] + n : NULL;
    tree->trails = rs_alloc_aligned(count ? count : 1, sizeof(uint64_t), 16);
    tree->nodes = rs_alloc_aligned(n ? 8 * (size_t)n : 4, sizeof(RsFloat4), 64);
    int failed = 0;
    if (!b.buffers[0] || !tree->trails || !tree->nodes)
        failed = rs_error_set(err, "out of memory building the light tree (%u lights)", count);
    else {
        b.nodes = tree->nodes;
        b.trails = tree->trails;
        failed = build_tree(&b, count, n, threads, err);
    }
    tree->node_count = n ? 2 * n - 1 : 0;
    tree->depth = 0;
    for (uint32_t w = 0; b.workers && w < b.worker_count; ++w)
        if (b.workers[w].depth > tree->depth)
            tree->depth = b.workers[w].depth;
    end_build(&b);
    return failed;
}

void rs_light_tree_free(RsLightTree* tree)
{
    free(tree->infinite_cdf);
    free(tree->infinite_pmf);
    free(tree->nodes);
    free(tree->trails);
    memset(tree, 0, sizeof *tree);
}
