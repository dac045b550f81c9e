/* array.h - growing arrays for the scene builder and the BVH builder. Host C11.
 *
 *   RS_ARRAY(RsPrim) prims = {0};
 *   if (rs_array_push(&prims, prim, err)) return -1;
 *
 * Growth doubles the capacity; an allocation failure is an error, never a crash.
 */
#ifndef RS_HOST_ARRAY_H
#define RS_HOST_ARRAY_H

#include <stddef.h>
#include <stdint.h>

#include "host/util/error.h"

#define RS_ARRAY(type)      \
    struct {                \
        type* data;         \
        size_t count, capacity; \
    }

/* Makes room for `extra` more elements. */
int rs_array_reserve_raw(void** data, size_t* capacity, size_t count, size_t extra, size_t elem_size,
                         RsError* err);

#define rs_array_reserve(arr, extra, err) \
    rs_array_reserve_raw((void**)&(arr)->data, &(arr)->capacity, (arr)->count, (extra), sizeof(*(arr)->data), (err))

#define rs_array_push(arr, value, err) \
    (rs_array_reserve((arr), 1, (err)) ? -1 : ((arr)->data[(arr)->count++] = (value), 0))

#define rs_array_free(arr)       \
    do {                         \
        free((arr)->data);       \
        (arr)->data = NULL;      \
        (arr)->count = (arr)->capacity = 0; \
    } while (0)

/* 16-byte (or larger) aligned allocation of count * size bytes, with overflow check; NULL on
 * failure. Every RayState array comes from here so 128-bit loads are always legal. */
void* rs_alloc_aligned(size_t count, size_t size, size_t alignment);

#endif /* RS_HOST_ARRAY_H */
