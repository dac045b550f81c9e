/* pbrt_lexer.h - the tokens of a pbrt-v4 scene, with the file and line of each, across the
 * files that Include and Import bring in.
 *
 * Host C11. A token is a word (a directive, or true/false), a quoted string (escapes \" \\ \n
 * \t decoded; a string ends on its line), a number, '[' or ']'. '#' starts a comment to the end
 * of the line. Include pushes a file, named relative to the including file, onto a stack of at
 * most RS_PBRT_MAX_INCLUDE_DEPTH; a file that is already open on the stack (an include cycle)
 * is refused naming the chain's start. Every file read is added to the loader's file list. The
 * texts stay in memory until the lexer is freed, so a token's text lives as long as the lexer.
 * Limits: each file at most RS_SCENE_MAX_BYTES (512 MiB), all of them together at most
 * RS_PBRT_MAX_TOTAL_BYTES, a string token at most RS_PBRT_MAX_STRING bytes, numbers finite and
 * within +-1e18 (scenes/README.md).
 */
#ifndef RS_HOST_PBRT_LEXER_H
#define RS_HOST_PBRT_LEXER_H

#include <stddef.h>
#include <stdint.h>

#include "host/util/error.h"
#include "host/util/file_list.h"

#define RS_PBRT_MAX_INCLUDE_DEPTH 32
#define RS_PBRT_MAX_STRING 65536
#define RS_PBRT_MAX_TOTAL_BYTES (2ull << 30)

enum { RS_PBRT_END = 0, RS_PBRT_WORD, RS_PBRT_STRING, RS_PBRT_NUMBER, RS_PBRT_OPEN, RS_PBRT_CLOSE };

typedef struct RsPbrtToken {
    int kind;          /* RS_PBRT_* */
    const char* text;  /* not NUL-terminated; a string's decoded contents */
    size_t length;
    double number;     /* RS_PBRT_NUMBER */
    const char* file;  /* where it was read */
    int line;
} RsPbrtToken;

typedef struct RsPbrtSource {
    char* path;        /* as opened (relative paths resolved against the includer's folder) */
    char* real;        /* realpath, for cycles */
    char* text;
    size_t size, pos;
    int line;
} RsPbrtSource;

typedef struct RsPbrtLexer {
    RsPbrtSource* open[RS_PBRT_MAX_INCLUDE_DEPTH + 1]; /* the include stack, outermost first */
    int depth;
    RsPbrtSource** done; /* closed sources, kept until rs_pbrt_lexer_free */
    size_t done_count, done_capacity;
    uint64_t total_bytes;
    RsPbrtToken peeked;
    int has_peeked;
    RsFileList* files;
} RsPbrtLexer;

/* Opens the scene file `path`. -1 with err set on failure. */
int rs_pbrt_lexer_open(RsPbrtLexer* lx, const char* path, RsFileList* files, RsError* err);
/* Pushes the file `name` (Include or Import at the current token's file and line). */
int rs_pbrt_lexer_include(RsPbrtLexer* lx, const char* name, const char* file, int line, RsError* err);
/* The next token (RS_PBRT_END at the end of the outermost file), or -1 with err set. */
int rs_pbrt_lexer_next(RsPbrtLexer* lx, RsPbrtToken* tok, RsError* err);
int rs_pbrt_lexer_peek(RsPbrtLexer* lx, RsPbrtToken* tok, RsError* err);
/* The path of the file being read (file names in its parameters are relative to its folder). */
const char* rs_pbrt_lexer_file(const RsPbrtLexer* lx);
/* Resolves `name` against the folder of `file` into out[]; -1 if it does not fit. */
int rs_pbrt_resolve(const char* file, const char* name, char* out, size_t out_size);
void rs_pbrt_lexer_free(RsPbrtLexer* lx);

/* Whether the token is the word (or string) `s`. */
int rs_pbrt_token_is(const RsPbrtToken* tok, const char* s);

#endif /* RS_HOST_PBRT_LEXER_H */
