/* settings.h - what a scene's render settings may be: the limits every scene format is held to
 * (resolution, depth, samples, the size of its numbers, lengths and indices of refraction) and
 * the integrators by name.
 *
 * Host C11. Every importer (src/host/import/), the checkpoint reader and the program's options
 * read these, so they live with the scene rather than with one file format.
 */
#ifndef RS_HOST_SETTINGS_H
#define RS_HOST_SETTINGS_H

#include <stdint.h>

#include "kernel/state/kernel_params.h"

#define RS_SCENE_MAX_RESOLUTION 16384
#define RS_SCENE_MAX_DEPTH 1024
#define RS_SCENE_MAX_SPP 1048576

/* Every number of a scene lies within +-RS_SCENE_MAX_MAGNITUDE. Positions, lengths and
 * radiances are stored as 32-bit floats, and the renderer squares and multiplies them (ray-
 * sphere tests, cross products, light power): with |x| <= 1e18 those products stay finite,
 * where a number like 1e39 or 1e308 would become infinity and an object would vanish or the
 * image turn black. Lengths that must be positive (radius, scale) are at least
 * RS_SCENE_MIN_LENGTH, so that their squares are not zero. */
#define RS_SCENE_MAX_MAGNITUDE 1e18
#define RS_SCENE_MIN_LENGTH 1e-18
/* Index of refraction: a real material's lies well inside. */
#define RS_SCENE_MIN_IOR 0.01
#define RS_SCENE_MAX_IOR 100.0

/* Adaptive sampling: the smallest --min-spp default, and the documented threshold range. */
#define RS_DEFAULT_MIN_SPP 16
#define RS_MAX_NOISE_THRESHOLD 1.0

/* SPPM: the fraction of a pass's photons a pixel keeps (Hachisuka & Jensen's alpha; pbrt-v4's
 * 2/3), and the limits of the options. */
#define RS_SPPM_DEFAULT_ALPHA (2.0f / 3.0f)

/* Names <-> values of the settings chosen by name; parse returns -1 for an unknown name, and
 * the *_list functions say what is accepted, for error messages.
 *   integrator     "path" / "whitted" / "light" / "sppm"   RS_INTEGRATOR_*
 *   sampler        "independent" / "sobol"    RS_SAMPLER_* (kernel/sampling/sampler.h)
 *   light sampler  "power" / "tree"           RS_LIGHT_SELECT_* (kernel/scene/scene_view.h) */
int rs_integrator_parse(const char* name, uint32_t* out);
const char* rs_integrator_name(uint32_t integrator);
int rs_sampler_parse(const char* name, uint32_t* out);
const char* rs_sampler_name(uint32_t sampler);
const char* rs_sampler_list(void);
int rs_light_sampler_parse(const char* name, uint32_t* out);
const char* rs_light_sampler_name(uint32_t light_sampler);
const char* rs_light_sampler_list(void);

#endif /* RS_HOST_SETTINGS_H */
