/* sppm_fixture.h - a small scene with visible points and photons for the SPPM tests
 * (test_photon_grid.c on the CPU, tests/gpu/test_gpu_sppm.cu against the GPU). Host C11, and
 * C++ for nvcc.
 *
 * Scene: a diffuse floor quad at y = 0 (x, z in [-1, 1]), a diffuse wall quad at x = -1 facing
 * +x, and a sphere of rough glass at (0.4, 0.3, 0.2) of radius 0.3 (photons inside it reach a
 * visible point on it through transmission). Visible points lie on all three,
 * seen from the front, with random radii (some 0: not started) and weights; photons are
 * scattered near visible points (within about a radius), on the surfaces, and a few far off,
 * with directions on both sides of the surfaces, so that the gather meets hits, misses, photons
 * from behind and buckets shared by several cells.
 */
#ifndef RS_TESTS_SPPM_FIXTURE_H
#define RS_TESTS_SPPM_FIXTURE_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif
#include "host/scene/material.h"
#include "host/scene/scene.h"
#ifdef __cplusplus
}
#endif
#include "kernel/particle/photon_grid.h"

typedef struct SppmFixture {
    RsScene scene;
    RsKernelParams kp;
    uint32_t pixels;
    RsPhoton* photons; /* the fixture's photons, in their canonical order */
    uint32_t photon_count;
    uint64_t queue_count;
    uint64_t state;    /* the random stream */
} SppmFixture;

static inline double sppm_rand(SppmFixture* f)
{
    uint64_t z = (f->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

static inline RsVec3 sppm_rand_dir(SppmFixture* f)
{
    double z = 2.0 * sppm_rand(f) - 1.0, phi = 2.0 * 3.14159265358979 * sppm_rand(f);
    double s = sqrt(1.0 - z * z);
    return rs_vec3((float)(s * cos(phi)), (float)(s * sin(phi)), (float)z);
}

/* A point of the scene's surfaces and the ray that sees it: prim, hit (t, b1, b2, prim bits),
 * origin, direction. Returns the point. */
static inline RsVec3 sppm_fixture_surface_point(SppmFixture* f, RsFloat4* origin, RsFloat4* dir, RsFloat4* hit)
{
    const RsSceneView* v = &f->kp.scene;
    uint32_t prim = (uint32_t)(sppm_rand(f) * v->prim_count) % v->prim_count;
    const RsPrim* p = &v->prims[prim];
    RsVec3 point, n;
    float b1 = 0.0f, b2 = 0.0f;
    if (rs_prim_type(p) == RS_PRIM_SPHERE) {
        RsVec3 d = sppm_rand_dir(f);
        RsVec3 c = rs_vec3(0.4f, 0.3f, 0.2f);
        point = rs_add(c, rs_scale(d, 0.3f));
        n = d;
    } else {
        b1 = (float)sppm_rand(f);
        b2 = (float)sppm_rand(f) * (1.0f - b1);
        RsSurfacePoint sp = rs_surface_on_triangle(p, prim, b1, b2);
        point = sp.p;
        n = sp.n;
    }
    RsVec3 d = sppm_rand_dir(f);
    if (rs_dot(d, n) < 0.2f)
        d = rs_normalize(rs_add(d, rs_scale(n, 1.2f - rs_dot(d, n))));
    float t = 0.5f + (float)sppm_rand(f);
    RsVec3 o = rs_add(point, rs_scale(d, t));
    *origin = rs_pack(o, rs_uint_as_float(RS_NO_HIT));
    *dir = rs_pack(rs_neg(d), RS_INFINITY);
    *hit = rs_float4(t, b1, b2, rs_uint_as_float(prim));
    return point;
}

/* The scene and the planes: width x height pixels, a fraction `visible` of them with a visible
 * point, `photons` photons; order keys unique (i * 3 + 1, shuffled into the canonical order). */
static inline void sppm_fixture_init(SppmFixture* f, uint32_t width, uint32_t height, double visible,
                                     uint32_t photons, uint64_t seed)
{
    RsError err;
    memset(&err, 0, sizeof err);
    memset(f, 0, sizeof *f);
    f->state = seed;
    RsScene* s = &f->scene;
    rs_scene_init(s);
    rs_scene_add_material(s, "floor", rs_material_make(RS_MAT_DIFFUSE, rs_vec3(0.5f, 0.4f, 0.3f), rs_vec3_splat(0), 1, 0), &err);
    rs_scene_add_material(s, "wall", rs_material_make(RS_MAT_DIFFUSE, rs_vec3(0.2f, 0.7f, 0.6f), rs_vec3_splat(0), 1, 0), &err);
    RsMaterialDesc glass = rs_material_desc(RS_MAT_DIELECTRIC); /* rough: transmission has a density */
    glass.roughness_u = glass.roughness_v = 0.5f;
    rs_scene_add_material(s, "ball", rs_material_from_desc(&glass), &err);
    rs_scene_add_triangle(s, rs_vec3(-1, 0, -1), rs_vec3(-1, 0, 1), rs_vec3(1, 0, 1), 0, &err);
    rs_scene_add_triangle(s, rs_vec3(-1, 0, -1), rs_vec3(1, 0, 1), rs_vec3(1, 0, -1), 0, &err);
    rs_scene_add_triangle(s, rs_vec3(-1, 0, -1), rs_vec3(-1, 1, -1), rs_vec3(-1, 1, 1), 1, &err);
    rs_scene_add_triangle(s, rs_vec3(-1, 0, -1), rs_vec3(-1, 1, 1), rs_vec3(-1, 0, 1), 1, &err);
    rs_scene_add_sphere(s, rs_vec3(0.4f, 0.3f, 0.2f), 0.3f, 2, &err);
    rs_scene_build(s, &err);

    RsKernelParams* kp = &f->kp;
    kp->scene = rs_scene_view(s);
    kp->width = width;
    kp->height = height;
    kp->span_pixels = width * height;
    kp->max_depth = 5;
    kp->integrator = RS_INTEGRATOR_SPPM;
    kp->particles.phase = RS_PHASE_PARTICLES;
    kp->particles.per_pass = photons ? photons : 1;
    kp->particles.sppm_alpha = 2.0f / 3.0f;
    kp->particles.sppm_radius = 0.08f;
    uint32_t pixels = f->pixels = width * height;
    kp->film = (RsFloat4*)calloc(pixels, sizeof(RsFloat4));
    kp->sppm_state = (RsFloat4*)calloc(2 * (size_t)pixels, sizeof(RsFloat4));
    kp->sppm_pass = (RsFloat4*)calloc(pixels, sizeof(RsFloat4));
    kp->visible.origin = (RsFloat4*)calloc(pixels, sizeof(RsFloat4));
    kp->visible.direction = (RsFloat4*)calloc(pixels, sizeof(RsFloat4));
    kp->visible.hit = (RsFloat4*)calloc(pixels, sizeof(RsFloat4));
    kp->visible.weight = (RsFloat4*)calloc(pixels, sizeof(RsFloat4));
    RsVec3* points = (RsVec3*)calloc(pixels, sizeof(RsVec3));
    for (uint32_t p = 0; p < pixels; ++p) {
        kp->visible.hit[p].w = rs_uint_as_float(RS_NO_HIT);
        if (sppm_rand(f) < visible)
            points[p] = sppm_fixture_surface_point(f, &kp->visible.origin[p], &kp->visible.direction[p],
                                                   &kp->visible.hit[p]);
        kp->visible.weight[p] = rs_float4((float)sppm_rand(f), (float)sppm_rand(f), (float)sppm_rand(f), 0.0f);
        /* a third not started (R = 0: the initial radius), the others shrunk to 25%..100% of it */
        double u = sppm_rand(f);
        kp->sppm_state[pixels + p].w = u < 0.33 ? 0.0f : kp->particles.sppm_radius * (float)(0.25 + 0.75 * sppm_rand(f));
        kp->sppm_state[p].w = (float)(int)(sppm_rand(f) * 50.0); /* N */
    }

    f->photon_count = photons;
    f->photons = (RsPhoton*)calloc(photons ? photons : 1, sizeof(RsPhoton));
    for (uint32_t i = 0; i < photons; ++i) {
        RsVec3 pos;
        double kind = sppm_rand(f);
        uint32_t p = (uint32_t)(sppm_rand(f) * pixels) % pixels;
        if (kind < 0.6 && rs_float_as_uint(kp->visible.hit[p].w) != RS_NO_HIT) /* near a visible point */
            pos = rs_add(points[p], rs_scale(sppm_rand_dir(f), 0.09f * (float)sppm_rand(f)));
        else if (kind < 0.97) { /* anywhere on a surface */
            RsFloat4 o, d, h;
            pos = sppm_fixture_surface_point(f, &o, &d, &h);
        } else /* far from everything (and outside the scene's bounds) */
            pos = rs_vec3((float)(40.0 * sppm_rand(f) - 20.0), (float)(-5.0 * sppm_rand(f)), 3.0f);
        RsVec3 power = rs_vec3((float)sppm_rand(f), (float)sppm_rand(f), (float)sppm_rand(f));
        f->photons[i].position = rs_pack(pos, rs_uint_as_float(3u * i + 1u));
        f->photons[i].direction = rs_pack(sppm_rand_dir(f), 0.0f);
        f->photons[i].power = rs_pack(power, 0.0f);
    }
    for (uint32_t i = photons; i > 1; --i) { /* the canonical order is not the order keys' */
        uint32_t j = (uint32_t)(sppm_rand(f) * i) % i;
        RsPhoton t = f->photons[i - 1];
        f->photons[i - 1] = f->photons[j];
        f->photons[j] = t;
    }
    free(points);
    kp->photons.capacity = photons ? photons : 1;
    kp->photons.entries = (RsPhoton*)calloc(kp->photons.capacity, sizeof(RsPhoton));
    kp->photons.count = &f->queue_count;
}

/* Appends the photons [first, first + n) to the queue, in the order perm gives (NULL: as they
 * are). */
static inline void sppm_fixture_append(SppmFixture* f, uint32_t first, uint32_t n, const uint32_t* perm)
{
    for (uint32_t k = 0; k < n; ++k) {
        const RsPhoton* p = &f->photons[first + (perm ? perm[k] : k)];
        rs_photon_add(f->kp.photons, rs_xyz(p->position), rs_xyz(p->direction), rs_xyz(p->power),
                      rs_photon_order(p));
    }
}

static inline void sppm_fixture_free(SppmFixture* f)
{
    RsKernelParams* kp = &f->kp;
    free(kp->film);
    free(kp->sppm_state);
    free(kp->sppm_pass);
    free(kp->visible.origin);
    free(kp->visible.direction);
    free(kp->visible.hit);
    free(kp->visible.weight);
    free(kp->photons.entries);
    free(f->photons);
    rs_scene_free(&f->scene);
}

#endif /* RS_TESTS_SPPM_FIXTURE_H */
