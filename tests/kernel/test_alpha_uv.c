/* test_alpha_uv.c - material texture transforms and alpha modes (kernel suite). Host C11.
 *
 * 1. uv_transform: rs_texture_point reads a triangle's coordinates through the material's
 *    transform (u' = m0 u + m1 v + m2, v' = m3 u + m4 v + m5) and scales the coordinate area by
 *    its determinant (the footprint's level of detail); the tangent frame of normal and bump maps
 *    follows it: a transform that turns (u, v) by 90 degrees turns dp/du' to the old dp/dv or
 *    its opposite, and dp/du' maps to (1, 0) in the new coordinates; a cut-out's mask is read
 *    through it too.
 * 2. Mask: a hole exactly where alpha texture x opacity < cutoff (at the cutoff: no hole), with
 *    or without a texture; the default (cutoff 0.5, opacity 1) is unchanged.
 * 3. Blend: a card of alpha 0.5 lets through 50% of 40000 random rays (within 4 standard
 *    deviations), alpha 0.2 80%; the decision is a pure function of the ray and the primitive
 *    (the same ray twice decides the same way).
 */
#include "host/scene/scene.h"
#include "kernel/sampling/rng.h"
#include "kernel/texture/normal_map.h"
#include "tests/test.h"

/* A scene with one triangle (0,0,0) (1,0,0) (0,1,0) with uv = xy and material `d`. */
static void one_triangle(RsScene* s, RsMaterialDesc d)
{
    RsError err = {{0}};
    rs_scene_init(s);
    int32_t m = rs_scene_add_material_desc(s, "m", &d, &err);
    const float uv[6] = {0, 0, 1, 0, 0, 1};
    rs_scene_add_triangle_shaded(s, rs_vec3(0, 0, 0), rs_vec3(1, 0, 0), rs_vec3(0, 1, 0), NULL, uv, (uint32_t)m, &err);
    CHECK(rs_scene_build(s, &err) == 0, "%s", err.message);
}

static void test_transform(void)
{
    RsMaterialDesc d = rs_material_desc(RS_MAT_DIFFUSE);
    const float t[6] = {0.0f, -2.0f, 0.5f, 2.0f, 0.0f, 0.25f}; /* turn by 90 degrees, scale 2, move */
    memcpy(d.uv_transform, t, sizeof t);
    RsScene s;
    one_triangle(&s, d);
    RsSceneView v = rs_scene_view(&s);
    float b1 = 0.3f, b2 = 0.2f; /* (u, v) = (0.3, 0.2) */
    RsTexturePoint p = rs_texture_point(&v, &v.prims[0], 0, b1, b2, rs_vec3(0.3f, 0.2f, 0.0f));
    CHECK(fabsf(p.u - (0.5f - 2.0f * 0.2f)) < 1e-6f && fabsf(p.v - (2.0f * 0.3f + 0.25f)) < 1e-6f,
          "transformed coordinates (%g, %g), expected (%g, %g)", p.u, p.v, 0.5f - 0.4f, 0.85f);
    CHECK(fabsf(p.uv_area - 4.0f) < 1e-5f, "the transformed coordinate area is %g, expected 4 (det 4)", p.uv_area);
    RsVec3 dpdu, dpdv;
    CHECK(rs_surface_tangents(&v, &v.prims[0], 0, rs_vec3(0.3f, 0.2f, 0.0f), &dpdu, &dpdv), "no tangents");
    CHECK(rs_uv_transform_tangents(&v.materials[0], &dpdu, &dpdv), "the transform collapsed the tangents");
    /* u' = 0.5 - 2y: u' grows along -y at 2 per unit, so dp/du' = (0, -0.5, 0); v' = 2x + 0.25 */
    CHECK(fabsf(dpdu.x) < 1e-6f && fabsf(dpdu.y + 0.5f) < 1e-6f && fabsf(dpdv.x - 0.5f) < 1e-6f &&
          fabsf(dpdv.y) < 1e-6f, "dp/du' = (%g, %g), dp/dv' = (%g, %g)", dpdu.x, dpdu.y, dpdv.x, dpdv.y);
    RsMaterialDesc flat = rs_material_desc(RS_MAT_DIFFUSE);
    flat.uv_transform[4] = 0.0f; /* v' = 0: no frame */
    RsMaterial fm = rs_material_from_desc(&flat);
    CHECK(!rs_uv_transform_tangents(&fm, &dpdu, &dpdv), "a transform of determinant 0 has no tangent frame");
    rs_scene_free(&s);
}

/* A 2x1 mask texture: alpha 255 on the left half of (u in [0, 0.5)), 128 (0.502) on the right. */
static int32_t add_mask(RsScene* s)
{
    RsError err = {{0}};
    const uint8_t texels[8] = {255, 255, 255, 255, 255, 255, 255, 128};
    return rs_texture_add_rgba8(&s->textures, "mask", texels, 2, 1, 0, &err);
}

static int hole_at(const RsScene* s, float b1, float b2)
{
    return rs_cutout_hole(&s->cutouts, 0, b1, b2, rs_vec3(0.2f, 0.2f, 1.0f), rs_vec3(0, 0, -1));
}

static void test_mask(void)
{
    const struct {
        float cutoff, opacity;
        int texture, hole;
    } cases[] = {
        {0.5f, 1.0f, 1, 0},                /* 0.502 >= 0.5 */
        {128.0f / 255.0f, 1.0f, 1, 0},     /* exactly at the cutoff: there */
        {0.51f, 1.0f, 1, 1},               /* 0.502 < 0.51 */
        {0.5f, 0.99f, 1, 1},               /* 0.497 < 0.5 */
        {0.5f, 0.5f, 0, 0},                /* opacity alone, at the cutoff */
        {0.5f, 0.49f, 0, 1},
        {0.0f, 0.0f, 0, 0},                /* cutoff 0: never a hole */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        RsScene s;
        rs_scene_init(&s);
        RsMaterialDesc d = rs_material_desc(RS_MAT_DIFFUSE);
        d.alpha_texture = cases[i].texture ? (uint32_t)add_mask(&s) : RS_NO_TEXTURE;
        d.alpha_cutoff = cases[i].cutoff;
        d.opacity = cases[i].opacity;
        RsError err = {{0}};
        int32_t m = rs_scene_add_material_desc(&s, "m", &d, &err);
        const float uv[6] = {0, 0, 1, 0, 0, 1};
        rs_scene_add_triangle_shaded(&s, rs_vec3(0, 0, 0), rs_vec3(1, 0, 0), rs_vec3(0, 1, 0), NULL, uv, (uint32_t)m,
                                     &err);
        CHECK(rs_scene_build(&s, &err) == 0, "%s", err.message);
        int want_cutouts = cases[i].texture || cases[i].opacity < 1.0f;
        CHECK(s.has_cutouts == want_cutouts, "case %zu: has_cutouts %d", i, s.has_cutouts);
        /* (u, v) = (0.75, 0.1): the right texel */
        int hole = s.has_cutouts && hole_at(&s, 0.75f, 0.1f);
        CHECK(hole == cases[i].hole, "case %zu (cutoff %g, opacity %g%s): hole %d, expected %d", i, cases[i].cutoff,
              cases[i].opacity, cases[i].texture ? ", texture" : "", hole, cases[i].hole);
        if (cases[i].texture && cases[i].opacity == 1.0f) /* the left texel is opaque */
            CHECK(!hole_at(&s, 0.1f, 0.1f), "case %zu: a hole where alpha is 1", i);
        rs_scene_free(&s);
    }
    /* the mask is read through the uv transform: u' = u + 0.5 moves the right texel to the left */
    RsScene s;
    rs_scene_init(&s);
    RsMaterialDesc d = rs_material_desc(RS_MAT_DIFFUSE);
    d.alpha_texture = (uint32_t)add_mask(&s);
    d.alpha_cutoff = 0.51f;
    d.uv_transform[2] = 0.5f;
    RsError err = {{0}};
    int32_t m = rs_scene_add_material_desc(&s, "m", &d, &err);
    const float uv[6] = {0, 0, 1, 0, 0, 1};
    rs_scene_add_triangle_shaded(&s, rs_vec3(0, 0, 0), rs_vec3(1, 0, 0), rs_vec3(0, 1, 0), NULL, uv, (uint32_t)m, &err);
    CHECK(rs_scene_build(&s, &err) == 0, "%s", err.message);
    CHECK(hole_at(&s, 0.25f, 0.1f) && !hole_at(&s, 0.75f, 0.1f), "the mask must be read through the uv transform");
    rs_scene_free(&s);
}

static void test_blend(void)
{
    const float alphas[] = {0.5f, 0.2f};
    for (int k = 0; k < 2; ++k) {
        RsMaterialDesc d = rs_material_desc(RS_MAT_DIFFUSE);
        d.alpha_mode = RS_ALPHA_BLEND;
        d.opacity = alphas[k];
        RsScene s;
        one_triangle(&s, d);
        enum { N = 40000 };
        uint32_t holes = 0, unstable = 0;
        for (uint32_t i = 0; i < N; ++i) {
            uint32_t key = rs_rng_path_key(23, i, 0);
            RsVec3 o = rs_vec3(rs_rng(key, 0, 0), rs_rng(key, 0, 1), 1.0f);
            RsVec3 dir = rs_normalize(rs_vec3(rs_rng(key, 0, 2) - 0.5f, rs_rng(key, 0, 3) - 0.5f, -1.0f));
            int hole = rs_cutout_hole(&s.cutouts, 0, 0.2f, 0.2f, o, dir);
            holes += hole;
            unstable += hole != rs_cutout_hole(&s.cutouts, 0, 0.2f, 0.2f, o, dir);
        }
        double p = 1.0 - alphas[k], sigma = sqrt(p * (1.0 - p) / N), got = (double)holes / N;
        CHECK(fabs(got - p) <= 4.0 * sigma, "blend of alpha %g: %.4f of rays pass, expected %.4f (+- %.4f)",
              alphas[k], got, p, sigma);
        CHECK(unstable == 0, "the same ray decided differently %u times", unstable);
        rs_scene_free(&s);
    }
}

int main(void)
{
    test_transform();
    test_mask();
    test_blend();
    return rs_test_finish("test_alpha_uv");
}
