/* fuzz_checkpoint.c - libFuzzer harness for the checkpoint reader (src/host/render/checkpoint.c).
 * Host C11.
 *
 * Input: a checkpoint file's bytes and one control byte at the end. Bit 0 of the control byte
 * makes the harness write the correct checksum into the header, so that the fuzzer gets past
 * the checksum to the end of a load; bit 1 makes the expected render the file's own (size and
 * the settings list its text holds, when that parses), so that the mismatch checks pass. A load
 * that succeeds must return a film of exactly width * height pixels (every one is read, so ASan
 * sees an overrun) and the file's settings; a load that fails must say why. Crashes, leaks, UB
 * and hangs are findings.
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
    RsImageSettings expect_settings = {0};
    uint64_t file_planes = 0, settings_bytes = 0;
    if (n >= sizeof(RsCheckpointHeader)) {
        RsCheckpointHeader h;
        memcpy(&h, file, sizeof h);
        file_planes = h.film_planes;
        settings_bytes = h.settings_bytes;
        if (control & 2) {
            expect = h;
            RsError ignored = {{0}};
            if (h.settings_bytes <= n - sizeof h &&
                rs_image_settings_parse(&expect_settings, (const char*)file + sizeof h, (size_t)h.settings_bytes,
                                        &ignored)) {
                rs_image_settings_free(&expect_settings);
                rs_image_settings_add(&expect_settings, RS_SETTING_IMAGE, "seed", "0", &ignored);
            }
        }
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
    RsImageSettings got_settings = {0};
    RsFloat4* film = NULL;
    RsError err = {{0}};
    if (rs_checkpoint_load(path, &expect, &expect_settings, &got, &got_settings, &film, &err) == 0) {
        size_t pixels = (size_t)got.width * got.height;
        if (!film || n != sizeof got + settings_bytes + pixels * file_planes * sizeof *film)
            abort(); /* a load that succeeds has exactly the film the header describes */
        volatile float sink = 0.0f;
        for (size_t i = 0; i < pixels * got.film_planes; ++i)
            sink += film[i].w;
        for (size_t i = 0; i < got_settings.count; ++i)
            sink += (float)strlen(got_settings.entries[i].name) + (float)strlen(got_settings.entries[i].value);
        (void)sink;
    } else if (err.message[0] == '\0' || film != NULL || got_settings.count != 0) {
        abort(); /* a failure says why, and hands back nothing */
    }
    free(film);
    rs_image_settings_free(&expect_settings);
    rs_image_settings_free(&got_settings);
    return 0;
}
