/* test_features.c - issue 25's rendering features against analytic values, rendered through
 * the renderer (render suite on the CPU; the gpu suite runs it again with `cuda`). Host C11.
 *
 *   test_features [cpu|cuda]
 *
 * A large diffuse floor (albedo a) seen straight down through a narrow view from height 3.
 * 1. Directional light: irradiance E from angle theta to the vertical makes the floor reflect
 *    a E cos(theta) / pi (depth 1; a delta light on a flat floor has no noise but rounding);
 *    a card above the floor shadows it completely (the shadow ray runs to infinity); beside a
 *    constant environment L (two lights at infinity, picked by power beside the light tree) the
 *    floor reflects the sum, a (E cos / pi + L), with the tree and the power method alike.
 * 2. Orthographic camera: an emitting ball of radius 1 in a view 4 high covers pi / 16 of the
 *    image at distance 3 and at 500 alike (a perspective view would shrink it).
 * 3. Thin dielectric: a lamp seen through a tinted pane is dimmed to T' tint (within 1%).
 * 4. Alpha blend: a card of alpha 0.5 passes half of a lamp behind it to camera rays, one of
 *    alpha 0.25 three quarters of a directional light to shadow rays.
 * 5. Checkerboard through a uv_transform, seen by an orthographic camera under a directional
 *    light: every pixel shows its own square's colour, the mean is 1/2.
 */
#include <string.h>

#include "tests/render/render_util.h"
#include "tests/test.h"

enum { SIZE = 16 };
static const float albedo = 0.6f;

static void floor_scene(RsScene* s, RsError* err)
{
    rs_scene_init(s);
    s->camera.eye = rs_vec3(0.0f, 3.0f, 0.0f);
    s->camera.look_at = rs_vec3(0.0f, 0.0f, 0.0f);
    s->camera.up = rs_vec3(0.0f, 0.0f, -1.0f);
    s->camera.fov_degrees = 2.0f;
    int32_t m = rs_scene_add_material(s, "floor", rs_material_make(RS_MAT_DIFFUSE, rs_vec3_splat(albedo),
                                                                   rs_vec3_splat(0.0f), 1.0f, 0), err);
    RsVec3 q[4] = {rs_vec3(-50, 0, -50), rs_vec3(-50, 0, 50), rs_vec3(50, 0, 50), rs_vec3(50, 0, -50)};
    rs_scene_add_triangle(s, q[0], q[1], q[2], (uint32_t)m, err);
    rs_scene_add_triangle(s, q[0], q[2], q[3], (uint32_t)m, err);
}

static RsFloat4* render_film(RsScene* s, const RsBackendConfig* cfg, uint32_t depth, uint32_t spp)
{
    RsError err = {{0}};
    CHECK(rs_scene_build(s, &err) == 0, "%s", err.message);
    TestRender tr = {SIZE, SIZE, spp, depth, RS_INTEGRATOR_PATH, 1, 0, 0};
    RsFloat4* film = test_render(s, cfg, &tr, NULL, &err);
    CHECK(film != NULL, "%s", err.message);
    return film;
}

static double mean_of(RsScene* s, const RsBackendConfig* cfg, uint32_t depth, uint32_t spp)
{
    RsFloat4* film = render_film(s, cfg, depth, spp);
    if (!film)
        return -1.0;
    double mean[3];
    film_mean(film, SIZE * SIZE, mean);
    free(film);
    return mean[0];
}

static void test_directional(const RsBackendConfig* cfg)
{
    const float irradiance = 3.0f;
    const double angles[] = {0.0, 30.0, 60.0};
    for (int i = 0; i < 3; ++i) {
        RsError err = {{0}};
        RsScene s;
        floor_scene(&s, &err);
        double t = angles[i] * RS_PI / 180.0;
        /* the light travels down and sideways: it comes from angle t to the vertical */
        CHECK(rs_scene_add_directional_light(&s, rs_vec3((float)sin(t), (float)-cos(t), 0.0f),
                                             rs_vec3_splat(irradiance), &err) == 0, "%s", err.message);
        double want = albedo * irradiance * cos(t) / RS_PI, got = mean_of(&s, cfg, 1, 2);
        CHECK(fabs(got - want) <= 1e-4 * want, "directional light at %g degrees: %.6f, expected %.6f", angles[i], got,
              want);
        rs_scene_free(&s);
    }
    /* a card between the light and the floor: nothing arrives */
    RsError err = {{0}};
    RsScene s;
    floor_scene(&s, &err);
    rs_scene_add_directional_light(&s, rs_vec3(0.0f, -1.0f, 0.0f), rs_vec3_splat(irradiance), &err);
    uint32_t card = (uint32_t)rs_scene_find_material(&s, "floor");
    RsVec3 q[4] = {rs_vec3(-5, 10, -5), rs_vec3(5, 10, -5), rs_vec3(5, 10, 5), rs_vec3(-5, 10, 5)};
    rs_scene_add_triangle(&s, q[0], q[1], q[2], card, &err);
    rs_scene_add_triangle(&s, q[0], q[2], q[3], card, &err);
    double shadowed = mean_of(&s, cfg, 1, 2);
    CHECK(shadowed == 0.0, "a card above the floor must shadow a directional light (mean %g)", shadowed);
    rs_scene_free(&s);
    /* beside an environment, with both ways of picking lights */
    const float sky = 0.2f;
    for (uint32_t method = 0; method < RS_LIGHT_SELECT_COUNT; ++method) {
        floor_scene(&s, &err);
        s.render.light_sampler = method;
        rs_scene_add_directional_light(&s, rs_vec3(0.6f, -0.8f, 0.0f), rs_vec3_splat(irradiance), &err);
        s.env.zenith = rs_float4(sky, sky, sky, rs_uint_as_float(RS_ENV_CONSTANT));
        double want = albedo * (irradiance * 0.8 / RS_PI + sky), got = mean_of(&s, cfg, 1, 256);
        CHECK(fabs(got - want) <= 0.02 * want, "directional light and sky (light sampler %u): %.5f, expected %.5f",
              method, got, want);
        rs_scene_free(&s);
    }
}

/* An orthographic view 4 high of an emitting ball of radius 1 covers pi / 16 of the square image,
 * however far the ball is. */
static void test_orthographic(const RsBackendConfig* cfg)
{
    for (int far = 0; far < 2; ++far) {
        RsError err = {{0}};
        RsScene s;
        rs_scene_init(&s);
        s.camera.eye = rs_vec3(0.0f, 0.0f, 0.0f);
        s.camera.look_at = rs_vec3(0.0f, 0.0f, -1.0f);
        s.camera.projection = RS_PROJECTION_ORTHOGRAPHIC;
        s.camera.ortho_height = 4.0f;
        int32_t m = rs_scene_add_material(&s, "lamp", rs_material_make(RS_MAT_DIFFUSE, rs_vec3_splat(0.0f),
                                                                      rs_vec3_splat(1.0f), 1.0f, 0), &err);
        rs_scene_add_sphere(&s, rs_vec3(0.0f, 0.0f, far ? -500.0f : -3.0f), 1.0f, (uint32_t)m, &err);
        double want = RS_PI / 16.0, got = mean_of(&s, cfg, 1, 64);
        CHECK(fabs(got - want) <= 0.01 * want, "orthographic ball at distance %g covers %.5f, expected %.5f",
              far ? 500.0 : 3.0, got, want);
        rs_scene_free(&s);
    }
}

static void add_quad_z(RsScene* s, float z, float half, uint32_t material, RsError* err)
{
    /* counter-clockwise seen from +z: the front faces +z */
    RsVec3 q[4] = {rs_vec3(-half, -half, z), rs_vec3(half, -half, z), rs_vec3(half, half, z), rs_vec3(-half, half, z)};
    rs_scene_add_triangle(s, q[0], q[1], q[2], material, err);
    rs_scene_add_triangle(s, q[0], q[2], q[3], material, err);
}

/* A lamp of radiance 1 seen head-on through a thin pane of ior 1.5 tinted (1, 0.5, 0.25): the
 * image is T' tint, T' = 1 - 2R / (1 + R), R = (0.5 / 2.5)^2 (the view is 2 degrees wide, where
 * R changes by less than 1e-5). The pane reflects the rest back into the black sky. */
static void test_thin_pane(const RsBackendConfig* cfg)
{
    RsError err = {{0}};
    RsScene s;
    rs_scene_init(&s);
    s.camera.eye = rs_vec3(0.0f, 0.0f, 3.0f);
    s.camera.look_at = rs_vec3(0.0f, 0.0f, 0.0f);
    s.camera.fov_degrees = 2.0f;
    RsMaterialDesc pane = rs_material_desc(RS_MAT_THIN_DIELECTRIC);
    pane.colour = rs_vec3(1.0f, 0.5f, 0.25f);
    RsMaterialDesc lamp = rs_material_desc(RS_MAT_DIFFUSE);
    lamp.colour = rs_vec3_splat(0.0f);
    lamp.emission = rs_vec3_splat(1.0f);
    uint32_t pm = (uint32_t)rs_scene_add_material_desc(&s, "pane", &pane, &err);
    uint32_t lm = (uint32_t)rs_scene_add_material_desc(&s, "lamp", &lamp, &err);
    add_quad_z(&s, 0.0f, 5.0f, pm, &err);
    add_quad_z(&s, -2.0f, 5.0f, lm, &err);
    CHECK(err.message[0] == 0, "%s", err.message);
    RsFloat4* film = render_film(&s, cfg, 2, 64);
    if (film) {
        double mean[3], r = 0.04, t = 1.0 - 2.0 * r / (1.0 + r);
        film_mean(film, SIZE * SIZE, mean);
        const double tint[3] = {1.0, 0.5, 0.25};
        for (int c = 0; c < 3; ++c)
            CHECK(fabs(mean[c] - t * tint[c]) <= 0.01 * t * tint[c], "through a thin pane, channel %d: %.5f, expected "
                  "%.5f", c, mean[c], t * tint[c]);
        free(film);
    }
    rs_scene_free(&s);
}

/* A black card of alpha 0.5 (RS_ALPHA_BLEND, constant opacity) in front of the lamp lets half
 * of its light through; a floor under a directional light behind a card of alpha 0.25 gets
 * 0.75 of it, through shadow rays that pass the card stochastically (within 2%). */
static void test_blend_card(const RsBackendConfig* cfg)
{
    RsError err = {{0}};
    RsScene s;
    rs_scene_init(&s);
    s.camera.eye = rs_vec3(0.0f, 0.0f, 3.0f);
    s.camera.look_at = rs_vec3(0.0f, 0.0f, 0.0f);
    s.camera.fov_degrees = 2.0f;
    RsMaterialDesc card = rs_material_desc(RS_MAT_DIFFUSE);
    card.colour = rs_vec3_splat(0.0f);
    card.alpha_mode = RS_ALPHA_BLEND;
    card.opacity = 0.5f;
    RsMaterialDesc lamp = rs_material_desc(RS_MAT_DIFFUSE);
    lamp.colour = rs_vec3_splat(0.0f);
    lamp.emission = rs_vec3_splat(1.0f);
    add_quad_z(&s, 0.0f, 5.0f, (uint32_t)rs_scene_add_material_desc(&s, "card", &card, &err), &err);
    add_quad_z(&s, -2.0f, 5.0f, (uint32_t)rs_scene_add_material_desc(&s, "lamp", &lamp, &err), &err);
    double got = mean_of(&s, cfg, 1, 64);
    CHECK(fabs(got - 0.5) <= 0.02, "a lamp behind a card of alpha 0.5: %.4f, expected 0.5", got);
    rs_scene_free(&s);

    floor_scene(&s, &err);
    rs_scene_add_directional_light(&s, rs_vec3(0.0f, -1.0f, 0.0f), rs_vec3_splat(1.0f), &err);
    card.opacity = 0.25f;
    uint32_t cm = (uint32_t)rs_scene_add_material_desc(&s, "card", &card, &err);
    RsVec3 q[4] = {rs_vec3(-5, 10, -5), rs_vec3(5, 10, -5), rs_vec3(5, 10, 5), rs_vec3(-5, 10, 5)};
    rs_scene_add_triangle(&s, q[0], q[1], q[2], cm, &err);
    rs_scene_add_triangle(&s, q[0], q[2], q[3], cm, &err);
    double want = 0.75 * albedo / RS_PI;
    got = mean_of(&s, cfg, 1, 64);
    CHECK(fabs(got - want) <= 0.02 * want, "a floor lit through a card of alpha 0.25: %.5f, expected %.5f", got, want);
    rs_scene_free(&s);
}

/* An orthographic view that just covers a unit quad (uv = its x and 1 - its y as seen) carrying
 * a white and black checkerboard repeated 4 times each way by uv_transform: 8 x 8 squares of
 * 2 x 2 pixels, lit head-on by a directional light of irradiance pi (so radiance = albedo).
 * Every pixel lies inside one square: its value is nearer that square's colour than the other
 * (the footprint's box blurs only the half-pixel at square edges), and the image mean is 1/2. */
static void test_checker_transform(const RsBackendConfig* cfg)
{
    RsError err = {{0}};
    RsScene s;
    rs_scene_init(&s);
    s.camera.eye = rs_vec3(0.5f, 0.5f, 2.0f);
    s.camera.look_at = rs_vec3(0.5f, 0.5f, 0.0f);
    s.camera.projection = RS_PROJECTION_ORTHOGRAPHIC;
    s.camera.ortho_height = 1.0f;
    RsMaterialDesc d = rs_material_desc(RS_MAT_DIFFUSE);
    d.colour_texture = (uint32_t)rs_scene_add_checkerboard(&s, rs_vec3_splat(1.0f), rs_vec3_splat(0.0f), &err);
    d.colour = rs_vec3_splat(1.0f);
    d.uv_transform[0] = d.uv_transform[4] = 4.0f;
    uint32_t m = (uint32_t)rs_scene_add_material_desc(&s, "board", &d, &err);
    RsVec3 q[4] = {rs_vec3(0, 0, 0), rs_vec3(1, 0, 0), rs_vec3(1, 1, 0), rs_vec3(0, 1, 0)};
    const float uv0[6] = {0, 0, 1, 0, 1, 1}, uv1[6] = {0, 0, 1, 1, 0, 1};
    rs_scene_add_triangle_shaded(&s, q[0], q[1], q[2], NULL, uv0, m, &err);
    rs_scene_add_triangle_shaded(&s, q[0], q[2], q[3], NULL, uv1, m, &err);
    rs_scene_add_directional_light(&s, rs_vec3(0.0f, 0.0f, -1.0f), rs_vec3_splat((float)RS_PI), &err);
    CHECK(err.message[0] == 0, "%s", err.message);
    RsFloat4* film = render_film(&s, cfg, 1, 16);
    if (film) {
        int wrong = 0;
        double sum = 0.0;
        for (int y = 0; y < SIZE; ++y)
            for (int x = 0; x < SIZE; ++x) {
                /* pixel (x, y) covers u in [x, x + 1) / 16 and v in [15 - y, 16 - y) / 16: cell
                 * (floor(8u), floor(8v)) = (x / 2, (15 - y) / 2), white when their sum is even */
                int white = ((x / 2) + ((SIZE - 1 - y) / 2)) % 2 == 0;
                float value = film[y * SIZE + x].x / film[y * SIZE + x].w;
                sum += value;
                wrong += white ? !(value > 0.6f) : !(value < 0.4f);
            }
        CHECK(wrong == 0, "%d pixels of the transformed checkerboard are nearer the wrong colour", wrong);
        CHECK(fabs(sum / (SIZE * SIZE) - 0.5) < 0.01, "the checkerboard's mean is %.4f, expected 0.5",
              sum / (SIZE * SIZE));
        free(film);
    }
    rs_scene_free(&s);
}

int main(int argc, char** argv)
{
    RsBackendConfig cfg;
    int cuda;
    if (!test_backend(argc, argv, 1, "test_features", &cfg, &cuda))
        return RS_TEST_SKIP;
    test_directional(&cfg);
    test_orthographic(&cfg);
    test_thin_pane(&cfg);
    test_blend_card(&cfg);
    test_checker_transform(&cfg);
    return rs_test_finish("test_features");
}
