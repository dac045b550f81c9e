/* pbrt_lexer.c - pbrt-v4 tokens and the include stack (see pbrt_lexer.h). Host C11 (POSIX). */
#define _XOPEN_SOURCE 700
#include "host/import/pbrt/pbrt_lexer.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host/io/safe_file.h"
#include "host/scene/settings.h"

#define RS_PBRT_MAX_SCENE_BYTES (512ull << 20)

int rs_pbrt_resolve(const char* file, const char* name, char* out, size_t out_size)
{
    const char* slash = strrchr(file, '/');
    int n = name[0] == '/' || !slash ? snprintf(out, out_size, "%s", name)
                                     : snprintf(out, out_size, "%.*s/%s", (int)(slash - file), file, name);
    return n < 0 || (size_t)n >= out_size ? -1 : 0;
}

static void source_free(RsPbrtSource* s)
{
    if (!s)
        return;
    free(s->path);
    free(s->real);
    free(s->text);
    free(s);
}

static int open_source(RsPbrtLexer* lx, const char* path, const char* name, const char* from_file, int from_line,
                       RsError* err)
{
    char where[600] = "";
    if (from_file)
        snprintf(where, sizeof where, "%s:%d: Include \"%s\": ", from_file, from_line, name);
    if (lx->depth > RS_PBRT_MAX_INCLUDE_DEPTH - 1)
        return rs_error_set(err, "%sincludes nest deeper than %d files", where, RS_PBRT_MAX_INCLUDE_DEPTH);
    char* real = realpath(path, NULL);
    for (int i = 0; real && i < lx->depth; ++i)
        if (strcmp(lx->open[i]->real, real) == 0) {
            free(real);
            return rs_error_set(err, "%sinclude cycle: %s is already being read", where, lx->open[i]->path);
        }
    RsPbrtSource* s = calloc(1, sizeof *s);
    char why[256] = "out of memory";
    size_t size = 0;
    if (s) {
        s->path = strdup(path);
        s->real = real ? real : strdup(path);
        real = NULL;
        s->text = s->path && s->real ? rs_file_read_all(path, RS_PBRT_MAX_SCENE_BYTES, &size, why, sizeof why) : NULL;
    }
    free(real);
    if (!s || !s->text) {
        source_free(s);
        return from_file ? rs_error_set(err, "%scannot read: %s", where, why)
                         : rs_error_set(err, "%s: cannot open scene: %s", path, why);
    }
    s->size = size;
    s->line = 1;
    lx->total_bytes += size;
    if (lx->total_bytes > RS_PBRT_MAX_TOTAL_BYTES) {
        source_free(s);
        return rs_error_set(err, "%sthe scene's files hold more than %llu bytes together", where,
                            (unsigned long long)RS_PBRT_MAX_TOTAL_BYTES);
    }
    if (memchr(s->text, '\0', size)) {
        source_free(s);
        return rs_error_set(err, "%s%s: the file contains a NUL byte; a pbrt scene is text", where, path);
    }
    if (rs_file_list_add(lx->files, path, err)) {
        source_free(s);
        return -1;
    }
    lx->open[lx->depth++] = s;
    return 0;
}

int rs_pbrt_lexer_open(RsPbrtLexer* lx, const char* path, RsFileList* files, RsError* err)
{
    memset(lx, 0, sizeof *lx);
    lx->files = files;
    return open_source(lx, path, path, NULL, 0, err);
}

int rs_pbrt_lexer_include(RsPbrtLexer* lx, const char* name, const char* file, int line, RsError* err)
{
    char path[4096];
    if (rs_pbrt_resolve(file, name, path, sizeof path))
        return rs_error_set(err, "%s:%d: Include: the path is too long", file, line);
    return open_source(lx, path, name, file, line, err);
}

const char* rs_pbrt_lexer_file(const RsPbrtLexer* lx)
{
    return lx->depth > 0 ? lx->open[lx->depth - 1]->path : "";
}

/* Closes the innermost file (its text stays for tokens already handed out). */
static int close_source(RsPbrtLexer* lx, RsError* err)
{
    if (lx->done_count == lx->done_capacity) {
        size_t capacity = lx->done_capacity ? 2 * lx->done_capacity : 8;
        RsPbrtSource** grown = realloc(lx->done, capacity * sizeof *grown);
        if (!grown)
            return rs_error_set(err, "%s: out of memory", lx->open[lx->depth - 1]->path);
        lx->done = grown;
        lx->done_capacity = capacity;
    }
    lx->done[lx->done_count++] = lx->open[--lx->depth];
    return 0;
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

static int is_delimiter(char c) { return is_space(c) || c == '"' || c == '[' || c == ']' || c == '#' || c == '\0'; }

/* Decodes the string starting after its opening quote at s->pos, in place. */
static int read_string(RsPbrtSource* s, RsPbrtToken* tok, RsError* err)
{
    char* out = s->text + s->pos;
    tok->text = out;
    size_t n = 0;
    for (;;) {
        if (s->pos >= s->size || s->text[s->pos] == '\n')
            return rs_error_set(err, "%s:%d: unterminated string", s->path, tok->line);
        char c = s->text[s->pos++];
        if (c == '"')
            break;
        if (c == '\\') {
            if (s->pos >= s->size)
                return rs_error_set(err, "%s:%d: unterminated string", s->path, tok->line);
            char e = s->text[s->pos++];
            c = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'b' ? '\b' : e == 'f' ? '\f' : e == 'r' ? '\r' : e;
        }
        if (n >= RS_PBRT_MAX_STRING)
            return rs_error_set(err, "%s:%d: a string longer than %d bytes", s->path, tok->line, RS_PBRT_MAX_STRING);
        out[n++] = c;
    }
    tok->kind = RS_PBRT_STRING;
    tok->length = n;
    return 0;
}

static int scan(RsPbrtLexer* lx, RsPbrtToken* tok, RsError* err)
{
    memset(tok, 0, sizeof *tok);
    for (;;) {
        if (lx->depth == 0) {
            tok->kind = RS_PBRT_END;
            tok->file = "";
            return 0;
        }
        RsPbrtSource* s = lx->open[lx->depth - 1];
        while (s->pos < s->size) {
            char c = s->text[s->pos];
            if (c == '\n')
                ++s->line;
            if (c == '#') {
                while (s->pos < s->size && s->text[s->pos] != '\n')
                    ++s->pos;
            } else if (is_space(c)) {
                ++s->pos;
            } else {
                break;
            }
        }
        if (s->pos >= s->size) {
            if (lx->depth == 1) {
                tok->kind = RS_PBRT_END;
                tok->file = s->path;
                tok->line = s->line;
                return 0;
            }
            if (close_source(lx, err))
                return -1;
            continue;
        }
        tok->file = s->path;
        tok->line = s->line;
        char c = s->text[s->pos];
        if (c == '[' || c == ']') {
            tok->kind = c == '[' ? RS_PBRT_OPEN : RS_PBRT_CLOSE;
            tok->text = s->text + s->pos++;
            tok->length = 1;
            return 0;
        }
        if (c == '"') {
            ++s->pos;
            return read_string(s, tok, err);
        }
        size_t start = s->pos;
        while (s->pos < s->size && !is_delimiter(s->text[s->pos]))
            ++s->pos;
        tok->text = s->text + start;
        tok->length = s->pos - start;
        if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.') {
            char buf[64];
            if (tok->length >= sizeof buf)
                return rs_error_set(err, "%s:%d: malformed number '%.40s...'", s->path, tok->line, tok->text);
            memcpy(buf, tok->text, tok->length);
            buf[tok->length] = '\0';
            char* end = NULL;
            double v = strtod(buf, &end);
            if (end != buf + tok->length)
                return rs_error_set(err, "%s:%d: malformed number '%s'", s->path, tok->line, buf);
            if (!isfinite(v) || fabs(v) > RS_SCENE_MAX_MAGNITUDE)
                return rs_error_set(err, "%s:%d: the number %s is not between -1e+18 and 1e+18", s->path, tok->line,
                                    buf);
            tok->kind = RS_PBRT_NUMBER;
            tok->number = v;
            return 0;
        }
        if (tok->length > 256)
            return rs_error_set(err, "%s:%d: a word longer than 256 characters", s->path, tok->line);
        tok->kind = RS_PBRT_WORD;
        return 0;
    }
}

int rs_pbrt_lexer_next(RsPbrtLexer* lx, RsPbrtToken* tok, RsError* err)
{
    if (lx->has_peeked) {
        *tok = lx->peeked;
        lx->has_peeked = 0;
        return 0;
    }
    return scan(lx, tok, err);
}

int rs_pbrt_lexer_peek(RsPbrtLexer* lx, RsPbrtToken* tok, RsError* err)
{
    if (!lx->has_peeked) {
        if (scan(lx, &lx->peeked, err))
            return -1;
        lx->has_peeked = 1;
    }
    *tok = lx->peeked;
    return 0;
}

int rs_pbrt_token_is(const RsPbrtToken* tok, const char* s)
{
    size_t n = strlen(s);
    return (tok->kind == RS_PBRT_WORD || tok->kind == RS_PBRT_STRING) && tok->length == n &&
           memcmp(tok->text, s, n) == 0;
}

void rs_pbrt_lexer_free(RsPbrtLexer* lx)
{
    for (int i = 0; i < lx->depth; ++i)
        source_free(lx->open[i]);
    for (size_t i = 0; i < lx->done_count; ++i)
        source_free(lx->done[i]);
    free(lx->done);
    memset(lx, 0, sizeof *lx);
}
