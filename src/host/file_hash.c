/* file_hash.c - FNV-1a over a file (see file_hash.h). Host C11. */
#include "file_hash.h"

#include <stdio.h>

int rs_file_hash64(const char* path, uint64_t* hash)
{
    FILE* f = fopen(path, "rb");
    if (!f)
        return -1;
    uint64_t h = 0xcbf29ce484222325ull;
    unsigned char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        for (size_t i = 0; i < n; ++i)
            h = (h ^ buf[i]) * 0x100000001b3ull;
    int bad = ferror(f);
    fclose(f);
    if (bad)
        return -1;
    *hash = h;
    return 0;
}
