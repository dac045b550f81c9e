/* file_hash.c - FNV-1a over a file's bytes (see file_hash.h). Host C11. */
#include "host/io/file_hash.h"

#include <stdio.h>

#include "host/io/safe_file.h"

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
