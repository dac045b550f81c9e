/* gltf_node.c - the node hierarchy of the scene to render: world transforms (matrix or
 * translation, rotation, scale), and what each node places: a mesh (EXT_mesh_gpu_instancing: one
 * placement per instance), a camera, a KHR_lights_punctual light (gltf_doc.h). Host C11.
 *
 * The scene is the file's `scene`, else scenes[0]. Nodes are walked depth first in the order
 * the scene and each node's `children` list them; that order numbers the cameras for
 * --camera. glTF's nodes form trees: a node reached a second time (a cycle, or a node with two
 * parents) is an error, as is nesting deeper than RS_GLTF_MAX_NODE_DEPTH. Transforms compose
 * in double and become the scene's float 3x4 at the end.
 */
#include "host/import/gltf/gltf_doc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rs_gltf_matrix_multiply(const double* a, const double* b, double* out)
{
    double r[16];
    for (int c = 0; c < 4; ++c)
        for (int row = 0; row < 4; ++row) {
            double s = 0.0;
            for (int k = 0; k < 4; ++k)
                s += a[k * 4 + row] * b[c * 4 + k];
            r[c * 4 + row] = s;
        }
    memcpy(out, r, sizeof r);
}

RsTransform rs_gltf_matrix_transform(const double* m)
{
    RsTransform t;
    for (int row = 0; row < 3; ++row)
        for (int c = 0; c < 4; ++c)
            t.m[row][c] = (float)m[c * 4 + row];
    return t;
}

/* T * R * S from translation t, unit quaternion q (x, y, z, w) and scale s. */
static void compose_trs(const double* t, const double* q, const double* s, double* out)
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y + z * w),     2 * (x * z - y * w),
                   2 * (x * y - z * w),     1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
                   2 * (x * z + y * w),     2 * (y * z - x * w),     1 - 2 * (x * x + y * y)};
    for (int c = 0; c < 3; ++c) {
        for (int row = 0; row < 3; ++row)
            out[c * 4 + row] = r[c * 3 + row] * s[c];
        out[c * 4 + 3] = 0.0;
    }
    out[12] = t[0];
    out[13] = t[1];
    out[14] = t[2];
    out[15] = 1.0;
}

/* A quaternion of length 1 within rounding, made exactly so; an error if it is far from it. */
static int unit_quaternion(RsGltf* g, const char* where, double* q)
{
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(n > 1e-6))
        return rs_gltf_fail(g, where, "the rotation quaternion has length %g; it must be a unit quaternion", n);
    if (fabs(n - 1.0) > 1e-6)
        for (int i = 0; i < 4; ++i)
            q[i] /= n;
    return 0;
}

static int local_matrix(RsGltf* g, const cJSON* node, const char* path, double* out)
{
    double t[3] = {0, 0, 0}, q[4] = {0, 0, 0, 1}, s[3] = {1, 1, 1};
    const cJSON* matrix = rs_gltf_member(node, "matrix");
    if (matrix) {
        if (rs_gltf_member(node, "translation") || rs_gltf_member(node, "rotation") || rs_gltf_member(node, "scale"))
            return rs_gltf_fail(g, path, "has both a matrix and translation, rotation or scale");
        if (rs_gltf_get_numbers(g, node, path, "matrix", 16, out))
            return -1;
        if (out[3] != 0.0 || out[7] != 0.0 || out[11] != 0.0 || out[15] != 1.0) {
            char where[RS_GLTF_PATH_MAX];
            rs_gltf_join_key(where, path, "matrix");
            return rs_gltf_fail(g, where, "must be affine (its last row [0, 0, 0, 1])");
        }
        return 0;
    }
    char where[RS_GLTF_PATH_MAX];
    rs_gltf_join_key(where, path, "rotation");
    if (rs_gltf_get_numbers(g, node, path, "translation", 3, t) || rs_gltf_get_numbers(g, node, path, "rotation", 4, q) ||
        rs_gltf_get_numbers(g, node, path, "scale", 3, s) || unit_quaternion(g, where, q))
        return -1;
    compose_trs(t, q, s, out);
    return 0;
}

static int push(RsGltf* g, int camera_or_light, int node, int index, int instance, const double* world)
{
    RsGltfPlacement p = {node, index, instance, {0}};
    memcpy(p.world, world, sizeof p.world);
    if (camera_or_light == 1)
        return rs_array_push(&g->camera_nodes, p, g->err);
    if (camera_or_light == 2)
        return rs_array_push(&g->light_nodes, p, g->err);
    return rs_array_push(&g->mesh_nodes, p, g->err);
}

/* EXT_mesh_gpu_instancing: the node's mesh once per instance, world * TRS_i. */
static int read_instancing(RsGltf* g, const cJSON* ext, const char* path, int node, int mesh, const double* world)
{
    char where[RS_GLTF_PATH_MAX], attr[RS_GLTF_PATH_MAX];
    snprintf(where, sizeof where, "%s.extensions.EXT_mesh_gpu_instancing", path);
    const cJSON* attributes = rs_gltf_member(ext, "attributes");
    if (!cJSON_IsObject(attributes))
        return rs_gltf_fail(g, where, "must have an attributes object");
    static const char* const names[3] = {"TRANSLATION", "ROTATION", "SCALE"};
    static const int widths[3] = {3, 4, 3};
    float* values[3] = {NULL, NULL, NULL};
    uint32_t count = 0;
    int status = 0, any = 0;
    rs_gltf_join_key(attr, where, "attributes");
    for (const cJSON* a = attributes->child; a && !status; a = a->next)
        if (strcmp(a->string, "TRANSLATION") && strcmp(a->string, "ROTATION") && strcmp(a->string, "SCALE"))
            rs_gltf_warn(g, attr, "attribute %s ignored (raystream places instances by TRANSLATION, ROTATION and "
                         "SCALE)", a->string);
    for (int k = 0; k < 3 && !status; ++k) {
        int64_t accessor = -1;
        uint32_t n = 0;
        status = rs_gltf_get_index(g, attributes, attr, names[k], 0, -1, -1, &accessor);
        if (status || accessor < 0)
            continue;
        char referrer[RS_GLTF_PATH_MAX];
        rs_gltf_join_key(referrer, attr, names[k]);
        status = rs_gltf_read_floats(g, accessor, referrer, widths[k], &values[k], &n);
        if (!status && any && n != count)
            status = rs_gltf_fail(g, referrer, "has %u elements, another attribute %u", n, count);
        count = n;
        any = 1;
    }
    if (!status && !any)
        status = rs_gltf_fail(g, attr, "names none of TRANSLATION, ROTATION, SCALE");
    for (uint32_t i = 0; i < count && !status; ++i) {
        double t[3] = {0, 0, 0}, q[4] = {0, 0, 0, 1}, s[3] = {1, 1, 1}, local[16], w[16];
        for (int c = 0; c < 3; ++c) {
            if (values[0])
                t[c] = values[0][3 * i + c];
            if (values[2])
                s[c] = values[2][3 * i + c];
        }
        for (int c = 0; values[1] && c < 4; ++c)
            q[c] = values[1][4 * i + c];
        char instance[RS_GLTF_PATH_MAX];
        snprintf(instance, sizeof instance, "%s instance %u", where, i);
        if ((status = unit_quaternion(g, instance, q)) != 0)
            break;
        compose_trs(t, q, s, local);
        rs_gltf_matrix_multiply(world, local, w);
        status = push(g, 0, node, mesh, (int)i, w);
    }
    for (int k = 0; k < 3; ++k)
        free(values[k]);
    return status;
}

static int walk(RsGltf* g, int64_t index, const double* parent, int depth, uint8_t* seen, const char* referrer)
{
    const cJSON* node = NULL;
    if (rs_gltf_item(g, "nodes", index, referrer, &node))
        return -1;
    char path[RS_GLTF_PATH_MAX];
    rs_gltf_join_index(path, "nodes", (int)index);
    if (seen[index])
        return rs_gltf_fail(g, referrer, "reaches %s a second time: the node hierarchy has a cycle or a node with two "
                            "parents (glTF nodes form trees)", path);
    if (depth >= RS_GLTF_MAX_NODE_DEPTH)
        return rs_gltf_fail(g, path, "nodes nest deeper than %d levels", RS_GLTF_MAX_NODE_DEPTH);
    seen[index] = 1;
    double local[16], world[16];
    if (local_matrix(g, node, path, local))
        return -1;
    rs_gltf_matrix_multiply(parent, local, world);
    int64_t mesh = -1, camera = -1;
    if (rs_gltf_get_index(g, node, path, "mesh", 0, -1, -1, &mesh) ||
        rs_gltf_get_index(g, node, path, "camera", 0, -1, -1, &camera))
        return -1;
    if (rs_gltf_member(node, "skin"))
        rs_gltf_warn(g, path, "skin ignored: the mesh is drawn in its bind pose, placed by the node");
    if (mesh >= 0) {
        const cJSON* inst = rs_gltf_extension(node, "EXT_mesh_gpu_instancing");
        if (inst ? read_instancing(g, inst, path, (int)index, (int)mesh, world)
                 : push(g, 0, (int)index, (int)mesh, -1, world))
            return -1;
    }
    if (camera >= 0 && push(g, 1, (int)index, (int)camera, -1, world))
        return -1;
    const cJSON* light = rs_gltf_extension(node, "KHR_lights_punctual");
    if (light) {
        char where[RS_GLTF_PATH_MAX];
        snprintf(where, sizeof where, "%s.extensions.KHR_lights_punctual", path);
        int64_t l = -1;
        if (rs_gltf_get_index(g, light, where, "light", 1, -1, -1, &l) || push(g, 2, (int)index, (int)l, -1, world))
            return -1;
    }
    const cJSON* children = NULL;
    int count = 0;
    if (rs_gltf_array(g, node, path, "children", &children, &count))
        return -1;
    int i = 0;
    for (const cJSON* c = children ? children->child : NULL; c; c = c->next, ++i) {
        char where[RS_GLTF_PATH_MAX];
        snprintf(where, sizeof where, "%s.children[%d]", path, i);
        if (!cJSON_IsNumber(c) || c->valuedouble != floor(c->valuedouble) || c->valuedouble < 0 ||
            c->valuedouble > 2147483647.0)
            return rs_gltf_fail(g, where, "must be a node index");
        if (walk(g, (int64_t)c->valuedouble, world, depth + 1, seen, where))
            return -1;
    }
    return 0;
}

int rs_gltf_read_nodes(RsGltf* g)
{
    const cJSON* scenes = NULL;
    int scene_count = 0;
    if (rs_gltf_array(g, g->root, "", "scenes", &scenes, &scene_count))
        return -1;
    int64_t which = 0;
    if (rs_gltf_get_index(g, g->root, "", "scene", 0, scene_count, 0, &which))
        return -1;
    if (scene_count == 0)
        return rs_gltf_fail(g, NULL, "the file has no scenes: nothing to render");
    if (scene_count > 1)
        rs_gltf_warn(g, NULL, "the file has %d scenes; raystream renders scenes[%lld]%s", scene_count,
                     (long long)which, rs_gltf_member(g->root, "scene") ? " (its `scene`)" : "");
    const cJSON* scene = NULL;
    if (rs_gltf_item(g, "scenes", which, "scene", &scene))
        return -1;
    char path[RS_GLTF_PATH_MAX];
    rs_gltf_join_index(path, "scenes", (int)which);
    const cJSON* roots = NULL;
    int root_count = 0, node_count = 0;
    const cJSON* nodes = NULL;
    if (rs_gltf_array(g, scene, path, "nodes", &roots, &root_count) ||
        rs_gltf_array(g, g->root, "", "nodes", &nodes, &node_count))
        return -1;
    uint8_t* seen = calloc((size_t)node_count + 1, 1);
    if (!seen)
        return rs_gltf_fail(g, NULL, "out of memory");
    static const double identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    int i = 0, status = 0;
    for (const cJSON* r = roots ? roots->child : NULL; r && !status; r = r->next, ++i) {
        char where[RS_GLTF_PATH_MAX];
        snprintf(where, sizeof where, "%s.nodes[%d]", path, i);
        if (!cJSON_IsNumber(r) || r->valuedouble != floor(r->valuedouble) || r->valuedouble < 0 ||
            r->valuedouble > 2147483647.0)
            status = rs_gltf_fail(g, where, "must be a node index");
        else
            status = walk(g, (int64_t)r->valuedouble, identity, 0, seen, where);
    }
    free(seen);
    return status;
}
