/* lights.h - the scene's light table: one entry per emitter (emissive primitives, point and
 * spot lights, the environment), with its area and its emitted power.
 *
 * Host C11. The entries are what src/kernel/scene/scene_data.h calls "light entry"; each
 * emitting primitive names its entry (RsPrim light bits) and the environment's is
 * scene->env_light. Powers follow pbrt-v4's Phi: an area light emits pi * area * luminance(L)
 * (twice that if both faces emit); the environment, seen from inside the scene's bounding
 * sphere of radius R, 4 pi * pi R^2 * luminance(mean L) (UniformInfiniteLight::Phi); point and
 * spot lights 4 pi I, or 2 pi I times the cone's share of the sphere; a directional light
 * pi R^2 E (DistantLight::Phi). How next-event
 * estimation chooses among the entries is light_select.h's.
 */
#ifndef RS_HOST_LIGHTS_H
#define RS_HOST_LIGHTS_H

#include "host/scene/scene.h"

/* Fills scene->lights, scene->light_count, scene->env_light, scene->infinite_first and every
 * primitive's light bits. Entries: emitting primitives, point and spot lights, then the lights
 * at infinity (directional lights, the environment last).
 * *power (allocated, light_count entries, NULL when there is no light; the caller frees it) gets
 * each entry's power in double precision, what a selection builder weighs by; the table keeps
 * a float copy. scene_radius: half the diagonal of the scene's bounds. */
int rs_scene_build_lights(RsScene* scene, float scene_radius, double** power, RsError* err);

#endif /* RS_HOST_LIGHTS_H */
