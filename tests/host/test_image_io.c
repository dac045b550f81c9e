/* test_image_io.c - image files (host suite): PFM and HDR round-trip the linear values, PNG
 * holds the tone-mapped sRGB bytes, tone curves behave, unwritable paths fail early with a
 * message, and no temporary file is left behind. Host C11. */
#define _POSIX_C_SOURCE 200809L
#include <stb_image.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/host/image_io.h"
#include "../test.h"

enum { W = 7, H = 5 };

static void fill(float* rgb)
{
    for (int i = 0; i < W * H; ++i) {
        rgb[3 * i + 0] = 0.1f * (float)(i % W);
        rgb[3 * i + 1] = 0.2f * (float)(i / W);
        rgb[3 * i + 2] = i == 3 ? 7.5f : 0.25f;
    }
}

static void test_roundtrip(const char* dir)
{
    float rgb[W * H * 3];
    fill(rgb);
    RsToneMap tm = {0.0f, RS_TONE_CLAMP};
    RsError err = {{0}};
    char path[512];

    snprintf(path, sizeof path, "%s/a.pfm", dir);
    CHECK(rs_image_write(path, W, H, rgb, &tm, &err) == 0, "%s", err.message);
    FILE* f = fopen(path, "rb");
    CHECK(f != NULL, "no PFM written");
    if (f) {
        char magic[3] = {0};
        unsigned w = 0, h = 0;
        float scale = 0.0f;
        CHECK(fscanf(f, "%2s %u %u %f", magic, &w, &h, &scale) == 4 && strcmp(magic, "PF") == 0 && w == W && h == H &&
                  scale < 0.0f,
              "PFM header");
        fgetc(f);
        float back[W * H * 3];
        CHECK(fread(back, sizeof(float), W * H * 3, f) == W * H * 3, "PFM data");
        fclose(f);
        /* PFM stores rows bottom-up */
        int same = 1;
        for (int y = 0; y < H; ++y)
            same &= memcmp(back + (H - 1 - y) * W * 3, rgb + y * W * 3, W * 3 * sizeof(float)) == 0;
        CHECK(same, "PFM values differ");
    }

    snprintf(path, sizeof path, "%s/a.hdr", dir);
    CHECK(rs_image_write(path, W, H, rgb, &tm, &err) == 0, "%s", err.message);
    int w, h, n;
    float* hdr = stbi_loadf(path, &w, &h, &n, 3);
    CHECK(hdr && w == W && h == H, "HDR not readable");
    if (hdr) {
        /* RGBE: 8-bit mantissas under one shared exponent, so the error scales with the pixel's
         * largest component */
        for (int i = 0; i < W * H * 3; ++i) {
            const float* px = rgb + i / 3 * 3;
            float biggest = px[0] > px[1] ? (px[0] > px[2] ? px[0] : px[2]) : (px[1] > px[2] ? px[1] : px[2]);
            CHECK_NEAR(hdr[i], rgb[i], biggest / 128.0);
        }
        stbi_image_free(hdr);
    }

    snprintf(path, sizeof path, "%s/a.png", dir);
    tm.exposure = 1.0f;
    CHECK(rs_image_write(path, W, H, rgb, &tm, &err) == 0, "%s", err.message);
    unsigned char* png = stbi_load(path, &w, &h, &n, 3);
    CHECK(png && w == W && h == H, "PNG not readable");
    if (png) {
        for (int i = 0; i < W * H; ++i) {
            uint8_t expected[3];
            rs_tonemap_pixel(&tm, rgb + 3 * i, expected);
            CHECK(memcmp(png + 3 * i, expected, 3) == 0, "PNG pixel %d", i);
        }
        stbi_image_free(png);
    }
    /* nothing but the three images in the folder: temporary files were renamed away */
    char cmd[600];
    snprintf(cmd, sizeof cmd, "test $(ls '%s' | wc -l) -eq 3", dir);
    CHECK(system(cmd) == 0, "temporary files left in %s", dir);
}

static void test_tonemap(void)
{
    RsToneMap tm = {0.0f, RS_TONE_CLAMP};
    uint8_t out[3];
    float black[3] = {0, 0, 0}, mid[3] = {0.2159f, 0.2159f, 0.2159f}, hot[3] = {50, 50, 50}, nan[3] = {NAN, 1, 1};
    rs_tonemap_pixel(&tm, black, out);
    CHECK(out[0] == 0, "black -> %u", out[0]);
    rs_tonemap_pixel(&tm, mid, out);
    CHECK(out[0] == 128, "linear 0.2159 is sRGB 128, got %u", out[0]);
    rs_tonemap_pixel(&tm, hot, out);
    CHECK(out[0] == 255, "clamp saturates");
    rs_tonemap_pixel(&tm, nan, out);
    CHECK(out[0] == 0 && out[1] == 255, "NaN must show black, got %u", out[0]);
    tm.curve = RS_TONE_REINHARD;
    rs_tonemap_pixel(&tm, hot, out);
    CHECK(out[0] < 255 && out[0] > 240, "reinhard compresses highlights: %u", out[0]);
    tm.curve = RS_TONE_ACES;
    rs_tonemap_pixel(&tm, mid, out);
    CHECK(out[0] > 100 && out[0] < 160, "aces mid grey: %u", out[0]);
    tm.curve = RS_TONE_CLAMP;
    tm.exposure = -1.0f;
    float twice_mid[3] = {0.4318f, 0.4318f, 0.4318f};
    rs_tonemap_pixel(&tm, twice_mid, out);
    CHECK(out[0] == 128, "-1 stop halves: got %u", out[0]);
}

static void test_errors(void)
{
    RsError err = {{0}};
    CHECK(rs_image_check_writable("/nonexistent-dir/x.png", &err) != 0 && strstr(err.message, "cannot write"),
          "unwritable path accepted: %s", err.message);
    rs_error_clear(&err);
    CHECK(rs_image_check_writable("out.jpg", &err) != 0 && strstr(err.message, "unsupported image format"),
          "jpg accepted: %s", err.message);
    rs_error_clear(&err);
    CHECK(rs_image_check_writable("out", &err) != 0 && strstr(err.message, "no file extension"), "%s", err.message);
}

int main(void)
{
    char dir[] = "/tmp/raystream-image-XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    test_roundtrip(dir);
    test_tonemap();
    test_errors();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    (void)system(cmd);
    return rs_test_finish("test_image_io");
}
