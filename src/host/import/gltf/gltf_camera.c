/* gltf_camera.c - the view: a glTF camera placed by a node, or one framing the scene (gltf_doc.h).
 * Host C11.
 *
 * Cameras are numbered in the order the scene's nodes are walked (gltf_node.c: depth first,
 * as the scene and `children` list them), one per node that places a camera; --camera N picks
 * number N, the first by default. Numbering placements rather than the `cameras` array means
 * every view the file has can be chosen, a camera placed by two nodes included, and none
 * that has no place. glTF cameras look down their node's -Z with +Y up. A perspective camera
 * keeps its vertical field of view (yfov) whatever the output's aspect ratio; its aspectRatio
 * only sets the default image size (640 pixels on the longer side; 640 x 480 without one), as
 * does an orthographic camera's xmag / ymag; the view is 2 ymag high. znear and zfar are not
 * used: raystream does not clip. Without a camera the scene's bounding sphere is framed from +Z
 * by a 40-degree view, as glTF viewers do.
 */
#include "host/import/gltf/gltf_doc.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "host/scene/settings.h"

#define GLTF_PI 3.14159265358979323846

static void default_size(RsScene* scene, double aspect)
{
    uint32_t w = 640, h = 480;
    if (aspect > 0.0) {
        double a = aspect < 1.0 / 64 ? 1.0 / 64 : aspect > 64.0 ? 64.0 : aspect;
        if (a >= 1.0) {
            w = 640;
            h = (uint32_t)fmax(1.0, floor(640.0 / a + 0.5));
        } else {
            h = 640;
            w = (uint32_t)fmax(1.0, floor(640.0 * a + 0.5));
        }
    }
    scene->render.width = w;
    scene->render.height = h;
}

/* eye, look_at and up from a node's world matrix (column-major). */
static int frame_from_matrix(RsGltf* g, const double* m, const char* where)
{
    double eye[3] = {m[12], m[13], m[14]};
    for (int k = 0; k < 3; ++k)
        if (!(fabs(eye[k]) <= RS_SCENE_MAX_MAGNITUDE))
            return rs_gltf_fail(g, where, "places the camera at [%g, %g, %g]: not a finite number within +-%g", eye[0],
                                eye[1], eye[2], RS_SCENE_MAX_MAGNITUDE);
    double fwd[3] = {-m[8], -m[9], -m[10]}, up[3] = {m[4], m[5], m[6]};
    double fl = sqrt(fwd[0] * fwd[0] + fwd[1] * fwd[1] + fwd[2] * fwd[2]);
    double ul = sqrt(up[0] * up[0] + up[1] * up[1] + up[2] * up[2]);
    if (!(fl >= RS_SCENE_MIN_LENGTH && ul >= RS_SCENE_MIN_LENGTH))
        return rs_gltf_fail(g, where, "the camera's node transform flattens its view (a zero scale)");
    double cross[3] = {fwd[1] * up[2] - fwd[2] * up[1], fwd[2] * up[0] - fwd[0] * up[2],
                       fwd[0] * up[1] - fwd[1] * up[0]};
    if (!(sqrt(cross[0] * cross[0] + cross[1] * cross[1] + cross[2] * cross[2]) / (fl * ul) >= 1e-6))
        return rs_gltf_fail(g, where, "the camera's node transform makes its up direction parallel to its view");
    double size = sqrt(eye[0] * eye[0] + eye[1] * eye[1] + eye[2] * eye[2]);
    double d = size * 1e-3 > 1.0 ? size * 1e-3 : 1.0; /* look_at must stay distinct from eye in float */
    RsCameraDesc* c = &g->scene->camera;
    c->eye = rs_vec3((float)eye[0], (float)eye[1], (float)eye[2]);
    c->look_at = rs_vec3((float)(eye[0] + fwd[0] / fl * d), (float)(eye[1] + fwd[1] / fl * d),
                         (float)(eye[2] + fwd[2] / fl * d));
    c->up = rs_vec3((float)(up[0] / ul), (float)(up[1] / ul), (float)(up[2] / ul));
    return 0;
}

static int frame_bounds(RsGltf* g)
{
    RsCameraDesc* c = &g->scene->camera;
    default_size(g->scene, 0.0);
    if (!g->has_bounds)
        return 0; /* nothing to see: rs_scene_build says the scene is empty */
    double centre[3] = {0.5 * ((double)g->bounds_lo.x + g->bounds_hi.x), 0.5 * ((double)g->bounds_lo.y + g->bounds_hi.y),
                        0.5 * ((double)g->bounds_lo.z + g->bounds_hi.z)};
    double dx = (double)g->bounds_hi.x - g->bounds_lo.x, dy = (double)g->bounds_hi.y - g->bounds_lo.y,
           dz = (double)g->bounds_hi.z - g->bounds_lo.z;
    double radius = 0.5 * sqrt(dx * dx + dy * dy + dz * dz);
    if (!(radius > 1e-9 * (fabs(centre[0]) + fabs(centre[1]) + fabs(centre[2]))) || !(radius > 0.0))
        radius = 1.0;
    double fov = 40.0, distance = radius / sin(0.5 * fov * GLTF_PI / 180.0);
    c->fov_degrees = (float)fov;
    c->look_at = rs_vec3((float)centre[0], (float)centre[1], (float)centre[2]);
    c->eye = rs_vec3((float)centre[0], (float)centre[1], (float)(centre[2] + distance));
    c->up = rs_vec3(0.0f, 1.0f, 0.0f);
    rs_gltf_warn(g, NULL, "the file has no camera: viewing the scene's bounding sphere from +Z with a 40-degree "
                 "field of view");
    return 0;
}

int rs_gltf_read_camera(RsGltf* g, int32_t choice)
{
    uint32_t count = (uint32_t)g->camera_nodes.count;
    if (choice >= 0 && (uint32_t)choice >= count) {
        if (count == 0)
            return rs_gltf_fail(g, NULL, "--camera %d: the scene has no cameras", choice);
        return rs_gltf_fail(g, NULL, "--camera %d: the scene has %u camera%s (numbered 0 to %u in node order)", choice,
                            count, count == 1 ? "" : "s", count - 1);
    }
    const cJSON* cameras = rs_gltf_member(g->root, "cameras");
    int camera_count = cJSON_IsArray(cameras) ? cJSON_GetArraySize(cameras) : 0;
    for (uint32_t i = 0; i < count; ++i) /* every placement names a camera that exists, chosen or not */
        if (g->camera_nodes.data[i].index >= camera_count) {
            char where[RS_GLTF_PATH_MAX];
            snprintf(where, sizeof where, "nodes[%d].camera", g->camera_nodes.data[i].node);
            return rs_gltf_fail(g, where, "names cameras[%d], but the file has %d", g->camera_nodes.data[i].index,
                                camera_count);
        }
    if (count == 0)
        return frame_bounds(g);
    const RsGltfPlacement* pl = &g->camera_nodes.data[choice < 0 ? 0 : choice];
    char where[RS_GLTF_PATH_MAX], path[RS_GLTF_PATH_MAX], sub[RS_GLTF_PATH_MAX];
    snprintf(where, sizeof where, "nodes[%d].camera", pl->node);
    const cJSON* cam = NULL;
    if (rs_gltf_item(g, "cameras", pl->index, where, &cam))
        return -1;
    rs_gltf_join_index(path, "cameras", pl->index);
    const char* type = NULL;
    if (rs_gltf_get_string(g, cam, path, "type", NULL, &type))
        return -1;
    if (!type)
        return rs_gltf_fail(g, path, "missing required key 'type'");
    RsCameraDesc* c = &g->scene->camera;
    if (strcmp(type, "perspective") == 0) {
        const cJSON* p = rs_gltf_member(cam, "perspective");
        rs_gltf_join_key(sub, path, "perspective");
        if (!cJSON_IsObject(p))
            return rs_gltf_fail(g, sub, "must be an object");
        if (!rs_gltf_member(p, "yfov"))
            return rs_gltf_fail(g, sub, "missing required key 'yfov'");
        double yfov = 0.0, aspect = 0.0;
        if (rs_gltf_get_number(g, p, sub, "yfov", 0.0, &yfov) ||
            rs_gltf_get_number(g, p, sub, "aspectRatio", 0.0, &aspect))
            return -1;
        double degrees = yfov * 180.0 / GLTF_PI;
        if (!(degrees > 0.0 && degrees < 180.0))
            return rs_gltf_fail(g, sub, "yfov must be in (0, pi) radians (got %g)", yfov);
        if (aspect < 0.0)
            return rs_gltf_fail(g, sub, "aspectRatio must be > 0 (got %g)", aspect);
        c->fov_degrees = (float)degrees;
        c->projection = RS_PROJECTION_PERSPECTIVE;
        default_size(g->scene, aspect);
    } else if (strcmp(type, "orthographic") == 0) {
        const cJSON* o = rs_gltf_member(cam, "orthographic");
        rs_gltf_join_key(sub, path, "orthographic");
        if (!cJSON_IsObject(o))
            return rs_gltf_fail(g, sub, "must be an object");
        double xmag = 0.0, ymag = 0.0;
        if (rs_gltf_get_number(g, o, sub, "xmag", 0.0, &xmag) || rs_gltf_get_number(g, o, sub, "ymag", 0.0, &ymag))
            return -1;
        if (!(fabs(ymag) >= RS_SCENE_MIN_LENGTH) || !(fabs(xmag) >= RS_SCENE_MIN_LENGTH))
            return rs_gltf_fail(g, sub, "xmag and ymag must not be zero (got %g, %g)", xmag, ymag);
        c->projection = RS_PROJECTION_ORTHOGRAPHIC;
        c->ortho_height = (float)(2.0 * fabs(ymag));
        default_size(g->scene, fabs(xmag / ymag));
    } else {
        rs_gltf_join_key(sub, path, "type");
        return rs_gltf_fail(g, sub, "must be \"perspective\" or \"orthographic\" (got \"%s\")", type);
    }
    snprintf(where, sizeof where, "nodes[%d]", pl->node);
    return frame_from_matrix(g, pl->world, where);
}
