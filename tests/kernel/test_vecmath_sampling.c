/* test_vecmath_sampling.c - vector math, random numbers and sampling routines (unit suite).
 * Each sampler is checked against the moment its density implies. Host C11. */
#include "kernel/sampling/sampler.h"
#include "kernel/sampling/warp.h"
#include "tests/test.h"

static void test_vectors(void)
{
    RsVec3 a = rs_vec3(1, 2, 3), b = rs_vec3(-2, 0.5f, 4);
    CHECK_NEAR(rs_dot(a, b), 11.0, 0.0);
    RsVec3 c = rs_cross(a, b);
    CHECK_NEAR(rs_dot(c, a), 0.0, 1e-5);
    CHECK_NEAR(rs_dot(c, b), 0.0, 1e-5);
    CHECK_NEAR(c.x, 2 * 4 - 3 * 0.5, 1e-6);
    CHECK_NEAR(rs_length(rs_normalize(a)), 1.0, 1e-6);
    RsVec3 r = rs_reflect(rs_normalize(rs_vec3(1, 1, 0)), rs_vec3(0, 1, 0));
    CHECK_NEAR(r.x, -sqrt(0.5), 1e-6);
    CHECK_NEAR(r.y, sqrt(0.5), 1e-6);
    /* orthonormal bases, including the n.z = -1 seam of Duff et al. */
    RsVec3 normals[] = {rs_vec3(0, 0, 1), rs_vec3(0, 0, -1), rs_normalize(rs_vec3(1, -2, 0.3f)),
                        rs_normalize(rs_vec3(-0.1f, 0.2f, -0.97f))};
    for (int i = 0; i < 4; ++i) {
        RsVec3 t, bb, n = normals[i];
        rs_onb(n, &t, &bb);
        CHECK_NEAR(rs_length(t), 1.0, 1e-5);
        CHECK_NEAR(rs_length(bb), 1.0, 1e-5);
        CHECK_NEAR(rs_dot(t, n), 0.0, 1e-5);
        CHECK_NEAR(rs_dot(bb, n), 0.0, 1e-5);
        CHECK_NEAR(rs_dot(t, bb), 0.0, 1e-5);
    }
}

static void test_rng(void)
{
    /* deterministic, in [0,1), mean 1/2 and variance 1/12, and different per dimension */
    double sum = 0.0, sum2 = 0.0;
    int equal_neighbours = 0;
    const int n = 200000;
    for (int i = 0; i < n; ++i) {
        uint32_t key = rs_rng_path_key(7, (uint32_t)i, 3);
        float u = rs_rng(key, 2, RS_DIM_BSDF_U);
        CHECK(u >= 0.0f && u < 1.0f, "u = %g", u);
        CHECK(u == rs_rng(rs_rng_path_key(7, (uint32_t)i, 3), 2, RS_DIM_BSDF_U), "not deterministic");
        equal_neighbours += u == rs_rng(key, 2, RS_DIM_BSDF_V);
        sum += u;
        sum2 += (double)u * u;
    }
    double mean = sum / n, var = sum2 / n - mean * mean;
    CHECK_NEAR(mean, 0.5, 0.005);
    CHECK_NEAR(var, 1.0 / 12.0, 0.002);
    CHECK(equal_neighbours < 5, "%d equal values in neighbouring dimensions", equal_neighbours);
    /* neighbouring pixels and samples decorrelate: correlation of u(pixel) with u(pixel+1) */
    double sxy = 0.0;
    for (int i = 0; i < n; ++i)
        sxy += (rs_rng(rs_rng_path_key(1, (uint32_t)i, 0), 0, 0) - 0.5) *
               (rs_rng(rs_rng_path_key(1, (uint32_t)i + 1, 0), 0, 0) - 0.5);
    CHECK_NEAR(sxy / n * 12.0, 0.0, 0.02);
}

/* The sampler seam (sampler.h): the independent sampler is rng.h's hash of (seed, stream,
 * index, bounce, dimension) and nothing else: the same numbers whoever asks, in any order, and
 * different when any one of the five changes. */
static void test_sampler_seam(void)
{
    int same = 1, order_free = 1, collisions = 0;
    for (uint32_t i = 0; i < 5000; ++i) {
        uint32_t seed = 11, stream = i * 7u, index = i % 13u, bounce = i % 9u, dim = i % RS_DIM_COUNT;
        RsPathSampler ps = rs_sampler_path(RS_SAMPLER_INDEPENDENT, seed, stream, index);
        float u = rs_sampler_1d(&ps, bounce, dim);
        same &= u == rs_rng(rs_rng_path_key(seed, stream, index), bounce, dim);
        /* draw the other dimensions first, from a sampler built again: u must not move */
        RsPathSampler again = rs_sampler_path(RS_SAMPLER_INDEPENDENT, seed, stream, index);
        for (uint32_t d = RS_DIM_COUNT; d-- > 0;)
            if (d != dim)
                (void)rs_sampler_1d(&again, bounce, d);
        order_free &= rs_sampler_1d(&again, bounce, dim) == u;
        uint32_t next = dim + 1 < RS_DIM_COUNT ? dim + 1 : 0;
        float other[5] = {rs_sampler_1d(&ps, bounce, next), rs_sampler_1d(&ps, bounce + 1, dim)};
        RsPathSampler s2 = rs_sampler_path(RS_SAMPLER_INDEPENDENT, seed + 1, stream, index);
        RsPathSampler s3 = rs_sampler_path(RS_SAMPLER_INDEPENDENT, seed, stream + 1, index);
        RsPathSampler s4 = rs_sampler_path(RS_SAMPLER_INDEPENDENT, seed, stream, index + 1);
        other[2] = rs_sampler_1d(&s2, bounce, dim);
        other[3] = rs_sampler_1d(&s3, bounce, dim);
        other[4] = rs_sampler_1d(&s4, bounce, dim);
        for (int k = 0; k < 5; ++k)
            collisions += other[k] == u;
    }
    CHECK(same, "the independent sampler must be rng.h's hash of (seed, stream, index, bounce, dimension)");
    CHECK(order_free, "a number must not depend on which numbers were drawn before it");
    /* 25000 comparisons of 24-bit numbers: about 0.0015 equal by chance */
    CHECK(collisions <= 1, "%d times, changing the seed, stream, index, bounce or dimension kept the number",
          collisions);
}

static void test_samplers(void)
{
    const int n = 400000;
    double cos_sum = 0.0, sphere_z = 0.0, sphere_z2 = 0.0, disk_r2 = 0.0, tri_b1 = 0.0;
    int outside = 0;
    for (int i = 0; i < n; ++i) {
        uint32_t key = rs_rng_path_key(3, (uint32_t)i, 0);
        float u1 = rs_rng(key, 0, 0), u2 = rs_rng(key, 0, 1);
        RsVec3 w = rs_sample_cosine_hemisphere(u1, u2);
        CHECK(fabsf(rs_length(w) - 1.0f) < 1e-4f && w.z >= 0.0f, "bad hemisphere direction");
        cos_sum += w.z; /* E[cos] under pdf cos/pi is 2/3 */
        RsVec3 s = rs_sample_uniform_sphere(u1, u2);
        sphere_z += s.z;
        sphere_z2 += (double)s.z * s.z; /* E[z^2] = 1/3 on the sphere */
        float dx, dy;
        rs_sample_disk(u1, u2, &dx, &dy);
        outside += dx * dx + dy * dy > 1.0f + 1e-6f;
        disk_r2 += (double)dx * dx + (double)dy * dy; /* uniform disk: E[r^2] = 1/2 */
        float b1, b2;
        rs_sample_triangle(u1, u2, &b1, &b2);
        outside += b1 < 0.0f || b2 < 0.0f || b1 + b2 > 1.0f + 1e-6f;
        tri_b1 += b1; /* uniform triangle: E[b1] = 1/3 */
    }
    CHECK_NEAR(cos_sum / n, 2.0 / 3.0, 0.003);
    CHECK_NEAR(sphere_z / n, 0.0, 0.005);
    CHECK_NEAR(sphere_z2 / n, 1.0 / 3.0, 0.003);
    CHECK_NEAR(disk_r2 / n, 0.5, 0.003);
    CHECK_NEAR(tri_b1 / n, 1.0 / 3.0, 0.003);
    CHECK(outside == 0, "%d samples outside their domain", outside);
    CHECK_NEAR(rs_power_heuristic(1.0f, 1.0f), 0.5, 1e-7);
    CHECK_NEAR(rs_power_heuristic(3.0f, 1.0f), 0.9, 1e-6);
    CHECK_NEAR(rs_power_heuristic(0.0f, 0.0f), 0.0, 0.0);
}

int main(void)
{
    test_vectors();
    test_rng();
    test_sampler_seam();
    test_samplers();
    return rs_test_finish("test_vecmath_sampling");
}
