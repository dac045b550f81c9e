/* fuzz_png.c - libFuzzer harness for the PNG decoder (src/host/io/png_decode.c, libpng). Host C11.
 *
 * Input: a PNG file's bytes and one control byte at the end. With bit 0 of the control byte set,
 * the harness first rewrites every chunk's CRC to match its bytes, so that mutations get past
 * the CRC checks into libpng's chunk handlers and the deflate stream; with it clear, the file is
 * decoded as it is, CRCs and all. tests/fuzz/image_fuzz.h says what must hold.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/image_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static uint32_t crc_of(const unsigned char* p, size_t n)
{
    static uint32_t table[256];
    if (!table[1])
        for (uint32_t i = 0; i < 256; ++i) {
            uint32_t c = i;
            for (int k = 0; k < 8; ++k)
                c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
            table[i] = c;
        }
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; ++i)
        c = table[(c ^ p[i]) & 255u] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

static void fix_crcs(unsigned char* b, size_t size)
{
    for (size_t at = 8; at + 12 <= size;) {
        uint32_t len = (uint32_t)b[at] << 24 | (uint32_t)b[at + 1] << 16 | (uint32_t)b[at + 2] << 8 | b[at + 3];
        if (len > size - at - 12)
            return;
        uint32_t crc = crc_of(b + at + 4, 4 + (size_t)len);
        for (int k = 0; k < 4; ++k)
            b[at + 8 + len + (uint32_t)k] = (unsigned char)(crc >> (24 - 8 * k));
        at += 12 + (size_t)len;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size == 0)
        return 0;
    size_t n = size - 1;
    unsigned char* file = malloc(n ? n : 1);
    memcpy(file, data, n);
    if (data[n] & 1)
        fix_crcs(file, n);
    rs_fuzz_image(rs_png_decode, file, n);
    free(file);
    return 0;
}
