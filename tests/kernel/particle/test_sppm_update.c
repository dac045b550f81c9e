/* test_sppm_update.c - SPPM's per-pixel update (rs_sppm_update, kernel/particle/photon_grid.h):
 * the radius, photon count and flux follow Hachisuka & Jensen's rule against values derived here
 * in double for three passes; alpha = 1 keeps R bit for bit; M = 0 keeps the state (R set to the
 * initial radius once); film plane 0 is (Ld_sum + tau / (Np pi R^2) | passes); a zero state, a
 * zero radius, zero photons per pass or a non-finite Phi never make a NaN; the pass's sums and
 * visible points are cleared; the thread-pool driver gives the per-pixel bits. Host C11.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host/backend/cpu/sppm_cpu.h"
#include "kernel/particle/photon_grid.h"
#include "tests/test.h"

typedef struct Planes {
    RsKernelParams kp;
    uint32_t pixels;
} Planes;

static void planes_init(Planes* pl, uint32_t width, uint32_t height, float alpha, float radius, uint32_t per_pass)
{
    memset(pl, 0, sizeof *pl);
    RsKernelParams* kp = &pl->kp;
    kp->width = width;
    kp->height = height;
    uint32_t n = pl->pixels = width * height;
    kp->particles.sppm_alpha = alpha;
    kp->particles.sppm_radius = radius;
    kp->particles.per_pass = per_pass;
    kp->film = calloc(n, sizeof(RsFloat4));
    kp->sppm_state = calloc(2 * (size_t)n, sizeof(RsFloat4));
    kp->sppm_pass = calloc(n, sizeof(RsFloat4));
    kp->visible.origin = calloc(n, sizeof(RsFloat4));
    kp->visible.direction = calloc(n, sizeof(RsFloat4));
    kp->visible.hit = calloc(n, sizeof(RsFloat4));
    kp->visible.weight = calloc(n, sizeof(RsFloat4));
    for (uint32_t p = 0; p < n; ++p)
        kp->visible.hit[p].w = rs_uint_as_float(RS_NO_HIT);
}

static void planes_free(Planes* pl)
{
    RsKernelParams* kp = &pl->kp;
    free(kp->film);
    free(kp->sppm_state);
    free(kp->sppm_pass);
    free(kp->visible.origin);
    free(kp->visible.direction);
    free(kp->visible.hit);
    free(kp->visible.weight);
}

/* What a pass leaves at a pixel before the update: a visible point (prim 0) and (Phi | M). */
static void pass_result(Planes* pl, uint32_t p, RsVec3 weight, RsVec3 phi, float m)
{
    pl->kp.visible.hit[p] = rs_float4(1.0f, 0.25f, 0.25f, rs_uint_as_float(0));
    pl->kp.visible.weight[p] = rs_pack(weight, 0.0f);
    pl->kp.sppm_pass[p] = rs_pack(phi, m);
}

static void update_all(Planes* pl)
{
    for (uint32_t p = 0; p < pl->pixels; ++p)
        rs_sppm_update(&pl->kp, p);
}

static int finite4(RsFloat4 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z) && isfinite(v.w); }

static void check_cleared(const Planes* pl)
{
    for (uint32_t p = 0; p < pl->pixels; ++p) {
        RsFloat4 s = pl->kp.sppm_pass[p];
        CHECK(s.x == 0.0f && s.y == 0.0f && s.z == 0.0f && s.w == 0.0f, "pixel %u: the pass's sums not cleared", p);
        CHECK(!rs_sppm_has_visible(&pl->kp, p), "pixel %u: the visible point not cleared", p);
    }
}

/* Three passes at one pixel against the rule in double; pixel 1 never sees a photon. */
static void check_rule(void)
{
    const double alpha = 2.0 / 3.0, r0 = 0.5, np = 1000.0;
    Planes pl;
    planes_init(&pl, 2, 1, (float)alpha, (float)r0, (uint32_t)np);
    RsKernelParams* kp = &pl.kp;
    const double ld[3] = {0.3, 0.2, 0.1}, w[3] = {0.5, 1.0, 2.0};
    for (uint32_t p = 0; p < 2; ++p)
        kp->sppm_state[p] = rs_float4((float)ld[0], (float)ld[1], (float)ld[2], 0.0f);
    const double phis[3][3] = {{3, 6, 9}, {1, 2, 0.5}, {0, 0, 0}};
    const double ms[3] = {4, 6, 0};
    double n = 0.0, r = r0, tau[3] = {0, 0, 0};
    for (int pass = 0; pass < 3; ++pass) {
        pass_result(&pl, 0, rs_vec3((float)w[0], (float)w[1], (float)w[2]),
                    rs_vec3((float)phis[pass][0], (float)phis[pass][1], (float)phis[pass][2]), (float)ms[pass]);
        update_all(&pl);
        if (ms[pass] > 0) {
            double n_new = n + alpha * ms[pass];
            double r_new = r * sqrt(n_new / (n + ms[pass]));
            for (int c = 0; c < 3; ++c)
                tau[c] = (tau[c] + w[c] * phis[pass][c]) * (r_new / r) * (r_new / r);
            n = n_new;
            r = r_new;
        }
        RsFloat4 s0 = kp->sppm_state[0], s1 = kp->sppm_state[pl.pixels + 0], film = kp->film[0];
        printf("pass %d: N %.9g (%.9g), R %.9g (%.9g), tau %.9g %.9g %.9g, film %.9g | %g\n", pass + 1, s0.w, n, s1.w,
               r, s1.x, s1.y, s1.z, film.x, film.w);
        CHECK_NEAR(s0.w, n, 1e-6 * n);
        CHECK_NEAR(s1.w, r, 1e-6 * r);
        for (int c = 0; c < 3; ++c) {
            const float* t = &s1.x;
            const float* l = &film.x;
            const float* d = &s0.x;
            CHECK_NEAR(t[c], tau[c], 1e-6 * tau[c]);
            double expect = ld[c] + tau[c] / (np * 3.14159265358979323846 * r * r);
            CHECK_NEAR(l[c], expect, 1e-6 * expect);
            CHECK(d[c] == (float)ld[c], "pass %d: Ld_sum changed", pass + 1);
        }
        CHECK(film.w == (float)(pass + 1), "pass %d: film w %g", pass + 1, film.w);
        /* pixel 1: no photon, ever: R set to the initial radius, nothing else */
        RsFloat4 q0 = kp->sppm_state[1], q1 = kp->sppm_state[pl.pixels + 1], qf = kp->film[1];
        CHECK(q0.w == 0.0f && q1.w == (float)r0 && q1.x == 0.0f && q1.y == 0.0f && q1.z == 0.0f,
              "pass %d: a pixel without photons: N %g R %g tau %g", pass + 1, q0.w, q1.w, q1.x);
        CHECK(qf.x == (float)ld[0] && qf.y == (float)ld[1] && qf.z == (float)ld[2] && qf.w == (float)(pass + 1),
              "pass %d: a pixel without photons shows %g %g %g | %g", pass + 1, qf.x, qf.y, qf.z, qf.w);
        check_cleared(&pl);
    }
    /* M = 0 at pass 3 kept the state of pass 2 bit for bit: checked through R and tau above;
     * here directly: another empty pass */
    RsFloat4 before0 = kp->sppm_state[0], before1 = kp->sppm_state[pl.pixels];
    update_all(&pl);
    CHECK(memcmp(&before0, &kp->sppm_state[0], sizeof before0) == 0 &&
              memcmp(&before1, &kp->sppm_state[pl.pixels], sizeof before1) == 0,
          "an empty pass changed the state");
    CHECK(kp->film[0].w == 4.0f, "film w after four passes: %g", kp->film[0].w);
    planes_free(&pl);
}

/* alpha = 1 keeps every photon: R stays as it was, bit for bit; N and tau sum. */
static void check_alpha_one(void)
{
    Planes pl;
    planes_init(&pl, 1, 1, 1.0f, 0.1f, 77);
    RsKernelParams* kp = &pl.kp;
    kp->sppm_state[pl.pixels].w = 0.0371f;
    float r = 0.0371f;
    for (int pass = 0; pass < 5; ++pass) {
        pass_result(&pl, 0, rs_vec3(1, 1, 1), rs_vec3(0.5f, 0.25f, 2.0f), (float)(3 + pass * 7));
        update_all(&pl);
        CHECK(kp->sppm_state[pl.pixels].w == r, "alpha 1, pass %d: R %a became %a", pass + 1, r,
              kp->sppm_state[pl.pixels].w);
    }
    CHECK(kp->sppm_state[0].w == 3 + 10 + 17 + 24 + 31, "alpha 1: N %g", kp->sppm_state[0].w);
    CHECK_NEAR(kp->sppm_state[pl.pixels].x, 2.5, 1e-6);
    planes_free(&pl);
}

/* Zero states and settings that would divide by zero: never a NaN. */
static void check_no_nan(void)
{
    Planes pl;
    planes_init(&pl, 3, 2, 0.0f, 0.0f, 0); /* alpha 0, radius 0, no photons per pass */
    RsKernelParams* kp = &pl.kp;
    pass_result(&pl, 0, rs_vec3(1, 1, 1), rs_vec3(1, 2, 3), 5.0f);   /* M > 0 with R = 0 and N = 0 */
    pass_result(&pl, 1, rs_vec3(1, 1, 1), rs_vec3(0, 0, 0), 0.0f);   /* visible, no photon */
    pass_result(&pl, 2, rs_vec3(1, 1, 1), rs_vec3(INFINITY, 0, 0), 3.0f); /* a non-finite Phi */
    pass_result(&pl, 3, rs_vec3(1, 1, 1), rs_vec3(NAN, 0, 0), 3.0f);
    for (int pass = 0; pass < 3; ++pass) {
        update_all(&pl);
        for (uint32_t p = 0; p < pl.pixels; ++p) {
            CHECK(finite4(kp->film[p]) && finite4(kp->sppm_state[p]) && finite4(kp->sppm_state[pl.pixels + p]),
                  "pass %d, pixel %u: film %g %g %g %g, N %g, tau %g R %g", pass + 1, p, kp->film[p].x, kp->film[p].y,
                  kp->film[p].z, kp->film[p].w, kp->sppm_state[p].w, kp->sppm_state[pl.pixels + p].x,
                  kp->sppm_state[pl.pixels + p].w);
            CHECK(kp->film[p].w == (float)(pass + 1), "pass %d, pixel %u: film w %g", pass + 1, p, kp->film[p].w);
        }
    }
    CHECK(kp->sppm_state[pl.pixels + 2].x == 0.0f && kp->sppm_state[2].w == 0.0f,
          "a non-finite Phi was kept: tau %g N %g", kp->sppm_state[pl.pixels + 2].x, kp->sppm_state[2].w);
    /* a radius but no photons per pass: the direct light alone */
    kp->particles.per_pass = 0;
    kp->particles.sppm_radius = 0.2f;
    kp->sppm_state[4] = rs_float4(0.5f, 0.5f, 0.5f, 0.0f);
    pass_result(&pl, 4, rs_vec3(1, 1, 1), rs_vec3(1, 1, 1), 2.0f);
    update_all(&pl);
    CHECK(kp->film[4].x == 0.5f && finite4(kp->sppm_state[pl.pixels + 4]), "Np = 0: film %g", kp->film[4].x);
    planes_free(&pl);
}

/* The pool's driver runs the same per-pixel function: the same bits. */
static void check_driver(void)
{
    Planes a, b;
    planes_init(&a, 300, 200, 0.7f, 0.05f, 100000);
    planes_init(&b, 300, 200, 0.7f, 0.05f, 100000);
    uint64_t z = 12345;
    for (uint32_t p = 0; p < a.pixels; ++p) {
        z = z * 6364136223846793005ull + 1442695040888963407ull;
        float u = (float)(z >> 40) / 16777216.0f;
        a.kp.sppm_state[p] = rs_float4(u, 0.5f * u, 0.25f, (float)(p % 97));
        a.kp.sppm_state[a.pixels + p] = rs_float4(u * 3.0f, u, 0.0f, p % 3 ? 0.01f + 0.04f * u : 0.0f);
        if (p % 5)
            pass_result(&a, p, rs_vec3(u, 1.0f, 0.5f), rs_vec3(u * 10.0f, 2.0f, u), (float)(p % 13));
    }
    size_t n = a.pixels;
    memcpy(b.kp.sppm_state, a.kp.sppm_state, 2 * n * sizeof(RsFloat4));
    memcpy(b.kp.sppm_pass, a.kp.sppm_pass, n * sizeof(RsFloat4));
    memcpy(b.kp.visible.hit, a.kp.visible.hit, n * sizeof(RsFloat4));
    memcpy(b.kp.visible.weight, a.kp.visible.weight, n * sizeof(RsFloat4));
    update_all(&a);
    RsError err = {{0}};
    RsThreadPool* pool = rs_pool_create(3, &err);
    CHECK(pool != NULL, "pool: %s", err.message);
    rs_sppm_update_cpu(pool, &b.kp);
    rs_pool_destroy(pool);
    CHECK(memcmp(a.kp.film, b.kp.film, n * sizeof(RsFloat4)) == 0, "the pool's update: other film bits");
    CHECK(memcmp(a.kp.sppm_state, b.kp.sppm_state, 2 * n * sizeof(RsFloat4)) == 0, "the pool's update: other state bits");
    check_cleared(&b);
    planes_free(&a);
    planes_free(&b);
}

int main(void)
{
    check_rule();
    check_alpha_one();
    check_no_nan();
    check_driver();
    return rs_test_finish("test_sppm_update");
}
