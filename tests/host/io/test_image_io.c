/* test_image_io.c - image files (host suite): PFM and HDR round-trip the linear values, PNG
 * holds the tone-mapped sRGB bytes, tone curves behave, unwritable paths fail early with a
 * message, and no temporary file is left behind; a write that runs out of room (a file size
 * limit, as a full disk) fails in every format and leaves no file, not even a truncated one;
 * rs_image_read gives back what was written (PFM in both byte orders and grey, EXR with its
 * variance layer) and refuses damaged files. Host C11. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <string.h>
#include <unistd.h>

#include "host/backend/cpu/display_cpu.h"
#include "host/io/exr_io.h"
#include "host/io/image_decode.h"
#include "host/io/image_io.h"
#include "host/io/image_read.h"
#include "host/io/safe_file.h"
#include "tests/test.h"

enum { W = 7, H = 5 };

static void fill(float* rgb)
{
    for (int i = 0; i < W * H; ++i) {
        rgb[3 * i + 0] = 0.1f * (float)(i % W);
        rgb[3 * i + 1] = 0.2f * (float)(i / W);
        rgb[3 * i + 2] = i == 3 ? 7.5f : 0.25f;
    }
}

/* A file written by rs_image_write, read back by raystream's own decoders; 0 on success. */
static int read_back(const char* path, RsImage* image)
{
    char why[256];
    size_t size = 0;
    unsigned char* bytes = (unsigned char*)rs_file_read_all(path, 1 << 20, &size, why, sizeof why);
    const RsImageLimits limits = {64, 64, 1 << 20};
    RsError err = {{0}};
    int status = bytes ? rs_image_decode(bytes, size, &limits, image, &err) : -1;
    CHECK(status == 0, "%s: %s", path, bytes ? err.message : why);
    free(bytes);
    return status;
}

static void test_roundtrip(const char* dir)
{
    float rgb[W * H * 3];
    uint8_t rgba[W * H * 4];
    fill(rgb);
    for (int i = 0; i < W * H; ++i) {
        rs_tonemap_rgb(rs_vec3(rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]), 2.0f, RS_TONE_CLAMP, rgba + 4 * i);
        rgba[4 * i + 3] = 255;
    }
    RsError err = {{0}};
    char path[512];

    snprintf(path, sizeof path, "%s/a.pfm", dir);
    CHECK(rs_image_write(path, W, H, rgb, rgba, &err) == 0, "%s", err.message);
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
    CHECK(rs_image_write(path, W, H, rgb, rgba, &err) == 0, "%s", err.message);
    RsImage hdr;
    if (read_back(path, &hdr) == 0) {
        CHECK(hdr.rgbaf && hdr.width == W && hdr.height == H, "HDR read back as %ux%u", hdr.width, hdr.height);
        /* RGBE: 8-bit mantissas under one shared exponent, so the error scales with the pixel's
         * largest component */
        for (int i = 0; hdr.rgbaf && i < W * H * 3; ++i) {
            const float* px = rgb + i / 3 * 3;
            float biggest = px[0] > px[1] ? (px[0] > px[2] ? px[0] : px[2]) : (px[1] > px[2] ? px[1] : px[2]);
            RsFloat4 t = hdr.rgbaf[i / 3];
            CHECK_NEAR(i % 3 == 0 ? t.x : i % 3 == 1 ? t.y : t.z, rgb[i], biggest / 128.0);
        }
        rs_image_free(&hdr);
    }

    snprintf(path, sizeof path, "%s/a.png", dir);
    CHECK(rs_image_write(path, W, H, rgb, rgba, &err) == 0, "%s", err.message);
    RsImage png;
    if (read_back(path, &png) == 0) {
        CHECK(png.rgba8 && png.width == W && png.height == H, "PNG read back as %ux%u", png.width, png.height);
        CHECK(png.rgba8 && memcmp(png.rgba8, rgba, sizeof rgba) == 0, "PNG bytes differ from what was written");
        rs_image_free(&png);
    }
    /* nothing but the three images in the folder: temporary files were renamed away */
    char cmd[600];
    snprintf(cmd, sizeof cmd, "test $(ls '%s' | wc -l) -eq 3", dir);
    CHECK(system(cmd) == 0, "temporary files left in %s", dir);
}

static uint8_t tone(float v, float ev, uint32_t curve)
{
    uint8_t out[3];
    rs_tonemap_rgb(rs_vec3_splat(v), exp2f(ev), curve, out);
    return out[0];
}

static void test_tonemap(void)
{
    CHECK(tone(0.0f, 0, RS_TONE_CLAMP) == 0, "black");
    CHECK(tone(0.2159f, 0, RS_TONE_CLAMP) == 128, "linear 0.2159 is sRGB 128, got %u", tone(0.2159f, 0, RS_TONE_CLAMP));
    CHECK(tone(50.0f, 0, RS_TONE_CLAMP) == 255, "clamp saturates");
    CHECK(tone(0.4318f, -1.0f, RS_TONE_CLAMP) == 128, "-1 stop halves");
    uint8_t r = tone(50.0f, 0, RS_TONE_REINHARD);
    CHECK(r < 255 && r > 240, "reinhard compresses highlights: %u", r);
    uint8_t a = tone(0.2159f, 0, RS_TONE_ACES);
    CHECK(a > 100 && a < 160, "aces mid grey: %u", a);
    RsFloat4 nan_pixel = rs_float4(NAN, 1, 1, 1);
    RsVec3 shown = rs_film_pixel(nan_pixel);
    CHECK(shown.x == 0.0f && shown.y == 0.0f, "a NaN pixel must show black");
}

/* The host display pipeline against direct computations on random films. */
static void test_display_stats(void)
{
    for (uint32_t n = 1; n < 5000; n = n * 3 + 7) {
        RsFloat4* film = malloc(n * sizeof *film);
        double sum_log = 0.0;
        float mx = 0.0f;
        uint32_t count = 0, lit = 0, hist[RS_HIST_BINS] = {0};
        srand(n);
        for (uint32_t i = 0; i < n; ++i) {
            float w = (float)(rand() % 4); /* some pixels without samples */
            float l = rand() % 5 == 0 ? 0.0f : (float)rand() / RAND_MAX * 8.0f; /* and some black ones */
            film[i] = rs_float4(l * w, 0.5f * l * w, 2.0f * l * w, w);
            if (w > 0.0f) {
                float lum = rs_luminance(rs_film_pixel(film[i])); /* the division by w included */
                if (lum > 0.0f) {
                    sum_log += log(RS_LOG_DELTA + (double)lum);
                    lit++;
                }
                mx = lum > mx ? lum : mx;
                count++;
                int bin = lum > 0 ? (int)((log2(lum) + 12.0) * 4.0) : 0;
                hist[bin < 0 ? 0 : (bin > 63 ? 63 : bin)]++;
            }
        }
        RsDisplayStats st;
        rs_display_stats_cpu(film, n, &st);
        CHECK(st.pixels == count, "n=%u: %u pixels with samples, expected %u", n, st.pixels, count);
        if (lit)
            CHECK_NEAR(st.log_average, exp(sum_log / lit), 1e-6 * exp(sum_log / lit));
        CHECK(st.max_luminance == mx, "n=%u: max %g vs %g", n, st.max_luminance, mx);
        CHECK(memcmp(st.histogram, hist, sizeof hist) == 0, "n=%u: histogram differs", n);
        RsDisplaySettings ds = {.exposure = 0.5f, .auto_exposure = 1, .curve = RS_TONE_CLAMP};
        if (count)
            CHECK_NEAR(rs_display_exposure(&ds, &st), 0.5 + log2(0.18 / st.log_average), 1e-5);
        free(film);
    }
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

/* Under RLIMIT_FSIZE (with SIGXFSZ ignored, as raystream's main does) writes past the limit fail
 * with EFBIG, as they would with ENOSPC on a full disk. */
static void test_full_disk(const char* dir)
{
    enum { BW = 256, BH = 256 };
    float* rgb = malloc(sizeof(float) * BW * BH * 3);
    uint8_t* rgba = malloc((size_t)BW * BH * 4);
    for (int i = 0; i < BW * BH * 3; ++i)
        rgb[i] = (float)((i * 7919) % 1000) / 997.0f; /* noise: no format compresses it below 4 KiB */
    for (int i = 0; i < BW * BH * 4; ++i)
        rgba[i] = (uint8_t)((i * 7919) >> 3);
    struct rlimit old, small = {4096, 4096};
    getrlimit(RLIMIT_FSIZE, &old);
    signal(SIGXFSZ, SIG_IGN);
    small.rlim_max = old.rlim_max;
    CHECK(setrlimit(RLIMIT_FSIZE, &small) == 0, "setrlimit");
    const char* names[] = {"full.png", "full.hdr", "full.pfm"};
    for (int i = 0; i < 3; ++i) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        RsError err = {{0}};
        int status = rs_image_write(path, BW, BH, rgb, rgba, &err);
        CHECK(status != 0 && strstr(err.message, "cannot write") && strstr(err.message, "File too large"),
              "%s past the file size limit: status %d, '%s'", names[i], status, err.message);
        CHECK(access(path, F_OK) != 0, "%s exists after a failed write", path);
    }
    setrlimit(RLIMIT_FSIZE, &old);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "test -z \"$(ls '%s' | grep full)\"", dir);
    CHECK(system(cmd) == 0, "temporary files of failed writes left in %s", dir);
    free(rgb);
    free(rgba);
}

static void write_bytes(const char* path, const void* data, size_t size)
{
    FILE* f = fopen(path, "wb");
    CHECK(f && fwrite(data, 1, size, f) == size, "cannot write %s", path);
    if (f)
        fclose(f);
}

static void test_read(const char* dir)
{
    float rgb[W * H * 3], var[W * H * 3];
    fill(rgb);
    for (int i = 0; i < W * H * 3; ++i)
        var[i] = 0.001f * (float)i;
    RsError err = {{0}};
    char path[512];
    RsRgbImage im;
    snprintf(path, sizeof path, "%s/r.pfm", dir);
    CHECK(rs_image_write(path, W, H, rgb, NULL, &err) == 0, "%s", err.message);
    CHECK(rs_image_read(path, &im, &err) == 0 && im.width == W && im.height == H && !im.variance &&
              memcmp(im.rgb, rgb, sizeof rgb) == 0,
          "PFM read back differs: %s", err.message);
    rs_rgb_image_free(&im);

    /* big-endian (positive scale), grey, rows bottom first */
    unsigned char be[64 + 2 * 3 * 4];
    int n = snprintf((char*)be, 64, "Pf\n2 3\n1.0\n");
    for (int i = 0; i < 6; ++i) {
        float v = (float)i + 0.5f;
        unsigned char b[4];
        memcpy(b, &v, 4);
        for (int k = 0; k < 4; ++k)
            be[n + 4 * i + k] = b[3 - k]; /* this test runs on little-endian hosts */
    }
    snprintf(path, sizeof path, "%s/grey.pfm", dir);
    write_bytes(path, be, (size_t)n + 24);
    CHECK(rs_image_read(path, &im, &err) == 0 && im.width == 2 && im.height == 3, "grey PFM: %s", err.message);
    if (im.rgb)
        CHECK(im.rgb[0] == 4.5f && im.rgb[2] == 4.5f && im.rgb[3 * 5] == 1.5f, "grey PFM values %g %g", im.rgb[0],
              im.rgb[3 * 5]);
    rs_rgb_image_free(&im);

    /* cut short, wrong magic, a size over the limit: refused, naming the file */
    write_bytes(path, be, (size_t)n + 10);
    rs_error_clear(&err);
    CHECK(rs_image_read(path, &im, &err) != 0 && strstr(err.message, "grey.pfm") && strstr(err.message, "bytes"),
          "truncated PFM: '%s'", err.message);
    write_bytes(path, "P6\n2 2\n255\n", 11);
    rs_error_clear(&err);
    CHECK(rs_image_read(path, &im, &err) != 0 && strstr(err.message, "not a PFM"), "bad magic: '%s'", err.message);
    write_bytes(path, "PF\n99999 2\n-1\n", 14);
    rs_error_clear(&err);
    CHECK(rs_image_read(path, &im, &err) != 0 && strstr(err.message, "size"), "huge PFM: '%s'", err.message);

    /* EXR with a variance layer */
    RsExrLayer layers[2] = {{"", "RGB", rgb}, {"variance", "RGB", var}};
    snprintf(path, sizeof path, "%s/v.exr", dir);
    rs_error_clear(&err);
    CHECK(rs_exr_write(path, W, H, layers, 2, 0, &err) == 0, "%s", err.message);
    CHECK(rs_image_read(path, &im, &err) == 0 && im.variance && memcmp(im.rgb, rgb, sizeof rgb) == 0 &&
              memcmp(im.variance, var, sizeof var) == 0,
          "EXR read back differs: %s", err.message);
    rs_rgb_image_free(&im);
    snprintf(path, sizeof path, "%s/v.png", dir);
    rs_error_clear(&err);
    CHECK(rs_image_read(path, &im, &err) != 0 && strstr(err.message, ".pfm or .exr"), "png: '%s'", err.message);
}

int main(void)
{
    char dir[] = "/tmp/raystream-image-XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    test_roundtrip(dir);
    test_read(dir);
    test_tonemap();
    test_display_stats();
    test_errors();
    test_full_disk(dir);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    (void)system(cmd);
    return rs_test_finish("test_image_io");
}
