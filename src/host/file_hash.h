/* file_hash.h - FNV-1a 64-bit hash of a file's bytes: identifies a scene in benchmark results
 * and checkpoints. Not cryptographic: it tells versions of a file apart. Host C11. */
#ifndef RS_HOST_FILE_HASH_H
#define RS_HOST_FILE_HASH_H

#include <stdint.h>

/* Returns 0 and the hash, or -1 if the file cannot be read. */
int rs_file_hash64(const char* path, uint64_t* hash);

#endif /* RS_HOST_FILE_HASH_H */
