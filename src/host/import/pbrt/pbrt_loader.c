/* pbrt_loader.c - the directive loop of the pbrt-v4 importer: transforms, attributes, named
 * coordinate systems, includes, objects and instances, and the dispatch of the rest to
 * pbrt_camera.c, pbrt_shapes.c, pbrt_materials.c, pbrt_textures.c and pbrt_lights.c.
 * Host C11 (POSIX).
 */
#define _POSIX_C_SOURCE 200809L
#include "host/import/pbrt/pbrt_loader.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/import/pbrt/pbrt_context.h"

#define RS_PBRT_MAX_NESTING 10000 /* AttributeBegin inside AttributeBegin */

int rs_pbrt_fail(const RsPbrtParams* params, RsError* err, const char* fmt, ...)
{
    char message[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    return rs_error_set(err, "%s: %s", params->where, message);
}

int rs_pbrt_define_coords(RsPbrtContext* ctx, const char* name, const RsPbrtMatrix* m)
{
    for (size_t i = 0; i < ctx->coord_names.count; ++i)
        if (strcmp(ctx->coord_names.data[i], name) == 0) {
            ctx->coord_matrices.data[i] = *m;
            return 0;
        }
    char* copy = strdup(name);
    /* the matrix first: coord_matrices may run one ahead of coord_names, never behind */
    if (!copy || rs_array_push(&ctx->coord_matrices, *m, ctx->err) || rs_array_push(&ctx->coord_names, copy, ctx->err)) {
        free(copy);
        return -1;
    }
    return 0;
}

/* The next token as a string argument of `directive`, copied into out[]. */
static int read_string_arg(RsPbrtContext* ctx, const char* where, char* out, size_t size)
{
    RsPbrtToken t;
    if (rs_pbrt_lexer_next(&ctx->lexer, &t, ctx->err))
        return -1;
    if (t.kind != RS_PBRT_STRING)
        return rs_error_set(ctx->err, "%s: expected a quoted string", where);
    if (t.length >= size)
        return rs_error_set(ctx->err, "%s: the string is longer than %zu bytes", where, size - 1);
    memcpy(out, t.text, t.length);
    out[t.length] = '\0';
    return 0;
}

/* n numbers, bare or in one [ ] (Transform [ ... ]). */
static int read_numbers(RsPbrtContext* ctx, const char* where, double* out, int n)
{
    RsPbrtToken t;
    if (rs_pbrt_lexer_peek(&ctx->lexer, &t, ctx->err))
        return -1;
    int bracketed = t.kind == RS_PBRT_OPEN;
    if (bracketed)
        rs_pbrt_lexer_next(&ctx->lexer, &t, ctx->err);
    for (int i = 0; i < n; ++i) {
        if (rs_pbrt_lexer_next(&ctx->lexer, &t, ctx->err))
            return -1;
        if (t.kind != RS_PBRT_NUMBER)
            return rs_error_set(ctx->err, "%s: expected %d numbers", where, n);
        out[i] = t.number;
    }
    if (bracketed) {
        if (rs_pbrt_lexer_next(&ctx->lexer, &t, ctx->err))
            return -1;
        if (t.kind != RS_PBRT_CLOSE)
            return rs_error_set(ctx->err, "%s: expected ']' after %d numbers", where, n);
    }
    return 0;
}

static int apply(RsPbrtContext* ctx, const RsPbrtMatrix* m)
{
    if (ctx->transforms_frozen)
        return 0;
    ctx->gs.ctm = rs_pbrt_mul(&ctx->gs.ctm, m);
    return 0;
}

static int transform_directive(RsPbrtContext* ctx, const char* name, const char* where)
{
    double v[16];
    RsPbrtMatrix m;
    if (strcmp(name, "Identity") == 0) {
        if (!ctx->transforms_frozen)
            ctx->gs.ctm = rs_pbrt_identity();
        return 0;
    }
    if (strcmp(name, "Translate") == 0 || strcmp(name, "Scale") == 0) {
        if (read_numbers(ctx, where, v, 3))
            return -1;
        m = name[0] == 'T' ? rs_pbrt_translate(v[0], v[1], v[2]) : rs_pbrt_scale(v[0], v[1], v[2]);
        return apply(ctx, &m);
    }
    if (strcmp(name, "Rotate") == 0) {
        if (read_numbers(ctx, where, v, 4))
            return -1;
        if (v[1] == 0.0 && v[2] == 0.0 && v[3] == 0.0)
            return rs_error_set(ctx->err, "%s: the rotation axis must not be zero", where);
        m = rs_pbrt_rotate(v[0], v[1], v[2], v[3]);
        return apply(ctx, &m);
    }
    if (strcmp(name, "LookAt") == 0) {
        if (read_numbers(ctx, where, v, 9))
            return -1;
        if (rs_pbrt_look_at(v, v + 3, v + 6, &m))
            return rs_error_set(ctx->err, "%s: the eye and the point looked at coincide, or up is along the view",
                                where);
        return apply(ctx, &m);
    }
    if (strcmp(name, "Transform") == 0 || strcmp(name, "ConcatTransform") == 0) {
        if (read_numbers(ctx, where, v, 16))
            return -1;
        m = rs_pbrt_from_columns(v);
        if (name[0] == 'T') {
            if (!ctx->transforms_frozen)
                ctx->gs.ctm = m;
            return 0;
        }
        return apply(ctx, &m);
    }
    if (strcmp(name, "CoordinateSystem") == 0 || strcmp(name, "CoordSysTransform") == 0) {
        char cs[256];
        if (read_string_arg(ctx, where, cs, sizeof cs))
            return -1;
        if (name[5] == 'i') /* CoordinateSystem: (re)define */
            return rs_pbrt_define_coords(ctx, cs, &ctx->gs.ctm) ? rs_error_set(ctx->err, "%s: out of memory", where) : 0;
        for (size_t i = 0; i < ctx->coord_names.count; ++i)
            if (strcmp(ctx->coord_names.data[i], cs) == 0) {
                if (!ctx->transforms_frozen)
                    ctx->gs.ctm = ctx->coord_matrices.data[i];
                return 0;
            }
        return rs_error_set(ctx->err, "%s: no coordinate system named \"%s\"", where, cs);
    }
    if (strcmp(name, "TransformTimes") == 0) {
        if (read_numbers(ctx, where, v, 2))
            return -1;
        return 0; /* only motion blur reads the times; ActiveTransform warns about motion */
    }
    if (strcmp(name, "ActiveTransform") == 0) {
        RsPbrtToken t;
        if (rs_pbrt_lexer_next(&ctx->lexer, &t, ctx->err))
            return -1;
        if (rs_pbrt_token_is(&t, "All")) {
            ctx->transforms_frozen = 0;
        } else if (rs_pbrt_token_is(&t, "StartTime") || rs_pbrt_token_is(&t, "EndTime")) {
            /* only the start transform is kept: StartTime's changes apply, EndTime's are ignored */
            ctx->transforms_frozen = t.text[0] == 'E';
            if (!(ctx->warned & RS_PBRT_WARNED_MOTION))
                rs_scene_warn(ctx->scene, "%s: motion blur is not rendered; shapes stay at their start transform",
                              where);
            ctx->warned |= RS_PBRT_WARNED_MOTION;
        } else {
            return rs_error_set(ctx->err, "%s: expected StartTime, EndTime or All", where);
        }
        return 0;
    }
    return 1; /* not a transform directive */
}

static int push_state(RsPbrtContext* ctx, int by_attribute, const char* where)
{
    if (ctx->stack.count >= RS_PBRT_MAX_NESTING)
        return rs_error_set(ctx->err, "%s: attributes nest deeper than %d", where, RS_PBRT_MAX_NESTING);
    RsPbrtGraphics saved = ctx->gs;
    saved.pushed_by_attribute = by_attribute;
    return rs_array_push(&ctx->stack, saved, ctx->err);
}

static int pop_state(RsPbrtContext* ctx, int by_attribute, const char* where)
{
    if (ctx->stack.count == 0)
        return rs_error_set(ctx->err, "%s: unmatched %s", where, by_attribute ? "AttributeEnd" : "TransformEnd");
    RsPbrtGraphics saved = ctx->stack.data[--ctx->stack.count];
    if (saved.pushed_by_attribute != by_attribute)
        rs_scene_warn(ctx->scene, "%s: closes a %s", where, saved.pushed_by_attribute ? "AttributeBegin" : "TransformBegin");
    if (by_attribute) {
        ctx->gs = saved;
    } else {
        ctx->gs.ctm = saved.ctm; /* TransformEnd restores the transform only */
    }
    return 0;
}

static int object_directive(RsPbrtContext* ctx, const char* name, const char* where)
{
    char object[512];
    if (strcmp(name, "ObjectEnd") == 0) {
        if (ctx->open_object < 0)
            return rs_error_set(ctx->err, "%s: ObjectEnd without ObjectBegin", where);
        ctx->open_object = -1;
        return rs_scene_end_object(ctx->scene, ctx->err) || pop_state(ctx, 1, where);
    }
    if (read_string_arg(ctx, where, object, sizeof object))
        return -1;
    if (strcmp(name, "ObjectBegin") == 0) {
        if (ctx->open_object >= 0)
            return rs_error_set(ctx->err, "%s \"%s\": ObjectBegin inside the object \"%s\"", where, object,
                                ctx->objects.data[ctx->open_object].name);
        for (size_t i = 0; i < ctx->objects.count; ++i)
            if (strcmp(ctx->objects.data[i].name, object) == 0)
                return rs_error_set(ctx->err, "%s \"%s\": an object of that name is already defined", where, object);
        if (push_state(ctx, 1, where))
            return -1;
        int32_t index = rs_scene_begin_object(ctx->scene, ctx->err);
        RsPbrtObject o = {strdup(object), index};
        if (index < 0 || !o.name || rs_array_push(&ctx->objects, o, ctx->err)) {
            free(o.name);
            return rs_error_set(ctx->err, "%s: cannot begin object \"%s\"", where, object);
        }
        ctx->open_object = (int32_t)(ctx->objects.count - 1);
        return 0;
    }
    /* ObjectInstance: the object placed with the current transform, mirrored as geometry is */
    if (ctx->open_object >= 0)
        return rs_error_set(ctx->err, "%s \"%s\": ObjectInstance inside an object definition", where, object);
    for (size_t i = 0; i < ctx->objects.count; ++i) {
        if (strcmp(ctx->objects.data[i].name, object) != 0)
            continue;
        if (!rs_pbrt_is_affine(&ctx->gs.ctm))
            return rs_error_set(ctx->err, "%s \"%s\": the transform is projective", where, object);
        RsPbrtMatrix placed = rs_pbrt_mul(&ctx->mirror, &ctx->gs.ctm);
        placed = rs_pbrt_mul(&placed, &ctx->mirror);
        if (rs_pbrt_det3(&ctx->gs.ctm) < 0.0)
            rs_scene_warn(ctx->scene, "%s \"%s\": the transform mirrors; one-sided surfaces of the instance face "
                                      "the other way than in pbrt-v4", where, object);
        RsTransform t = rs_pbrt_to_transform(&placed);
        return rs_scene_add_instance(ctx->scene, (uint32_t)ctx->objects.data[i].object, &t, ctx->err);
    }
    return rs_error_set(ctx->err, "%s: no object named \"%s\" (ObjectBegin must come first)", where, object);
}

/* Directives whose only argument is a type string followed by parameters. */
static int typed_directive(RsPbrtContext* ctx, const char* name, const char* file, int line)
{
    RsPbrtParams params = {0};
    char type[256], name_arg[512] = "", where[600];
    int is_named = strcmp(name, "MakeNamedMaterial") == 0 || strcmp(name, "MakeNamedMedium") == 0;
    int is_texture = strcmp(name, "Texture") == 0;
    snprintf(where, sizeof where, "%s:%d: %s", file, line, name);
    char value_type[64] = "";
    if (is_named || is_texture) {
        if (read_string_arg(ctx, where, name_arg, sizeof name_arg))
            return -1;
    }
    if (is_texture && read_string_arg(ctx, where, value_type, sizeof value_type))
        return -1;
    if (!is_named && read_string_arg(ctx, where, type, sizeof type))
        return -1;
    if (is_named)
        snprintf(params.where, sizeof params.where, "%s:%d: %s \"%s\"", file, line, name, name_arg);
    else if (is_texture)
        snprintf(params.where, sizeof params.where, "%s:%d: Texture \"%s\" \"%s\" \"%s\"", file, line, name_arg,
                 value_type, type);
    else
        snprintf(params.where, sizeof params.where, "%s:%d: %s \"%s\"", file, line, name, type);
    params.file = file;
    params.files = ctx->files;
    int status = rs_pbrt_params_read(&ctx->lexer, &params, ctx->err);
    int world = strcmp(name, "Camera") && strcmp(name, "Film") && strcmp(name, "Sampler") &&
                strcmp(name, "Integrator") && strcmp(name, "PixelFilter") && strcmp(name, "Accelerator");
    if (!status && world && strcmp(name, "MakeNamedMedium") != 0 && !ctx->in_world)
        status = rs_pbrt_fail(&params, ctx->err, "only allowed after WorldBegin");
    if (!status && !world && ctx->in_world)
        status = rs_pbrt_fail(&params, ctx->err, "only allowed before WorldBegin");
    if (status) {
    } else if (strcmp(name, "Shape") == 0) {
        status = rs_pbrt_shape(ctx, type, &params);
    } else if (strcmp(name, "Material") == 0) {
        status = rs_pbrt_material(ctx, NULL, type, &params);
    } else if (strcmp(name, "MakeNamedMaterial") == 0) {
        const char* t = NULL;
        status = rs_pbrt_get_string(&params, "type", &t, ctx->err);
        if (!status && !t)
            status = rs_pbrt_fail(&params, ctx->err, "needs a \"string type\"");
        if (!status)
            status = rs_pbrt_material(ctx, name_arg, t, &params);
    } else if (is_texture) {
        status = rs_pbrt_texture(ctx, name_arg, value_type, type, &params);
    } else if (strcmp(name, "LightSource") == 0) {
        status = rs_pbrt_light(ctx, type, &params);
    } else if (strcmp(name, "AreaLightSource") == 0) {
        status = rs_pbrt_area_light(ctx, type, &params);
    } else if (strcmp(name, "Camera") == 0) {
        status = rs_pbrt_camera(ctx, type, &params);
    } else if (strcmp(name, "Film") == 0) {
        status = rs_pbrt_film(ctx, type, &params);
    } else if (strcmp(name, "Sampler") == 0) {
        status = rs_pbrt_sampler(ctx, type, &params);
    } else if (strcmp(name, "Integrator") == 0) {
        status = rs_pbrt_integrator(ctx, type, &params);
    } else if (strcmp(name, "PixelFilter") == 0 || strcmp(name, "Accelerator") == 0) {
        rs_scene_warn(ctx->scene, "%s: ignored (raystream uses its own %s)", params.where,
                      name[0] == 'P' ? "box pixel filter" : "acceleration structure");
        for (size_t i = 0; i < params.count; ++i)
            params.items[i].used = 1;
    } else if (strcmp(name, "MakeNamedMedium") == 0) {
        rs_scene_warn(ctx->scene, "%s: participating media are not supported; the medium is ignored", params.where);
        for (size_t i = 0; i < params.count; ++i)
            params.items[i].used = 1;
    } else { /* Attribute */
        status = rs_pbrt_fail(&params, ctx->err, "not supported (give the parameters on each directive instead)");
    }
    if (!status)
        rs_pbrt_params_warn_unused(ctx->scene, &params);
    rs_pbrt_params_free(&params);
    return status;
}

static int directive(RsPbrtContext* ctx, const RsPbrtToken* t)
{
    char name[64], where[600];
    if (t->kind != RS_PBRT_WORD)
        return rs_error_set(ctx->err, "%s:%d: expected a directive, got '%.*s'", t->file, t->line,
                            (int)(t->length > 40 ? 40 : t->length), t->text);
    snprintf(name, sizeof name, "%.*s", (int)(t->length < sizeof name ? t->length : sizeof name - 1), t->text);
    snprintf(where, sizeof where, "%s:%d: %s", t->file, t->line, name);
    int status = transform_directive(ctx, name, where);
    if (status <= 0)
        return status;
    if (strcmp(name, "WorldBegin") == 0) {
        if (ctx->in_world)
            return rs_error_set(ctx->err, "%s: a second WorldBegin", where);
        ctx->in_world = 1;
        ctx->transforms_frozen = 0;
        if (rs_pbrt_place_camera(ctx, where))
            return -1;
        ctx->gs.ctm = rs_pbrt_identity();
        /* the named coordinate system "world", as pbrt-v4 defines it here */
        return rs_pbrt_define_coords(ctx, "world", &ctx->gs.ctm) ? rs_error_set(ctx->err, "%s: out of memory", where) : 0;
    }
    if (strcmp(name, "WorldEnd") == 0) /* pbrt-v3's; v4 ends the world at the end of the file */
        return 0;
    if (strcmp(name, "AttributeBegin") == 0 || strcmp(name, "TransformBegin") == 0)
        return push_state(ctx, name[0] == 'A', where);
    if (strcmp(name, "AttributeEnd") == 0 || strcmp(name, "TransformEnd") == 0) {
        return pop_state(ctx, name[0] == 'A', where);
    }
    if (strcmp(name, "ReverseOrientation") == 0) {
        ctx->gs.reverse_orientation = !ctx->gs.reverse_orientation;
        return 0;
    }
    if (strcmp(name, "Include") == 0 || strcmp(name, "Import") == 0) {
        char file[4096];
        if (read_string_arg(ctx, where, file, sizeof file))
            return -1;
        return rs_pbrt_lexer_include(&ctx->lexer, file, t->file, t->line, ctx->err);
    }
    if (strcmp(name, "NamedMaterial") == 0) {
        char material[512];
        if (read_string_arg(ctx, where, material, sizeof material))
            return -1;
        int index = rs_pbrt_find_material(ctx, material);
        if (index < 0)
            return rs_error_set(ctx->err, "%s \"%s\": no material of that name (MakeNamedMaterial must come first)",
                                where, material);
        ctx->gs.material = index;
        return 0;
    }
    if (strcmp(name, "ObjectBegin") == 0 || strcmp(name, "ObjectEnd") == 0 || strcmp(name, "ObjectInstance") == 0) {
        if (!ctx->in_world)
            return rs_error_set(ctx->err, "%s: only allowed after WorldBegin", where);
        return object_directive(ctx, name, where);
    }
    if (strcmp(name, "MediumInterface") == 0) {
        char inside[256], outside[256] = "";
        RsPbrtToken next;
        if (read_string_arg(ctx, where, inside, sizeof inside) || rs_pbrt_lexer_peek(&ctx->lexer, &next, ctx->err))
            return -1;
        if (next.kind == RS_PBRT_STRING && !memchr(next.text, ' ', next.length) &&
            read_string_arg(ctx, where, outside, sizeof outside))
            return -1;
        if (inside[0] || outside[0])
            return rs_error_set(ctx->err, "%s \"%s\" \"%s\": participating media are not supported", where, inside,
                                outside);
        return 0;
    }
    if (strcmp(name, "Option") == 0) { /* Option "bool name" value: renderer settings, none of which raystream reads */
        char option[256];
        RsPbrtToken v;
        if (read_string_arg(ctx, where, option, sizeof option) || rs_pbrt_lexer_next(&ctx->lexer, &v, ctx->err))
            return -1;
        for (int n = 0; v.kind == RS_PBRT_OPEN || (n > 0 && v.kind != RS_PBRT_CLOSE); ++n) {
            if (v.kind == RS_PBRT_END)
                return rs_error_set(ctx->err, "%s \"%s\": the value list has no closing ']'", where, option);
            if (rs_pbrt_lexer_next(&ctx->lexer, &v, ctx->err))
                return -1;
            if (n == 0 && v.kind == RS_PBRT_CLOSE)
                break;
        }
        if (v.kind == RS_PBRT_END)
            return rs_error_set(ctx->err, "%s \"%s\": no value", where, option);
        rs_scene_warn(ctx->scene, "%s \"%s\": ignored", where, option);
        return 0;
    }
    if (strcmp(name, "ColorSpace") == 0) {
        char space[64];
        if (read_string_arg(ctx, where, space, sizeof space))
            return -1;
        if (strcmp(space, "srgb") != 0)
            rs_scene_warn(ctx->scene, "%s \"%s\": colours are read as linear sRGB", where, space);
        return 0;
    }
    static const char* const typed[] = {"Shape", "Material", "MakeNamedMaterial", "Texture", "LightSource",
                                        "AreaLightSource", "Camera", "Film", "Sampler", "Integrator", "PixelFilter",
                                        "Accelerator", "MakeNamedMedium", "Attribute", NULL};
    for (int i = 0; typed[i]; ++i)
        if (strcmp(name, typed[i]) == 0)
            return typed_directive(ctx, name, t->file, t->line);
    return rs_error_set(ctx->err, "%s: unknown directive", where);
}

static void context_free(RsPbrtContext* ctx)
{
    rs_pbrt_lexer_free(&ctx->lexer);
    rs_array_free(&ctx->stack);
    for (size_t i = 0; i < ctx->coord_names.count; ++i)
        free(ctx->coord_names.data[i]);
    rs_array_free(&ctx->coord_names);
    rs_array_free(&ctx->coord_matrices);
    for (size_t i = 0; i < ctx->materials.count; ++i) {
        free(ctx->materials.data[i].name);
        free(ctx->materials.data[i].label);
        free(ctx->materials.data[i].refused);
    }
    rs_array_free(&ctx->materials);
    rs_array_free(&ctx->area_lights);
    for (size_t i = 0; i < ctx->textures.count; ++i) {
        free(ctx->textures.data[i].name);
        free(ctx->textures.data[i].file);
        free(ctx->textures.data[i].where);
        free(ctx->textures.data[i].refused);
    }
    rs_array_free(&ctx->textures);
    for (size_t i = 0; i < ctx->objects.count; ++i)
        free(ctx->objects.data[i].name);
    rs_array_free(&ctx->objects);
}

static int run(RsPbrtContext* ctx, const char* path)
{
    if (rs_pbrt_lexer_open(&ctx->lexer, path, ctx->files, ctx->err))
        return -1;
    for (;;) {
        RsPbrtToken t;
        if (rs_pbrt_lexer_next(&ctx->lexer, &t, ctx->err))
            return -1;
        if (t.kind == RS_PBRT_END)
            break;
        if (directive(ctx, &t))
            return -1;
    }
    if (!ctx->in_world)
        return rs_error_set(ctx->err, "%s: no WorldBegin: the scene describes no world", path);
    if (ctx->open_object >= 0)
        return rs_error_set(ctx->err, "%s: ObjectBegin \"%s\" has no ObjectEnd", path,
                            ctx->objects.data[ctx->open_object].name);
    if (ctx->stack.count > 0)
        rs_scene_warn(ctx->scene, "%s: %zu AttributeBegin/TransformBegin without their End at the end of the file",
                      path, ctx->stack.count);
    if (ctx->scene->prims.count == 0 && ctx->scene->instances.count == 0)
        return rs_error_set(ctx->err, "%s: the scene is empty (no shapes)", path);
    return 0;
}

int rs_pbrt_load(const char* path, const RsAccelOptions* accel, RsScene* scene, RsFileList* files_read, RsError* err)
{
    rs_scene_init(scene);
    if (accel)
        scene->accel_options = *accel;
    scene->file = strdup(path);
    if (!scene->file)
        return rs_error_set(err, "%s: out of memory", path);
    RsPbrtContext ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.scene = scene;
    ctx.err = err;
    ctx.files = files_read;
    ctx.gs.ctm = rs_pbrt_identity();
    ctx.gs.material = -1;
    ctx.gs.area_light = -1;
    ctx.open_object = -1;
    ctx.mirror = rs_pbrt_identity();
    ctx.fov = 90.0;
    ctx.focal_distance = 1e6;
    ctx.width = 1280;
    ctx.height = 720;
    ctx.camera_from_world = rs_pbrt_identity();
    snprintf(ctx.camera_type, sizeof ctx.camera_type, "perspective");
    scene->render.max_depth = 5; /* pbrt-v4's default maxdepth */
    int status = run(&ctx, path);
    context_free(&ctx);
    if (status == 0)
        status = rs_scene_build(scene, err);
    if (status)
        rs_scene_free(scene);
    return status;
}
