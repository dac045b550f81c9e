/* mts_spectrum.c - Mitsuba spectra as the linear sRGB colours Mitsuba's rgb variants make of
 * them. Host C11.
 *
 * Checked against Mitsuba 3.9's scalar_rgb (tools/make_mitsuba_tables.py's environment): a
 * wavelength:value list is sampled at 1000 evenly spaced points from 360 to 830 nm (points
 * outside the list's range count as 0), linearly interpolated, weighted by the CIE 1931 colour
 * matching functions (linearly interpolated from the 1 nm table) and, for reflectances only, by
 * illuminant D65; the sum times 470 / 1000 nm and 1 / (integral of ybar) is XYZ, which the sRGB
 * matrix turns into linear sRGB. Reflectances are clamped to [0, 1]. A single value is that
 * value in every channel for a reflectance, and an equal-energy spectrum (value times
 * (1.2049, 0.9482, 0.9093)) for an emitter. A blackbody is Planck's law in W / (m^2 sr nm)
 * converted as an emitter's list (Mitsuba's rgb variants refuse to render it).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host/import/mitsuba/mts_internal.h"

#define RS_MTS_SPECTRUM_MAX 4096
#define RS_MTS_CIE_Y_NORMALIZATION 0.009367658735689113 /* 1 / integral of ybar over 360..830 nm */

static double table(const float* values, int stride, double wavelength)
{
    double t = wavelength - RS_MTS_CIE_MIN;
    if (t < 0.0 || t > RS_MTS_CIE_COUNT - 1)
        return 0.0;
    int i = (int)t;
    if (i >= RS_MTS_CIE_COUNT - 1)
        i = RS_MTS_CIE_COUNT - 2;
    double f = t - i;
    return values[i * stride] * (1.0 - f) + values[(i + 1) * stride] * f;
}

static RsVec3 xyz_to_srgb(const double xyz[3])
{
    return rs_vec3((float)(3.240479 * xyz[0] - 1.537150 * xyz[1] - 0.498535 * xyz[2]),
                   (float)(-0.969256 * xyz[0] + 1.875991 * xyz[1] + 0.041556 * xyz[2]),
                   (float)(0.055648 * xyz[0] - 0.204043 * xyz[1] + 1.057311 * xyz[2]));
}

RsVec3 rs_mts_spectrum_list_rgb(const double* wavelengths, const double* values, int count, int d65, int bounded)
{
    const int steps = 1000;
    const double lo = RS_MTS_CIE_MIN, hi = RS_MTS_CIE_MIN + RS_MTS_CIE_COUNT - 1;
    double xyz[3] = {0.0, 0.0, 0.0};
    int k = 0;
    for (int i = 0; i < steps; ++i) {
        double x = lo + (i / (double)(steps - 1)) * (hi - lo);
        if (count < 1 || x < wavelengths[0] || x > wavelengths[count - 1])
            continue;
        while (k + 2 < count && wavelengths[k + 1] < x)
            ++k;
        double y = values[k];
        if (count > 1) {
            double x0 = wavelengths[k], x1 = wavelengths[k + 1];
            double f = x1 > x0 ? (x - x0) / (x1 - x0) : 0.0;
            y = values[k] * (1.0 - f) + values[k + 1] * f;
        }
        double w = d65 ? table(rs_mts_cie_d65, 1, x) : 1.0;
        for (int c = 0; c < 3; ++c)
            xyz[c] += table(&rs_mts_cie_xyz[0][c], 3, x) * w * y;
    }
    for (int c = 0; c < 3; ++c)
        xyz[c] *= (hi - lo) / steps * RS_MTS_CIE_Y_NORMALIZATION;
    RsVec3 rgb = xyz_to_srgb(xyz);
    if (bounded)
        rgb = rs_vmin(rs_vmax(rgb, rs_vec3_splat(0.0f)), rs_vec3_splat(1.0f));
    return rgb;
}

int rs_mts_spectrum_rgb(RsMts* m, const RsMtsNode* node, const char* text, int emitter, RsVec3* out)
{
    if (!strchr(text, ':')) {
        double v = 0.0;
        if (rs_mts_parse_number(m, node, "spectrum", text, &v))
            return -1;
        if (!emitter) {
            *out = rs_vec3_splat((float)v);
            return 0;
        }
        const double w[2] = {RS_MTS_CIE_MIN, RS_MTS_CIE_MIN + RS_MTS_CIE_COUNT - 1}, vals[2] = {v, v};
        *out = rs_mts_spectrum_list_rgb(w, vals, 2, 0, 0);
        return 0;
    }
    double* w = malloc(RS_MTS_SPECTRUM_MAX * sizeof *w);
    double* v = malloc(RS_MTS_SPECTRUM_MAX * sizeof *v);
    int count = 0, status = 0;
    if (!w || !v)
        status = rs_mts_fail(m, node, "out of memory");
    for (const char* p = text; status == 0;) {
        while (*p == ' ' || *p == ',' || *p == '\t' || *p == '\n' || *p == '\r')
            ++p;
        if (!*p)
            break;
        char pair[128];
        size_t n = 0;
        while (p[n] && p[n] != ',' && n < sizeof pair - 1)
            ++n;
        memcpy(pair, p, n);
        pair[n] = '\0';
        p += n;
        char* colon = strchr(pair, ':');
        if (!colon) {
            status = rs_mts_fail(m, node, "spectrum: '%s' is not wavelength:value", pair);
            break;
        }
        *colon = '\0';
        if (count == RS_MTS_SPECTRUM_MAX) {
            status = rs_mts_fail(m, node, "spectrum: more than %d entries", RS_MTS_SPECTRUM_MAX);
            break;
        }
        if (rs_mts_parse_number(m, node, "spectrum wavelength", pair, &w[count]) ||
            rs_mts_parse_number(m, node, "spectrum value", colon + 1, &v[count])) {
            status = -1;
            break;
        }
        if (count > 0 && !(w[count] > w[count - 1])) {
            status = rs_mts_fail(m, node, "spectrum: wavelengths must increase (%g after %g)", w[count], w[count - 1]);
            break;
        }
        ++count;
    }
    if (status == 0 && count == 0)
        status = rs_mts_fail(m, node, "spectrum: no values");
    if (status == 0) {
        *out = rs_mts_spectrum_list_rgb(w, v, count, !emitter, !emitter);
        if (!rs_is_finite3(*out) || fabsf(rs_max_abs_component(*out)) > 1e18f)
            status = rs_mts_fail(m, node, "spectrum: its colour is beyond 1e18");
    }
    free(w);
    free(v);
    return status;
}

RsVec3 rs_mts_blackbody_rgb(double kelvin)
{
    const double h = 6.62607015e-34, c = 299792458.0, k = 1.380649e-23;
    double w[RS_MTS_CIE_COUNT], v[RS_MTS_CIE_COUNT];
    for (int i = 0; i < RS_MTS_CIE_COUNT; ++i) {
        double lambda = (RS_MTS_CIE_MIN + i) * 1e-9;
        w[i] = RS_MTS_CIE_MIN + i;
        double e = (h * c) / (lambda * k * kelvin);
        v[i] = e > 700.0 ? 0.0 : 1e-9 * 2.0 * h * c * c / (pow(lambda, 5.0) * expm1(e));
    }
    return rs_mts_spectrum_list_rgb(w, v, RS_MTS_CIE_COUNT, 0, 0);
}
