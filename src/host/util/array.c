/* array.c - growing arrays and aligned allocation (see array.h). Host C11. */
#include "host/util/array.h"

#include <stdlib.h>

int rs_array_reserve_raw(void** data, size_t* capacity, size_t count, size_t extra, size_t elem_size,
                         RsError* err)
{
    if (count + extra <= *capacity)
        return 0;
    size_t want = *capacity ? *capacity : 16;
    while (want < count + extra) {
        if (want > SIZE_MAX / 2 / elem_size)
            return rs_error_set(err, "out of memory: array of %zu elements of %zu bytes", count + extra, elem_size);
        want *= 2;
    }
    void* grown = realloc(*data, want * elem_size);
    if (!grown)
        return rs_error_set(err, "out of memory: could not allocate %zu bytes", want * elem_size);
    *data = grown;
    *capacity = want;
    return 0;
}

void* rs_alloc_aligned(size_t count, size_t size, size_t alignment)
{
    if (count == 0)
        count = 1;
    if (size != 0 && count > SIZE_MAX / size)
        return NULL;
    size_t bytes = count * size;
    bytes = (bytes + alignment - 1) / alignment * alignment; /* aligned_alloc wants a multiple */
    return aligned_alloc(alignment, bytes);
}
