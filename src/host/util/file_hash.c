/* file_hash.c - FNV-1a over memory and over a file (see file_hash.h). Host C11. */
#include "host/util/file_hash.h"

#include <stdio.h>

#include "host/io/safe_file.h"

uint64_t rs_hash64_bytes(uint64_t h, const void* data, size_t size)
{
    const unsigned char* p = data;
    for (size_t i = 0; i < size; ++i)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

int rs_file_hash64(const char* path, uint64_t* hash)
{
    char why[128];
    FILE* f = rs_file_open_regular(path, UINT64_MAX, NULL, why, sizeof why);
    if (!f)
        return -1;
    uint64_t h = RS_HASH64_SEED;
    unsigned char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        h = rs_hash64_bytes(h, buf, n);
    int bad = ferror(f);
    fclose(f);
    if (bad)
        return -1;
    *hash = h;
    return 0;
}
