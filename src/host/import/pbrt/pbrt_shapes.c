/* pbrt_shapes.c - pbrt-v4's Shape directive: trianglemesh, plymesh, bilinearmesh (two
 * triangles a patch), loopsubdiv (pbrt_loop.c), sphere (whole spheres only), disk
 * (triangulated); the rest refused by name.
 * Host C11.
 *
 * Quadrics follow pbrt-v4's orientation rule for them: the object-space normal (outward, or +z
 * for a disk), flipped by ReverseOrientation and again by a transform that swaps handedness.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/import/pbrt/pbrt_context.h"
#include "host/import/pbrt/geometry/pbrt_loop.h"
#include "host/import/pbrt/geometry/pbrt_ply.h"
#include "host/scene/settings.h"

#define RS_PBRT_DISK_SEGMENTS 64

/* Numbers of a parameter as floats (NULL if absent; *failed on a wrong type). */
static float* floats_of(RsPbrtParams* params, const char* name, const char* type, size_t arity, size_t* count,
                        RsError* err, int* failed)
{
    const double* v = rs_pbrt_get_numbers(params, name, type, arity, count, err);
    if (!v) {
        *failed = err->message[0] != '\0';
        return NULL;
    }
    float* f = malloc((*count ? *count : 1) * sizeof(float));
    if (!f) {
        *failed = 1;
        rs_pbrt_fail(params, err, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < *count; ++i)
        f[i] = (float)v[i];
    return f;
}

static int mesh_from_params(RsPbrtContext* ctx, RsPbrtParams* params, int quads, uint32_t material)
{
    size_t np = 0, nn = 0, nuv = 0, ni = 0;
    int failed = 0;
    float* P = floats_of(params, "P", "point3", 3, &np, ctx->err, &failed);
    float* N = failed ? NULL : floats_of(params, "N", "normal3", 3, &nn, ctx->err, &failed);
    float* uv = NULL;
    if (!failed) {
        RsPbrtParam* p = rs_pbrt_param(params, "uv");
        if (!p)
            p = rs_pbrt_param(params, "st");
        if (p)
            uv = floats_of(params, p->name, strcmp(p->type, "float") == 0 ? "float" : "point2", 2, &nuv, ctx->err,
                           &failed);
    }
    const double* idx = failed ? NULL : rs_pbrt_get_numbers(params, "indices", "integer", quads ? 4 : 3, &ni, ctx->err);
    failed |= ctx->err->message[0] != '\0';
    size_t vertices = np / 3;
    int status = 0;
    uint32_t* indices = NULL;
    size_t index_count = 0;
    if (failed) {
        status = -1;
    } else if (!P || vertices == 0) {
        status = rs_pbrt_fail(params, ctx->err, "needs \"point3 P\"");
    } else if (N && nn != np) {
        status = rs_pbrt_fail(params, ctx->err, "\"normal N\" has %zu normals for %zu vertices", nn / 3, vertices);
    } else if (uv && nuv / 2 != vertices) {
        status = rs_pbrt_fail(params, ctx->err, "\"uv\" has %zu coordinates for %zu vertices", nuv / 2, vertices);
    } else if (!idx && vertices != (quads ? 4u : 3u)) {
        status = rs_pbrt_fail(params, ctx->err, "needs \"integer indices\" (only a single %s may leave them out)",
                              quads ? "patch" : "triangle");
    } else {
        size_t n = idx ? ni : (quads ? 4 : 3);
        indices = malloc((n / (quads ? 4 : 3)) * 3 * (quads ? 2 : 1) * sizeof(uint32_t) + sizeof(uint32_t));
        if (!indices)
            status = rs_pbrt_fail(params, ctx->err, "out of memory");
        for (size_t i = 0; !status && i < n; ++i) {
            double v = idx ? idx[i] : (double)i;
            if (!(v >= 0.0 && v < (double)vertices))
                status = rs_pbrt_fail(params, ctx->err, "\"integer indices\": %g is not one of the %zu vertices", v,
                                      vertices);
        }
        for (size_t i = 0; !status && i < n; i += quads ? 4 : 3) {
            uint32_t v[4];
            for (int k = 0; k < (quads ? 4 : 3); ++k)
                v[k] = (uint32_t)(idx ? idx[i + (size_t)k] : (double)(i + (size_t)k));
            if (quads) { /* p00 p10 p01 p11: triangles p00 p10 p11 and p00 p11 p01 */
                uint32_t t[6] = {v[0], v[1], v[3], v[0], v[3], v[2]};
                memcpy(indices + index_count, t, sizeof t);
                index_count += 6;
            } else {
                memcpy(indices + index_count, v, 3 * sizeof(uint32_t));
                index_count += 3;
            }
        }
    }
    if (!status) {
        RsPbrtMesh mesh = {P, N, uv, vertices, indices, index_count};
        status = rs_pbrt_add_mesh(ctx, &mesh, material, params->where);
    }
    free(P);
    free(N);
    free(uv);
    free(indices);
    return status;
}

static int loopsubdiv(RsPbrtContext* ctx, RsPbrtParams* params, uint32_t material)
{
    size_t np = 0, ni = 0;
    long levels = 3;
    int failed = 0;
    float* P = floats_of(params, "P", "point3", 3, &np, ctx->err, &failed);
    const double* idx = failed ? NULL : rs_pbrt_get_numbers(params, "indices", "integer", 3, &ni, ctx->err);
    uint32_t* indices = NULL;
    int status = failed || ctx->err->message[0] || rs_pbrt_get_int(params, "levels", &levels, ctx->err) ? -1 : 0;
    if (!status && (!P || !idx || np == 0 || ni == 0))
        status = rs_pbrt_fail(params, ctx->err, "needs \"point3 P\" and \"integer indices\"");
    if (!status && (levels < 0 || levels > 12))
        status = rs_pbrt_fail(params, ctx->err, "\"integer levels\" must be in [0, 12] (got %ld)", levels);
    if (!status) {
        indices = malloc(ni * sizeof *indices);
        if (!indices)
            status = rs_pbrt_fail(params, ctx->err, "out of memory");
        for (size_t i = 0; !status && i < ni; ++i) {
            if (!(idx[i] >= 0.0 && idx[i] < (double)(np / 3)))
                status = rs_pbrt_fail(params, ctx->err, "\"integer indices\": %g is not one of the %zu vertices", idx[i],
                                      np / 3);
            else
                indices[i] = (uint32_t)idx[i];
        }
    }
    RsLoopMesh loop;
    memset(&loop, 0, sizeof loop);
    if (!status)
        status = rs_loop_subdivide(P, np / 3, indices, ni, (int)levels, &loop, params->where, ctx->err);
    if (!status) {
        rs_scene_warn(ctx->scene, "%s: %ld levels of subdivision; its shading normals are averaged from the "
                                  "subdivided faces (pbrt-v4 takes the limit surface's)", params->where, levels);
        RsPbrtMesh mesh = {loop.P, loop.N, NULL, loop.vertex_count, loop.indices, loop.index_count};
        status = rs_pbrt_add_mesh(ctx, &mesh, material, params->where);
    }
    rs_loop_free(&loop);
    free(P);
    free(indices);
    return status;
}

static int plymesh(RsPbrtContext* ctx, RsPbrtParams* params, uint32_t material)
{
    const char* name = NULL;
    if (rs_pbrt_get_string(params, "filename", &name, ctx->err))
        return -1;
    if (!name)
        return rs_pbrt_fail(params, ctx->err, "needs \"string filename\"");
    char path[4096];
    if (rs_pbrt_resolve(rs_pbrt_lexer_file(&ctx->lexer), name, path, sizeof path))
        return rs_pbrt_fail(params, ctx->err, "the file name is too long");
    RsPlyMesh ply;
    RsError ply_err = {{0}};
    if (rs_ply_read(path, &ply, &ply_err))
        return rs_pbrt_fail(params, ctx->err, "%s", ply_err.message);
    int status = rs_file_list_add(ctx->files, path, ctx->err);
    if (ply.polygons_skipped)
        rs_scene_warn(ctx->scene, "%s: %zu faces of more than 4 or fewer than 3 vertices in %s are skipped",
                      params->where, ply.polygons_skipped, name);
    RsPbrtMesh mesh = {ply.P, ply.N, ply.uv, ply.vertex_count, ply.indices, ply.index_count};
    if (!status)
        status = rs_pbrt_add_mesh(ctx, &mesh, material, params->where);
    rs_ply_free(&ply);
    return status;
}

static int sphere(RsPbrtContext* ctx, RsPbrtParams* params, uint32_t material)
{
    double radius = 1.0, zmin = -1e30, zmax = 1e30, phimax = 360.0;
    if (rs_pbrt_get_float(params, "radius", &radius, ctx->err) || rs_pbrt_get_float(params, "zmin", &zmin, ctx->err) ||
        rs_pbrt_get_float(params, "zmax", &zmax, ctx->err) || rs_pbrt_get_float(params, "phimax", &phimax, ctx->err))
        return -1;
    if (!(radius > 0.0))
        return rs_pbrt_fail(params, ctx->err, "\"float radius\": must be > 0 (got %g)", radius);
    if (zmin > -radius || zmax < radius || phimax < 360.0)
        return rs_pbrt_fail(params, ctx->err, "partial spheres (zmin, zmax, phimax) are not supported");
    RsPbrtMatrix a = rs_pbrt_placement(ctx);
    double scale = 1.0;
    if (!rs_pbrt_is_affine(&a) || !rs_pbrt_is_similarity(&a, &scale))
        return rs_pbrt_fail(params, ctx->err, "a sphere under a non-uniform scale or shear (an ellipsoid) is not "
                                              "supported");
    const double origin[3] = {0.0, 0.0, 0.0};
    double c[3];
    rs_pbrt_point(&a, origin, c);
    double r = radius * scale;
    if (!(r >= RS_SCENE_MIN_LENGTH && r <= RS_SCENE_MAX_MAGNITUDE) || fabs(c[0]) > RS_SCENE_MAX_MAGNITUDE ||
        fabs(c[1]) > RS_SCENE_MAX_MAGNITUDE || fabs(c[2]) > RS_SCENE_MAX_MAGNITUDE)
        return rs_pbrt_fail(params, ctx->err, "the sphere lies beyond +-1e18 or is too small once transformed");
    int inward = (ctx->gs.reverse_orientation != 0) != (rs_pbrt_det3(&ctx->gs.ctm) < 0.0);
    const RsMaterialDesc* d = &ctx->scene->material_descs.data[material];
    if (inward && !d->two_sided && (d->emission.x > 0.0f || d->emission.y > 0.0f || d->emission.z > 0.0f))
        rs_scene_warn(ctx->scene, "%s: pbrt-v4 would emit from the inside of this sphere (ReverseOrientation or a "
                                  "mirroring transform); raystream emits from its outside",
                      params->where);
    return rs_scene_add_sphere(ctx->scene, rs_vec3((float)c[0], (float)c[1], (float)c[2]), (float)r, material,
                               ctx->err);
}

static int disk(RsPbrtContext* ctx, RsPbrtParams* params, uint32_t material)
{
    double height = 0.0, radius = 1.0, inner = 0.0, phimax = 360.0;
    if (rs_pbrt_get_float(params, "height", &height, ctx->err) || rs_pbrt_get_float(params, "radius", &radius, ctx->err) ||
        rs_pbrt_get_float(params, "innerradius", &inner, ctx->err) ||
        rs_pbrt_get_float(params, "phimax", &phimax, ctx->err))
        return -1;
    if (!(radius > 0.0) || inner < 0.0 || !(inner < radius) || !(phimax > 0.0))
        return rs_pbrt_fail(params, ctx->err, "needs radius > innerradius >= 0 and phimax > 0");
    if (phimax > 360.0)
        phimax = 360.0;
    rs_scene_warn(ctx->scene, "%s: triangulated into %d segments", params->where, RS_PBRT_DISK_SEGMENTS);
    enum { S = RS_PBRT_DISK_SEGMENTS };
    float P[(S + 1) * 2 * 3];
    uint32_t idx[S * 6];
    size_t count = 0;
    /* pbrt's quadric rule: a handedness-swapping transform flips the normal; the triangle rule
     * of rs_pbrt_add_mesh does not, so the winding turns here */
    int turn = rs_pbrt_det3(&ctx->gs.ctm) < 0.0;
    for (int i = 0; i <= S; ++i) {
        double phi = phimax * (3.14159265358979323846 / 180.0) * i / S;
        double cs = cos(phi), sn = sin(phi);
        float* o = P + i * 6;
        o[0] = (float)(radius * cs), o[1] = (float)(radius * sn), o[2] = (float)height;
        o[3] = (float)(inner * cs), o[4] = (float)(inner * sn), o[5] = (float)height;
    }
    for (uint32_t i = 0; i < S; ++i) {
        uint32_t a = 2 * i, b = 2 * i + 1, c = 2 * i + 2, d = 2 * i + 3; /* outer, inner, next outer, next inner */
        uint32_t t[6] = {a, c, d, a, d, b};
        if (turn) {
            uint32_t u[6] = {a, d, c, a, b, d};
            memcpy(t, u, sizeof t);
        }
        memcpy(idx + count, t, sizeof t);
        count += inner > 0.0 ? 6 : 3;
    }
    RsPbrtMesh mesh = {P, NULL, NULL, (S + 1) * 2, idx, count};
    return rs_pbrt_add_mesh(ctx, &mesh, material, params->where);
}

int rs_pbrt_shape(RsPbrtContext* ctx, const char* type, RsPbrtParams* params)
{
    static const char* const known[] = {"trianglemesh", "plymesh", "sphere", "disk", "bilinearmesh", "loopsubdiv", NULL};
    int ok = 0;
    for (int i = 0; known[i]; ++i)
        ok |= strcmp(type, known[i]) == 0;
    if (!ok)
        return rs_pbrt_fail(params, ctx->err, "not supported (raystream reads trianglemesh, plymesh, bilinearmesh, "
                                              "loopsubdiv, sphere and disk)");
    uint32_t material = 0;
    int skip = 0;
    if (rs_pbrt_shape_material(ctx, params, &material, &skip))
        return -1;
    if (skip) {
        for (size_t i = 0; i < params->count; ++i)
            params->items[i].used = 1;
        return 0;
    }
    ++ctx->shape_count;
    if (strcmp(type, "trianglemesh") == 0)
        return mesh_from_params(ctx, params, 0, material);
    if (strcmp(type, "bilinearmesh") == 0) {
        if (!(ctx->warned & RS_PBRT_WARNED_BILINEAR))
            rs_scene_warn(ctx->scene, "%s: bilinear patches are rendered as two triangles each (exact for flat "
                                      "patches)", params->where);
        ctx->warned |= RS_PBRT_WARNED_BILINEAR;
        return mesh_from_params(ctx, params, 1, material);
    }
    if (strcmp(type, "plymesh") == 0)
        return plymesh(ctx, params, material);
    if (strcmp(type, "loopsubdiv") == 0)
        return loopsubdiv(ctx, params, material);
    if (strcmp(type, "sphere") == 0)
        return sphere(ctx, params, material);
    return disk(ctx, params, material);
}
