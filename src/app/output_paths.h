/* output_paths.h - every file a command will write, checked before any work against each other
 * and against every file the command reads, so that no output replaces an input (the scene, a
 * texture, the checkpoint being resumed) or another output (an image and its noisy or partial
 * companion, the checkpoint).
 *
 * Host C11 (POSIX), application layer: render, view and bench list what they write and read
 * and call rs_path_set_check. Files are compared by identity, not by name: an existing file by
 * its device and inode (a symlink or a hard link to the scene is the scene), a file still to be
 * created by its folder's device and inode and its name (so "x.exr", "./x.exr" and
 * "d/../x.exr" are one file).
 */
#ifndef RS_APP_OUTPUT_PATHS_H
#define RS_APP_OUTPUT_PATHS_H

#include <stddef.h>

#include "host/util/error.h"
#include "host/util/file_list.h"

typedef struct RsPathEntry {
    char* path;
    char* role; /* what the file is, as a noun phrase: "checkpoint (--checkpoint)", "scene" */
} RsPathEntry;

/* Start from RsPathSet set = {0}. */
typedef struct RsPathSet {
    RsPathEntry* writes;
    size_t write_count, write_capacity;
    RsPathEntry* reads;
    size_t read_count, read_capacity;
} RsPathSet;

/* Adds a file the command will (or may: an interrupt's partial image) write, or one it reads.
 * The strings are copied. */
int rs_path_set_write(RsPathSet* s, const char* path, const char* role, RsError* err);
int rs_path_set_read(RsPathSet* s, const char* path, const char* role, RsError* err);
/* Every file of a scene load's list, each with the role "file read by the scene". */
int rs_path_set_read_list(RsPathSet* s, const RsFileList* files, RsError* err);

/* Fails, naming the roles and the path, when a file to write cannot be written (its folder
 * missing or read-only; the path a directory, a device or a read-only file: safe_file.h), when
 * two files to write are the same file, when a file to write is a file read, or when a file
 * read is named like a temporary of a file to write (NAME.tmp-N, which raystream removes once
 * its writer is gone). */
int rs_path_set_check(const RsPathSet* s, RsError* err);
/* The same without the writability checks: for inputs learnt after those were made (the files
 * a scene read). */
int rs_path_set_check_collisions(const RsPathSet* s, RsError* err);

void rs_path_set_free(RsPathSet* s);

/* Whether two paths name the same file (as above). */
int rs_path_same_file(const char* a, const char* b);

#endif /* RS_APP_OUTPUT_PATHS_H */
