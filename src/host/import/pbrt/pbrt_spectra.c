/* pbrt_spectra.c - pbrt-v4 spectra to linear sRGB (see pbrt_spectra.h). Host C11. */
#include "host/import/pbrt/pbrt_spectra.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/io/safe_file.h"

/* CIE XYZ to linear sRGB (IEC 61966-2-1, D65 white). */
static RsVec3 xyz_to_srgb(const double xyz[3])
{
    return rs_vec3((float)(3.2404542 * xyz[0] - 1.5371385 * xyz[1] - 0.4985314 * xyz[2]),
                   (float)(-0.9692660 * xyz[0] + 1.8760108 * xyz[1] + 0.0415560 * xyz[2]),
                   (float)(0.0556434 * xyz[0] - 0.2040259 * xyz[1] + 1.0572252 * xyz[2]));
}

static double lambda_of(int i) { return 360.0 + 5.0 * i; }

/* XYZ of s(lambda) (weighted by D65 when `reflect`), normalised so that Y = 1 for a light
 * and Y(D65) = 1 for a reflectance. */
static RsVec3 integrate(double (*s)(const void*, double), const void* data, int kind)
{
    double xyz[3] = {0.0, 0.0, 0.0}, norm = 0.0;
    for (int i = 0; i < RS_PBRT_CIE_SAMPLES; ++i) {
        double v = s(data, lambda_of(i));
        double w = kind == RS_PBRT_ILLUMINANT ? 1.0 : rs_pbrt_cie_d65[i];
        for (int c = 0; c < 3; ++c)
            xyz[c] += v * w * rs_pbrt_cie_xyz[i][c];
        norm += kind == RS_PBRT_ILLUMINANT ? v * rs_pbrt_cie_xyz[i][1] : w * rs_pbrt_cie_xyz[i][1];
    }
    if (!(norm > 0.0))
        return rs_vec3(0.0f, 0.0f, 0.0f);
    for (int c = 0; c < 3; ++c)
        xyz[c] /= norm;
    return xyz_to_srgb(xyz);
}

static double planck(const void* data, double lambda_nm)
{
    const double kelvin = *(const double*)data;
    const double c = 299792458.0, h = 6.62606957e-34, kb = 1.3806488e-23;
    double l = lambda_nm * 1e-9;
    return (2.0 * h * c * c) / (pow(l, 5.0) * (exp((h * c) / (l * kb * kelvin)) - 1.0));
}

RsVec3 rs_pbrt_blackbody(double kelvin)
{
    if (!(kelvin > 0.0))
        return rs_vec3(0.0f, 0.0f, 0.0f);
    return integrate(planck, &kelvin, RS_PBRT_ILLUMINANT);
}

typedef struct Pairs {
    const double* v;
    size_t n; /* pairs */
} Pairs;

static double piecewise(const void* data, double lambda)
{
    const Pairs* p = data;
    if (p->n == 0 || lambda < p->v[0] || lambda > p->v[2 * (p->n - 1)])
        return 0.0;
    for (size_t i = 0; i + 1 < p->n; ++i) {
        double l0 = p->v[2 * i], l1 = p->v[2 * i + 2];
        if (lambda >= l0 && lambda <= l1) {
            double t = l1 > l0 ? (lambda - l0) / (l1 - l0) : 0.0;
            return p->v[2 * i + 1] * (1.0 - t) + p->v[2 * i + 3] * t;
        }
    }
    return p->v[2 * p->n - 1];
}

RsVec3 rs_pbrt_spectrum_rgb(const double* pairs, size_t count, int kind)
{
    Pairs p = {pairs, count / 2};
    return integrate(piecewise, &p, kind);
}

double rs_pbrt_glass_ior(const char* name)
{
    /* refractive index n_d (587.6 nm) from the Schott and Ohara catalogues */
    static const struct {
        const char* name;
        double ior;
    } glasses[] = {{"glass-BK7", 1.5168},  {"glass-BAF10", 1.67003}, {"glass-FK51A", 1.48656},
                   {"glass-LASF9", 1.85025}, {"glass-F5", 1.67270},  {"glass-F10", 1.72825},
                   {"glass-F11", 1.78472}};
    for (size_t i = 0; i < sizeof glasses / sizeof glasses[0]; ++i)
        if (strcmp(name, glasses[i].name) == 0)
            return glasses[i].ior;
    return 0.0;
}

double* rs_pbrt_spectrum_pairs(RsPbrtParams* params, const RsPbrtParam* p, size_t* count, RsError* err)
{
    double* pairs = NULL;
    size_t n = 0;
    if (p->string_count == 1) {
        char path[4096], why[256];
        size_t size = 0;
        if (rs_pbrt_resolve(params->file ? params->file : "", p->strings[0], path, sizeof path)) {
            rs_pbrt_param_fail(params, p, err, "the file name is too long");
            return NULL;
        }
        char* text = rs_file_read_all(path, RS_PBRT_MAX_SPD_BYTES, &size, why, sizeof why);
        if (!text) {
            rs_pbrt_param_fail(params, p, err, "\"%s\" is not a named spectrum raystream knows, nor a spectrum file it "
                                               "can read (%s)",
                                p->strings[0], why);
            return NULL;
        }
        if (rs_file_list_add(params->files, path, err)) {
            free(text);
            return NULL;
        }
        pairs = malloc((size / 2 + 2) * sizeof(double)); /* each number takes two bytes at least */
        for (char* s = text; pairs && *s;) {
            if (*s == '#') {
                while (*s && *s != '\n')
                    ++s;
                continue;
            }
            if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == ',') {
                ++s;
                continue;
            }
            char* end = NULL;
            double v = strtod(s, &end);
            if (end == s || !isfinite(v) || fabs(v) > 1e18) {
                rs_pbrt_param_fail(params, p, err, "%s: not a number near '%.12s'", p->strings[0], s);
                free(pairs);
                free(text);
                return NULL;
            }
            pairs[n++] = v;
            s = end;
        }
        free(text);
        if (!pairs) {
            rs_pbrt_param_fail(params, p, err, "out of memory");
            return NULL;
        }
    } else {
        pairs = malloc((p->number_count ? p->number_count : 1) * sizeof(double));
        if (!pairs) {
            rs_pbrt_param_fail(params, p, err, "out of memory");
            return NULL;
        }
        memcpy(pairs, p->numbers, p->number_count * sizeof(double));
        n = p->number_count;
    }
    const char* what = p->string_count == 1 ? p->strings[0] : "the spectrum";
    if (n < 2 || n % 2) {
        rs_pbrt_param_fail(params, p, err, "%s: must be pairs of wavelength (nm) and value", what);
        free(pairs);
        return NULL;
    }
    for (size_t i = 0; i < n; i += 2) {
        if ((i > 0 && !(pairs[i] > pairs[i - 2])) || pairs[i + 1] < 0.0) {
            rs_pbrt_param_fail(params, p, err, "%s: wavelengths must increase and values be >= 0 (at %g nm)", what,
                               pairs[i]);
            free(pairs);
            return NULL;
        }
    }
    *count = n;
    return pairs;
}

int rs_pbrt_get_colour(RsPbrtParams* params, const char* name, int kind, RsVec3* out, int* found, RsError* err)
{
    *found = 0;
    RsPbrtParam* p = rs_pbrt_param(params, name);
    if (!p)
        return 0;
    if (strcmp(p->type, "rgb") == 0) {
        if (p->number_count != 3)
            return rs_pbrt_param_fail(params, p, err, "must be 3 numbers (got %zu)", p->number_count);
        for (int c = 0; c < 3; ++c)
            if (p->numbers[c] < 0.0)
                return rs_pbrt_param_fail(params, p, err, "components must be >= 0 (got %g)", p->numbers[c]);
        *out = rs_vec3((float)p->numbers[0], (float)p->numbers[1], (float)p->numbers[2]);
    } else if (strcmp(p->type, "float") == 0) {
        if (p->number_count != 1 || p->numbers[0] < 0.0)
            return rs_pbrt_param_fail(params, p, err, "must be one number >= 0");
        *out = rs_vec3_splat((float)p->numbers[0]);
    } else if (strcmp(p->type, "blackbody") == 0) {
        if (p->number_count != 1 || !(p->numbers[0] > 0.0))
            return rs_pbrt_param_fail(params, p, err, "must be one temperature > 0 kelvin");
        *out = rs_pbrt_blackbody(p->numbers[0]);
        if (kind == RS_PBRT_REFLECTANCE) /* pbrt-v4 normalises a blackbody to a peak of 1 */
            return rs_pbrt_param_fail(params, p, err, "a blackbody is a light's spectrum, not a reflectance");
    } else if (strcmp(p->type, "spectrum") == 0) {
        if (p->string_count == 1) {
            const char* s = p->strings[0];
            for (int i = 0; rs_pbrt_illuminants[i].name; ++i)
                if (strcmp(s, rs_pbrt_illuminants[i].name) == 0) {
                    const float* c = rs_pbrt_illuminants[i].rgb;
                    *out = rs_vec3(c[0], c[1], c[2]);
                    *found = 1;
                    return kind == RS_PBRT_ILLUMINANT
                               ? 0
                               : rs_pbrt_param_fail(params, p, err, "\"%s\" is an illuminant, not a %s", s,
                                                    kind == RS_PBRT_REFLECTANCE ? "reflectance" : "value");
                }
            if (strncmp(s, "metal-", 6) == 0 || strncmp(s, "glass-", 6) == 0 || strchr(s, '.') == NULL)
                return rs_pbrt_param_fail(params, p, err,
                                          "spectrum \"%s\": not a named spectrum raystream knows here (known: "
                                          "stdillum-A, -D50, -D65, -F1..-F12; metal-*-eta/-k for conductors, "
                                          "glass-* for dielectrics)",
                                          s);
        }
        size_t n = 0;
        double* pairs = rs_pbrt_spectrum_pairs(params, p, &n, err);
        if (!pairs)
            return -1;
        *out = rs_pbrt_spectrum_rgb(pairs, n, kind);
        free(pairs);
        /* out-of-gamut spectra come out slightly negative in sRGB: clamp, as a film would */
        out->x = fmaxf(out->x, 0.0f);
        out->y = fmaxf(out->y, 0.0f);
        out->z = fmaxf(out->z, 0.0f);
    } else {
        return rs_pbrt_param_fail(params, p, err, "must be rgb, spectrum or blackbody");
    }
    *found = 1;
    return 0;
}
