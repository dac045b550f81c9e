/* test_stage_accumulate.c - a wave's path radiance summed into the film per pixel, in sample
 * order, for a wave that starts in the middle of a pass and spans several; slots cover pixels
 * in tile order (pixel_order.h) (kernel suite). */
#include "kernel/stages/stage_accumulate.h"
#include "stage_fixture.h"

int main(void)
{
    Fixture f;
    fixture_init(&f);
    uint32_t pixels = f.kp.width * f.kp.height; /* 32 */
    f.kp.wave_first_path = 3ull * pixels + 30;  /* sample 3, index 30 */
    f.kp.wave_paths = 40;                       /* indices 30, 31, then 0..31, then 0..5 */
    for (uint32_t slot = 0; slot < f.kp.wave_paths; ++slot)
        f.kp.path_radiance[slot] = rs_float4((float)slot, 1.0f, 0.5f, 1.0f); /* w 1: a sample taken */
    for (uint32_t p = 0; p < pixels; ++p)
        f.kp.film[p] = rs_float4(100.0f, 0, 0, 3.0f); /* three samples from earlier waves */
    CHECK(rs_accumulate_count(&f.kp) == pixels, "a wave of %u paths touches every one of %u pixels", f.kp.wave_paths,
          pixels);
    for (uint32_t lane = 0; lane < rs_accumulate_count(&f.kp); ++lane)
        rs_stage_accumulate(&f.kp, lane);
    for (uint32_t p = 0; p < pixels; ++p) {
        float sum = 100.0f;
        int count = 3;
        for (uint32_t slot = 0; slot < f.kp.wave_paths; ++slot) {
            uint32_t index = (uint32_t)((f.kp.wave_first_path + slot) % pixels);
            if (rs_pixel_of_index(index, f.kp.width, f.kp.height) == p) {
                sum += (float)slot;
                ++count;
            }
        }
        RsFloat4 v = f.kp.film[p];
        CHECK(v.x == sum && v.w == (float)count && v.y == (float)(count - 3) && v.z == 0.5f * (float)(count - 3),
              "pixel %u: (%g, %g, %g, %g), expected sum %g of %d samples", p, v.x, v.y, v.z, v.w, sum, count);
    }

    /* a wave smaller than the image (--max-memory): its calls touch its own pixels only */
    f.kp.wave_first_path = 5ull * pixels + 29; /* indices 29, 30, 31, 0, 1 */
    f.kp.wave_paths = 5;
    for (uint32_t p = 0; p < pixels; ++p)
        f.kp.film[p] = rs_float4(0, 0, 0, 0);
    CHECK(rs_accumulate_count(&f.kp) == 5, "a 5-path wave needs %u calls, expected 5", rs_accumulate_count(&f.kp));
    for (uint32_t lane = 0; lane < rs_accumulate_count(&f.kp); ++lane)
        rs_stage_accumulate(&f.kp, lane);
    for (uint32_t p = 0; p < pixels; ++p) {
        uint32_t index = rs_index_of_pixel(p, f.kp.width, f.kp.height);
        int in_wave = index >= 29 || index <= 1;
        uint32_t slot = index >= 29 ? index - 29 : index + 3;
        RsFloat4 v = f.kp.film[p];
        CHECK(in_wave ? (v.w == 1.0f && v.x == (float)slot) : v.w == 0.0f,
              "small wave, pixel %u (index %u): (%g, count %g)", p, index, v.x, v.w);
    }

    /* a span (indices 12..19): a wave that starts in its sample 7 and wraps into sample 8 adds to
     * the span's pixels only, each pixel's paths in sample order */
    f.kp.span_first_index = 12;
    f.kp.span_pixels = 8;
    f.kp.wave_first_path = 7ull * 8 + 5; /* sample 7, index 17 */
    f.kp.wave_paths = 12;                /* indices 17, 18, 19, then 12..19, then 12 */
    for (uint32_t slot = 0; slot < f.kp.wave_paths; ++slot)
        f.kp.path_radiance[slot] = rs_float4((float)(slot + 1), 0, 0, 1);
    for (uint32_t p = 0; p < pixels; ++p)
        f.kp.film[p] = rs_float4(0, 0, 0, 0);
    CHECK(rs_accumulate_count(&f.kp) == 8, "a 12-path wave over an 8-pixel span needs %u calls, expected 8",
          rs_accumulate_count(&f.kp));
    for (uint32_t lane = 0; lane < rs_accumulate_count(&f.kp); ++lane)
        rs_stage_accumulate(&f.kp, lane);
    for (uint32_t p = 0; p < pixels; ++p) {
        uint32_t index = rs_index_of_pixel(p, f.kp.width, f.kp.height);
        float sum = 0.0f, count = 0.0f;
        for (uint32_t slot = 0; slot < f.kp.wave_paths; ++slot)
            if (12 + (5 + slot) % 8 == index) {
                sum += (float)(slot + 1);
                count += 1.0f;
            }
        RsFloat4 v = f.kp.film[p];
        CHECK(v.x == sum && v.w == count, "span wave, pixel %u (index %u): (%g, count %g), expected (%g, %g)", p,
              index, v.x, v.w, sum, count);
    }
    fixture_free(&f);
    return rs_test_finish("test_stage_accumulate");
}
