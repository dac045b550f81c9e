/* test_stage_generate.c - camera rays of the generate stage (kernel suite). Host C11.
 * Slots map to pixels and samples as g = sample * pixels + index (index in tile order, checked
 * to be a bijection on images of awkward sizes), rays start alive at depth 1 with unit
 * throughput, and each ray passes through its own pixel's footprint. */
#include "kernel/film/pixel_order.h"
#include "kernel/stages/stage_generate.h"
#include "stage_fixture.h"

static void test_pixel_order(void)
{
    const uint32_t sizes[][2] = {{1, 1}, {8, 4}, {7, 3}, {13, 9}, {64, 64}, {33, 17}, {1920, 1080}, {5, 100}};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
        uint32_t w = sizes[s][0], h = sizes[s][1], n = w * h, bad = 0;
        unsigned char* seen = calloc(n, 1);
        for (uint32_t i = 0; i < n; ++i) {
            uint32_t p = rs_pixel_of_index(i, w, h);
            bad += p >= n || seen[p] || rs_index_of_pixel(p, w, h) != i;
            if (p < n)
                seen[p] = 1;
        }
        CHECK(bad == 0, "%ux%u: the tile order is not a bijection (%u bad indices)", w, h, bad);
        free(seen);
    }
    /* the first 32 indices of a wide image form one 8x4 tile */
    uint32_t xmax = 0, ymax = 0;
    for (uint32_t i = 0; i < 32; ++i) {
        uint32_t p = rs_pixel_of_index(i, 640, 480);
        xmax = p % 640 > xmax ? p % 640 : xmax;
        ymax = p / 640 > ymax ? p / 640 : ymax;
    }
    CHECK(xmax == 7 && ymax == 3, "the first warp covers x <= %u, y <= %u (expected an 8x4 tile)", xmax, ymax);
}

int main(void)
{
    test_pixel_order();
    Fixture f;
    fixture_init(&f);
    RsCameraDesc cam = {rs_vec3(0, 1, 5), rs_vec3(0, 1, 0), rs_vec3(0, 1, 0), 60.0f, 0.0f, 0.0f, RS_PROJECTION_PERSPECTIVE, 0.0f};
    f.kp.camera = rs_camera_make(&cam, f.kp.width, f.kp.height);
    uint32_t pixels = f.kp.width * f.kp.height; /* 32 */
    f.kp.wave_first_path = 2ull * pixels + 5;   /* sample 2, pixel 5: not aligned to a pass */
    f.kp.wave_paths = 40;
    for (uint32_t slot = 0; slot < f.kp.wave_paths; ++slot) {
        f.kp.path_radiance[slot] = rs_float4(9, 9, 9, 9);
        rs_stage_generate(&f.kp, slot);
    }
    float tan_y = tanf(30.0f * RS_PI / 180.0f), tan_x = tan_y * 2.0f;
    for (uint32_t slot = 0; slot < f.kp.wave_paths; ++slot) {
        uint64_t g = f.kp.wave_first_path + slot;
        uint32_t pixel = rs_pixel_of_index((uint32_t)(g % pixels), f.kp.width, f.kp.height);
        uint32_t sample = (uint32_t)(g / pixels);
        RsUint4 path = f.kp.rays.path[slot];
        CHECK(path.x == slot && path.y == pixel && path.z == 1u, "slot %u: path = (%u, %u, %u)", slot, path.x, path.y,
              path.z);
        CHECK(path.w == sample, "slot %u: sample index %u, expected %u", slot, path.w, sample);
        RsFloat4 t = f.kp.rays.throughput[slot];
        CHECK(t.x == 1.0f && t.y == 1.0f && t.z == 1.0f && t.w == 0.0f, "slot %u: throughput", slot);
        RsFloat4 r = f.kp.path_radiance[slot];
        CHECK(r.x == 0.0f && r.y == 0.0f && r.z == 0.0f, "slot %u: radiance not cleared", slot);
        RsFloat4 o = f.kp.rays.origin[slot], d = f.kp.rays.direction[slot];
        CHECK(o.x == 0.0f && o.y == 1.0f && o.z == 5.0f && rs_float_as_uint(o.w) == RS_NO_HIT, "slot %u: origin (a camera ray leaves no primitive)", slot);
        CHECK(fabsf(sqrtf(d.x * d.x + d.y * d.y + d.z * d.z) - 1.0f) < 1e-6f && d.w == INFINITY, "slot %u: direction",
              slot);
        /* project back onto the image plane at distance 1 and find the pixel */
        float ndc_x = (d.x / -d.z) / tan_x, ndc_y = (d.y / -d.z) / tan_y;
        float px = (ndc_x + 1.0f) * 0.5f * f.kp.width, py = (1.0f - ndc_y) * 0.5f * f.kp.height;
        CHECK((uint32_t)px == pixel % f.kp.width && (uint32_t)py == pixel / f.kp.width,
              "slot %u: ray through (%g, %g), expected pixel %u", slot, px, py, pixel);
    }

    /* a span of the image (indices 8..23, as a device sharing the image traces it): a path's
     * pixel, sample and random numbers are those of the same path traced in a whole-image pass */
    f.kp.span_first_index = 8;
    f.kp.span_pixels = 16;
    f.kp.wave_first_path = 3ull * 16 + 10; /* sample 3, index 18 */
    f.kp.wave_paths = 20;                  /* indices 18..23, then 8..21 of sample 4 */
    for (uint32_t slot = 0; slot < f.kp.wave_paths; ++slot)
        rs_stage_generate(&f.kp, slot);
    for (uint32_t slot = 0; slot < f.kp.wave_paths; ++slot) {
        uint32_t index = slot < 6 ? 18 + slot : 8 + (slot - 6), sample = slot < 6 ? 3 : 4;
        uint32_t pixel = rs_pixel_of_index(index, f.kp.width, f.kp.height);
        RsUint4 path = f.kp.rays.path[slot];
        CHECK(path.y == pixel && path.w == sample,
              "span slot %u: pixel %u sample %u, expected pixel %u (index %u) of sample %u", slot, path.y, path.w, pixel,
              index, sample);
    }
    fixture_free(&f);
    return rs_test_finish("test_stage_generate");
}
