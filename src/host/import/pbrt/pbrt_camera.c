/* pbrt_camera.c - pbrt-v4's Camera, Film, Sampler and Integrator as raystream's camera and
 * render settings. Host C11.
 *
 * The camera is placed at WorldBegin, when the film's size is known: pbrt-v4's "fov" spans the
 * image's shorter axis, raystream's the vertical one. pbrt's camera space is left-handed; the
 * choice of `mirror` (pbrt_context.h) makes raystream's right-handed camera show the same
 * image. Depth: pbrt-v4's maxdepth d is raystream's max_depth d (README: both count the
 * segments of a path, 1 being direct light only); maxdepth 0 (emitted light only) has no
 * equal and becomes 1 with a warning.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "host/import/pbrt/pbrt_context.h"
#include "host/scene/settings.h"

int rs_pbrt_camera(RsPbrtContext* ctx, const char* type, RsPbrtParams* params)
{
    if (strcmp(type, "perspective") != 0 && strcmp(type, "orthographic") != 0)
        return rs_pbrt_fail(params, ctx->err, "not supported (raystream has perspective and orthographic cameras)");
    if (!rs_pbrt_is_affine(&ctx->gs.ctm))
        return rs_pbrt_fail(params, ctx->err, "the camera transform is projective");
    snprintf(ctx->camera_type, sizeof ctx->camera_type, "%s", type);
    ctx->has_camera = 1;
    ctx->camera_from_world = ctx->gs.ctm;
    ctx->fov = 90.0;
    ctx->lens_radius = 0.0;
    ctx->focal_distance = 1e6;
    ctx->frame_aspect = 0.0;
    if ((type[0] == 'p' && rs_pbrt_get_float(params, "fov", &ctx->fov, ctx->err)) ||
        rs_pbrt_get_float(params, "lensradius", &ctx->lens_radius, ctx->err) ||
        rs_pbrt_get_float(params, "focaldistance", &ctx->focal_distance, ctx->err) ||
        rs_pbrt_get_float(params, "frameaspectratio", &ctx->frame_aspect, ctx->err))
        return -1;
    if (!(ctx->fov > 0.0 && ctx->fov < 180.0))
        return rs_pbrt_fail(params, ctx->err, "\"float fov\": must be in (0, 180) degrees (got %g)", ctx->fov);
    if (ctx->lens_radius < 0.0 || !(ctx->focal_distance > 0.0))
        return rs_pbrt_fail(params, ctx->err, "lensradius must be >= 0 and focaldistance > 0");
    size_t n = 0;
    const double* window = rs_pbrt_get_numbers(params, "screenwindow", "float", 4, &n, ctx->err);
    if (!window && ctx->err->message[0])
        return -1;
    ctx->has_screen_window = window != NULL;
    if (window) {
        if (n != 4 || !(window[1] > window[0]) || !(window[3] > window[2]))
            return rs_pbrt_fail(params, ctx->err, "\"float screenwindow\": must be [xmin xmax ymin ymax]");
        memcpy(ctx->screen_window, window, sizeof ctx->screen_window);
    }
    /* named coordinate system "camera": pbrt's world from camera */
    RsPbrtMatrix world_from_camera;
    if (rs_pbrt_invert(&ctx->camera_from_world, &world_from_camera))
        return rs_pbrt_fail(params, ctx->err, "the camera transform is singular");
    return rs_pbrt_define_coords(ctx, "camera", &world_from_camera) ? rs_pbrt_fail(params, ctx->err, "out of memory")
                                                                      : 0;
}

int rs_pbrt_film(RsPbrtContext* ctx, const char* type, RsPbrtParams* params)
{
    if (strcmp(type, "rgb") != 0 && strcmp(type, "gbuffer") != 0 && strcmp(type, "spectral") != 0)
        return rs_pbrt_fail(params, ctx->err, "not supported (rgb, gbuffer and spectral films are read)");
    if (strcmp(type, "rgb") != 0)
        rs_scene_warn(ctx->scene, "%s: rendered as an RGB film (raystream's outputs and --aov layers)", params->where);
    long w = ctx->width, h = ctx->height;
    const char* filename = NULL;
    if (rs_pbrt_get_int(params, "xresolution", &w, ctx->err) || rs_pbrt_get_int(params, "yresolution", &h, ctx->err) ||
        rs_pbrt_get_string(params, "filename", &filename, ctx->err))
        return -1;
    if (w < 1 || h < 1 || w > RS_SCENE_MAX_RESOLUTION || h > RS_SCENE_MAX_RESOLUTION)
        return rs_pbrt_fail(params, ctx->err, "the resolution must be 1..%d on each side (got %ldx%ld)",
                            RS_SCENE_MAX_RESOLUTION, w, h);
    ctx->width = w;
    ctx->height = h;
    return 0; /* the file name is the command line's -o */
}

int rs_pbrt_sampler(RsPbrtContext* ctx, const char* type, RsPbrtParams* params)
{
    (void)type; /* raystream's own sampler (Sobol by default) estimates the same image */
    long spp = 16;
    if (rs_pbrt_get_int(params, "pixelsamples", &spp, ctx->err))
        return -1;
    if (spp < 1 || spp > RS_SCENE_MAX_SPP)
        return rs_pbrt_fail(params, ctx->err, "\"integer pixelsamples\": must be in [1, %d] (got %ld)",
                            RS_SCENE_MAX_SPP, spp);
    ctx->scene->render.spp = (uint32_t)spp;
    ctx->scene->render.min_spp = (uint32_t)spp < RS_DEFAULT_MIN_SPP ? (uint32_t)spp : RS_DEFAULT_MIN_SPP;
    return 0;
}

int rs_pbrt_integrator(RsPbrtContext* ctx, const char* type, RsPbrtParams* params)
{
    static const char* const same_image[] = {"path", "volpath", "bdpt", "mlt", "sppm", "simplepath",
                                             "simplevolpath", "lightpath", "randomwalk", NULL};
    int known = 0;
    for (int i = 0; same_image[i]; ++i)
        known |= strcmp(type, same_image[i]) == 0;
    if (!known)
        return rs_pbrt_fail(params, ctx->err, "not supported (its image is not a path tracer's)");
    if (strcmp(type, "path") != 0 && strcmp(type, "volpath") != 0)
        rs_scene_warn(ctx->scene, "%s: rendered with raystream's path tracer (an estimate of the same image)",
                      params->where);
    long depth = 5;
    if (rs_pbrt_get_int(params, "maxdepth", &depth, ctx->err))
        return -1;
    if (depth < 0 || depth > RS_SCENE_MAX_DEPTH)
        return rs_pbrt_fail(params, ctx->err, "\"integer maxdepth\": must be in [0, %d] (got %ld)", RS_SCENE_MAX_DEPTH,
                            depth);
    if (depth == 0) {
        rs_scene_warn(ctx->scene, "%s: maxdepth 0 (emitted light only) is rendered with depth 1 (direct light)",
                      params->where);
        depth = 1;
    }
    ctx->scene->render.max_depth = (uint32_t)depth;
    /* sampling strategies, not the image: raystream chooses its own */
    static const char* const strategy[] = {"lightsampler", "regularize", NULL};
    for (int i = 0; strategy[i]; ++i)
        rs_pbrt_param(params, strategy[i]);
    return 0;
}

int rs_pbrt_place_camera(RsPbrtContext* ctx, const char* where)
{
    RsScene* scene = ctx->scene;
    scene->render.width = (uint32_t)ctx->width;
    scene->render.height = (uint32_t)ctx->height;
    RsPbrtMatrix world_from_camera;
    if (rs_pbrt_invert(&ctx->camera_from_world, &world_from_camera))
        return rs_error_set(ctx->err, "%s: the camera transform is singular", where);
    /* keep handedness as it is where the camera already flips it; mirror x otherwise */
    ctx->mirror = rs_pbrt_det3(&world_from_camera) < 0.0 ? rs_pbrt_identity() : rs_pbrt_scale(-1.0, 1.0, 1.0);
    RsPbrtMatrix to_world = rs_pbrt_mul(&ctx->mirror, &world_from_camera);
    const double origin[3] = {0.0, 0.0, 0.0}, z[3] = {0.0, 0.0, 1.0}, y[3] = {0.0, 1.0, 0.0};
    double eye[3], dir[3], up[3];
    rs_pbrt_point(&to_world, origin, eye);
    rs_pbrt_vector(&to_world, z, dir);
    rs_pbrt_vector(&to_world, y, up);
    double dir_len = sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    double up_len = sqrt(up[0] * up[0] + up[1] * up[1] + up[2] * up[2]);
    if (!(dir_len > 0.0) || !(up_len > 0.0))
        return rs_error_set(ctx->err, "%s: the camera transform is degenerate", where);
    RsCameraDesc* c = &scene->camera;
    c->eye = rs_vec3((float)eye[0], (float)eye[1], (float)eye[2]);
    c->look_at = rs_vec3((float)(eye[0] + dir[0] / dir_len), (float)(eye[1] + dir[1] / dir_len),
                         (float)(eye[2] + dir[2] / dir_len));
    c->up = rs_vec3((float)(up[0] / up_len), (float)(up[1] / up_len), (float)(up[2] / up_len));
    /* the screen window: [-frame, frame] x [-1, 1] for a wide image, [-1, 1] x [-1/frame, 1/frame]
     * for a tall one; only a centred window of the image's aspect maps onto raystream's camera */
    double frame = ctx->frame_aspect > 0.0 ? ctx->frame_aspect : (double)ctx->width / (double)ctx->height;
    double half_height = frame >= 1.0 ? 1.0 : 1.0 / frame;
    if (ctx->has_screen_window) {
        const double* s = ctx->screen_window;
        if (fabs(s[0] + s[1]) > 1e-9 * (s[1] - s[0]) || fabs(s[2] + s[3]) > 1e-9 * (s[3] - s[2]))
            return rs_error_set(ctx->err, "%s: Camera: an off-centre screenwindow is not supported", where);
        half_height = 0.5 * (s[3] - s[2]);
        frame = (s[1] - s[0]) / (s[3] - s[2]);
    }
    if (fabs(frame - (double)ctx->width / (double)ctx->height) > 1e-3 * frame)
        rs_scene_warn(ctx->scene, "%s: Camera: the frame's aspect ratio %g differs from the image's %ldx%ld; pixels "
                                  "are square in raystream",
                      where, frame, ctx->width, ctx->height);
    if (strcmp(ctx->camera_type, "orthographic") == 0) {
        c->projection = RS_PROJECTION_ORTHOGRAPHIC;
        c->ortho_height = (float)(2.0 * half_height * up_len);
    } else {
        double half_angle = 0.5 * ctx->fov * (3.14159265358979323846 / 180.0);
        double fov_y = 2.0 * atan(tan(half_angle) * half_height) * (180.0 / 3.14159265358979323846);
        c->fov_degrees = half_height == 1.0 ? (float)ctx->fov : (float)fov_y;
        if (!(c->fov_degrees > 0.0f && c->fov_degrees < 180.0f))
            return rs_error_set(ctx->err, "%s: Camera: the vertical field of view %g is not in (0, 180)", where, fov_y);
    }
    if (ctx->lens_radius > 0.0) {
        c->aperture_radius = (float)ctx->lens_radius;
        c->focus_distance = (float)ctx->focal_distance;
    }
    return 0;
}
