/* fuzz_jpeg.c - libFuzzer harness for the JPEG decoder (src/host/io/jpeg_decode.c, libjpeg-turbo).
 * Host C11. The input is the file's bytes; tests/fuzz/image_fuzz.h says what must hold. */
#include <stddef.h>
#include <stdint.h>

#include "tests/fuzz/image_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    rs_fuzz_image(rs_jpeg_decode, data, size);
    return 0;
}
