/* file_list.h - the files a scene loader read: each path once, in the order first read.
 *
 * Host C11. A loader (src/host/import/) adds every file it opens (the scene file, meshes,
 * MTL files, textures, environment maps, buffers), as it opened them, so that checkpoints and
 * ranks can fingerprint what a render was made of. Start from RsFileList list = {0}.
 */
#ifndef RS_HOST_FILE_LIST_H
#define RS_HOST_FILE_LIST_H

#include <stddef.h>

#include "host/util/error.h"
#include "host/util/name_index.h"

typedef struct RsFileList {
    char** paths; /* count paths, each malloc'ed */
    size_t count, capacity;
    RsNameIndex index; /* adding a path already listed costs O(1), however many a scene reads */
} RsFileList;

/* Adds a copy of `path` unless the list holds it already. A NULL list is allowed: nothing to
 * record, so loaders need not test for it. */
int rs_file_list_add(RsFileList* list, const char* path, RsError* err);

/* Whether `path` is in the list (as spelt). */
int rs_file_list_contains(const RsFileList* list, const char* path);

void rs_file_list_free(RsFileList* list);

#endif /* RS_HOST_FILE_LIST_H */
