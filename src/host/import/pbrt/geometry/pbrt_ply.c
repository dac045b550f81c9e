/* pbrt_ply.c - reading PLY meshes for pbrt-v4's plymesh (see pbrt_ply.h). Host C11 (POSIX). */
#define _POSIX_C_SOURCE 200809L
#include "host/import/pbrt/geometry/pbrt_ply.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "host/io/safe_file.h"

#define HEADER_MAX 65536
#define PLY_MAX_BYTES (4ull << 30)
#define PLY_MAX_INFLATED (4ull << 30) /* a .ply.gz decompressed */

/* The gzip stream data[0, size) decompressed (malloc'ed, *out_size bytes), or NULL with the
 * reason in err. Stops at PLY_MAX_INFLATED, so that a small bomb cannot exhaust memory. */
static char* inflate_gzip(const char* path, const unsigned char* data, size_t size, size_t* out_size, RsError* err)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
        rs_error_set(err, "%s: cannot start decompressing", path);
        return NULL;
    }
    size_t capacity = size * 4 + 4096, n = 0;
    char* out = malloc(capacity);
    int status = Z_OK;
    z.next_in = (Bytef*)data;
    while (out && status != Z_STREAM_END) {
        if (n == capacity) {
            if (capacity >= PLY_MAX_INFLATED) {
                rs_error_set(err, "%s: decompresses to more than %llu bytes", path, (unsigned long long)PLY_MAX_INFLATED);
                break;
            }
            capacity = capacity * 2 > PLY_MAX_INFLATED ? (size_t)PLY_MAX_INFLATED : capacity * 2;
            char* grown = realloc(out, capacity);
            if (!grown) {
                rs_error_set(err, "%s: out of memory while decompressing", path);
                break;
            }
            out = grown;
        }
        size_t in_left = size - (size_t)((const unsigned char*)z.next_in - data);
        z.avail_in = in_left > 0x40000000u ? 0x40000000u : (uInt)in_left;
        size_t room = capacity - n;
        z.next_out = (Bytef*)out + n;
        z.avail_out = room > 0x40000000u ? 0x40000000u : (uInt)room;
        uInt before = z.avail_out;
        status = inflate(&z, Z_NO_FLUSH);
        n += before - z.avail_out;
        if (status != Z_OK && status != Z_STREAM_END && !(status == Z_BUF_ERROR && z.avail_out == 0)) {
            rs_error_set(err, "%s: corrupt or truncated gzip data (%s)", path, z.msg ? z.msg : "no more input");
            break;
        }
    }
    inflateEnd(&z);
    if (!out || status != Z_STREAM_END) {
        if (!out)
            rs_error_set(err, "%s: out of memory while decompressing", path);
        free(out);
        return NULL;
    }
    *out_size = n;
    return out;
}

enum { T_NONE = 0, T_I8, T_U8, T_I16, T_U16, T_I32, T_U32, T_F32, T_F64 };

static int type_of(const char* t)
{
    static const struct {
        const char* name;
        int type;
    } types[] = {{"char", T_I8},   {"int8", T_I8},     {"uchar", T_U8},  {"uint8", T_U8},     {"short", T_I16},
                 {"int16", T_I16}, {"ushort", T_U16},  {"uint16", T_U16}, {"int", T_I32},     {"int32", T_I32},
                 {"uint", T_U32},  {"uint32", T_U32},  {"float", T_F32}, {"float32", T_F32}, {"double", T_F64},
                 {"float64", T_F64}};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; ++i)
        if (strcmp(t, types[i].name) == 0)
            return types[i].type;
    return T_NONE;
}

static size_t type_size(int t) { return t == T_I8 || t == T_U8 ? 1 : t == T_I16 || t == T_U16 ? 2 : t == T_F64 ? 8 : 4; }

typedef struct Property {
    char name[32];
    int type;       /* value type */
    int count_type; /* lists: the count's type; T_NONE for a scalar */
    int role;       /* ROLE_* */
} Property;

enum { ROLE_NONE = 0, ROLE_X, ROLE_Y, ROLE_Z, ROLE_NX, ROLE_NY, ROLE_NZ, ROLE_U, ROLE_V, ROLE_INDICES };

typedef struct Element {
    char name[32];
    uint64_t count;
    Property props[32];
    int prop_count;
} Element;

typedef struct Reader {
    const char* path;
    const unsigned char* data;
    size_t size, pos;
    int format; /* 0 ascii, 1 little endian, 2 big endian */
    RsError* err;
} Reader;

static int role_of(const char* element, const char* name)
{
    if (strcmp(element, "vertex") == 0) {
        static const struct {
            const char* name;
            int role;
        } roles[] = {{"x", ROLE_X},          {"y", ROLE_Y},          {"z", ROLE_Z},         {"nx", ROLE_NX},
                     {"ny", ROLE_NY},        {"nz", ROLE_NZ},        {"u", ROLE_U},         {"v", ROLE_V},
                     {"s", ROLE_U},          {"t", ROLE_V},          {"texture_u", ROLE_U}, {"texture_v", ROLE_V},
                     {"texture_s", ROLE_U},  {"texture_t", ROLE_V}};
        for (size_t i = 0; i < sizeof roles / sizeof roles[0]; ++i)
            if (strcmp(name, roles[i].name) == 0)
                return roles[i].role;
    }
    if (strcmp(element, "face") == 0 && (strcmp(name, "vertex_indices") == 0 || strcmp(name, "vertex_index") == 0))
        return ROLE_INDICES;
    return ROLE_NONE;
}

/* One value: from text (ASCII) or bytes. */
static int read_value(Reader* r, int type, double* out)
{
    if (r->format == 0) {
        while (r->pos < r->size && (r->data[r->pos] == ' ' || r->data[r->pos] == '\t' || r->data[r->pos] == '\n' ||
                                    r->data[r->pos] == '\r'))
            ++r->pos;
        char buf[64];
        size_t n = 0;
        while (r->pos < r->size && n + 1 < sizeof buf && r->data[r->pos] > ' ')
            buf[n++] = (char)r->data[r->pos++];
        buf[n] = '\0';
        char* end = NULL;
        *out = n ? strtod(buf, &end) : 0.0;
        if (n == 0 || *end != '\0')
            return rs_error_set(r->err, "%s: the data ends early or holds a malformed number '%s'", r->path, buf);
        return 0;
    }
    size_t size = type_size(type);
    if (r->size - r->pos < size)
        return rs_error_set(r->err, "%s: the data ends before the elements the header declares", r->path);
    unsigned char b[8];
    for (size_t i = 0; i < size; ++i)
        b[i] = r->data[r->pos + (r->format == 1 ? i : size - 1 - i)];
    r->pos += size;
    switch (type) {
    case T_I8: *out = (int8_t)b[0]; break;
    case T_U8: *out = b[0]; break;
    case T_I16: { int16_t v; memcpy(&v, b, 2); *out = v; } break;
    case T_U16: { uint16_t v; memcpy(&v, b, 2); *out = v; } break;
    case T_I32: { int32_t v; memcpy(&v, b, 4); *out = v; } break;
    case T_U32: { uint32_t v; memcpy(&v, b, 4); *out = v; } break;
    case T_F32: { float v; memcpy(&v, b, 4); *out = v; } break;
    default: { double v; memcpy(&v, b, 8); *out = v; } break;
    }
    return 0;
}

static int parse_header(Reader* r, Element* elements, int* element_count)
{
    size_t limit = r->size < HEADER_MAX ? r->size : HEADER_MAX;
    if (limit < 4 || memcmp(r->data, "ply", 3) != 0 || (r->data[3] != '\n' && r->data[3] != '\r'))
        return rs_error_set(r->err, "%s: not a PLY file (it does not start with \"ply\")", r->path);
    const char* end_marker = NULL;
    for (size_t i = 0; i + 10 <= limit; ++i)
        if (memcmp(r->data + i, "end_header", 10) == 0 && (i == 0 || r->data[i - 1] == '\n')) {
            end_marker = (const char*)r->data + i;
            break;
        }
    if (!end_marker)
        return rs_error_set(r->err, "%s: no end_header within the first %d bytes", r->path, HEADER_MAX);
    size_t header_size = (size_t)(end_marker - (const char*)r->data);
    char* header = malloc(header_size + 1);
    if (!header)
        return rs_error_set(r->err, "%s: out of memory", r->path);
    memcpy(header, r->data, header_size);
    header[header_size] = '\0';
    r->pos = header_size + 10;
    if (r->pos < r->size && r->data[r->pos] == '\r')
        ++r->pos;
    if (r->pos < r->size && r->data[r->pos] == '\n')
        ++r->pos;
    int status = 0, have_format = 0;
    *element_count = 0;
    char* save = NULL;
    for (char* line = strtok_r(header, "\r\n", &save); line && !status; line = strtok_r(NULL, "\r\n", &save)) {
        char w[4][40] = {{0}};
        int n = sscanf(line, "%39s %39s %39s %39s", w[0], w[1], w[2], w[3]);
        if (n <= 0 || strcmp(w[0], "ply") == 0 || strcmp(w[0], "comment") == 0 || strcmp(w[0], "obj_info") == 0)
            continue;
        if (strcmp(w[0], "format") == 0) {
            have_format = 1;
            r->format = strcmp(w[1], "ascii") == 0 ? 0 : strcmp(w[1], "binary_little_endian") == 0 ? 1
                        : strcmp(w[1], "binary_big_endian") == 0                                   ? 2
                                                                                                   : -1;
            if (r->format < 0)
                status = rs_error_set(r->err, "%s: unknown format '%s'", r->path, w[1]);
        } else if (strcmp(w[0], "element") == 0 && n == 3) {
            if (*element_count == 16)
                status = rs_error_set(r->err, "%s: more than 16 kinds of element", r->path);
            else {
                Element* e = &elements[(*element_count)++];
                memset(e, 0, sizeof *e);
                snprintf(e->name, sizeof e->name, "%s", w[1]);
                char* end = NULL;
                double count = strtod(w[2], &end);
                if (*end || !(count >= 0.0) || count > RS_PLY_MAX_ELEMENTS || count != floor(count))
                    status = rs_error_set(r->err, "%s: element %s: a count of %s (at most %u)", r->path, w[1], w[2],
                                          RS_PLY_MAX_ELEMENTS);
                e->count = (uint64_t)count;
            }
        } else if (strcmp(w[0], "property") == 0 && *element_count > 0) {
            Element* e = &elements[*element_count - 1];
            if (e->prop_count == 32) {
                status = rs_error_set(r->err, "%s: element %s has more than 32 properties", r->path, e->name);
                continue;
            }
            Property* p = &e->props[e->prop_count++];
            memset(p, 0, sizeof *p);
            int list = strcmp(w[1], "list") == 0;
            if (list && n == 4) {
                char name[40];
                if (sscanf(line, "%*s %*s %*s %*s %39s", name) != 1)
                    name[0] = '\0';
                p->count_type = type_of(w[2]);
                p->type = type_of(w[3]);
                snprintf(p->name, sizeof p->name, "%s", name);
            } else if (!list && n == 3) {
                p->type = type_of(w[1]);
                snprintf(p->name, sizeof p->name, "%s", w[2]);
            }
            if (p->type == T_NONE || (list && (p->count_type == T_NONE || p->count_type == T_F32 ||
                                               p->count_type == T_F64)) || !p->name[0])
                status = rs_error_set(r->err, "%s: malformed property line '%.60s'", r->path, line);
            p->role = role_of(e->name, p->name);
            if (p->role == ROLE_INDICES && !list)
                p->role = ROLE_NONE;
        } else {
            status = rs_error_set(r->err, "%s: unexpected header line '%.60s'", r->path, line);
        }
    }
    free(header);
    if (!status && !have_format)
        status = rs_error_set(r->err, "%s: the header has no format line", r->path);
    if (status)
        return -1;
    /* the counts must fit in what follows the header */
    double least = 0.0;
    for (int i = 0; i < *element_count; ++i) {
        double bytes = 0.0;
        for (int k = 0; k < elements[i].prop_count; ++k) {
            const Property* p = &elements[i].props[k];
            bytes += r->format == 0 ? 2.0 : (double)type_size(p->count_type ? p->count_type : p->type);
        }
        least += (double)elements[i].count * (bytes > 0.0 ? bytes : 1.0);
    }
    if (least > (double)(r->size - r->pos))
        return rs_error_set(r->err, "%s: the header declares more elements than the file's %zu bytes of data can hold",
                            r->path, r->size - r->pos);
    return 0;
}

static int read_vertices(Reader* r, const Element* e, RsPlyMesh* mesh)
{
    int has[ROLE_INDICES + 1] = {0};
    for (int k = 0; k < e->prop_count; ++k)
        if (e->props[k].count_type == T_NONE)
            has[e->props[k].role] = 1;
    if (!has[ROLE_X] || !has[ROLE_Y] || !has[ROLE_Z])
        return rs_error_set(r->err, "%s: the vertices have no x, y and z", r->path);
    size_t n = (size_t)e->count;
    mesh->vertex_count = n;
    mesh->P = malloc((n ? n : 1) * 3 * sizeof(float));
    if (has[ROLE_NX] && has[ROLE_NY] && has[ROLE_NZ])
        mesh->N = malloc((n ? n : 1) * 3 * sizeof(float));
    if (has[ROLE_U] && has[ROLE_V])
        mesh->uv = malloc((n ? n : 1) * 2 * sizeof(float));
    if (!mesh->P || ((has[ROLE_NX] && has[ROLE_NY] && has[ROLE_NZ]) && !mesh->N) ||
        ((has[ROLE_U] && has[ROLE_V]) && !mesh->uv))
        return rs_error_set(r->err, "%s: out of memory for %zu vertices", r->path, n);
    for (size_t i = 0; i < n; ++i) {
        for (int k = 0; k < e->prop_count; ++k) {
            const Property* p = &e->props[k];
            double v = 0.0, count = 1.0;
            if (p->count_type != T_NONE) {
                if (read_value(r, p->count_type, &count))
                    return -1;
                if (!(count >= 0.0 && count <= 1e6))
                    return rs_error_set(r->err, "%s: a list of %g values", r->path, count);
            }
            for (size_t c = 0; c < (size_t)count; ++c)
                if (read_value(r, p->type, &v))
                    return -1;
            if (p->count_type != T_NONE)
                continue;
            if (!isfinite(v) || fabs(v) > 1e18)
                return rs_error_set(r->err, "%s: vertex %zu: %s is %g, beyond +-1e18", r->path, i, p->name, v);
            switch (p->role) {
            case ROLE_X: case ROLE_Y: case ROLE_Z: mesh->P[3 * i + (size_t)(p->role - ROLE_X)] = (float)v; break;
            case ROLE_NX: case ROLE_NY: case ROLE_NZ:
                if (mesh->N)
                    mesh->N[3 * i + (size_t)(p->role - ROLE_NX)] = (float)v;
                break;
            case ROLE_U: case ROLE_V:
                if (mesh->uv)
                    mesh->uv[2 * i + (size_t)(p->role - ROLE_U)] = (float)v;
                break;
            default: break;
            }
        }
    }
    return 0;
}

static int read_faces(Reader* r, const Element* e, RsPlyMesh* mesh)
{
    size_t capacity = (size_t)e->count * 3 + 3;
    mesh->indices = malloc(capacity * sizeof(uint32_t));
    if (!mesh->indices)
        return rs_error_set(r->err, "%s: out of memory for %llu faces", r->path, (unsigned long long)e->count);
    for (uint64_t f = 0; f < e->count; ++f) {
        for (int k = 0; k < e->prop_count; ++k) {
            const Property* p = &e->props[k];
            double count = 1.0, v = 0.0;
            if (p->count_type != T_NONE && read_value(r, p->count_type, &count))
                return -1;
            if (!(count >= 0.0 && count <= 1e6))
                return rs_error_set(r->err, "%s: face %llu: a list of %g values", r->path, (unsigned long long)f,
                                    count);
            uint32_t idx[4];
            for (size_t c = 0; c < (size_t)count; ++c) {
                if (read_value(r, p->type, &v))
                    return -1;
                if (p->role == ROLE_INDICES && c < 4) {
                    if (!(v >= 0.0 && v < (double)mesh->vertex_count) || v != floor(v))
                        return rs_error_set(r->err, "%s: face %llu: vertex index %g is not one of the %zu vertices",
                                            r->path, (unsigned long long)f, v, mesh->vertex_count);
                    idx[c] = (uint32_t)v;
                }
            }
            if (p->role != ROLE_INDICES)
                continue;
            if (count != 3.0 && count != 4.0) {
                ++mesh->polygons_skipped;
                continue;
            }
            if (mesh->index_count + 6 > capacity) {
                capacity *= 2;
                uint32_t* grown = realloc(mesh->indices, capacity * sizeof(uint32_t));
                if (!grown)
                    return rs_error_set(r->err, "%s: out of memory", r->path);
                mesh->indices = grown;
            }
            uint32_t* out = mesh->indices + mesh->index_count;
            out[0] = idx[0], out[1] = idx[1], out[2] = idx[2];
            mesh->index_count += 3;
            if (count == 4.0) {
                out[3] = idx[0], out[4] = idx[2], out[5] = idx[3];
                mesh->index_count += 3;
            }
        }
    }
    return 0;
}

/* Reads past an element raystream does not use. */
static int skip_element(Reader* r, const Element* e)
{
    for (uint64_t i = 0; i < e->count; ++i)
        for (int k = 0; k < e->prop_count; ++k) {
            const Property* p = &e->props[k];
            double count = 1.0, v;
            if (p->count_type != T_NONE && read_value(r, p->count_type, &count))
                return -1;
            if (!(count >= 0.0 && count <= 1e6))
                return rs_error_set(r->err, "%s: a list of %g values", r->path, count);
            for (size_t c = 0; c < (size_t)count; ++c)
                if (read_value(r, p->type, &v))
                    return -1;
        }
    return 0;
}

int rs_ply_read(const char* path, RsPlyMesh* mesh, RsError* err)
{
    memset(mesh, 0, sizeof *mesh);
    char why[256];
    size_t size = 0;
    char* data = rs_file_read_all(path, PLY_MAX_BYTES, &size, why, sizeof why);
    if (!data)
        return rs_error_set(err, "%s: cannot read: %s", path, why);
    if (size >= 2 && (unsigned char)data[0] == 0x1f && (unsigned char)data[1] == 0x8b) { /* gzip */
        size_t inflated_size = 0;
        char* inflated = inflate_gzip(path, (const unsigned char*)data, size, &inflated_size, err);
        free(data);
        if (!inflated)
            return -1;
        data = inflated;
        size = inflated_size;
    }
    Reader r = {path, (const unsigned char*)data, size, 0, 0, err};
    Element elements[16];
    int count = 0, status = parse_header(&r, elements, &count);
    int have_vertices = 0;
    for (int i = 0; !status && i < count; ++i) {
        if (strcmp(elements[i].name, "vertex") == 0 && !have_vertices) {
            status = read_vertices(&r, &elements[i], mesh);
            have_vertices = 1;
        } else if (strcmp(elements[i].name, "face") == 0 && have_vertices && !mesh->indices) {
            status = read_faces(&r, &elements[i], mesh);
        } else {
            status = skip_element(&r, &elements[i]);
        }
    }
    free(data);
    if (!status && !have_vertices)
        status = rs_error_set(err, "%s: no vertex element", path);
    if (!status && mesh->index_count == 0)
        status = rs_error_set(err, "%s: no triangles or quads", path);
    if (status)
        rs_ply_free(mesh);
    return status;
}

void rs_ply_free(RsPlyMesh* mesh)
{
    free(mesh->P);
    free(mesh->N);
    free(mesh->uv);
    free(mesh->indices);
    memset(mesh, 0, sizeof *mesh);
}
