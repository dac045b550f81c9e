/* json_camera.c - the scene file's "camera" object (scenes/README.md, camera): its frame,
 * projection, field of view or orthographic height, lens and resolution. Host C11.
 */
#define _POSIX_C_SOURCE 200809L
#include "host/import/json/json_camera.h"

#include <cJSON.h>
#include <math.h>
#include <string.h>

#include "host/scene/settings.h"

/* The camera's frame must exist: eye and look_at apart by a distance whose square is a normal
 * float, up neither zero nor along the view. Tested in double on the stored floats, so that the
 * test itself cannot overflow or underflow; up is then stored normalized, since a tiny up
 * (1e-30) would underflow when the camera squares it in float. */
static int check_camera_frame(const RsJsonReader* r, RsCameraDesc* c)
{
    double view[3] = {(double)c->look_at.x - c->eye.x, (double)c->look_at.y - c->eye.y,
                      (double)c->look_at.z - c->eye.z};
    double up[3] = {c->up.x, c->up.y, c->up.z};
    double view_len = sqrt(view[0] * view[0] + view[1] * view[1] + view[2] * view[2]);
    double up_len = sqrt(up[0] * up[0] + up[1] * up[1] + up[2] * up[2]);
    if (view_len == 0.0)
        return rs_json_fail(r, "camera.look_at", "must differ from camera.eye");
    if (view_len < RS_SCENE_MIN_LENGTH)
        return rs_json_fail(r, "camera.look_at", "is only %g away from camera.eye; it must be at least %g away", view_len,
                    RS_SCENE_MIN_LENGTH);
    if (!(view_len <= RS_SCENE_MAX_MAGNITUDE))
        return rs_json_fail(r, "camera.look_at", "is %g away from camera.eye; the view direction must be shorter than %g",
                    view_len, RS_SCENE_MAX_MAGNITUDE);
    if (up_len == 0.0)
        return rs_json_fail(r, "camera.up", "must not be the zero vector");
    double cross[3] = {view[1] * up[2] - view[2] * up[1], view[2] * up[0] - view[0] * up[2],
                       view[0] * up[1] - view[1] * up[0]};
    double sine = sqrt(cross[0] * cross[0] + cross[1] * cross[1] + cross[2] * cross[2]) / (view_len * up_len);
    if (!(sine >= 1e-6))
        return rs_json_fail(r, "camera.up", "must not be parallel to the viewing direction");
    c->up = rs_vec3((float)(up[0] / up_len), (float)(up[1] / up_len), (float)(up[2] / up_len));
    return 0;
}

/* ---- sections ---- */

int rs_json_read_camera(const RsJsonReader* r, const cJSON* cam)
{
    static const char* const keys[] = {"eye", "look_at", "up", "fov", "resolution", "aperture_radius",
                                       "focus_distance", "projection", "ortho_height", NULL};
    const char* path = "camera";
    RsCameraDesc* c = &r->scene->camera;
    RsRenderDesc* rd = &r->scene->render;
    if (rs_json_expect_object(r, cam, path) || rs_json_check_keys(r, cam, path, keys))
        return -1;
    double fov = c->fov_degrees, aperture = 0.0, focus = 0.0;
    if (rs_json_get_vec3(r, cam, path, "eye", 1, &c->eye) || rs_json_get_vec3(r, cam, path, "look_at", 1, &c->look_at) ||
        rs_json_get_vec3(r, cam, path, "up", 0, &c->up) || rs_json_get_number(r, cam, path, "fov", 0, &fov) ||
        rs_json_get_number(r, cam, path, "aperture_radius", 0, &aperture) ||
        rs_json_get_number(r, cam, path, "focus_distance", 0, &focus))
        return -1;
    if (!(fov > 0.0 && fov < 180.0))
        return rs_json_fail(r, "camera.fov", "must be in (0, 180) degrees (got %g)", fov);
    if (aperture < 0.0)
        return rs_json_fail(r, "camera.aperture_radius", "must be >= 0 (got %g)", aperture);
    if (focus < 0.0)
        return rs_json_fail(r, "camera.focus_distance", "must be >= 0 (got %g; 0 means the distance to look_at)", focus);
    if (check_camera_frame(r, c))
        return -1;
    /* an orthographic view has a height instead of an angle: the other key is a mistake */
    const char* projection = "perspective";
    double ortho_height = 0.0;
    if (rs_json_get_string(r, cam, path, "projection", 0, &projection) ||
        rs_json_get_number(r, cam, path, "ortho_height", 0, &ortho_height))
        return -1;
    int ortho = strcmp(projection, "orthographic") == 0;
    if (!ortho && strcmp(projection, "perspective") != 0)
        return rs_json_fail(r, "camera.projection", "must be \"perspective\" or \"orthographic\" (got \"%s\")",
                            projection);
    int has_height = cJSON_GetObjectItemCaseSensitive(cam, "ortho_height") != NULL;
    if (ortho && !has_height)
        return rs_json_fail(r, "camera", "missing required key 'ortho_height' (an orthographic camera's view height)");
    if (!ortho && has_height)
        return rs_json_fail(r, "camera.ortho_height", "only an orthographic camera has one (projection is perspective)");
    if (ortho && cJSON_GetObjectItemCaseSensitive(cam, "fov"))
        return rs_json_fail(r, "camera.fov", "an orthographic camera has no field of view (give ortho_height)");
    if (ortho && rs_json_check_length(r, path, "ortho_height", ortho_height))
        return -1;
    c->projection = ortho ? RS_PROJECTION_ORTHOGRAPHIC : RS_PROJECTION_PERSPECTIVE;
    c->ortho_height = (float)ortho_height;
    c->fov_degrees = (float)fov;
    c->aperture_radius = (float)aperture;
    c->focus_distance = (float)focus;

    const cJSON* res = cJSON_GetObjectItemCaseSensitive(cam, "resolution");
    if (res) {
        if (!cJSON_IsArray(res) || cJSON_GetArraySize(res) != 2)
            return rs_json_fail(r, "camera.resolution", "must be an array [width, height]");
        const cJSON* wh[2] = {cJSON_GetArrayItem(res, 0), cJSON_GetArrayItem(res, 1)};
        uint32_t v[2];
        for (int i = 0; i < 2; ++i) {
            char where[RS_PATH_MAX];
            rs_json_join_index(where, "camera.resolution", i);
            double d = 0.0;
            if (rs_json_read_number(r, wh[i], where, &d))
                return -1;
            if (d != floor(d) || d < 1.0 || d > RS_SCENE_MAX_RESOLUTION)
                return rs_json_fail(r, where, "must be an integer in [1, %d] (got %g)", RS_SCENE_MAX_RESOLUTION, d);
            v[i] = (uint32_t)d;
        }
        rd->width = v[0];
        rd->height = v[1];
    }
    return 0;
}

