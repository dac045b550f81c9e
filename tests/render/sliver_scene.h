/* sliver_scene.h - a floor of long thin triangles far from the origin. Host C11, header-only;
 * used by the self-hit tests on the CPU and the GPU.
 *
 * 200 strips of 0.005 x 1 (two triangles each, aspect 200:1) tile a tilted unit floor, which
 * sits 300 units from the origin, under a small area light and a dim sky; the camera looks
 * across it at 70 degrees from the normal. Slivers are where the triangle test's own rounding is largest
 * relative to the offset of a ray leaving them (Crytek Sponza is full of them).
 */
#ifndef RS_TESTS_SLIVER_SCENE_H
#define RS_TESTS_SLIVER_SCENE_H

#include "host/scene/scene.h"

/* A point of the tilted floor: x along u, z along v, y along the normal n. */
static inline RsVec3 sliver_point(RsVec3 at, RsVec3 u, RsVec3 n, RsVec3 v, float x, float y, float z)
{
    return rs_add(at, rs_add(rs_scale(u, x), rs_add(rs_scale(n, y), rs_scale(v, z))));
}

static inline int sliver_scene_build(RsScene* s, RsError* err)
{
    /* tilted, so that no coordinate of a hit point is exact */
    const RsVec3 at = rs_vec3(300.0f, 12.0f, -150.0f);
    RsVec3 n = rs_normalize(rs_vec3(0.3f, 1.0f, 0.2f));
    RsVec3 u = rs_normalize(rs_cross(n, rs_vec3(0.1f, 0.2f, 1.0f)));
    RsVec3 v = rs_cross(u, n);
    rs_scene_init(s);
    s->camera.eye = sliver_point(at, u, n, v, 0.0f, 0.5f, 1.4f);
    s->camera.look_at = at;
    s->camera.up = n;
    s->camera.fov_degrees = 40.0f;
    s->env.zenith = rs_float4(0.2f, 0.2f, 0.2f, rs_uint_as_float(RS_ENV_CONSTANT));
    int32_t floor_m = rs_scene_add_material(s, "floor", rs_material_make(RS_MAT_DIFFUSE, rs_vec3_splat(0.7f),
                                                                         rs_vec3_splat(0), 1.0f, 0), err);
    int32_t light_m = rs_scene_add_material(s, "light", rs_material_make(RS_MAT_DIFFUSE, rs_vec3_splat(0),
                                                                         rs_vec3_splat(10.0f), 1.0f, 0), err);
    if (floor_m < 0 || light_m < 0)
        return -1;
    const int strips = 200;
    const float w = 1.0f / strips;
    for (int i = 0; i < strips; ++i) {
        float x = -0.5f + w * (float)i;
        RsVec3 a = sliver_point(at, u, n, v, x, 0, -0.5f), b = sliver_point(at, u, n, v, x, 0, 0.5f);
        RsVec3 c = sliver_point(at, u, n, v, x + w, 0, 0.5f), d = sliver_point(at, u, n, v, x + w, 0, -0.5f);
        /* (a, b, c) winds so that cross(b - a, c - a) points along n */
        if (rs_scene_add_triangle(s, a, b, c, (uint32_t)floor_m, err) ||
            rs_scene_add_triangle(s, a, c, d, (uint32_t)floor_m, err))
            return -1;
    }
    /* light at height 0.5 above the floor's centre, facing it */
    RsVec3 l0 = sliver_point(at, u, n, v, -0.1f, 0.5f, -0.1f), l1 = sliver_point(at, u, n, v, 0.1f, 0.5f, -0.1f);
    RsVec3 l2 = sliver_point(at, u, n, v, 0.1f, 0.5f, 0.1f), l3 = sliver_point(at, u, n, v, -0.1f, 0.5f, 0.1f);
    /* (l0, l1, l2) winds so that cross(l1 - l0, l2 - l0) points along -n, at the floor */
    if (rs_scene_add_triangle(s, l0, l1, l2, (uint32_t)light_m, err) ||
        rs_scene_add_triangle(s, l0, l2, l3, (uint32_t)light_m, err))
        return -1;
    return rs_scene_build(s, err);
}

#endif /* RS_TESTS_SLIVER_SCENE_H */
