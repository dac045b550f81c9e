/* test_camera_importance.c - the camera seen from the scene (src/kernel/geometry/
 * camera_importance.h) against the camera rays it inverts (kernel/geometry/camera.h). Host
 * C11, kernel suite.
 *
 * For a pinhole, a thin lens (focused elsewhere than the points tested) and an orthographic
 * camera, all looking along a direction that is no axis:
 * 1. Round trip: the camera ray through a random film point (and lens point) and a point along
 *    it; rs_camera_connect with the same lens point names the pixel of that film point, the lens
 *    point as q, the way back along the ray as to_camera and the distance as dist. Points
 *    behind the camera or outside the view are refused, and so is an orthographic camera with a
 *    lens.
 * 2. Normalisation: over a plane that covers the whole view, the integral of importance x
 *    |cos_p| dA is 1 (Monte Carlo over the plane, lens points drawn too), for a plane facing the
 *    camera and one turned 40 degrees; each pixel gets 1 / (width x height) of it. That is what
 *    makes a light-traced pixel the same estimate as a path-traced one.
 */
#include "host/scene/scene.h"
#include "kernel/geometry/camera_importance.h"
#include "kernel/sampling/rng.h"
#include "tests/test.h"

enum { WIDTH = 8, HEIGHT = 6, PIXELS = WIDTH * HEIGHT };

static RsCamera make_camera(uint32_t projection, float aperture)
{
    RsCameraDesc desc = {rs_vec3(1, 2, 3), rs_vec3(-2, 1, -5), rs_vec3(0, 1, 0), 50.0f, aperture, 9.0f,
                         projection, 4.0f};
    return rs_camera_make(&desc, WIDTH, HEIGHT);
}

static float dist3(RsVec3 a, RsVec3 b) { return rs_length(rs_sub(a, b)); }

static void test_round_trip(const char* name, const RsCamera* cam)
{
    uint32_t wrong_pixel = 0, wrong_way = 0, refused = 0, accepted_behind = 0, accepted_outside = 0;
    for (uint32_t k = 0; k < 20000; ++k) {
        uint32_t key = rs_rng_path_key(31, k, 0);
        /* keep clear of pixel edges, where float rounding may pick the neighbour */
        uint32_t px = k % WIDTH, py = (k / WIDTH) % HEIGHT;
        float fx = px + 0.01f + 0.98f * rs_rng(key, 0, 0), fy = py + 0.01f + 0.98f * rs_rng(key, 0, 1);
        float lu = rs_rng(key, 0, 2), lv = rs_rng(key, 0, 3), t = 0.5f + 30.0f * rs_rng(key, 0, 4);
        RsVec3 o, d;
        rs_camera_ray(cam, fx, fy, WIDTH, HEIGHT, lu, lv, &o, &d);
        RsCameraConnection c;
        if (!rs_camera_connect(cam, WIDTH, HEIGHT, rs_add(o, rs_scale(d, t)), lu, lv, &c)) {
            ++refused;
            continue;
        }
        wrong_pixel += c.pixel != py * WIDTH + px;
        wrong_way += dist3(c.to_camera, rs_neg(d)) > 1e-4f || dist3(c.q, o) > 1e-4f * (1.0f + rs_length(o)) ||
                     fabsf(c.dist - t) > 1e-4f * t || !(c.importance > 0.0f);
        /* behind the camera: the same ray backwards from its start */
        accepted_behind += rs_camera_connect(cam, WIDTH, HEIGHT, rs_sub(o, rs_scale(d, t)), lu, lv, &c);
        /* outside the view: a film point beyond an edge, extrapolated by the same ray formula */
        float ox = k & 1 ? -0.05f - rs_rng(key, 0, 5) : WIDTH + 0.05f + rs_rng(key, 0, 5);
        float oy = k & 2 ? -0.05f - rs_rng(key, 0, 6) : HEIGHT + 0.05f + rs_rng(key, 0, 6);
        rs_camera_ray(cam, k & 4 ? ox : fx, k & 4 ? fy : oy, WIDTH, HEIGHT, lu, lv, &o, &d);
        accepted_outside += rs_camera_connect(cam, WIDTH, HEIGHT, rs_add(o, rs_scale(d, t)), lu, lv, &c);
    }
    CHECK(refused == 0, "%s: %u points on camera rays refused", name, refused);
    CHECK(wrong_pixel == 0, "%s: %u points land in another pixel than their ray's", name, wrong_pixel);
    CHECK(wrong_way == 0, "%s: %u connections with the wrong q, to_camera, dist or importance", name, wrong_way);
    CHECK(accepted_behind == 0, "%s: %u points behind the camera accepted", name, accepted_behind);
    CHECK(accepted_outside == 0, "%s: %u points outside the view accepted", name, accepted_outside);
}

/* The integral of importance |cos_p| over a plane at distance `depth` along forward, turned
 * by `tilt` about up, Monte Carlo over a rectangle of it (half-sizes hu across, hv along up)
 * that covers the view; per pixel too. */
static void check_normalisation(const char* name, const RsCamera* cam, float depth, float tilt_degrees, float hu,
                                float hv)
{
    RsVec3 fwd = rs_xyz(cam->forward), right = rs_xyz(cam->right), up = rs_xyz(cam->up);
    float tilt = tilt_degrees * RS_PI / 180.0f;
    RsVec3 n = rs_add(rs_scale(fwd, -cosf(tilt)), rs_scale(right, sinf(tilt))); /* towards the camera */
    RsVec3 across = rs_normalize(rs_cross(up, n));
    RsVec3 centre = rs_add(rs_xyz(cam->eye), rs_scale(fwd, depth));
    const uint32_t samples = 400000;
    double area = 4.0 * hu * hv, sum = 0.0, sum2 = 0.0, pixel[PIXELS] = {0};
    uint32_t hits = 0, edge_hits = 0;
    for (uint32_t k = 0; k < samples; ++k) {
        uint32_t key = rs_rng_path_key(37, k, 0);
        float s = (2.0f * rs_rng(key, 0, 0) - 1.0f) * hu, t = (2.0f * rs_rng(key, 0, 1) - 1.0f) * hv;
        RsVec3 p = rs_add(centre, rs_add(rs_scale(across, s), rs_scale(up, t)));
        RsCameraConnection c;
        if (!rs_camera_connect(cam, WIDTH, HEIGHT, p, rs_rng(key, 0, 2), rs_rng(key, 0, 3), &c))
            continue;
        double f = c.importance * fabs(rs_dot(n, c.to_camera)) * area;
        sum += f;
        sum2 += f * f;
        pixel[c.pixel] += f;
        ++hits;
        edge_hits += fabsf(s) > 0.95f * hu || fabsf(t) > 0.95f * hv;
    }
    double mean = sum / samples, sigma = sqrt(fmax(sum2 / samples - mean * mean, 0.0) / samples);
    CHECK(edge_hits == 0, "%s, tilt %g: the plane's rectangle does not cover the view (%u hits at its edge)", name,
          tilt_degrees, edge_hits);
    CHECK(hits > samples / 10 && sigma < 0.005, "%s, tilt %g: %u of %u samples in view, standard error %g", name,
          tilt_degrees, hits, samples, sigma);
    CHECK(fabs(mean - 1.0) < 0.02 && fabs(mean - 1.0) < 5.0 * sigma + 1e-3,
          "%s, tilt %g: integral of importance |cos| dA = %.5f (standard error %.2g), expected 1", name,
          tilt_degrees, mean, sigma);
    double worst = 0.0;
    for (int j = 0; j < PIXELS; ++j)
        worst = fmax(worst, fabs(pixel[j] / samples * PIXELS - 1.0));
    CHECK(worst < 0.12, "%s, tilt %g: a pixel's share is off 1 / %d by %.1f%%", name, tilt_degrees, PIXELS,
          100.0 * worst);
}

static void test_refusals(void)
{
    RsCamera ortho_lens = make_camera(RS_PROJECTION_ORTHOGRAPHIC, 0.2f);
    RsCameraConnection c;
    RsVec3 ahead = rs_add(rs_xyz(ortho_lens.eye), rs_scale(rs_xyz(ortho_lens.forward), 5.0f));
    CHECK(!rs_camera_connect(&ortho_lens, WIDTH, HEIGHT, ahead, 0.5f, 0.5f, &c),
          "an orthographic camera with a lens must be refused");
    RsCamera pinhole = make_camera(RS_PROJECTION_PERSPECTIVE, 0.0f);
    CHECK(!rs_camera_connect(&pinhole, WIDTH, HEIGHT, rs_xyz(pinhole.eye), 0.5f, 0.5f, &c),
          "the eye itself must be refused");
    RsVec3 beside = rs_add(rs_xyz(pinhole.eye), rs_xyz(pinhole.right));
    CHECK(!rs_camera_connect(&pinhole, WIDTH, HEIGHT, beside, 0.5f, 0.5f, &c),
          "a point in the eye's plane must be refused");
}

int main(void)
{
    RsCamera pinhole = make_camera(RS_PROJECTION_PERSPECTIVE, 0.0f);
    RsCamera lens = make_camera(RS_PROJECTION_PERSPECTIVE, 0.3f);
    RsCamera ortho = make_camera(RS_PROJECTION_ORTHOGRAPHIC, 0.0f);
    CHECK(!rs_camera_orthographic(&pinhole) && pinhole.eye.w == 0.0f && lens.eye.w > 0.0f &&
              rs_camera_orthographic(&ortho),
          "the cameras are not what the test means");
    test_round_trip("pinhole", &pinhole);
    test_round_trip("thin lens", &lens);
    test_round_trip("orthographic", &ortho);
    test_refusals();
    /* at depth 5 the view is 2 x 5 tan(25 deg) = 4.66 high and 6.22 wide; turned 40 degrees
     * the plane reaches about 3 times as far across on one side */
    check_normalisation("pinhole", &pinhole, 5.0f, 0.0f, 3.6f, 2.8f);
    check_normalisation("pinhole", &pinhole, 5.0f, 40.0f, 11.0f, 5.5f);
    check_normalisation("thin lens", &lens, 5.0f, 0.0f, 3.8f, 3.0f);
    check_normalisation("thin lens", &lens, 5.0f, 40.0f, 11.0f, 5.5f);
    /* near the lens, where the lens point's offset from the eye matters most */
    check_normalisation("thin lens, near", &lens, 1.0f, 0.0f, 1.0f, 0.85f);
    /* orthographic: the view is 4 high and 16/3 wide */
    check_normalisation("orthographic", &ortho, 5.0f, 0.0f, 2.9f, 2.2f);
    check_normalisation("orthographic", &ortho, 5.0f, 40.0f, 3.8f, 2.2f);
    return rs_test_finish("test_camera_importance");
}
