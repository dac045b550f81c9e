/* gltf_mesh.c - glTF meshes as the scene's triangles: primitives in TRIANGLES mode (strips and
 * fans turned into triangles; points and lines left out with a warning), their positions,
 * normals (flat shading without) and first texture coordinates, morph targets at the mesh's
 * default weights, and where they go (gltf_doc.h). Host C11.
 *
 * A mesh placed by one node becomes triangles in the world, transformed by that node; a mesh
 * placed more often (several nodes, or EXT_mesh_gpu_instancing) becomes one object
 * (rs_scene_begin_object) placed by one instance per placement, so its triangles are stored
 * once. glTF's texture coordinates start at the image's top left; raystream's at its bottom
 * left, so v becomes 1 - v here (and gltf_material.c flips KHR_texture_transform to match).
 */
#include "host/import/gltf/gltf_doc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/scene/settings.h"

enum { POINTS = 0, LINES, LINE_LOOP, LINE_STRIP, TRIANGLES, TRIANGLE_STRIP, TRIANGLE_FAN };

typedef struct Primitive {
    float* positions;
    float* normals;
    float* uvs;
    uint32_t* indices;
    uint32_t vertex_count, index_count;
} Primitive;

static void free_primitive(Primitive* p)
{
    free(p->positions);
    free(p->normals);
    free(p->uvs);
    free(p->indices);
}

static void grow_bounds(RsGltf* g, RsVec3 p)
{
    if (!g->has_bounds) {
        g->bounds_lo = g->bounds_hi = p;
        g->has_bounds = 1;
        return;
    }
    g->bounds_lo = rs_vec3(fminf(g->bounds_lo.x, p.x), fminf(g->bounds_lo.y, p.y), fminf(g->bounds_lo.z, p.z));
    g->bounds_hi = rs_vec3(fmaxf(g->bounds_hi.x, p.x), fmaxf(g->bounds_hi.y, p.y), fmaxf(g->bounds_hi.z, p.z));
}

static int read_primitive(RsGltf* g, const cJSON* prim, const char* path, Primitive* p)
{
    char where[RS_GLTF_PATH_MAX], attr[RS_GLTF_PATH_MAX];
    const cJSON* attributes = rs_gltf_member(prim, "attributes");
    rs_gltf_join_key(attr, path, "attributes");
    if (!cJSON_IsObject(attributes))
        return rs_gltf_fail(g, attr, "must be an object");
    int64_t position = -1, normal = -1, uv = -1, indices = -1;
    if (rs_gltf_get_index(g, attributes, attr, "POSITION", 1, -1, -1, &position) ||
        rs_gltf_get_index(g, attributes, attr, "NORMAL", 0, -1, -1, &normal) ||
        rs_gltf_get_index(g, attributes, attr, "TEXCOORD_0", 0, -1, -1, &uv) ||
        rs_gltf_get_index(g, prim, path, "indices", 0, -1, -1, &indices))
        return -1;
    for (const cJSON* a = attributes->child; a; a = a->next)
        if (strncmp(a->string, "COLOR_", 6) == 0)
            rs_gltf_warn(g, attr, "%s ignored: raystream has no vertex colours (the material's colour is used)",
                         a->string);
    uint32_t n = 0;
    rs_gltf_join_key(where, attr, "POSITION");
    if (rs_gltf_read_floats(g, position, where, 3, &p->positions, &p->vertex_count))
        return -1;
    if (normal >= 0) {
        rs_gltf_join_key(where, attr, "NORMAL");
        if (rs_gltf_read_floats(g, normal, where, 3, &p->normals, &n))
            return -1;
        if (n != p->vertex_count)
            return rs_gltf_fail(g, where, "has %u elements, POSITION %u", n, p->vertex_count);
    }
    if (uv >= 0) {
        rs_gltf_join_key(where, attr, "TEXCOORD_0");
        if (rs_gltf_read_floats(g, uv, where, 2, &p->uvs, &n))
            return -1;
        if (n != p->vertex_count)
            return rs_gltf_fail(g, where, "has %u elements, POSITION %u", n, p->vertex_count);
    }
    if (indices >= 0) {
        rs_gltf_join_key(where, path, "indices");
        if (rs_gltf_read_indices(g, indices, where, &p->indices, &p->index_count))
            return -1;
        for (uint32_t i = 0; i < p->index_count; ++i)
            if (p->indices[i] >= p->vertex_count)
                return rs_gltf_fail(g, where, "index %u (entry %u) is beyond the %u vertices", p->indices[i], i,
                                    p->vertex_count);
    } else {
        p->index_count = p->vertex_count;
    }
    return 0;
}

/* Morph targets at the mesh's default weights (`weights`: the pose a viewer shows before any
 * animation; without it every weight is 0): each target's POSITION and NORMAL displacements,
 * times its weight, are added to the base (normals are renormalised where they are used).
 * Other target attributes (TANGENT, ...) change nothing raystream draws. */
static int apply_morph(RsGltf* g, const cJSON* mesh, const char* mesh_path, const cJSON* prim, const char* path,
                       Primitive* p)
{
    const cJSON* targets = rs_gltf_member(prim, "targets");
    if (!targets)
        return 0;
    char where[RS_GLTF_PATH_MAX], attr[RS_GLTF_PATH_MAX];
    rs_gltf_join_key(where, path, "targets");
    if (!cJSON_IsArray(targets) || cJSON_GetArraySize(targets) == 0)
        return rs_gltf_fail(g, where, "must be an array of at least one target");
    int n = cJSON_GetArraySize(targets);
    double* w = calloc((size_t)n, sizeof *w);
    if (!w)
        return rs_gltf_fail(g, where, "out of memory");
    int status = rs_gltf_get_numbers(g, mesh, mesh_path, "weights", n, w);
    int i = 0;
    for (const cJSON* t = targets->child; t && !status; t = t->next, ++i) {
        rs_gltf_join_index(attr, where, i);
        if (!cJSON_IsObject(t)) {
            status = rs_gltf_fail(g, attr, "must be an object");
            break;
        }
        if (w[i] == 0.0)
            continue;
        static const char* const keys[2] = {"POSITION", "NORMAL"};
        float* base[2] = {p->positions, p->normals};
        for (int k = 0; k < 2 && !status; ++k) {
            int64_t index = -1;
            char key_where[RS_GLTF_PATH_MAX];
            if (rs_gltf_get_index(g, t, attr, keys[k], 0, -1, -1, &index)) {
                status = -1;
                break;
            }
            if (index < 0 || !base[k])
                continue;
            rs_gltf_join_key(key_where, attr, keys[k]);
            float* d = NULL;
            uint32_t count = 0;
            if (rs_gltf_read_floats(g, index, key_where, 3, &d, &count)) {
                status = -1;
                break;
            }
            if (count != p->vertex_count)
                status = rs_gltf_fail(g, key_where, "has %u elements, the base POSITION %u", count, p->vertex_count);
            for (uint32_t v = 0; v < 3 * count && !status; ++v)
                base[k][v] += (float)(w[i] * d[v]);
            free(d);
        }
    }
    free(w);
    return status;
}

static uint32_t vertex_of(const Primitive* p, uint32_t i) { return p->indices ? p->indices[i] : i; }

/* Adds triangle (a, b, c) of p, transformed by xf. */
static int add_triangle(RsGltf* g, const Primitive* p, uint32_t a, uint32_t b, uint32_t c, const RsTransform* xf,
                        int32_t material, int world, const char* path)
{
    uint32_t v[3] = {a, b, c};
    RsVec3 pos[3], n[3];
    float uv[6];
    for (int k = 0; k < 3; ++k) {
        const float* q = p->positions + 3 * (size_t)v[k];
        pos[k] = rs_transform_point(xf, rs_vec3(q[0], q[1], q[2]));
        float big = fmaxf(fabsf(pos[k].x), fmaxf(fabsf(pos[k].y), fabsf(pos[k].z)));
        if (!(big <= (float)RS_SCENE_MAX_MAGNITUDE))
            return rs_gltf_fail(g, path, "vertex %u lies at [%g, %g, %g] once transformed: not a finite number "
                                "within +-%g", v[k], pos[k].x, pos[k].y, pos[k].z, RS_SCENE_MAX_MAGNITUDE);
        if (world)
            grow_bounds(g, pos[k]);
        if (p->normals) {
            const float* m = p->normals + 3 * (size_t)v[k];
            n[k] = rs_transform_normal(xf, rs_vec3(m[0], m[1], m[2]));
        }
        if (p->uvs) {
            uv[2 * k] = p->uvs[2 * (size_t)v[k]];
            uv[2 * k + 1] = 1.0f - p->uvs[2 * (size_t)v[k] + 1];
        }
    }
    return rs_scene_add_triangle_shaded(g->scene, pos[0], pos[1], pos[2], p->normals ? n : NULL,
                                        p->uvs ? uv : NULL, (uint32_t)material, g->err);
}

static int add_primitive(RsGltf* g, const Primitive* p, int64_t mode, const RsTransform* xf, int32_t material,
                         int world, const char* path)
{
    uint32_t count = p->index_count;
    if (mode == TRIANGLES) {
        if (count % 3 != 0)
            rs_gltf_warn(g, path, "%u indices do not make whole triangles: the last %u are left out", count, count % 3);
        for (uint32_t i = 0; i + 2 < count; i += 3)
            if (add_triangle(g, p, vertex_of(p, i), vertex_of(p, i + 1), vertex_of(p, i + 2), xf, material, world,
                             path))
                return -1;
    } else if (mode == TRIANGLE_STRIP) {
        for (uint32_t i = 0; i + 2 < count; ++i) {
            uint32_t odd = i % 2;
            if (add_triangle(g, p, vertex_of(p, i), vertex_of(p, i + 1 + odd), vertex_of(p, i + 2 - odd), xf, material,
                             world, path))
                return -1;
        }
    } else {
        for (uint32_t i = 1; i + 1 < count; ++i)
            if (add_triangle(g, p, vertex_of(p, i), vertex_of(p, i + 1), vertex_of(p, 0), xf, material, world, path))
                return -1;
    }
    return 0;
}

/* Every primitive of mesh `index`, transformed by xf (the world's: world = 1; the object's
 * own space: world = 0). */
static int add_mesh(RsGltf* g, int64_t index, const RsTransform* xf, int world, const char* referrer)
{
    const cJSON* mesh = NULL;
    if (rs_gltf_item(g, "meshes", index, referrer, &mesh))
        return -1;
    char path[RS_GLTF_PATH_MAX];
    rs_gltf_join_index(path, "meshes", (int)index);
    const cJSON* prims = NULL;
    int count = 0;
    if (rs_gltf_array(g, mesh, path, "primitives", &prims, &count))
        return -1;
    if (count == 0)
        return rs_gltf_fail(g, path, "has no primitives");
    int i = 0;
    for (const cJSON* prim = prims->child; prim; prim = prim->next, ++i) {
        char where[RS_GLTF_PATH_MAX];
        snprintf(where, sizeof where, "%s.primitives[%d]", path, i);
        if (!cJSON_IsObject(prim))
            return rs_gltf_fail(g, where, "must be an object");
        int64_t mode = TRIANGLES, material = -1;
        if (rs_gltf_get_index(g, prim, where, "mode", 0, 7, TRIANGLES, &mode) ||
            rs_gltf_get_index(g, prim, where, "material", 0, -1, -1, &material))
            return -1;
        if (mode < TRIANGLES) {
            static const char* const names[] = {"POINTS", "LINES", "LINE_LOOP", "LINE_STRIP"};
            rs_gltf_warn(g, where, "mode %s left out: raystream renders surfaces (triangles) only", names[mode]);
            ++g->left_out;
            continue;
        }
        int32_t m = -1;
        char mat_where[RS_GLTF_PATH_MAX];
        rs_gltf_join_key(mat_where, where, "material");
        if (rs_gltf_material(g, material, mat_where, &m))
            return -1;
        Primitive p = {0};
        int status = read_primitive(g, prim, where, &p) || apply_morph(g, mesh, path, prim, where, &p) ||
                     add_primitive(g, &p, mode, xf, m, world, where);
        free_primitive(&p);
        if (status)
            return -1;
    }
    return 0;
}

/* The eight corners of an object's box, placed by xf, into the scene's bounds; an error if the
 * placed object reaches beyond +-RS_SCENE_MAX_MAGNITUDE (its vertices lie inside those corners). */
static int grow_bounds_placed(RsGltf* g, RsVec3 lo, RsVec3 hi, const RsTransform* xf, const char* where)
{
    for (int c = 0; c < 8; ++c) {
        RsVec3 p = rs_transform_point(xf, rs_vec3(c & 1 ? hi.x : lo.x, c & 2 ? hi.y : lo.y, c & 4 ? hi.z : lo.z));
        float big = fmaxf(fabsf(p.x), fmaxf(fabsf(p.y), fabsf(p.z)));
        if (!(big <= (float)RS_SCENE_MAX_MAGNITUDE))
            return rs_gltf_fail(g, where, "places the mesh at [%g, %g, %g]: not a finite number within +-%g", p.x, p.y,
                                p.z, RS_SCENE_MAX_MAGNITUDE);
        grow_bounds(g, p);
    }
    return 0;
}

int rs_gltf_place_meshes(RsGltf* g)
{
    const cJSON* meshes = NULL;
    int mesh_count = 0;
    if (rs_gltf_array(g, g->root, "", "meshes", &meshes, &mesh_count))
        return -1;
    g->mesh_uses = calloc((size_t)mesh_count + 1, sizeof *g->mesh_uses);
    g->mesh_objects = malloc(((size_t)mesh_count + 1) * sizeof *g->mesh_objects);
    RsVec3* lo = malloc(((size_t)mesh_count + 1) * sizeof *lo);
    RsVec3* hi = malloc(((size_t)mesh_count + 1) * sizeof *hi);
    if (!g->mesh_uses || !g->mesh_objects || !lo || !hi) {
        free(lo);
        free(hi);
        return rs_gltf_fail(g, NULL, "out of memory");
    }
    for (size_t i = 0; i < g->mesh_nodes.count; ++i) {
        int32_t m = g->mesh_nodes.data[i].index;
        if (m < mesh_count)
            ++g->mesh_uses[m];
    }
    for (int m = 0; m < mesh_count; ++m)
        g->mesh_objects[m] = -1;
    int status = 0;
    for (size_t i = 0; i < g->mesh_nodes.count && !status; ++i) {
        const RsGltfPlacement* pl = &g->mesh_nodes.data[i];
        char where[RS_GLTF_PATH_MAX];
        snprintf(where, sizeof where, "nodes[%d].mesh", pl->node);
        RsTransform xf = rs_gltf_matrix_transform(pl->world);
        const cJSON* node = cJSON_GetArrayItem(rs_gltf_member(g->root, "nodes"), pl->node);
        if (rs_gltf_member(node, "weights")) {
            char node_where[RS_GLTF_PATH_MAX];
            snprintf(node_where, sizeof node_where, "nodes[%d].weights", pl->node);
            rs_gltf_warn(g, node_where, "ignored: the mesh's own default weights shape it wherever it is placed");
        }
        if (pl->index >= mesh_count) {
            status = rs_gltf_item(g, "meshes", pl->index, where, &meshes);
            break;
        }
        if (g->mesh_uses[pl->index] == 1) {
            status = add_mesh(g, pl->index, &xf, 1, where);
            continue;
        }
        int32_t object = g->mesh_objects[pl->index];
        if (object < 0) {
            object = rs_scene_begin_object(g->scene, g->err);
            if (object < 0) {
                status = -1;
                break;
            }
            RsTransform identity = rs_transform_identity();
            int saved = g->has_bounds;
            RsVec3 saved_lo = g->bounds_lo, saved_hi = g->bounds_hi;
            g->has_bounds = 0;
            status = add_mesh(g, pl->index, &identity, 0, where);
            /* add_mesh(world = 0) left bounds alone: the object's own come from its primitives */
            if (rs_scene_end_object(g->scene, g->err))
                status = -1;
            if (status)
                break;
            const RsSceneObject* o = &g->scene->objects.data[object];
            RsVec3 a = rs_vec3_splat(INFINITY), b = rs_vec3_splat(-INFINITY);
            for (uint32_t k = 0; k < o->prim_count; ++k) {
                const RsPrim* p = &g->scene->object_prims.data[o->first_prim + k];
                RsVec3 v0 = rs_xyz(p->a), v1 = rs_add(v0, rs_xyz(p->b)), v2 = rs_add(v0, rs_xyz(p->c));
                RsVec3 vs[3] = {v0, v1, v2};
                for (int j = 0; j < 3; ++j) {
                    a = rs_vec3(fminf(a.x, vs[j].x), fminf(a.y, vs[j].y), fminf(a.z, vs[j].z));
                    b = rs_vec3(fmaxf(b.x, vs[j].x), fmaxf(b.y, vs[j].y), fmaxf(b.z, vs[j].z));
                }
            }
            lo[pl->index] = a;
            hi[pl->index] = b;
            g->has_bounds = saved;
            g->bounds_lo = saved_lo;
            g->bounds_hi = saved_hi;
            g->mesh_objects[pl->index] = object;
        }
        if (g->scene->objects.data[object].prim_count == 0)
            continue; /* only points or lines: warned about already */
        status = grow_bounds_placed(g, lo[pl->index], hi[pl->index], &xf, where) ||
                 rs_scene_add_instance(g->scene, (uint32_t)object, &xf, g->err);
    }
    free(lo);
    free(hi);
    return status;
}
