/* image_fuzz.h - what the image decoders' libFuzzer harnesses (tests/fuzz/{png,jpeg,hdr,exr})
 * ask of any input. Host C11.
 *
 * A decode either succeeds with an image of the size it reports, every pixel of which is read
 * here (so ASan sees an overrun of the buffer, and valgrind, replaying a corpus, a pixel left
 * uninitialised: the sum decides a branch), or fails with a message. The budget is smaller than
 * raystream's (2048 x 2048, 64 MiB) so that the fuzzer spends its time on the decoders' logic,
 * not on filling large images. Crashes, leaks, UB and hangs are findings.
 */
#ifndef RS_TESTS_IMAGE_FUZZ_H
#define RS_TESTS_IMAGE_FUZZ_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/io/image_decode.h"

typedef int (*RsImageDecoder)(const unsigned char*, size_t, const RsImageLimits*, RsImage*, RsError*);

static volatile unsigned rs_fuzz_sink;

static void rs_fuzz_image(RsImageDecoder decode, const unsigned char* data, size_t size)
{
    const RsImageLimits limits = {2048, 2048, 64ull << 20};
    RsImage image;
    RsError err = {{0}};
    if (decode(data, size, &limits, &image, &err) != 0) {
        if (err.message[0] == '\0' || image.rgba8 || image.rgbaf || image.width) {
            fprintf(stderr, "a failed decode left an image or gave no message\n");
            abort();
        }
        return;
    }
    if (image.width == 0 || image.height == 0 || image.width > limits.max_width ||
        image.height > limits.max_height || (!image.rgba8 == !image.rgbaf) || image.channels < 1 ||
        image.channels > 4) {
        fprintf(stderr, "a decoded image breaks its contract: %ux%u\n", image.width, image.height);
        abort();
    }
    unsigned sum = 0;
    size_t n = (size_t)image.width * image.height;
    if (image.rgba8) {
        for (size_t i = 0; i < 4 * n; ++i)
            sum = sum * 31u + image.rgba8[i];
    } else {
        for (size_t i = 0; i < n; ++i) {
            unsigned bits[4];
            memcpy(bits, &image.rgbaf[i], sizeof bits);
            sum = sum * 31u + bits[0] + bits[1] + bits[2] + bits[3];
        }
    }
    if (sum == 0x5eed1234u) /* a branch on every pixel: valgrind flags uninitialised ones */
        ++rs_fuzz_sink;
    rs_image_free(&image);
}

#endif /* RS_TESTS_IMAGE_FUZZ_H */
