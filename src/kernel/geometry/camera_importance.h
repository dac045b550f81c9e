/* camera_importance.h - the camera seen from the scene: which pixel a point lands in, and how
 * much a particle there adds to it (light tracing's camera connection).
 *
 * Shared header (gcc C11, g++, nvcc). The path tracer's pixel value is the mean radiance over
 * the pixel's footprint on the film (a box filter): I_j = (1 / A_pix) * integral over pixel j
 * of L(x) dx, with x on the film plane at distance 1 along forward (perspective) or on the view
 * plane itself (orthographic), A_pix its area per pixel. A particle estimate of I_j needs that
 * integral over the scene's surfaces instead:
 *   perspective (pinhole or thin lens, the lens point q drawn uniformly): dx = dw / cos^3(theta)
 *     and dw = |cos_p| dA / d^2, so a vertex p adds f * |cos_p| / (A_pix cos^3(theta) d^2) times
 *     its weight; theta is the angle between q->p and forward, d = |p - q|. (With a lens the
 *     film point is where the pinhole ray through the focus-plane point of q->p starts; the
 *     lens area cancels, as in pbrt-v4's PerspectiveCamera::SampleWi.)
 *   orthographic without a lens: dx = |cos_p| dA, so p adds f * |cos_p| / A_pix, along -forward.
 * Divided by the particles per pass (the pixel count for light tracing) A_pix becomes the
 * film's whole area A, which is what `importance` returns: rgb / passes in the film is then the
 * same estimate of the same pixel value as the path tracer's.
 */
#ifndef RS_KERNEL_CAMERA_IMPORTANCE_H
#define RS_KERNEL_CAMERA_IMPORTANCE_H

#include "kernel/geometry/camera.h"

typedef struct RsCameraConnection {
    RsVec3 q;         /* the point on the lens (the eye for a pinhole; on the view plane for orthographic) */
    RsVec3 to_camera; /* unit, from the scene point towards q */
    float dist;       /* |q - p| */
    uint32_t pixel;   /* row-major: y * width + x */
    float importance; /* the factor of (f |cos_p| x weight) for one particle of a pass of
                         width * height particles (see the top of the file) */
} RsCameraConnection;

/* Finds where scene point p lands on the film, through the lens point drawn by (lens_u,
 * lens_v). Returns 0 when it lands outside the image, behind the camera, or the camera is an
 * orthographic one with a lens (light tracing refuses that camera). */
RS_FN int rs_camera_connect(const RsCamera* cam, uint32_t width, uint32_t height, RsVec3 p, float lens_u,
                            float lens_v, RsCameraConnection* c)
{
    RsVec3 right = rs_xyz(cam->right), up = rs_xyz(cam->up), fwd = rs_xyz(cam->forward), eye = rs_xyz(cam->eye);
    float lens_radius = cam->eye.w;
    float ndc_x, ndc_y;
    if (rs_camera_orthographic(cam)) {
        if (lens_radius > 0.0f)
            return 0;
        RsVec3 v = rs_sub(p, eye);
        float depth = rs_dot(v, fwd);
        if (!(depth > 0.0f))
            return 0;
        ndc_x = rs_dot(v, right) / cam->right.w;
        ndc_y = rs_dot(v, up) / cam->up.w;
        c->q = rs_sub(p, rs_scale(fwd, depth));
        c->to_camera = rs_neg(fwd);
        c->dist = depth;
        c->importance = 1.0f / (4.0f * cam->right.w * cam->up.w);
    } else {
        RsVec3 q = eye;
        if (lens_radius > 0.0f) {
            float lx, ly;
            rs_sample_disk(lens_u, lens_v, &lx, &ly);
            q = rs_add(eye, rs_add(rs_scale(right, lx * lens_radius), rs_scale(up, ly * lens_radius)));
        }
        RsVec3 qp = rs_sub(p, q);
        float along = rs_dot(qp, fwd);
        if (!(along > 0.0f))
            return 0;
        /* the focus-plane point of the ray q -> p, seen from the eye (a pinhole: p itself) */
        RsVec3 v = lens_radius > 0.0f ? rs_add(rs_sub(q, eye), rs_scale(qp, cam->forward.w / along)) : qp;
        float z = rs_dot(v, fwd);
        if (!(z > 0.0f))
            return 0;
        ndc_x = rs_dot(v, right) / (z * cam->right.w);
        ndc_y = rs_dot(v, up) / (z * cam->up.w);
        float d2 = rs_dot(qp, qp);
        float d = sqrtf(d2);
        float cos_theta = along / d;
        c->q = q;
        c->to_camera = rs_scale(qp, -1.0f / d);
        c->dist = d;
        c->importance = 1.0f / (4.0f * cam->right.w * cam->up.w * cos_theta * cos_theta * cos_theta * d2);
    }
    float film_x = (ndc_x + 1.0f) * 0.5f * (float)width;
    float film_y = (1.0f - ndc_y) * 0.5f * (float)height;
    if (!(film_x >= 0.0f && film_x < (float)width && film_y >= 0.0f && film_y < (float)height))
        return 0;
    uint32_t x = (uint32_t)film_x, y = (uint32_t)film_y;
    if (x >= width || y >= height) /* rounding at the far edge */
        return 0;
    c->pixel = y * width + x;
    return rs_is_finite(c->importance) && c->importance > 0.0f;
}

#endif /* RS_KERNEL_CAMERA_IMPORTANCE_H */
