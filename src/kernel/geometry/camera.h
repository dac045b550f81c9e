/* camera.h - perspective (pinhole and thin-lens) and orthographic camera rays.
 *
 * Shared header (gcc C11, g++, nvcc). Conventions (scenes/README.md): right-handed, y up,
 * vertical field of view in degrees in the scene file; pixel (0,0) is the top-left corner of
 * the image. The host fills RsCamera from eye / look_at / up (rs_camera_make,
 * src/host/scene/scene.c, the only place that builds one).
 *   eye        = position.xyz     | lens radius (0: pinhole)
 *   right      = unit right.xyz   | perspective: tan(fov_x / 2); orthographic: half the view's width
 *   up         = unit up.xyz      | perspective: tan(fov_y / 2); orthographic: half the view's height
 *   forward    = unit forward.xyz | focus distance (plane in focus, measured along forward)
 *   projection = x: bits, RS_CAMERA_PERSPECTIVE or RS_CAMERA_ORTHOGRAPHIC; y, z, w: 0
 * An orthographic ray starts on the plane through the eye across the view and runs along
 * forward. With a lens it is pbrt-v4's orthographic thin lens: the ray from a point of the lens
 * through the point where the pinhole ray meets the plane of focus.
 */
#ifndef RS_KERNEL_CAMERA_H
#define RS_KERNEL_CAMERA_H

#include "kernel/sampling/warp.h"

enum { RS_CAMERA_PERSPECTIVE = 0, RS_CAMERA_ORTHOGRAPHIC = 1 };

typedef struct RsCamera {
    RsFloat4 eye, right, up, forward, projection;
} RsCamera;

RS_FN int rs_camera_orthographic(const RsCamera* cam)
{
    return rs_float_as_uint(cam->projection.x) == RS_CAMERA_ORTHOGRAPHIC;
}

/* An orthographic ray for ndc (x, y) in [-1, 1]^2 (see the top of the file). */
RS_FN void rs_camera_ray_orthographic(const RsCamera* cam, float ndc_x, float ndc_y, float lens_u, float lens_v,
                                      RsVec3* origin, RsVec3* dir)
{
    RsVec3 right = rs_xyz(cam->right), up = rs_xyz(cam->up), fwd = rs_xyz(cam->forward);
    RsVec3 o = rs_add(rs_xyz(cam->eye), rs_add(rs_scale(right, ndc_x * cam->right.w), rs_scale(up, ndc_y * cam->up.w)));
    float lens_radius = cam->eye.w;
    if (lens_radius > 0.0f) {
        float lx, ly;
        rs_sample_disk(lens_u, lens_v, &lx, &ly);
        RsVec3 lens = rs_add(rs_scale(right, lx * lens_radius), rs_scale(up, ly * lens_radius));
        *origin = rs_add(o, lens);
        *dir = rs_normalize(rs_sub(rs_scale(fwd, cam->forward.w), lens));
    } else {
        *origin = o;
        *dir = fwd;
    }
}

/* film_x, film_y: continuous pixel coordinates in [0, width) x [0, height).
 * lens_u, lens_v: uniform numbers for the aperture (ignored by a pinhole). */
RS_FN void rs_camera_ray(const RsCamera* cam, float film_x, float film_y, uint32_t width,
                         uint32_t height, float lens_u, float lens_v, RsVec3* origin,
                         RsVec3* dir)
{
    float ndc_x = 2.0f * film_x / (float)width - 1.0f;
    float ndc_y = 1.0f - 2.0f * film_y / (float)height;
    if (rs_camera_orthographic(cam)) {
        rs_camera_ray_orthographic(cam, ndc_x, ndc_y, lens_u, lens_v, origin, dir);
        return;
    }
    RsVec3 right = rs_xyz(cam->right), up = rs_xyz(cam->up), fwd = rs_xyz(cam->forward);
    /* d has a forward component of exactly 1: the point at parameter `focus` on it lies on the
     * plane of focus, which is what the thin lens needs. */
    RsVec3 d = rs_add(fwd, rs_add(rs_scale(right, ndc_x * cam->right.w), rs_scale(up, ndc_y * cam->up.w)));
    RsVec3 eye = rs_xyz(cam->eye);
    float lens_radius = cam->eye.w;
    if (lens_radius > 0.0f) {
        float lx, ly;
        rs_sample_disk(lens_u, lens_v, &lx, &ly);
        RsVec3 lens = rs_add(rs_scale(right, lx * lens_radius), rs_scale(up, ly * lens_radius));
        RsVec3 focus = rs_scale(d, cam->forward.w);
        *origin = rs_add(eye, lens);
        *dir = rs_normalize(rs_sub(focus, lens));
    } else {
        *origin = eye;
        *dir = rs_normalize(d);
    }
}

#endif /* RS_KERNEL_CAMERA_H */
