/* file_list.c - a list of unique paths (see file_list.h). Host C11. */
#define _POSIX_C_SOURCE 200809L
#include "host/util/file_list.h"

#include <stdlib.h>
#include <string.h>

#include "host/util/array.h"

int rs_file_list_add(RsFileList* list, const char* path, RsError* err)
{
    if (!list || rs_file_list_contains(list, path))
        return 0;
    if (rs_array_reserve_raw((void**)&list->paths, &list->capacity, list->count, 1, sizeof *list->paths, err))
        return -1;
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
