/* transform.h - affine transforms for mesh instances in scene files. Host C11.
 *
 * Row-major 3x4 matrix acting on column vectors: p' = M[:, 0:3] p + M[:, 3]. A scene file's
 * "transform" applies scale, then rotate, then translate (pbrt's Scale/Rotate/Translate read
 * from the point outwards), or gives the full matrix.
 */
#ifndef RS_HOST_TRANSFORM_H
#define RS_HOST_TRANSFORM_H

#include "kernel/util/vecmath.h"

typedef struct RsTransform {
    float m[3][4];
} RsTransform;

RsTransform rs_transform_identity(void);
RsTransform rs_transform_translate(RsVec3 t);
RsTransform rs_transform_scale(RsVec3 s);
/* Rotation by angle_degrees about `axis` (need not be unit; must not be zero), right-handed. */
RsTransform rs_transform_rotate(float angle_degrees, RsVec3 axis);
/* a after b: (a * b) p = a(b(p)) */
RsTransform rs_transform_compose(const RsTransform* a, const RsTransform* b);
RsVec3 rs_transform_point(const RsTransform* t, RsVec3 p);
/* A surface normal under t, not normalized: the cofactor matrix of t's linear part times n, so
 * that it turns exactly as the cross product of two transformed edges does (mirroring
 * transforms flip both). */
RsVec3 rs_transform_normal(const RsTransform* t, RsVec3 n);

#endif /* RS_HOST_TRANSFORM_H */
