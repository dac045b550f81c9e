/* test_stage_shade.c - what shade does with each kind of hit (kernel suite). Host C11.
 * Rows are made by hand, hits come from extend (tested on its own). */
#include "kernel/stages/stage_extend.h"
#include "kernel/stages/stage_shade.h"
#include "stage_fixture.h"

static uint32_t shade(Fixture* f, uint32_t row, RsShadowRow* s)
{
    uint64_t stack[RS_BVH8_STACK];
    rs_stage_extend(&f->kp, row, rs_trace_stack_local(stack));
    memset(s, 0, sizeof *s);
    return rs_stage_shade(&f->kp, row, s);
}

static void test_escape(Fixture* f)
{
    RsShadowRow s;
    fixture_ray(f, 0, rs_vec3(0, 1, 0), rs_vec3(-1, 0, 0), 1, rs_vec3(1, 0.5f, 0.25f), 0.0f);
    CHECK(shade(f, 0, &s) == RS_SHADE_TERMINATE, "an escaped ray must end");
    RsFloat4 r = f->kp.path_radiance[0];
    CHECK(r.x == 0.25f && r.y == 0.125f && r.z == 0.0625f, "camera ray sees the environment fully: (%g, %g, %g)",
          r.x, r.y, r.z);
    /* after a diffuse bounce (pdf > 0) the environment was also NEE's target: MIS weight < 1 */
    fixture_ray(f, 1, rs_vec3(0, 1, 0), rs_vec3(-1, 0, 0), 2, rs_vec3_splat(1), 0.3f);
    shade(f, 1, &s);
    float env_select = rs_light_select_pmf(&f->kp.scene, rs_light_context_of_ray(rs_float4(0, 1, 0, 0)), f->kp.scene.env_light);
    CHECK(env_select > 0.0f, "the environment should be a light");
    float w = f->kp.path_radiance[1].x / 0.25f;
    CHECK(w > 0.0f && w < 1.0f, "MIS weight of an escaped BSDF ray = %g", w);
    CHECK_NEAR(w, rs_power_heuristic(0.3f, env_select * RS_INV_4PI), 1e-6);
}

static void test_emitter(Fixture* f)
{
    RsShadowRow s;
    fixture_ray(f, 2, rs_vec3(0.1f, 1, 0.1f), rs_vec3(0, 1, 0), 1, rs_vec3_splat(1), 0.0f);
    uint32_t r = shade(f, 2, &s);
    CHECK(f->kp.path_radiance[2].x == 4.0f, "light seen from its front: %g", f->kp.path_radiance[2].x);
    CHECK(r == RS_SHADE_TERMINATE, "a black emitter reflects nothing: result %u", r);
    fixture_ray(f, 3, rs_vec3(0.1f, 3, 0.1f), rs_vec3(0, -1, 0), 1, rs_vec3_splat(1), 0.0f);
    shade(f, 3, &s);
    CHECK(f->kp.path_radiance[3].x == 0.0f, "light seen from its back must be dark: %g", f->kp.path_radiance[3].x);
}

static void test_diffuse(Fixture* f)
{
    /* NEE from the floor picks the sky with probability ~0.92 (a direction above the floor half
     * the time) and the area light ~0.08 (always above): ~54% of hits make a shadow ray. Eight
     * samples of 32 pixels, so the count is 138 +- 8. */
    enum { SAMPLES = 8 };
    int shadows = 0, toward_light = 0;
    for (uint32_t sample = 0; sample < SAMPLES; ++sample)
    for (uint32_t row = 8; row < 40; ++row) {
        RsShadowRow s;
        float x = -0.8f + 0.05f * (float)(row - 8);
        fixture_ray(f, row, rs_vec3(x, 1, 0.2f), rs_vec3(0.1f, -1, 0.05f), 1, rs_vec3_splat(1), 0.0f);
        f->kp.rays.path[row].w = sample;
        uint32_t r = shade(f, row, &s);
        CHECK(r & RS_SHADE_CONTINUE, "row %u: a diffuse hit below max depth continues", row);
        RsFloat4 o = f->kp.rays.origin[row], d = f->kp.rays.direction[row], t = f->kp.rays.throughput[row];
        CHECK((f->kp.rays.path[row].z & RS_PATH_DEPTH_MASK) == 2u && f->kp.rays.path[row].w == sample, "row %u: depth not advanced or sample lost", row);
        CHECK(o.y > 0.0f && o.y < 1e-4f, "row %u: new origin y = %g (must be just above the floor)", row, o.y);
        CHECK(d.y > 0.0f && fabsf(d.x * d.x + d.y * d.y + d.z * d.z - 1.0f) < 1e-5f, "row %u: new direction", row);
        CHECK(t.x == 0.5f && t.y == 0.4f && t.z == 0.3f, "row %u: throughput (%g, %g, %g)", row, t.x, t.y, t.z);
        CHECK_NEAR(t.w, d.y * RS_INV_PI, 1e-6); /* cosine sampling pdf */
        if (r & RS_SHADE_SHADOW) {
            ++shadows;
            CHECK(rs_float_as_uint(s.contribution.w) == row, "row %u: shadow ray for slot %u", row,
                  rs_float_as_uint(s.contribution.w));
            CHECK(s.contribution.x > 0.0f && isfinite(s.contribution.x), "row %u: contribution %g", row,
                  s.contribution.x);
            CHECK(s.origin.y > 0.0f && s.direction.y > 0.0f, "row %u: shadow ray must leave the floor upwards", row);
            toward_light += s.direction.w < 3.0f; /* finite tmax: an area light, not the sky */
        }
    }
    printf("test_stage_shade: %d of %d diffuse hits made a shadow ray, %d towards the area light\n", shadows, 32 * SAMPLES, toward_light);
    CHECK(shadows > 100 && shadows < 176, "%d of %d diffuse hits produced a shadow ray (expected about 138)", shadows,
          32 * SAMPLES);
    CHECK(toward_light > 0, "no shadow ray went to the area light (it gets ~8%% of NEE samples)");

    /* at the last depth (8): NEE, and a BSDF ray for emission only (depth 9, MIS against the NEE) */
    RsShadowRow s;
    fixture_ray(f, 40, rs_vec3(0.3f, 1, 0.2f), rs_vec3(0, -1, 0), 8, rs_vec3_splat(1), 0.0f);
    uint32_t r = shade(f, 40, &s);
    CHECK(r & RS_SHADE_CONTINUE, "the last vertex traces its BSDF ray for emission");
    CHECK((f->kp.rays.path[40].z & RS_PATH_DEPTH_MASK) == 9u, "the emission-only segment is depth 9, got %u",
          f->kp.rays.path[40].z & RS_PATH_DEPTH_MASK);
    CHECK(f->kp.rays.throughput[40].w > 0.0f, "the emission-only ray keeps its BSDF pdf for MIS");
    /* ... which ends wherever it lands, without NEE, the row untouched */
    fixture_ray(f, 40, rs_vec3(0.3f, 1, 0.2f), rs_vec3(0, -1, 0), 9, rs_vec3_splat(1), 0.5f);
    RsFloat4 before = f->kp.rays.direction[40];
    r = shade(f, 40, &s);
    CHECK(r == RS_SHADE_TERMINATE, "past max depth the path must end without NEE: result %u", r);
    CHECK(memcmp(&before, &f->kp.rays.direction[40], sizeof before) == 0, "an ending path's ray was rewritten");
    /* whitted ends at the first diffuse surface */
    f->kp.integrator = RS_INTEGRATOR_WHITTED;
    fixture_ray(f, 41, rs_vec3(0.3f, 1, 0.2f), rs_vec3(0, -1, 0), 1, rs_vec3_splat(1), 0.0f);
    CHECK(!(shade(f, 41, &s) & RS_SHADE_CONTINUE), "whitted must end at a diffuse surface");
    f->kp.integrator = RS_INTEGRATOR_PATH;
}

static void test_mirror(Fixture* f)
{
    RsShadowRow s;
    fixture_ray(f, 42, rs_vec3(0, 1, 0), rs_vec3(1, 0, 0), 3, rs_vec3_splat(1), 0.2f);
    uint32_t r = shade(f, 42, &s);
    CHECK(r == RS_SHADE_CONTINUE, "a mirror continues without NEE: result %u", r);
    RsFloat4 d = f->kp.rays.direction[42], t = f->kp.rays.throughput[42], o = f->kp.rays.origin[42];
    CHECK(d.x == -1.0f && fabsf(d.y) < 1e-6f && fabsf(d.z) < 1e-6f, "reflection (%g, %g, %g)", d.x, d.y, d.z);
    CHECK(fabsf(t.x - 0.9f) < 1e-7f && t.w == 0.0f, "mirror throughput %g pdf %g (pdf must mark a delta lobe)", t.x,
          t.w);
    CHECK(o.x < 4.0f && o.x > 3.999f, "origin %g: just outside the sphere at x = 4", o.x);
}

static void test_roulette(Fixture* f)
{
    f->kp.rr_depth = 1;
    int survived = 0, ended = 0;
    for (uint32_t row = 43; row < 63; ++row) {
        RsShadowRow s;
        fixture_ray(f, row, rs_vec3(0.1f, 1, 0.1f), rs_vec3(0, -1, 0), 2, rs_vec3_splat(0.2f), 0.0f);
        if (shade(f, row, &s) & RS_SHADE_CONTINUE) {
            ++survived;
            /* survival probability q = max(0.2 * albedo) = 0.1; survivors are divided by it */
            CHECK_NEAR(f->kp.rays.throughput[row].x, 0.2 * 0.5 / 0.1, 1e-5);
        } else {
            ++ended;
        }
    }
    CHECK(survived > 0 && ended > survived, "roulette at q = 0.1: %d survived, %d ended", survived, ended);
    f->kp.rr_depth = 100;
}

/* The plain scene's shade (no textures, no instances: the code for them left out, as the GPU's
 * plain kernel compiles it) computes bit for bit what the general shade computes, at every kind
 * of hit; and a texture or an instance makes a scene not plain. */
static void test_plain_same(Fixture* f)
{
    CHECK(rs_scene_is_plain(&f->kp.scene), "the fixture scene has neither textures nor instances");
    struct { RsVec3 o, d; uint32_t depth; float pdf; } rays[] = {
        {{0, 1, 0}, {-1, 0, 0}, 2, 0.3f},          /* escapes */
        {{0.1f, 1, 0.1f}, {0, 1, 0}, 1, 0.0f},     /* the emitter */
        {{-0.4f, 1, 0.2f}, {0.1f, -1, 0.05f}, 1, 0.0f}, /* the diffuse floor */
        {{0, 1, 0}, {1, 0, 0}, 3, 0.2f},           /* the mirror sphere */
    };
    for (uint32_t k = 0; k < sizeof rays / sizeof *rays; ++k)
        for (uint32_t sample = 0; sample < 4; ++sample) {
            RsShadowRow shadow[2];
            RsFloat4 out[2][4];
            RsUint4 path[2];
            uint32_t result[2];
            for (int plain = 0; plain < 2; ++plain) {
                uint32_t row = 63; /* the fixture's last row, which no other test uses */
                fixture_ray(f, row, rays[k].o, rays[k].d, rays[k].depth, rs_vec3_splat(1), rays[k].pdf);
                f->kp.rays.path[row].w = sample;
                uint64_t stack[RS_BVH8_STACK];
                rs_stage_extend(&f->kp, row, rs_trace_stack_local(stack));
                memset(&shadow[plain], 0, sizeof shadow[plain]);
                result[plain] = rs_stage_shade_camera_with(&f->kp, row, &shadow[plain], plain);
                out[plain][0] = f->kp.rays.origin[row];
                out[plain][1] = f->kp.rays.direction[row];
                out[plain][2] = f->kp.rays.throughput[row];
                out[plain][3] = f->kp.path_radiance[row];
                path[plain] = f->kp.rays.path[row];
            }
            CHECK(result[0] == result[1], "ray %u sample %u: result %u general, %u plain", k, sample, result[0],
                  result[1]);
            CHECK(memcmp(out[0], out[1], sizeof out[0]) == 0 && memcmp(&path[0], &path[1], sizeof path[0]) == 0,
                  "ray %u sample %u: the plain shade left another ray or radiance", k, sample);
            CHECK(!(result[0] & RS_SHADE_SHADOW) || memcmp(&shadow[0], &shadow[1], sizeof shadow[0]) == 0,
                  "ray %u sample %u: the plain shade made another shadow ray", k, sample);
        }
    f->kp.scene.textures.count = 1;
    CHECK(!rs_scene_is_plain(&f->kp.scene), "a scene with a texture is not plain");
    f->kp.scene.textures.count = 0;
    f->kp.scene.accel.inst.instance_count = 1;
    CHECK(!rs_scene_is_plain(&f->kp.scene), "a scene with an instance is not plain");
    f->kp.scene.accel.inst.instance_count = 0;
}

int main(void)
{
    Fixture f;
    fixture_init(&f);
    test_escape(&f);
    test_emitter(&f);
    test_diffuse(&f);
    test_mirror(&f);
    test_roulette(&f);
    test_plain_same(&f);
    fixture_free(&f);
    return rs_test_finish("test_stage_shade");
}
