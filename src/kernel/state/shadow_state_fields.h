/* shadow_state_fields.h - the list of shadow-ray queue fields (X-macro), like RayState's.
 *
 * Shared header (gcc C11, g++, nvcc). Shade appends at most one shadow ray per path and
 * bounce; connect traces it any-hit and, when nothing blocks it, adds `contribution` to the
 * radiance of path `slot`. The queue's order does not matter: each entry touches only its
 * own path, so strategies that fill it in different orders still agree bit for bit.
 */
#ifndef RS_KERNEL_SHADOW_STATE_FIELDS_H
#define RS_KERNEL_SHADOW_STATE_FIELDS_H

#define RS_SHADOW_STATE_FIELDS(X) \
    X(RsFloat4, origin,       "origin.xyz | primitive it leaves, never hit (bits; RS_NO_HIT: none)") \
    X(RsFloat4, direction,    "direction.xyz (unit) | tmax") \
    X(RsFloat4, contribution, "radiance to add if unoccluded .rgb | path slot bits")

#endif /* RS_KERNEL_SHADOW_STATE_FIELDS_H */
