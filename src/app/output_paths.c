/* output_paths.c - the files a command writes, against each other and its inputs (see
 * output_paths.h). Host C11 (POSIX), application layer. */
#define _POSIX_C_SOURCE 200809L
#include "app/output_paths.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "host/io/safe_file.h"
#include "host/util/array.h"

/* A path's identity: the file's (dev, ino) when it exists; always its directory entry, the
 * folder's (dev, ino) and the last name, which is what a write replaces and what removing a
 * stale temporary unlinks. */
typedef struct FileId {
    int exists, folder_known;
    dev_t dev, folder_dev;
    ino_t ino, folder_ino;
    const char* name; /* into the path */
} FileId;

static FileId file_id(const char* path)
{
    FileId id;
    memset(&id, 0, sizeof id);
    struct stat st;
    if (stat(path, &st) == 0) {
        id.exists = 1;
        id.dev = st.st_dev;
        id.ino = st.st_ino;
    }
    const char* slash = strrchr(path, '/');
    id.name = slash ? slash + 1 : path;
    char* folder = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    if (folder && stat(folder, &st) == 0) {
        id.folder_known = 1;
        id.folder_dev = st.st_dev;
        id.folder_ino = st.st_ino;
    }
    free(folder);
    return id;
}

static int same_entry(const FileId* a, const FileId* b)
{
    return a->folder_known && b->folder_known && a->folder_dev == b->folder_dev && a->folder_ino == b->folder_ino &&
           strcmp(a->name, b->name) == 0;
}

/* One file: both exist and are one inode, or neither exists yet and both name the same entry
 * (a folder that is missing is reported by the writability check; then the spelling decides). */
static int same_file(const FileId* a, const char* pa, const FileId* b, const char* pb)
{
    if (a->exists || b->exists)
        return a->exists && b->exists && a->dev == b->dev && a->ino == b->ino;
    if (a->folder_known && b->folder_known)
        return same_entry(a, b);
    return strcmp(pa, pb) == 0;
}

/* NAME.tmp-DIGITS beside NAME: what rs_file_remove_stale_temps deletes. */
static int temp_of(const FileId* input, const FileId* output)
{
    if (!input->folder_known || !output->folder_known || input->folder_dev != output->folder_dev ||
        input->folder_ino != output->folder_ino)
        return 0;
    size_t n = strlen(output->name);
    if (n == 0 || strncmp(input->name, output->name, n) != 0 || strncmp(input->name + n, ".tmp-", 5) != 0)
        return 0;
    const char* digits = input->name + n + 5;
    if (!*digits)
        return 0;
    for (; *digits; ++digits)
        if (*digits < '0' || *digits > '9')
            return 0;
    return 1;
}

int rs_path_same_file(const char* a, const char* b)
{
    FileId ia = file_id(a), ib = file_id(b);
    return same_file(&ia, a, &ib, b);
}

static int add(RsPathEntry** list, size_t* count, size_t* capacity, const char* path, const char* role, RsError* err)
{
    if (rs_array_reserve_raw((void**)list, capacity, *count, 1, sizeof **list, err))
        return -1;
    RsPathEntry e = {strdup(path), strdup(role)};
    if (!e.path || !e.role) {
        free(e.path);
        free(e.role);
        return rs_error_set(err, "out of memory listing the files to write");
    }
    (*list)[(*count)++] = e;
    return 0;
}

int rs_path_set_write(RsPathSet* s, const char* path, const char* role, RsError* err)
{
    return add(&s->writes, &s->write_count, &s->write_capacity, path, role, err);
}

int rs_path_set_read(RsPathSet* s, const char* path, const char* role, RsError* err)
{
    return add(&s->reads, &s->read_count, &s->read_capacity, path, role, err);
}

int rs_path_set_read_list(RsPathSet* s, const RsFileList* files, RsError* err)
{
    for (size_t i = 0; files && i < files->count; ++i)
        if (rs_path_set_read(s, files->paths[i], "file read by the scene", err))
            return -1;
    return 0;
}

int rs_path_set_check_collisions(const RsPathSet* s, RsError* err)
{
    FileId* w = calloc(s->write_count ? s->write_count : 1, sizeof *w);
    if (!w)
        return rs_error_set(err, "out of memory checking the files to write");
    for (size_t i = 0; i < s->write_count; ++i)
        w[i] = file_id(s->writes[i].path);
    int status = 0;
    for (size_t i = 0; i < s->write_count && !status; ++i)
        for (size_t j = 0; j < i && !status; ++j) {
            const RsPathEntry *a = &s->writes[j], *b = &s->writes[i];
            if (!same_file(&w[j], a->path, &w[i], b->path))
                continue;
            if (strcmp(a->path, b->path) == 0)
                status = rs_error_set(err, "the %s and the %s would both be written to '%s'; give them different paths",
                                      a->role, b->role, a->path);
            else
                status = rs_error_set(err,
                                      "the %s '%s' and the %s '%s' are the same file; give them different paths",
                                      a->role, a->path, b->role, b->path);
        }
    for (size_t r = 0; r < s->read_count && !status; ++r) {
        const RsPathEntry* in = &s->reads[r];
        FileId id = file_id(in->path);
        for (size_t i = 0; i < s->write_count && !status; ++i) {
            const RsPathEntry* out = &s->writes[i];
            if (same_file(&w[i], out->path, &id, in->path)) {
                if (strcmp(out->path, in->path) == 0)
                    status = rs_error_set(err, "the %s would overwrite the %s '%s'; give it another path", out->role,
                                          in->role, in->path);
                else
                    status = rs_error_set(err,
                                          "the %s '%s' is the %s '%s' (the same file): writing it would destroy "
                                          "the %s; give it another path",
                                          out->role, out->path, in->role, in->path, in->role);
            } else if (temp_of(&id, &w[i])) {
                status = rs_error_set(err,
                                      "the %s '%s' is named like a temporary file of the %s '%s', which raystream "
                                      "removes once its writer is gone; rename it",
                                      in->role, in->path, out->role, out->path);
            }
        }
    }
    free(w);
    return status;
}

int rs_path_set_check(const RsPathSet* s, RsError* err)
{
    for (size_t i = 0; i < s->write_count; ++i) {
        RsError why = {{0}};
        if (rs_file_check_writable(s->writes[i].path, &why))
            return rs_error_set(err, "the %s: %s", s->writes[i].role, why.message);
    }
    return rs_path_set_check_collisions(s, err);
}

void rs_path_set_free(RsPathSet* s)
{
    for (size_t i = 0; i < s->write_count; ++i) {
        free(s->writes[i].path);
        free(s->writes[i].role);
    }
    for (size_t i = 0; i < s->read_count; ++i) {
        free(s->reads[i].path);
        free(s->reads[i].role);
    }
    free(s->writes);
    free(s->reads);
    memset(s, 0, sizeof *s);
}
