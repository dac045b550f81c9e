/* test_stage_generate.c - camera rays of the generate stage (kernel suite). Host C11.
 * Slots map to pixels and samples as g = sample * pixels + pixel, rays start alive at depth 1
 * with unit throughput, and each ray passes through its own pixel's footprint. */
#include "../../src/kernel/rng.h"
#include "../../src/kernel/stage_generate.h"
#include "stage_fixture.h"

int main(void)
{
    Fixture f;
    fixture_init(&f);
    RsCameraDesc cam = {rs_vec3(0, 1, 5), rs_vec3(0, 1, 0), rs_vec3(0, 1, 0), 60.0f, 0.0f, 0.0f};
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
        uint32_t pixel = (uint32_t)(g % pixels), sample = (uint32_t)(g / pixels);
        RsUint4 path = f.kp.rays.path[slot];
        CHECK(path.x == slot && path.y == pixel && path.z == 1u, "slot %u: path = (%u, %u, %u)", slot, path.x, path.y,
              path.z);
        CHECK(path.w == rs_rng_path_key(f.kp.seed, pixel, sample), "slot %u: rng key", slot);
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
    fixture_free(&f);
    return rs_test_finish("test_stage_generate");
}
