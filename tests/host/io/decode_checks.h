/* decode_checks.h - what every image decoder's test asks of a file: it decodes, or it fails with
 * a given message, at once, leaving no image behind; and every prefix of a valid file (a
 * truncated copy) fails. Shared by test_decode_png_jpeg.c and test_decode_hdr_exr.c. Host C11. */
#ifndef RS_TESTS_DECODE_CHECKS_H
#define RS_TESTS_DECODE_CHECKS_H

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "host/io/image_decode.h"
#include "tests/test.h"

/* Textures' budget, and environment maps'. */
static const RsImageLimits rs_texture_limits = {16384, 16384, 1ull << 30};
static const RsImageLimits rs_env_limits = {16384, 8192, 2ull << 30};

/* A growing byte buffer for the writers the tests use. */
typedef struct Bytes {
    unsigned char* data;
    size_t size, capacity;
} Bytes;

static void bytes_put(Bytes* b, const void* data, size_t n)
{
    if (b->size + n > b->capacity) {
        b->capacity = (b->size + n) * 2 + 64;
        b->data = realloc(b->data, b->capacity);
    }
    memcpy(b->data + b->size, data, n);
    b->size += n;
}

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Sanitizer builds (tools/reliability.sh) run several times slower, and CI shares two cores: the
 * time bounds below guard against a decoder that takes seconds (the old decoder's cost), not
 * against a slow machine, so they stretch there. */
#if defined(__SANITIZE_ADDRESS__)
#define DECODE_TIME_SCALE 20.0
#else
#define DECODE_TIME_SCALE 4.0
#endif

/* Decodes bytes that must fail with `expected` in the message, within `max_seconds` (scaled). */
static void expect_refused(const char* label, const unsigned char* bytes, size_t size, const RsImageLimits* limits,
                           const char* expected, double max_seconds)
{
    RsImage image;
    RsError err = {{0}};
    double start = seconds_now();
    int status = rs_image_decode(bytes, size, limits, &image, &err);
    double took = seconds_now() - start;
    CHECK(status != 0, "%s: decoded as %ux%u", label, image.width, image.height);
    CHECK(status == 0 || (image.rgba8 == NULL && image.rgbaf == NULL && image.width == 0), "%s: an image was left",
          label);
    CHECK(status == 0 || strstr(err.message, expected) != NULL, "%s: message '%s' lacks '%s'", label, err.message,
          expected);
    CHECK(took <= max_seconds * DECODE_TIME_SCALE, "%s: refused after %.3f s", label, took);
    if (status == 0)
        rs_image_free(&image);
}

/* Every proper prefix of a valid file must fail to decode; returns how many did not. */
static int check_every_prefix(const char* label, const unsigned char* bytes, size_t size, const RsImageLimits* limits)
{
    int decoded = 0;
    for (size_t n = 0; n < size; ++n) {
        RsImage image;
        RsError err = {{0}};
        if (rs_image_decode(bytes, n, limits, &image, &err) == 0) {
            if (decoded == 0)
                fprintf(stderr, "%s: the first %zu of %zu bytes decode\n", label, n, size);
            ++decoded;
            rs_image_free(&image);
        } else if (err.message[0] == '\0') {
            fprintf(stderr, "%s: the first %zu bytes fail without a message\n", label, n);
            ++decoded;
        }
    }
    CHECK(decoded == 0, "%s: %d of %zu truncated copies decode or fail silently", label, decoded, size);
    return decoded;
}

/* Decodes bytes that must succeed; 0 on success, with *image filled. */
static int expect_decoded(const char* label, const unsigned char* bytes, size_t size, const RsImageLimits* limits,
                          RsImage* image)
{
    RsError err = {{0}};
    int status = rs_image_decode(bytes, size, limits, image, &err);
    CHECK(status == 0, "%s: %s", label, err.message);
    return status;
}

#endif /* RS_TESTS_DECODE_CHECKS_H */
