/* gltf_json.c - the checked readers of glTF JSON values and the message helpers that every
 * part of the glTF importer uses (gltf_doc.h). Host C11.
 *
 * Numbers are held to the scene format's limits (settings.h): finite and within +-1e18, so that
 * they stay finite as the floats the scene stores; indices are integers that name an element
 * that exists, checked where they are read.
 */
#include "host/import/gltf/gltf_doc.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/scene/settings.h"

int rs_gltf_fail(RsGltf* g, const char* where, const char* fmt, ...)
{
    char message[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    if (where && where[0])
        return rs_error_set(g->err, "%s: %s: %s", g->path, where, message);
    return rs_error_set(g->err, "%s: %s", g->path, message);
}

void rs_gltf_warn(RsGltf* g, const char* where, const char* fmt, ...)
{
    char message[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    if (where && where[0])
        rs_scene_warn(g->scene, "%s: %s: %s", g->path, where, message);
    else
        rs_scene_warn(g->scene, "%s: %s", g->path, message);
}

void rs_gltf_join_key(char* out, const char* base, const char* key)
{
    snprintf(out, RS_GLTF_PATH_MAX, "%s%s%s", base, base[0] ? "." : "", key);
}

void rs_gltf_join_index(char* out, const char* base, int i) { snprintf(out, RS_GLTF_PATH_MAX, "%s[%d]", base, i); }

const cJSON* rs_gltf_member(const cJSON* node, const char* key)
{
    return cJSON_IsObject(node) ? cJSON_GetObjectItemCaseSensitive(node, key) : NULL;
}

const cJSON* rs_gltf_extension(const cJSON* node, const char* name)
{
    return rs_gltf_member(rs_gltf_member(node, "extensions"), name);
}

int rs_gltf_array(RsGltf* g, const cJSON* node, const char* path, const char* key, const cJSON** out, int* count)
{
    const cJSON* a = rs_gltf_member(node, key);
    *out = NULL;
    *count = 0;
    if (!a)
        return 0;
    char where[RS_GLTF_PATH_MAX];
    rs_gltf_join_key(where, path, key);
    if (!cJSON_IsArray(a))
        return rs_gltf_fail(g, where, "must be an array");
    *out = a;
    *count = cJSON_GetArraySize(a);
    return 0;
}

/* The table of top-level array `key`, made on first use, so that finding element i costs O(1)
 * rather than a walk down cJSON's list (a file with n nodes would cost n^2). NULL: out of memory. */
static int table_of(RsGltf* g, const char* key, const cJSON*** items, int* count)
{
    for (int t = 0; t < g->table_count; ++t)
        if (strcmp(g->tables[t].key, key) == 0) {
            *items = g->tables[t].items;
            *count = g->tables[t].count;
            return 0;
        }
    const cJSON* a = rs_gltf_member(g->root, key);
    int n = cJSON_IsArray(a) ? cJSON_GetArraySize(a) : 0;
    const cJSON** list = malloc(((size_t)n + 1) * sizeof *list);
    if (!list)
        return -1;
    int i = 0;
    for (const cJSON* e = n ? a->child : NULL; e && i < n; e = e->next)
        list[i++] = e;
    if (g->table_count < (int)(sizeof g->tables / sizeof g->tables[0])) {
        g->tables[g->table_count].key = key;
        g->tables[g->table_count].items = list;
        g->tables[g->table_count].count = n;
        ++g->table_count;
    } else {
        free(list); /* more kinds than tables: walk the list (never happens with the parts' keys) */
        list = NULL;
    }
    *items = list;
    *count = n;
    return 0;
}

void rs_gltf_free_tables(RsGltf* g)
{
    for (int t = 0; t < g->table_count; ++t)
        free((void*)g->tables[t].items);
    g->table_count = 0;
}

int rs_gltf_item(RsGltf* g, const char* key, int64_t index, const char* referrer, const cJSON** out)
{
    const cJSON** items = NULL;
    int count = 0;
    if (table_of(g, key, &items, &count))
        return rs_gltf_fail(g, referrer, "out of memory");
    if (index < 0 || index >= count)
        return rs_gltf_fail(g, referrer, "names %s[%lld], but the file has %d", key, (long long)index, count);
    const cJSON* item = items ? items[index] : cJSON_GetArrayItem(rs_gltf_member(g->root, key), (int)index);
    if (!cJSON_IsObject(item)) {
        char where[RS_GLTF_PATH_MAX];
        rs_gltf_join_index(where, key, (int)index);
        return rs_gltf_fail(g, where, "must be an object");
    }
    *out = item;
    return 0;
}

static int read_number(RsGltf* g, const cJSON* v, const char* where, double* out)
{
    if (!cJSON_IsNumber(v))
        return rs_gltf_fail(g, where, "must be a number");
    double d = v->valuedouble;
    if (!(fabs(d) <= RS_SCENE_MAX_MAGNITUDE))
        return rs_gltf_fail(g, where, "must be a finite number within +-%g (got %g)", RS_SCENE_MAX_MAGNITUDE, d);
    *out = d;
    return 0;
}

int rs_gltf_get_index(RsGltf* g, const cJSON* node, const char* path, const char* key, int required, int64_t limit,
                      int64_t fallback, int64_t* out)
{
    const cJSON* v = rs_gltf_member(node, key);
    char where[RS_GLTF_PATH_MAX];
    rs_gltf_join_key(where, path, key);
    if (!v) {
        if (required)
            return rs_gltf_fail(g, path, "missing required key '%s'", key);
        *out = fallback;
        return 0;
    }
    double d = 0.0;
    if (read_number(g, v, where, &d))
        return -1;
    if (d != floor(d) || d < 0.0 || d > 2147483647.0)
        return rs_gltf_fail(g, where, "must be an integer >= 0 (got %g)", d);
    if (limit >= 0 && d >= (double)limit)
        return rs_gltf_fail(g, where, "is %g, but there are only %lld", d, (long long)limit);
    *out = (int64_t)d;
    return 0;
}

int rs_gltf_get_number(RsGltf* g, const cJSON* node, const char* path, const char* key, double fallback, double* out)
{
    const cJSON* v = rs_gltf_member(node, key);
    *out = fallback;
    if (!v)
        return 0;
    char where[RS_GLTF_PATH_MAX];
    rs_gltf_join_key(where, path, key);
    return read_number(g, v, where, out);
}

int rs_gltf_get_numbers(RsGltf* g, const cJSON* node, const char* path, const char* key, int n, double* out)
{
    const cJSON* v = rs_gltf_member(node, key);
    if (!v)
        return 0;
    char where[RS_GLTF_PATH_MAX];
    rs_gltf_join_key(where, path, key);
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != n)
        return rs_gltf_fail(g, where, "must be an array of %d numbers", n);
    int i = 0;
    for (const cJSON* e = v->child; e; e = e->next, ++i) {
        char elem[RS_GLTF_PATH_MAX];
        rs_gltf_join_index(elem, where, i);
        if (read_number(g, e, elem, &out[i]))
            return -1;
    }
    return 0;
}

int rs_gltf_get_string(RsGltf* g, const cJSON* node, const char* path, const char* key, const char* fallback,
                       const char** out)
{
    const cJSON* v = rs_gltf_member(node, key);
    *out = fallback;
    if (!v)
        return 0;
    if (!cJSON_IsString(v) || !v->valuestring) {
        char where[RS_GLTF_PATH_MAX];
        rs_gltf_join_key(where, path, key);
        return rs_gltf_fail(g, where, "must be a string");
    }
    *out = v->valuestring;
    return 0;
}
