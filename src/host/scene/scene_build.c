/* scene_build.c - rs_scene_build: what a scene needs before it is rendered, once its shapes
 * are in: the acceleration structure, the bounds, the environment map's CDF, the light table
 * (lights.c), the light selection (light_select.c) and the cut-out view (see scene.h). Host C11.
 */
#include <math.h>
#include <stdlib.h>

#include "host/accel/bvh_binary.h"
#include "host/scene/light_select.h"
#include "host/scene/lights.h"
#include "host/scene/scene.h"

int rs_scene_build(RsScene* scene, RsError* err)
{
    const char* file = scene->file ? scene->file : "scene";
    if (scene->open_object >= 0)
        return rs_error_set(err, "%s: internal error: an object is still open", file);
    if (scene->camera.projection != RS_PROJECTION_PERSPECTIVE &&
        (scene->camera.projection != RS_PROJECTION_ORTHOGRAPHIC || !(scene->camera.ortho_height > 0.0f) ||
         !isfinite(scene->camera.ortho_height)))
        return rs_error_set(err, "%s: an orthographic camera needs a finite ortho_height > 0", file);
    if (scene->prims.count == 0)
        return rs_error_set(err, "%s: the scene has no shapes with any area", file);
    if (scene->prims.count > 0x7fffffffu)
        return rs_error_set(err, "%s: too many primitives (%zu)", file, scene->prims.count);
    rs_accel_free(&scene->accel);
    if (rs_accel_build(scene->prims.data, (uint32_t)scene->prims.count, &scene->accel_options, &scene->accel, err))
        return -1;
    RsVec3 lo = rs_vec3_splat(INFINITY), hi = rs_vec3_splat(-INFINITY);
    for (size_t i = 0; i < scene->prims.count; ++i) {
        RsVec3 plo, phi;
        rs_prim_bounds(&scene->prims.data[i], &plo, &phi);
        lo = rs_vmin(lo, plo);
        hi = rs_vmax(hi, phi);
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
    scene->cutouts.prims = scene->prims.data;
    scene->cutouts.materials = scene->materials.data;
    scene->cutouts.shading = scene->shading.count ? scene->shading.data : NULL;
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
