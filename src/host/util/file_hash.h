/* file_hash.h - FNV-1a 64-bit hashes: of a file's bytes (identifies a scene in benchmark
 * results and checkpoints) and of memory (the checkpoint checksum). Not cryptographic: it tells
 * versions of a file apart and catches damage. Host C11. */
#ifndef RS_HOST_FILE_HASH_H
#define RS_HOST_FILE_HASH_H

#include <stddef.h>
#include <stdint.h>

#define RS_HASH64_SEED 0xcbf29ce484222325ull

/* Continues hash `h` over `size` bytes (start with RS_HASH64_SEED). */
uint64_t rs_hash64_bytes(uint64_t h, const void* data, size_t size);

/* Returns 0 and the hash, or -1 if the file cannot be read (or is not a regular file). */
int rs_file_hash64(const char* path, uint64_t* hash);

#endif /* RS_HOST_FILE_HASH_H */
