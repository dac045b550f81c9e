/* ply_header.h - checking a PLY file's header before assimp reads it.
 *
 * Host C11. assimp 5.2 (Debian 12) loops forever on some headers that never end, and it
 * allocates for the element counts a header declares before it reads any data: a 244-byte
 * file declaring 100M vertices cost 1.1 GiB. So a PLY file must start with "ply", end its
 * header with end_header within its first 64 KiB, and declare no more elements than its data
 * can hold (each element takes at least the bytes of its properties in binary files, two
 * characters per property in ASCII files).
 */
#ifndef RS_HOST_PLY_HEADER_H
#define RS_HOST_PLY_HEADER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Reads the start of `f` (a file of `file_size` bytes). Returns 0 if the header is sound, or -1
 * with the problem in why[]. */
int rs_ply_header_check(FILE* f, uint64_t file_size, char* why, size_t why_size);

#endif /* RS_HOST_PLY_HEADER_H */
