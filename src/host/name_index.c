/* name_index.c - open-addressing hash index of names (see name_index.h). Host C11. */
#include "name_index.h"

#include <stdlib.h>
#include <string.h>

#include "file_hash.h"

static size_t slot_of(const char* name, size_t slot_count)
{
    return (size_t)rs_hash64_bytes(RS_HASH64_SEED, name, strlen(name)) & (slot_count - 1);
}

int32_t rs_name_index_find(const RsNameIndex* index, char* const* names, const char* name)
{
    if (index->slot_count == 0)
        return -1;
    for (size_t s = slot_of(name, index->slot_count);; s = (s + 1) & (index->slot_count - 1)) {
        uint32_t entry = index->slots[s];
        if (entry == 0)
            return -1;
        if (strcmp(names[entry - 1], name) == 0)
            return (int32_t)(entry - 1);
    }
}

static void place(uint32_t* slots, size_t slot_count, char* const* names, uint32_t position)
{
    size_t s = slot_of(names[position], slot_count);
    while (slots[s] != 0)
        s = (s + 1) & (slot_count - 1);
    slots[s] = position + 1;
}

int rs_name_index_add(RsNameIndex* index, char* const* names, uint32_t position, RsError* err)
{
    if (position == UINT32_MAX)
        return rs_error_set(err, "too many names to index");
    if (2 * (index->used + 1) > index->slot_count) {
        size_t grown = index->slot_count ? 2 * index->slot_count : 64;
        uint32_t* slots = calloc(grown, sizeof *slots);
        if (!slots)
            return rs_error_set(err, "out of memory indexing %zu names", index->used + 1);
        for (size_t s = 0; s < index->slot_count; ++s)
            if (index->slots[s])
                place(slots, grown, names, index->slots[s] - 1);
        free(index->slots);
        index->slots = slots;
        index->slot_count = grown;
    }
    place(index->slots, index->slot_count, names, position);
    index->used++;
    return 0;
}

void rs_name_index_free(RsNameIndex* index)
{
    free(index->slots);
    memset(index, 0, sizeof *index);
}
