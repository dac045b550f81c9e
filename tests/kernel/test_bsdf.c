/* test_bsdf.c - every scattering model's sample, eval and pdf agree, conserve energy and are
 * reciprocal (kernel suite, CPU; built with RS_TEST_GPU it is test_gpu_bsdf, the same checks on
 * samples and evaluations computed in CUDA kernels, in the gpu suite). Host C11.
 *
 * Cases: diffuse; conductor (gold), dielectric (ior 1.5, from outside and from inside) and
 * plastic at several roughnesses, one anisotropic pair each; smooth and rough white plastic; a
 * white thin dielectric from either face (delta only: its albedo R' + T' must be exactly 1);
 * each seen from 10, 45 and 80 degrees. A tinted thin pane is checked on its own
 * (test_thin_dielectric: the probability of reflection against R + T^2 R / (1 - R^2)). The normal is +z, so world = local frame.
 * 1. Chi-square, as in Mitsuba's test suite: the sphere is cut into cells of equal solid angle
 *    (bands of cos(theta) x sectors of phi); expected counts integrate the pdf that eval reports
 *    over each cell (adaptive Simpson), observed counts bin N samples; samples without a
 *    density (delta lobes, failed samples) form one more cell, expected to hold the mass the
 *    pdf misses. Cells expected below 5 are pooled. Pearson's statistic must not be
 *    significant at 1% after a Bonferroni correction over all cases.
 * 2. Sample consistency: each sample's pdf and weight equal eval's pdf and f cos / pdf.
 * 3. Furnace: the mean sample weight (the directional albedo, what a renderer's throughput
 *    sees) equals the quadrature of eval over the sphere, plus the known albedo of a delta
 *    coat, within 4 standard errors + 2e-3, and the energy leaving is at most what arrived. Exact cases: GGX's weak white
 *    furnace (the integral of G1(wo) D(m) / (4 cos_o) over all wi is 1, microfacet.h), and a
 *    white base under a smooth coat reflects everything.
 * 4. Reciprocity: f(wo, wi) = f(wi, wo) for reflection; across a dielectric boundary
 *    f(wo, wi) / eta_o^2 = f(wi, wo) / eta_i^2 (the radiance scaling), eta_x the index on x's side.
 * GPU build: everything above from kernel results, plus GPU samples equal to CPU samples.
 * With BSDF_DEBUG set in the environment, the cells that add most to a chi-square are printed.
 */
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

#include "bsdf_probe.h"
#include "host/scene/material.h"
#include "tests/chi_square.h"
#include "tests/test.h"

#ifdef RS_TEST_GPU
#include "host/backend/backend.h"
#include "tests/gpu/bsdf_probe_kernel.h"
#define TEST_NAME "test_gpu_bsdf"
#else
#define TEST_NAME "test_bsdf"
#endif

enum { BANDS = 32, SECTORS = 64, CELLS = BANDS * SECTORS, SAMPLES = 200000 };

typedef struct Case {
    char name[96];
    RsMaterial m;
    RsVec3 wo;
    double delta_albedo; /* albedo of a delta lobe, which quadrature cannot see */
    int exact_albedo;    /* the albedo must be 1 */
} Case;

static const RsVec3 normal = {0.0f, 0.0f, 1.0f};

/* ---- backends: the CPU directly, or the GPU through the probe kernels ---- */

static void sample_all(const Case* c, uint32_t count, uint32_t seed, BsdfProbeSample* out)
{
#ifdef RS_TEST_GPU
    gpu_bsdf_sample(&c->m, normal, c->wo, count, seed, out);
#else
    for (uint32_t i = 0; i < count; ++i)
        out[i] = bsdf_probe_sample(&c->m, normal, c->wo, i, seed);
#endif
}

static void eval_all(const RsMaterial* m, const RsVec3* wo, const RsVec3* wi, uint32_t count, BsdfProbeEval* out)
{
#ifdef RS_TEST_GPU
    gpu_bsdf_eval(m, normal, wo, wi, count, out);
#else
    for (uint32_t i = 0; i < count; ++i)
        out[i] = bsdf_probe_eval(m, normal, wo[i], wi[i]);
#endif
}

/* ---- statistics ---- */

static int cell_of(RsVec3 w)
{
    int band = (int)((rs_clampf(w.z, -1.0f, 1.0f) + 1.0f) * 0.5f * BANDS);
    band = band < 0 ? 0 : (band >= BANDS ? BANDS - 1 : band);
    double phi = atan2(w.y, w.x);
    if (phi < 0.0)
        phi += 2.0 * PI;
    int sector = (int)(phi / (2.0 * PI) * SECTORS);
    sector = sector < 0 ? 0 : (sector >= SECTORS ? SECTORS - 1 : sector);
    return band * SECTORS + sector;
}

static RsVec3 direction(double cos_theta, double phi)
{
    double s = sqrt(fmax(0.0, 1.0 - cos_theta * cos_theta));
    return rs_vec3((float)(s * cos(phi)), (float)(s * sin(phi)), (float)cos_theta);
}

/* The integrals over a cell of the pdf and of f cos (3 channels), by adaptive Simpson in
 * (cos theta, phi): a piece's estimate is accepted when splitting it into four changes no
 * component by more than the tolerance, which halves with each split (errors concentrate along
 * edges, whose pieces double, not quadruple, per level). Adaptive, because the pdfs have edges (the horizon,
 * total internal reflection, microfacets turning their backs) along which fixed rules err by
 * tens of percent. Always the CPU's eval: on the GPU build the samples come from the GPU and
 * check_consistency compares the GPU's own eval with them. */
typedef struct CellIntegral {
    double v[4]; /* pdf, f cos r, g, b */
} CellIntegral;

static CellIntegral eval_point(const Case* c, double cos_theta, double phi)
{
    BsdfProbeEval e = bsdf_probe_eval(&c->m, normal, c->wo, direction(cos_theta, phi));
    CellIntegral r = {{e.pdf, e.f_cos.x, e.f_cos.y, e.f_cos.z}};
    return r;
}

/* 3x3-point Simpson over [c0, c0 + dc] x [p0, p0 + dp], from the nine values f[3][3]. */
static CellIntegral simpson9(const CellIntegral f[3][3], double dc, double dp)
{
    static const double w[3] = {1.0, 4.0, 1.0};
    CellIntegral r = {{0.0, 0.0, 0.0, 0.0}};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            for (int k = 0; k < 4; ++k)
                r.v[k] += w[i] * w[j] * f[i][j].v[k];
    for (int k = 0; k < 4; ++k)
        r.v[k] *= dc * dp / 36.0;
    return r;
}

static CellIntegral adaptive(const Case* c, double c0, double dc, double p0, double dp, CellIntegral whole,
                             double tolerance, int depth)
{
    CellIntegral quarter[2][2], sum = {{0.0, 0.0, 0.0, 0.0}};
    for (int qi = 0; qi < 2; ++qi)
        for (int qj = 0; qj < 2; ++qj) {
            CellIntegral f[3][3];
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j)
                    f[i][j] = eval_point(c, c0 + dc * (qi + 0.5 * i) / 2.0, p0 + dp * (qj + 0.5 * j) / 2.0);
            quarter[qi][qj] = simpson9((const CellIntegral(*)[3])f, dc / 2.0, dp / 2.0);
            for (int k = 0; k < 4; ++k)
                sum.v[k] += quarter[qi][qj].v[k];
        }
    double change = 0.0;
    for (int k = 0; k < 4; ++k)
        change = fmax(change, fabs(sum.v[k] - whole.v[k]));
    if (depth <= 0 || change <= tolerance)
        return sum;
    CellIntegral total = {{0.0, 0.0, 0.0, 0.0}};
    for (int qi = 0; qi < 2; ++qi)
        for (int qj = 0; qj < 2; ++qj) {
            CellIntegral part = adaptive(c, c0 + dc * qi / 2.0, dc / 2.0, p0 + dp * qj / 2.0, dp / 2.0,
                                         quarter[qi][qj], tolerance / 2.0, depth - 1);
            for (int k = 0; k < 4; ++k)
                total.v[k] += part.v[k];
        }
    return total;
}

static void integrate_cells(const Case* c, double* pdf_mass, double (*f_mass)[3])
{
    const double d_cos = 2.0 / BANDS, d_phi = 2.0 * PI / SECTORS;
    for (int cell = 0; cell < CELLS; ++cell) {
        double c0 = -1.0 + (cell / SECTORS) * d_cos, p0 = (cell % SECTORS) * d_phi;
        /* start from 4x4 pieces, so that no lobe hides between the first nodes */
        CellIntegral total = {{0.0, 0.0, 0.0, 0.0}};
        for (int a = 0; a < 4; ++a)
            for (int b = 0; b < 4; ++b) {
                double pc = c0 + d_cos * a / 4.0, pp = p0 + d_phi * b / 4.0;
                CellIntegral f[3][3];
                for (int i = 0; i < 3; ++i)
                    for (int j = 0; j < 3; ++j)
                        f[i][j] = eval_point(c, pc + d_cos / 4.0 * 0.5 * i, pp + d_phi / 4.0 * 0.5 * j);
                CellIntegral part = adaptive(c, pc, d_cos / 4.0, pp, d_phi / 4.0,
                                             simpson9((const CellIntegral(*)[3])f, d_cos / 4.0, d_phi / 4.0),
                                             1e-6, 8);
                for (int k = 0; k < 4; ++k)
                    total.v[k] += part.v[k];
            }
        pdf_mass[cell] = total.v[0];
        for (int ch = 0; ch < 3; ++ch)
            f_mass[cell][ch] = total.v[1 + ch];
    }
}

/* ---- the checks ---- */

static double chi_square_p(const Case* c, const BsdfProbeSample* s, const double* pdf_mass)
{
    static double observed[CELLS + 1];
    memset(observed, 0, sizeof observed);
    for (uint32_t i = 0; i < SAMPLES; ++i)
        observed[s[i].ok && s[i].pdf > 0.0f ? cell_of(s[i].wi) : CELLS] += 1.0;
    double total_mass = 0.0;
    for (int cell = 0; cell < CELLS; ++cell)
        total_mass += pdf_mass[cell];
    CHECK(total_mass <= 1.0 + 2e-3, "%s: the pdf integrates to %.5f > 1", c->name, total_mass);
    double chi2 = 0.0, pooled_expected = 0.0, pooled_observed = 0.0;
    int dof = -1;
    for (int cell = 0; cell <= CELLS; ++cell) {
        double expected = (cell == CELLS ? fmax(0.0, 1.0 - total_mass) : pdf_mass[cell]) * SAMPLES;
        if (expected < 5.0) {
            pooled_expected += expected;
            pooled_observed += observed[cell];
            continue;
        }
        double d = observed[cell] - expected;
        chi2 += d * d / expected;
        if (getenv("BSDF_DEBUG") && d * d / expected > 30.0)
            fprintf(stderr, "  %s cell %d (band %d sector %d): observed %.0f expected %.1f\n", c->name, cell,
                    cell / SECTORS, cell % SECTORS, observed[cell], expected);
        ++dof;
    }
    if (pooled_expected >= 5.0) {
        double d = pooled_observed - pooled_expected;
        chi2 += d * d / pooled_expected;
        ++dof;
    } else {
        /* too little mass to test statistically: it must at least not be hit often */
        CHECK(pooled_observed <= pooled_expected + 5.0 * sqrt(pooled_expected + 1.0) + 5.0,
              "%s: %.0f samples land where the pdf expects %.2f", c->name, pooled_observed, pooled_expected);
    }
    return dof > 0 ? rs_test_gamma_q(0.5 * dof, 0.5 * chi2) : 1.0;
}

static void check_consistency(const Case* c, const BsdfProbeSample* s)
{
    RsVec3* wo = malloc(SAMPLES * sizeof *wo);
    RsVec3* wi = malloc(SAMPLES * sizeof *wi);
    BsdfProbeEval* e = malloc(SAMPLES * sizeof *e);
    for (uint32_t i = 0; i < SAMPLES; ++i) {
        wo[i] = c->wo;
        wi[i] = s[i].wi;
    }
    eval_all(&c->m, wo, wi, SAMPLES, e);
    uint32_t checked = 0, bad_pdf = 0, bad_weight = 0;
    for (uint32_t i = 0; i < SAMPLES; ++i) {
        if (!s[i].ok || s[i].pdf == 0.0f)
            continue;
        ++checked;
        bad_pdf += fabsf(e[i].pdf - s[i].pdf) > 1e-3f * fmaxf(e[i].pdf, s[i].pdf);
        if (e[i].pdf > 0.0f) {
            RsVec3 w = rs_scale(e[i].f_cos, 1.0f / e[i].pdf);
            float tol = 1e-3f * fmaxf(rs_max_component(w), rs_max_component(s[i].weight)) + 1e-7f;
            bad_weight += fabsf(w.x - s[i].weight.x) > tol || fabsf(w.y - s[i].weight.y) > tol ||
                          fabsf(w.z - s[i].weight.z) > tol;
        }
    }
    /* a few may differ at float precision (grazing angles, where 1e-3 relative is a few ulps
     * of a cancelling sum) */
    CHECK(bad_pdf <= checked / 10000, "%s: %u of %u samples' pdf differ from eval's", c->name, bad_pdf, checked);
    CHECK(bad_weight <= checked / 10000, "%s: %u of %u samples' weight differ from eval's f cos / pdf", c->name,
          bad_weight, checked);
    free(wo);
    free(wi);
    free(e);
}

static void check_furnace(const Case* c, const BsdfProbeSample* s, double (*f_mass)[3])
{
    /* Energy: radiance is scaled by 1/eta^2 on refraction (kernel/bsdf/dielectric.h), so from inside
     * glass the albedo reaches ior^2; undone here, what leaves is at most what arrived. */
    int dielectric = rs_material_type(&c->m) == RS_MAT_DIELECTRIC;
    float eta = c->wo.z > 0.0f ? rs_material_ior(&c->m) : 1.0f / rs_material_ior(&c->m);
    for (int ch = 0; ch < 3; ++ch) {
        double sum = 0.0, sum2 = 0.0, energy = 0.0;
        for (uint32_t i = 0; i < SAMPLES; ++i) {
            double w = s[i].ok ? (ch == 0 ? s[i].weight.x : ch == 1 ? s[i].weight.y : s[i].weight.z) : 0.0;
            sum += w;
            sum2 += w * w;
            energy += dielectric && s[i].wi.z * c->wo.z < 0.0f ? w * eta * eta : w;
        }
        double mean = sum / SAMPLES;
        double error = sqrt(fmax(0.0, sum2 / SAMPLES - mean * mean) / SAMPLES);
        double quadrature = c->delta_albedo;
        for (int cell = 0; cell < CELLS; ++cell)
            quadrature += f_mass[cell][ch];
        CHECK(fabs(mean - quadrature) <= 4.0 * error + 2e-3,
              "%s channel %d: mean sample weight %.5f (+- %.5f), quadrature of eval %.5f", c->name, ch, mean, error,
              quadrature);
        CHECK(energy / SAMPLES <= 1.0 + 4.0 * error * (dielectric ? 2.25 : 1.0) + 1e-4,
              "%s channel %d: reflects and transmits %.5f > 1", c->name, ch, energy / SAMPLES);
        if (c->exact_albedo)
            CHECK(fabs(mean - 1.0) <= 4.0 * error + 1e-4, "%s channel %d: albedo %.5f (+- %.5f), expected 1",
                  c->name, ch, mean, error);
    }
}

static double bsdf_value(const BsdfProbeEval* e, RsVec3 wi) { return e->f_cos.x / fabsf(wi.z); }

static void check_reciprocity(const Case* c)
{
    enum { PAIRS = 20000 };
    RsVec3* a = malloc(2 * PAIRS * sizeof *a);
    RsVec3* b = malloc(2 * PAIRS * sizeof *b);
    BsdfProbeEval* e = malloc(2 * PAIRS * sizeof *e);
    for (uint32_t i = 0; i < PAIRS; ++i) {
        uint32_t key = rs_rng_path_key(99, i, 0);
        RsVec3 wo = rs_sample_uniform_sphere(rs_rng(key, 0, 0), rs_rng(key, 0, 1));
        RsVec3 wi = rs_sample_uniform_sphere(rs_rng(key, 0, 2), rs_rng(key, 0, 3));
        a[2 * i] = wo;
        b[2 * i] = wi;
        a[2 * i + 1] = wi;
        b[2 * i + 1] = wo;
    }
    eval_all(&c->m, a, b, 2 * PAIRS, e);
    int dielectric = rs_material_type(&c->m) == RS_MAT_DIELECTRIC;
    float ior = rs_material_ior(&c->m);
    uint32_t bad = 0, nonzero = 0;
    for (uint32_t i = 0; i < PAIRS; ++i) {
        RsVec3 wo = a[2 * i], wi = b[2 * i];
        if (fabsf(wo.z) < 1e-3f || fabsf(wi.z) < 1e-3f)
            continue;
        double forward = bsdf_value(&e[2 * i], wi), backward = bsdf_value(&e[2 * i + 1], wo);
        if (dielectric) {
            double eta_o = wo.z < 0.0f ? ior : 1.0, eta_i = wi.z < 0.0f ? ior : 1.0;
            forward /= eta_o * eta_o;
            backward /= eta_i * eta_i;
        }
        nonzero += forward > 0.0 || backward > 0.0;
        /* absolute 1e-4: near total internal reflection 1 - F cancels, and values of 1e-6
         * disagree in their third digit */
        bad += fabs(forward - backward) > 2e-3 * fmax(forward, backward) + 1e-4;
    }
    CHECK(nonzero > PAIRS / 20, "%s: only %u of %u pairs scatter at all", c->name, nonzero, PAIRS);
    CHECK(bad <= nonzero / 10000, "%s: %u of %u pairs are not reciprocal", c->name, bad, nonzero);
    free(a);
    free(b);
    free(e);
}

#ifdef RS_TEST_GPU
/* The GPU draws the very samples the CPU draws, up to float contraction. */
static void check_gpu_matches_cpu(const Case* c, const BsdfProbeSample* gpu)
{
    uint32_t differ = 0;
    for (uint32_t i = 0; i < SAMPLES; i += 7) {
        BsdfProbeSample cpu = bsdf_probe_sample(&c->m, normal, c->wo, i, 1);
        differ += cpu.ok != gpu[i].ok || (cpu.ok && rs_length(rs_sub(cpu.wi, gpu[i].wi)) > 1e-3f);
    }
    CHECK(differ <= SAMPLES / 7 / 1000, "%s: %u GPU samples differ from the CPU's", c->name, differ);
}
#endif

/* ---- the weak white furnace of GGX, by quadrature (host arithmetic: the CPU build only) ---- */

#ifndef RS_TEST_GPU
static void test_ggx_weak_furnace(void)
{
    const float alphas[][2] = {{0.09f, 0.09f}, {0.36f, 0.36f}, {1.0f, 1.0f}, {0.09f, 0.64f}};
    const float angles[] = {10.0f, 45.0f, 80.0f};
    for (size_t a = 0; a < sizeof alphas / sizeof alphas[0]; ++a)
        for (size_t t = 0; t < sizeof angles / sizeof angles[0]; ++t) {
            RsGgx g = rs_ggx(alphas[a][0], alphas[a][1]);
            double theta = angles[t] * PI / 180.0;
            RsVec3 wo = direction(cos(theta), 0.5);
            /* over all wi, in (cos, phi) cells as above, finer (the integrand is the lobe itself) */
            const int bands = 256, sectors = 256;
            double sum = 0.0;
            for (int i = 0; i < bands; ++i)
                for (int j = 0; j < sectors; ++j) {
                    for (int si = 0; si < 2; ++si)
                        for (int sj = 0; sj < 2; ++sj) { /* 2x2 Gauss-Legendre points per cell */
                            double gi = 0.5 + (si ? 0.5 : -0.5) / sqrt(3.0), gj = 0.5 + (sj ? 0.5 : -0.5) / sqrt(3.0);
                            RsVec3 wi = direction(-1.0 + 2.0 * (i + gi) / bands, 2.0 * PI * (j + gj) / sectors);
                            RsVec3 m = rs_half_vector(wo, wi);
                            sum += rs_ggx_g1(g, wo) * rs_ggx_d(g, m) / (4.0 * wo.z);
                        }
                }
            sum *= (2.0 / bands) * (2.0 * PI / sectors) / 4.0;
            CHECK(fabs(sum - 1.0) < 5e-3, "GGX alpha (%g, %g) at %g deg: weak white furnace %.5f, expected 1",
                  alphas[a][0], alphas[a][1], angles[t], sum);
        }
}

#endif

/* ---- cases ---- */

static int add_case(Case* cases, int n, const char* label, RsMaterialDesc d, float theta_deg, int from_inside)
{
    Case* c = &cases[n];
    c->m = rs_material_from_desc(&d);
    double theta = theta_deg * PI / 180.0;
    c->wo = direction(cos(theta) * (from_inside ? -1.0 : 1.0), 0.5);
    snprintf(c->name, sizeof c->name, "%s r=(%.2g,%.2g) at %g deg%s", label, d.roughness_u, d.roughness_v, theta_deg,
             from_inside ? " from inside" : "");
    c->delta_albedo = 0.0;
    c->exact_albedo = 0;
    if (d.type == RS_MAT_PLASTIC && rs_ggx_is_smooth(rs_material_ggx(&c->m)))
        c->delta_albedo = rs_fresnel_dielectric((float)cos(theta), d.ior);
    c->exact_albedo = d.type == RS_MAT_PLASTIC && c->delta_albedo > 0.0 && d.colour.x == 1.0f;
    if (d.type == RS_MAT_THIN_DIELECTRIC) { /* white (the only kind added): R' + T' = 1, all delta */
        c->delta_albedo = 1.0;
        c->exact_albedo = 1;
    }
    return n + 1;
}

static RsMaterialDesc rough(RsMaterialDesc d, float u, float v)
{
    d.roughness_u = u;
    d.roughness_v = v;
    return d;
}

static int make_cases(Case* cases)
{
    const float angles[] = {10.0f, 45.0f, 80.0f};
    const float roughness[][2] = {{0.3f, 0.3f}, {0.6f, 0.6f}, {1.0f, 1.0f}, {0.3f, 0.8f}};
    RsMaterialDesc diffuse = rs_material_desc(RS_MAT_DIFFUSE);
    diffuse.colour = rs_vec3(0.8f, 0.5f, 0.2f);
    RsMaterialDesc gold = rs_material_desc(RS_MAT_CONDUCTOR);
    rs_metal_index("Au", &gold.eta, &gold.k);
    gold.has_eta_k = 1;
    RsMaterialDesc glass = rs_material_desc(RS_MAT_DIELECTRIC);
    glass.colour = rs_vec3(1.0f, 0.9f, 0.7f);
    RsMaterialDesc plastic = rs_material_desc(RS_MAT_PLASTIC);
    plastic.colour = rs_vec3(0.8f, 0.4f, 0.1f);
    RsMaterialDesc white_plastic = plastic;
    white_plastic.colour = rs_vec3_splat(1.0f);
    RsMaterialDesc pane = rs_material_desc(RS_MAT_THIN_DIELECTRIC);
    int n = 0;
    for (size_t a = 0; a < sizeof angles / sizeof angles[0]; ++a) {
        n = add_case(cases, n, "thin glass", pane, angles[a], 0);
        n = add_case(cases, n, "thin glass", pane, angles[a], 1);
        n = add_case(cases, n, "diffuse", diffuse, angles[a], 0);
        n = add_case(cases, n, "white plastic smooth", white_plastic, angles[a], 0);
        n = add_case(cases, n, "plastic smooth", plastic, angles[a], 0);
        n = add_case(cases, n, "white plastic", rough(white_plastic, 0.3f, 0.3f), angles[a], 0);
        for (size_t r = 0; r < sizeof roughness / sizeof roughness[0]; ++r) {
            float u = roughness[r][0], v = roughness[r][1];
            n = add_case(cases, n, "gold", rough(gold, u, v), angles[a], 0);
            n = add_case(cases, n, "glass", rough(glass, u, v), angles[a], 0);
            n = add_case(cases, n, "glass", rough(glass, u, v), angles[a], 1);
            n = add_case(cases, n, "plastic", rough(plastic, u, v), angles[a], 0);
        }
    }
    return n;
}

#ifndef RS_TEST_GPU
/* A tinted thin pane at 30, 60 and 85 degrees, from either face: reflection chosen with
 * probability R' = R + T^2 R / (1 - R^2) (within 4 standard errors), along the mirror direction
 * with weight 1; otherwise straight through, wi = -wo exactly, with weight the tint. */
static void test_thin_dielectric(void)
{
    RsMaterialDesc d = rs_material_desc(RS_MAT_THIN_DIELECTRIC);
    d.colour = rs_vec3(1.0f, 0.5f, 0.25f);
    d.ior = 1.7f;
    RsMaterial m = rs_material_from_desc(&d);
    const double angles[] = {30.0, 60.0, 85.0};
    enum { N = 100000 };
    for (int a = 0; a < 3; ++a)
        for (int side = 0; side < 2; ++side) {
            double theta = angles[a] * PI / 180.0;
            RsVec3 wo = direction(cos(theta) * (side ? -1.0 : 1.0), 1.0);
            double r = rs_fresnel_dielectric((float)cos(theta), d.ior), t = 1.0 - r;
            double want = r + t * t * r / (1.0 - r * r);
            uint32_t reflected = 0, bad = 0;
            for (uint32_t i = 0; i < N; ++i) {
                BsdfProbeSample s = bsdf_probe_sample(&m, normal, wo, i, 5);
                if (!s.ok) {
                    ++bad;
                    continue;
                }
                if (s.wi.z * wo.z > 0.0f) {
                    ++reflected;
                    bad += fabsf(s.wi.x + wo.x) > 1e-6f || fabsf(s.wi.y + wo.y) > 1e-6f || s.weight.x != 1.0f ||
                           s.weight.z != 1.0f || s.pdf != 0.0f;
                } else {
                    bad += s.wi.x != -wo.x || s.wi.y != -wo.y || s.wi.z != -wo.z || s.weight.x != 1.0f ||
                           s.weight.y != 0.5f || s.weight.z != 0.25f || s.pdf != 0.0f;
                }
            }
            double freq = (double)reflected / N, sigma = sqrt(want * (1.0 - want) / N);
            CHECK(fabs(freq - want) <= 4.0 * sigma + 1e-9, "thin glass at %g deg%s: reflects %.5f, expected %.5f",
                  angles[a], side ? " from the back" : "", freq, want);
            CHECK(bad == 0, "thin glass at %g deg: %u samples with a wrong direction or weight", angles[a], bad);
            float pdf;
            RsVec3 f = rs_bsdf_eval(&m, normal, normal, wo, rs_vec3(0.0f, 0.0f, 1.0f), &pdf);
            CHECK(rs_is_black(f) && pdf == 0.0f, "a thin pane has no lobe with a density");
        }
    CHECK(rs_bsdf_has_delta(&m) && !rs_bsdf_has_density(&m), "a thin pane is delta lobes only");
}
#endif

int main(void)
{
#ifdef RS_TEST_GPU
    if (rs_cuda_device_count() <= 0) {
        printf(TEST_NAME ": no CUDA device, skipped\n");
        return RS_TEST_SKIP;
    }
#else
    test_ggx_weak_furnace();
    test_thin_dielectric();
#endif
    static Case cases[80];
    int count = make_cases(cases);
    BsdfProbeSample* samples = malloc(SAMPLES * sizeof *samples);
    double* pdf_mass = malloc(CELLS * sizeof *pdf_mass);
    double(*f_mass)[3] = malloc(CELLS * sizeof *f_mass);
    const double significance = 0.01 / count; /* Bonferroni over the cases */
    double smallest_p = 1.0;
    for (int i = 0; i < count; ++i) {
        const Case* c = &cases[i];
        sample_all(c, SAMPLES, 1, samples);
        integrate_cells(c, pdf_mass, f_mass);
        double p = chi_square_p(c, samples, pdf_mass);
        smallest_p = fmin(smallest_p, p);
        CHECK(p >= significance, "%s: chi-square p-value %.3g < %.3g: sampling does not follow the pdf", c->name, p,
              significance);
        check_consistency(c, samples);
        check_furnace(c, samples, f_mass);
        if ((i % 3 == 0 || rs_material_type(&c->m) == RS_MAT_DIELECTRIC) && rs_bsdf_has_density(&c->m))
            check_reciprocity(c); /* delta lobes only (a thin pane) have no value to compare */
#ifdef RS_TEST_GPU
        check_gpu_matches_cpu(c, samples);
#endif
    }
    printf(TEST_NAME ": %d cases, %d samples each, smallest chi-square p-value %.3g (threshold %.3g)\n", count,
           SAMPLES, smallest_p, significance);
    free(samples);
    free(pdf_mass);
    free(f_mass);
    return rs_test_finish(TEST_NAME);
}
