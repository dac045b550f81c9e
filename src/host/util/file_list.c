/* file_list.c - a list of unique paths (see file_list.h). Host C11. */
#define _POSIX_C_SOURCE 200809L
#include "host/util/file_list.h"

#include <stdlib.h>
#include <string.h>

int rs_file_list_add(RsFileList* list, const char* path, RsError* err)
{
    if (!list || rs_file_list_contains(list, path))
        return 0;
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? 2 * list->capacity : 16;
        char** grown = realloc(list->paths, capacity * sizeof *grown);
        if (!grown)
            return rs_error_set(err, "out of memory listing the files read");
        list->paths = grown;
        list->capacity = capacity;
    }
    char* copy = strdup(path);
    if (!copy)
        return rs_error_set(err, "out of memory listing the files read");
    list->paths[list->count] = copy;
    if (rs_name_index_add(&list->index, list->paths, (uint32_t)list->count, err)) {
        free(copy);
        return -1;
    }
    ++list->count;
    return 0;
}

int rs_file_list_contains(const RsFileList* list, const char* path)
{
    return rs_name_index_find(&list->index, list->paths, path) >= 0;
}

void rs_file_list_free(RsFileList* list)
{
    for (size_t i = 0; i < list->count; ++i)
        free(list->paths[i]);
    free(list->paths);
    rs_name_index_free(&list->index);
    memset(list, 0, sizeof *list);
}
