/* gltf_container.c - a glTF file's container: the JSON of a .gltf or the chunks of a .glb, the
 * buffers (the GLB binary chunk, data: URIs in base64, files beside the scene) and the bytes of
 * buffer views (gltf_doc.h). Host C11 (POSIX).
 *
 * GLB (glTF 2.0 section "Binary glTF Layout"): a 12-byte header (magic "glTF", version 2, total
 * length), then a JSON chunk and an optional BIN chunk, each an 8-byte header (length, type) and
 * its bytes. Every length is checked against the bytes that are really there, so a truncated
 * file is an error that says which part is cut short. Buffers are held to their byteLength:
 * what lies beyond it (GLB padding) is never read.
 */
#define _POSIX_C_SOURCE 200809L
#include "host/import/gltf/gltf_doc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/io/safe_file.h"

#define GLB_MAGIC 0x46546C67u
#define GLB_JSON 0x4E4F534Au
#define GLB_BIN 0x004E4942u

static uint32_t le32(const uint8_t* p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Line and column (1-based) of byte `offset` of text. */
static void line_column(const char* text, size_t offset, int* line, int* column)
{
    *line = 1;
    *column = 1;
    for (size_t i = 0; i < offset; ++i) {
        if (text[i] == '\n') {
            ++*line;
            *column = 1;
        } else {
            ++*column;
        }
    }
}

/* cJSON turns \u0000 into a NUL that ends the C string: "a.png\u0000x" would name another file.
 * The offset of the first such escape inside a string, or size. */
static size_t escaped_nul(const char* text, size_t size)
{
    int in_string = 0;
    for (size_t i = 0; i < size; ++i) {
        if (!in_string) {
            in_string = text[i] == '"';
        } else if (text[i] == '"') {
            in_string = 0;
        } else if (text[i] == '\\' && i + 1 < size) {
            if (text[i + 1] == 'u' && i + 5 < size && strncmp(text + i + 2, "0000", 4) == 0)
                return i;
            ++i;
        }
    }
    return size;
}

static int parse_json(RsGltf* g, const char* text, size_t size, const char* what)
{
    if (memchr(text, '\0', size))
        return rs_gltf_fail(g, NULL, "the %s contains a NUL byte; glTF JSON is text", what);
    size_t nul = escaped_nul(text, size);
    int line, column;
    if (nul < size) {
        line_column(text, nul, &line, &column);
        return rs_gltf_fail(g, NULL, "%s line %d, column %d: a string holds \\u0000 (the NUL character)", what, line,
                            column);
    }
    const char* end = NULL;
    g->root = cJSON_ParseWithLengthOpts(text, size, &end, 0);
    if (!g->root) {
        size_t at = end && end >= text && end <= text + size ? (size_t)(end - text) : 0;
        line_column(text, at, &line, &column);
        return rs_gltf_fail(g, NULL, "%s line %d, column %d: JSON syntax error", what, line, column);
    }
    for (const char* p = end; p && p < text + size; ++p)
        if (*p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') {
            line_column(text, (size_t)(p - text), &line, &column);
            return rs_gltf_fail(g, NULL, "%s line %d, column %d: text after the JSON object", what, line, column);
        }
    if (!cJSON_IsObject(g->root))
        return rs_gltf_fail(g, NULL, "a glTF file must be a JSON object");
    return 0;
}

static int read_glb(RsGltf* g)
{
    const uint8_t* f = g->file;
    size_t size = g->file_size;
    if (size < 12)
        return rs_gltf_fail(g, NULL, "truncated binary glTF: %zu bytes, the header alone takes 12", size);
    uint32_t version = le32(f + 4), length = le32(f + 8);
    if (version != 2)
        return rs_gltf_fail(g, NULL, "binary glTF version %u; raystream reads version 2", version);
    if (length > size)
        return rs_gltf_fail(g, NULL, "truncated binary glTF: the header says %u bytes, the file has %zu", length, size);
    if (size < 20)
        return rs_gltf_fail(g, NULL, "truncated binary glTF: no JSON chunk");
    uint32_t json_length = le32(f + 12), json_type = le32(f + 16);
    if (json_type != GLB_JSON)
        return rs_gltf_fail(g, NULL, "binary glTF: the first chunk must be JSON (type 0x%08X)", json_type);
    if ((uint64_t)json_length > (uint64_t)length - 20)
        return rs_gltf_fail(g, NULL, "truncated binary glTF: the JSON chunk says %u bytes, %u remain", json_length,
                            length - 20);
    if (parse_json(g, (const char*)f + 20, json_length, "JSON chunk"))
        return -1;
    size_t at = 20 + (size_t)json_length;
    at += (4 - at % 4) % 4; /* chunks start on 4-byte boundaries */
    if (at + 8 <= length) {
        uint32_t bin_length = le32(f + at), bin_type = le32(f + at + 4);
        if (bin_type == GLB_BIN) {
            if ((uint64_t)bin_length > (uint64_t)length - at - 8)
                return rs_gltf_fail(g, NULL, "truncated binary glTF: the BIN chunk says %u bytes, %zu remain",
                                    bin_length, (size_t)length - at - 8);
            g->bin = f + at + 8;
            g->bin_size = bin_length;
        }
    }
    return 0;
}

int rs_gltf_read_container(RsGltf* g)
{
    char why[256];
    size_t size = 0;
    g->file = (uint8_t*)rs_file_read_all(g->path, RS_GLTF_MAX_FILE_BYTES, &size, why, sizeof why);
    if (!g->file)
        return rs_error_set(g->err, "%s: cannot open scene: %s", g->path, why);
    g->file_size = size;
    if (rs_file_list_add(g->files, g->path, g->err))
        return -1;
    if (size >= 4 && le32(g->file) == GLB_MAGIC)
        return read_glb(g);
    return parse_json(g, (const char*)g->file, size, "JSON");
}

/* ---- URIs ---- */

static int hex(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

char* rs_gltf_resolve_uri(RsGltf* g, const char* uri, const char* where)
{
    const char* colon = strchr(uri, ':');
    const char* slash = strchr(uri, '/');
    if (colon && (!slash || colon < slash) && colon > uri + 1) { /* "http:", not "C:" */
        rs_gltf_fail(g, where, "the URI '%.200s' is not a file beside the scene; raystream reads relative file "
                     "names and data: URIs", uri);
        return NULL;
    }
    size_t n = strlen(uri), dir = strlen(g->dir);
    char* full = malloc(dir + n + 1);
    if (!full) {
        rs_gltf_fail(g, where, "out of memory");
        return NULL;
    }
    size_t k = 0;
    if (uri[0] != '/') {
        memcpy(full, g->dir, dir);
        k = dir;
    }
    for (size_t i = 0; i < n; ++i) {
        if (uri[i] == '%' && i + 2 < n + 1 && hex(uri[i + 1]) >= 0 && hex(uri[i + 2]) >= 0) {
            char c = (char)(hex(uri[i + 1]) * 16 + hex(uri[i + 2]));
            if (c == '\0') {
                free(full);
                rs_gltf_fail(g, where, "the URI '%.200s' holds %%00", uri);
                return NULL;
            }
            full[k++] = c;
            i += 2;
        } else {
            full[k++] = uri[i];
        }
    }
    full[k] = '\0';
    return full;
}

static int base64_value(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' : c >= 'a' && c <= 'z' ? c - 'a' + 26 : c >= '0' && c <= '9' ? c - '0' + 52
           : c == '+' ? 62 : c == '/' ? 63 : -1;
}

int rs_gltf_decode_data_uri(RsGltf* g, const char* uri, const char* where, uint8_t** out, size_t* size)
{
    const char* comma = strchr(uri, ',');
    if (!comma || comma - uri < 12 || strncmp(comma - 7, ";base64", 7) != 0)
        return rs_gltf_fail(g, where, "a data: URI must be base64 (data:...;base64,...)");
    const char* p = comma + 1;
    size_t n = strlen(p);
    while (n > 0 && p[n - 1] == '=')
        --n;
    if (strlen(p) - n > 2 || n % 4 == 1)
        return rs_gltf_fail(g, where, "bad base64 in a data: URI: its length (%zu characters) or padding is wrong",
                            strlen(p));
    uint8_t* bytes = malloc(n / 4 * 3 + 3);
    if (!bytes)
        return rs_gltf_fail(g, where, "out of memory");
    size_t k = 0;
    uint32_t acc = 0;
    for (size_t i = 0; i < n; ++i) {
        int v = base64_value((unsigned char)p[i]);
        if (v < 0) {
            free(bytes);
            unsigned char c = (unsigned char)p[i];
            return rs_gltf_fail(g, where, "bad base64 in a data: URI: character %s%c%s (byte 0x%02X) at offset %zu",
                                c >= 32 && c < 127 ? "'" : "", c >= 32 && c < 127 ? c : ' ',
                                c >= 32 && c < 127 ? "'" : "", c, i);
        }
        acc = acc << 6 | (uint32_t)v;
        if (i % 4 == 3) {
            bytes[k++] = (uint8_t)(acc >> 16);
            bytes[k++] = (uint8_t)(acc >> 8);
            bytes[k++] = (uint8_t)acc;
            acc = 0;
        }
    }
    if (n % 4 == 2) {
        bytes[k++] = (uint8_t)(acc >> 4);
    } else if (n % 4 == 3) {
        bytes[k++] = (uint8_t)(acc >> 10);
        bytes[k++] = (uint8_t)(acc >> 2);
    }
    *out = bytes;
    *size = k;
    return 0;
}

/* ---- buffers ---- */

static int read_buffer(RsGltf* g, const cJSON* b, int i, RsGltfBuffer* out)
{
    char path[RS_GLTF_PATH_MAX], where[RS_GLTF_PATH_MAX];
    rs_gltf_join_index(path, "buffers", i);
    if (!cJSON_IsObject(b))
        return rs_gltf_fail(g, path, "must be an object");
    double length = 0.0;
    const char* uri = NULL;
    if (!rs_gltf_member(b, "byteLength"))
        return rs_gltf_fail(g, path, "missing required key 'byteLength'");
    if (rs_gltf_get_number(g, b, path, "byteLength", 0.0, &length) || rs_gltf_get_string(g, b, path, "uri", NULL, &uri))
        return -1;
    rs_gltf_join_key(where, path, "byteLength");
    if (length < 1.0 || length != (double)(uint64_t)length || length > (double)RS_GLTF_MAX_FILE_BYTES)
        return rs_gltf_fail(g, where, "must be an integer in [1, %llu] (got %g)",
                            (unsigned long long)RS_GLTF_MAX_FILE_BYTES, length);
    size_t want = (size_t)length;
    rs_gltf_join_key(where, path, "uri");
    if (!uri) {
        if (!g->bin || i != 0)
            return rs_gltf_fail(g, path, "has no uri, and %s", g->bin ? "only buffer 0 is the binary chunk"
                                                                      : "the file has no binary chunk");
        if (g->bin_size < want)
            return rs_gltf_fail(g, where, "the binary chunk holds %zu bytes, byteLength says %zu", g->bin_size, want);
        out->data = g->bin;
        out->size = want;
        return 0;
    }
    size_t size = 0;
    if (strncmp(uri, "data:", 5) == 0) {
        if (rs_gltf_decode_data_uri(g, uri, where, &out->owned, &size))
            return -1;
    } else {
        char* full = rs_gltf_resolve_uri(g, uri, where);
        if (!full)
            return -1;
        char why[256];
        out->owned = (uint8_t*)rs_file_read_all(full, RS_GLTF_MAX_FILE_BYTES, &size, why, sizeof why);
        if (!out->owned) {
            rs_gltf_fail(g, where, "cannot read '%s': %s", full, why);
            free(full);
            return -1;
        }
        int listed = rs_file_list_add(g->files, full, g->err);
        free(full);
        if (listed)
            return -1;
    }
    if (size < want)
        return rs_gltf_fail(g, where, "holds %zu bytes, byteLength says %zu", size, want);
    out->data = out->owned;
    out->size = want;
    return 0;
}

int rs_gltf_read_buffers(RsGltf* g)
{
    const cJSON* a = NULL;
    int count = 0;
    if (rs_gltf_array(g, g->root, "", "buffers", &a, &count))
        return -1;
    if (count == 0)
        return 0;
    g->buffers = calloc((size_t)count, sizeof *g->buffers);
    if (!g->buffers)
        return rs_gltf_fail(g, NULL, "out of memory");
    g->buffer_count = count;
    int i = 0;
    for (const cJSON* b = a->child; b; b = b->next, ++i)
        if (read_buffer(g, b, i, &g->buffers[i]))
            return -1;
    return 0;
}

int rs_gltf_view_bytes(RsGltf* g, int64_t view, const char* referrer, const uint8_t** data, size_t* size)
{
    const cJSON* v = NULL;
    if (rs_gltf_item(g, "bufferViews", view, referrer, &v))
        return -1;
    char path[RS_GLTF_PATH_MAX];
    rs_gltf_join_index(path, "bufferViews", (int)view);
    int64_t buffer = 0, offset = 0, length = 0;
    if (rs_gltf_get_index(g, v, path, "buffer", 1, g->buffer_count, 0, &buffer) ||
        rs_gltf_get_index(g, v, path, "byteOffset", 0, -1, 0, &offset) ||
        rs_gltf_get_index(g, v, path, "byteLength", 1, -1, 0, &length))
        return -1;
    const RsGltfBuffer* b = &g->buffers[buffer];
    if ((uint64_t)offset + (uint64_t)length > b->size)
        return rs_gltf_fail(g, path, "bytes [%lld, %lld) lie beyond buffer %lld's %zu bytes", (long long)offset,
                            (long long)(offset + length), (long long)buffer, b->size);
    *data = b->data + offset;
    *size = (size_t)length;
    return 0;
}
