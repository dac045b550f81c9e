/* test_decode_hdr_exr.c - Radiance .hdr and OpenEXR decoding of untrusted files, and the
 * loaders' messages (host suite). Host C11.
 *
 * 1. Radiance: flat and run-length files (runs and literal spans, written here), rows from the
 *    top or the bottom, decode to exactly the RGBE values written; every truncated copy fails; a
 *    run or a literal span overrunning its scanline, an empty run and a scanline announcing
 *    another width fail; a header without FORMAT, an XYZE file and a mirrored orientation are
 *    refused; a 56-byte file declaring 16384x8192 (the environment budget) and a 52-byte one
 *    declaring 16384x16384 are refused at once.
 * 2. OpenEXR: float and half RGB (with an extra layer, skipped) and a Y-only file decode to the
 *    values written (rs_exr_write); a tiled copy (exrmaketiled, when installed) to the same
 *    texels; every truncated copy fails; damaged compressed data fails; a damaged offset table
 *    gives the file's texels (OpenEXR rebuilds it from the chunks) or fails; a file without R,
 *    G, B or Y is refused, and so is B44, B44A, DWAA or DWAB compression (OpenEXRCore 3.1
 *    decodes them wrongly or not at all: exr_decode.c); a data window of 16384x16384 is refused
 *    at once.
 * 3. Through the loaders: errors name the scene's place and the file (a BMP texture, a .hdr
 *    texture, a truncated environment map).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/io/exr_io.h"
#include "host/io/safe_file.h"
#include "host/scene/env_map.h"
#include "host/scene/texture.h"
#include "tests/host/io/decode_checks.h"

/* ---- Radiance ---- */

enum { HW = 40, HH = 6 };

static void rgbe_of(uint32_t x, uint32_t y, unsigned char out[4])
{
    int flat_row = y % 3 == 1; /* runs in the run-length file */
    out[0] = (unsigned char)(flat_row ? 200 : 128 + (x * 7 + y) % 128);
    out[1] = (unsigned char)(flat_row ? 100 : 128 + (x * 3 + 2 * y) % 128);
    out[2] = (unsigned char)(flat_row ? 150 : 128 + (x * 5) % 128);
    out[3] = (unsigned char)(x == 3 && y == 2 ? 0 : 120 + (flat_row ? 9 : (x + y) % 12));
}

/* One component of a scanline, run-length encoded: runs of 4 or more, literals otherwise. */
static void encode_component(Bytes* b, const unsigned char* v, uint32_t n)
{
    uint32_t i = 0;
    while (i < n) {
        uint32_t run = 1;
        while (i + run < n && run < 127 && v[i + run] == v[i])
            ++run;
        if (run >= 4) {
            unsigned char head[2] = {(unsigned char)(128 + run), v[i]};
            bytes_put(b, head, 2);
            i += run;
            continue;
        }
        uint32_t lit = 0;
        while (i + lit < n && lit < 128) {
            uint32_t r = 1;
            while (i + lit + r < n && r < 4 && v[i + lit + r] == v[i + lit])
                ++r;
            if (r >= 4)
                break;
            lit += r;
        }
        lit = lit > 128 ? 128 : lit;
        unsigned char count = (unsigned char)lit;
        bytes_put(b, &count, 1);
        bytes_put(b, v + i, lit);
        i += lit;
    }
}

static Bytes make_hdr(int rle, int bottom_up)
{
    Bytes b = {0};
    char header[128];
    int n = snprintf(header, sizeof header, "#?RADIANCE\n# made by a test\nFORMAT=32-bit_rle_rgbe\nEXPOSURE=1\n\n%cY %d +X %d\n",
                     bottom_up ? '+' : '-', HH, HW);
    bytes_put(&b, header, (size_t)n);
    for (uint32_t row = 0; row < HH; ++row) {
        uint32_t y = bottom_up ? HH - 1 - row : row;
        unsigned char px[HW][4], comp[HW];
        for (uint32_t x = 0; x < HW; ++x)
            rgbe_of(x, y, px[x]);
        if (!rle) {
            bytes_put(&b, px, sizeof px);
            continue;
        }
        unsigned char start[4] = {2, 2, HW >> 8, HW & 255};
        bytes_put(&b, start, 4);
        for (int k = 0; k < 4; ++k) {
            for (uint32_t x = 0; x < HW; ++x)
                comp[x] = px[x][k];
            encode_component(&b, comp, HW);
        }
    }
    return b;
}

static void test_hdr(void)
{
    for (int kind = 0; kind < 3; ++kind) {
        int rle = kind != 0, bottom_up = kind == 2;
        const char* name = kind == 0 ? "flat HDR" : kind == 1 ? "run-length HDR" : "bottom-up run-length HDR";
        Bytes hdr = make_hdr(rle, bottom_up);
        RsImage image;
        if (expect_decoded(name, hdr.data, hdr.size, &rs_env_limits, &image) == 0) {
            int wrong = 0;
            for (uint32_t y = 0; y < HH; ++y)
                for (uint32_t x = 0; x < HW; ++x) {
                    unsigned char c[4];
                    rgbe_of(x, y, c);
                    float f = c[3] ? ldexpf(1.0f, c[3] - 136) : 0.0f;
                    RsFloat4 t = image.rgbaf[y * HW + x];
                    wrong += t.x != c[0] * f || t.y != c[1] * f || t.z != c[2] * f;
                }
            CHECK(image.width == HW && image.height == HH && wrong == 0, "%s: %ux%u, %d wrong texels", name,
                  image.width, image.height, wrong);
            rs_image_free(&image);
        }
        check_every_prefix(name, hdr.data, hdr.size, &rs_env_limits);
        free(hdr.data);
    }

    /* damage to the first run-length scanline, which starts after the header */
    Bytes hdr = make_hdr(1, 0);
    size_t start = (size_t)(strstr((const char*)hdr.data, "+X 40\n") - (const char*)hdr.data) + 6;
    unsigned char* bad = malloc(hdr.size);
    struct { size_t at; unsigned char value; const char* expected; const char* label; } edits[] = {
        {start + 4, 128 + 127, "overruns scanline 0", "HDR run past the scanline"},
        {start + 4, 100, "overrun scanline 0", "HDR literal span past the scanline"},
        {start + 4, 0, "an empty run", "HDR empty run"},
        {start + 3, 41, "says it is 41 pixels wide, not 40", "HDR scanline of another width"},
    };
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; ++i) {
        memcpy(bad, hdr.data, hdr.size);
        bad[edits[i].at] = edits[i].value;
        expect_refused(edits[i].label, bad, hdr.size, &rs_env_limits, edits[i].expected, 0.05);
    }
    free(bad);
    free(hdr.data);

    struct { const char* text; const char* expected; } headers[] = {
        {"#?RADIANCE\n\n-Y 1 +X 1\n\1\1\1\1", "no FORMAT=32-bit_rle_rgbe"},
        {"#?RADIANCE\nFORMAT=32-bit_rle_xyze\n\n-Y 1 +X 1\n\1\1\1\1", "only 32-bit_rle_rgbe is read"},
        {"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n+X 1 -Y 1\n\1\1\1\1", "resolution line"},
        {"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 1 -X 1\n\1\1\1\1", "resolution line"},
        {"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 8192 +X 16384\n\2\2\x40\0", "truncated: 16384x8192 pixels"},
        {"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 16384 +X 16384\n",
         "declares 16384x16384 pixels, more than the limit of 16384x8192 (2 GiB decoded)"},
        {"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 0 +X 5\n", "no pixels"},
        {"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 99999999999 +X 5\n", "resolution line"},
        {"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n", "the header does not end"},
    };
    for (size_t i = 0; i < sizeof headers / sizeof headers[0]; ++i)
        expect_refused(headers[i].expected, (const unsigned char*)headers[i].text, strlen(headers[i].text),
                       &rs_env_limits, headers[i].expected, 0.05);
}

/* ---- OpenEXR ---- */

static const unsigned char* find_bytes(const Bytes* b, const char* what, size_t n)
{
    for (size_t i = 0; i + n <= b->size; ++i)
        if (memcmp(b->data + i, what, n) == 0)
            return b->data + i;
    return NULL;
}

/* The offset table of a one-chunk file: the 8 bytes whose value is where the chunk starts,
 * right after them. */
static size_t find_offset_table(const Bytes* b)
{
    for (size_t i = 0; i + 16 <= b->size; ++i) {
        uint64_t v = 0;
        for (int k = 7; k >= 0; --k)
            v = v << 8 | b->data[i + (size_t)k];
        if (v == i + 8)
            return i;
    }
    return 0;
}

static Bytes read_file(const char* path)
{
    char why[256];
    Bytes b = {0};
    b.data = (unsigned char*)rs_file_read_all(path, 1 << 24, &b.size, why, sizeof why);
    CHECK(b.data != NULL, "%s: %s", path, why);
    return b;
}

static void check_exr_texels(const char* label, const RsImage* image, const float* rgb, int grey)
{
    int wrong = 0;
    for (uint32_t i = 0; i < 8 * 5; ++i) {
        RsFloat4 t = image->rgbaf[i];
        float r = rgb[3 * i], g = grey ? r : rgb[3 * i + 1], b = grey ? r : rgb[3 * i + 2];
        wrong += fabsf(t.x - r) > 1e-3f * r || fabsf(t.y - g) > 1e-3f * g || fabsf(t.z - b) > 1e-3f * b;
    }
    CHECK(image->width == 8 && image->height == 5 && wrong == 0 && image->channels == (grey ? 1 : 3),
          "%s: %ux%u, %d channels, %d wrong texels", label, image->width, image->height, image->channels, wrong);
}

static void test_exr(const char* dir)
{
    float rgb[8 * 5 * 3], extra[8 * 5 * 3];
    for (int i = 0; i < 8 * 5 * 3; ++i) {
        rgb[i] = 0.25f + (float)((i * 37) % 101) * 0.5f;
        extra[i] = -1.0f;
    }
    char path[512], tiled[600], cmd[1300];
    RsError err = {{0}};
    for (int half = 0; half < 2; ++half) {
        snprintf(path, sizeof path, "%s/rgb%d.exr", dir, half);
        RsExrLayer layers[2] = {{"", "RGB", rgb}, {"albedo", "RGB", extra}};
        CHECK(rs_exr_write(path, 8, 5, layers, 2, half, &err) == 0, "%s", err.message);
        Bytes exr = read_file(path);
        RsImage image;
        const char* label = half ? "half OpenEXR" : "float OpenEXR";
        if (exr.data && expect_decoded(label, exr.data, exr.size, &rs_env_limits, &image) == 0) {
            check_exr_texels(label, &image, rgb, 0);
            rs_image_free(&image);
        }
        if (exr.data && !half) {
            check_every_prefix(label, exr.data, exr.size, &rs_env_limits);
            unsigned char* bad = malloc(exr.size);
            memcpy(bad, exr.data, exr.size);
            for (size_t i = exr.size - 40; i < exr.size; i += 3) /* the last chunk's compressed data */
                bad[i] ^= 0x5a;
            expect_refused("OpenEXR with damaged data", bad, exr.size, &rs_env_limits, "corrupt OpenEXR", 0.05);
            const unsigned char* window = find_bytes(&exr, "dataWindow\0box2i\0", 17);
            size_t table = find_offset_table(&exr);
            CHECK(window != NULL && table != 0, "no dataWindow attribute or offset table");
            if (window && table) { /* after name, type and size: xmin, ymin, xmax, ymax */
                size_t at = (size_t)(window - exr.data) + 17 + 4;
                memcpy(bad, exr.data, exr.size);
                int32_t box[4] = {0, 0, 16383, 16383};
                memcpy(bad + at, box, sizeof box);
                expect_refused("OpenEXR declaring 16384x16384", bad, exr.size, &rs_env_limits,
                               "more than the limit of 16384x8192", 0.05);
                const unsigned char* comp = find_bytes(&exr, "compression\0compression\0", 24);
                CHECK(comp != NULL, "no compression attribute");
                for (unsigned char c = 6; comp && c <= 9; ++c) { /* B44, B44A, DWAA, DWAB */
                    memcpy(bad, exr.data, exr.size);
                    bad[(size_t)(comp - exr.data) + 24 + 4] = c;
                    expect_refused("OpenEXR with B44 or DWA compression", bad, exr.size, &rs_env_limits,
                                   "compression, which the OpenEXR C library cannot decode reliably", 0.05);
                }
                /* OpenEXR rebuilds a damaged offset table by scanning the chunks: the texels
                 * must then be the file's, or the file refused */
                memcpy(bad, exr.data, exr.size);
                memset(bad + table, 0x7f, 8);
                RsError why = {{0}};
                if (rs_image_decode(bad, exr.size, &rs_env_limits, &image, &why) == 0) {
                    check_exr_texels("OpenEXR with a damaged offset table", &image, rgb, 0);
                    rs_image_free(&image);
                } else {
                    CHECK(strstr(why.message, "OpenEXR") != NULL, "damaged offset table: %s", why.message);
                }
            }
            free(bad);
        }
        free(exr.data);
    }
    snprintf(tiled, sizeof tiled, "%s/tiled.exr", dir);
    snprintf(cmd, sizeof cmd, "command -v exrmaketiled > /dev/null && exrmaketiled -t 4 2 '%s/rgb0.exr' '%s' > /dev/null",
             dir, tiled);
    if (system(cmd) == 0) {
        Bytes exr = read_file(tiled);
        RsImage image;
        if (exr.data && expect_decoded("tiled OpenEXR", exr.data, exr.size, &rs_env_limits, &image) == 0) {
            check_exr_texels("tiled OpenEXR", &image, rgb, 0);
            rs_image_free(&image);
        }
        if (exr.data)
            check_every_prefix("tiled OpenEXR", exr.data, exr.size, &rs_env_limits);
        free(exr.data);
    } else {
        printf("test_decode_hdr_exr: no exrmaketiled (Debian package openexr): tiled files not tested\n");
    }

    snprintf(path, sizeof path, "%s/grey.exr", dir);
    float y[8 * 5 * 3];
    for (int i = 0; i < 8 * 5; ++i)
        y[3 * i] = rgb[i];
    float ychannel[8 * 5];
    for (int i = 0; i < 8 * 5; ++i)
        ychannel[i] = y[3 * i];
    RsExrLayer grey = {"", "Y", ychannel};
    CHECK(rs_exr_write(path, 8, 5, &grey, 1, 0, &err) == 0, "%s", err.message);
    Bytes exr = read_file(path);
    RsImage image;
    if (exr.data && expect_decoded("Y OpenEXR", exr.data, exr.size, &rs_env_limits, &image) == 0) {
        check_exr_texels("Y OpenEXR", &image, y, 1);
        rs_image_free(&image);
    }
    free(exr.data);
    snprintf(path, sizeof path, "%s/depth.exr", dir);
    RsExrLayer depth = {"depth", "Z", ychannel};
    CHECK(rs_exr_write(path, 8, 5, &depth, 1, 0, &err) == 0, "%s", err.message);
    exr = read_file(path);
    if (exr.data)
        expect_refused("OpenEXR without colour", exr.data, exr.size, &rs_env_limits, "no R, G, B or Y channels", 0.05);
    free(exr.data);
}

/* ---- the loaders' messages ---- */

static void test_loaders(const char* dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/brick.bmp", dir);
    FILE* f = fopen(path, "wb");
    fputs("BM\x3a\0\0\0\0\0\0\0\x36\0\0\0", f);
    fclose(f);
    RsTextureSet set;
    rs_texture_set_init(&set);
    RsError err = {{0}};
    CHECK(rs_texture_load(&set, path, 0, "scene.json: materials[0]", &err) < 0 &&
              strstr(err.message, "scene.json: materials[0]: texture '") && strstr(err.message, "brick.bmp': a BMP image"),
          "BMP texture: %s", err.message);
    Bytes hdr = make_hdr(1, 0);
    snprintf(path, sizeof path, "%s/sky.hdr", dir);
    f = fopen(path, "wb");
    fwrite(hdr.data, 1, hdr.size - 1, f);
    fclose(f);
    rs_error_clear(&err);
    CHECK(rs_texture_load(&set, path, 0, "here", &err) < 0 && strstr(err.message, "textures are 8-bit PNG or JPEG"),
          ".hdr texture: %s", err.message);
    RsEnvMap m;
    memset(&m, 0, sizeof m);
    rs_error_clear(&err);
    CHECK(rs_env_map_load(&m, path, "scene.json: environment.file", &err) < 0 &&
              strstr(err.message, "environment.file: environment map '") && strstr(err.message, "sky.hdr': the file is truncated"),
          "truncated map: %s", err.message);
    rs_env_map_free(&m);
    rs_texture_set_free(&set);
    free(hdr.data);
}

int main(void)
{
    char dir[] = "/tmp/raystream-decode-XXXXXX";
    if (!mkdtemp(dir)) {
        fprintf(stderr, "test_decode_hdr_exr: mkdtemp failed\n");
        return 1;
    }
    test_hdr();
    test_exr(dir);
    test_loaders(dir);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0, "could not remove %s", dir);
    return rs_test_finish("test_decode_hdr_exr");
}
