/* test_exr.c - OpenEXR files round-trip through exr_io.c (host suite). Host C11.
 *
 * 1. Float channels of three layers (RGB beauty, an XYZ layer, a one-channel Z layer) come back
 *    bit for bit, named "R", "normal.X", "depth.Z", with +inf and tiny values intact; the width
 *    and height are kept for an image whose height is not a multiple of the 16-line chunks.
 * 2. Half channels come back within half precision (relative 2^-11) and say they are half.
 * 3. A file that is not OpenEXR, a truncated one and a missing one are refused with a message
 *    naming the file.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "host/io/exr_io.h"
#include "tests/test.h"

static char dir[] = "/tmp/rs_test_exr_XXXXXX";

static void round_trip(int half)
{
    enum { W = 37, H = 21 };
    float* rgb = malloc(W * H * 3 * sizeof(float));
    float* xyz = malloc(W * H * 3 * sizeof(float));
    float* z = malloc(W * H * sizeof(float));
    for (int i = 0; i < W * H; ++i) {
        for (int c = 0; c < 3; ++c) {
            rgb[3 * i + c] = (float)(i * 3 + c) * 0.37f + 0.001f;
            xyz[3 * i + c] = -1.0f + (float)((i + c) % 7) / 3.0f;
        }
        z[i] = i % 11 == 0 ? INFINITY : 0.5f + (float)i;
    }
    rgb[5] = 1e-30f;
    RsExrLayer layers[3] = {{"", "RGB", rgb}, {"normal", "XYZ", xyz}, {"depth", "Z", z}};
    char path[256];
    snprintf(path, sizeof path, "%s/round%d.exr", dir, half);
    RsError err = {{0}};
    CHECK(rs_exr_write(path, W, H, layers, 3, half, &err) == 0, "%s", err.message);
    RsExrImage im;
    CHECK(rs_exr_read(path, &im, &err) == 0, "%s", err.message);
    CHECK(im.width == W && im.height == H, "%ux%u", im.width, im.height);
    CHECK(im.channel_count == 7, "%d channels", im.channel_count);
    CHECK(im.half == half, "half %d", im.half);
    const char* names[7] = {"R", "G", "B", "normal.X", "normal.Y", "normal.Z", "depth.Z"};
    int worst_ok = 1;
    for (int k = 0; k < 7; ++k) {
        const float* got = rs_exr_channel(&im, names[k]);
        CHECK(got != NULL, "no channel %s", names[k]);
        for (int i = 0; got && i < W * H; ++i) {
            float want = k < 3 ? rgb[3 * i + k] : (k < 6 ? xyz[3 * i + k - 3] : z[i]);
            if (half) {
                if (fabsf(want) < 6e-5f)
                    continue; /* below half's normal range */
                worst_ok &= (isinf(want) && isinf(got[i])) || fabsf(got[i] - want) <= fabsf(want) * (1.0f / 2048.0f) ||
                            (fabsf(want) > 65504.0f && isinf(got[i]));
            } else {
                worst_ok &= memcmp(&got[i], &want, sizeof want) == 0;
            }
        }
    }
    CHECK(worst_ok, "%s values did not round-trip", half ? "half" : "float");
    rs_exr_image_free(&im);
    free(rgb);
    free(xyz);
    free(z);
}

static void refuses(const char* name, const char* content, size_t size)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (content) {
        FILE* f = fopen(path, "wb");
        fwrite(content, 1, size, f);
        fclose(f);
    }
    RsExrImage im;
    RsError err = {{0}};
    CHECK(rs_exr_read(path, &im, &err) != 0, "%s was read", name);
    CHECK(strstr(err.message, name) != NULL, "the message does not name the file: %s", err.message);
    printf("test_exr: %s -> %s\n", name, err.message);
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    round_trip(0);
    round_trip(1);
    refuses("text.exr", "not an image at all", 19);
    /* the first 60 bytes of a real file */
    char path[256], head[60];
    snprintf(path, sizeof path, "%s/round0.exr", dir);
    FILE* f = fopen(path, "rb");
    size_t n = f ? fread(head, 1, sizeof head, f) : 0;
    if (f)
        fclose(f);
    refuses("truncated.exr", head, n);
    refuses("missing.exr", NULL, 0);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "test_exr: could not remove %s\n", dir);
    return rs_test_finish("test_exr");
}
