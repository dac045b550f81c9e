/* gltf_load.c - the glTF 2.0 loader: the order of the parts (gltf_doc.h lists them), the
 * extensions a file may require, and light for a file that brings none (gltf_load.h).
 * Host C11 (POSIX).
 *
 * A file that requires an extension raystream does not read (extensionsRequired) is refused
 * naming it; one it only uses (extensionsUsed) is a warning. A scene with no punctual light and
 * no emissive material in view is lit by a white constant environment of radiance 1, as glTF
 * viewers light it, with a warning.
 */
#define _POSIX_C_SOURCE 200809L
#include "host/import/gltf/gltf_load.h"

#include <stdlib.h>
#include <string.h>

#include "host/import/gltf/gltf_doc.h"

/* Read fully (or approximated with warnings where they are met). */
static const char* const supported_extensions[] = {
    "KHR_lights_punctual",    "KHR_materials_emissive_strength", "KHR_texture_transform",
    "EXT_mesh_gpu_instancing", "KHR_mesh_quantization",          "KHR_materials_transmission",
    "KHR_materials_ior",      "KHR_materials_volume",            NULL};

static int supported(const char* name)
{
    for (int i = 0; supported_extensions[i]; ++i)
        if (strcmp(name, supported_extensions[i]) == 0)
            return 1;
    return 0;
}

static int check_extensions(RsGltf* g)
{
    const char* keys[2] = {"extensionsRequired", "extensionsUsed"};
    for (int k = 0; k < 2; ++k) {
        const cJSON* list = NULL;
        int count = 0;
        if (rs_gltf_array(g, g->root, "", keys[k], &list, &count))
            return -1;
        int i = 0;
        for (const cJSON* e = list ? list->child : NULL; e; e = e->next, ++i) {
            char where[RS_GLTF_PATH_MAX];
            rs_gltf_join_index(where, keys[k], i);
            if (!cJSON_IsString(e) || !e->valuestring)
                return rs_gltf_fail(g, where, "must be a string");
            if (supported(e->valuestring))
                continue;
            if (k == 0)
                return rs_gltf_fail(g, where, "the file requires extension %s, which raystream does not support",
                                    e->valuestring);
            if (!cJSON_GetObjectItemCaseSensitive(rs_gltf_member(g->root, "extensionsRequired"), e->valuestring))
                rs_gltf_warn(g, where, "extension %s is not supported: what it adds is ignored", e->valuestring);
        }
    }
    return 0;
}

static int check_asset(RsGltf* g)
{
    const cJSON* asset = rs_gltf_member(g->root, "asset");
    if (!cJSON_IsObject(asset))
        return rs_gltf_fail(g, "asset", "missing: a glTF file has an asset object with its version");
    const char *version = NULL, *min_version = NULL;
    if (rs_gltf_get_string(g, asset, "asset", "version", NULL, &version) ||
        rs_gltf_get_string(g, asset, "asset", "minVersion", NULL, &min_version))
        return -1;
    if (!version)
        return rs_gltf_fail(g, "asset", "missing required key 'version'");
    if (strncmp(version, "2.", 2) != 0)
        return rs_gltf_fail(g, "asset.version", "glTF %s; raystream reads glTF 2.0", version);
    if (min_version && strcmp(min_version, "2.0") != 0)
        return rs_gltf_fail(g, "asset.minVersion", "the file needs glTF %s; raystream reads glTF 2.0", min_version);
    if (rs_gltf_member(g->root, "animations"))
        rs_gltf_warn(g, "animations", "ignored: the scene is rendered as its nodes place it");
    return 0;
}

static void free_doc(RsGltf* g)
{
    for (int i = 0; i < g->buffer_count; ++i)
        free(g->buffers[i].owned);
    free(g->buffers);
    rs_gltf_free_tables(g);
    cJSON_Delete(g->root);
    free(g->file);
    free(g->dir);
    free(g->mesh_uses);
    free(g->mesh_objects);
    free(g->materials);
    free(g->textures);
    rs_array_free(&g->images);
    rs_array_free(&g->mesh_nodes);
    rs_array_free(&g->camera_nodes);
    rs_array_free(&g->light_nodes);
}

static int load(RsGltf* g, int32_t camera)
{
    if (rs_gltf_read_container(g) || check_asset(g) || check_extensions(g) || rs_gltf_read_buffers(g) ||
        rs_gltf_read_nodes(g) || rs_gltf_place_meshes(g) || rs_gltf_read_lights(g) || rs_gltf_read_camera(g, camera))
        return -1;
    if (g->lights == 0 && !g->emissive) {
        g->scene->env.zenith = rs_pack(rs_vec3_splat(1.0f), rs_uint_as_float(RS_ENV_CONSTANT));
        rs_gltf_warn(g, NULL, "no lights (no KHR_lights_punctual light, no emissive material): lit by a white "
                     "environment of radiance 1, as glTF viewers light it");
    }
    if (g->scene->prims.count == 0 && g->scene->instances.count == 0 && g->left_out > 0)
        return rs_gltf_fail(g, NULL, "the scene has no triangles to render: its %u primitive%s of points or lines %s "
                            "left out (raystream renders surfaces only)", g->left_out, g->left_out == 1 ? "" : "s",
                            g->left_out == 1 ? "is" : "are");
    if (g->scene->prims.count == 0 && g->scene->instances.count == 0)
        return rs_gltf_fail(g, NULL, "the scene has no triangles to render");
    return rs_scene_build(g->scene, g->err);
}

int rs_gltf_load(const char* path, const RsAccelOptions* accel, int32_t camera, RsScene* scene,
                 RsFileList* files_read, RsError* err)
{
    rs_scene_init(scene);
    if (accel)
        scene->accel_options = *accel;
    RsGltf g;
    memset(&g, 0, sizeof g);
    g.path = path;
    g.scene = scene;
    g.files = files_read;
    g.err = err;
    g.default_material = -1;
    scene->file = strdup(path);
    g.dir = strdup(path);
    int status = -1;
    if (scene->file && g.dir) {
        char* slash = strrchr(g.dir, '/');
        if (slash)
            slash[1] = '\0';
        else
            g.dir[0] = '\0';
        status = load(&g, camera);
    } else {
        rs_error_set(err, "%s: out of memory", path);
    }
    free_doc(&g);
    if (status)
        rs_scene_free(scene);
    return status;
}
