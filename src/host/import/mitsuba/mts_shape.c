/* mts_shape.c - Mitsuba shapes as raystream primitives: obj and ply (through rs_mesh_import),
 * serialized (mts_serialized.c), rectangle, cube, sphere, disk, and shapegroup + instance
 * (through rs_scene_begin_object / rs_scene_add_instance, never copied here). Host C11.
 *
 * Local shapes as Mitsuba defines them: rectangle [-1, 1]^2 at z = 0 facing +z, cube [-1, 1]^3,
 * disk of radius 1 at z = 0 facing +z (triangulated: RS_MTS_DISK_SEGMENTS, with a warning),
 * cylinder (open, p0 to p1: triangulated the same way, with smooth normals),
 * sphere of `radius` at `center`; to_world places them. A sphere stays a sphere only under a
 * uniform scale, rotation and translation. flip_normals turns triangles over; on a sphere or a
 * mesh read through assimp it cannot be honoured and is refused where it matters (an emitter)
 * and warned about elsewhere. Texture coordinates: raystream's (u, v) = Mitsuba's (u, 1 - v)
 * (mts_bsdf.c explains).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/import/mesh/mesh_import.h"
#include "host/import/mitsuba/mts_internal.h"

#define RS_MTS_DISK_SEGMENTS 128

typedef struct RsMtsShapeCtx {
    RsTransform xf;
    uint32_t material;
    int flip, textured;
} RsMtsShapeCtx;

/* A quad (p[0..3] counter-clockwise seen from its front) with Mitsuba uvs uv[0..3]. */
static int add_quad(RsMts* m, const RsMtsShapeCtx* s, const RsVec3 p[4], const float uv[8])
{
    RsVec3 w[4];
    float t[8];
    for (int i = 0; i < 4; ++i) {
        w[i] = rs_transform_point(&s->xf, p[i]);
        t[2 * i] = uv[2 * i];
        t[2 * i + 1] = 1.0f - uv[2 * i + 1];
    }
    const int tri[2][3] = {{0, 1, 2}, {0, 2, 3}};
    for (int k = 0; k < 2; ++k) {
        int a = tri[k][0], b = s->flip ? tri[k][2] : tri[k][1], c = s->flip ? tri[k][1] : tri[k][2];
        float tuv[6] = {t[2 * a], t[2 * a + 1], t[2 * b], t[2 * b + 1], t[2 * c], t[2 * c + 1]};
        if (rs_scene_add_triangle_shaded(m->scene, w[a], w[b], w[c], NULL, s->textured ? tuv : NULL, s->material,
                                         m->err))
            return -1;
    }
    return 0;
}

static int rectangle(RsMts* m, const RsMtsShapeCtx* s)
{
    const RsVec3 p[4] = {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
    const float uv[8] = {0, 0, 1, 0, 1, 1, 0, 1};
    return add_quad(m, s, p, uv);
}

static int cube(RsMts* m, const RsMtsShapeCtx* s)
{
    const float uv[8] = {0, 0, 1, 0, 1, 1, 0, 1};
    /* each face: its normal axis and sign; corners counter-clockwise seen from outside */
    for (int axis = 0; axis < 3; ++axis) {
        for (int sign = -1; sign <= 1; sign += 2) {
            int u = (axis + 1) % 3, v = (axis + 2) % 3;
            RsVec3 p[4];
            const float cu[4] = {-1, 1, 1, -1}, cv[4] = {-1, -1, 1, 1};
            for (int i = 0; i < 4; ++i) {
                float c[3];
                c[axis] = (float)sign;
                c[u] = cu[i];
                c[v] = sign > 0 ? cv[i] : -cv[i];
                p[i] = rs_vec3(c[0], c[1], c[2]);
            }
            if (add_quad(m, s, p, uv))
                return -1;
        }
    }
    return 0;
}

static int disk(RsMts* m, const RsMtsShapeCtx* s)
{
    RsVec3 centre = rs_transform_point(&s->xf, rs_vec3(0.0f, 0.0f, 0.0f));
    for (int i = 0; i < RS_MTS_DISK_SEGMENTS; ++i) {
        double a0 = 2.0 * RS_PI * i / RS_MTS_DISK_SEGMENTS, a1 = 2.0 * RS_PI * (i + 1) / RS_MTS_DISK_SEGMENTS;
        RsVec3 p0 = rs_transform_point(&s->xf, rs_vec3((float)cos(a0), (float)sin(a0), 0.0f));
        RsVec3 p1 = rs_transform_point(&s->xf, rs_vec3((float)cos(a1), (float)sin(a1), 0.0f));
        /* Mitsuba's disk: u = radius, v = angle / 2 pi */
        float uv[6] = {0.0f, 1.0f - (float)(i + 0.5) / RS_MTS_DISK_SEGMENTS, 1.0f,
                       1.0f - (float)i / RS_MTS_DISK_SEGMENTS, 1.0f, 1.0f - (float)(i + 1) / RS_MTS_DISK_SEGMENTS};
        int status = s->flip ? rs_scene_add_triangle_shaded(m->scene, centre, p1, p0, NULL, NULL, s->material, m->err)
                             : rs_scene_add_triangle_shaded(m->scene, centre, p0, p1, NULL, s->textured ? uv : NULL,
                                                            s->material, m->err);
        if (status)
            return -1;
    }
    return 0;
}

/* Mitsuba's cylinder: open (no caps), from p0 to p1 of `radius`, around the frame Mitsuba builds
 * from the axis (Duff et al.'s coordinate system, so that u starts where Mitsuba's does):
 * u = angle / 2 pi from the frame's first axis, v = the height from p0 to p1 (raystream's 1 - v).
 * RS_MTS_DISK_SEGMENTS quads with the smooth normals of the true cylinder. */
static int cylinder(RsMts* m, RsMtsNode* n, const RsMtsShapeCtx* s)
{
    RsVec3 p0 = rs_vec3(0.0f, 0.0f, 0.0f), p1 = rs_vec3(0.0f, 0.0f, 1.0f);
    double radius = 1.0;
    if (rs_mts_get_point(m, n, "p0", &p0) || rs_mts_get_point(m, n, "p1", &p1) ||
        rs_mts_get_float(m, n, "radius", &radius))
        return -1;
    RsVec3 d = rs_sub(p1, p0);
    double len = rs_length(d);
    if (!(len > 0.0) || !(radius > 0.0))
        return rs_mts_fail(m, n, "cylinder: needs p0 != p1 and a radius > 0");
    RsVec3 a = rs_scale(d, (float)(1.0 / len));
    float sign = copysignf(1.0f, a.z), ca = -1.0f / (sign + a.z), cb = a.x * a.y * ca;
    RsVec3 e1 = rs_vec3(1.0f + sign * a.x * a.x * ca, sign * cb, -sign * a.x);
    RsVec3 e2 = rs_vec3(cb, sign + a.y * a.y * ca, -a.y);
    RsVec3 ring[2][RS_MTS_DISK_SEGMENTS + 1], normal[RS_MTS_DISK_SEGMENTS + 1];
    for (int i = 0; i <= RS_MTS_DISK_SEGMENTS; ++i) {
        double phi = 2.0 * RS_PI * (i % RS_MTS_DISK_SEGMENTS) / RS_MTS_DISK_SEGMENTS;
        RsVec3 radial = rs_add(rs_scale(e1, (float)cos(phi)), rs_scale(e2, (float)sin(phi)));
        RsVec3 q = rs_add(p0, rs_scale(radial, (float)radius));
        ring[0][i] = rs_transform_point(&s->xf, q);
        ring[1][i] = rs_transform_point(&s->xf, rs_add(q, d));
        normal[i] = rs_normalize(rs_transform_normal(&s->xf, radial));
        if (s->flip)
            normal[i] = rs_scale(normal[i], -1.0f);
    }
    for (int i = 0; i < RS_MTS_DISK_SEGMENTS; ++i) {
        float u0 = (float)i / RS_MTS_DISK_SEGMENTS, u1 = (float)(i + 1) / RS_MTS_DISK_SEGMENTS;
        /* counter-clockwise seen from outside: (p0, phi0), (p0, phi1), (p1, phi1), (p1, phi0) */
        RsVec3 c[4] = {ring[0][i], ring[0][i + 1], ring[1][i + 1], ring[1][i]};
        RsVec3 cn[4] = {normal[i], normal[i + 1], normal[i + 1], normal[i]};
        float uv[8] = {u0, 1.0f, u1, 1.0f, u1, 0.0f, u0, 0.0f};
        const int tri[2][3] = {{0, 1, 2}, {0, 2, 3}};
        for (int k = 0; k < 2; ++k) {
            int i0 = tri[k][0], i1 = s->flip ? tri[k][2] : tri[k][1], i2 = s->flip ? tri[k][1] : tri[k][2];
            RsVec3 tn[3] = {cn[i0], cn[i1], cn[i2]};
            float tuv[6] = {uv[2 * i0], uv[2 * i0 + 1], uv[2 * i1], uv[2 * i1 + 1], uv[2 * i2], uv[2 * i2 + 1]};
            if (rs_scene_add_triangle_shaded(m->scene, c[i0], c[i1], c[i2], tn, s->textured ? tuv : NULL,
                                             s->material, m->err))
                return -1;
        }
    }
    return 0;
}

static int sphere(RsMts* m, RsMtsNode* n, const RsMtsShapeCtx* s, int emits)
{
    RsVec3 centre = rs_vec3(0.0f, 0.0f, 0.0f);
    double radius = 1.0;
    if (rs_mts_get_point(m, n, "center", &centre) || rs_mts_get_float(m, n, "radius", &radius))
        return -1;
    RsVec3 col[3];
    for (int j = 0; j < 3; ++j)
        col[j] = rs_vec3(s->xf.m[0][j], s->xf.m[1][j], s->xf.m[2][j]);
    float len = rs_length(col[0]);
    for (int j = 0; j < 3; ++j) {
        if (!(fabsf(rs_length(col[j]) - len) <= 1e-4f * len) ||
            !(fabsf(rs_dot(col[j], col[(j + 1) % 3])) <= 1e-4f * len * len))
            return rs_mts_fail(m, n, "sphere: its to_world must be a uniform scale, rotation and translation "
                                     "(raystream's spheres are round)");
    }
    double r = fabs(radius) * len;
    if (!(r >= 1e-18 && r <= 1e18))
        return rs_mts_fail(m, n, "sphere: radius %g is out of range", r);
    if (s->flip && emits)
        return rs_mts_fail(m, n, "sphere: flip_normals on an emitting sphere is not supported (it would emit inwards)");
    if (s->flip)
        rs_mts_warn(m, n, "sphere: flip_normals is not supported on spheres and was ignored");
    if (s->textured)
        rs_mts_warn(m, n, "sphere: texture coordinates wrap around +y in raystream, around the local z in Mitsuba");
    return rs_scene_add_sphere(m->scene, rs_transform_point(&s->xf, centre), (float)r, s->material, m->err);
}

static int mesh_file(RsMts* m, RsMtsNode* n, const char* type, const RsMtsShapeCtx* s, int emits)
{
    const char* filename = NULL;
    int face_normals = 0;
    if (rs_mts_get_string(m, n, "filename", &filename) || rs_mts_get_bool(m, n, "face_normals", &face_normals))
        return -1;
    if (!filename)
        return rs_mts_fail(m, n, "%s: needs a filename", type);
    char path[4096];
    if (rs_mts_resolve_path(m, n, filename, path, sizeof path))
        return -1;
    if (strcmp(type, "serialized") == 0) {
        int64_t index = 0;
        if (rs_mts_get_int(m, n, "shape_index", &index))
            return -1;
        if (index < 0 || index > 0x7fffffff)
            return rs_mts_fail(m, n, "serialized: shape_index must be >= 0 (got %lld)", (long long)index);
        return rs_mts_load_serialized(m, n, path, (uint32_t)index, &s->xf, face_normals, s->flip, s->material);
    }
    if (s->flip && emits)
        return rs_mts_fail(m, n, "%s: flip_normals on an emitting mesh is not supported", type);
    if (s->flip)
        rs_mts_warn(m, n, "%s: flip_normals is not supported on %s meshes and was ignored", type, type);
    if (face_normals)
        rs_mts_warn(m, n, "%s: face_normals is not supported on %s meshes; their vertex normals are used", type, type);
    char where[4200];
    snprintf(where, sizeof where, "%s:%d: %s", n->file, n->line, type);
    return rs_mesh_import(m->scene, path, where, &s->xf, (int32_t)s->material, m->files, m->err);
}

static int shapegroup(RsMts* m, RsMtsNode* n, uint32_t* object)
{
    for (size_t i = 0; i < m->groups.count; ++i) {
        if (m->groups.data[i].node == n) {
            *object = m->groups.data[i].object;
            return 0;
        }
    }
    if (m->scene->open_object >= 0)
        return rs_mts_fail(m, n, "shapegroup: shapegroups cannot nest");
    int32_t o = rs_scene_begin_object(m->scene, m->err);
    if (o < 0)
        return rs_mts_rethrow(m, n, "shapegroup");
    for (uint32_t i = 0; i < n->child_count; ++i) {
        RsMtsNode* c = n->children[i];
        RsMtsNode* t = rs_mts_deref(m, c);
        if (!t)
            return -1;
        c->used = 1;
        if (strcmp(t->tag, "shape") != 0)
            return rs_mts_fail(m, c, "shapegroup: holds only shapes (got <%s>)", t->tag);
        if (rs_mts_read_shape(m, t, 1))
            return -1;
    }
    if (rs_scene_end_object(m->scene, m->err))
        return rs_mts_rethrow(m, n, "shapegroup");
    RsMtsGroup g = {n, (uint32_t)o};
    if (rs_array_push(&m->groups, g, m->err))
        return -1;
    *object = (uint32_t)o;
    return 0;
}

static int instance(RsMts* m, RsMtsNode* n, RsTransform* xf)
{
    RsMtsNode* group = NULL;
    for (uint32_t i = 0; i < n->child_count; ++i) {
        RsMtsNode* c = n->children[i];
        if (strcmp(c->tag, "ref") != 0)
            continue;
        c->used = 1;
        if (!(group = rs_mts_deref(m, c)))
            return -1;
    }
    if (!group)
        return rs_mts_fail(m, n, "instance: needs a <ref id=\"...\"/> to a shapegroup");
    const char* gt = rs_mts_attr(group, "type");
    if (strcmp(group->tag, "shape") != 0 || !gt || strcmp(gt, "shapegroup") != 0)
        return rs_mts_fail(m, n, "instance: the ref must name a shapegroup");
    if (m->scene->open_object >= 0)
        return rs_mts_fail(m, n, "instance: instances inside a shapegroup are not supported");
    uint32_t object = 0;
    if (shapegroup(m, group, &object))
        return -1;
    rs_mts_warn_unused(m, n, "instance");
    if (rs_scene_add_instance(m->scene, object, xf, m->err))
        return rs_mts_rethrow(m, n, "instance");
    return 0;
}

int rs_mts_read_shape(RsMts* m, RsMtsNode* n, int in_group)
{
    const char* type = rs_mts_attr(n, "type");
    if (!type)
        return rs_mts_fail(m, n, "shape: needs a type");
    if (strcmp(type, "shapegroup") == 0) {
        if (in_group)
            return rs_mts_fail(m, n, "shapegroup: shapegroups cannot nest");
        uint32_t object;
        return shapegroup(m, n, &object);
    }
    RsMtsShapeCtx s;
    memset(&s, 0, sizeof s);
    if (rs_mts_get_transform(m, n, "to_world", &s.xf) || rs_mts_get_bool(m, n, "flip_normals", &s.flip))
        return -1;
    if (!in_group)
        s.xf = rs_transform_compose(&m->world, &s.xf);
    if (strcmp(type, "instance") == 0) {
        if (in_group)
            return rs_mts_fail(m, n, "instance: instances inside a shapegroup are not supported");
        return instance(m, n, &s.xf);
    }
    RsMtsNode *bsdf = NULL, *emitter = NULL;
    for (uint32_t i = 0; i < n->child_count; ++i) {
        RsMtsNode* c = n->children[i];
        RsMtsNode* t = rs_mts_deref(m, c);
        if (!t)
            return -1;
        if (strcmp(t->tag, "bsdf") == 0) {
            if (bsdf)
                return rs_mts_fail(m, c, "shape: more than one bsdf");
            bsdf = t;
            c->used = 1;
        } else if (strcmp(t->tag, "emitter") == 0) {
            const char* et = rs_mts_attr(t, "type");
            if (!et || strcmp(et, "area") != 0)
                return rs_mts_fail(m, c, "shape: only an area emitter can sit in a shape (got '%s')", et ? et : "?");
            emitter = t;
            c->used = 1;
            m->have_light = 1;
        } else if (strcmp(t->tag, "medium") == 0) {
            return rs_mts_fail(m, c, "medium: participating media are not supported");
        }
    }
    int32_t material = rs_mts_material(m, bsdf, emitter);
    if (material < 0)
        return -1;
    s.material = (uint32_t)material;
    s.textured = rs_mts_material_textured(m, s.material);
    int status;
    if (strcmp(type, "rectangle") == 0) {
        status = rectangle(m, &s);
    } else if (strcmp(type, "cube") == 0) {
        status = cube(m, &s);
    } else if (strcmp(type, "disk") == 0) {
        rs_mts_warn(m, n, "disk: triangulated into %d triangles", RS_MTS_DISK_SEGMENTS);
        status = disk(m, &s);
    } else if (strcmp(type, "cylinder") == 0) {
        rs_mts_warn(m, n, "cylinder: triangulated into %d triangles with smooth normals", 2 * RS_MTS_DISK_SEGMENTS);
        status = cylinder(m, n, &s);
    } else if (strcmp(type, "sphere") == 0) {
        status = sphere(m, n, &s, emitter != NULL);
    } else if (strcmp(type, "obj") == 0 || strcmp(type, "ply") == 0 || strcmp(type, "serialized") == 0) {
        status = mesh_file(m, n, type, &s, emitter != NULL);
    } else {
        return rs_mts_fail(m, n, "shape '%s': not supported (raystream reads obj, ply, serialized, rectangle, cube, "
                                 "sphere, disk, cylinder, shapegroup and instance)", type);
    }
    if (status) {
        if (strstr(m->err->message, ".xml:") == NULL && strstr(m->err->message, n->file) == NULL)
            return rs_mts_rethrow(m, n, type);
        return -1;
    }
    rs_mts_warn_unused(m, n, type);
    return 0;
}
