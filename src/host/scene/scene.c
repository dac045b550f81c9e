/* scene.c - the host scene: adding shapes, materials and lights, and the view per-ray code
 * reads (see scene.h; rs_scene_build is scene_build.c's). Host C11.
 */
#define _POSIX_C_SOURCE 200809L
#include "host/scene/scene.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/scene/settings.h"
#include "kernel/sampling/sampler.h"

void rs_scene_init(RsScene* scene)
{
    memset(scene, 0, sizeof *scene);
    scene->camera.eye = rs_vec3(0.0f, 0.0f, 0.0f);
    scene->camera.look_at = rs_vec3(0.0f, 0.0f, -1.0f);
    scene->camera.up = rs_vec3(0.0f, 1.0f, 0.0f);
    scene->camera.fov_degrees = 40.0f;
    scene->render.width = 512;
    scene->render.height = 512;
    scene->render.spp = 16;
    scene->render.max_depth = 8;
    scene->render.integrator = RS_INTEGRATOR_PATH;
    /* the defaults that reach a clean image soonest (docs/rendering.md, "Time to a clean image") */
    scene->render.sampler = RS_SAMPLER_SOBOL;
    scene->render.light_sampler = RS_LIGHT_SELECT_TREE;
    scene->render.noise_threshold = 0.0f;
    scene->render.min_spp = RS_DEFAULT_MIN_SPP;
    scene->env.zenith = rs_float4(0.0f, 0.0f, 0.0f, rs_uint_as_float(RS_ENV_CONSTANT));
    scene->accel_options = rs_accel_options_default();
    scene->open_object = -1;
    rs_texture_set_init(&scene->textures);
}

void rs_scene_free(RsScene* scene)
{
    for (size_t i = 0; i < scene->material_names.count; ++i)
        free(scene->material_names.data[i]);
    rs_array_free(&scene->material_names);
    for (size_t i = 0; i < scene->warnings.count; ++i)
        free(scene->warnings.data[i]);
    rs_array_free(&scene->warnings);
    rs_name_index_free(&scene->material_index);
    rs_array_free(&scene->materials);
    rs_array_free(&scene->material_descs);
    rs_array_free(&scene->prims);
    rs_array_free(&scene->shading);
    rs_array_free(&scene->point_lights);
    rs_array_free(&scene->objects);
    rs_array_free(&scene->instances);
    rs_array_free(&scene->object_prims);
    rs_array_free(&scene->object_shading);
    rs_array_free(&scene->view_prims);
    rs_array_free(&scene->view_shading);
    rs_array_free(&scene->object_ranges);
    rs_array_free(&scene->instance_records);
    rs_two_level_free(&scene->two_level);
    rs_texture_set_free(&scene->textures);
    rs_env_map_free(&scene->env_map);
    rs_accel_free(&scene->accel);
    free(scene->lights);
    rs_light_select_free(&scene->light_select);
    free(scene->file);
    memset(scene, 0, sizeof *scene);
}

void rs_scene_warn(RsScene* scene, const char* fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    char* copy = scene->warnings.count < RS_SCENE_MAX_WARNINGS ? strdup(text) : NULL;
    RsError ignored = {{0}};
    if (!copy || rs_array_push(&scene->warnings, copy, &ignored)) {
        free(copy);
        scene->warnings_dropped++;
    }
}

int32_t rs_scene_find_material(const RsScene* scene, const char* name)
{
    return rs_name_index_find(&scene->material_index, scene->material_names.data, name);
}

/* Adds kernel blocks m with the description they came from (names, index and arrays in step). */
static int32_t add_material_with_desc(RsScene* scene, const char* name, RsMaterial m, const RsMaterialDesc* desc,
                                      RsError* err)
{
    if (rs_scene_find_material(scene, name) >= 0) {
        rs_error_set(err, "duplicate material name '%s'", name);
        return -1;
    }
    /* room first, so that a failure leaves names, index and materials in step */
    if (rs_array_reserve(&scene->materials, 1, err) || rs_array_reserve(&scene->material_names, 1, err) ||
        rs_array_reserve(&scene->material_descs, 1, err))
        return -1;
    uint32_t position = (uint32_t)scene->materials.count;
    char* copy = strdup(name);
    if (!copy)
        return rs_error_set(err, "out of memory adding material '%s'", name);
    scene->material_names.data[position] = copy;
    if (rs_name_index_add(&scene->material_index, scene->material_names.data, position, err)) {
        free(copy);
        return -1;
    }
    scene->material_names.count++;
    scene->materials.data[scene->materials.count++] = m;
    scene->material_descs.data[scene->material_descs.count++] = *desc;
    return (int32_t)position;
}

int32_t rs_scene_add_material(RsScene* scene, const char* name, RsMaterial m, RsError* err)
{
    RsMaterialDesc unknown;
    memset(&unknown, 0, sizeof unknown);
    unknown.type = RS_MATERIAL_DESC_UNKNOWN;
    return add_material_with_desc(scene, name, m, &unknown, err);
}

int32_t rs_scene_add_material_desc(RsScene* scene, const char* name, const RsMaterialDesc* desc, RsError* err)
{
    return add_material_with_desc(scene, name, rs_material_from_desc(desc), desc, err);
}


/* Pushes p with its shading entry. The shading array is created (flat entries for every
 * primitive so far) only when the first primitive with vertex normals or texture coordinates
 * arrives, so scenes without any pay nothing. */
static int push_prim(RsScene* scene, RsPrim p, const RsShading* shading, RsError* err)
{
    static const RsShading flat;
    /* shading.count is 0 or prims.count; room first, so that the two stay in step */
    int tracked = shading != NULL || scene->shading.count > 0;
    if (tracked && rs_array_reserve(&scene->shading, scene->prims.count + 1 - scene->shading.count, err))
        return -1;
    if (rs_array_push(&scene->prims, p, err))
        return -1;
    if (tracked) {
        while (scene->shading.count < scene->prims.count - 1)
            scene->shading.data[scene->shading.count++] = flat;
        scene->shading.data[scene->shading.count++] = shading ? *shading : flat;
    }
    return 0;
}

/* Vertex normals that can shade: finite and not zero; otherwise the triangle is flat. */
static int usable_normals(const RsVec3* n)
{
    for (int k = 0; k < 3; ++k) {
        float len2 = rs_dot(n[k], n[k]);
        if (!(len2 > 1e-12f && len2 < 1e30f))
            return 0;
    }
    return 1;
}

/* Texture coordinates that can be interpolated: finite and within +-1e6 (beyond, float spacing
 * exceeds a texel of any texture raystream accepts); otherwise the triangle has none. */
static int usable_uvs(const float* uv)
{
    for (int k = 0; k < 6; ++k)
        if (!(fabsf(uv[k]) <= 1e6f))
            return 0;
    return 1;
}

int rs_scene_add_triangle_shaded(RsScene* scene, RsVec3 v0, RsVec3 v1, RsVec3 v2, const RsVec3* n, const float* uv,
                                 uint32_t material, RsError* err)
{
    RsVec3 e1 = rs_sub(v1, v0), e2 = rs_sub(v2, v0);
    if (rs_length(rs_cross(e1, e2)) == 0.0f) {
        scene->skipped_degenerate++; /* no area: never hit, and cannot be sampled as a light */
        return 0;
    }
    RsPrim p;
    p.a = rs_pack(v0, rs_uint_as_float(material));
    p.b = rs_pack(e1, rs_uint_as_float(RS_NO_LIGHT)); /* rs_scene_build names its light */
    p.c = rs_pack(e2, rs_uint_as_float(RS_PRIM_TRIANGLE));
    uint32_t flags = 0;
    RsVec3 normal[3] = {rs_vec3_splat(0.0f), rs_vec3_splat(0.0f), rs_vec3_splat(0.0f)};
    float coords[6] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
    if (n && usable_normals(n)) {
        flags |= RS_SHADING_NORMALS;
        for (int k = 0; k < 3; ++k)
            normal[k] = rs_normalize(n[k]);
    }
    if (uv && usable_uvs(uv)) {
        flags |= RS_SHADING_UVS;
        memcpy(coords, uv, sizeof coords);
    }
    if (!flags)
        return push_prim(scene, p, NULL, err);
    RsShading s;
    s.a = rs_pack(normal[0], coords[0]);
    s.b = rs_pack(normal[1], coords[2]);
    s.c = rs_pack(normal[2], coords[4]);
    s.d = rs_float4(coords[1], coords[3], coords[5], rs_uint_as_float(flags));
    return push_prim(scene, p, &s, err);
}

int rs_scene_add_triangle(RsScene* scene, RsVec3 v0, RsVec3 v1, RsVec3 v2, uint32_t material, RsError* err)
{
    return rs_scene_add_triangle_shaded(scene, v0, v1, v2, NULL, NULL, material, err);
}

int rs_scene_add_sphere(RsScene* scene, RsVec3 centre, float radius, uint32_t material, RsError* err)
{
    RsPrim p;
    p.a = rs_pack(centre, rs_uint_as_float(material));
    p.b = rs_float4(radius, 0.0f, 0.0f, rs_uint_as_float(RS_NO_LIGHT));
    p.c = rs_float4(0.0f, 0.0f, 0.0f, rs_uint_as_float(RS_PRIM_SPHERE));
    return push_prim(scene, p, NULL, err);
}

int rs_scene_add_point_light(RsScene* scene, RsVec3 position, RsVec3 intensity, RsError* err)
{
    RsPointLight l;
    l.a = rs_pack(position, rs_uint_as_float(RS_POINT_LIGHT_POINT));
    l.b = rs_pack(intensity, -1.0f);
    l.c = rs_float4(0.0f, 0.0f, 1.0f, -1.0f);
    return rs_array_push(&scene->point_lights, l, err);
}

int rs_scene_add_spot_light(RsScene* scene, RsVec3 position, RsVec3 axis, RsVec3 intensity, float cone_degrees,
                            float delta_degrees, RsError* err)
{
    RsPointLight l;
    float to_radians = RS_PI / 180.0f;
    l.a = rs_pack(position, rs_uint_as_float(RS_POINT_LIGHT_SPOT));
    l.b = rs_pack(intensity, cosf(cone_degrees * to_radians));
    l.c = rs_pack(rs_normalize(axis), cosf((cone_degrees - delta_degrees) * to_radians));
    return rs_array_push(&scene->point_lights, l, err);
}

int rs_scene_add_directional_light(RsScene* scene, RsVec3 direction, RsVec3 irradiance, RsError* err)
{
    const char* file = scene->file ? scene->file : "scene";
    float len = rs_length(direction);
    if (!(len > 0.0f) || !isfinite(len))
        return rs_error_set(err, "%s: a directional light needs a finite, non-zero direction", file);
    if (!(irradiance.x >= 0.0f && irradiance.y >= 0.0f && irradiance.z >= 0.0f) || !isfinite(irradiance.x) ||
        !isfinite(irradiance.y) || !isfinite(irradiance.z))
        return rs_error_set(err, "%s: a directional light's irradiance must be finite and at least 0", file);
    RsPointLight l;
    l.a = rs_pack(rs_scale(direction, 1.0f / len), rs_uint_as_float(RS_POINT_LIGHT_DIRECTIONAL));
    l.b = rs_pack(irradiance, 0.0f);
    l.c = rs_float4(0.0f, 0.0f, 0.0f, 0.0f);
    return rs_array_push(&scene->point_lights, l, err);
}

int32_t rs_scene_add_checkerboard(RsScene* scene, RsVec3 colour0, RsVec3 colour1, RsError* err)
{
    const float c[6] = {colour0.x, colour0.y, colour0.z, colour1.x, colour1.y, colour1.z};
    for (int i = 0; i < 6; ++i)
        if (!(c[i] >= 0.0f) || !isfinite(c[i]))
            return rs_error_set(err, "%s: a checkerboard's colours must be finite and at least 0",
                                scene->file ? scene->file : "scene");
    return rs_texture_add_checkerboard(&scene->textures, colour0, colour1, err);
}

/* ---- objects and instances ---- */

/* While an object is open its primitives are recorded in scene->prims (so every add call works
 * unchanged); these swaps move the world's arrays aside and back. */
#define RS_SWAP_ARRAYS(type, a, b)                                          \
    do {                                                                   \
        type* data_ = (a).data;                                            \
        size_t count_ = (a).count, capacity_ = (a).capacity;               \
        (a).data = (b).data, (a).count = (b).count, (a).capacity = (b).capacity; \
        (b).data = data_, (b).count = count_, (b).capacity = capacity_;    \
    } while (0)

static void swap_prim_arrays(RsScene* scene)
{
    RS_SWAP_ARRAYS(RsPrim, scene->prims, scene->object_prims);
    RS_SWAP_ARRAYS(RsShading, scene->shading, scene->object_shading);
}

int32_t rs_scene_begin_object(RsScene* scene, RsError* err)
{
    if (scene->open_object >= 0)
        return rs_error_set(err, "%s: an object is already open", scene->file ? scene->file : "scene");
    RsSceneObject object = {(uint32_t)scene->object_prims.count, 0, 0};
    if (rs_array_push(&scene->objects, object, err))
        return -1;
    scene->open_object = (int32_t)(scene->objects.count - 1);
    swap_prim_arrays(scene);
    return scene->open_object;
}

int rs_scene_end_object(RsScene* scene, RsError* err)
{
    if (scene->open_object < 0)
        return rs_error_set(err, "%s: no object is open", scene->file ? scene->file : "scene");
    RsSceneObject* object = &scene->objects.data[scene->open_object];
    object->prim_count = (uint32_t)(scene->prims.count - object->first_prim);
    for (uint32_t k = 0; k < object->prim_count; ++k)
        object->sphere_count += rs_prim_type(&scene->prims.data[object->first_prim + k]) == RS_PRIM_SPHERE;
    scene->open_object = -1;
    swap_prim_arrays(scene);
    return 0;
}

/* The shading entry of object primitive i, or NULL when it has none. */
static const RsShading* object_shading_of(const RsScene* scene, size_t i)
{
    if (i >= scene->object_shading.count)
        return NULL;
    const RsShading* s = &scene->object_shading.data[i];
    return rs_float_as_uint(s->d.w) ? s : NULL;
}

/* Whether `t`'s linear part is a rotation (or mirror) times one scale, within float rounding:
 * a sphere stays a sphere only then. *scale gets the scale. */
static int uniform_scale(const RsTransform* t, float* scale)
{
    RsVec3 axis[3];
    for (int a = 0; a < 3; ++a)
        axis[a] = rs_vec3(t->m[0][a], t->m[1][a], t->m[2][a]);
    float s0 = rs_length(axis[0]), s1 = rs_length(axis[1]), s2 = rs_length(axis[2]);
    *scale = s0;
    return !(fabsf(s0 - s1) > 1e-4f * s0 || fabsf(s0 - s2) > 1e-4f * s0 ||
             fabsf(rs_dot(axis[0], axis[1])) > 1e-4f * s0 * s1 || fabsf(rs_dot(axis[0], axis[2])) > 1e-4f * s0 * s2 ||
             fabsf(rs_dot(axis[1], axis[2])) > 1e-4f * s1 * s2);
}

/* An instance is recorded; rs_scene_build gives it its record and the two-level structure. */
int rs_scene_add_instance(RsScene* scene, uint32_t object, const RsTransform* to_world, RsError* err)
{
    const char* file = scene->file ? scene->file : "scene";
    if (scene->open_object >= 0)
        return rs_error_set(err, "%s: an instance cannot be placed while an object is open", file);
    if (object >= scene->objects.count)
        return rs_error_set(err, "%s: instance of object %u, which does not exist", file, object);
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 4; ++c)
            if (!(fabsf(to_world->m[r][c]) <= 1e18f))
                return rs_error_set(err, "%s: an instance's transform is not finite", file);
    const RsTransform* m = to_world;
    double det = (double)m->m[0][0] * ((double)m->m[1][1] * m->m[2][2] - (double)m->m[1][2] * m->m[2][1]) -
                 (double)m->m[0][1] * ((double)m->m[1][0] * m->m[2][2] - (double)m->m[1][2] * m->m[2][0]) +
                 (double)m->m[0][2] * ((double)m->m[1][0] * m->m[2][1] - (double)m->m[1][1] * m->m[2][0]);
    if (!(fabs(det) > 1e-30)) { /* a zero scale (glTF hides nodes so): nothing to draw */
        rs_scene_warn(scene, "%s: an instance of object %u with a singular transform (a zero scale) is not drawn",
                      file, object);
        return 0;
    }
    float scale;
    if (scene->objects.data[object].sphere_count && !uniform_scale(to_world, &scale))
        return rs_error_set(err, "%s: a sphere in an instance must be scaled uniformly (no shear or stretch)", file);
    if (scene->instances.count >= 0x7fffffffu) /* two_level.h marks leaves with the top bit */
        return rs_error_set(err, "%s: too many instances (at most 2^31 - 1)", file);
    RsSceneInstance instance = {object, *to_world};
    return rs_array_push(&scene->instances, instance, err);
}

int rs_scene_flatten_instance(RsScene* scene, const RsSceneInstance* instance, RsError* err)
{
    const RsTransform* to_world = &instance->to_world;
    const RsSceneObject* o = &scene->objects.data[instance->object];
    for (uint32_t k = 0; k < o->prim_count; ++k) {
        size_t i = o->first_prim + k;
        const RsPrim* p = &scene->object_prims.data[i];
        uint32_t material = rs_float_as_uint(p->a.w);
        if (rs_float_as_uint(p->c.w) == RS_PRIM_SPHERE) {
            RsVec3 centre = rs_transform_point(to_world, rs_xyz(p->a));
            float scale;
            uniform_scale(to_world, &scale);
            if (rs_scene_add_sphere(scene, centre, p->b.x * scale, material, err))
                return -1;
            continue;
        }
        RsVec3 v0 = rs_xyz(p->a), v1 = rs_add(v0, rs_xyz(p->b)), v2 = rs_add(v0, rs_xyz(p->c));
        const RsShading* s = object_shading_of(scene, i);
        RsVec3 n[3];
        float uv[6];
        const RsVec3* normals = NULL;
        const float* coords = NULL;
        if (s) {
            uint32_t flags = rs_float_as_uint(s->d.w);
            const RsFloat4* rows[3] = {&s->a, &s->b, &s->c};
            for (int v = 0; v < 3; ++v) {
                n[v] = rs_transform_normal(to_world, rs_xyz(*rows[v]));
                uv[2 * v] = rows[v]->w;
            }
            uv[1] = s->d.x;
            uv[3] = s->d.y;
            uv[5] = s->d.z;
            normals = (flags & RS_SHADING_NORMALS) ? n : NULL;
            coords = (flags & RS_SHADING_UVS) ? uv : NULL;
        }
        if (rs_scene_add_triangle_shaded(scene, rs_transform_point(to_world, v0), rs_transform_point(to_world, v1),
                                         rs_transform_point(to_world, v2), normals, coords, material, err))
            return -1;
    }
    return 0;
}

RsSceneAccelBytes rs_scene_accel_bytes(const RsScene* scene)
{
    RsSceneAccelBytes b;
    b.world = scene->accel.stats.bytes;
    b.blas = scene->two_level.blas_bytes;
    b.tlas = scene->two_level.tlas_bytes;
    b.instances = scene->two_level.instance_bytes;
    b.instance_count = scene->two_level.view.instance_count;
    b.object_count = scene->two_level.view.object_count;
    return b;
}

const RsPrim* rs_scene_view_prims(const RsScene* scene, uint32_t* count)
{
    if (scene->view_prims.count) {
        *count = (uint32_t)scene->view_prims.count;
        return scene->view_prims.data;
    }
    *count = (uint32_t)scene->prims.count;
    return scene->prims.data;
}

RsSceneView rs_scene_view(const RsScene* scene)
{
    RsSceneView v;
    memset(&v, 0, sizeof v);
    v.accel = scene->accel.view;
    v.accel.inst = scene->two_level.view;
    uint32_t prim_count;
    v.prims = rs_scene_view_prims(scene, &prim_count);
    v.materials = scene->materials.data;
    if (scene->view_prims.count)
        v.shading = scene->view_shading.count ? scene->view_shading.data : NULL;
    else
        v.shading = scene->shading.count ? scene->shading.data : NULL;
    v.lights = scene->lights;
    v.point_lights = scene->point_lights.count ? scene->point_lights.data : NULL;
    v.point_light_count = (uint32_t)scene->point_lights.count;
    v.textures = rs_texture_set_view(&scene->textures);
    const RsCutouts* cutouts = scene->has_cutouts ? &scene->cutouts : NULL;
    v.accel.bvh2.cutouts = v.accel.bvh8.cutouts = v.accel.grid.cutouts = cutouts;
    v.prim_count = prim_count;
    v.material_count = (uint32_t)scene->materials.count;
    v.light_count = scene->light_count;
    v.light_select = rs_light_select_view(&scene->light_select);
    v.env = scene->env;
    v.env_map = rs_env_map_view(&scene->env_map);
    v.env_light = scene->env_light;
    v.infinite_first = scene->infinite_first;
    v.bounds_lo = rs_pack(scene->bounds_lo, 0.0f);
    v.bounds_hi = rs_pack(scene->bounds_hi, 0.0f);
    return v;
}

RsCamera rs_camera_make(const RsCameraDesc* desc, uint32_t width, uint32_t height)
{
    RsVec3 to_target = rs_sub(desc->look_at, desc->eye);
    RsVec3 forward = rs_normalize(to_target);
    RsVec3 right = rs_normalize(rs_cross(forward, desc->up));
    RsVec3 up = rs_cross(right, forward);
    float tan_y = tanf(0.5f * desc->fov_degrees * RS_PI / 180.0f);
    float tan_x = tan_y * (float)width / (float)height;
    float focus = desc->focus_distance > 0.0f ? desc->focus_distance : rs_length(to_target);
    RsCamera c;
    c.eye = rs_pack(desc->eye, desc->aperture_radius);
    c.right = rs_pack(right, tan_x);
    c.up = rs_pack(up, tan_y);
    c.forward = rs_pack(forward, focus);
    c.projection = rs_float4(rs_uint_as_float(RS_CAMERA_PERSPECTIVE), 0.0f, 0.0f, 0.0f);
    if (desc->projection == RS_PROJECTION_ORTHOGRAPHIC) {
        float half_h = 0.5f * desc->ortho_height;
        c.right.w = half_h * (float)width / (float)height;
        c.up.w = half_h;
        c.projection.x = rs_uint_as_float(RS_CAMERA_ORTHOGRAPHIC);
    }
    return c;
}
