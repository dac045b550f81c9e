/* test_photon_grid.c - SPPM's photon grid and gather (kernel/particle/photon_grid.h) through the
 * CPU resolve (host/backend/cpu/sppm_cpu.c): on sppm_fixture.h's scene, every pixel's (Phi | M)
 * equals a brute-force sum over all photons within its radius (M exactly, Phi to float
 * tolerance), for the table the photon count gives and for tables of 2 and 8 buckets (where many
 * cells share a bucket, which must be visited once); the bits do not depend on the order the
 * photons were appended in or on the worker count (no pool, 1, 2, 3 threads); chunks add up;
 * edge cases: a photon at the point itself, just inside and just outside R, on cell planes, far
 * outside the scene; overflow is an error naming the counts and gathers nothing; an empty queue
 * or a pass without visible points changes nothing. Host C11.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/backend/cpu/sppm_cpu.h"
#include "tests/kernel/particle/sppm_fixture.h"
#include "tests/test.h"

enum { WIDTH = 48, HEIGHT = 32, PHOTONS = 60000 };

/* ---- the brute-force reference: every photon, in double ---- */

typedef struct Expect {
    double phi[3], scale; /* scale: the sum of |terms|, for the tolerance */
    uint32_t m;
} Expect;

/* Photons whose term came through transmission (wi and wo on opposite sides), and photons within
 * R whose term is 0 (from behind an opaque surface): the fixture must have both. */
static uint32_t transmitted, blocked;

static void brute_force(const SppmFixture* f, uint32_t first, uint32_t n, Expect* out)
{
    const RsKernelParams* kp = &f->kp;
    for (uint32_t p = 0; p < f->pixels; ++p) {
        Expect* e = &out[p];
        if (!rs_sppm_has_visible(kp, p))
            continue;
        float r = rs_sppm_radius(kp, p);
        RsShadeSurface s;
        RsShadeScratch scratch;
        const RsPrim* prim;
        RsFloat4 o = kp->visible.origin[p];
        const RsMaterial* mat =
            rs_shade_surface(kp, o, kp->visible.direction[p], kp->visible.hit[p], rs_float_as_uint(o.w), &s, &scratch, &prim);
        float r2 = r * r;
        for (uint32_t i = first; i < first + n; ++i) {
            const RsPhoton* ph = &f->photons[i];
            float dx = ph->position.x - s.sp.p.x, dy = ph->position.y - s.sp.p.y, dz = ph->position.z - s.sp.p.z;
            float d2 = dx * dx + dy * dy + dz * dz;
            if (!(d2 <= r2))
                continue;
            e->m++;
            RsVec3 t = rs_sppm_photon_term(mat, &s, ph);
            int black = t.x == 0.0f && t.y == 0.0f && t.z == 0.0f;
            transmitted += !black && rs_dot(rs_xyz(ph->direction), s.sp.n) * rs_dot(s.wo, s.sp.n) < 0.0f;
            blocked += black;
            e->phi[0] += t.x, e->phi[1] += t.y, e->phi[2] += t.z;
            e->scale += fabs(t.x) + fabs(t.y) + fabs(t.z);
        }
    }
}

/* Compares a pass plane with the reference; returns the photons counted in all. */
static uint64_t compare_reference(const char* what, const SppmFixture* f, const RsFloat4* pass, const Expect* e)
{
    uint32_t bad_m = 0, bad_phi = 0, first = UINT32_MAX;
    uint64_t total = 0;
    for (uint32_t p = 0; p < f->pixels; ++p) {
        total += e[p].m;
        int ok_m = pass[p].w == (float)e[p].m;
        double tol = 1e-5 * e[p].scale + 1e-30;
        int ok_phi = fabs(pass[p].x - e[p].phi[0]) <= tol && fabs(pass[p].y - e[p].phi[1]) <= tol &&
                     fabs(pass[p].z - e[p].phi[2]) <= tol;
        bad_m += !ok_m;
        bad_phi += !ok_phi;
        if ((!ok_m || !ok_phi) && first == UINT32_MAX)
            first = p;
    }
    printf("%s: %llu photon hits; %u pixels with another M, %u with another Phi than brute force\n", what,
           (unsigned long long)total, bad_m, bad_phi);
    CHECK(bad_m == 0 && bad_phi == 0, "%s: first bad pixel %u: M %g (expected %u), Phi %g (expected %g)", what, first,
          first < f->pixels ? pass[first].w : 0.0f, first < f->pixels ? e[first].m : 0,
          first < f->pixels ? pass[first].x : 0.0f, first < f->pixels ? e[first].phi[0] : 0.0);
    return total;
}

/* ---- resolving with given workers, append order, table and chunks ---- */

enum { CANONICAL, SCRAMBLED, REVERSED };

/* Resolves the fixture's photons in `chunks` chunks (each appended in the given order: the
 * fixture's, scrambled or reversed) into a fresh pass plane; returns a copy of it. */
static RsFloat4* resolve(SppmFixture* f, RsThreadPool* pool, uint32_t table_bits, int order, uint32_t chunks)
{
    memset(f->kp.sppm_pass, 0, f->pixels * sizeof(RsFloat4));
    RsSppmCpuScratch scratch = {0};
    scratch.table_bits = table_bits;
    uint32_t* perm = malloc(f->photon_count * sizeof *perm);
    for (uint32_t c = 0; c < chunks; ++c) {
        uint32_t first = (uint32_t)((uint64_t)f->photon_count * c / chunks);
        uint32_t n = (uint32_t)((uint64_t)f->photon_count * (c + 1) / chunks) - first;
        for (uint32_t k = 0; k < n; ++k)
            perm[k] = order == REVERSED ? n - 1 - k
                      : order == SCRAMBLED ? (uint32_t)(((uint64_t)k * 7919u + c) % n) : k;
        sppm_fixture_append(f, first, n, perm);
        RsError err = {{0}};
        CHECK(rs_sppm_resolve_cpu(pool, &f->kp, &scratch, &err) == 0, "resolve: %s", err.message);
        CHECK(*f->kp.photons.count == 0, "the resolve leaves %llu photons in the queue",
              (unsigned long long)*f->kp.photons.count);
    }
    free(perm);
    rs_sppm_cpu_scratch_free(&scratch);
    CHECK(scratch.state == NULL, "free leaves the state");
    RsFloat4* copy = malloc(f->pixels * sizeof *copy);
    memcpy(copy, f->kp.sppm_pass, f->pixels * sizeof *copy);
    return copy;
}

static void check_same_bits(const char* what, const RsFloat4* a, const RsFloat4* b, uint32_t pixels)
{
    uint32_t differ = 0, first = 0;
    for (uint32_t p = pixels; p-- > 0;)
        if (memcmp(&a[p], &b[p], sizeof a[p]) != 0)
            ++differ, first = p;
    printf("%s: %u of %u pixels differ\n", what, differ, pixels);
    CHECK(differ == 0, "%s: %u pixels differ (first %u: %a %a %a | %g against %a %a %a | %g)", what, differ, first,
          a[first].x, a[first].y, a[first].z, a[first].w, b[first].x, b[first].y, b[first].z, b[first].w);
}

/* Photons at the edges: the first few of the fixture's are replaced (keeping their order keys).
 * Returns a pixel that has a photon exactly at its visible point. */
static uint32_t place_edge_photons(SppmFixture* f)
{
    const RsKernelParams* kp = &f->kp;
    float rmax = 0.0f;
    for (uint32_t p = 0; p < f->pixels; ++p)
        rmax = rs_maxf(rmax, rs_sppm_gather_radius(kp, p));
    RsPhotonGrid g;
    memset(&g, 0, sizeof g);
    g.origin = kp->scene.bounds_lo;
    rs_photon_grid_set_cell(&g, rmax);
    uint32_t k = 0, at_point = UINT32_MAX;
    for (uint32_t p = 0; p < f->pixels && k + 8 <= 400; ++p) {
        if (!rs_sppm_has_visible(kp, p))
            continue;
        RsShadeSurface s;
        RsShadeScratch scratch;
        const RsPrim* prim;
        RsFloat4 o = kp->visible.origin[p];
        rs_shade_surface(kp, o, kp->visible.direction[p], kp->visible.hit[p], rs_float_as_uint(o.w), &s, &scratch, &prim);
        RsVec3 x = s.sp.p;
        float r = rs_sppm_radius(kp, p);
        RsVec3 at[8];
        at[0] = x;                                               /* the point itself */
        at[1] = rs_vec3(x.x + r, x.y, x.z);                      /* R away, as float rounds it */
        at[2] = rs_vec3(x.x, x.y - r, x.z);
        at[3] = rs_vec3(x.x, x.y, x.z + r * 0.99999f);           /* just inside */
        at[4] = rs_vec3(x.x - r * 1.00001f, x.y, x.z);           /* just outside */
        /* on the cell planes nearest the point, on each axis */
        float cx = g.origin.x + floorf((x.x - g.origin.x) / g.cell + 0.5f) * g.cell;
        float cy = g.origin.y + floorf((x.y - g.origin.y) / g.cell + 0.5f) * g.cell;
        float cz = g.origin.z + floorf((x.z - g.origin.z) / g.cell + 0.5f) * g.cell;
        at[5] = rs_vec3(cx, x.y, x.z);
        at[6] = rs_vec3(cx, cy, x.z);
        at[7] = rs_vec3(cx, cy, cz);
        for (int j = 0; j < 8; ++j, ++k) {
            f->photons[k].position = rs_pack(at[j], f->photons[k].position.w);
            f->photons[k].direction = rs_pack(s.ns, 0.0f); /* from straight above the surface */
        }
        if (at_point == UINT32_MAX)
            at_point = p;
    }
    /* far outside the scene, and huge coordinates (the clamped cells) */
    f->photons[k++].position.x = 1e30f;
    f->photons[k].position.y = -3e20f;
    f->photons[k++].position.z = 7e25f;
    return at_point;
}

static void check_errors(void)
{
    SppmFixture f;
    sppm_fixture_init(&f, 16, 8, 0.9, 500, 77);
    RsSppmCpuScratch scratch = {0};
    RsError err = {{0}};
    /* an empty queue */
    CHECK(rs_sppm_resolve_cpu(NULL, &f.kp, &scratch, &err) == 0, "empty queue: %s", err.message);
    for (uint32_t p = 0; p < f.pixels; ++p)
        CHECK(f.kp.sppm_pass[p].w == 0.0f && f.kp.sppm_pass[p].x == 0.0f, "an empty queue gathered at pixel %u", p);
    /* overflow: counted past the capacity, nothing gathered, the counts named */
    f.kp.photons.capacity = 300;
    sppm_fixture_append(&f, 0, 500, NULL);
    CHECK(rs_sppm_resolve_cpu(NULL, &f.kp, &scratch, &err) == -1, "overflow accepted");
    printf("overflow: \"%s\"\n", err.message);
    CHECK(strcmp(err.message, "photon queue overflow: 500 photons for a capacity of 300") == 0, "message: %s",
          err.message);
    CHECK(f.queue_count == 0, "the overflowing resolve left %llu in the queue", (unsigned long long)f.queue_count);
    uint32_t touched = 0;
    for (uint32_t p = 0; p < f.pixels; ++p)
        touched += f.kp.sppm_pass[p].w != 0.0f;
    CHECK(touched == 0, "overflow gathered at %u pixels", touched);
    /* no visible point anywhere: nothing to gather */
    f.kp.photons.capacity = 500;
    for (uint32_t p = 0; p < f.pixels; ++p)
        f.kp.visible.hit[p].w = rs_uint_as_float(RS_NO_HIT);
    sppm_fixture_append(&f, 0, 500, NULL);
    CHECK(rs_sppm_resolve_cpu(NULL, &f.kp, &scratch, &err) == 0, "no visible points: %s", err.message);
    for (uint32_t p = 0; p < f.pixels; ++p)
        touched += f.kp.sppm_pass[p].w != 0.0f;
    CHECK(touched == 0 && f.queue_count == 0, "a pass without visible points gathered at %u pixels", touched);
    rs_sppm_cpu_scratch_free(&scratch);
    sppm_fixture_free(&f);
}

int main(void)
{
    SppmFixture f;
    sppm_fixture_init(&f, WIDTH, HEIGHT, 0.85, PHOTONS, 2026);
    CHECK(f.kp.scene.prim_count == 5, "the fixture's scene has %u primitives", f.kp.scene.prim_count);
    uint32_t at_point = place_edge_photons(&f);
    CHECK(at_point != UINT32_MAX, "no visible point for the edge photons");
    CHECK(rs_photon_grid_bits(PHOTONS) == 16 && rs_photon_grid_bits(1) == 0 && rs_photon_grid_bits(1u << 30) == 24,
          "table bits %u %u %u", rs_photon_grid_bits(PHOTONS), rs_photon_grid_bits(1), rs_photon_grid_bits(1u << 30));

    Expect* whole = calloc(f.pixels, sizeof *whole);
    brute_force(&f, 0, PHOTONS, whole);
    printf("brute force: %u photon terms through transmission, %u photons within R with a zero term\n", transmitted,
           blocked);
    CHECK(transmitted > 100 && blocked > 100, "the fixture lacks transmitted (%u) or zero (%u) terms", transmitted,
          blocked);
    CHECK(whole[at_point].m >= 1, "the photon at pixel %u's point is not within its radius", at_point);

    RsFloat4* base = resolve(&f, NULL, 0, CANONICAL, 1);
    uint64_t hits = compare_reference("one chunk, no pool", &f, base, whole);
    CHECK(hits > 20000, "only %llu photon hits: the fixture tests too little", (unsigned long long)hits);
    CHECK(base[at_point].w >= 1.0f, "pixel %u lost the photon at its point", at_point);

    /* the same bits whatever the append order and the workers */
    RsError err = {{0}};
    for (uint32_t threads = 1; threads <= 3; ++threads) {
        RsThreadPool* pool = rs_pool_create(threads, &err);
        CHECK(pool != NULL, "pool: %s", err.message);
        char what[96];
        for (int order = SCRAMBLED; order <= REVERSED; ++order) {
            RsFloat4* got = resolve(&f, pool, 0, order, 1);
            snprintf(what, sizeof what, "%u thread(s), %s append order", threads,
                     order == REVERSED ? "reversed" : "scrambled");
            check_same_bits(what, got, base, f.pixels);
            free(got);
        }
        /* tiny tables: most cells share a bucket, which is visited once */
        for (uint32_t bits = 1; bits <= 3; bits += 2) {
            RsFloat4* tiny = resolve(&f, pool, bits, SCRAMBLED, 1);
            snprintf(what, sizeof what, "a table of %u buckets, %u thread(s)", 1u << bits, threads);
            compare_reference(what, &f, tiny, whole);
            free(tiny);
        }
        rs_pool_destroy(pool);
    }

    /* chunks: each resolve adds its sums to the pass */
    RsThreadPool* pool = rs_pool_create(2, &err);
    RsFloat4* chunked = resolve(&f, pool, 0, SCRAMBLED, 3);
    compare_reference("three chunks", &f, chunked, whole);
    RsFloat4* chunked_alone = resolve(&f, NULL, 0, REVERSED, 3);
    check_same_bits("three chunks, no pool, reversed", chunked_alone, chunked, f.pixels);
    free(chunked);
    free(chunked_alone);
    rs_pool_destroy(pool);

    /* the queue emptied and the visible points left alone by the resolve (the update clears them) */
    uint32_t visible = 0;
    for (uint32_t p = 0; p < f.pixels; ++p)
        visible += rs_sppm_has_visible(&f.kp, p);
    CHECK(visible > f.pixels / 2, "the resolve cleared visible points (%u left)", visible);

    free(base);
    free(whole);
    sppm_fixture_free(&f);
    check_errors();
    return rs_test_finish("test_photon_grid");
}
