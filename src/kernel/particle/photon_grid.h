/* photon_grid.h - stochastic progressive photon mapping's per-item steps: the hashed uniform
 * grid a chunk's photons are sorted into, each pixel's gather from it, and each pixel's update
 * at the end of a pass (Hachisuka & Jensen 2009; the photon grid of Purcell et al. 2003, built
 * by sorting).
 *
 * Shared header (gcc C11, g++, nvcc). The CPU backend (host/backend/cpu/sppm_cpu.c) and the
 * CUDA backend (cuda/post/sppm.cu) run these very functions, item by item, so both give the
 * same bits for the same photons (sppm.cu is compiled without contraction for this).
 *
 * The build, per chunk:
 *   1. rmax = the largest gather radius of any pixel with a visible point this pass
 *      (rs_sppm_gather_radius; a max, so any reduction order gives the same bits).
 *   2. cell = 2 rmax (a hair more, see rs_photon_grid_set_cell), so the box [x - R, x + R] of a
 *      gather overlaps at most 2 cells per axis: the 2x2x2 cells nearest its point.
 *   3. Each photon's cell is hashed into a table of 2^bits buckets (bits from the photon count,
 *      rs_photon_grid_bits) and gets the sort key (bucket << 32) | order key (rs_photon_order,
 *      unique in the chunk). Sorting the (key, slot) pairs gives one order whatever the order
 *      the photons were appended in.
 *   4. Bucket ranges come from the run starts in the sorted keys (rs_photon_grid_mark_runs):
 *      begin[b] and end[b] are written by the first and last records of b's run, the tables
 *      having been zeroed first (an empty bucket is the range [0, 0)). No histogram or scan is
 *      needed once the keys are sorted, and no two threads write one entry.
 * The gather (rs_sppm_gather) visits the distinct buckets of its cells in ascending bucket
 * order (two cells that hash alike share a bucket, visited once, else its photons would count
 * twice), each bucket's photons in sorted order, summing sequentially in one thread; photons of
 * other cells that share a bucket fail the distance test.
 *
 * Cell coordinates are floor((p - origin) * (1 / cell)) in float, clamped to +-2^22 (where a
 * float still tells neighbouring cells apart to within one). Each step of that is monotone in p,
 * so every photon within R of a gather point x lies in a cell between those of x - R' and x + R'
 * per axis (R' = R and a little, rs_sppm_box_radius, for the distance test's rounding): none is
 * missed however the arithmetic rounds.
 */
#ifndef RS_KERNEL_PHOTON_GRID_H
#define RS_KERNEL_PHOTON_GRID_H

#include "kernel/bsdf/bsdf.h"
#include "kernel/particle/photon.h"
#include "kernel/stages/shade_surface.h"
#include "kernel/state/kernel_params.h"

/* The table never has more than 2^24 buckets (128 MiB of ranges at most). */
#define RS_PHOTON_GRID_MAX_BITS 24u
#define RS_PHOTON_GRID_CLAMP 4194304.0f /* 2^22 */

typedef struct RsPhotonGrid {
    const RsPhoton* photons; /* the queue's entries, in append order */
    const uint32_t* sorted;  /* slots of the photons in sort-key order */
    uint32_t* begin;         /* per bucket: [begin, end) in `sorted`; both 0 for an empty one */
    uint32_t* end;
    RsFloat4 origin;         /* xyz: the scene's bounds_lo */
    float cell;              /* cell edge; 0: no pixel has a visible point, nothing is gathered */
    float inv_cell;
    uint32_t bits;           /* the table has 2^bits buckets */
    uint32_t count;          /* photons in the chunk */
} RsPhotonGrid;

/* Bits of the table for `count` photons: the smallest table with a bucket per photon. */
RS_FN uint32_t rs_photon_grid_bits(uint32_t count)
{
    uint32_t bits = 0;
    while (bits < RS_PHOTON_GRID_MAX_BITS && (1u << bits) < count)
        ++bits;
    return bits;
}

/* Whether the pixel has a visible point this pass. */
RS_FN int rs_sppm_has_visible(const RsKernelParams* kp, uint32_t pixel)
{
    return rs_float_as_uint(kp->visible.hit[pixel].w) != RS_NO_HIT;
}

/* The pixel's gather radius: the state's, or the initial radius before its first pass. */
RS_FN float rs_sppm_radius(const RsKernelParams* kp, uint32_t pixel)
{
    float r = kp->sppm_state[rs_pixel_count(kp) + pixel].w;
    return r > 0.0f ? r : kp->particles.sppm_radius;
}

/* What the pixel contributes to the largest radius of the chunk: its radius if it has a visible
 * point, else 0. Never negative, so the float's bits order as unsigned integers do (the GPU's
 * reduction takes the max of the bits). */
RS_FN float rs_sppm_gather_radius(const RsKernelParams* kp, uint32_t pixel)
{
    if (!rs_sppm_has_visible(kp, pixel))
        return 0.0f;
    float r = rs_sppm_radius(kp, pixel);
    return r > 0.0f && r < RS_INFINITY ? r : 0.0f;
}

/* The grid's geometry from the largest gather radius; the margin of 2^-10 keeps a gather's box,
 * widened by rs_sppm_box_radius, inside 2 cells per axis. */
RS_FN void rs_photon_grid_set_cell(RsPhotonGrid* g, float rmax)
{
    float cell = rs_mul_rn(rs_mul_rn(2.0f, rmax), 1.0f + 1.0f / 1024.0f);
    if (!(rmax > 0.0f) || !(cell < RS_INFINITY)) {
        g->cell = 0.0f;
        g->inv_cell = 0.0f;
        return;
    }
    g->cell = cell;
    g->inv_cell = 1.0f / cell;
}

/* A gather's box half-width: R and a little more, since the distance test (|p - x|^2 <= R^2 in
 * float) can accept a photon a few ulps beyond R. */
RS_FN float rs_sppm_box_radius(float r) { return rs_mul_rn(r, 1.0f + 1.0f / 4096.0f); }

/* One coordinate's cell: floor((v - origin) * inv_cell), clamped (NaN goes to the low end). */
RS_FN int32_t rs_photon_grid_coord(const RsPhotonGrid* g, float v, float origin)
{
    float c = floorf(rs_mul_rn(rs_sub_rn(v, origin), g->inv_cell));
    if (!(c >= -RS_PHOTON_GRID_CLAMP))
        c = -RS_PHOTON_GRID_CLAMP;
    if (c > RS_PHOTON_GRID_CLAMP)
        c = RS_PHOTON_GRID_CLAMP;
    return (int32_t)c;
}

/* The bucket of cell (x, y, z): the coordinates mixed into 32 bits, the top `bits` kept. */
RS_FN uint32_t rs_photon_grid_hash(int32_t x, int32_t y, int32_t z, uint32_t bits)
{
    uint32_t h = (uint32_t)x * 0x8DA6B343u;
    h ^= (uint32_t)y * 0xD8163841u;
    h ^= (uint32_t)z * 0xCB1AB31Fu;
    h ^= h >> 16;
    h *= 0x7FEB352Du;
    h ^= h >> 15;
    h *= 0x846CA68Bu;
    h ^= h >> 16;
    return bits ? h >> (32u - bits) : 0u;
}

/* The sort key of photon `slot`: (bucket << 32) | order key. */
RS_FN uint64_t rs_photon_grid_key(const RsPhotonGrid* g, uint32_t slot)
{
    const RsPhoton* p = &g->photons[slot];
    uint32_t bucket = 0;
    if (g->cell > 0.0f) {
        int32_t x = rs_photon_grid_coord(g, p->position.x, g->origin.x);
        int32_t y = rs_photon_grid_coord(g, p->position.y, g->origin.y);
        int32_t z = rs_photon_grid_coord(g, p->position.z, g->origin.z);
        bucket = rs_photon_grid_hash(x, y, z, g->bits);
    }
    return ((uint64_t)bucket << 32) | rs_photon_order(p);
}

/* Sorted position i of n (keys sorted): writes begin[b] if it starts bucket b's run, end[b] if
 * it ends it. The tables must be zero before the first call. */
RS_FN void rs_photon_grid_mark_runs(const uint64_t* keys, uint32_t i, uint32_t n, uint32_t* begin, uint32_t* end)
{
    uint32_t b = (uint32_t)(keys[i] >> 32);
    if (i == 0 || (uint32_t)(keys[i - 1] >> 32) != b)
        begin[b] = i;
    if (i + 1 == n || (uint32_t)(keys[i + 1] >> 32) != b)
        end[b] = i + 1;
}

/* ---- the gather ---- */

/* The buckets of the cells that the box [x - h, x + h] overlaps, ascending and distinct; up to
 * 3 cells per axis (2 but where rounding lands on a cell border). Returns how many. */
RS_FN uint32_t rs_sppm_buckets(const RsPhotonGrid* g, RsVec3 x, float h, uint32_t out[27])
{
    int32_t lo[3], hi[3];
    float xs[3] = {x.x, x.y, x.z}, os[3] = {g->origin.x, g->origin.y, g->origin.z};
    for (int a = 0; a < 3; ++a) {
        lo[a] = rs_photon_grid_coord(g, rs_sub_rn(xs[a], h), os[a]);
        hi[a] = rs_photon_grid_coord(g, rs_add_rn(xs[a], h), os[a]);
        if (hi[a] > lo[a] + 2) /* cannot happen for a box within 2 cells; bounds the loops */
            hi[a] = lo[a] + 2;
    }
    uint32_t n = 0;
    for (int32_t cz = lo[2]; cz <= hi[2]; ++cz)
        for (int32_t cy = lo[1]; cy <= hi[1]; ++cy)
            for (int32_t cx = lo[0]; cx <= hi[0]; ++cx) {
                uint32_t b = rs_photon_grid_hash(cx, cy, cz, g->bits);
                uint32_t j = n;
                while (j > 0 && out[j - 1] > b) /* insertion: ascending */
                    --j;
                if (j > 0 && out[j - 1] == b)
                    continue;
                for (uint32_t k = n; k > j; --k)
                    out[k] = out[k - 1];
                out[j] = b;
                ++n;
            }
    return n;
}

/* A photon's contribution to the pixel's Phi: its power times the BSDF without the cosine
 * (rs_bsdf_eval gives f |cos wi| about ns); 0 where wi grazes the shading normal. */
RS_FN RsVec3 rs_sppm_photon_term(const RsMaterial* mat, const RsShadeSurface* s, const RsPhoton* p)
{
    RsVec3 wi = rs_xyz(p->direction);
    float cosine = fabsf(rs_dot(wi, s->ns));
    if (!(cosine > 0.0f))
        return rs_vec3_splat(0.0f);
    float pdf;
    RsVec3 f = rs_bsdf_eval(mat, s->sp.n, s->ns, s->wo, wi, &pdf);
    return rs_vec3(rs_mul_rn(p->power.x, f.x / cosine), rs_mul_rn(p->power.y, f.y / cosine),
                   rs_mul_rn(p->power.z, f.z / cosine));
}

/* The chunk's (Phi.rgb | M) at the pixel's visible point: Phi the sum of the terms of the photons
 * within R of it, in bucket order then sorted order, M their count (every photon within R counts,
 * whatever its term). (0 | 0) without a visible point or grid. */
RS_FN RsFloat4 rs_sppm_gather_sum(const RsKernelParams* kp, const RsPhotonGrid* g, uint32_t pixel)
{
    RsFloat4 sum = rs_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (!rs_sppm_has_visible(kp, pixel) || !(g->cell > 0.0f) || g->count == 0)
        return sum;
    float r = rs_sppm_radius(kp, pixel);
    if (!(r > 0.0f && r < RS_INFINITY)) /* as rs_sppm_gather_radius, which sized the cells */
        return sum;
    RsShadeSurface s;
    RsShadeScratch scratch;
    const RsPrim* prim;
    RsFloat4 origin = kp->visible.origin[pixel];
    const RsMaterial* mat = rs_shade_surface(kp, origin, kp->visible.direction[pixel], kp->visible.hit[pixel],
                                             rs_float_as_uint(origin.w), &s, &scratch, &prim);
    RsVec3 x = s.sp.p;
    float r2 = rs_mul_rn(r, r);
    uint32_t buckets[27];
    uint32_t nb = rs_sppm_buckets(g, x, rs_sppm_box_radius(r), buckets);
    uint32_t m = 0;
    for (uint32_t k = 0; k < nb; ++k) {
        uint32_t b = buckets[k];
        for (uint32_t i = g->begin[b]; i < g->end[b]; ++i) {
            const RsPhoton* p = &g->photons[g->sorted[i]];
            float dx = rs_sub_rn(p->position.x, x.x), dy = rs_sub_rn(p->position.y, x.y);
            float dz = rs_sub_rn(p->position.z, x.z);
            float d2 = rs_add_rn(rs_add_rn(rs_mul_rn(dx, dx), rs_mul_rn(dy, dy)), rs_mul_rn(dz, dz));
            if (!(d2 <= r2))
                continue;
            ++m;
            RsVec3 t = rs_sppm_photon_term(mat, &s, p);
            sum.x = rs_add_rn(sum.x, t.x);
            sum.y = rs_add_rn(sum.y, t.y);
            sum.z = rs_add_rn(sum.z, t.z);
        }
    }
    sum.w = (float)m;
    return sum;
}

/* The gather of one pixel for one chunk: sppm_pass[pixel] += (Phi | M). Chunks call it in chunk
 * order, so the pass's sums are the same on any device. */
RS_FN void rs_sppm_gather(const RsKernelParams* kp, const RsPhotonGrid* g, uint32_t pixel)
{
    RsFloat4 s = rs_sppm_gather_sum(kp, g, pixel);
    if (s.w == 0.0f)
        return;
    RsFloat4* pass = &kp->sppm_pass[pixel];
    *pass = rs_float4(rs_add_rn(pass->x, s.x), rs_add_rn(pass->y, s.y), rs_add_rn(pass->z, s.z),
                      rs_add_rn(pass->w, s.w));
}

/* ---- the update at the end of a pass ---- */

/* The pixel's state after a pass (Hachisuka & Jensen's rule, as pbrt-v4's SPPM has it), with
 * gamma = kp->particles.sppm_alpha, N photons kept, R the radius, tau the flux kept:
 *   M > 0:  N' = N + gamma M,  R' = R sqrt(N' / (N + M)),  tau' = (tau + weight Phi) (R'/R)^2
 *   M = 0:  unchanged (R set to the initial radius if it was 0)
 * (R'/R)^2 is N' / (N + M) itself, used as such: no 0 / 0 where R is 0. A pass whose weighted
 * Phi is not finite is dropped (M taken as 0), so that one bad photon cannot poison the pixel.
 * Then film plane 0 gets (Ld_sum + tau / (Np pi R^2) | w + 1), Np the photons per pass (the
 * indirect term is 0 while Np pi R^2 is not positive), so that rgb / w is the estimate; the
 * pass's sums and the visible point are cleared for the next pass. */
RS_FN void rs_sppm_update(const RsKernelParams* kp, uint32_t pixel)
{
    uint32_t pixels = rs_pixel_count(kp);
    RsFloat4 direct = kp->sppm_state[pixel];          /* Ld_sum.rgb | N */
    RsFloat4 flux = kp->sppm_state[pixels + pixel];   /* tau.rgb | R */
    RsFloat4 pass = kp->sppm_pass[pixel];             /* Phi.rgb | M */
    float r = flux.w > 0.0f ? flux.w : kp->particles.sppm_radius;
    float m = pass.w;
    if (m > 0.0f && rs_sppm_has_visible(kp, pixel)) {
        RsFloat4 w = kp->visible.weight[pixel];
        RsVec3 add = rs_vec3(rs_mul_rn(w.x, pass.x), rs_mul_rn(w.y, pass.y), rs_mul_rn(w.z, pass.z));
        if (rs_is_finite3(add)) {
            float n = direct.w;
            float n_new = rs_add_rn(n, rs_mul_rn(kp->particles.sppm_alpha, m));
            float ratio = n_new / rs_add_rn(n, m);
            r = rs_mul_rn(r, sqrtf(ratio));
            flux.x = rs_mul_rn(rs_add_rn(flux.x, add.x), ratio);
            flux.y = rs_mul_rn(rs_add_rn(flux.y, add.y), ratio);
            flux.z = rs_mul_rn(rs_add_rn(flux.z, add.z), ratio);
            direct.w = n_new;
        }
    }
    flux.w = r;
    kp->sppm_state[pixel] = direct;
    kp->sppm_state[pixels + pixel] = flux;

    float area = rs_mul_rn(rs_mul_rn((float)kp->particles.per_pass, RS_PI), rs_mul_rn(r, r));
    RsFloat4 film = kp->film[pixel];
    RsVec3 l = rs_xyz(direct);
    if (area > 0.0f && area < RS_INFINITY)
        l = rs_vec3(rs_add_rn(l.x, flux.x / area), rs_add_rn(l.y, flux.y / area), rs_add_rn(l.z, flux.z / area));
    kp->film[pixel] = rs_float4(l.x, l.y, l.z, rs_add_rn(film.w, 1.0f));
    kp->sppm_pass[pixel] = rs_float4(0.0f, 0.0f, 0.0f, 0.0f);
    kp->visible.hit[pixel].w = rs_uint_as_float(RS_NO_HIT);
}

#endif /* RS_KERNEL_PHOTON_GRID_H */
