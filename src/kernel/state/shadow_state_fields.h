/* shadow_state_fields.h - the list of shadow-ray queue fields (X-macro), like RayState's.
 *
 * Shared header (gcc C11, g++, nvcc). Shade appends at most one shadow ray per path and
 * bounce; connect traces it any-hit and, when nothing blocks it, adds `contribution` to the
 * radiance of path `slot`. The queue's order does not matter: each entry touches only its
 * own path, so strategies that fill it in different orders still agree bit for bit.
 */
#ifndef RS_KERNEL_SHADOW_STATE_FIELDS_H
#define RS_KERNEL_SHADOW_STATE_FIELDS_H

/* The fields every scene's shadow rays fill... */
#define RS_SHADOW_STATE_CORE_FIELDS(X) \
    X(RsFloat4, origin,       "origin.xyz | primitive it leaves, never hit (bits; RS_NO_HIT: none)") \
    X(RsFloat4, direction,    "direction.xyz (unit) | tmax") \
    X(RsFloat4, contribution, "radiance to add if unoccluded .rgb | path slot bits")

/* ...and all of them: a scene with instances also names the instance a shadow ray leaves
 * (allocated only for such a scene, as RayState's instance lane); a light tracer's shadow ray
 * is a camera connection, which adds to a pixel no path owns: it goes to the splat film
 * (film/splat.h) with its pixel and order key (allocated only for a backend that may trace
 * particles, RsBackendConfig.particles). */
#define RS_SHADOW_STATE_FIELDS(X) \
    RS_SHADOW_STATE_CORE_FIELDS(X) \
    X(RsUint4,  instance,     "instance the ray leaves (RS_NO_HIT: world) | 0 | 0 | 0; scenes with instances only") \
    X(RsUint4,  target,       "light tracing: pixel | splat order key | 0 | 0; backends that may trace particles only")

#endif /* RS_KERNEL_SHADOW_STATE_FIELDS_H */
