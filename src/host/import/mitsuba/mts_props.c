/* mts_props.c - reading Mitsuba property elements (<float>, <integer>, <boolean>, <string>,
 * <point>, <vector>, <rgb>, <spectrum>) and the messages that name file and line. Host C11.
 *
 * Numbers are read strictly: the whole text must be a finite number within
 * RS_SCENE_MAX_MAGNITUDE (scenes/README.md's limit), else an error names the element. Every
 * property an object reads is marked; rs_mts_warn_unused names those nobody read, so that a
 * parameter raystream does not know is never dropped silently.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "host/import/mitsuba/mts_internal.h"
#include "host/scene/settings.h"

int rs_mts_fail(RsMts* m, const RsMtsNode* node, const char* fmt, ...)
{
    char text[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (node)
        return rs_error_set(m->err, "%s:%d: %s", node->file, node->line, text);
    return rs_error_set(m->err, "%s", text);
}

void rs_mts_warn(RsMts* m, const RsMtsNode* node, const char* fmt, ...)
{
    char text[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (node)
        rs_scene_warn(m->scene, "%s:%d: %s", node->file, node->line, text);
    else
        rs_scene_warn(m->scene, "%s", text);
}

int rs_mts_rethrow(RsMts* m, const RsMtsNode* node, const char* plugin)
{
    char text[sizeof m->err->message];
    memcpy(text, m->err->message, sizeof text);
    rs_error_clear(m->err);
    return rs_mts_fail(m, node, "%s: %s", plugin, text);
}

static int join(RsMts* m, const RsMtsNode* node, const char* dir, const char* name, char* out, size_t out_size)
{
    int n = dir && dir[0] ? snprintf(out, out_size, "%s/%s", dir, name) : snprintf(out, out_size, "%s", name);
    if (n < 0 || (size_t)n >= out_size)
        return rs_mts_fail(m, node, "the path of '%.60s' is too long", name);
    return 0;
}

static int exists(const char* path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

int rs_mts_add_search_path(RsMts* m, const RsMtsNode* node, const char* folder)
{
    char* copy = strdup(folder);
    if (!copy || rs_array_push(&m->search, copy, m->err)) {
        free(copy);
        return rs_mts_fail(m, node, "out of memory");
    }
    return 0;
}

int rs_mts_resolve_path(RsMts* m, const RsMtsNode* node, const char* name, char* out, size_t out_size)
{
    if (!name[0])
        return rs_mts_fail(m, node, "an empty file name");
    if (name[0] == '/')
        return join(m, node, NULL, name, out, out_size);
    for (size_t i = m->search.count; i-- > 0;) {
        if (join(m, node, m->search.data[i], name, out, out_size))
            return -1;
        if (exists(out))
            return 0;
    }
    char dir[4096];
    const char* slash = strrchr(node->file, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - node->file) : 0, node->file);
    if (join(m, node, dir, name, out, out_size))
        return -1;
    if (exists(out) || m->search.count == 0)
        return 0;
    return join(m, node, m->search.data[0], name, out, out_size);
}

RsMtsNode* rs_mts_child(RsMts* m, RsMtsNode* obj, const char* name)
{
    (void)m;
    for (uint32_t i = 0; i < obj->child_count; ++i) {
        RsMtsNode* c = obj->children[i];
        const char* n = rs_mts_attr(c, "name");
        if (n && strcmp(n, name) == 0) {
            c->used = 1;
            return c;
        }
    }
    return NULL;
}

int rs_mts_parse_number(RsMts* m, const RsMtsNode* node, const char* what, const char* text, double* out)
{
    char* end = NULL;
    while (*text == ' ' || *text == '\t' || *text == '\n')
        ++text;
    double v = strtod(text, &end);
    while (end && (*end == ' ' || *end == '\t' || *end == '\n'))
        ++end;
    if (end == text || !end || *end)
        return rs_mts_fail(m, node, "%s: '%.60s' is not a number", what, text);
    if (!(fabs(v) <= RS_SCENE_MAX_MAGNITUDE))
        return rs_mts_fail(m, node, "%s: must be between -1e+18 and 1e+18 (got %.60s)", what, text);
    *out = v;
    return 0;
}

static const char* value_of(RsMts* m, const RsMtsNode* node, const char* name)
{
    const char* v = rs_mts_attr(node, "value");
    if (!v)
        rs_mts_fail(m, node, "%s: needs a value", name);
    return v;
}

int rs_mts_get_float(RsMts* m, RsMtsNode* obj, const char* name, double* out)
{
    RsMtsNode* c = rs_mts_child(m, obj, name);
    if (!c)
        return 0;
    if (strcmp(c->tag, "texture") == 0 || (strcmp(c->tag, "ref") == 0))
        return rs_mts_fail(m, c, "%s: a texture is not supported here (only a number)", name);
    if (strcmp(c->tag, "float") != 0 && strcmp(c->tag, "integer") != 0)
        return rs_mts_fail(m, c, "%s: expected a <float> (got <%s>)", name, c->tag);
    const char* v = value_of(m, c, name);
    return v ? rs_mts_parse_number(m, c, name, v, out) : -1;
}

int rs_mts_get_int(RsMts* m, RsMtsNode* obj, const char* name, int64_t* out)
{
    RsMtsNode* c = rs_mts_child(m, obj, name);
    if (!c)
        return 0;
    if (strcmp(c->tag, "integer") != 0)
        return rs_mts_fail(m, c, "%s: expected an <integer> (got <%s>)", name, c->tag);
    const char* v = value_of(m, c, name);
    double d = 0.0;
    if (!v || rs_mts_parse_number(m, c, name, v, &d))
        return -1;
    if (d != floor(d))
        return rs_mts_fail(m, c, "%s: '%s' is not an integer", name, v);
    *out = (int64_t)d;
    return 0;
}

int rs_mts_get_bool(RsMts* m, RsMtsNode* obj, const char* name, int* out)
{
    RsMtsNode* c = rs_mts_child(m, obj, name);
    if (!c)
        return 0;
    const char* v = strcmp(c->tag, "boolean") == 0 ? value_of(m, c, name) : NULL;
    if (strcmp(c->tag, "boolean") != 0)
        return rs_mts_fail(m, c, "%s: expected a <boolean> (got <%s>)", name, c->tag);
    if (!v)
        return -1;
    if (strcasecmp(v, "true") == 0 || strcmp(v, "1") == 0)
        *out = 1;
    else if (strcasecmp(v, "false") == 0 || strcmp(v, "0") == 0)
        *out = 0;
    else
        return rs_mts_fail(m, c, "%s: '%.60s' is not true or false", name, v);
    return 0;
}

int rs_mts_get_string(RsMts* m, RsMtsNode* obj, const char* name, const char** out)
{
    RsMtsNode* c = rs_mts_child(m, obj, name);
    if (!c)
        return 0;
    if (strcmp(c->tag, "string") != 0)
        return rs_mts_fail(m, c, "%s: expected a <string> (got <%s>)", name, c->tag);
    const char* v = value_of(m, c, name);
    if (!v)
        return -1;
    *out = v;
    return 0;
}

/* Up to `max` numbers separated by commas and/or whitespace; their count in *count. */
static int parse_list(RsMts* m, const RsMtsNode* node, const char* what, const char* text, double* out, int max,
                      int* count)
{
    char buf[128];
    *count = 0;
    const char* p = text;
    for (;;) {
        while (*p == ' ' || *p == ',' || *p == '\t' || *p == '\n' || *p == '\r')
            ++p;
        if (!*p)
            return 0;
        const char* e = p;
        while (*e && *e != ' ' && *e != ',' && *e != '\t' && *e != '\n' && *e != '\r')
            ++e;
        if (*count == max)
            return rs_mts_fail(m, node, "%s: more than %d numbers in '%.60s'", what, max, text);
        size_t n = (size_t)(e - p) < sizeof buf - 1 ? (size_t)(e - p) : sizeof buf - 1;
        memcpy(buf, p, n);
        buf[n] = '\0';
        if (rs_mts_parse_number(m, node, what, buf, &out[(*count)++]))
            return -1;
        p = e;
    }
}

int rs_mts_read_list(RsMts* m, const RsMtsNode* node, const char* what, const char* text, double* out, int max,
                     int* count)
{
    return parse_list(m, node, what, text, out, max, count);
}

int rs_mts_read_xyz(RsMts* m, const RsMtsNode* node, double d, RsVec3* out)
{
    double v[3] = {d, d, d};
    const char* value = rs_mts_attr(node, "value");
    const char* name = rs_mts_attr(node, "name");
    const char* what = name ? name : node->tag;
    if (value) {
        int count = 0;
        if (parse_list(m, node, what, value, v, 3, &count))
            return -1;
        if (count == 1)
            v[1] = v[2] = v[0];
        else if (count != 3)
            return rs_mts_fail(m, node, "%s: expected 1 or 3 numbers (got '%.60s')", what, value);
    } else {
        static const char* const axes[3] = {"x", "y", "z"};
        for (int i = 0; i < 3; ++i) {
            const char* a = rs_mts_attr(node, axes[i]);
            if (a && rs_mts_parse_number(m, node, what, a, &v[i]))
                return -1;
        }
    }
    *out = rs_vec3((float)v[0], (float)v[1], (float)v[2]);
    return 0;
}

int rs_mts_get_point(RsMts* m, RsMtsNode* obj, const char* name, RsVec3* out)
{
    RsMtsNode* c = rs_mts_child(m, obj, name);
    if (!c)
        return 0;
    if (strcmp(c->tag, "point") != 0 && strcmp(c->tag, "vector") != 0)
        return rs_mts_fail(m, c, "%s: expected a <point> or <vector> (got <%s>)", name, c->tag);
    return rs_mts_read_xyz(m, c, 0.0, out);
}

int rs_mts_get_colour(RsMts* m, RsMtsNode* obj, const char* name, int emitter, RsVec3* out, RsMtsNode** texture)
{
    RsMtsNode* c = rs_mts_child(m, obj, name);
    if (!c)
        return 0;
    if (strcmp(c->tag, "ref") == 0 && !(c = rs_mts_deref(m, c)))
        return -1;
    if (strcmp(c->tag, "texture") == 0) {
        if (!texture)
            return rs_mts_fail(m, c, "%s: a texture is not supported here (only a constant colour)", name);
        *texture = c;
        return 0;
    }
    if (strcmp(c->tag, "rgb") == 0) {
        RsVec3 v;
        if (rs_mts_read_xyz(m, c, 0.0, &v))
            return -1;
        *out = v;
        return 0;
    }
    if (strcmp(c->tag, "float") == 0) {
        const char* v = value_of(m, c, name);
        double d = 0.0;
        if (!v || rs_mts_parse_number(m, c, name, v, &d))
            return -1;
        *out = rs_vec3_splat((float)d);
        return 0;
    }
    if (strcmp(c->tag, "spectrum") == 0) {
        const char* type = rs_mts_attr(c, "type");
        if (type && strcmp(type, "blackbody") == 0) {
            double kelvin = 0.0;
            if (rs_mts_get_float(m, c, "temperature", &kelvin))
                return -1;
            if (!(kelvin > 0.0))
                return rs_mts_fail(m, c, "blackbody: needs a temperature > 0 (kelvin)");
            *out = rs_mts_blackbody_rgb(kelvin);
            rs_mts_warn_unused(m, c, "blackbody");
            return 0;
        }
        if (type)
            return rs_mts_fail(m, c, "spectrum type '%s': not supported (raystream reads values, wavelength:value "
                                     "lists and blackbody)", type);
        const char* v = rs_mts_attr(c, "value");
        if (!v && rs_mts_attr(c, "filename"))
            return rs_mts_fail(m, c, "%s: spectra from files (.spd) are not supported; give wavelength:value pairs",
                               name);
        if (!v)
            return rs_mts_fail(m, c, "%s: needs a value", name);
        return rs_mts_spectrum_rgb(m, c, v, emitter, out);
    }
    return rs_mts_fail(m, c, "%s: expected a colour (<rgb>, <spectrum> or <float>), got <%s>", name, c->tag);
}

void rs_mts_warn_unused(RsMts* m, RsMtsNode* obj, const char* plugin)
{
    for (uint32_t i = 0; i < obj->child_count; ++i) {
        const RsMtsNode* c = obj->children[i];
        if (c->used || strcmp(c->tag, "default") == 0)
            continue;
        const char* name = rs_mts_attr(c, "name");
        if (name)
            rs_mts_warn(m, c, "%s: parameter '%s' (<%s>) is not supported and was ignored", plugin, name, c->tag);
        else
            rs_mts_warn(m, c, "%s: <%s> inside it is not supported and was ignored", plugin, c->tag);
    }
}
