/* convert_plan.c - the scene as JSON format version 2: camera, render settings, environment,
 * lights, objects and instances, and the plan's files (see convert_plan.h). Host C11,
 * application layer. */
#define _XOPEN_SOURCE 700
#include "app/convert/convert_plan.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/io/exr_io.h"
#include "host/io/image_io.h"
#include "host/io/safe_file.h"
#include "host/scene/settings.h"

cJSON* rs_convert_number(float f)
{
    char text[48];
    for (int digits = 6; digits <= 9; ++digits) {
        snprintf(text, sizeof text, "%.*g", digits, (double)f);
        if ((float)strtod(text, NULL) == f)
            break;
    }
    return cJSON_CreateRaw(text);
}

cJSON* rs_convert_vec3(RsVec3 v)
{
    cJSON* a = cJSON_CreateArray();
    if (a) {
        cJSON_AddItemToArray(a, rs_convert_number(v.x));
        cJSON_AddItemToArray(a, rs_convert_number(v.y));
        cJSON_AddItemToArray(a, rs_convert_number(v.z));
    }
    return a;
}

static void file_free(RsConvertFile* f)
{
    free(f->path);
    free(f->role);
    free(f->data);
    free(f->rgba);
    free(f->rgb);
}

int rs_convert_add_file(RsConvertPlan* plan, RsConvertFile* file, const char* suffix, const char** name,
                        RsError* err)
{
    if (plan->file_count == plan->file_capacity) {
        size_t cap = plan->file_capacity ? 2 * plan->file_capacity : 16;
        RsConvertFile* grown = realloc(plan->files, cap * sizeof *grown);
        if (!grown)
            return rs_error_set(err, "out of memory planning the conversion");
        plan->files = grown;
        plan->file_capacity = cap;
    }
    size_t n = strlen(plan->out_dir) + strlen(plan->out_stem) + strlen(suffix) + 2;
    file->path = malloc(n);
    if (!file->path)
        return rs_error_set(err, "out of memory planning the conversion");
    snprintf(file->path, n, "%s/%s%s", plan->out_dir, plan->out_stem, suffix);
    plan->files[plan->file_count++] = *file;
    if (name)
        *name = strrchr(plan->files[plan->file_count - 1].path, '/') + 1;
    return 0;
}

char* rs_convert_cite(const RsConvertPlan* plan, const char* path, RsError* err)
{
    char* full = realpath(path, NULL);
    if (!full) {
        rs_error_set(err, "%s: cannot find the file the scene read (to cite it from %s)", path, plan->out_path);
        return NULL;
    }
    /* both are canonical: skip the folders they share, climb out of the rest of out_dir */
    const char* a = plan->out_dir;
    size_t common = 0; /* full[0, common) is a folder of a's, its '/' included */
    for (size_t i = 0;; ++i) {
        if (a[i] == '\0') {
            if (full[i] == '/')
                common = i + 1;
            break;
        }
        if (a[i] != full[i])
            break;
        if (a[i] == '/')
            common = i + 1;
    }
    size_t ups = a[common] ? 1 : 0;
    for (const char* p = a + common; *p; ++p)
        ups += *p == '/';
    size_t n = 3 * ups + strlen(full) + 1;
    char* out = malloc(n);
    if (!out) {
        free(full);
        rs_error_set(err, "out of memory");
        return NULL;
    }
    out[0] = '\0';
    for (size_t i = 0; i < ups; ++i)
        strcat(out, "../");
    strcat(out, full + common);
    free(full);
    return out;
}

/* ---- camera, render, environment ---- */

static int add_camera(RsConvertPlan* plan, cJSON* root, RsError* err)
{
    const RsCameraDesc* c = &plan->scene->camera;
    cJSON* cam = cJSON_AddObjectToObject(root, "camera");
    if (!cam)
        return rs_error_set(err, "out of memory");
    cJSON_AddItemToObject(cam, "eye", rs_convert_vec3(c->eye));
    cJSON_AddItemToObject(cam, "look_at", rs_convert_vec3(c->look_at));
    cJSON_AddItemToObject(cam, "up", rs_convert_vec3(c->up));
    if (c->projection == RS_PROJECTION_ORTHOGRAPHIC) {
        cJSON_AddStringToObject(cam, "projection", "orthographic");
        cJSON_AddItemToObject(cam, "ortho_height", rs_convert_number(c->ortho_height));
    } else if (c->projection == RS_PROJECTION_PERSPECTIVE) {
        cJSON_AddItemToObject(cam, "fov", rs_convert_number(c->fov_degrees));
    } else {
        return rs_error_set(err, "%s: the camera's projection (%u) has no name in scene JSON", plan->scene->file,
                            c->projection);
    }
    cJSON* res = cJSON_AddArrayToObject(cam, "resolution");
    cJSON_AddItemToArray(res, cJSON_CreateNumber(plan->scene->render.width));
    cJSON_AddItemToArray(res, cJSON_CreateNumber(plan->scene->render.height));
    if (c->aperture_radius > 0.0f)
        cJSON_AddItemToObject(cam, "aperture_radius", rs_convert_number(c->aperture_radius));
    if (c->focus_distance > 0.0f)
        cJSON_AddItemToObject(cam, "focus_distance", rs_convert_number(c->focus_distance));
    return 0;
}

static void add_render(RsConvertPlan* plan, cJSON* root)
{
    const RsRenderDesc* r = &plan->scene->render;
    cJSON* node = cJSON_AddObjectToObject(root, "render");
    cJSON_AddStringToObject(node, "integrator", rs_integrator_name(r->integrator));
    cJSON_AddNumberToObject(node, "max_depth", r->max_depth);
    cJSON_AddNumberToObject(node, "spp", r->spp);
    cJSON_AddNumberToObject(node, "seed", r->seed);
    cJSON_AddStringToObject(node, "sampler", rs_sampler_name(r->sampler));
    cJSON_AddStringToObject(node, "light_sampler", rs_light_sampler_name(r->light_sampler));
    cJSON_AddItemToObject(node, "noise_threshold", rs_convert_number(r->noise_threshold));
    cJSON_AddNumberToObject(node, "min_spp", r->min_spp);
}

/* The rotation in degrees (as the loader reads it: a double) whose cosine and sine, as floats,
 * are the ones stored. */
static int rotation_gives(double degrees, float c, float s)
{
    double radians = fmod(degrees, 360.0) * (RS_PI / 180.0);
    return (float)cos(radians) == c && (float)sin(radians) == s;
}

static double map_rotation(float c, float s)
{
    double best = atan2((double)s, (double)c) * (180.0 / RS_PI);
    for (int digits = 1; digits <= 17; ++digits) { /* the shortest decimal that does, as written */
        char text[40];
        snprintf(text, sizeof text, "%.*f", digits - 1, best);
        if (rotation_gives(strtod(text, NULL), c, s))
            return strtod(text, NULL);
    }
    double up = best, down = best;
    for (int step = 0; step < 4096; ++step) {
        const double tries[2] = {up, down};
        for (int k = 0; k < 2; ++k)
            if (rotation_gives(tries[k], c, s))
                return tries[k];
        up = nextafter(up, INFINITY);
        down = nextafter(down, -INFINITY);
    }
    return best;
}

static int add_environment(RsConvertPlan* plan, cJSON* root, RsError* err)
{
    const RsEnvironment* e = &plan->scene->env;
    cJSON* env = cJSON_AddObjectToObject(root, "environment");
    uint32_t type = rs_float_as_uint(e->zenith.w);
    if (type == RS_ENV_CONSTANT) {
        cJSON_AddStringToObject(env, "type", "constant");
        cJSON_AddItemToObject(env, "color", rs_convert_vec3(rs_xyz(e->zenith)));
        return 0;
    }
    if (type == RS_ENV_SKY) {
        cJSON_AddStringToObject(env, "type", "sky");
        cJSON_AddItemToObject(env, "zenith", rs_convert_vec3(rs_xyz(e->zenith)));
        cJSON_AddItemToObject(env, "horizon", rs_convert_vec3(rs_xyz(e->horizon)));
        cJSON_AddItemToObject(env, "ground", rs_convert_vec3(rs_xyz(e->ground)));
        return 0;
    }
    if (type != RS_ENV_MAP)
        return rs_error_set(err, "%s: the environment (type %u) has no form in scene JSON", plan->scene->file, type);
    const RsEnvMap* m = &plan->scene->env_map;
    if (m->mapping != RS_ENV_MAPPING_EQUIRECT)
        return rs_error_set(err, "%s: an equal-area octahedral environment map (pbrt-v4's image infinite light) has no form "
                            "in scene JSON", plan->scene->file);
    cJSON_AddStringToObject(env, "type", "map");
    if (m->file && rs_file_list_contains(plan->files_read, m->file)) {
        char* cited = rs_convert_cite(plan, m->file, err);
        if (!cited)
            return -1;
        cJSON_AddStringToObject(env, "file", cited);
        free(cited);
    } else { /* made in memory (an importer's): its linear texels as an OpenEXR file */
        RsConvertFile f = {RS_CONVERT_EXR, NULL, strdup("environment map (made in memory)"), NULL, 0, NULL,
                           malloc((size_t)m->width * m->height * 3 * sizeof(float)), m->width, m->height};
        if (!f.role || !f.rgb) {
            file_free(&f);
            return rs_error_set(err, "out of memory");
        }
        for (size_t i = 0; i < (size_t)m->width * m->height; ++i) {
            f.rgb[3 * i] = m->texels[i].x;
            f.rgb[3 * i + 1] = m->texels[i].y;
            f.rgb[3 * i + 2] = m->texels[i].z;
        }
        const char* name = NULL;
        if (rs_convert_add_file(plan, &f, ".environment.exr", &name, err)) {
            file_free(&f);
            return -1;
        }
        cJSON_AddStringToObject(env, "file", name);
    }
    cJSON_AddItemToObject(env, "scale", rs_convert_vec3(rs_xyz(e->zenith)));
    char text[40]; /* the loader reads the rotation as a double: as many digits as it takes */
    double rotation = map_rotation(e->horizon.x, e->horizon.y);
    for (int digits = 0; digits <= 17; ++digits) { /* plain decimals: "130", not "1.3e+02" */
        snprintf(text, sizeof text, "%.*f", digits, rotation);
        if (strtod(text, NULL) == rotation)
            break;
        snprintf(text, sizeof text, "%.17g", rotation);
    }
    cJSON_AddItemToObject(env, "rotation", cJSON_CreateRaw(text));
    return 0;
}

/* ---- lights ---- */

/* The float angle in degrees whose cosf (as rs_scene_add_spot_light computes it) is `c`. */
static float spot_angle(float c)
{
    float a = (float)(acos((double)c) * (180.0 / RS_PI));
    const float to_radians = RS_PI / 180.0f;
    for (int digits = 0; digits <= 6; ++digits) { /* a round number where one does: 25, not 25.000004 */
        double scale = pow(10.0, digits);
        float r = (float)(round((double)a * scale) / scale);
        if (cosf(r * to_radians) == c)
            return r;
    }
    float up = a, down = a;
    for (int step = 0; step < 256; ++step) {
        if (cosf(up * to_radians) == c)
            return up;
        if (cosf(down * to_radians) == c)
            return down;
        up = nextafterf(up, INFINITY);
        down = nextafterf(down, -INFINITY);
    }
    return a;
}

/* The spot light's axis as the JSON reader makes it from position and look_at (json_light.c,
 * then rs_scene_add_spot_light's normalisation). */
static RsVec3 spot_axis(RsVec3 p, RsVec3 l)
{
    double ax = (double)l.x - p.x, ay = (double)l.y - p.y, az = (double)l.z - p.z;
    double length = sqrt(ax * ax + ay * ay + az * az);
    return rs_normalize(rs_vec3((float)(ax / length), (float)(ay / length), (float)(az / length)));
}

static float nudge(float f, int steps)
{
    for (; steps > 0; --steps)
        f = nextafterf(f, INFINITY);
    for (; steps < 0; ++steps)
        f = nextafterf(f, -INFINITY);
    return f;
}

/* A look_at from which the reader computes exactly the stored unit axis: the reader rounds the
 * direction to a float vector u and normalizes u again, so first the u near the axis that
 * normalize to it, then for each a point along it, nudged, whose direction rounds to u. */
static RsVec3 spot_look_at(RsVec3 p, RsVec3 axis)
{
    const float scales[5] = {1.0f, 4.0f, 64.0f, 1024.0f, 65536.0f};
    const int steps[7] = {0, -1, 1, -2, 2, -3, 3}; /* the axis itself first: [0, -1, 0], not [0, -1.0000001, 0] */
    for (int ix = 0; ix < 7; ++ix)
        for (int iy = 0; iy < 7; ++iy)
            for (int iz = 0; iz < 7; ++iz) {
                RsVec3 u = rs_vec3(nudge(axis.x, steps[ix]), nudge(axis.y, steps[iy]), nudge(axis.z, steps[iz]));
                RsVec3 back = rs_normalize(u);
                if (back.x != axis.x || back.y != axis.y || back.z != axis.z)
                    continue;
                for (int si = 0; si < 5; ++si) {
                    RsVec3 l = rs_add(p, rs_scale(u, scales[si]));
                    for (int dx = 0; dx < 5; ++dx)
                        for (int dy = 0; dy < 5; ++dy)
                            for (int dz = 0; dz < 5; ++dz) {
                                RsVec3 c = rs_vec3(nudge(l.x, steps[dx]), nudge(l.y, steps[dy]), nudge(l.z, steps[dz]));
                                RsVec3 a = spot_axis(p, c);
                                if (a.x == axis.x && a.y == axis.y && a.z == axis.z)
                                    return c;
                            }
                }
            }
    return rs_add(p, axis);
}

static int add_lights(RsConvertPlan* plan, cJSON* root, RsError* err)
{
    const RsScene* scene = plan->scene;
    /* every light the light table holds must be one this writer knows: a primitive, a point,
     * spot or directional light, the environment. Any other has no storage it can read, so the
     * scene is refused rather than written without it. */
    for (uint32_t i = 0; i < scene->light_count; ++i) {
        uint32_t e = rs_light_emitter(scene->lights[i]);
        int known = e == RS_LIGHT_ENVIRONMENT || ((e & RS_LIGHT_POINT_BIT) && (e & ~RS_LIGHT_POINT_BIT) < scene->point_lights.count) ||
                    (!(e & RS_LIGHT_POINT_BIT) && e < scene->prims.count);
        if (!known)
            return rs_error_set(err, "%s: light %u is of a kind raystream convert cannot write", scene->file, i);
    }
    if (scene->point_lights.count == 0)
        return 0;
    cJSON* lights = cJSON_AddArrayToObject(root, "lights");
    for (size_t i = 0; i < scene->point_lights.count; ++i) {
        const RsPointLight* l = &scene->point_lights.data[i];
        cJSON* node = cJSON_CreateObject();
        cJSON_AddItemToArray(lights, node);
        uint32_t type = rs_float_as_uint(l->a.w);
        RsVec3 position = rs_xyz(l->a);
        if (type == RS_POINT_LIGHT_POINT) {
            cJSON_AddStringToObject(node, "type", "point");
            cJSON_AddItemToObject(node, "position", rs_convert_vec3(position));
            cJSON_AddItemToObject(node, "intensity", rs_convert_vec3(rs_xyz(l->b)));
        } else if (type == RS_POINT_LIGHT_SPOT) {
            float cone = spot_angle(l->b.w), inner = spot_angle(l->c.w);
            float delta = cone - inner, up = delta, down = delta; /* such that cone - delta is inner */
            for (int digits = 0; digits <= 6 && cone - delta != inner; ++digits) {
                double scale = pow(10.0, digits);
                float r = (float)(round((double)(cone - inner) * scale) / scale);
                delta = cone - r == inner ? r : delta;
            }
            for (int step = 0; step < 64 && cone - delta != inner; ++step) {
                up = nextafterf(up, INFINITY);
                down = nextafterf(down, -INFINITY);
                delta = cone - up == inner ? up : cone - down == inner ? down : delta;
            }
            if (delta < 0.0f)
                delta = 0.0f;
            cJSON_AddStringToObject(node, "type", "spot");
            cJSON_AddItemToObject(node, "position", rs_convert_vec3(position));
            cJSON_AddItemToObject(node, "look_at", rs_convert_vec3(spot_look_at(position, rs_xyz(l->c))));
            cJSON_AddItemToObject(node, "intensity", rs_convert_vec3(rs_xyz(l->b)));
            cJSON_AddItemToObject(node, "cone_angle", rs_convert_number(cone));
            cJSON_AddItemToObject(node, "cone_delta_angle", rs_convert_number(delta));
        } else if (type == RS_POINT_LIGHT_DIRECTIONAL) {
            /* the reader normalizes the direction as it does a spot light's look_at - position
             * (in double, then again in float), so the same search from the origin finds one
             * that gives back the stored unit vector */
            cJSON_AddStringToObject(node, "type", "directional");
            cJSON_AddItemToObject(node, "direction", rs_convert_vec3(spot_look_at(rs_vec3_splat(0.0f), position)));
            cJSON_AddItemToObject(node, "irradiance", rs_convert_vec3(rs_xyz(l->b)));
        } else {
            return rs_error_set(err, "%s: point light %zu is of a kind (%u) raystream convert cannot write", scene->file,
                                i, type);
        }
    }
    return 0;
}

/* ---- shapes, objects, instances ---- */

static cJSON* matrix_of(const RsTransform* t)
{
    cJSON* node = cJSON_CreateObject();
    cJSON* m = cJSON_AddArrayToObject(node, "matrix");
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 4; ++c)
            cJSON_AddItemToArray(m, rs_convert_number(t->m[r][c]));
    const float last[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    for (int c = 0; c < 4; ++c)
        cJSON_AddItemToArray(m, rs_convert_number(last[c]));
    return node;
}

int rs_convert_instances_flattened(void)
{
    static int known = -1;
    if (known >= 0)
        return known;
    RsScene probe;
    RsError err = {{0}};
    rs_scene_init(&probe);
    RsMaterialDesc d = rs_material_desc(RS_MAT_DIFFUSE);
    RsTransform identity = rs_transform_identity();
    int ok = rs_scene_add_material_desc(&probe, "probe", &d, &err) == 0 && rs_scene_begin_object(&probe, &err) == 0 &&
             rs_scene_add_sphere(&probe, rs_vec3_splat(0.0f), 1.0f, 0, &err) == 0 &&
             rs_scene_end_object(&probe, &err) == 0 && rs_scene_add_instance(&probe, 0, &identity, &err) == 0;
    known = ok && probe.prims.count > 0;
    rs_scene_free(&probe);
    return known;
}

static int add_geometry(RsConvertPlan* plan, cJSON* root, RsError* err)
{
    const RsScene* s = plan->scene;
    if (s->instances.count && rs_convert_instances_flattened()) {
        /* this build copies every instance's primitives into the world: they are all in prims
         * already, and writing the objects and instances too would draw them twice */
        cJSON* shapes = cJSON_AddArrayToObject(root, "shapes");
        return rs_convert_shapes(plan, s->prims.data, s->shading.data, s->shading.count, 0, s->prims.count, shapes, err);
    }
    if (s->objects.count) {
        cJSON* objects = cJSON_AddArrayToObject(root, "objects");
        for (size_t o = 0; o < s->objects.count; ++o) {
            const RsSceneObject* ob = &s->objects.data[o];
            cJSON* node = cJSON_CreateObject();
            cJSON_AddItemToArray(objects, node);
            char name[32];
            snprintf(name, sizeof name, "object%zu", o);
            cJSON_AddStringToObject(node, "name", name);
            cJSON* shapes = cJSON_AddArrayToObject(node, "shapes");
            if (rs_convert_shapes(plan, s->object_prims.data, s->object_shading.data, s->object_shading.count,
                                  ob->first_prim, ob->prim_count, shapes, err))
                return -1;
        }
    }
    cJSON* shapes = cJSON_AddArrayToObject(root, "shapes");
    if (rs_convert_shapes(plan, s->prims.data, s->shading.data, s->shading.count, 0, s->prims.count, shapes, err))
        return -1;
    for (size_t i = 0; i < s->instances.count; ++i) {
        const RsSceneInstance* in = &s->instances.data[i];
        cJSON* node = cJSON_CreateObject();
        cJSON_AddItemToArray(shapes, node);
        char name[32];
        snprintf(name, sizeof name, "object%u", in->object);
        cJSON_AddStringToObject(node, "type", "instance");
        cJSON_AddStringToObject(node, "object", name);
        cJSON_AddItemToObject(node, "transform", matrix_of(&in->to_world));
    }
    return 0;
}

/* ---- the plan ---- */

void rs_convert_plan_free(RsConvertPlan* plan)
{
    for (size_t i = 0; i < plan->file_count; ++i)
        file_free(&plan->files[i]);
    free(plan->files);
    free(plan->out_path);
    free(plan->out_dir);
    free(plan->out_stem);
    free(plan->texture_written);
    cJSON_Delete(plan->root);
    memset(plan, 0, sizeof *plan);
}

int rs_convert_write_file(const RsConvertFile* f, RsError* err)
{
    if (f->kind == RS_CONVERT_PNG)
        return rs_image_write(f->path, f->width, f->height, NULL, f->rgba, err);
    if (f->kind == RS_CONVERT_EXR) {
        const RsExrLayer layer = {"", "RGB", f->rgb};
        return rs_exr_write(f->path, f->width, f->height, &layer, 1, 0, err);
    }
    const RsBytes part = {f->data, f->size};
    return rs_file_write_atomic(f->path, &part, 1, err);
}

/* out_dir (canonical) and out_stem from the output path; the folder must exist. */
static int split_output(RsConvertPlan* plan, const char* out_path, RsError* err)
{
    const char* slash = strrchr(out_path, '/');
    const char* base = slash ? slash + 1 : out_path;
    char* dir = slash ? strndup(out_path, (size_t)(slash - out_path) + (slash == out_path)) : strdup(".");
    if (!dir)
        return rs_error_set(err, "out of memory");
    plan->out_dir = realpath(dir, NULL);
    free(dir);
    if (!plan->out_dir)
        return rs_error_set(err, "%s: the folder to write into does not exist", out_path);
    size_t len = strlen(base);
    if (len > 5 && strcmp(base + len - 5, ".json") == 0)
        len -= 5;
    plan->out_stem = strndup(base, len);
    plan->out_path = strdup(out_path);
    return plan->out_stem && plan->out_path ? 0 : rs_error_set(err, "out of memory");
}

int rs_convert_plan(RsConvertPlan* plan, const RsScene* scene, const RsFileList* files_read, const char* out_path,
                    RsError* err)
{
    memset(plan, 0, sizeof *plan);
    plan->scene = scene;
    plan->files_read = files_read;
    if (split_output(plan, out_path, err))
        return -1;
    plan->texture_written = calloc(scene->textures.descriptors.count * 8 + 1, sizeof *plan->texture_written);
    plan->root = cJSON_CreateObject();
    if (!plan->root || !plan->texture_written)
        return rs_error_set(err, "out of memory");
    cJSON_AddNumberToObject(plan->root, "version", 2);
    if (add_camera(plan, plan->root, err))
        return -1;
    add_render(plan, plan->root);
    if (add_environment(plan, plan->root, err))
        return -1;
    cJSON* materials = cJSON_AddArrayToObject(plan->root, "materials");
    if (rs_convert_materials(plan, materials, err) || add_geometry(plan, plan->root, err) ||
        add_lights(plan, plan->root, err))
        return -1;
    return 0;
}
