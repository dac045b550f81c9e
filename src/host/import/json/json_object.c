/* json_object.c - "objects" and "instance" shapes of the JSON scene (see json_object.h).
 * Host C11. */
#include "host/import/json/json_object.h"

#include <stdlib.h>
#include <string.h>

#include "host/util/name_index.h"

struct RsJsonObjects {
    RS_ARRAY(char*) names; /* the cJSON tree's strings, alive while the scene is read */
    RS_ARRAY(uint32_t) index; /* the scene's object index of each name */
    RsNameIndex by_name;
};

void rs_json_objects_free(RsJsonReader* r)
{
    if (!r->objects)
        return;
    rs_array_free(&r->objects->names);
    rs_array_free(&r->objects->index);
    rs_name_index_free(&r->objects->by_name);
    free(r->objects);
    r->objects = NULL;
}

static int read_object(RsJsonReader* r, const cJSON* node, const char* path, RsJsonShapeFn read_shape)
{
    static const char* const keys[] = {"name", "shapes", NULL};
    const char* name = NULL;
    if (rs_json_expect_object(r, node, path) || rs_json_check_keys(r, node, path, keys) ||
        rs_json_get_string(r, node, path, "name", 1, &name))
        return -1;
    char where[RS_PATH_MAX];
    rs_json_join_key(where, path, "name");
    RsJsonObjects* objs = r->objects;
    if (rs_name_index_find(&objs->by_name, objs->names.data, name) >= 0)
        return rs_json_fail(r, where, "duplicate object name '%s'", name);
    int status = 0;
    const cJSON* shapes = rs_json_member(r, node, path, "shapes", 1, &status);
    if (!shapes)
        return status;
    rs_json_join_key(where, path, "shapes");
    if (!cJSON_IsArray(shapes))
        return rs_json_fail(r, where, "must be an array");
    int32_t object = rs_scene_begin_object(r->scene, r->err);
    if (object < 0)
        return -1;
    r->in_object = 1;
    int i = 0;
    for (const cJSON* item = shapes->child; item && !status; item = item->next, ++i) {
        char shape_path[RS_PATH_MAX];
        rs_json_join_index(shape_path, where, i);
        status = read_shape(r, item, shape_path);
    }
    r->in_object = 0;
    RsError ignored = {{0}};
    if (rs_scene_end_object(r->scene, status ? &ignored : r->err) || status)
        return -1;
    if (rs_array_push(&objs->names, (char*)name, r->err) || rs_array_push(&objs->index, (uint32_t)object, r->err))
        return -1;
    return rs_name_index_add(&objs->by_name, objs->names.data, (uint32_t)(objs->names.count - 1), r->err);
}

int rs_json_read_objects(RsJsonReader* r, const cJSON* root, RsJsonShapeFn read_shape)
{
    r->objects = calloc(1, sizeof *r->objects);
    if (!r->objects)
        return rs_json_fail(r, "objects", "out of memory");
    const cJSON* arr = cJSON_GetObjectItemCaseSensitive(root, "objects");
    if (!arr)
        return 0;
    if (!cJSON_IsArray(arr))
        return rs_json_fail(r, "objects", "must be an array");
    int i = 0;
    for (const cJSON* item = arr->child; item; item = item->next, ++i) {
        char path[RS_PATH_MAX];
        rs_json_join_index(path, "objects", i);
        if (read_object(r, item, path, read_shape))
            return -1;
    }
    return 0;
}

int rs_json_read_instance(const RsJsonReader* r, const cJSON* node, const char* path,
                          int (*read_transform)(const RsJsonReader*, const cJSON*, const char*, RsTransform*))
{
    static const char* const keys[] = {"type", "object", "transform", NULL};
    char where[RS_PATH_MAX];
    rs_json_join_key(where, path, "type");
    if (r->in_object)
        return rs_json_fail(r, where, "an instance cannot be inside an object (objects hold shapes only)");
    const char* name = NULL;
    if (rs_json_check_keys(r, node, path, keys) || rs_json_get_string(r, node, path, "object", 1, &name))
        return -1;
    rs_json_join_key(where, path, "object");
    const RsJsonObjects* objs = r->objects;
    int32_t found = objs ? rs_name_index_find(&objs->by_name, objs->names.data, name) : -1;
    if (found < 0)
        return rs_json_fail(r, where, "unknown object '%s' (objects are defined under the top-level \"objects\")", name);
    RsTransform xf;
    rs_json_join_key(where, path, "transform");
    if (read_transform(r, cJSON_GetObjectItemCaseSensitive(node, "transform"), where, &xf))
        return -1;
    RsError inner = {{0}};
    if (rs_scene_add_instance(r->scene, objs->index.data[found], &xf, &inner)) {
        /* the scene's message starts with the file; the path says which shape */
        const char* text = inner.message;
        size_t skip = strlen(r->file);
        if (strncmp(text, r->file, skip) == 0 && text[skip] == ':')
            text += skip + 2;
        return rs_json_fail(r, where, "%s", text);
    }
    return 0;
}
