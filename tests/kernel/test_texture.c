/* test_texture.c - texture lookups against values worked out by hand (kernel suite). Host C11.
 *
 *   test_texture QUADRANTS.png
 *
 * 1. Bilinear: texel centres return the texel, the point between four texels their mean;
 *    repeat wraps across the edge, clamp does not; (0, 0) is the bottom-left corner.
 * 2. sRGB decoding through the table; linear textures divide by 255.
 * 3. Mip chains: level sizes of a 3x5 image, level 1 of a 4x4 sRGB image is the 2x2 box
 *    average in linear light (re-encoded: within one 8-bit step), trilinear blends levels.
 * 4. Level of detail: a footprint of 2 texels is level 1, of 1 texel or less level 0.
 * 5. A PNG through libpng (host/io/image_decode.h): quadrants.png (tools/make_textures.py) has red at the top left.
 */
#include <string.h>

#include "host/scene/texture.h"
#include "tests/test.h"

static RsTextureView view_of(RsTextureSet* set) { return rs_texture_set_view(set); }

static void test_bilinear(void)
{
    RsTextureSet set;
    rs_texture_set_init(&set);
    RsError err = {{0}};
    /* 2x2 linear: top row 0, 100; bottom row 200, 255 (red channel) */
    const uint8_t px[16] = {0, 0, 0, 255, 100, 0, 0, 255, 200, 0, 0, 255, 255, 0, 0, 255};
    int32_t repeat = rs_texture_add_rgba8(&set, "r", px, 2, 2, 0, &err);
    int32_t clamp = rs_texture_add_rgba8(&set, "c", px, 2, 2, RS_TEXTURE_CLAMP, &err);
    CHECK(repeat == 0 && clamp == 1, "%s", err.message);
    RsTextureView v = view_of(&set);
    CHECK_NEAR(rs_texture_lookup(&v, 0, 0.25f, 0.75f, 0.0f).x, 0.0, 1e-6);           /* top left */
    CHECK_NEAR(rs_texture_lookup(&v, 0, 0.75f, 0.75f, 0.0f).x, 100.0 / 255.0, 1e-6); /* top right */
    CHECK_NEAR(rs_texture_lookup(&v, 0, 0.25f, 0.25f, 0.0f).x, 200.0 / 255.0, 1e-6); /* bottom left */
    CHECK_NEAR(rs_texture_lookup(&v, 0, 0.5f, 0.5f, 0.0f).x, 555.0 / 4.0 / 255.0, 1e-6);
    /* at u = 0 on the top row: repeat blends the left and right columns, clamp keeps the left */
    CHECK_NEAR(rs_texture_lookup(&v, 0, 0.0f, 0.75f, 0.0f).x, 50.0 / 255.0, 1e-6);
    CHECK_NEAR(rs_texture_lookup(&v, 1, 0.0f, 0.75f, 0.0f).x, 0.0, 1e-6);
    CHECK_NEAR(rs_texture_lookup(&v, 0, 1.25f, -0.75f, 0.0f).x, 200.0 / 255.0, 1e-6); /* repeats */
    CHECK_NEAR(rs_texture_lookup(&v, 1, -3.0f, 7.0f, 0.0f).x, 0.0, 1e-6);              /* clamps: top left */
    CHECK_NEAR(rs_texture_lookup(&v, 0, 0.25f, 0.75f, 0.0f).w, 1.0, 1e-6);
    rs_texture_set_free(&set);
}

static double srgb_to_linear(double c) { return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4); }

static void test_srgb_and_mips(void)
{
    RsTextureSet set;
    rs_texture_set_init(&set);
    RsError err = {{0}};
    for (int i = 0; i < 256; i += 17)
        CHECK_NEAR(set.srgb_to_linear[i], srgb_to_linear(i / 255.0), 1e-6);
    uint8_t px[4 * 4 * 4];
    for (int i = 0; i < 16; ++i) {
        px[4 * i] = (uint8_t)(i * 16);
        px[4 * i + 1] = (uint8_t)(255 - i * 16);
        px[4 * i + 2] = 128;
        px[4 * i + 3] = (uint8_t)(i * 10);
    }
    int32_t t = rs_texture_add_rgba8(&set, "m", px, 4, 4, RS_TEXTURE_SRGB, &err);
    CHECK(t == 0, "%s", err.message);
    RsTextureView v = view_of(&set);
    RsUint4 d = v.descriptors[0];
    CHECK(rs_texture_levels(d) == 3 && d.y == 4 && d.z == 4, "levels %u", rs_texture_levels(d));
    /* level 1, texel (0, 0) = the top-left 2x2 block: texels 0, 1, 4, 5 */
    const int block[4] = {0, 1, 4, 5};
    double mean = 0.0, alpha = 0.0;
    for (int k = 0; k < 4; ++k) {
        mean += 0.25 * srgb_to_linear(px[4 * block[k]] / 255.0);
        alpha += 0.25 * px[4 * block[k] + 3] / 255.0;
    }
    RsFloat4 level1 = rs_texture_bilinear(&v, d, 1, 0.25f, 0.75f);
    CHECK_NEAR(level1.x, mean, 0.01 * mean + 2e-3); /* one 8-bit sRGB step */
    CHECK_NEAR(level1.w, alpha, 1.0 / 255.0);
    RsFloat4 a = rs_texture_lookup(&v, 0, 0.3f, 0.6f, 0.0f), b = rs_texture_lookup(&v, 0, 0.3f, 0.6f, 1.0f);
    RsFloat4 half = rs_texture_lookup(&v, 0, 0.3f, 0.6f, 0.5f);
    CHECK_NEAR(half.y, 0.5 * (a.y + b.y), 1e-6);
    CHECK_NEAR(rs_texture_lookup(&v, 0, 0.3f, 0.6f, 99.0f).x, rs_texture_bilinear(&v, d, 2, 0.3f, 0.6f).x, 1e-6);

    const uint8_t odd[3 * 5 * 4] = {0};
    CHECK(rs_texture_add_rgba8(&set, "odd", odd, 3, 5, 0, &err) == 1, "%s", err.message);
    v = view_of(&set);
    CHECK(rs_texture_levels(v.descriptors[1]) == 3, "3x5 has %u levels", rs_texture_levels(v.descriptors[1]));
    CHECK(set.texels.count == 16 + 4 + 1 + 15 + 2 + 1, "%zu texels", set.texels.count);
    rs_texture_set_free(&set);
}

static void test_lod(void)
{
    RsUint4 d = rs_uint4(0, 256, 256, 9);
    /* uv area 1 over world area 1: 256 texels per unit length; a footprint of 2/256 is 2 texels */
    CHECK_NEAR(rs_texture_lod(d, 1.0f, 1.0f, 2.0f / 256.0f, 1.0f), 1.0, 1e-5);
    CHECK_NEAR(rs_texture_lod(d, 1.0f, 1.0f, 0.5f / 256.0f, 1.0f), 0.0, 1e-6);
    CHECK_NEAR(rs_texture_lod(d, 1.0f, 4.0f, 4.0f / 256.0f, 1.0f), 1.0, 1e-5); /* stretched 2x */
    CHECK_NEAR(rs_texture_lod(d, 1.0f, 1.0f, 2.0f / 256.0f, 0.5f), 2.0, 1e-5); /* seen at 60 degrees */
}

static void test_png(const char* path)
{
    RsTextureSet set;
    rs_texture_set_init(&set);
    RsError err = {{0}};
    int32_t t = rs_texture_load(&set, path, 0, "test", &err);
    CHECK(t == 0, "%s", err.message);
    CHECK(rs_texture_load(&set, path, 0, "test", &err) == 0, "loaded twice: %s", err.message);
    CHECK(rs_texture_load(&set, path, RS_TEXTURE_CLAMP, "test", &err) == 1, "other flags share: %s", err.message);
    if (t == 0) {
        RsTextureView v = view_of(&set);
        RsFloat4 tl = rs_texture_lookup(&v, 0, 0.25f, 0.75f, 0.0f), tr = rs_texture_lookup(&v, 0, 0.75f, 0.75f, 0.0f);
        RsFloat4 bl = rs_texture_lookup(&v, 0, 0.25f, 0.25f, 0.0f), br = rs_texture_lookup(&v, 0, 0.75f, 0.25f, 0.0f);
        CHECK(tl.x == 1.0f && tl.y == 0.0f && tl.z == 0.0f, "top left (%g, %g, %g), expected red", tl.x, tl.y, tl.z);
        CHECK(tr.x == 0.0f && tr.y == 1.0f && tr.z == 0.0f, "top right (%g, %g, %g), expected green", tr.x, tr.y, tr.z);
        CHECK(bl.x == 0.0f && bl.y == 0.0f && bl.z == 1.0f, "bottom left (%g, %g, %g), expected blue", bl.x, bl.y, bl.z);
        CHECK(br.x == 1.0f && br.y == 1.0f && br.z == 1.0f, "bottom right (%g, %g, %g), expected white", br.x, br.y,
              br.z);
    }
    rs_texture_set_free(&set);
}

int main(int argc, char** argv)
{
    test_bilinear();
    test_srgb_and_mips();
    test_lod();
    CHECK(argc > 1, "no PNG given");
    if (argc > 1)
        test_png(argv[1]);
    return rs_test_finish("test_texture");
}
