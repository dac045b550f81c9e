/* fuzz_checkpoint.c - libFuzzer harness for the checkpoint reader (src/host/render/checkpoint.c).
 * Host C11.
 *
 * Input: a checkpoint file's bytes and one control byte at the end. Bit 0 of the control byte
 * makes the harness write the correct checksum into the header, so that the fuzzer gets past
 * the checksum to the end of a load; bit 1 makes the expected render the file's own (width,
 * height, seed, depth, integrator, scene hash), so that the mismatch checks pass. A load that
 * succeeds must return a film of exactly width * height pixels (every one is read, so ASan
 * sees an overrun); a load that fails must say why. Crashes, leaks, UB and hangs are findings.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/render/checkpoint.h"
#include "host/util/hash64.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static char path[64];
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/raystream-fuzz-ck-%ld", (long)getpid());
    if (size == 0)
        return 0;
    uint8_t control = data[size - 1];
    size_t n = size - 1;
    uint8_t* file = malloc(n ? n : 1);
    if (n)
        memcpy(file, data, n);
    RsCheckpointHeader expect;
    rs_checkpoint_header_init(&expect);
    expect.width = expect.height = 4;
    if (n >= sizeof(RsCheckpointHeader)) {
        RsCheckpointHeader h;
        memcpy(&h, file, sizeof h);
        if (control & 2)
            expect = h;
        if (control & 1) { /* the checksum the writer would have stored over these bytes */
            h.checksum = 0;
            uint64_t sum = rs_hash64_bytes(RS_HASH64_SEED, &h, sizeof h);
            h.checksum = rs_hash64_bytes(sum, file + sizeof h, n - sizeof h);
            memcpy(file, &h, sizeof h);
        }
    }
    FILE* f = fopen(path, "wb");
    if (!f || (n && fwrite(file, 1, n, f) != n) || fclose(f) != 0)
        abort();
    free(file);
    RsCheckpointHeader got;
    RsFloat4* film = NULL;
    RsError err = {{0}};
    if (rs_checkpoint_load(path, &expect, &got, &film, &err) == 0) {
        size_t pixels = (size_t)got.width * got.height;
        if (!film || n != sizeof got + pixels * sizeof *film)
            abort(); /* a load that succeeds has exactly the film the header describes */
        volatile float sink = 0.0f;
        for (size_t i = 0; i < pixels; ++i)
            sink += film[i].w;
        (void)sink;
    } else if (err.message[0] == '\0' || film != NULL) {
        abort(); /* a failure says why, and hands back nothing */
    }
    free(film);
    return 0;
}
