/* safe_file.h - the two ways raystream touches user files:
 *   reading: only regular files, only up to a size limit, so that a path naming a FIFO, a
 *   terminal or /dev/zero is an error at once instead of a hang or a runaway allocation;
 *   writing: whole files at once, through PATH.tmp-PID, every call checked, fsync'ed, then
 *   renamed, so that a full disk or a crash never leaves a truncated file under the final name.
 *
 * Host C11 (POSIX). Images (image_io.c), checkpoints (checkpoint.c), scene files (the loader and
 * the importers of src/host/import/) and mesh files (mesh_import.c) all go through here.
 */
#ifndef RS_HOST_SAFE_FILE_H
#define RS_HOST_SAFE_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "host/util/error.h"

/* Opens `path` for reading if it is a regular file of at most max_bytes. On failure returns
 * NULL and writes the reason to why[] ("No such file or directory", "not a regular file (a
 * FIFO)", "too large: 3.0 GiB, the limit is 512 MiB"). The open never blocks. *size (may be
 * NULL) gets the file's size. */
FILE* rs_file_open_regular(const char* path, uint64_t max_bytes, uint64_t* size, char* why, size_t why_size);

/* The whole file (as rs_file_open_regular allows it) in a malloc'ed buffer with a NUL after
 * its *size bytes; NULL with the reason in why[] on failure. */
char* rs_file_read_all(const char* path, uint64_t max_bytes, size_t* size, char* why, size_t why_size);

typedef struct RsBytes {
    const void* data;
    size_t size;
} RsBytes;

/* Writes the parts, in order, as the file `path`: into PATH.tmp-PID with checked writes, fsync,
 * close, rename, then fsync of the directory; refuses (before writing anything) to replace a
 * directory, a device, a FIFO, a socket or a read-only file. On failure the message says why ("cannot write
 * 'out.png': No space left on device"), the temporary file is removed, and `path` is as it
 * was. */
int rs_file_write_atomic(const char* path, const RsBytes* parts, int count, RsError* err);

/* Fails at once if `path` could not be written: its directory missing or read-only (found by
 * creating and removing the temporary name rs_file_write_atomic would use), or `path` an
 * existing directory, device, FIFO, socket or read-only file, which rs_file_write_atomic
 * refuses to replace. */
int rs_file_check_writable(const char* path, RsError* err);

/* Removes PATH.tmp-N left behind by a raystream process N that no longer runs (killed while
 * writing). Returns how many were removed. */
int rs_file_remove_stale_temps(const char* path);

#endif /* RS_HOST_SAFE_FILE_H */
