/* name_index.c - open-addressing hash index of names (see name_index.h). Host C11. */
#include "host/util/name_index.h"

#include <stdlib.h>
#include <string.h>

#include "host/util/hash64.h"

/* FNV-1a, then a 64-bit finalizer (MurmurHash3's fmix64): FNV's low bits alone cluster for
 * names that differ in a digit or two ("m1", "m2", ...), and the slot comes from the low bits. */
static uint64_t hash_of(const char* name)
{
    uint64_t h = rs_hash64_bytes(RS_HASH64_SEED, name, strlen(name));
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 33);
}

int32_t rs_name_index_find(const RsNameIndex* index, char* const* names, const char* name)
{
    if (index->slot_count == 0)
        return -1;
    uint64_t h = hash_of(name);
    uint32_t tag = (uint32_t)(h >> 32);
    for (size_t s = (size_t)h & (index->slot_count - 1);; s = (s + 1) & (index->slot_count - 1)) {
        uint32_t entry = index->slots[s];
        if (entry == 0)
            return -1;
        if (index->tags[s] == tag && strcmp(names[entry - 1], name) == 0)
            return (int32_t)(entry - 1);
    }
}

static void place(RsNameIndex* index, char* const* names, uint32_t position)
{
    uint64_t h = hash_of(names[position]);
    size_t s = (size_t)h & (index->slot_count - 1);
    while (index->slots[s] != 0)
        s = (s + 1) & (index->slot_count - 1);
    index->slots[s] = position + 1;
    index->tags[s] = (uint32_t)(h >> 32);
}

int rs_name_index_add(RsNameIndex* index, char* const* names, uint32_t position, RsError* err)
{
    if (position == UINT32_MAX)
        return rs_error_set(err, "too many names to index");
    if (2 * (index->used + 1) > index->slot_count) {
        RsNameIndex grown = {NULL, NULL, index->slot_count ? 2 * index->slot_count : 64, index->used};
        grown.slots = calloc(grown.slot_count, sizeof *grown.slots);
        grown.tags = malloc(grown.slot_count * sizeof *grown.tags);
        if (!grown.slots || !grown.tags) {
            free(grown.slots);
            free(grown.tags);
            return rs_error_set(err, "out of memory indexing %zu names", index->used + 1);
        }
        for (size_t s = 0; s < index->slot_count; ++s)
            if (index->slots[s])
                place(&grown, names, index->slots[s] - 1);
        free(index->slots);
        free(index->tags);
        *index = grown;
    }
    place(index, names, position);
    index->used++;
    return 0;
}

void rs_name_index_free(RsNameIndex* index)
{
    free(index->slots);
    free(index->tags);
    memset(index, 0, sizeof *index);
}
