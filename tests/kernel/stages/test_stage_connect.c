/* test_stage_connect.c - shadow rays: unblocked ones add their contribution to their path's
 * radiance, blocked ones add nothing (kernel suite). Host C11. */
#include "kernel/stages/stage_connect.h"
#include "stage_fixture.h"

static void shadow(Fixture* f, uint32_t i, RsVec3 o, RsVec3 d, float tmax, RsVec3 c, uint32_t slot)
{
    f->kp.shadows.origin[i] = rs_pack(o, rs_uint_as_float(RS_NO_HIT));
    f->kp.shadows.direction[i] = rs_pack(rs_normalize(d), tmax);
    f->kp.shadows.contribution[i] = rs_pack(c, rs_uint_as_float(slot));
}

int main(void)
{
    Fixture f;
    fixture_init(&f);
    f.kp.path_radiance[7] = rs_float4(1, 2, 3, 0);
    f.kp.path_radiance[9] = rs_float4(1, 1, 1, 0);
    /* 0: from above the floor up to just short of the light: clear -> slot 7 gains */
    shadow(&f, 0, rs_vec3(0, 0.001f, 0), rs_vec3(0, 1, 0), 1.99f, rs_vec3(0.5f, 0.25f, 0.125f), 7);
    /* 1: from below the floor up: the floor blocks it -> slot 9 unchanged */
    shadow(&f, 1, rs_vec3(0, -1, 0), rs_vec3(0, 1, 0), 2.9f, rs_vec3(5, 5, 5), 9);
    /* 2: towards the sphere but stopping before it: clear -> slot 9 gains */
    shadow(&f, 2, rs_vec3(0, 1, 0), rs_vec3(1, 0, 0), 3.5f, rs_vec3(0.25f, 0.25f, 0.25f), 9);
    uint64_t stack[RS_BVH8_STACK];
    for (uint32_t i = 0; i < 3; ++i)
        rs_stage_connect(&f.kp, i, rs_trace_stack_local(stack));
    RsFloat4 r7 = f.kp.path_radiance[7], r9 = f.kp.path_radiance[9];
    CHECK(r7.x == 1.5f && r7.y == 2.25f && r7.z == 3.125f, "slot 7 = (%g, %g, %g)", r7.x, r7.y, r7.z);
    CHECK(r9.x == 1.25f && r9.y == 1.25f && r9.z == 1.25f, "slot 9 = (%g, %g, %g)", r9.x, r9.y, r9.z);
    fixture_free(&f);
    return rs_test_finish("test_stage_connect");
}
