/* name_index.h - a hash index from names to their positions in an array of names, so that
 * looking a material up by name costs O(1) however many a scene has (a linear search made
 * loading 100k materials take 50 s).
 *
 * Host C11. The index does not own the names: it stores positions into the caller's array
 * (open addressing, linear probing, kept at most half full).
 */
#ifndef RS_HOST_NAME_INDEX_H
#define RS_HOST_NAME_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "host/util/error.h"

typedef struct RsNameIndex {
    uint32_t* slots;   /* position + 1; 0 = empty */
    uint32_t* tags;    /* the upper half of each slot's name hash: most mismatches need no strcmp */
    size_t slot_count; /* a power of two, or 0 */
    size_t used;
} RsNameIndex;

/* The position of `name` in names[], or -1. */
int32_t rs_name_index_find(const RsNameIndex* index, char* const* names, const char* name);

/* Adds names[position], which must not be in the index yet. */
int rs_name_index_add(RsNameIndex* index, char* const* names, uint32_t position, RsError* err);

void rs_name_index_free(RsNameIndex* index);

#endif /* RS_HOST_NAME_INDEX_H */
