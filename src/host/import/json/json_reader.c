/* json_reader.c - strict typed reading of cJSON values (see json_reader.h). Host C11. */
#include "host/import/json/json_reader.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/scene/settings.h"

int rs_json_fail(const RsJsonReader* r, const char* path, const char* fmt, ...)
{
    /* formatted whole (it may quote a long name), then shortened by rs_error_set if need be */
    char small[1024];
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    char* msg = small;
    if (len >= (int)sizeof small && (msg = malloc((size_t)len + 1)) != NULL) {
        va_start(ap, fmt);
        vsnprintf(msg, (size_t)len + 1, fmt, ap);
        va_end(ap);
    }
    rs_error_set(r->err, "%s: %s: %s", r->file, path[0] ? path : "(top level)", msg ? msg : small);
    if (msg != small)
        free(msg);
    return -1;
}

/* JSON paths for messages, built for every value read (so without printf, which made a tenth of
 * the load time of a million-material scene); cut at RS_PATH_MAX - 1 bytes. */
static size_t append(char* out, size_t at, const char* text, size_t len)
{
    size_t n = at + len < RS_PATH_MAX - 1 ? len : RS_PATH_MAX - 1 - at;
    memcpy(out + at, text, n);
    out[at + n] = '\0';
    return at + n;
}

void rs_json_join_key(char* out, const char* path, const char* key)
{
    size_t at = append(out, 0, path, strlen(path));
    if (path[0])
        at = append(out, at, ".", 1);
    append(out, at, key, strlen(key));
}

void rs_json_join_index(char* out, const char* path, int index)
{
    char digits[16];
    size_t n = sizeof digits;
    unsigned v = (unsigned)index;
    do
        digits[--n] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    size_t at = append(out, 0, path, strlen(path));
    at = append(out, at, "[", 1);
    at = append(out, at, digits + n, sizeof digits - n);
    append(out, at, "]", 1);
}

/* ---- generic typed getters: each checks presence, type, finiteness ---- */

int rs_json_expect_object(const RsJsonReader* r, const cJSON* node, const char* path)
{
    return cJSON_IsObject(node) ? 0 : rs_json_fail(r, path, "must be an object");
}

/* Unknown or repeated keys are errors: a typo must not silently fall back to a default. */
int rs_json_check_keys(const RsJsonReader* r, const cJSON* obj, const char* path, const char* const* allowed)
{
    for (const cJSON* item = obj->child; item; item = item->next) {
        char where[RS_PATH_MAX];
        rs_json_join_key(where, path, item->string);
        for (const cJSON* prev = obj->child; prev != item; prev = prev->next)
            if (strcmp(prev->string, item->string) == 0)
                return rs_json_fail(r, where, "duplicate key");
        int known = 0;
        for (const char* const* k = allowed; *k; ++k)
            known |= strcmp(*k, item->string) == 0;
        if (!known) {
            char expected[512] = "";
            for (const char* const* k = allowed; *k; ++k) {
                strncat(expected, *k, sizeof expected - strlen(expected) - 1);
                if (k[1])
                    strncat(expected, ", ", sizeof expected - strlen(expected) - 1);
            }
            return rs_json_fail(r, where, "unknown key (expected one of: %s)", expected);
        }
    }
    return 0;
}

/* Returns the member or NULL; a missing required key is an error (*status = -1). */
const cJSON* rs_json_member(const RsJsonReader* r, const cJSON* obj, const char* path, const char* key, int required,
                            int* status)
{
    const cJSON* item = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!item && required)
        *status = rs_json_fail(r, path, "missing required key '%s'", key);
    return item;
}

/* Every number of a scene goes through here: finite, and within RS_SCENE_MAX_MAGNITUDE. */
int rs_json_read_number(const RsJsonReader* r, const cJSON* item, const char* path, double* out)
{
    if (!cJSON_IsNumber(item))
        return rs_json_fail(r, path, "must be a number");
    double v = item->valuedouble;
    if (!isfinite(v))
        return rs_json_fail(r, path, "must be a finite number");
    if (fabs(v) > RS_SCENE_MAX_MAGNITUDE)
        return rs_json_fail(r, path, "must be between %g and %g (got %g): scene numbers are 32-bit floats whose products must "
                    "stay finite", -RS_SCENE_MAX_MAGNITUDE, RS_SCENE_MAX_MAGNITUDE, v);
    *out = v;
    return 0;
}

int rs_json_get_number(const RsJsonReader* r, const cJSON* obj, const char* path, const char* key, int required,
                       double* out)
{
    int status = 0;
    const cJSON* item = rs_json_member(r, obj, path, key, required, &status);
    if (!item)
        return status;
    char where[RS_PATH_MAX];
    rs_json_join_key(where, path, key);
    return rs_json_read_number(r, item, where, out);
}

int rs_json_get_vec3(const RsJsonReader* r, const cJSON* obj, const char* path, const char* key, int required,
                     RsVec3* out)
{
    int status = 0;
    const cJSON* item = rs_json_member(r, obj, path, key, required, &status);
    if (!item)
        return status;
    char where[RS_PATH_MAX];
    rs_json_join_key(where, path, key);
    if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != 3)
        return rs_json_fail(r, where, "must be an array of 3 numbers");
    double v[3];
    for (int i = 0; i < 3; ++i) {
        char elem[RS_PATH_MAX];
        rs_json_join_index(elem, where, i);
        if (rs_json_read_number(r, cJSON_GetArrayItem(item, i), elem, &v[i]))
            return -1;
    }
    *out = rs_vec3((float)v[0], (float)v[1], (float)v[2]);
    return 0;
}

int rs_json_get_vec3_in(const RsJsonReader* r, const cJSON* obj, const char* path, const char* key, int required,
                        double lo, double hi, RsVec3* out)
{
    int status = 0;
    const cJSON* item = rs_json_member(r, obj, path, key, required, &status);
    if (!item)
        return status;
    if (rs_json_get_vec3(r, obj, path, key, required, out))
        return -1;
    for (int i = 0; i < 3; ++i) {
        double v = cJSON_GetArrayItem(item, i)->valuedouble;
        if (!(v >= lo && v <= hi)) {
            char where[RS_PATH_MAX], elem[RS_PATH_MAX];
            rs_json_join_key(where, path, key);
            rs_json_join_index(elem, where, i);
            return rs_json_fail(r, elem, "must be in [%g, %g] (got %g)", lo, hi, v);
        }
    }
    return 0;
}

int rs_json_get_uint(const RsJsonReader* r, const cJSON* obj, const char* path, const char* key, int required,
                     double lo, double hi, uint32_t* out)
{
    double v = 0.0;
    int status = 0;
    if (!rs_json_member(r, obj, path, key, required, &status))
        return status;
    if (rs_json_get_number(r, obj, path, key, required, &v))
        return -1;
    char where[RS_PATH_MAX];
    rs_json_join_key(where, path, key);
    if (v != floor(v))
        return rs_json_fail(r, where, "must be an integer (got %g)", v);
    if (v < lo || v > hi)
        return rs_json_fail(r, where, "must be in [%.0f, %.0f] (got %.0f)", lo, hi, v);
    *out = (uint32_t)v;
    return 0;
}

int rs_json_get_string(const RsJsonReader* r, const cJSON* obj, const char* path, const char* key, int required,
                       const char** out)
{
    int status = 0;
    const cJSON* item = rs_json_member(r, obj, path, key, required, &status);
    if (!item)
        return status;
    char where[RS_PATH_MAX];
    rs_json_join_key(where, path, key);
    if (!cJSON_IsString(item))
        return rs_json_fail(r, where, "must be a string");
    *out = item->valuestring;
    return 0;
}

int rs_json_get_bool(const RsJsonReader* r, const cJSON* obj, const char* path, const char* key, int* out)
{
    const cJSON* item = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!item)
        return 0;
    char where[RS_PATH_MAX];
    rs_json_join_key(where, path, key);
    if (!cJSON_IsBool(item))
        return rs_json_fail(r, where, "must be true or false");
    *out = cJSON_IsTrue(item);
    return 0;
}

int rs_json_check_colour_range(const RsJsonReader* r, const char* path, const char* key, RsVec3 c, float max)
{
    char where[RS_PATH_MAX];
    rs_json_join_key(where, path, key);
    if (c.x < 0.0f || c.y < 0.0f || c.z < 0.0f)
        return rs_json_fail(r, where, "components must be >= 0 (got [%g, %g, %g])", c.x, c.y, c.z);
    if (c.x > max || c.y > max || c.z > max)
        return rs_json_fail(r, where, "components must be <= %g (got [%g, %g, %g])", max, c.x, c.y, c.z);
    return 0;
}

int rs_json_get_scale(const RsJsonReader* r, const cJSON* obj, const char* path, const char* key, RsVec3* out)
{
    const cJSON* item = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!item)
        return 0;
    if (!cJSON_IsNumber(item))
        return rs_json_get_vec3(r, obj, path, key, 0, out) || rs_json_check_colour_range(r, path, key, *out, INFINITY);
    double s = 0.0;
    if (rs_json_get_number(r, obj, path, key, 0, &s))
        return -1;
    if (!(s >= 0.0)) {
        char where[RS_PATH_MAX];
        rs_json_join_key(where, path, key);
        return rs_json_fail(r, where, "must be >= 0 (got %g)", s);
    }
    *out = rs_vec3_splat((float)s);
    return 0;
}

/* A length that must be positive: in [RS_SCENE_MIN_LENGTH, RS_SCENE_MAX_MAGNITUDE]. */
int rs_json_check_length(const RsJsonReader* r, const char* path, const char* key, double v)
{
    char where[RS_PATH_MAX];
    rs_json_join_key(where, path, key);
    if (!(v > 0.0))
        return rs_json_fail(r, where, "must be > 0 (got %g)", v);
    if (v < RS_SCENE_MIN_LENGTH)
        return rs_json_fail(r, where, "must be at least %g (got %g)", RS_SCENE_MIN_LENGTH, v);
    return 0;
}

int rs_json_resolve_path(const RsJsonReader* r, const char* where, const char* rel, char* out, size_t size)
{
    int n = rel[0] == '/' || !r->dir[0] ? snprintf(out, size, "%s", rel) : snprintf(out, size, "%s/%s", r->dir, rel);
    if (n < 0 || (size_t)n >= size)
        return rs_json_fail(r, where, "the path is too long (%d bytes once resolved; at most %zu)", n, size - 1);
    return 0;
}
