/* json_reader.h - strict typed reading of cJSON values, with messages that name the file, the
 * JSON path and the problem (the scene loader's building blocks; scene_json.c explains what
 * "strict" means). Host C11.
 *
 * Every getter returns 0 on success and -1 after setting the reader's error. A key that is
 * absent and not required leaves *out unchanged, so callers set defaults first.
 */
#ifndef RS_HOST_JSON_READER_H
#define RS_HOST_JSON_READER_H

#include <cJSON.h>

#include "host/scene/scene.h"
#include "host/util/file_list.h"

#define RS_PATH_MAX 256 /* JSON paths in messages, e.g. shapes[12].transform.rotate[0] */

typedef struct RsJsonReader {
    const char* file;
    char* dir; /* directory of the scene file, for relative mesh paths */
    RsScene* scene;
    RsError* err;
    RsFileList* files; /* every file read is added here (NULL: nobody asked) */
    struct RsJsonObjects* objects; /* the named objects read so far (json_object.c) */
    int in_object;                 /* reading an object's shapes: no instances there */
} RsJsonReader;

typedef struct RsJsonObjects RsJsonObjects;

/* Sets the error "FILE: PATH: message" and returns -1. */
int rs_json_fail(const RsJsonReader* r, const char* path, const char* fmt, ...) __attribute__((format(printf, 3, 4)));
/* path.key and path[index], cut at RS_PATH_MAX - 1 bytes. */
void rs_json_join_key(char* out, const char* path, const char* key);
void rs_json_join_index(char* out, const char* path, int index);
int rs_json_expect_object(const RsJsonReader* r, const cJSON* node, const char* path);
/* Unknown or repeated keys are errors: a typo must not silently fall back to a default. */
int rs_json_check_keys(const RsJsonReader* r, const cJSON* obj, const char* path, const char* const* allowed);
/* The member or NULL; a missing required key is an error (*status = -1). */
const cJSON* rs_json_member(const RsJsonReader* r, const cJSON* obj, const char* path, const char* key, int required,
                            int* status);
/* Every number of a scene goes through here: finite, and within RS_SCENE_MAX_MAGNITUDE. */
int rs_json_read_number(const RsJsonReader* r, const cJSON* item, const char* path, double* out);
/* Typed members: presence (if required), type, finiteness. */
int rs_json_get_number(const RsJsonReader* r, const cJSON* obj, const char* path, const char* key, int required,
                       double* out);
int rs_json_get_vec3(const RsJsonReader* r, const cJSON* obj, const char* path, const char* key, int required,
                     RsVec3* out);
/* rs_json_get_vec3, each component in [lo, hi] as written (checked before it becomes a float,
 * so that a bound such as 0.01 is accepted); the message names the component and the bounds. */
int rs_json_get_vec3_in(const RsJsonReader* r, const cJSON* obj, const char* path, const char* key, int required,
                        double lo, double hi, RsVec3* out);
int rs_json_get_uint(const RsJsonReader* r, const cJSON* obj, const char* path, const char* key, int required,
                     double lo, double hi, uint32_t* out);
int rs_json_get_string(const RsJsonReader* r, const cJSON* obj, const char* path, const char* key, int required,
                       const char** out);
int rs_json_get_bool(const RsJsonReader* r, const cJSON* obj, const char* path, const char* key, int* out);
/* Every component in [0, max]. */
int rs_json_check_colour_range(const RsJsonReader* r, const char* path, const char* key, RsVec3 c, float max);
/* "key": a scale >= 0, one number for every channel or [r, g, b]; *out is kept if it is absent. */
int rs_json_get_scale(const RsJsonReader* r, const cJSON* obj, const char* path, const char* key, RsVec3* out);
/* A length that must be positive: in [RS_SCENE_MIN_LENGTH, RS_SCENE_MAX_MAGNITUDE]. */
int rs_json_check_length(const RsJsonReader* r, const char* path, const char* key, double v);

/* Files named in a scene are relative to the scene file's directory unless absolute. A path that
 * does not fit is an error: cut short, it would name a different file. */
int rs_json_resolve_path(const RsJsonReader* r, const char* where, const char* rel, char* out, size_t size);

#endif /* RS_HOST_JSON_READER_H */
