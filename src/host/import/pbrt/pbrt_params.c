/* pbrt_params.c - reading and querying pbrt-v4 parameter lists (see pbrt_params.h). Host C11. */
#define _POSIX_C_SOURCE 200809L
#include "host/import/pbrt/pbrt_params.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char* canonical_type(const char* t)
{
    static const char* const names[][2] = {
        {"integer", "integer"}, {"float", "float"},    {"point2", "point2"},     {"vector2", "vector2"},
        {"point3", "point3"},   {"point", "point3"},   {"vector3", "vector3"},   {"vector", "vector3"},
        {"normal3", "normal3"}, {"normal", "normal3"}, {"rgb", "rgb"},           {"color", "rgb"},
        {"spectrum", "spectrum"}, {"blackbody", "blackbody"}, {"bool", "bool"}, {"string", "string"},
        {"texture", "texture"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
        if (strcmp(t, names[i][0]) == 0)
            return names[i][1];
    return NULL;
}

int rs_pbrt_param_fail(const RsPbrtParams* params, const RsPbrtParam* p, RsError* err, const char* fmt, ...)
{
    char message[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    return rs_error_set(err, "%s: \"%s %s\": %s", params->where, p->type, p->name, message);
}

static int push_number(RsPbrtParam* p, double v)
{
    if ((p->number_count & (p->number_count - 1)) == 0) { /* grow at powers of two */
        size_t capacity = p->number_count ? 2 * p->number_count : 4;
        double* grown = realloc(p->numbers, capacity * sizeof *grown);
        if (!grown)
            return -1;
        p->numbers = grown;
    }
    p->numbers[p->number_count++] = v;
    return 0;
}

static int push_string(RsPbrtParam* p, const char* text, size_t length)
{
    if ((p->string_count & (p->string_count - 1)) == 0) {
        size_t capacity = p->string_count ? 2 * p->string_count : 4;
        char** grown = realloc(p->strings, capacity * sizeof *grown);
        if (!grown)
            return -1;
        p->strings = grown;
    }
    char* s = malloc(length + 1);
    if (!s)
        return -1;
    memcpy(s, text, length);
    s[length] = '\0';
    p->strings[p->string_count++] = s;
    return 0;
}

/* One value token into p, checked against its type. */
static int add_value(const RsPbrtParams* params, RsPbrtParam* p, const RsPbrtToken* t, RsError* err)
{
    int numeric = strcmp(p->type, "string") != 0 && strcmp(p->type, "texture") != 0 && strcmp(p->type, "bool") != 0;
    if (p->number_count + p->string_count >= RS_PBRT_MAX_VALUES)
        return rs_pbrt_param_fail(params, p, err, "more than %u values", RS_PBRT_MAX_VALUES);
    if (t->kind == RS_PBRT_NUMBER) {
        if (!numeric)
            return rs_pbrt_param_fail(params, p, err, "a number where a %s is expected (line %d)", p->type, t->line);
        if (strcmp(p->type, "integer") == 0 && t->number != (double)(long)t->number)
            return rs_pbrt_param_fail(params, p, err, "%.*s is not an integer", (int)t->length, t->text);
        return push_number(p, t->number) ? rs_error_set(err, "%s: out of memory", params->where) : 0;
    }
    int is_bool_word = t->kind == RS_PBRT_WORD && (rs_pbrt_token_is(t, "true") || rs_pbrt_token_is(t, "false"));
    if (t->kind == RS_PBRT_STRING || is_bool_word) {
        if (numeric && strcmp(p->type, "spectrum") != 0)
            return rs_pbrt_param_fail(params, p, err, "a string where numbers are expected (line %d)", t->line);
        if (strcmp(p->type, "bool") == 0 && !rs_pbrt_token_is(t, "true") && !rs_pbrt_token_is(t, "false"))
            return rs_pbrt_param_fail(params, p, err, "must be true or false (got \"%.*s\")", (int)t->length, t->text);
        if (strcmp(p->type, "bool") != 0 && is_bool_word)
            return rs_pbrt_param_fail(params, p, err, "%.*s is not a %s", (int)t->length, t->text, p->type);
        return push_string(p, t->text, t->length) ? rs_error_set(err, "%s: out of memory", params->where) : 0;
    }
    return rs_pbrt_param_fail(params, p, err, "unexpected '%.*s' (line %d)", (int)t->length, t->text, t->line);
}

/* "type name" into p; 1 if the string is a declaration, 0 if not. */
static int parse_declaration(const RsPbrtToken* t, char* type, size_t type_size, char** name)
{
    const char* s = t->text;
    const char* end = s + t->length;
    while (s < end && (*s == ' ' || *s == '\t'))
        ++s;
    const char* type_start = s;
    while (s < end && *s != ' ' && *s != '\t')
        ++s;
    size_t type_length = (size_t)(s - type_start);
    while (s < end && (*s == ' ' || *s == '\t'))
        ++s;
    const char* name_start = s;
    while (s < end && *s != ' ' && *s != '\t')
        ++s;
    const char* name_end = s;
    while (s < end && (*s == ' ' || *s == '\t'))
        ++s;
    if (type_length == 0 || name_end == name_start || s != end || type_length >= type_size)
        return 0;
    memcpy(type, type_start, type_length);
    type[type_length] = '\0';
    *name = malloc((size_t)(name_end - name_start) + 1);
    if (!*name)
        return -1;
    memcpy(*name, name_start, (size_t)(name_end - name_start));
    (*name)[name_end - name_start] = '\0';
    return 1;
}

int rs_pbrt_params_read(RsPbrtLexer* lx, RsPbrtParams* params, RsError* err)
{
    for (;;) {
        RsPbrtToken t;
        if (rs_pbrt_lexer_peek(lx, &t, err))
            return -1;
        if (t.kind != RS_PBRT_STRING)
            return 0;
        rs_pbrt_lexer_next(lx, &t, err);
        char raw_type[32];
        char* name = NULL;
        int declared = parse_declaration(&t, raw_type, sizeof raw_type, &name);
        if (declared < 0)
            return rs_error_set(err, "%s: out of memory", params->where);
        if (!declared)
            return rs_error_set(err, "%s:%d: %s: expected a parameter \"type name\", got \"%.*s\"", t.file, t.line,
                                params->where, (int)(t.length > 80 ? 80 : t.length), t.text);
        const char* type = canonical_type(raw_type);
        if (!type) {
            rs_error_set(err, "%s: \"%s %s\": unknown parameter type '%s'", params->where, raw_type, name, raw_type);
            free(name);
            return -1;
        }
        for (size_t i = 0; i < params->count; ++i)
            if (strcmp(params->items[i].name, name) == 0) {
                rs_error_set(err, "%s: parameter \"%s\" given twice", params->where, name);
                free(name);
                return -1;
            }
        RsPbrtParam* grown = realloc(params->items, (params->count + 1) * sizeof *grown);
        if (!grown) {
            free(name);
            return rs_error_set(err, "%s: out of memory", params->where);
        }
        params->items = grown;
        RsPbrtParam* p = &params->items[params->count++];
        memset(p, 0, sizeof *p);
        snprintf(p->type, sizeof p->type, "%s", type);
        p->name = name;
        RsPbrtToken v;
        if (rs_pbrt_lexer_next(lx, &v, err))
            return -1;
        if (v.kind == RS_PBRT_OPEN) {
            for (;;) {
                if (rs_pbrt_lexer_next(lx, &v, err))
                    return -1;
                if (v.kind == RS_PBRT_CLOSE)
                    break;
                if (v.kind == RS_PBRT_END)
                    return rs_pbrt_param_fail(params, p, err, "the value list has no closing ']'");
                if (add_value(params, p, &v, err))
                    return -1;
            }
        } else if (v.kind == RS_PBRT_END) {
            return rs_pbrt_param_fail(params, p, err, "no value");
        } else if (add_value(params, p, &v, err)) {
            return -1;
        }
        if (p->number_count + p->string_count == 0)
            return rs_pbrt_param_fail(params, p, err, "no value");
        if (p->number_count && p->string_count)
            return rs_pbrt_param_fail(params, p, err, "mixes numbers and strings");
    }
}

void rs_pbrt_params_free(RsPbrtParams* params)
{
    for (size_t i = 0; i < params->count; ++i) {
        RsPbrtParam* p = &params->items[i];
        free(p->name);
        free(p->numbers);
        for (size_t k = 0; k < p->string_count; ++k)
            free(p->strings[k]);
        free(p->strings);
    }
    free(params->items);
    params->items = NULL;
    params->count = 0;
}

RsPbrtParam* rs_pbrt_param(RsPbrtParams* params, const char* name)
{
    for (size_t i = 0; i < params->count; ++i)
        if (strcmp(params->items[i].name, name) == 0) {
            params->items[i].used = 1;
            return &params->items[i];
        }
    return NULL;
}

int rs_pbrt_get_float(RsPbrtParams* params, const char* name, double* out, RsError* err)
{
    RsPbrtParam* p = rs_pbrt_param(params, name);
    if (!p)
        return 0;
    if (strcmp(p->type, "float") != 0 && strcmp(p->type, "integer") != 0)
        return rs_pbrt_param_fail(params, p, err, "must be a float");
    if (p->number_count != 1)
        return rs_pbrt_param_fail(params, p, err, "must be one number (got %zu)", p->number_count);
    *out = p->numbers[0];
    return 0;
}

int rs_pbrt_get_int(RsPbrtParams* params, const char* name, long* out, RsError* err)
{
    RsPbrtParam* p = rs_pbrt_param(params, name);
    if (!p)
        return 0;
    if (strcmp(p->type, "integer") != 0)
        return rs_pbrt_param_fail(params, p, err, "must be an integer");
    if (p->number_count != 1)
        return rs_pbrt_param_fail(params, p, err, "must be one number (got %zu)", p->number_count);
    *out = (long)p->numbers[0];
    return 0;
}

int rs_pbrt_get_bool(RsPbrtParams* params, const char* name, int* out, RsError* err)
{
    RsPbrtParam* p = rs_pbrt_param(params, name);
    if (!p)
        return 0;
    if (strcmp(p->type, "bool") != 0 || p->string_count != 1)
        return rs_pbrt_param_fail(params, p, err, "must be one bool");
    *out = strcmp(p->strings[0], "true") == 0;
    return 0;
}

int rs_pbrt_get_string(RsPbrtParams* params, const char* name, const char** out, RsError* err)
{
    RsPbrtParam* p = rs_pbrt_param(params, name);
    if (!p)
        return 0;
    if (strcmp(p->type, "string") != 0 || p->string_count != 1)
        return rs_pbrt_param_fail(params, p, err, "must be one string");
    *out = p->strings[0];
    return 0;
}

int rs_pbrt_get_point3(RsPbrtParams* params, const char* name, double out[3], RsError* err)
{
    RsPbrtParam* p = rs_pbrt_param(params, name);
    if (!p)
        return 0;
    if ((strcmp(p->type, "point3") != 0 && strcmp(p->type, "vector3") != 0) || p->number_count != 3)
        return rs_pbrt_param_fail(params, p, err, "must be one point3 (3 numbers)");
    memcpy(out, p->numbers, 3 * sizeof(double));
    return 0;
}

const double* rs_pbrt_get_numbers(RsPbrtParams* params, const char* name, const char* type, size_t arity,
                                  size_t* count, RsError* err)
{
    RsPbrtParam* p = rs_pbrt_param(params, name);
    *count = 0;
    if (!p)
        return NULL;
    int float_ok = strcmp(type, "float") == 0 && strcmp(p->type, "integer") == 0;
    if (strcmp(p->type, type) != 0 && !float_ok) {
        rs_pbrt_param_fail(params, p, err, "must be of type %s", type);
        return NULL;
    }
    if (p->number_count % arity != 0) {
        rs_pbrt_param_fail(params, p, err, "needs a multiple of %zu numbers (got %zu)", arity, p->number_count);
        return NULL;
    }
    *count = p->number_count;
    return p->numbers;
}

void rs_pbrt_params_warn_unused(RsScene* scene, const RsPbrtParams* params)
{
    for (size_t i = 0; i < params->count; ++i)
        if (!params->items[i].used)
            rs_scene_warn(scene, "%s: parameter \"%s %s\" is not supported; ignored", params->where,
                          params->items[i].type, params->items[i].name);
}
