/* mts_serialized.c - Mitsuba's .serialized meshes (format versions 3 and 4), read through
 * zlib. Host C11.
 *
 * The file: per shape, a uint16 0x041C and a uint16 version, then a zlib stream holding a
 * uint32 flag word (0x0001 vertex normals, 0x0002 texture coordinates, 0x0008 vertex colours,
 * 0x0010 face normals, 0x1000 single, 0x2000 double precision), the shape's name (version 4: a
 * NUL-terminated string), uint64 vertex and triangle counts, positions, normals, texture
 * coordinates and colours as the flags say, and 3 uint32 indices per triangle. The file ends
 * with each shape's offset (uint64 in version 4, uint32 in version 3) and a uint32 shape count.
 * All little-endian. Version 5 (Mitsuba 3.7's packed layout) is refused by name.
 *
 * Limits, so that hostile files cost bounded memory and time: RS_MTS_SERIALIZED_MAX_VERTICES
 * and _TRIANGLES, a decompressed size computed from them before anything is allocated, every
 * index below the vertex count, every position finite within 1e18. A stream that ends early is
 * "truncated"; a corrupt one is zlib's message.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "host/import/mitsuba/mts_internal.h"
#include "host/io/safe_file.h"

#define RS_MTS_SERIALIZED_MAX_FILE (2ull << 30)
#define RS_MTS_SERIALIZED_MAX_VERTICES (1ull << 28)
#define RS_MTS_SERIALIZED_MAX_TRIANGLES (1ull << 28)

typedef struct RsZRead {
    z_stream z;
    int ended;
} RsZRead;

/* Inflates exactly n bytes into dst; 1 if the stream ends first, -1 if it is corrupt. */
static int zread(RsZRead* r, void* dst, size_t n)
{
    r->z.next_out = dst;
    while (n > 0) {
        uInt chunk = n > (1u << 30) ? (1u << 30) : (uInt)n;
        r->z.avail_out = chunk;
        if (r->ended)
            return 1;
        int status = inflate(&r->z, Z_NO_FLUSH);
        size_t got = chunk - r->z.avail_out;
        n -= got;
        if (status == Z_STREAM_END)
            r->ended = 1;
        else if (status != Z_OK && status != Z_BUF_ERROR)
            return -1;
        else if (status == Z_BUF_ERROR && got == 0)
            return 1; /* no more input */
    }
    return 0;
}

static uint64_t le(const unsigned char* p, int bytes)
{
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i)
        v = (v << 8) | p[i];
    return v;
}

typedef struct RsMtsMesh {
    float *p, *n, *uv;
    uint32_t* idx;
} RsMtsMesh;

/* Reads `count` values of `dim` floats (float or double on file) into out. */
static int read_floats(RsZRead* r, int dp, float* out, uint64_t count)
{
    if (!dp)
        return zread(r, out, count * sizeof(float));
    double buf[768];
    for (uint64_t i = 0; i < count;) {
        size_t k = count - i > 768 ? 768 : (size_t)(count - i);
        int s = zread(r, buf, k * sizeof(double));
        if (s)
            return s;
        for (size_t j = 0; j < k; ++j)
            out[i + j] = (float)buf[j];
        i += k;
    }
    return 0;
}

static int fail_stream(RsMts* m, const RsMtsNode* node, const char* path, int status, const RsZRead* r)
{
    if (status > 0)
        return rs_mts_fail(m, node, "serialized: %s: truncated (the compressed data ends early)", path);
    return rs_mts_fail(m, node, "serialized: %s: corrupt compressed data (%s)", path, r->z.msg ? r->z.msg : "zlib");
}

static int add_triangles(RsMts* m, const RsMtsNode* node, const char* path, const RsMtsMesh* mesh, uint64_t nv,
                         uint64_t nt, const RsTransform* xf, int flip, uint32_t material)
{
    for (uint64_t i = 0; i < nv * 3; ++i)
        if (!(fabsf(mesh->p[i]) <= 1e18f))
            return rs_mts_fail(m, node, "serialized: %s: vertex %llu is not finite or beyond 1e18", path,
                               (unsigned long long)(i / 3));
    int textured = mesh->uv && rs_mts_material_textured(m, material);
    for (uint64_t t = 0; t < nt; ++t) {
        uint32_t v[3];
        for (int k = 0; k < 3; ++k) {
            v[k] = mesh->idx[t * 3 + (flip && k ? 3 - k : k)];
            if (v[k] >= nv)
                return rs_mts_fail(m, node, "serialized: %s: triangle %llu names vertex %u of %llu", path,
                                   (unsigned long long)t, v[k], (unsigned long long)nv);
        }
        RsVec3 p[3], n[3];
        float uv[6];
        for (int k = 0; k < 3; ++k) {
            const float* q = mesh->p + 3ull * v[k];
            p[k] = rs_transform_point(xf, rs_vec3(q[0], q[1], q[2]));
            if (mesh->n) {
                const float* a = mesh->n + 3ull * v[k];
                RsVec3 w = rs_transform_normal(xf, rs_vec3(a[0], a[1], a[2]));
                float len = rs_length(w);
                n[k] = len > 0.0f && isfinite(len) ? rs_scale(w, 1.0f / len) : rs_vec3(0.0f, 0.0f, 0.0f);
            }
            if (textured) {
                uv[2 * k] = mesh->uv[2ull * v[k]];
                uv[2 * k + 1] = 1.0f - mesh->uv[2ull * v[k] + 1];
            }
        }
        int normals_ok = mesh->n != NULL;
        for (int k = 0; normals_ok && k < 3; ++k)
            normals_ok = rs_length(n[k]) > 0.0f;
        if (rs_scene_add_triangle_shaded(m->scene, p[0], p[1], p[2], normals_ok ? n : NULL, textured ? uv : NULL,
                                         material, m->err))
            return rs_mts_rethrow(m, node, "serialized");
    }
    return 0;
}

int rs_mts_load_serialized(RsMts* m, const RsMtsNode* node, const char* path, uint32_t shape_index,
                           const RsTransform* xf, int face_normals, int flip, uint32_t material)
{
    char why[256];
    size_t size = 0;
    unsigned char* data = (unsigned char*)rs_file_read_all(path, RS_MTS_SERIALIZED_MAX_FILE, &size, why, sizeof why);
    if (!data)
        return rs_mts_fail(m, node, "serialized: cannot open %s: %s", path, why);
    if (rs_file_list_add(m->files, path, m->err)) {
        free(data);
        return -1;
    }
    int status = -1;
    RsZRead r;
    memset(&r, 0, sizeof r);
    int z_open = 0;
    RsMtsMesh mesh = {0};
    uint64_t version = size >= 4 ? le(data + 2, 2) : 0;
    if (size < 12 || le(data, 2) != 0x041C) {
        rs_mts_fail(m, node, "serialized: %s: not a Mitsuba .serialized file (no 0x041C header)", path);
        goto done;
    }
    if (version != 3 && version != 4) {
        rs_mts_fail(m, node, "serialized: %s: format version %u is not supported (raystream reads versions 3 and 4)",
                    path, (unsigned)version);
        goto done;
    }
    uint64_t count = le(data + size - 4, 4);
    if (shape_index >= count) {
        rs_mts_fail(m, node, "serialized: %s: shape_index %u, but the file holds %llu shapes", path, shape_index,
                    (unsigned long long)count);
        goto done;
    }
    uint64_t entry = version == 4 ? 8 : 4;
    uint64_t table = entry * count + 4;
    if (table > size) {
        rs_mts_fail(m, node, "serialized: %s: truncated (the table of %llu shapes does not fit)", path,
                    (unsigned long long)count);
        goto done;
    }
    const unsigned char* at = version == 4 ? data + size - 8 * (count - shape_index) - 4
                                           : data + size - 4 * (count - shape_index + 1);
    uint64_t offset = le(at, (int)entry);
    uint64_t end = size - table;
    if (offset + 4 > end || le(data + offset, 2) != 0x041C || le(data + offset + 2, 2) != version) {
        rs_mts_fail(m, node, "serialized: %s: shape %u's offset %llu does not point at a shape", path, shape_index,
                    (unsigned long long)offset);
        goto done;
    }
    if (inflateInit(&r.z) != Z_OK) {
        rs_mts_fail(m, node, "serialized: out of memory");
        goto done;
    }
    z_open = 1;
    r.z.next_in = data + offset + 4;
    r.z.avail_in = (uInt)((end - offset - 4) > 0xffffffffu ? 0xffffffffu : end - offset - 4);
    unsigned char word[8];
    int s = zread(&r, word, 4);
    uint32_t flags = (uint32_t)le(word, 4);
    if (s == 0 && version == 4) {
        int len = 0;
        do {
            s = zread(&r, word, 1);
        } while (s == 0 && word[0] != 0 && ++len < 65536);
        if (len >= 65536) {
            rs_mts_fail(m, node, "serialized: %s: the shape's name is longer than 65535 bytes", path);
            goto done;
        }
    }
    uint64_t nv = 0, nt = 0;
    if (s == 0 && (s = zread(&r, word, 8)) == 0)
        nv = le(word, 8);
    if (s == 0 && (s = zread(&r, word, 8)) == 0)
        nt = le(word, 8);
    if (s) {
        fail_stream(m, node, path, s, &r);
        goto done;
    }
    if (nv > RS_MTS_SERIALIZED_MAX_VERTICES || nt > RS_MTS_SERIALIZED_MAX_TRIANGLES || nv == 0 || nt == 0) {
        rs_mts_fail(m, node, "serialized: %s: %llu vertices and %llu triangles (each must be in [1, %llu])", path,
                    (unsigned long long)nv, (unsigned long long)nt, (unsigned long long)RS_MTS_SERIALIZED_MAX_VERTICES);
        goto done;
    }
    int dp = (flags & 0x2000) != 0;
    mesh.p = malloc(nv * 3 * sizeof(float));
    mesh.n = (flags & 1) ? malloc(nv * 3 * sizeof(float)) : NULL;
    mesh.uv = (flags & 2) ? malloc(nv * 2 * sizeof(float)) : NULL;
    float* colours = (flags & 8) ? malloc(nv * 3 * sizeof(float)) : NULL;
    mesh.idx = malloc(nt * 3 * sizeof(uint32_t));
    if (!mesh.p || !mesh.idx || ((flags & 1) && !mesh.n) || ((flags & 2) && !mesh.uv) || ((flags & 8) && !colours)) {
        free(colours);
        rs_mts_fail(m, node, "serialized: %s: out of memory", path);
        goto done;
    }
    s = read_floats(&r, dp, mesh.p, nv * 3);
    if (s == 0 && mesh.n)
        s = read_floats(&r, dp, mesh.n, nv * 3);
    if (s == 0 && mesh.uv)
        s = read_floats(&r, dp, mesh.uv, nv * 2);
    if (s == 0 && colours)
        s = read_floats(&r, dp, colours, nv * 3);
    free(colours);
    if (s == 0)
        s = zread(&r, mesh.idx, nt * 3 * sizeof(uint32_t));
    if (s) {
        fail_stream(m, node, path, s, &r);
        goto done;
    }
    if (flags & 8)
        rs_mts_warn(m, node, "serialized: vertex colours are not supported and were ignored");
    if (face_normals || (flags & 0x10)) {
        free(mesh.n);
        mesh.n = NULL;
    }
    status = add_triangles(m, node, path, &mesh, nv, nt, xf, flip, material);
done:
    if (z_open)
        inflateEnd(&r.z);
    free(mesh.p);
    free(mesh.n);
    free(mesh.uv);
    free(mesh.idx);
    free(data);
    return status;
}
