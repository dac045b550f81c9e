/* random_rays.h - the random rays the acceleration-structure tests throw at a scene, and the
 * brute-force answer. Host C11, header-only; used by test_accel.c (CPU traversal) and
 * tests/gpu/test_gpu_accel.c (GPU traversal).
 *
 * Ray i of seed s: an origin anywhere in a box twice the scene's size around it; every second
 * ray aims at a point inside a random primitive's box (so thin scenes get hit too), every
 * seventh otherwise is axis-parallel; every fifth has a finite tmax of half the scene's size.
 */
#ifndef RS_TESTS_RANDOM_RAYS_H
#define RS_TESTS_RANDOM_RAYS_H

#include "host/accel/bvh_binary.h"
#include "host/scene/scene.h"
#include "kernel/sampling/rng.h"
#include "kernel/sampling/warp.h"

typedef struct TestRay {
    RsVec3 o, d;
    float tmax;
} TestRay;

/* Returns 0 when ray i would be degenerate (aimed at its own origin): skip it. */
static inline int random_ray(const RsScene* s, uint32_t seed, uint32_t i, TestRay* r)
{
    RsVec3 lo = s->bounds_lo, size = rs_sub(s->bounds_hi, lo);
    uint32_t key = rs_rng_path_key(seed, i, 0);
    r->o = rs_add(lo, rs_mul(size, rs_vec3(2.0f * rs_rng(key, 0, 0) - 0.5f, 2.0f * rs_rng(key, 0, 1) - 0.5f,
                                           2.0f * rs_rng(key, 0, 2) - 0.5f)));
    r->d = rs_sample_uniform_sphere(rs_rng(key, 0, 3), rs_rng(key, 0, 4));
    if (i % 2 == 0) {
        RsVec3 plo, phi;
        rs_prim_bounds(&s->prims.data[rs_hash_u32(key) % s->prims.count], &plo, &phi);
        RsVec3 target = rs_add(plo, rs_mul(rs_sub(phi, plo), rs_vec3(rs_rng(key, 1, 0), rs_rng(key, 1, 1),
                                                                    rs_rng(key, 1, 2))));
        if (!(rs_length(rs_sub(target, r->o)) > 0.0f))
            return 0;
        r->d = rs_normalize(rs_sub(target, r->o));
    } else if (i % 7 == 0) {
        r->d = rs_vec3(i % 3 ? 1.0f : -1.0f, 0.0f, 0.0f);
    }
    r->tmax = i % 5 == 0 ? 0.5f * rs_length(size) : INFINITY;
    return 1;
}

/* Nearest t over every primitive of the scene (tmax if none); *prim gets its index. */
static inline float brute_force(const RsScene* s, const TestRay* r, uint32_t* prim)
{
    float best = r->tmax;
    *prim = RS_NO_HIT;
    for (size_t i = 0; i < s->prims.count; ++i) {
        float t, a, b;
        if (rs_intersect_prim(&s->prims.data[i], r->o, r->d, 0.0f, best, &t, &a, &b)) {
            best = t;
            *prim = (uint32_t)i;
        }
    }
    return best;
}

#endif /* RS_TESTS_RANDOM_RAYS_H */
