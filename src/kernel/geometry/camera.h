/* camera.h - pinhole and thin-lens camera rays.
 *
 * Shared header (gcc C11, g++, nvcc). Conventions (scenes/README.md): right-handed, y up,
 * vertical field of view in degrees in the scene file; pixel (0,0) is the top-left corner of
 * the image. The host fills RsCamera from eye / look_at / up (src/host/scene/scene.c).
 *   eye     = position.xyz     | lens radius (0: pinhole)
 *   right   = unit right.xyz   | tan(fov_x / 2)
 *   up      = unit up.xyz      | tan(fov_y / 2)
 *   forward = unit forward.xyz | focus distance (plane in focus, measured along forward)
 */
#ifndef RS_KERNEL_CAMERA_H
#define RS_KERNEL_CAMERA_H

#include "kernel/sampling/warp.h"

typedef struct RsCamera {
    RsFloat4 eye, right, up, forward;
} RsCamera;

/* film_x, film_y: continuous pixel coordinates in [0, width) x [0, height).
 * lens_u, lens_v: uniform numbers for the aperture (ignored by a pinhole). */
RS_FN void rs_camera_ray(const RsCamera* cam, float film_x, float film_y, uint32_t width,
                         uint32_t height, float lens_u, float lens_v, RsVec3* origin,
                         RsVec3* dir)
{
    float ndc_x = 2.0f * film_x / (float)width - 1.0f;
    float ndc_y = 1.0f - 2.0f * film_y / (float)height;
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
