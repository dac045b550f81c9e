/* scene_json.c - strict reader of the JSON scene format (versions 1 and 2) (scenes/README.md). Host C11.
 *
 * Strict means: every key is known, every value has the right type and range, every number is
 * finite and within RS_SCENE_MAX_MAGNITUDE (so that it is finite as the 32-bit float it is stored
 * as), no string holds a NUL character, every name resolves, every file is a regular file that
 * exists and holds triangles, and every path fits. Each failure becomes one
 * message naming the file, the JSON path and the problem, e.g.
 *   scenes/foo.json: materials[2].ior: must be > 0 (got -1)
 * and syntax errors name the line and column:
 *   scenes/foo.json:12:7: JSON syntax error near '}'
 * Nothing is partially loaded: on failure the scene is freed.
 */
#define _POSIX_C_SOURCE 200809L
#include "host/import/json/scene_json.h"

#include <cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/import/json/json_camera.h"
#include "host/import/json/json_light.h"
#include "host/import/json/json_material.h"
#include "host/import/json/json_object.h"
#include "host/import/json/json_reader.h"
#include "host/import/mesh/mesh_import.h"
#include "host/io/safe_file.h"
#include "host/scene/transform.h"

#define RS_FILE_PATH_MAX 4096 /* resolved mesh paths */

static int read_render(const RsJsonReader* r, const cJSON* node)
{
    static const char* const keys[] = {"integrator", "max_depth", "spp",           "seed",
                                       "sampler",    "light_sampler", "noise_threshold", "min_spp", NULL};
    const char* path = "render";
    RsRenderDesc* rd = &r->scene->render;
    if (rs_json_expect_object(r, node, path) || rs_json_check_keys(r, node, path, keys))
        return -1;
    const char *integrator = NULL, *sampler = NULL, *light_sampler = NULL;
    double threshold = rd->noise_threshold;
    if (rs_json_get_string(r, node, path, "integrator", 0, &integrator) ||
        rs_json_get_string(r, node, path, "sampler", 0, &sampler) ||
        rs_json_get_string(r, node, path, "light_sampler", 0, &light_sampler) ||
        rs_json_get_uint(r, node, path, "max_depth", 0, 1, RS_SCENE_MAX_DEPTH, &rd->max_depth) ||
        rs_json_get_uint(r, node, path, "spp", 0, 1, RS_SCENE_MAX_SPP, &rd->spp) ||
        rs_json_get_uint(r, node, path, "seed", 0, 0, 4294967295.0, &rd->seed) ||
        rs_json_get_uint(r, node, path, "min_spp", 0, 1, RS_SCENE_MAX_SPP, &rd->min_spp) ||
        rs_json_get_number(r, node, path, "noise_threshold", 0, &threshold))
        return -1;
    if (!(threshold >= 0.0 && threshold <= RS_MAX_NOISE_THRESHOLD))
        return rs_json_fail(r, "render.noise_threshold", "must be in [0, %g] (0: adaptive sampling off; got %g)",
                            RS_MAX_NOISE_THRESHOLD, threshold);
    rd->noise_threshold = (float)threshold;
    if (integrator && rs_integrator_parse(integrator, &rd->integrator))
        return rs_json_fail(r, "render.integrator", "must be \"path\", \"whitted\", \"light\" or \"sppm\" (got \"%s\")", integrator);
    if (sampler && rs_sampler_parse(sampler, &rd->sampler))
        return rs_json_fail(r, "render.sampler", "must be one of %s (got \"%s\")", rs_sampler_list(), sampler);
    if (light_sampler && rs_light_sampler_parse(light_sampler, &rd->light_sampler))
        return rs_json_fail(r, "render.light_sampler", "must be one of %s (got \"%s\")", rs_light_sampler_list(),
                            light_sampler);
    return 0;
}

/* {"type": "map", "file": "sky.hdr", "scale": s or [r, g, b], "rotation": degrees}: an
 * equirectangular image (src/kernel/light/env_map.h), turned about +y by `rotation`. */
static int read_environment_map(const RsJsonReader* r, const cJSON* node)
{
    const char* path = "environment";
    static const char* const keys[] = {"type", "file", "scale", "rotation", NULL};
    const char* file = NULL;
    RsVec3 scale = rs_vec3_splat(1.0f);
    double rotation = 0.0;
    if (rs_json_check_keys(r, node, path, keys) || rs_json_get_string(r, node, path, "file", 1, &file) ||
        rs_json_get_scale(r, node, path, "scale", &scale) || rs_json_get_number(r, node, path, "rotation", 0, &rotation))
        return -1;
    char full[4096], message_where[RS_PATH_MAX + 64];
    if (rs_json_resolve_path(r, "environment.file", file, full, sizeof full))
        return -1;
    snprintf(message_where, sizeof message_where, "%s: environment.file", r->file);
    if (rs_env_map_load(&r->scene->env_map, full, message_where, r->err) ||
        rs_file_list_add(r->files, full, r->err))
        return -1;
    double radians = fmod(rotation, 360.0) * (RS_PI / 180.0);
    RsEnvironment* env = &r->scene->env;
    env->zenith = rs_pack(scale, rs_uint_as_float(RS_ENV_MAP));
    env->horizon = rs_float4((float)cos(radians), (float)sin(radians), 0.0f, 0.0f);
    env->ground = rs_float4(0.0f, 0.0f, 0.0f, 0.0f);
    return 0;
}

static int read_environment(const RsJsonReader* r, const cJSON* node)
{
    const char* path = "environment";
    RsEnvironment* env = &r->scene->env;
    if (rs_json_expect_object(r, node, path))
        return -1;
    const char* type = NULL;
    if (rs_json_get_string(r, node, path, "type", 1, &type))
        return -1;
    if (strcmp(type, "constant") == 0) {
        static const char* const keys[] = {"type", "color", NULL};
        RsVec3 c = rs_vec3_splat(0.0f);
        if (rs_json_check_keys(r, node, path, keys) || rs_json_get_vec3(r, node, path, "color", 1, &c) ||
            rs_json_check_colour_range(r, path, "color", c, INFINITY))
            return -1;
        env->zenith = rs_pack(c, rs_uint_as_float(RS_ENV_CONSTANT));
        return 0;
    }
    if (strcmp(type, "sky") == 0) {
        static const char* const keys[] = {"type", "zenith", "horizon", "ground", NULL};
        RsVec3 zenith = rs_vec3(0.25f, 0.45f, 1.0f), horizon = rs_vec3(1.0f, 1.0f, 1.0f),
               ground = rs_vec3(0.3f, 0.28f, 0.25f);
        if (rs_json_check_keys(r, node, path, keys) || rs_json_get_vec3(r, node, path, "zenith", 0, &zenith) ||
            rs_json_get_vec3(r, node, path, "horizon", 0, &horizon) || rs_json_get_vec3(r, node, path, "ground", 0, &ground) ||
            rs_json_check_colour_range(r, path, "zenith", zenith, INFINITY) ||
            rs_json_check_colour_range(r, path, "horizon", horizon, INFINITY) ||
            rs_json_check_colour_range(r, path, "ground", ground, INFINITY))
            return -1;
        env->zenith = rs_pack(zenith, rs_uint_as_float(RS_ENV_SKY));
        env->horizon = rs_pack(horizon, 0.0f);
        env->ground = rs_pack(ground, 0.0f);
        return 0;
    }
    if (strcmp(type, "map") == 0)
        return read_environment_map(r, node);
    return rs_json_fail(r, "environment.type", "must be \"constant\", \"sky\" or \"map\" (got \"%s\")", type);
}

static int read_material_ref(const RsJsonReader* r, const cJSON* node, const char* path, int required, int32_t* out)
{
    const char* name = NULL;
    *out = -1;
    if (rs_json_get_string(r, node, path, "material", required, &name))
        return -1;
    if (!name)
        return 0;
    *out = rs_scene_find_material(r->scene, name);
    if (*out < 0) {
        char where[RS_PATH_MAX];
        rs_json_join_key(where, path, "material");
        return rs_json_fail(r, where, "no material named '%s'", name);
    }
    return 0;
}

static int read_points(const RsJsonReader* r, const cJSON* node, const char* path, int count, RsVec3* out)
{
    int status = 0;
    const cJSON* arr = rs_json_member(r, node, path, "vertices", 1, &status);
    if (!arr)
        return status;
    char where[RS_PATH_MAX];
    rs_json_join_key(where, path, "vertices");
    if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) != count)
        return rs_json_fail(r, where, "must be an array of %d points [x, y, z]", count);
    for (int i = 0; i < count; ++i) {
        char elem[RS_PATH_MAX];
        rs_json_join_index(elem, where, i);
        const cJSON* p = cJSON_GetArrayItem(arr, i);
        if (!cJSON_IsArray(p) || cJSON_GetArraySize(p) != 3)
            return rs_json_fail(r, elem, "must be an array of 3 numbers");
        double v[3];
        for (int k = 0; k < 3; ++k) {
            char comp[RS_PATH_MAX];
            rs_json_join_index(comp, elem, k);
            if (rs_json_read_number(r, cJSON_GetArrayItem(p, k), comp, &v[k]))
                return -1;
        }
        out[i] = rs_vec3((float)v[0], (float)v[1], (float)v[2]);
    }
    return 0;
}

static int read_transform(const RsJsonReader* r, const cJSON* node, const char* path, RsTransform* out)
{
    static const char* const keys[] = {"translate", "rotate", "scale", "matrix", NULL};
    *out = rs_transform_identity();
    if (!node)
        return 0;
    if (rs_json_expect_object(r, node, path) || rs_json_check_keys(r, node, path, keys))
        return -1;
    char where[RS_PATH_MAX];
    const cJSON* matrix = cJSON_GetObjectItemCaseSensitive(node, "matrix");
    if (matrix) {
        rs_json_join_key(where, path, "matrix");
        if (node->child->next)
            return rs_json_fail(r, where, "cannot be combined with translate, rotate or scale");
        if (!cJSON_IsArray(matrix) || cJSON_GetArraySize(matrix) != 16)
            return rs_json_fail(r, where, "must be an array of 16 numbers (row-major 4x4)");
        double m[16];
        for (int i = 0; i < 16; ++i) {
            char elem[RS_PATH_MAX];
            rs_json_join_index(elem, where, i);
            if (rs_json_read_number(r, cJSON_GetArrayItem(matrix, i), elem, &m[i]))
                return -1;
        }
        if (m[12] != 0.0 || m[13] != 0.0 || m[14] != 0.0 || m[15] != 1.0)
            return rs_json_fail(r, where, "the last row must be [0, 0, 0, 1] (affine transforms only)");
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 4; ++j)
                out->m[i][j] = (float)m[i * 4 + j];
        return 0;
    }
    RsVec3 translate = rs_vec3_splat(0.0f), scale = rs_vec3_splat(1.0f);
    if (rs_json_get_vec3(r, node, path, "translate", 0, &translate))
        return -1;
    const cJSON* s = cJSON_GetObjectItemCaseSensitive(node, "scale");
    if (s && cJSON_IsNumber(s)) {
        double k = 1.0;
        rs_json_join_key(where, path, "scale");
        if (rs_json_read_number(r, s, where, &k))
            return -1;
        scale = rs_vec3_splat((float)k);
    } else if (s && rs_json_get_vec3(r, node, path, "scale", 0, &scale)) {
        return -1;
    }
    if (!(fabsf(scale.x) >= RS_SCENE_MIN_LENGTH && fabsf(scale.y) >= RS_SCENE_MIN_LENGTH &&
          fabsf(scale.z) >= RS_SCENE_MIN_LENGTH)) {
        rs_json_join_key(where, path, "scale");
        return rs_json_fail(r, where, "must not be 0 or below %g in size (it would flatten the mesh)", RS_SCENE_MIN_LENGTH);
    }
    RsTransform rot = rs_transform_identity();
    const cJSON* rotate = cJSON_GetObjectItemCaseSensitive(node, "rotate");
    if (rotate) {
        rs_json_join_key(where, path, "rotate");
        if (!cJSON_IsArray(rotate) || cJSON_GetArraySize(rotate) != 4)
            return rs_json_fail(r, where, "must be [angle_degrees, axis_x, axis_y, axis_z]");
        double a[4];
        for (int i = 0; i < 4; ++i) {
            char elem[RS_PATH_MAX];
            rs_json_join_index(elem, where, i);
            if (rs_json_read_number(r, cJSON_GetArrayItem(rotate, i), elem, &a[i]))
                return -1;
        }
        RsVec3 axis = rs_vec3((float)a[1], (float)a[2], (float)a[3]);
        if (rs_length(axis) == 0.0f)
            return rs_json_fail(r, where, "the rotation axis must not be zero");
        rot = rs_transform_rotate((float)a[0], axis);
    }
    RsTransform sc = rs_transform_scale(scale), tr = rs_transform_translate(translate);
    RsTransform rs = rs_transform_compose(&rot, &sc);
    *out = rs_transform_compose(&tr, &rs);
    return 0;
}

/* Whether a surface of material m reads any image at its texture coordinates: the colour, but
 * also the cut-out mask (e.y, read by traversal: cutout.h), emission, roughness, normal and bump
 * maps. A quad given coordinates for the colour only would silently ignore the others. */
static int material_reads_images(const RsMaterial* m)
{
    const uint32_t images[] = {rs_material_colour_texture(m), rs_float_as_uint(m->e.y), rs_material_emission_texture(m),
                               rs_material_roughness_texture(m), rs_material_normal_map(m), rs_material_bump_map(m)};
    for (size_t i = 0; i < sizeof images / sizeof images[0]; ++i)
        if (images[i] != RS_NO_TEXTURE)
            return 1;
    return 0;
}

static int read_shape(const RsJsonReader* r, const cJSON* node, const char* path)
{
    if (rs_json_expect_object(r, node, path))
        return -1;
    const char* type = NULL;
    if (rs_json_get_string(r, node, path, "type", 1, &type))
        return -1;
    char where[RS_PATH_MAX];
    int32_t material = -1;
    RsScene* scene = r->scene;
    if (strcmp(type, "sphere") == 0) {
        static const char* const keys[] = {"type", "center", "radius", "material", NULL};
        RsVec3 centre;
        double radius;
        if (rs_json_check_keys(r, node, path, keys) || rs_json_get_vec3(r, node, path, "center", 1, &centre) ||
            rs_json_get_number(r, node, path, "radius", 1, &radius) || read_material_ref(r, node, path, 1, &material))
            return -1;
        if (rs_json_check_length(r, path, "radius", radius))
            return -1;
        return rs_scene_add_sphere(scene, centre, (float)radius, (uint32_t)material, r->err);
    }
    if (strcmp(type, "quad") == 0 || strcmp(type, "triangle") == 0) {
        static const char* const keys[] = {"type", "vertices", "material", NULL};
        int n = type[0] == 'q' ? 4 : 3;
        RsVec3 v[4];
        if (rs_json_check_keys(r, node, path, keys) || read_points(r, node, path, n, v) ||
            read_material_ref(r, node, path, 1, &material))
            return -1;
        size_t before = scene->prims.count;
        /* texture coordinates only where an image needs them (they cost 64 bytes a triangle):
         * the vertices in order are the image's corners (0, 0), (1, 0), (1, 1), (0, 1) */
        int textured = material_reads_images(&scene->materials.data[material]);
        const float corners[8] = {0.0f, 0.0f, 1.0f, 0.0f, 1.0f, 1.0f, 0.0f, 1.0f};
        const float first[6] = {corners[0], corners[1], corners[2], corners[3], corners[4], corners[5]};
        const float second[6] = {corners[0], corners[1], corners[4], corners[5], corners[6], corners[7]};
        const float tri[6] = {0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 1.0f};
        if (rs_scene_add_triangle_shaded(scene, v[0], v[1], v[2], NULL, textured ? (n == 4 ? first : tri) : NULL,
                                         (uint32_t)material, r->err) ||
            (n == 4 && rs_scene_add_triangle_shaded(scene, v[0], v[2], v[3], NULL, textured ? second : NULL,
                                                    (uint32_t)material, r->err)))
            return -1;
        if (scene->prims.count == before) {
            rs_json_join_key(where, path, "vertices");
            return rs_json_fail(r, where, "the %s has no area (its vertices are collinear)", type);
        }
        return 0;
    }
    if (strcmp(type, "mesh") == 0) {
        static const char* const keys[] = {"type", "file", "material", "transform", NULL};
        const char* file = NULL;
        RsTransform xf;
        rs_json_join_key(where, path, "transform");
        if (rs_json_check_keys(r, node, path, keys) || rs_json_get_string(r, node, path, "file", 1, &file) ||
            read_material_ref(r, node, path, 0, &material) ||
            read_transform(r, cJSON_GetObjectItemCaseSensitive(node, "transform"), where, &xf))
            return -1;
        char full[RS_FILE_PATH_MAX];
        rs_json_join_key(where, path, "file");
        if (rs_json_resolve_path(r, where, file, full, sizeof full))
            return -1;
        size_t prefix_size = strlen(r->file) + strlen(where) + 3;
        char* prefix = malloc(prefix_size);
        if (!prefix)
            return rs_json_fail(r, where, "out of memory");
        snprintf(prefix, prefix_size, "%s: %s", r->file, where);
        int status = rs_mesh_import(scene, full, prefix, &xf, material, r->files, r->err);
        free(prefix);
        return status;
    }
    if (strcmp(type, "instance") == 0)
        return rs_json_read_instance(r, node, path, read_transform);
    rs_json_join_key(where, path, "type");
    return rs_json_fail(r, where, "must be one of \"sphere\", \"quad\", \"triangle\", \"mesh\", \"instance\" (got \"%s\")",
                        type);
}

static int read_array(const RsJsonReader* r, const cJSON* root, const char* key,
                      int (*read_one)(const RsJsonReader*, const cJSON*, const char*))
{
    int status = 0;
    const cJSON* arr = rs_json_member(r, root, "", key, 1, &status);
    if (!arr)
        return status;
    if (!cJSON_IsArray(arr))
        return rs_json_fail(r, key, "must be an array");
    int i = 0;
    for (const cJSON* item = arr->child; item; item = item->next, ++i) {
        char path[RS_PATH_MAX];
        rs_json_join_index(path, key, i);
        if (read_one(r, item, path))
            return -1;
    }
    return 0;
}

static int read_root(RsJsonReader* r, const cJSON* root)
{
    static const char* const keys[] = {"version", "camera", "render", "environment", "materials", "objects", "shapes",
                                       "lights", NULL};
    if (!cJSON_IsObject(root))
        return rs_json_fail(r, "", "a scene must be a JSON object");
    if (rs_json_check_keys(r, root, "", keys))
        return -1;
    uint32_t version = 0;
    int status = 0;
    if (!rs_json_member(r, root, "", "version", 1, &status))
        return status;
    if (rs_json_get_uint(r, root, "", "version", 1, 0, 1e9, &version))
        return -1;
    /* version 2 added keys (objects and instances, directional lights, orthographic cameras,
     * checkerboards, texture transforms, alpha modes) and changed none: both read alike */
    if (version != 1 && version != 2)
        return rs_json_fail(r, "version", "unsupported scene format version %u (this raystream reads versions 1 and 2)",
                            version);
    const cJSON* cam = rs_json_member(r, root, "", "camera", 1, &status);
    if (!cam || rs_json_read_camera(r, cam))
        return -1;
    const cJSON* render = cJSON_GetObjectItemCaseSensitive(root, "render");
    if (render && read_render(r, render))
        return -1;
    const cJSON* env = cJSON_GetObjectItemCaseSensitive(root, "environment");
    if (env && read_environment(r, env))
        return -1;
    if (read_array(r, root, "materials", rs_json_read_material) || rs_json_read_objects(r, root, read_shape) ||
        read_array(r, root, "shapes", read_shape))
        return -1;
    if (cJSON_GetObjectItemCaseSensitive(root, "lights") && read_array(r, root, "lights", rs_json_read_light))
        return -1;
    if (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(root, "shapes")) == 0)
        return rs_json_fail(r, "shapes", "the scene is empty (no shapes)");
    return 0;
}

/* Line and column (1-based) of byte `offset` in text, for syntax errors. */
static void line_column(const char* text, size_t offset, int* line, int* column)
{
    *line = 1;
    *column = 1;
    for (size_t i = 0; i < offset && text[i]; ++i) {
        if (text[i] == '\n') {
            ++*line;
            *column = 1;
        } else {
            ++*column;
        }
    }
}

/* cJSON turns the escape \u0000 into a NUL byte that ends the C string, so "a\u0000b" would
 * read as "a": a shape could bind to another material than the one it names, a path to another
 * file. No field may hold NUL; this finds the first \u0000 inside a string, or returns NULL. */
static const char* find_escaped_nul(const char* text, size_t size)
{
    int in_string = 0;
    for (size_t i = 0; i < size; ++i) {
        char c = text[i];
        if (!in_string) {
            in_string = c == '"';
        } else if (c == '"') {
            in_string = 0;
        } else if (c == '\\' && i + 1 < size) {
            if (text[i + 1] == 'u' && i + 5 < size && strncmp(text + i + 2, "0000", 4) == 0)
                return text + i;
            ++i; /* the escaped character, which may be a quote or a backslash */
        }
    }
    return NULL;
}

int rs_scene_json_load(const char* path, const RsAccelOptions* accel, RsScene* scene, RsFileList* files_read,
                       RsError* err)
{
    rs_scene_init(scene);
    if (accel)
        scene->accel_options = *accel;
    size_t size = 0;
    char why[256];
    char* text = rs_file_read_all(path, RS_SCENE_MAX_BYTES, &size, why, sizeof why);
    if (!text)
        return rs_error_set(err, "%s: cannot open scene: %s", path, why);
    if (rs_file_list_add(files_read, path, err)) {
        free(text);
        return -1;
    }
    if (strlen(text) != size) {
        free(text);
        return rs_error_set(err, "%s: the file contains a NUL byte; a scene is JSON text", path);
    }
    const char* nul = find_escaped_nul(text, size);
    if (nul) {
        int line, column;
        line_column(text, (size_t)(nul - text), &line, &column);
        free(text);
        return rs_error_set(err, "%s:%d:%d: a string holds \\u0000 (the NUL character), which no scene field allows",
                            path, line, column);
    }
    const char* end = NULL;
    cJSON* root = cJSON_ParseWithOpts(text, &end, 1);
    if (!root) {
        const char* at = end ? end : cJSON_GetErrorPtr();
        size_t offset = at && at >= text && at <= text + size ? (size_t)(at - text) : 0;
        int line, column;
        line_column(text, offset, &line, &column);
        char near[24] = "";
        if (offset < size) {
            size_t n = 0;
            for (; n < sizeof near - 1 && text[offset + n] && text[offset + n] != '\n'; ++n)
                near[n] = text[offset + n];
            near[n] = '\0';
        }
        rs_error_set(err, "%s:%d:%d: JSON syntax error%s%s%s", path, line, column, near[0] ? " near '" : " at end of file",
                     near, near[0] ? "'" : "");
        free(text);
        return -1;
    }
    free(text);

    RsJsonReader r = {path, strdup(path), scene, err, files_read, NULL, 0};
    scene->file = strdup(path);
    int status = -1;
    if (r.dir && scene->file) {
        char* slash = strrchr(r.dir, '/');
        if (slash)
            *slash = '\0';
        else
            r.dir[0] = '\0';
        status = read_root(&r, root);
        if (status == 0)
            status = rs_scene_build(scene, err);
    } else {
        rs_error_set(err, "%s: out of memory", path);
    }
    free(r.dir);
    rs_json_objects_free(&r);
    cJSON_Delete(root);
    if (status)
        rs_scene_free(scene);
    return status;
}

int rs_scene_load_json(const char* path, const RsAccelOptions* accel, RsScene* scene, RsError* err)
{
    return rs_scene_json_load(path, accel, scene, NULL, err);
}
