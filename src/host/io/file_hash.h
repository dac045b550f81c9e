/* file_hash.h - the FNV-1a 64-bit hash of a file's bytes: what identifies a scene in benchmark
 * results and checkpoints. Host C11. In io/ because it reads the file through safe_file.h (a
 * regular file only); the hash itself, over memory, is host/util/hash64.h, included here. */
#ifndef RS_HOST_FILE_HASH_H
#define RS_HOST_FILE_HASH_H

#include <stdint.h>

#include "host/util/hash64.h"

/* Returns 0 and the hash, or -1 if the file cannot be read (or is not a regular file). */
int rs_file_hash64(const char* path, uint64_t* hash);

#endif /* RS_HOST_FILE_HASH_H */
