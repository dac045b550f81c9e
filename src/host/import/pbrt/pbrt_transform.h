/* pbrt_transform.h - pbrt-v4's transformation directives in double precision: 4x4 matrices
 * acting on column vectors, each directive multiplying the current transform on the right
 * (pbrt's CTM = CTM * T), and the conversion to raystream's float 3x4 RsTransform.
 *
 * Host C11. Only affine matrices are accepted where geometry is placed (a projective "Transform"
 * is refused by the caller).
 */
#ifndef RS_HOST_PBRT_TRANSFORM_H
#define RS_HOST_PBRT_TRANSFORM_H

#include "host/scene/transform.h"
#include "kernel/util/vecmath.h"

typedef struct RsPbrtMatrix {
    double m[4][4];
} RsPbrtMatrix;

RsPbrtMatrix rs_pbrt_identity(void);
RsPbrtMatrix rs_pbrt_mul(const RsPbrtMatrix* a, const RsPbrtMatrix* b); /* a * b */
RsPbrtMatrix rs_pbrt_translate(double x, double y, double z);
RsPbrtMatrix rs_pbrt_scale(double x, double y, double z);
/* Right-handed rotation about a non-zero axis (pbrt's Rotate). */
RsPbrtMatrix rs_pbrt_rotate(double degrees, double x, double y, double z);
/* pbrt's LookAt: camera-from-world; -1 if eye == look or up is along the view. */
int rs_pbrt_look_at(const double eye[3], const double look[3], const double up[3], RsPbrtMatrix* out);
/* pbrt's Transform and ConcatTransform: 16 numbers, column by column. */
RsPbrtMatrix rs_pbrt_from_columns(const double v[16]);
/* -1 if singular. */
int rs_pbrt_invert(const RsPbrtMatrix* a, RsPbrtMatrix* out);
int rs_pbrt_is_affine(const RsPbrtMatrix* a);
double rs_pbrt_det3(const RsPbrtMatrix* a); /* of the linear part */
void rs_pbrt_point(const RsPbrtMatrix* a, const double p[3], double out[3]);
void rs_pbrt_vector(const RsPbrtMatrix* a, const double v[3], double out[3]);
/* A normal under a: the inverse transpose of the linear part (not normalised); -1 if singular. */
int rs_pbrt_normal_matrix(const RsPbrtMatrix* a, double out[3][3]);
RsTransform rs_pbrt_to_transform(const RsPbrtMatrix* a);
/* Whether the linear part is a rotation (or reflection) times a uniform scale; *scale gets it. */
int rs_pbrt_is_similarity(const RsPbrtMatrix* a, double* scale);

#endif /* RS_HOST_PBRT_TRANSFORM_H */
