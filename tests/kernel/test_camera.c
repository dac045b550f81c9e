/* test_camera.c - camera rays (src/kernel/geometry/camera.h) and the pixel footprint textures
 * use (kernel/texture/surface_texture.h) against their definitions (kernel suite). Host C11.
 *
 * 1. Orthographic: the ray through film point (x, y) starts at eye + right ndc_x w/2 +
 *    up ndc_y h/2 (w = h times the aspect) and runs exactly along forward; the view is h high
 *    and w wide whatever the distance; a pixel's footprint is h / height at every distance.
 * 2. Orthographic with a lens: rays from every lens point through one film point meet on the
 *    plane of focus, at the pinhole ray's point there.
 * 3. Perspective is unchanged: a pixel ray's direction is forward + right ndc_x tan_x +
 *    up ndc_y tan_y normalized, and the footprint grows with the distance.
 * 4. rs_scene_build refuses an orthographic camera without a positive height.
 */
#include "host/scene/scene.h"
#include "kernel/texture/surface_texture.h"
#include "tests/test.h"

static float dist3(RsVec3 a, RsVec3 b) { return rs_length(rs_sub(a, b)); }

static void test_orthographic(void)
{
    const uint32_t width = 40, height = 20;
    RsCameraDesc desc = {rs_vec3(1, 2, 3), rs_vec3(1, 2, -7), rs_vec3(0, 1, 0), 40.0f, 0.0f, 0.0f,
                         RS_PROJECTION_ORTHOGRAPHIC, 4.0f};
    RsCamera cam = rs_camera_make(&desc, width, height);
    CHECK(rs_camera_orthographic(&cam), "the camera must be orthographic");
    /* looking down -z with y up: right is +x */
    const float film[][2] = {{0, 0}, {40, 20}, {20, 10}, {7.25f, 13.5f}, {39.5f, 0.5f}};
    for (int i = 0; i < 5; ++i) {
        RsVec3 o, d;
        rs_camera_ray(&cam, film[i][0], film[i][1], width, height, 0.3f, 0.7f, &o, &d);
        float ndc_x = 2.0f * film[i][0] / width - 1.0f, ndc_y = 1.0f - 2.0f * film[i][1] / height;
        RsVec3 want = rs_vec3(1.0f + ndc_x * 4.0f, 2.0f + ndc_y * 2.0f, 3.0f); /* w = 8, h = 4 */
        CHECK(dist3(o, want) < 1e-5f, "film (%g, %g): origin (%g, %g, %g), expected (%g, %g, %g)", film[i][0],
              film[i][1], o.x, o.y, o.z, want.x, want.y, want.z);
        CHECK(d.x == 0.0f && d.y == 0.0f && d.z == -1.0f, "film (%g, %g): direction (%g, %g, %g), expected (0, 0, -1)",
              film[i][0], film[i][1], d.x, d.y, d.z);
    }
    RsKernelParams kp;
    memset(&kp, 0, sizeof kp);
    kp.camera = cam;
    kp.width = width;
    kp.height = height;
    float near = rs_pixel_footprint(&kp, rs_vec3(1, 2, 2)), far = rs_pixel_footprint(&kp, rs_vec3(5, 0, -300));
    CHECK(near == far && fabsf(near - 4.0f / height) < 1e-7f, "orthographic footprint %g near, %g far; expected %g",
          near, far, 4.0f / height);

    /* a lens: every ray through one film point meets the pinhole ray on the plane of focus */
    desc.aperture_radius = 0.5f;
    desc.focus_distance = 6.0f;
    cam = rs_camera_make(&desc, width, height);
    RsVec3 o0, d0;
    desc.aperture_radius = 0.0f;
    RsCamera pinhole = rs_camera_make(&desc, width, height);
    rs_camera_ray(&pinhole, 11.0f, 4.0f, width, height, 0.0f, 0.0f, &o0, &d0);
    RsVec3 focus = rs_add(o0, rs_scale(d0, 6.0f));
    float worst = 0.0f, spread = 0.0f;
    for (int k = 0; k < 16; ++k) {
        RsVec3 o, d;
        rs_camera_ray(&cam, 11.0f, 4.0f, width, height, (k % 4 + 0.5f) / 4.0f, (k / 4 + 0.5f) / 4.0f, &o, &d);
        float t = (focus.z - o.z) / d.z; /* the plane of focus is z = 3 - 6 */
        worst = fmaxf(worst, dist3(rs_add(o, rs_scale(d, t)), focus));
        spread = fmaxf(spread, dist3(o, o0));
        CHECK(fabsf(rs_length(d) - 1.0f) < 1e-6f, "lens ray %d: direction not unit", k);
    }
    CHECK(worst < 1e-5f, "orthographic lens rays miss the focus point by up to %g", worst);
    CHECK(spread > 0.2f && spread <= 0.5f + 1e-6f, "lens rays start up to %g from the pinhole ray (radius 0.5)", spread);
}

static void test_perspective(void)
{
    const uint32_t width = 30, height = 10;
    RsCameraDesc desc = {rs_vec3(0, 0, 0), rs_vec3(0, 0, -1), rs_vec3(0, 1, 0), 50.0f, 0.0f, 0.0f,
                         RS_PROJECTION_PERSPECTIVE, 0.0f};
    RsCamera cam = rs_camera_make(&desc, width, height);
    CHECK(!rs_camera_orthographic(&cam), "the camera must be perspective");
    float tan_y = tanf(25.0f * RS_PI / 180.0f), tan_x = tan_y * 3.0f;
    RsVec3 o, d;
    rs_camera_ray(&cam, 3.0f, 8.0f, width, height, 0.5f, 0.5f, &o, &d);
    RsVec3 want = rs_normalize(rs_vec3((2.0f * 3.0f / width - 1.0f) * tan_x, (1.0f - 2.0f * 8.0f / height) * tan_y, -1.0f));
    CHECK(dist3(o, rs_vec3_splat(0.0f)) == 0.0f && dist3(d, want) < 1e-6f, "perspective ray (%g, %g, %g)", d.x, d.y,
          d.z);
    RsKernelParams kp;
    memset(&kp, 0, sizeof kp);
    kp.camera = cam;
    kp.width = width;
    kp.height = height;
    float f1 = rs_pixel_footprint(&kp, rs_vec3(0, 0, -1)), f4 = rs_pixel_footprint(&kp, rs_vec3(0, 0, -4));
    CHECK(fabsf(f1 - 2.0f * tan_y / height) < 1e-6f && fabsf(f4 - 4.0f * f1) < 1e-6f,
          "perspective footprints %g at 1, %g at 4", f1, f4);
}

static void test_refusal(void)
{
    RsError err = {{0}};
    RsScene s;
    rs_scene_init(&s);
    int32_t m = rs_scene_add_material(&s, "grey", rs_material_make(RS_MAT_DIFFUSE, rs_vec3_splat(0.5f),
                                                                   rs_vec3_splat(0.0f), 1.0f, 0), &err);
    rs_scene_add_sphere(&s, rs_vec3(0, 0, -3), 1.0f, (uint32_t)m, &err);
    s.camera.projection = RS_PROJECTION_ORTHOGRAPHIC;
    s.camera.ortho_height = 0.0f;
    CHECK(rs_scene_build(&s, &err) != 0 && strstr(err.message, "ortho_height"), "an orthographic camera of height 0 "
          "must be refused (%s)", err.message);
    s.camera.ortho_height = 2.0f;
    CHECK(rs_scene_build(&s, &err) == 0, "%s", err.message);
    rs_scene_free(&s);
}

int main(void)
{
    test_orthographic();
    test_perspective();
    test_refusal();
    return rs_test_finish("test_camera");
}
