/* test_accel_threads.c - the BVH builders make the same tree whatever the thread count (host
 * suite).
 *
 * Ranks of one render may run on hosts with different core counts and must render the same
 * image, so a BVH's arrays must not depend on how many workers built it or which finished first
 * (docs/architecture.md, section 6). Over a triangle soup big enough that the top of the tree is
 * split by every worker together (bvh_binary_top.c) and with long thin triangles that spatial
 * splits cut, this builds the binary tree on 1, 2, 3 and 7 threads and compares its nodes and
 * references bytewise, then the finished bvh2 and bvh8 arrays (nodes and trace primitives) on
 * 1, 2 and 3 threads the same way, with spatial splits and without. It also checks that the build made spatial splits
 * (else the test would prove little). That such trees are sound and agree with brute force is
 * test_accel's job (its "soup of 40000" case goes through the same top-level split).
 * Host C11.
 */
#include <stdlib.h>
#include <string.h>

#include "host/accel/accel_build.h"
#include "host/accel/bvh_binary.h"
#include "kernel/sampling/rng.h"
#include "kernel/sampling/warp.h"
#include "tests/test.h"

#define TRIANGLES 36000u

static RsPrim* make_soup(uint32_t count)
{
    RsPrim* prims = calloc(count, sizeof *prims);
    if (!prims)
        return NULL;
    for (uint32_t i = 0; i < count; ++i) {
        uint32_t key = rs_rng_path_key(7, i, 1);
        RsVec3 c = rs_vec3(64.0f * rs_rng(key, 0, 0), 16.0f * rs_rng(key, 0, 1), 16.0f * rs_rng(key, 0, 2));
        float length = i % 8 == 0 ? 6.0f : 0.5f; /* every eighth long and thin: spatial splits cut these */
        RsVec3 v[3];
        for (int k = 0; k < 3; ++k)
            v[k] = rs_add(c, rs_scale(rs_sample_uniform_sphere(rs_rng(key, 1, (uint32_t)k), rs_rng(key, 2, (uint32_t)k)),
                                      0.1f + length * rs_rng(key, 3, (uint32_t)k)));
        RsVec3 e1 = rs_sub(v[1], v[0]), e2 = rs_sub(v[2], v[0]);
        prims[i].a = rs_pack(v[0], 0.0f);
        prims[i].b = rs_pack(e1, 0.0f);
        prims[i].c = rs_pack(e2, rs_uint_as_float(RS_PRIM_TRIANGLE));
    }
    return prims;
}

static void check_binary(const RsPrim* prims, uint32_t count, int spatial)
{
    static const uint32_t threads[] = {1, 2, 3, 7};
    RsBinaryBvh first;
    memset(&first, 0, sizeof first);
    for (size_t t = 0; t < sizeof threads / sizeof threads[0]; ++t) {
        RsError err = {{0}};
        RsThreadPool* pool = rs_pool_create(threads[t], &err);
        CHECK(pool, "pool of %u: %s", threads[t], err.message);
        if (!pool)
            return;
        RsBinaryOptions bo = {1, 1, 32, spatial, 1.0f / 0.3f, pool};
        RsBinaryBvh bvh;
        int failed = rs_binary_bvh_build(prims, count, &bo, &bvh, &err);
        rs_pool_destroy(pool);
        CHECK(!failed, "binary build on %u threads: %s", threads[t], err.message);
        if (failed)
            continue;
        if (t == 0) {
            first = bvh;
            printf("binary tree%s: %u nodes, %u references, %u spatial splits\n", spatial ? " with spatial splits" : "",
                   bvh.node_count, bvh.ref_count, bvh.spatial_splits_made);
            CHECK(!spatial || bvh.spatial_splits_made > 10, "only %u spatial splits: the test proves little",
                  bvh.spatial_splits_made);
            CHECK(!spatial || bvh.ref_count > count, "spatial splits duplicated no reference");
            continue;
        }
        CHECK(bvh.node_count == first.node_count && bvh.ref_count == first.ref_count &&
                  bvh.spatial_splits_made == first.spatial_splits_made,
              "%u threads: %u nodes, %u refs, %u splits; 1 thread: %u, %u, %u", threads[t], bvh.node_count,
              bvh.ref_count, bvh.spatial_splits_made, first.node_count, first.ref_count, first.spatial_splits_made);
        if (bvh.node_count == first.node_count && bvh.ref_count == first.ref_count) {
            CHECK(memcmp(bvh.nodes, first.nodes, bvh.node_count * sizeof *bvh.nodes) == 0,
                  "%u threads: the binary nodes differ from 1 thread's", threads[t]);
            CHECK(memcmp(bvh.refs, first.refs, bvh.ref_count * sizeof *bvh.refs) == 0,
                  "%u threads: the leaf references differ from 1 thread's", threads[t]);
        }
        rs_binary_bvh_free(&bvh);
    }
    rs_binary_bvh_free(&first);
}

/* The finished structure's arrays, as the backends upload them. */
static void arrays(const RsAccel* a, const void** nodes, size_t* node_bytes, const void** refs, size_t* ref_bytes)
{
    if (a->view.kind == RS_ACCEL_BVH2) {
        *nodes = a->view.bvh2.nodes;
        *node_bytes = a->view.bvh2.node_count * sizeof(RsBvh2Node);
        *refs = a->view.bvh2.prims;
        *ref_bytes = a->view.bvh2.prim_count * sizeof(RsPrim);
    } else {
        *nodes = a->view.bvh8.nodes;
        *node_bytes = a->view.bvh8.node_count * sizeof(RsBvh8Node);
        *refs = a->view.bvh8.prims;
        *ref_bytes = a->view.bvh8.prim_count * sizeof(RsPrim);
    }
}

static void check_accel(const RsPrim* prims, uint32_t count, uint32_t kind, int spatial)
{
    static const uint32_t threads[] = {1, 2, 3};
    RsAccel first;
    memset(&first, 0, sizeof first);
    for (size_t t = 0; t < sizeof threads / sizeof threads[0]; ++t) {
        RsAccelOptions opt = rs_accel_options_default();
        opt.kind = kind;
        opt.spatial_splits = spatial;
        opt.threads = threads[t];
        RsAccel a;
        RsError err = {{0}};
        int failed = rs_accel_build(prims, count, &opt, &a, &err);
        CHECK(!failed, "%s on %u threads: %s", rs_accel_name(kind), threads[t], err.message);
        if (failed)
            continue;
        if (t == 0) {
            first = a;
            printf("%s%s: %u nodes, SAH %.3f, %u spatial splits, %.3f s on 1 thread\n", rs_accel_name(kind),
                   spatial ? "+sbvh" : "", a.stats.nodes, a.stats.sah_cost, a.stats.spatial_splits,
                   a.stats.build_seconds);
            continue;
        }
        const void *n0, *r0, *n1, *r1;
        size_t nb0, rb0, nb1, rb1;
        arrays(&first, &n0, &nb0, &r0, &rb0);
        arrays(&a, &n1, &nb1, &r1, &rb1);
        CHECK(nb0 == nb1 && memcmp(n0, n1, nb0) == 0, "%s%s: the nodes built on %u threads differ from 1 thread's",
              rs_accel_name(kind), spatial ? "+sbvh" : "", threads[t]);
        CHECK(rb0 == rb1 && memcmp(r0, r1, rb0) == 0,
              "%s%s: the trace primitives built on %u threads differ from 1 thread's", rs_accel_name(kind),
              spatial ? "+sbvh" : "", threads[t]);
        rs_accel_free(&a);
    }
    rs_accel_free(&first);
}

int main(void)
{
    RsPrim* prims = make_soup(TRIANGLES);
    CHECK(prims, "out of memory");
    if (!prims)
        return rs_test_finish("test_accel_threads");
    for (int spatial = 1; spatial >= 0; --spatial) {
        check_binary(prims, TRIANGLES, spatial);
        check_accel(prims, TRIANGLES, RS_ACCEL_BVH2, spatial);
        check_accel(prims, TRIANGLES, RS_ACCEL_BVH8, spatial);
    }
    free(prims);
    return rs_test_finish("test_accel_threads");
}
