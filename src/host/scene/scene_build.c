/* scene_build.c - rs_scene_build: what a scene needs before it is rendered, once its shapes
 * are in: the acceleration structure, the bounds, the environment map's CDF, the light table
 * (lights.c), the light selection (light_select.c) and the cut-out view (see scene.h). Host C11.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host/accel/bvh_binary.h"
#include "host/scene/light_select.h"
#include "host/scene/lights.h"
#include "host/scene/scene.h"

/* The instance record of `to_world` placing object `object` (kernel/accel/instance.h). */
static RsInstance instance_record(const RsTransform* t, uint32_t object, int spheres)
{
    double m[3][4], inv[3][4];
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 4; ++c)
            m[r][c] = t->m[r][c];
    double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                 m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) {
            /* the adjugate's (r, c) entry: the cofactor of (c, r) */
            int r0 = (c + 1) % 3, r1 = (c + 2) % 3, c0 = (r + 1) % 3, c1 = (r + 2) % 3;
            inv[r][c] = (m[r0][c0] * m[r1][c1] - m[r0][c1] * m[r1][c0]) / det;
        }
    for (int r = 0; r < 3; ++r)
        inv[r][3] = -(inv[r][0] * m[0][3] + inv[r][1] * m[1][3] + inv[r][2] * m[2][3]);
    RsInstance in;
    int identity = 1;
    for (int r = 0; r < 3; ++r) {
        in.to_world[r] = rs_float4(t->m[r][0], t->m[r][1], t->m[r][2], t->m[r][3]);
        in.to_object[r] = rs_float4((float)inv[r][0], (float)inv[r][1], (float)inv[r][2], (float)inv[r][3]);
        for (int c = 0; c < 4; ++c)
            identity &= t->m[r][c] == (r == c ? 1.0f : 0.0f);
    }
    float scale = rs_length(rs_vec3(t->m[0][0], t->m[1][0], t->m[2][0]));
    uint32_t flags = (identity ? RS_INSTANCE_IDENTITY : 0u) | (det < 0.0 ? RS_INSTANCE_MIRROR : 0u) |
                     (spheres && scale != 1.0f ? RS_INSTANCE_RESCALE : 0u);
    in.meta = rs_uint4(object, RS_NO_LIGHT, flags, rs_float_as_uint(scale));
    return in;
}

static void free_instanced(RsScene* scene)
{
    rs_two_level_free(&scene->two_level);
    scene->view_prims.count = scene->view_shading.count = 0;
    scene->object_ranges.count = scene->instance_records.count = 0;
}

/* The grid has no two-level form: every instance is copied into view_prims (the world's
 * primitives first), as raystream did before it had one. */
static int flatten_for_grid(RsScene* scene, RsError* err)
{
    rs_scene_warn(scene, "%s: the grid has no two-level structure: its %zu instances were copied into the world "
                         "(bvh2 and bvh8 keep them as instances)",
                  scene->file ? scene->file : "scene", scene->instances.count);
    if (rs_array_reserve(&scene->view_prims, scene->prims.count, err) ||
        (scene->shading.count && rs_array_reserve(&scene->view_shading, scene->shading.count, err)))
        return -1;
    memcpy(scene->view_prims.data, scene->prims.data, scene->prims.count * sizeof(RsPrim));
    scene->view_prims.count = scene->prims.count;
    if (scene->shading.count)
        memcpy(scene->view_shading.data, scene->shading.data, scene->shading.count * sizeof(RsShading));
    scene->view_shading.count = scene->shading.count;
    /* the add calls append to scene->prims: lend them the copies */
    RsScene* s = scene;
    RS_ARRAY(RsPrim) prims = {s->prims.data, s->prims.count, s->prims.capacity};
    RS_ARRAY(RsShading) shading = {s->shading.data, s->shading.count, s->shading.capacity};
    s->prims.data = s->view_prims.data, s->prims.count = s->view_prims.count, s->prims.capacity = s->view_prims.capacity;
    s->shading.data = s->view_shading.data, s->shading.count = s->view_shading.count,
    s->shading.capacity = s->view_shading.capacity;
    uint32_t degenerate = s->skipped_degenerate;
    int status = 0;
    for (size_t i = 0; i < scene->instances.count && !status; ++i)
        status = rs_scene_flatten_instance(scene, &scene->instances.data[i], err);
    s->skipped_degenerate = degenerate;
    s->view_prims.data = s->prims.data, s->view_prims.count = s->prims.count, s->view_prims.capacity = s->prims.capacity;
    s->view_shading.data = s->shading.data, s->view_shading.count = s->shading.count,
    s->view_shading.capacity = s->shading.capacity;
    s->prims.data = prims.data, s->prims.count = prims.count, s->prims.capacity = prims.capacity;
    s->shading.data = shading.data, s->shading.count = shading.count, s->shading.capacity = shading.capacity;
    scene->world_prim_count = (uint32_t)scene->view_prims.count;
    return status;
}

/* The instances' part of the scene's bounds, as the two-level structure has it (the union of
 * their boxes), so that the grid's flattened copy gets the same bounds and so the same
 * environment power and light table as bvh2 and bvh8 (lights.h). */
static void instance_bounds(const RsScene* scene, RsVec3* lo, RsVec3* hi)
{
    for (size_t i = 0; i < scene->instances.count; ++i) {
        const RsSceneObject* o = &scene->objects.data[scene->instances.data[i].object];
        if (o->prim_count == 0)
            continue;
        RsVec3 olo = rs_vec3_splat(INFINITY), ohi = rs_vec3_splat(-INFINITY);
        for (uint32_t k = 0; k < o->prim_count; ++k) {
            RsVec3 plo, phi;
            rs_prim_bounds(&scene->object_prims.data[o->first_prim + k], &plo, &phi);
            olo = rs_vmin(olo, plo);
            ohi = rs_vmax(ohi, phi);
        }
        RsInstance in = instance_record(&scene->instances.data[i].to_world, 0, 0);
        RsVec3 ilo, ihi;
        rs_instance_world_box(&in, olo, ohi, &ilo, &ihi);
        *lo = rs_vmin(*lo, ilo);
        *hi = rs_vmax(*hi, ihi);
    }
}

/* The world's primitives followed by every object's, the object ranges in that numbering (the
 * world itself as one more object with --two-level), and the instance records. */
static int prepare_instanced(RsScene* scene, int world_as_instance, RsError* err)
{
    static const RsShading flat;
    size_t world = scene->prims.count, objects = scene->object_prims.count, total = world + objects;
    if (total > 0x7fffffffu)
        return rs_error_set(err, "%s: too many primitives (%zu)", scene->file ? scene->file : "scene", total);
    if (rs_array_reserve(&scene->view_prims, total, err))
        return -1;
    if (world) /* memcpy from NULL is undefined even for 0 bytes */
        memcpy(scene->view_prims.data, scene->prims.data, world * sizeof(RsPrim));
    if (objects)
        memcpy(scene->view_prims.data + world, scene->object_prims.data, objects * sizeof(RsPrim));
    scene->view_prims.count = total;
    if (scene->shading.count || scene->object_shading.count) {
        if (rs_array_reserve(&scene->view_shading, total, err))
            return -1;
        for (size_t i = 0; i < world; ++i)
            scene->view_shading.data[i] = scene->shading.count ? scene->shading.data[i] : flat;
        for (size_t i = 0; i < objects; ++i)
            scene->view_shading.data[world + i] = scene->object_shading.count ? scene->object_shading.data[i] : flat;
        scene->view_shading.count = total;
    }
    for (size_t o = 0; o < scene->objects.count; ++o) {
        uint32_t range[2] = {(uint32_t)world + scene->objects.data[o].first_prim, scene->objects.data[o].prim_count};
        if (rs_array_push(&scene->object_ranges, range[0], err) || rs_array_push(&scene->object_ranges, range[1], err))
            return -1;
    }
    for (size_t i = 0; i < scene->instances.count; ++i)
        if (rs_array_push(&scene->instance_records,
                          instance_record(&scene->instances.data[i].to_world, scene->instances.data[i].object,
                                          scene->objects.data[scene->instances.data[i].object].sphere_count > 0),
                          err))
            return -1;
    scene->world_prim_count = (uint32_t)world;
    if (world_as_instance && world) {
        RsTransform id = rs_transform_identity();
        uint32_t object = (uint32_t)scene->objects.count;
        if (rs_array_push(&scene->object_ranges, 0u, err) || rs_array_push(&scene->object_ranges, (uint32_t)world, err) ||
            rs_array_push(&scene->instance_records, instance_record(&id, object, 0), err))
            return -1;
        scene->world_prim_count = 0;
    }
    return 0;
}

int rs_scene_build(RsScene* scene, RsError* err)
{
    const char* file = scene->file ? scene->file : "scene";
    if (scene->open_object >= 0)
        return rs_error_set(err, "%s: internal error: an object is still open", file);
    if (scene->camera.projection != RS_PROJECTION_PERSPECTIVE &&
        (scene->camera.projection != RS_PROJECTION_ORTHOGRAPHIC || !(scene->camera.ortho_height > 0.0f) ||
         !isfinite(scene->camera.ortho_height)))
        return rs_error_set(err, "%s: an orthographic camera needs a finite ortho_height > 0", file);
    uint64_t placed = 0;
    for (size_t i = 0; i < scene->instances.count; ++i)
        placed += scene->objects.data[scene->instances.data[i].object].prim_count;
    if (scene->prims.count == 0 && placed == 0)
        return rs_error_set(err, "%s: the scene has no shapes with any area", file);
    if (scene->prims.count > 0x7fffffffu)
        return rs_error_set(err, "%s: too many primitives (%zu)", file, scene->prims.count);
    rs_accel_free(&scene->accel);
    free_instanced(scene);
    int grid = scene->accel_options.kind == RS_ACCEL_GRID;
    int two_level = !grid && (scene->instances.count > 0 || scene->accel_options.two_level);
    if (grid && scene->instances.count && flatten_for_grid(scene, err))
        return -1;
    if (grid && scene->accel_options.two_level)
        rs_scene_warn(scene, "%s: --two-level: the grid has no two-level structure; built flat", file);
    if (two_level && prepare_instanced(scene, scene->accel_options.two_level, err))
        return -1;
    uint32_t prim_count;
    const RsPrim* prims = rs_scene_view_prims(scene, &prim_count);
    if (!two_level)
        scene->world_prim_count = prim_count;
    uint32_t world = scene->world_prim_count;
    /* the grid's flattened instances are bounded as bvh2 and bvh8 bound them */
    uint32_t bounded = grid && scene->instances.count ? (uint32_t)scene->prims.count : world;
    if (world) {
        RsAccelOptions world_opt = scene->accel_options;
        world_opt.camera_tree = world_opt.camera_tree && !two_level; /* instances: camera rays walk the TLAS */
        if (rs_accel_build(prims, world, &world_opt, &scene->accel, err))
            return -1;
    } else {
        scene->accel.view.kind = scene->accel_options.kind; /* empty: no world geometry */
    }
    RsVec3 lo = rs_vec3_splat(INFINITY), hi = rs_vec3_splat(-INFINITY);
    if (grid && scene->instances.count)
        instance_bounds(scene, &lo, &hi);
    for (uint32_t i = 0; i < bounded; ++i) {
        RsVec3 plo, phi;
        rs_prim_bounds(&prims[i], &plo, &phi);
        lo = rs_vmin(lo, plo);
        hi = rs_vmax(hi, phi);
    }
    if (two_level) {
        if (rs_two_level_build(prims, scene->object_ranges.data, (uint32_t)(scene->object_ranges.count / 2),
                               scene->instance_records.data, (uint32_t)scene->instance_records.count,
                               &scene->accel_options, &scene->two_level, err))
            return -1;
        lo = rs_vmin(lo, scene->two_level.bounds_lo);
        hi = rs_vmax(hi, scene->two_level.bounds_hi);
    }
    scene->bounds_lo = lo;
    scene->bounds_hi = hi;
    free(scene->lights);
    scene->lights = NULL;
    rs_light_select_free(&scene->light_select);
    if (rs_float_as_uint(scene->env.zenith.w) == RS_ENV_MAP) {
        if (scene->env_map.width == 0)
            return rs_error_set(err, "%s: internal error: an environment map without an image", file);
        if (rs_env_map_build_cdf(&scene->env_map, err))
            return -1;
    }
    if (rs_scene_select_lights(scene, scene->render.light_sampler, err))
        return -1;
    scene->has_cutouts = 0;
    for (size_t i = 0; i < scene->materials.count; ++i)
        scene->has_cutouts |= rs_float_as_uint(scene->materials.data[i].e.y) != RS_NO_TEXTURE ||
                              scene->materials.data[i].g.w > 0.0f; /* an alpha texture, or opacity < 1 */
    RsSceneView view = rs_scene_view(scene);
    scene->cutouts.prims = view.prims;
    scene->cutouts.materials = scene->materials.data;
    scene->cutouts.shading = view.shading;
    scene->cutouts.textures = rs_texture_set_view(&scene->textures);
    scene->built = 1;
    return 0;
}

int rs_scene_select_lights(RsScene* scene, uint32_t method, RsError* err)
{
    double* power = NULL;
    free(scene->lights);
    scene->lights = NULL;
    rs_light_select_free(&scene->light_select);
    if (rs_scene_build_lights(scene, 0.5f * rs_length(rs_sub(scene->bounds_hi, scene->bounds_lo)), &power, err))
        return -1;
    RsSceneView view = rs_scene_view(scene); /* the table and what it names; no selection yet */
    int failed = rs_light_select_build(&scene->light_select, method, &view, power, scene->accel_options.threads, err);
    free(power);
    if (failed)
        return -1;
    scene->render.light_sampler = method;
    return 0;
}

int rs_scene_set_render(RsScene* scene, const RsRenderDesc* render, RsError* err)
{
    if (render->light_sampler != scene->render.light_sampler &&
        rs_scene_select_lights(scene, render->light_sampler, err))
        return -1;
    scene->render = *render;
    return 0;
}
