/* gltf_accessor.c - reading accessors through their buffer views, every byte bounds-checked
 * (gltf_doc.h). Host C11.
 *
 * An element i of an accessor lies at view offset + accessor offset + i * stride, stride being
 * the view's byteStride or the element's size; all of [first byte, last byte of the last
 * element] must lie inside the view, and the view inside its buffer. Integer components become
 * floats as glTF says (normalized: c / 255, max(c / 127, -1), ...; otherwise their value), so
 * KHR_mesh_quantization's integer positions, normals and texture coordinates read as any other.
 * Sparse accessors are supported: their base (or zeros without a bufferView) with the listed
 * elements replaced, indices strictly increasing and below count.
 */
#include "host/import/gltf/gltf_doc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { BYTE = 5120, UNSIGNED_BYTE = 5121, SHORT = 5122, UNSIGNED_SHORT = 5123, UNSIGNED_INT = 5125, FLOAT = 5126 };

static int component_size(int64_t type)
{
    switch (type) {
    case BYTE:
    case UNSIGNED_BYTE: return 1;
    case SHORT:
    case UNSIGNED_SHORT: return 2;
    case UNSIGNED_INT:
    case FLOAT: return 4;
    default: return 0;
    }
}

static int type_components(const char* type)
{
    static const struct {
        const char* name;
        int n;
    } types[] = {{"SCALAR", 1}, {"VEC2", 2}, {"VEC3", 3}, {"VEC4", 4}, {"MAT2", 4}, {"MAT3", 9}, {"MAT4", 16}};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; ++i)
        if (strcmp(type, types[i].name) == 0)
            return types[i].n;
    return 0;
}

static double component(const uint8_t* p, int64_t type, int normalized)
{
    switch (type) {
    case BYTE: {
        double c = (double)(int8_t)p[0];
        return normalized ? fmax(c / 127.0, -1.0) : c;
    }
    case UNSIGNED_BYTE: return normalized ? p[0] / 255.0 : p[0];
    case SHORT: {
        double c = (double)(int16_t)(uint16_t)(p[0] | p[1] << 8);
        return normalized ? fmax(c / 32767.0, -1.0) : c;
    }
    case UNSIGNED_SHORT: {
        double c = (double)(uint16_t)(p[0] | p[1] << 8);
        return normalized ? c / 65535.0 : c;
    }
    case UNSIGNED_INT: {
        double c = (double)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
        return normalized ? c / 4294967295.0 : c;
    }
    default: {
        uint32_t bits = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        float f;
        memcpy(&f, &bits, 4);
        return f;
    }
    }
}

/* The bytes of elements [0, count) of `elem_size` at `stride` from `offset` in buffer view
 * `view`: the address of element 0, checked. */
static int locate(RsGltf* g, int64_t view, uint64_t offset, uint64_t count, uint64_t elem_size, uint64_t stride,
                  const char* where, const uint8_t** out)
{
    const uint8_t* data = NULL;
    size_t size = 0;
    if (rs_gltf_view_bytes(g, view, where, &data, &size))
        return -1;
    uint64_t end = offset + (count - 1) * stride + elem_size;
    if (end > size)
        return rs_gltf_fail(g, where, "%llu elements of %llu bytes from byte %llu (stride %llu) end at byte %llu, "
                            "beyond bufferViews[%lld]'s %zu bytes",
                            (unsigned long long)count, (unsigned long long)elem_size, (unsigned long long)offset,
                            (unsigned long long)stride, (unsigned long long)end, (long long)view, size);
    *out = data + offset;
    return 0;
}

/* The view's byteStride, or elem_size when it has none. */
static int view_stride(RsGltf* g, int64_t view, uint64_t elem_size, const char* where, uint64_t* stride)
{
    const cJSON* v = NULL;
    if (rs_gltf_item(g, "bufferViews", view, where, &v))
        return -1;
    char path[RS_GLTF_PATH_MAX];
    rs_gltf_join_index(path, "bufferViews", (int)view);
    int64_t s = 0;
    if (rs_gltf_get_index(g, v, path, "byteStride", 0, 253, 0, &s))
        return -1;
    if (s != 0 && (s < 4 || s % 4 != 0))
        return rs_gltf_fail(g, path, "byteStride must be a multiple of 4 in [4, 252] (got %lld)", (long long)s);
    if (s != 0 && (uint64_t)s < elem_size)
        return rs_gltf_fail(g, where, "elements of %llu bytes do not fit bufferViews[%lld]'s byteStride %lld",
                            (unsigned long long)elem_size, (long long)view, (long long)s);
    *stride = s ? (uint64_t)s : elem_size;
    return 0;
}

/* Replaces the elements a sparse accessor lists in values[count * n]. */
static int apply_sparse(RsGltf* g, const cJSON* sparse, const char* path, uint64_t count, int n, int64_t type,
                        int normalized, double* values)
{
    char where[RS_GLTF_PATH_MAX], sub[RS_GLTF_PATH_MAX];
    rs_gltf_join_key(where, path, "sparse");
    int64_t k = 0, index_view = 0, index_offset = 0, index_type = 0, value_view = 0, value_offset = 0;
    const cJSON* indices = rs_gltf_member(sparse, "indices");
    const cJSON* vals = rs_gltf_member(sparse, "values");
    if (!cJSON_IsObject(sparse) || !cJSON_IsObject(indices) || !cJSON_IsObject(vals))
        return rs_gltf_fail(g, where, "must be an object with count, indices and values");
    if (rs_gltf_get_index(g, sparse, where, "count", 1, (int64_t)count + 1, 0, &k))
        return -1;
    if (k < 1)
        return rs_gltf_fail(g, where, "count must be at least 1");
    rs_gltf_join_key(sub, where, "indices");
    if (rs_gltf_get_index(g, indices, sub, "bufferView", 1, -1, 0, &index_view) ||
        rs_gltf_get_index(g, indices, sub, "byteOffset", 0, -1, 0, &index_offset) ||
        rs_gltf_get_index(g, indices, sub, "componentType", 1, -1, 0, &index_type))
        return -1;
    if (index_type != UNSIGNED_BYTE && index_type != UNSIGNED_SHORT && index_type != UNSIGNED_INT)
        return rs_gltf_fail(g, sub, "componentType must be 5121, 5123 or 5125 (got %lld)", (long long)index_type);
    const uint8_t* ip = NULL;
    int isize = component_size(index_type);
    if (locate(g, index_view, (uint64_t)index_offset, (uint64_t)k, (uint64_t)isize, (uint64_t)isize, sub, &ip))
        return -1;
    rs_gltf_join_key(sub, where, "values");
    if (rs_gltf_get_index(g, vals, sub, "bufferView", 1, -1, 0, &value_view) ||
        rs_gltf_get_index(g, vals, sub, "byteOffset", 0, -1, 0, &value_offset))
        return -1;
    const uint8_t* vp = NULL;
    uint64_t elem = (uint64_t)component_size(type) * (uint64_t)n;
    if (locate(g, value_view, (uint64_t)value_offset, (uint64_t)k, elem, elem, sub, &vp))
        return -1;
    double previous = -1.0;
    for (int64_t i = 0; i < k; ++i) {
        double at = component(ip + i * isize, index_type, 0);
        if (at <= previous || at >= (double)count)
            return rs_gltf_fail(g, where, "index %g (entry %lld) is not increasing or not below count %llu", at,
                                (long long)i, (unsigned long long)count);
        previous = at;
        for (int c = 0; c < n; ++c)
            values[(uint64_t)at * n + c] =
                component(vp + (uint64_t)i * elem + (uint64_t)c * component_size(type), type, normalized);
    }
    return 0;
}

/* Accessor `index` as doubles, n = its type's component count (checked against `allowed`, a
 * list of counts ending in 0). */
static int read_accessor(RsGltf* g, int64_t index, const char* referrer, const int* allowed, int integer_only,
                         double** out, uint32_t* out_count, int* out_n)
{
    const cJSON* a = NULL;
    if (rs_gltf_item(g, "accessors", index, referrer, &a))
        return -1;
    char path[RS_GLTF_PATH_MAX];
    rs_gltf_join_index(path, "accessors", (int)index);
    int64_t view = -1, offset = 0, type = 0, count = 0;
    const char* type_name = NULL;
    const cJSON* normalized_item = rs_gltf_member(a, "normalized");
    if (rs_gltf_get_index(g, a, path, "bufferView", 0, -1, -1, &view) ||
        rs_gltf_get_index(g, a, path, "byteOffset", 0, -1, 0, &offset) ||
        rs_gltf_get_index(g, a, path, "componentType", 1, -1, 0, &type) ||
        rs_gltf_get_index(g, a, path, "count", 1, (int64_t)RS_GLTF_MAX_ELEMENTS + 1, 0, &count) ||
        rs_gltf_get_string(g, a, path, "type", NULL, &type_name))
        return -1;
    if (!type_name)
        return rs_gltf_fail(g, path, "missing required key 'type'");
    int n = type_components(type_name);
    int size = component_size(type);
    if (!size)
        return rs_gltf_fail(g, path, "componentType %lld is not one of 5120, 5121, 5122, 5123, 5125, 5126",
                            (long long)type);
    if (count < 1)
        return rs_gltf_fail(g, path, "count must be at least 1");
    int ok = 0;
    for (int i = 0; allowed[i]; ++i)
        ok |= allowed[i] == n;
    if (!ok)
        return rs_gltf_fail(g, referrer, "accessors[%lld] has type %s, which cannot be used here", (long long)index,
                            type_name);
    if (integer_only && type == FLOAT)
        return rs_gltf_fail(g, referrer, "accessors[%lld]: indices must be unsigned integers, not floats",
                            (long long)index);
    if (normalized_item && !cJSON_IsBool(normalized_item))
        return rs_gltf_fail(g, path, "normalized must be true or false");
    int normalized = cJSON_IsTrue(normalized_item);
    if (normalized && type == FLOAT)
        return rs_gltf_fail(g, path, "a float accessor cannot be normalized");
    /* elements without a view are zeros (or sparse): nothing in the file bounds their number */
    uint64_t limit = view >= 0 ? RS_GLTF_MAX_COMPONENTS : RS_GLTF_MAX_COMPONENTS / 8;
    if ((uint64_t)count * (uint64_t)n > limit)
        return rs_gltf_fail(g, path, "%lld elements of %d components: more than the %llu components raystream reads "
                            "from one accessor%s", (long long)count, n, (unsigned long long)limit,
                            view >= 0 ? "" : " without a bufferView");
    double* values = calloc((size_t)count * (size_t)n, sizeof *values);
    if (!values)
        return rs_gltf_fail(g, path, "out of memory (%lld elements)", (long long)count);
    if (view >= 0) {
        uint64_t elem = (uint64_t)size * (uint64_t)n, stride = 0;
        const uint8_t* p = NULL;
        if (view_stride(g, view, elem, path, &stride) ||
            locate(g, view, (uint64_t)offset, (uint64_t)count, elem, stride, path, &p)) {
            free(values);
            return -1;
        }
        for (uint64_t i = 0; i < (uint64_t)count; ++i)
            for (int c = 0; c < n; ++c)
                values[i * n + c] = component(p + i * stride + (uint64_t)c * size, type, normalized);
    }
    const cJSON* sparse = rs_gltf_member(a, "sparse");
    if (sparse && apply_sparse(g, sparse, path, (uint64_t)count, n, type, normalized, values)) {
        free(values);
        return -1;
    }
    *out = values;
    *out_count = (uint32_t)count;
    *out_n = n;
    return 0;
}

int rs_gltf_read_floats(RsGltf* g, int64_t index, const char* referrer, int components, float** out, uint32_t* count)
{
    const int allowed[] = {components, 0};
    double* values = NULL;
    int n = 0;
    if (read_accessor(g, index, referrer, allowed, 0, &values, count, &n))
        return -1;
    size_t total = (size_t)*count * (size_t)n;
    float* f = malloc(total * sizeof *f);
    if (!f) {
        free(values);
        return rs_gltf_fail(g, referrer, "out of memory");
    }
    for (size_t i = 0; i < total; ++i) {
        if (!(fabs(values[i]) <= 1e18)) {
            double bad = values[i];
            free(values);
            free(f);
            return rs_gltf_fail(g, referrer, "accessors[%lld] element %zu holds %g: not a finite number within +-1e18",
                                (long long)index, i / (size_t)n, bad);
        }
        f[i] = (float)values[i];
    }
    free(values);
    *out = f;
    return 0;
}

int rs_gltf_read_indices(RsGltf* g, int64_t index, const char* referrer, uint32_t** out, uint32_t* count)
{
    const int allowed[] = {1, 0};
    double* values = NULL;
    int n = 0;
    if (read_accessor(g, index, referrer, allowed, 1, &values, count, &n))
        return -1;
    uint32_t* u = malloc((size_t)*count * sizeof *u);
    if (!u) {
        free(values);
        return rs_gltf_fail(g, referrer, "out of memory");
    }
    for (uint32_t i = 0; i < *count; ++i)
        u[i] = (uint32_t)values[i];
    free(values);
    *out = u;
    return 0;
}
