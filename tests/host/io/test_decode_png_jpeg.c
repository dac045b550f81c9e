/* test_decode_png_jpeg.c - PNG and JPEG decoding of untrusted files, and the formats raystream
 * no longer reads (host suite). Host C11.
 *
 * The files are made here, with libpng's and libjpeg's writers, so every texel is known.
 * 1. PNG: RGBA, RGB, grey, 16-bit, palette with transparency and interlaced images decode to
 *    the texels written; every truncated copy fails; a flipped byte in the image data fails, and
 *    one in an ancillary (tEXt) chunk or in IDAT's or IEND's CRC fails with "CRC error"; a damaged chunk type fails;
 *    image data with a valid CRC but a broken deflate stream fails; a chunk declaring 2 GiB (which
 *    libpng would allocate) is refused at once; 0x0 is refused; a declared
 *    100000x100000 or 16384x16385 is refused before decoding, at once.
 * 2. JPEG: baseline colour, progressive and grey files decode within the codec's error of the
 *    flat 8x8 blocks written; every truncated copy fails; a bad precision in the frame header,
 *    an end-of-image marker inside the scan, and a damaged Huffman table fail; a 700-byte file
 *    whose header claims 16384x16384 (within the texture budget) fails in well under a second,
 *    and one claiming 65000x65000 is refused before decoding.
 * 3. BMP, GIF, PPM, 16-bit PGM (CVE-2021-42716's format), PSD and TIFF are refused by name with
 *    the formats raystream reads; a TGA (no signature) and text are "not an image".
 */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

#include "tests/host/io/decode_checks.h"

static uint8_t pattern(uint32_t x, uint32_t y, int c)
{
    return (uint8_t)((x * 37u + y * 11u + (uint32_t)c * 71u) & 255u);
}

/* ---- PNG ---- */

static void png_sink(png_structp png, png_bytep data, size_t n) { bytes_put(png_get_io_ptr(png), data, n); }
static void png_flush(png_structp png) { (void)png; }

/* A w x h PNG of `pattern`: colour type, 8 or 16 bits, interlaced or not; with a tEXt chunk. */
static Bytes make_png(uint32_t w, uint32_t h, int colour, int depth, int interlace)
{
    Bytes out = {0};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    int channels = colour == PNG_COLOR_TYPE_RGBA ? 4 : colour == PNG_COLOR_TYPE_RGB ? 3 : 1;
    size_t row_bytes = (size_t)w * channels * (depth / 8);
    png_bytep pixels = malloc(row_bytes * h);
    png_bytep* rows = malloc(h * sizeof *rows);
    if (setjmp(png_jmpbuf(png))) {
        CHECK(0, "libpng could not write the test image");
        exit(1);
    }
    png_set_write_fn(png, &out, png_sink, png_flush);
    png_set_IHDR(png, info, w, h, depth, colour, interlace, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (colour == PNG_COLOR_TYPE_PALETTE) {
        png_color palette[4] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {255, 255, 255}};
        png_byte alpha[4] = {255, 128, 0, 255};
        png_set_PLTE(png, info, palette, 4);
        png_set_tRNS(png, info, alpha, 4, NULL);
    }
    png_text text;
    memset(&text, 0, sizeof text);
    text.compression = PNG_TEXT_COMPRESSION_NONE;
    text.key = "Comment";
    text.text = "raystream test image";
    png_set_text(png, info, &text, 1);
    for (uint32_t y = 0; y < h; ++y) {
        rows[y] = pixels + y * row_bytes;
        for (uint32_t x = 0; x < w; ++x)
            for (int c = 0; c < channels; ++c) {
                uint8_t v = colour == PNG_COLOR_TYPE_PALETTE ? (uint8_t)((x + y) % 4) : pattern(x, y, c);
                if (depth == 16) {
                    rows[y][(x * channels + c) * 2] = v; /* v * 257: scales back to v exactly */
                    rows[y][(x * channels + c) * 2 + 1] = v;
                } else {
                    rows[y][x * channels + c] = v;
                }
            }
    }
    png_write_info(png, info);
    png_write_image(png, rows);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    free(rows);
    free(pixels);
    return out;
}

/* The RGBA texel the decoder should give for (x, y) of make_png's image. */
static void png_expected(int colour, uint32_t x, uint32_t y, uint8_t out[4])
{
    static const uint8_t palette[4][4] = {{255, 0, 0, 255}, {0, 255, 0, 128}, {0, 0, 255, 0}, {255, 255, 255, 255}};
    if (colour == PNG_COLOR_TYPE_PALETTE) {
        memcpy(out, palette[(x + y) % 4], 4);
        return;
    }
    for (int c = 0; c < 3; ++c)
        out[c] = colour == PNG_COLOR_TYPE_GRAY ? pattern(x, y, 0) : pattern(x, y, c);
    out[3] = colour == PNG_COLOR_TYPE_RGBA ? pattern(x, y, 3) : 255;
}

/* The CRC of PNG chunks (ISO 3309), to rewrite a damaged chunk's CRC as valid. */
static uint32_t crc32_of(const unsigned char* p, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; ++i) {
        c ^= p[i];
        for (int k = 0; k < 8; ++k)
            c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
    }
    return c ^ 0xffffffffu;
}

/* The offset of the first chunk of `type` (its length field), or 0. */
static size_t find_chunk(const Bytes* b, const char* type)
{
    for (size_t at = 8; at + 12 <= b->size;) {
        uint32_t len = (uint32_t)b->data[at] << 24 | (uint32_t)b->data[at + 1] << 16 | (uint32_t)b->data[at + 2] << 8 |
                       b->data[at + 3];
        if (memcmp(b->data + at + 4, type, 4) == 0)
            return at;
        at += 12 + (size_t)len;
    }
    return 0;
}

static void test_png(void)
{
    struct { int colour, depth, interlace, channels; const char* name; } kinds[] = {
        {PNG_COLOR_TYPE_RGBA, 8, PNG_INTERLACE_NONE, 4, "RGBA"},
        {PNG_COLOR_TYPE_RGB, 8, PNG_INTERLACE_NONE, 3, "RGB"},
        {PNG_COLOR_TYPE_GRAY, 8, PNG_INTERLACE_NONE, 1, "grey"},
        {PNG_COLOR_TYPE_RGB, 16, PNG_INTERLACE_NONE, 3, "16-bit RGB"},
        {PNG_COLOR_TYPE_PALETTE, 8, PNG_INTERLACE_NONE, 4, "palette + tRNS"},
        {PNG_COLOR_TYPE_RGBA, 8, PNG_INTERLACE_ADAM7, 4, "interlaced RGBA"},
    };
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; ++k) {
        Bytes png = make_png(13, 7, kinds[k].colour, kinds[k].depth, kinds[k].interlace);
        RsImage image;
        if (expect_decoded(kinds[k].name, png.data, png.size, &rs_texture_limits, &image) == 0) {
            int wrong = 0;
            for (uint32_t y = 0; y < 7; ++y)
                for (uint32_t x = 0; x < 13; ++x) {
                    uint8_t want[4];
                    png_expected(kinds[k].colour, x, y, want);
                    wrong += memcmp(image.rgba8 + 4 * (y * 13 + x), want, 4) != 0;
                }
            CHECK(image.width == 13 && image.height == 7 && wrong == 0 && image.channels == kinds[k].channels,
                  "PNG %s: %ux%u, %d channels, %d wrong texels", kinds[k].name, image.width, image.height,
                  image.channels, wrong);
            rs_image_free(&image);
        }
        check_every_prefix(kinds[k].name, png.data, png.size, &rs_texture_limits);
        free(png.data);
    }

    Bytes png = make_png(13, 7, PNG_COLOR_TYPE_RGB, 8, PNG_INTERLACE_NONE);
    size_t idat = find_chunk(&png, "IDAT"), text = find_chunk(&png, "tEXt"), iend = find_chunk(&png, "IEND");
    CHECK(idat && text && iend, "test PNG lacks a chunk");
    unsigned char* bad = malloc(png.size);
    uint32_t len = (uint32_t)png.data[idat] << 24 | (uint32_t)png.data[idat + 1] << 16 |
                   (uint32_t)png.data[idat + 2] << 8 | png.data[idat + 3];
    struct { size_t at; const char* expected; const char* label; } flips[] = {
        {idat + 10, "corrupt PNG", "PNG with a flipped IDAT byte"},
        {idat + 8 + len + 1, "CRC error", "PNG with a damaged IDAT CRC"},
        {text + 9, "CRC error", "PNG with a flipped tEXt byte"},
        {iend + 9, "CRC error", "PNG with a damaged IEND CRC"},
        {idat + 5, "corrupt PNG", "PNG with a damaged chunk type"},
    };
    for (size_t i = 0; i < sizeof flips / sizeof flips[0]; ++i) {
        memcpy(bad, png.data, png.size);
        bad[flips[i].at] ^= 0x5a;
        expect_refused(flips[i].label, bad, png.size, &rs_texture_limits, flips[i].expected, 1.0);
    }
    /* a chunk declaring 2 GiB (libpng would allocate that, warning only): refused at once */
    memcpy(bad, png.data, png.size);
    bad[text] = 0x7e;
    expect_refused("PNG with a tEXt chunk of 2 GiB", bad, png.size, &rs_texture_limits, "chunk 'tEXt' at byte", 0.05);
    /* deflate data broken, CRC made valid again: zlib's own check must catch it */
    memcpy(bad, png.data, png.size);
    for (uint32_t i = 2; i < len; i += 3)
        bad[idat + 8 + i] ^= 0xa5;
    uint32_t crc = crc32_of(bad + idat + 4, 4 + (size_t)len);
    for (int i = 0; i < 4; ++i)
        bad[idat + 8 + len + (uint32_t)i] = (unsigned char)(crc >> (24 - 8 * i));
    expect_refused("PNG with broken deflate data", bad, png.size, &rs_texture_limits, "corrupt PNG", 1.0);

    /* sizes in IHDR: checked before libpng starts */
    struct { uint32_t w, h; const char* expected; } sizes[] = {
        {0, 0, "no pixels (0x0)"},
        {100000, 100000, "more than the limit of 16384x16384 (1 GiB decoded)"},
        {16384, 16385, "more than the limit of 16384x16384"},
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
        memcpy(bad, png.data, png.size);
        for (int k = 0; k < 4; ++k) {
            bad[16 + k] = (unsigned char)(sizes[i].w >> (24 - 8 * k));
            bad[20 + k] = (unsigned char)(sizes[i].h >> (24 - 8 * k));
        }
        uint32_t c = crc32_of(bad + 12, 17);
        for (int k = 0; k < 4; ++k)
            bad[29 + k] = (unsigned char)(c >> (24 - 8 * k));
        char label[64];
        snprintf(label, sizeof label, "PNG declaring %ux%u", sizes[i].w, sizes[i].h);
        expect_refused(label, bad, png.size, &rs_texture_limits, sizes[i].expected, 0.05);
    }
    free(bad);
    free(png.data);
}

/* ---- JPEG ---- */

/* A 32x16 JPEG of flat 8x8 blocks (exact but for rounding at quality 100, no subsampling). */
static Bytes make_jpeg(int grey, int progressive)
{
    enum { W = 32, H = 16 };
    struct jpeg_compress_struct c;
    struct jpeg_error_mgr e;
    c.err = jpeg_std_error(&e);
    jpeg_create_compress(&c);
    unsigned char* mem = NULL;
    unsigned long size = 0;
    jpeg_mem_dest(&c, &mem, &size);
    c.image_width = W;
    c.image_height = H;
    c.input_components = grey ? 1 : 3;
    c.in_color_space = grey ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&c);
    jpeg_set_quality(&c, 100, TRUE);
    for (int i = 0; i < c.num_components; ++i)
        c.comp_info[i].h_samp_factor = c.comp_info[i].v_samp_factor = 1;
    if (progressive)
        jpeg_simple_progression(&c);
    jpeg_start_compress(&c, TRUE);
    unsigned char row[W * 3];
    while (c.next_scanline < H) {
        for (uint32_t x = 0; x < W; ++x)
            for (int k = 0; k < c.input_components; ++k)
                row[x * (uint32_t)c.input_components + (uint32_t)k] = pattern(x / 8, c.next_scanline / 8, k);
        JSAMPROW r = row;
        jpeg_write_scanlines(&c, &r, 1);
    }
    jpeg_finish_compress(&c);
    jpeg_destroy_compress(&c);
    Bytes out = {0};
    bytes_put(&out, mem, size);
    free(mem);
    return out;
}

/* The offset of the first marker 0xFF `code` after the start, or 0. */
static size_t find_marker(const Bytes* b, unsigned char code)
{
    for (size_t i = 2; i + 1 < b->size; ++i)
        if (b->data[i] == 0xff && b->data[i + 1] == code)
            return i;
    return 0;
}

static void test_jpeg(void)
{
    struct { int grey, progressive; const char* name; } kinds[] = {
        {0, 0, "baseline JPEG"}, {0, 1, "progressive JPEG"}, {1, 0, "grey JPEG"}};
    for (size_t k = 0; k < 3; ++k) {
        Bytes jpeg = make_jpeg(kinds[k].grey, kinds[k].progressive);
        RsImage image;
        if (expect_decoded(kinds[k].name, jpeg.data, jpeg.size, &rs_texture_limits, &image) == 0) {
            int worst = 0;
            for (uint32_t y = 0; y < 16; ++y)
                for (uint32_t x = 0; x < 32; ++x)
                    for (int c = 0; c < 4; ++c) {
                        int want = c == 3 ? 255 : pattern(x / 8, y / 8, kinds[k].grey ? 0 : c);
                        int d = abs((int)image.rgba8[4 * (y * 32 + x) + (uint32_t)c] - want);
                        worst = d > worst ? d : worst;
                    }
            CHECK(image.width == 32 && image.height == 16 && worst <= 3 && image.channels == (kinds[k].grey ? 1 : 3),
                  "%s: %ux%u, %d channels, a texel %d off", kinds[k].name, image.width, image.height, image.channels,
                  worst);
            rs_image_free(&image);
        }
        check_every_prefix(kinds[k].name, jpeg.data, jpeg.size, &rs_texture_limits);
        free(jpeg.data);
    }

    Bytes jpeg = make_jpeg(0, 0);
    size_t sof = find_marker(&jpeg, 0xc0), sos = find_marker(&jpeg, 0xda), dht = find_marker(&jpeg, 0xc4);
    CHECK(sof && sos && dht, "test JPEG lacks a marker");
    unsigned char* bad = malloc(jpeg.size + 2);
    memcpy(bad, jpeg.data, jpeg.size);
    bad[sof + 4] = 7; /* sample precision */
    expect_refused("JPEG with precision 7", bad, jpeg.size, &rs_texture_limits, "corrupt JPEG", 1.0);
    memcpy(bad, jpeg.data, jpeg.size);
    size_t middle = sos + (jpeg.size - sos) / 2;
    memmove(bad + middle + 2, jpeg.data + middle, jpeg.size - middle);
    bad[middle] = 0xff;
    bad[middle + 1] = 0xd9;
    expect_refused("JPEG with EOI inside the scan", bad, jpeg.size + 2, &rs_texture_limits, "corrupt JPEG", 1.0);
    memcpy(bad, jpeg.data, jpeg.size);
    for (int i = 5; i < 21; ++i) /* the table's code counts: more codes than lengths allow */
        bad[dht + (size_t)i] = 0xff;
    expect_refused("JPEG with a damaged Huffman table", bad, jpeg.size, &rs_texture_limits, "corrupt JPEG", 1.0);

    /* the frame header's size: within the budget it fails fast for want of data; beyond it, at once */
    memcpy(bad, jpeg.data, jpeg.size);
    bad[sof + 5] = bad[sof + 7] = 0x40; /* 16384 */
    bad[sof + 6] = bad[sof + 8] = 0x00;
    expect_refused("700-byte JPEG declaring 16384x16384", bad, jpeg.size, &rs_texture_limits, "corrupt JPEG", 0.5);
    bad[sof + 5] = bad[sof + 7] = 0xfd; /* 65000 */
    bad[sof + 6] = bad[sof + 8] = 0xe8;
    expect_refused("JPEG declaring 65000x65000", bad, jpeg.size, &rs_texture_limits,
                   "declares 65000x65000 pixels, more than the limit of 16384x16384", 0.05);
    printf("test_decode_png_jpeg: JPEG of %zu bytes\n", jpeg.size);
    free(bad);
    free(jpeg.data);
}

/* ---- formats raystream no longer reads ---- */

static void test_dropped(void)
{
    struct { const char* bytes; size_t size; const char* expected; } files[] = {
        {"BM\x3a\0\0\0\0\0\0\0\x36\0\0\0\x28\0\0\0\x01\0\0\0\x01\0\0\0\x01\0\x18\0", 30, "a BMP image"},
        {"GIF89a\x01\0\x01\0\x80\0\0", 13, "a GIF image"},
        {"P6\n2 2\n255\n\1\2\3\4\5\6\7\x8\x9\xa\xb\xc", 23, "a PNM (PBM, PGM, PPM or PAM) image"},
        {"P5\n4 4\n65535\n\1\2", 15, "a PNM"},
        {"8BPS\0\1\0\0\0\0\0\0\0\3", 14, "a Photoshop PSD image"},
        {"II*\0\x08\0\0\0", 8, "a TIFF image"},
        {"\0\0\x02\0\0\0\0\0\0\0\0\0\x02\0\x02\0\x18\0", 18, "not an image raystream reads"},
        {"hello, world\n", 13, "not an image raystream reads"},
        {"", 0, "empty"},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; ++i) {
        expect_refused(files[i].expected, (const unsigned char*)files[i].bytes, files[i].size, &rs_texture_limits,
                       files[i].expected, 0.05);
        if (files[i].size)
            expect_refused("the formats read", (const unsigned char*)files[i].bytes, files[i].size, &rs_texture_limits,
                           "PNG, JPEG, Radiance .hdr and OpenEXR .exr", 0.05);
    }
}

int main(void)
{
    test_png();
    test_jpeg();
    test_dropped();
    return rs_test_finish("test_decode_png_jpeg");
}
