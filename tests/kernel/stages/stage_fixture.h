/* stage_fixture.h - a tiny scene and hand-made RayState rows for the stage unit tests.
 * Host C11. Scene: a diffuse floor quad at y = 0 (x, z in [-1, 1], material 0), a one-sided
 * emitter quad at y = 2 facing down (material 1, emission 4), a mirror sphere at (5, 1, 0)
 * radius 1 (material 2), and a constant environment of 0.25. */
#ifndef RS_TESTS_STAGE_FIXTURE_H
#define RS_TESTS_STAGE_FIXTURE_H

#include <stdlib.h>
#include <string.h>

#include "host/scene/scene.h"
#include "host/util/array.h"
#include "kernel/state/kernel_params.h"
#include "tests/test.h"

#define FIX_ROWS 64

typedef struct Fixture {
    RsScene scene;
    RsKernelParams kp;
} Fixture;

static inline void fixture_init(Fixture* f)
{
    RsError err = {{0}};
    RsScene* s = &f->scene;
    rs_scene_init(s);
    s->env.zenith = rs_float4(0.25f, 0.25f, 0.25f, rs_uint_as_float(RS_ENV_CONSTANT));
    rs_scene_add_material(s, "floor", rs_material_make(RS_MAT_DIFFUSE, rs_vec3(0.5f, 0.4f, 0.3f), rs_vec3_splat(0), 1, 0), &err);
    rs_scene_add_material(s, "light", rs_material_make(RS_MAT_DIFFUSE, rs_vec3_splat(0), rs_vec3_splat(4), 1, 0), &err);
    rs_scene_add_material(s, "mirror", rs_material_make(RS_MAT_MIRROR, rs_vec3_splat(0.9f), rs_vec3_splat(0), 1, 0), &err);
    rs_scene_add_triangle(s, rs_vec3(-1, 0, -1), rs_vec3(-1, 0, 1), rs_vec3(1, 0, 1), 0, &err);
    rs_scene_add_triangle(s, rs_vec3(-1, 0, -1), rs_vec3(1, 0, 1), rs_vec3(1, 0, -1), 0, &err);
    /* light: winding so that cross(e1, e2) points down */
    rs_scene_add_triangle(s, rs_vec3(-0.5f, 2, -0.5f), rs_vec3(0.5f, 2, -0.5f), rs_vec3(0.5f, 2, 0.5f), 1, &err);
    rs_scene_add_triangle(s, rs_vec3(-0.5f, 2, -0.5f), rs_vec3(0.5f, 2, 0.5f), rs_vec3(-0.5f, 2, 0.5f), 1, &err);
    rs_scene_add_sphere(s, rs_vec3(5, 1, 0), 1.0f, 2, &err);
    CHECK(rs_scene_build(s, &err) == 0, "%s", err.message);

    RsKernelParams* kp = &f->kp;
    memset(kp, 0, sizeof *kp);
    kp->scene = rs_scene_view(s);
    kp->width = 8;
    kp->height = 4;
    kp->span_first_index = 0; /* the whole image is one span */
    kp->span_pixels = kp->width * kp->height;
    kp->seed = 9;
    kp->max_depth = 8;
    kp->integrator = RS_INTEGRATOR_PATH;
    kp->rr_depth = 100; /* no roulette unless a test asks for it */
    kp->wave_paths = FIX_ROWS;
#define RS_ALLOC(type, name, lanes) kp->rays.name = rs_alloc_aligned(FIX_ROWS, sizeof(type), 16);
    RS_RAY_STATE_FIELDS(RS_ALLOC)
#undef RS_ALLOC
#define RS_ALLOC(type, name, lanes) kp->shadows.name = rs_alloc_aligned(FIX_ROWS, sizeof(type), 16);
    RS_SHADOW_STATE_FIELDS(RS_ALLOC)
#undef RS_ALLOC
    kp->path_radiance = calloc(FIX_ROWS, sizeof(RsFloat4));
    kp->film = calloc(kp->width * kp->height, sizeof(RsFloat4));
}

static inline void fixture_free(Fixture* f)
{
#define RS_FREE(type, name, lanes) free(f->kp.rays.name);
    RS_RAY_STATE_FIELDS(RS_FREE)
#undef RS_FREE
#define RS_FREE(type, name, lanes) free(f->kp.shadows.name);
    RS_SHADOW_STATE_FIELDS(RS_FREE)
#undef RS_FREE
    free(f->kp.path_radiance);
    free(f->kp.film);
    rs_scene_free(&f->scene);
}

/* Writes a ray into row `row` as generate or a previous shade would have. */
static inline void fixture_ray(Fixture* f, uint32_t row, RsVec3 o, RsVec3 d, uint32_t depth, RsVec3 throughput, float pdf)
{
    f->kp.rays.origin[row] = rs_pack(o, rs_uint_as_float(RS_NO_HIT));
    f->kp.rays.direction[row] = rs_pack(rs_normalize(d), RS_INFINITY);
    f->kp.rays.throughput[row] = rs_pack(throughput, pdf);
    f->kp.rays.path[row] = rs_uint4(row, row % 32, depth, 0u); /* sample 0 of pixel row % 32 */
    f->kp.path_radiance[row] = rs_float4(0, 0, 0, 0);
}

/* Finds the scene's (reordered) index of the primitive with material m. */
static inline uint32_t fixture_prim_with_material(const Fixture* f, uint32_t m)
{
    for (uint32_t i = 0; i < f->kp.scene.prim_count; ++i)
        if (rs_prim_material(&f->kp.scene.prims[i]) == m)
            return i;
    return RS_NO_HIT;
}

#endif /* RS_TESTS_STAGE_FIXTURE_H */
