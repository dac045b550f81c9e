/* test_shading_normal.c - interpolated vertex normals and the rule that keeps light from
 * leaking where they disagree with the geometric normal (kernel suite). Host C11.
 *
 * 1. rs_shading_normal: the vertex normals at the vertices, their normalized blend inside,
 *    turned to the geometric normal's side; the geometric normal without vertex normals.
 * 2. A shading normal tilted 40 degrees from the geometric one: eval is 0 for a direction
 *    below the surface but above the shading normal's horizon (light would leak through) and
 *    for one above the surface but below the shading horizon; non-zero where both agree.
 *    Sampling never returns a direction that the rule forbids, for every material.
 */
#include "host/scene/material.h"
#include "kernel/bsdf/bsdf.h"
#include "kernel/geometry/surface.h"
#include "kernel/sampling/rng.h"
#include "tests/test.h"

static void test_interpolation(void)
{
    RsShading s[2];
    s[0].a = rs_float4(0.0f, 0.0f, 1.0f, 0.0f);
    s[0].b = rs_float4(1.0f, 0.0f, 0.0f, 0.0f);
    s[0].c = rs_float4(0.0f, 1.0f, 0.0f, 0.0f);
    s[0].d = rs_float4(0.0f, 0.0f, 0.0f, rs_uint_as_float(RS_SHADING_NORMALS));
    s[1].a = s[1].b = s[1].c = rs_float4(0.0f, 0.0f, 1.0f, 0.0f);
    s[1].d = rs_float4(0.0f, 0.0f, 0.0f, rs_uint_as_float(RS_SHADING_UVS)); /* no vertex normals */
    RsVec3 ng = rs_vec3(0.0f, 0.0f, 1.0f);
    RsVec3 n = rs_shading_normal(s, 0, 0.0f, 0.0f, ng);
    CHECK(n.z == 1.0f && n.x == 0.0f, "at v0: (%g, %g, %g)", n.x, n.y, n.z);
    n = rs_shading_normal(s, 0, 1.0f, 0.0f, ng);
    CHECK(n.x == 1.0f, "at v1: (%g, %g, %g)", n.x, n.y, n.z);
    n = rs_shading_normal(s, 0, 1.0f / 3.0f, 1.0f / 3.0f, ng);
    float third = 1.0f / sqrtf(3.0f);
    CHECK_NEAR(n.x, third, 1e-6);
    CHECK_NEAR(n.y, third, 1e-6);
    CHECK_NEAR(n.z, third, 1e-6);
    n = rs_shading_normal(s, 0, 0.0f, 0.0f, rs_neg(ng)); /* the winding says the front is -z */
    CHECK(n.z == -1.0f, "not turned to the geometric side: (%g, %g, %g)", n.x, n.y, n.z);
    n = rs_shading_normal(s, 1, 0.2f, 0.3f, rs_vec3(1.0f, 0.0f, 0.0f));
    CHECK(n.x == 1.0f, "without vertex normals: (%g, %g, %g)", n.x, n.y, n.z);
    n = rs_shading_normal(s, 1, 0.2f, 0.3f, ng);
    CHECK(n.z == 1.0f, "without vertex normals: (%g, %g, %g)", n.x, n.y, n.z);
    n = rs_shading_normal(NULL, 0, 0.2f, 0.3f, ng);
    CHECK(n.z == 1.0f, "without a shading array: (%g, %g, %g)", n.x, n.y, n.z);
}

static RsVec3 at_angle(float degrees) /* in the xz plane, from +z towards +x */
{
    float r = degrees * RS_PI / 180.0f;
    return rs_vec3(sinf(r), 0.0f, cosf(r));
}

static void test_no_leaks(void)
{
    RsVec3 ng = rs_vec3(0.0f, 0.0f, 1.0f);
    RsVec3 ns = at_angle(40.0f);
    RsVec3 wo = at_angle(-20.0f);
    RsVec3 leak = at_angle(110.0f);    /* below the surface, above the shading horizon */
    RsVec3 hidden = at_angle(-60.0f);  /* above the surface, below the shading horizon */
    RsVec3 fine = at_angle(30.0f);
    const uint32_t types[] = {RS_MAT_DIFFUSE, RS_MAT_CONDUCTOR, RS_MAT_DIELECTRIC, RS_MAT_PLASTIC};
    const char* names[] = {"diffuse", "conductor", "dielectric", "plastic"};
    for (int t = 0; t < 4; ++t) {
        RsMaterialDesc d = rs_material_desc(types[t]);
        d.roughness_u = d.roughness_v = 0.8f;
        RsMaterial m = rs_material_from_desc(&d);
        float pdf;
        if (types[t] != RS_MAT_DIELECTRIC) {
            CHECK(rs_is_black(rs_bsdf_eval(&m, ng, ns, wo, leak, &pdf)) && pdf == 0.0f,
                  "%s: light leaks through the surface", names[t]);
            CHECK(rs_is_black(rs_bsdf_eval(&m, ng, ns, wo, hidden, &pdf)) && pdf == 0.0f,
                  "%s: lit from below its shading horizon", names[t]);
        }
        CHECK(!rs_is_black(rs_bsdf_eval(&m, ng, ns, wo, fine, &pdf)) && pdf > 0.0f,
              "%s: nothing where both normals agree", names[t]);
        for (uint32_t i = 0; i < 20000; ++i) {
            uint32_t key = rs_rng_path_key(5, i, 0);
            RsBsdfSample s;
            if (!rs_bsdf_sample(&m, ng, ns, wo, rs_rng(key, 0, 0), rs_rng(key, 0, 1), rs_rng(key, 0, 2), &s))
                continue;
            RsVec3 lo = rs_vec3(0, 0, rs_dot(wo, ns)), li = rs_vec3(0, 0, rs_dot(s.wi, ns));
            int geometric_reflection = rs_dot(wo, ng) * rs_dot(s.wi, ng) > 0.0f;
            int shading_reflection = lo.z * li.z > 0.0f;
            if (geometric_reflection != shading_reflection) {
                CHECK(0, "%s: sample %u crosses between the normals", names[t], i);
                break;
            }
        }
    }
}

int main(void)
{
    test_interpolation();
    test_no_leaks();
    return rs_test_finish("test_shading_normal");
}
