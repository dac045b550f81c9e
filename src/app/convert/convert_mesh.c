/* convert_mesh.c - primitives as JSON shapes: spheres as spheres, each run of consecutive
 * triangles that share a material and a kind of shading data (vertex normals, texture
 * coordinates) as one binary PLY file, cited by a "mesh" shape with the material as its
 * override (see convert_plan.h). Host C11, application layer.
 *
 * The scene keeps a triangle as its first vertex and two edges from it (scene_data.h). The
 * other vertices are written as the first plus each edge, nudged by a few float steps where
 * needed so that subtracting the first vertex again, as loading does, gives the very same
 * edge: the reloaded triangle is the stored one, bit for bit. Each triangle has its own three
 * vertices (a shared vertex would need one position for several triangles' rounding).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/convert/convert_plan.h"

/* A float p with p - v0 == e exactly (as rs_sub computes it), near v0 + e. */
static float vertex_along(float v0, float e)
{
    float p = v0 + e, up = p, down = p;
    for (int step = 0; step < 64; ++step) {
        if (up - v0 == e)
            return up;
        if (down - v0 == e)
            return down;
        up = nextafterf(up, INFINITY);
        down = nextafterf(down, -INFINITY);
    }
    return p;
}

static float step_by(float f, int steps)
{
    for (; steps > 0; --steps)
        f = nextafterf(f, INFINITY);
    for (; steps < 0; ++steps)
        f = nextafterf(f, -INFINITY);
    return f;
}

/* A vertex normal that loading (which normalizes it: rs_scene_add_triangle_shaded) turns into
 * the stored unit normal n exactly. Normalizing twice is not always the identity, so n itself
 * may not do; then a vector a few float steps away, or failing that (about 1 normal in 700 of
 * random directions) a longer or shorter one: normalize(c) is c * r, r = 1 / |c| rounded, so
 * for each r of a fine sweep the components that r maps onto n's, kept when |c| gives back
 * that r. One always exists (the normal the scene was given is one); the sweep finds one for
 * every normal of a test mesh of 300,000 random ones, in under a second in all. */
static int normalizes_to(RsVec3 c, RsVec3 target)
{
    RsVec3 back = rs_normalize(c);
    return back.x == target.x && back.y == target.y && back.z == target.z;
}

static RsVec3 normal_for(RsVec3 n)
{
    for (int reach = 0; reach <= 2; ++reach)
        for (int dx = -reach; dx <= reach; ++dx)
            for (int dy = -reach; dy <= reach; ++dy)
                for (int dz = -reach; dz <= reach; ++dz) {
                    if (abs(dx) != reach && abs(dy) != reach && abs(dz) != reach)
                        continue; /* tried at a smaller reach */
                    RsVec3 c = rs_vec3(step_by(n.x, dx), step_by(n.y, dy), step_by(n.z, dz));
                    if (normalizes_to(c, n))
                        return c;
                }
    /* normalize(c) is c * r with r = 1 / |c| rounded: for each r to aim at, the components
     * that r maps onto n's, then whether |c| gives that r */
    for (int j = 1; j < 2 * 65536; ++j) { /* lengths in [1, 2), then [0.5, 1), every 2^-16 of a binade */
        float length = j < 65536 ? 1.0f + (float)j / 65536.0f : 1.0f - (float)(j - 65535) / 131072.0f;
        float r = 1.0f / length;
        float options[3][5];
        int counts[3] = {0, 0, 0};
        const float target[3] = {n.x, n.y, n.z};
        for (int k = 0; k < 3; ++k) {
            float guess = target[k] / r;
            for (int d = -3; d <= 3 && counts[k] < 5; ++d) {
                float c = step_by(guess, d);
                if (c * r == target[k])
                    options[k][counts[k]++] = c;
            }
        }
        for (int a = 0; a < counts[0]; ++a)
            for (int b = 0; b < counts[1]; ++b)
                for (int c = 0; c < counts[2]; ++c) {
                    RsVec3 v = rs_vec3(options[0][a], options[1][b], options[2][c]);
                    if (normalizes_to(v, n))
                        return v;
                }
    }
    return n;
}

static uint32_t shading_flags(const RsShading* shading, size_t shading_count, size_t i)
{
    return i < shading_count ? rs_float_as_uint(shading[i].d.w) & (RS_SHADING_NORMALS | RS_SHADING_UVS) : 0u;
}

typedef struct Buffer {
    unsigned char* data;
    size_t size, capacity;
} Buffer;

static int put(Buffer* b, const void* bytes, size_t n)
{
    if (b->size + n > b->capacity) {
        size_t cap = b->capacity ? b->capacity : 4096;
        while (cap < b->size + n)
            cap *= 2;
        unsigned char* grown = realloc(b->data, cap);
        if (!grown)
            return -1;
        b->data = grown;
        b->capacity = cap;
    }
    memcpy(b->data + b->size, bytes, n);
    b->size += n;
    return 0;
}

/* Little-endian floats and ints: the PLY says binary_little_endian, whatever the host. */
static int put_f32(Buffer* b, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    unsigned char bytes[4] = {(unsigned char)u, (unsigned char)(u >> 8), (unsigned char)(u >> 16),
                              (unsigned char)(u >> 24)};
    return put(b, bytes, 4);
}

static int put_u32(Buffer* b, uint32_t u)
{
    unsigned char bytes[4] = {(unsigned char)u, (unsigned char)(u >> 8), (unsigned char)(u >> 16),
                              (unsigned char)(u >> 24)};
    return put(b, bytes, 4);
}

/* The PLY of triangles [first, first + count), all with shading `flags`. */
static int encode_ply(const RsPrim* prims, const RsShading* shading, size_t first, size_t count, uint32_t flags,
                      const char* material, Buffer* b)
{
    char safe[201]; /* the name in a comment line: no control byte may end the line */
    snprintf(safe, sizeof safe, "%s", material);
    for (char* c = safe; *c; ++c)
        if ((unsigned char)*c < 0x20)
            *c = '?';
    char header[1024];
    int n = snprintf(header, sizeof header,
                     "ply\nformat binary_little_endian 1.0\ncomment raystream convert: %zu triangles of material %.200s\n"
                     "element vertex %zu\nproperty float x\nproperty float y\nproperty float z\n%s%s"
                     "element face %zu\nproperty list uchar int vertex_indices\nend_header\n",
                     count, safe, 3 * count,
                     (flags & RS_SHADING_NORMALS) ? "property float nx\nproperty float ny\nproperty float nz\n" : "",
                     (flags & RS_SHADING_UVS) ? "property float s\nproperty float t\n" : "", count);
    if (put(b, header, (size_t)n))
        return -1;
    for (size_t i = first; i < first + count; ++i) {
        const RsPrim* p = &prims[i];
        RsVec3 v0 = rs_xyz(p->a), e1 = rs_xyz(p->b), e2 = rs_xyz(p->c);
        RsVec3 v[3] = {v0,
                       rs_vec3(vertex_along(v0.x, e1.x), vertex_along(v0.y, e1.y), vertex_along(v0.z, e1.z)),
                       rs_vec3(vertex_along(v0.x, e2.x), vertex_along(v0.y, e2.y), vertex_along(v0.z, e2.z))};
        const RsShading* s = flags ? &shading[i] : NULL;
        const RsFloat4* rows[3] = {s ? &s->a : NULL, s ? &s->b : NULL, s ? &s->c : NULL};
        const float vs[3] = {s ? s->d.x : 0.0f, s ? s->d.y : 0.0f, s ? s->d.z : 0.0f};
        for (int k = 0; k < 3; ++k) {
            if (put_f32(b, v[k].x) || put_f32(b, v[k].y) || put_f32(b, v[k].z))
                return -1;
            RsVec3 normal = (flags & RS_SHADING_NORMALS) ? normal_for(rs_xyz(*rows[k])) : rs_vec3_splat(0.0f);
            if ((flags & RS_SHADING_NORMALS) && (put_f32(b, normal.x) || put_f32(b, normal.y) || put_f32(b, normal.z)))
                return -1;
            if ((flags & RS_SHADING_UVS) && (put_f32(b, rows[k]->w) || put_f32(b, vs[k])))
                return -1;
        }
    }
    for (size_t i = 0; i < count; ++i) {
        unsigned char three = 3;
        uint32_t at = (uint32_t)(3 * i);
        if (put(b, &three, 1) || put_u32(b, at) || put_u32(b, at + 1) || put_u32(b, at + 2))
            return -1;
    }
    return 0;
}

static int add_mesh(RsConvertPlan* plan, const RsPrim* prims, const RsShading* shading, size_t first, size_t count,
                    uint32_t flags, cJSON* shapes, RsError* err)
{
    uint32_t material = rs_prim_material(&prims[first]);
    const char* name = plan->scene->material_names.data[material];
    Buffer b = {0};
    if (encode_ply(prims, shading, first, count, flags, name, &b)) {
        free(b.data);
        return rs_error_set(err, "out of memory encoding a mesh of %zu triangles", count);
    }
    char* role = malloc(strlen(name) + 96);
    if (!role) {
        free(b.data);
        return rs_error_set(err, "out of memory");
    }
    sprintf(role, "mesh (%zu triangles of material '%s')", count, name);
    RsConvertFile f = {RS_CONVERT_BYTES, NULL, role, b.data, b.size, NULL, NULL, 0, 0};
    char suffix[48];
    snprintf(suffix, sizeof suffix, ".mesh-%u.ply", plan->mesh_count++);
    const char* cited = NULL;
    if (rs_convert_add_file(plan, &f, suffix, &cited, err)) {
        free(b.data);
        free(role);
        return -1;
    }
    cJSON* node = cJSON_CreateObject();
    cJSON_AddItemToArray(shapes, node);
    cJSON_AddStringToObject(node, "type", "mesh");
    cJSON_AddStringToObject(node, "file", cited);
    cJSON_AddStringToObject(node, "material", name);
    return 0;
}

int rs_convert_shapes(RsConvertPlan* plan, const RsPrim* prims, const RsShading* shading, size_t shading_count,
                      size_t first, size_t count, cJSON* shapes, RsError* err)
{
    const RsScene* scene = plan->scene;
    for (size_t i = first; i < first + count;) {
        const RsPrim* p = &prims[i];
        uint32_t material = rs_prim_material(p);
        if (material >= scene->materials.count)
            return rs_error_set(err, "%s: primitive %zu names material %u, which does not exist",
                                scene->file ? scene->file : "scene", i, material);
        if (rs_prim_type(p) == RS_PRIM_SPHERE) {
            cJSON* node = cJSON_CreateObject();
            cJSON_AddItemToArray(shapes, node);
            cJSON_AddStringToObject(node, "type", "sphere");
            cJSON_AddItemToObject(node, "center", rs_convert_vec3(rs_xyz(p->a)));
            cJSON_AddItemToObject(node, "radius", rs_convert_number(p->b.x));
            cJSON_AddStringToObject(node, "material", scene->material_names.data[material]);
            ++i;
            continue;
        }
        if (rs_prim_type(p) != RS_PRIM_TRIANGLE)
            return rs_error_set(err, "%s: primitive %zu is of a kind (%u) raystream convert cannot write",
                                scene->file ? scene->file : "scene", i, rs_prim_type(p));
        uint32_t flags = shading_flags(shading, shading_count, i);
        size_t end = i + 1;
        while (end < first + count && rs_prim_type(&prims[end]) == RS_PRIM_TRIANGLE &&
               rs_prim_material(&prims[end]) == material && shading_flags(shading, shading_count, end) == flags)
            ++end;
        if (add_mesh(plan, prims, shading, i, end - i, flags, shapes, err))
            return -1;
        i = end;
    }
    return 0;
}
