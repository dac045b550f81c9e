/* test_stage_extend.c - closest hits written by the extend stage (kernel suite). Host C11. */
#include "kernel/stages/stage_extend.h"
#include "stage_fixture.h"

int main(void)
{
    Fixture f;
    fixture_init(&f);
    uint32_t floor_prim_material = 0, sphere_material = 2;
    fixture_ray(&f, 0, rs_vec3(0.2f, 1, 0.3f), rs_vec3(0, -1, 0), 1, rs_vec3_splat(1), 0);  /* floor at t = 1 */
    fixture_ray(&f, 1, rs_vec3(0, 1, 0), rs_vec3(1, 0, 0), 1, rs_vec3_splat(1), 0);          /* sphere at t = 4 */
    fixture_ray(&f, 2, rs_vec3(0, 1, 0), rs_vec3(-1, 0, 0), 1, rs_vec3_splat(1), 0);         /* escapes */
    fixture_ray(&f, 3, rs_vec3(0.2f, 1, 0.3f), rs_vec3(0, -1, 0), 1, rs_vec3_splat(1), 0);  /* floor beyond tmax */
    f.kp.rays.direction[3].w = 0.5f;
    fixture_ray(&f, 4, rs_vec3(0, 1, 0), rs_vec3(0, 1, 0), 1, rs_vec3_splat(1), 0);          /* light from below */
    uint64_t stack[RS_BVH8_STACK];
    for (uint32_t row = 0; row < 5; ++row)
        rs_stage_extend(&f.kp, row, rs_trace_stack_local(stack));

    RsFloat4 h = f.kp.rays.hit[0];
    CHECK_NEAR(h.x, 1.0, 1e-6);
    CHECK(rs_float_as_uint(h.w) < f.kp.scene.prim_count &&
              rs_prim_material(&f.kp.scene.prims[rs_float_as_uint(h.w)]) == floor_prim_material,
          "row 0 should hit the floor");
    h = f.kp.rays.hit[1];
    CHECK_NEAR(h.x, 4.0, 1e-5);
    CHECK(rs_float_as_uint(h.w) == fixture_prim_with_material(&f, sphere_material), "row 1 should hit the sphere");
    CHECK(rs_float_as_uint(f.kp.rays.hit[2].w) == RS_NO_HIT, "row 2 should escape");
    CHECK(rs_float_as_uint(f.kp.rays.hit[3].w) == RS_NO_HIT, "row 3 must respect tmax");
    h = f.kp.rays.hit[4];
    CHECK_NEAR(h.x, 1.0, 1e-6);
    CHECK(rs_float_as_uint(h.w) < f.kp.scene.prim_count &&
              rs_prim_material(&f.kp.scene.prims[rs_float_as_uint(h.w)]) == 1u,
          "row 4 should hit the light");
    /* extend touches nothing but hit */
    CHECK(f.kp.rays.path[0].z == 1u && f.kp.rays.throughput[0].x == 1.0f, "extend changed other fields");
    fixture_free(&f);
    return rs_test_finish("test_stage_extend");
}
