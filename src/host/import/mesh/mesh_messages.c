/* mesh_messages.c - assimp's import errors in raystream's words (see mesh_messages.h). Host
 * C11. The patterns are assimp 5.2's (Debian 12's); a message none matches is still shown,
 * after a sentence that says assimp could not read the file.
 */
#define _POSIX_C_SOURCE 200809L
#include "host/import/mesh/mesh_messages.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "host/io/safe_file.h"

#define RS_GLTF_CHECK_MAX_BYTES (512ull << 20) /* the size of glTF file whose JSON is checked */

static int has_extension(const char* path, const char* ext)
{
    size_t n = strlen(path), m = strlen(ext);
    return n >= m && strcasecmp(path + n - m, ext) == 0;
}

/* Why a .gltf file is not glTF assimp can read: its JSON syntax error with line and column, or
 * a missing "2.0" version. 0 if neither explains it. */
static int gltf_problem(const char* path, char* out, size_t size)
{
    size_t bytes = 0;
    char why[256];
    char* text = rs_file_read_all(path, RS_GLTF_CHECK_MAX_BYTES, &bytes, why, sizeof why);
    if (!text)
        return 0;
    const char* end = NULL;
    cJSON* root = cJSON_ParseWithOpts(text, &end, 1);
    int found = 1;
    if (!root) {
        const char* at = end ? end : cJSON_GetErrorPtr();
        size_t offset = at && at >= text && at <= text + bytes ? (size_t)(at - text) : 0;
        int line = 1, column = 1;
        for (size_t i = 0; i < offset; ++i, ++column)
            if (text[i] == '\n')
                ++line, column = 0;
        snprintf(out, size, "JSON syntax error at line %d, column %d: a .gltf file is JSON text", line, column);
    } else {
        const cJSON* version = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "asset"),
                                                                "version");
        if (!cJSON_IsString(version) || strncmp(version->valuestring, "2.", 2) != 0)
            snprintf(out, size, "asset.version is not \"2.0\": raystream reads glTF 2.0 only");
        else
            found = 0;
        cJSON_Delete(root);
    }
    free(text);
    return found;
}

void rs_mesh_explain_error(const char* path, const char* assimp, char* out, size_t size)
{
    char why[512];
    const char* referenced = "GLTF: could not open referenced file \"";
    if (strncmp(assimp, "No suitable reader found", 24) == 0) {
        if (has_extension(path, ".gltf") && gltf_problem(path, why, sizeof why))
            snprintf(out, size, "not a glTF file raystream can read: %s (assimp: %s)", why, assimp);
        else
            snprintf(out, size,
                     "not a mesh raystream can read: no importer recognises its content (raystream reads OBJ, PLY, "
                     "glTF 2.0 and the other formats assimp reads) (assimp: %s)",
                     assimp);
    } else if (strncmp(assimp, referenced, strlen(referenced)) == 0) {
        const char* name = assimp + strlen(referenced);
        size_t n = strcspn(name, "\"");
        snprintf(out, size,
                 "cannot read the file it refers to, '%.*s' (relative to the glTF file; tried as written and "
                 "percent-decoded), so its data would be missing (assimp: %s)",
                 (int)(n < 1024 ? n : 1024), name, assimp);
    } else {
        snprintf(out, size, "assimp could not read it: %s", assimp);
    }
}
