/* test_checkerboard.c - the procedural checkerboard (kernel/texture/texture.h, RS_TEXTURE_CHECKER;
 * rs_scene_add_checkerboard) against its definition (kernel suite). Host C11.
 *
 * 1. Point samples (level of detail 0): colour0 where floor(2u) + floor(2v) is even, colour1
 *    elsewhere, exactly, for negative coordinates too; the colours stay linear (no sRGB, no 8-bit
 *    rounding).
 * 2. Box filter: at random points and footprints, the filtered value equals the mean of a
 *    200 x 200 grid of point samples over the same square (within 1e-2); a footprint inside one
 *    cell is that cell's colour, a huge one the mean of the two colours.
 * 3. The host: the same colours give the same texture, its mean is half of each, bad colours
 *    are refused.
 */
#include "host/scene/scene.h"
#include "kernel/sampling/rng.h"
#include "tests/test.h"

static RsVec3 point_colour(RsVec3 c0, RsVec3 c1, double u, double v)
{
    long k = (long)floor(2.0 * u) + (long)floor(2.0 * v);
    return (k % 2 == 0) ? c0 : c1;
}

int main(void)
{
    RsError err = {{0}};
    RsScene s;
    rs_scene_init(&s);
    RsVec3 c0 = rs_vec3(0.123456f, 0.5f, 0.9f), c1 = rs_vec3(0.7f, 0.01f, 0.333333f);
    int32_t t = rs_scene_add_checkerboard(&s, c0, c1, &err);
    CHECK(t >= 0, "%s", err.message);
    CHECK(rs_scene_add_checkerboard(&s, c0, c1, &err) == t, "the same colours must give the same texture");
    CHECK(rs_scene_add_checkerboard(&s, rs_vec3(-1, 0, 0), c1, &err) < 0, "a negative colour must be refused");
    RsTextureView view = rs_texture_set_view(&s.textures);

    const float points[][2] = {{0.1f, 0.1f}, {0.6f, 0.1f}, {0.6f, 0.6f}, {0.1f, 0.7f}, {-0.1f, 0.1f},
                               {-0.7f, -0.2f}, {3.3f, 7.9f}, {0.5f, 0.0f}};
    for (int i = 0; i < 8; ++i) {
        RsFloat4 c = rs_texture_lookup(&view, (uint32_t)t, points[i][0], points[i][1], 0.0f);
        RsVec3 want = point_colour(c0, c1, points[i][0], points[i][1]);
        CHECK(c.x == want.x && c.y == want.y && c.z == want.z && c.w == 1.0f,
              "point (%g, %g): (%g, %g, %g), expected (%g, %g, %g)", points[i][0], points[i][1], c.x, c.y, c.z, want.x,
              want.y, want.z);
    }
    int bad = 0;
    for (uint32_t k = 0; k < 300; ++k) {
        uint32_t key = rs_rng_path_key(17, k, 0);
        double u = 6.0 * rs_rng(key, 0, 0) - 3.0, v = 6.0 * rs_rng(key, 0, 1) - 3.0;
        float lod = 1.0f + 13.0f * rs_rng(key, 0, 2); /* footprints from 1/2048 to 2 units */
        double half = exp2((double)lod) / RS_CHECKER_DENSITY / 2.0; /* in (u, v) */
        RsFloat4 c = rs_texture_lookup(&view, (uint32_t)t, (float)u, (float)v, lod);
        enum { N = 200 };
        double sum = 0.0;
        for (int i = 0; i < N; ++i)
            for (int j = 0; j < N; ++j)
                sum += point_colour(c0, c1, u - half + 2.0 * half * (i + 0.5) / N, v - half + 2.0 * half * (j + 0.5) / N).x;
        double want = sum / (N * N);
        if (fabs(c.x - want) > 1e-2) {
            if (bad++ < 5)
                printf("  (%g, %g) lod %g: %g, grid mean %g\n", u, v, lod, c.x, want);
        }
    }
    CHECK(bad == 0, "%d of 300 filtered lookups differ from the mean of their box", bad);
    RsFloat4 inside = rs_texture_lookup(&view, (uint32_t)t, 0.25f, 0.25f, 8.0f); /* 1/16 wide, inside a cell */
    CHECK(fabsf(inside.x - c0.x) < 1e-6f, "a footprint inside a cell: %g, expected %g", inside.x, c0.x);
    RsFloat4 huge = rs_texture_lookup(&view, (uint32_t)t, 0.3f, 0.1f, 20.0f);
    CHECK(fabsf(huge.y - 0.5f * (c0.y + c1.y)) < 1e-3f, "a huge footprint: %g, expected %g", huge.y,
          0.5f * (c0.y + c1.y));
    RsVec3 mean = rs_texture_mean(&s.textures, (uint32_t)t);
    CHECK(fabsf(mean.z - 0.5f * (c0.z + c1.z)) < 1e-6f, "mean %g, expected %g", mean.z, 0.5f * (c0.z + c1.z));
    rs_scene_free(&s);
    return rs_test_finish("test_checkerboard");
}
