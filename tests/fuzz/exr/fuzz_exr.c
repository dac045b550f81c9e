/* fuzz_exr.c - libFuzzer harness for the OpenEXR decoder (src/host/io/exr_decode.c, OpenEXRCore).
 * Host C11. The input is the file's bytes; tests/fuzz/image_fuzz.h says what must hold. */
#include <stddef.h>
#include <stdint.h>

#include "tests/fuzz/image_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    rs_fuzz_image(rs_exr_decode, data, size);
    return 0;
}
