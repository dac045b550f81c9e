/* hash64.h - FNV-1a 64-bit hashing of memory: the checkpoint checksum, and the start of the
 * name index's hash. Not cryptographic: it tells versions apart and catches damage. Host C11.
 * The hash of a file's bytes, which reads the file, is host/io/file_hash.h. */
#ifndef RS_HOST_HASH64_H
#define RS_HOST_HASH64_H

#include <stddef.h>
#include <stdint.h>

#define RS_HASH64_SEED 0xcbf29ce484222325ull

/* Continues hash `h` over `size` bytes (start with RS_HASH64_SEED). */
uint64_t rs_hash64_bytes(uint64_t h, const void* data, size_t size);

#endif /* RS_HOST_HASH64_H */
