/* pbrt_params.h - a pbrt-v4 directive's parameter list: "float fov" [ 45 ], "rgb L" [1 1 1],
 * "string filename" "a.ply", "bool twosided" true, "spectrum eta" "metal-Au-eta", ...
 *
 * Host C11. Every value is kept as written (numbers as doubles, strings decoded); the getters
 * check the type and the number of values and mark the parameter used, so that what a
 * directive did not read can be named in a warning (rs_pbrt_params_warn_unused). Types: integer,
 * float, point2, vector2, point3 (point), vector3 (vector), normal3 (normal), rgb (color),
 * spectrum, blackbody, bool, string, texture. A list holds at most RS_PBRT_MAX_VALUES values.
 */
#ifndef RS_HOST_PBRT_PARAMS_H
#define RS_HOST_PBRT_PARAMS_H

#include "host/import/pbrt/pbrt_lexer.h"
#include "host/scene/scene.h"

#define RS_PBRT_MAX_VALUES (1u << 27)

typedef struct RsPbrtParam {
    char type[16];     /* canonical: "point3" for "point", "rgb" for "color", ... */
    char* name;
    double* numbers;
    size_t number_count;
    char** strings;    /* string, texture, bool ("true"/"false"), a named spectrum */
    size_t string_count;
    int used;
} RsPbrtParam;

typedef struct RsPbrtParams {
    RsPbrtParam* items;
    size_t count;
    char where[512]; /* "FILE:LINE: Shape \"sphere\"": every message starts with it */
    const char* file;  /* the scene file the directive is in: file names are relative to it */
    RsFileList* files; /* where files read for a parameter (spectra) are recorded */
} RsPbrtParams;

/* Reads the parameters that follow a directive's own arguments. */
int rs_pbrt_params_read(RsPbrtLexer* lx, RsPbrtParams* params, RsError* err);
void rs_pbrt_params_free(RsPbrtParams* params);

/* The parameter `name` (marked used), or NULL. */
RsPbrtParam* rs_pbrt_param(RsPbrtParams* params, const char* name);

/* Getters: 0 with *out untouched when absent, 0 with *out set when present and right, -1 with
 * err "WHERE: \"float fov\": ..." when the type or count is wrong. */
int rs_pbrt_get_float(RsPbrtParams* params, const char* name, double* out, RsError* err);
int rs_pbrt_get_int(RsPbrtParams* params, const char* name, long* out, RsError* err);
int rs_pbrt_get_bool(RsPbrtParams* params, const char* name, int* out, RsError* err);
int rs_pbrt_get_string(RsPbrtParams* params, const char* name, const char** out, RsError* err);
int rs_pbrt_get_point3(RsPbrtParams* params, const char* name, double out[3], RsError* err);
/* An array of `type` (with aliases) of any length (a multiple of `arity` numbers); *count
 * numbers. NULL when absent. */
const double* rs_pbrt_get_numbers(RsPbrtParams* params, const char* name, const char* type, size_t arity,
                                  size_t* count, RsError* err);

/* Warns, through the scene, of every parameter no getter read. */
void rs_pbrt_params_warn_unused(RsScene* scene, const RsPbrtParams* params);

/* A message "WHERE: \"TYPE NAME\": ..." about parameter p. */
int rs_pbrt_param_fail(const RsPbrtParams* params, const RsPbrtParam* p, RsError* err, const char* fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif /* RS_HOST_PBRT_PARAMS_H */
