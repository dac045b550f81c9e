/* hash64.c - FNV-1a over memory (see hash64.h). Host C11. */
#include "host/util/hash64.h"

uint64_t rs_hash64_bytes(uint64_t h, const void* data, size_t size)
{
    const unsigned char* p = data;
    for (size_t i = 0; i < size; ++i)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}
