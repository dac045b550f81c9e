/* pbrt_spectra.h - pbrt-v4's spectra as the linear sRGB colours raystream renders with.
 *
 * Host C11. pbrt-v4 renders spectrally; raystream in linear sRGB. The conversions follow what
 * pbrt-v4's RGB film would record:
 *   - "rgb" values are linear sRGB as they are (reflectances and lights alike: pbrt-v4 scales a
 *     light's RGB by the colour space's illuminant normalised to luminance 1, which its film
 *     turns back into the same RGB);
 *   - a light's spectrum (inline, named like "stdillum-D65", or "blackbody" T) is normalised
 *     to luminance Y = 1, as pbrt-v4's lights do (they divide by the spectrum's photometric
 *     integral), then converted XYZ -> sRGB;
 *   - a reflectance spectrum is the sRGB colour of the light it reflects from the D65
 *     illuminant (normalised so that a constant 1 is white);
 *   - eta and k spectra (unbounded) the same way as a reflectance.
 * Inline spectra are [lambda value lambda value ...] in nm, piecewise linear and zero outside
 * their range (pbrt-v4's PiecewiseLinearSpectrum); a spectrum file ("spds/Au.eta.spd", named
 * relative to the scene file) holds the same pairs as text, '#' starting a comment, at most
 * RS_PBRT_MAX_SPD_BYTES.
 * pbrt_cie_tables.c holds the CIE data (tools/gen_pbrt_spectra.py).
 */
#ifndef RS_HOST_PBRT_SPECTRA_H
#define RS_HOST_PBRT_SPECTRA_H

#include "host/import/pbrt/pbrt_params.h"
#include "kernel/util/vecmath.h"

#define RS_PBRT_CIE_SAMPLES 95 /* 360..830 nm every 5 nm */

typedef struct RsPbrtNamedColour {
    const char* name;
    float rgb[3];
} RsPbrtNamedColour;

extern const float rs_pbrt_cie_xyz[RS_PBRT_CIE_SAMPLES][3];
extern const float rs_pbrt_cie_d65[RS_PBRT_CIE_SAMPLES];
extern const RsPbrtNamedColour rs_pbrt_illuminants[]; /* ends with a NULL name */

enum { RS_PBRT_REFLECTANCE = 0, RS_PBRT_ILLUMINANT = 1, RS_PBRT_UNBOUNDED = 2 };

/* Blackbody radiation at `kelvin` as sRGB with luminance 1. */
RsVec3 rs_pbrt_blackbody(double kelvin);
/* An inline spectrum of `count` numbers (pairs) as sRGB of the given kind. */
RsVec3 rs_pbrt_spectrum_rgb(const double* pairs, size_t count, int kind);
#define RS_PBRT_MAX_SPD_BYTES (1u << 20)

/* The pairs of the spectrum parameter p (inline, or read from the file it names) in a malloc'ed
 * array of *count numbers, checked (increasing wavelengths, values >= 0);
 * NULL with err set on failure. */
double* rs_pbrt_spectrum_pairs(RsPbrtParams* params, const RsPbrtParam* p, size_t* count, RsError* err);

/* The index of refraction of a named glass ("glass-BK7"...) at the sodium d line, or 0. */
double rs_pbrt_glass_ior(const char* name);

/* The colour parameter `name` ("rgb", "spectrum", "blackbody"; a float too, as grey) of the
 * given kind: 0 with *found = 0 when absent, 0 with *out set and *found = 1, or -1 with err. A
 * named metal spectrum ("metal-Au-eta") is only accepted by rs_pbrt_get_conductor. */
int rs_pbrt_get_colour(RsPbrtParams* params, const char* name, int kind, RsVec3* out, int* found, RsError* err);

#endif /* RS_HOST_PBRT_SPECTRA_H */
