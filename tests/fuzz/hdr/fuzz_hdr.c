/* fuzz_hdr.c - libFuzzer harness for the Radiance .hdr reader (src/host/io/hdr_decode.c).
 * Host C11. The input is the file's bytes; tests/fuzz/image_fuzz.h says what must hold. */
#include <stddef.h>
#include <stdint.h>

#include "tests/fuzz/image_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    rs_fuzz_image(rs_hdr_decode, data, size);
    return 0;
}
