/* json_light.c - reading point, spot and directional lights of a JSON scene (see json_light.h).
 * Host C11.
 *
 * Follows pbrt-v4's lights: `intensity` is radiant intensity in W/sr per channel (a point light
 * 1 unit above a white diffuse floor makes it reflect intensity / pi there); a spot light's
 * `cone_angle` is where its light ends and `cone_delta_angle` the width of the smooth falloff
 * inside it, both in degrees from the axis, which points from `position` to `look_at`. A
 * directional light (pbrt-v4's distant light) travels along `direction` with `irradiance` in
 * W/m^2 on a surface facing it.
 */
#include "host/import/json/json_light.h"

#include <math.h>
#include <string.h>

#include "host/scene/settings.h"

static int check_angle(const RsJsonReader* r, const char* path, const char* key, double v, double lo, double hi,
                       int lo_open)
{
    if ((lo_open ? v > lo : v >= lo) && v <= hi)
        return 0;
    char where[RS_PATH_MAX];
    rs_json_join_key(where, path, key);
    return rs_json_fail(r, where, "must be in %s%g, %g] degrees (got %g)", lo_open ? "(" : "[", lo, hi, v);
}

int rs_json_read_light(const RsJsonReader* r, const cJSON* node, const char* path)
{
    if (rs_json_expect_object(r, node, path))
        return -1;
    const char* type = NULL;
    if (rs_json_get_string(r, node, path, "type", 1, &type))
        return -1;
    RsVec3 position = rs_vec3_splat(0.0f), intensity = rs_vec3_splat(0.0f);
    if (strcmp(type, "point") == 0) {
        static const char* const keys[] = {"type", "position", "intensity", NULL};
        if (rs_json_check_keys(r, node, path, keys) || rs_json_get_vec3(r, node, path, "position", 1, &position) ||
            rs_json_get_vec3(r, node, path, "intensity", 1, &intensity) ||
            rs_json_check_colour_range(r, path, "intensity", intensity, INFINITY))
            return -1;
        return rs_scene_add_point_light(r->scene, position, intensity, r->err);
    }
    if (strcmp(type, "spot") == 0) {
        static const char* const keys[] = {"type", "position", "look_at", "intensity", "cone_angle",
                                           "cone_delta_angle", NULL};
        RsVec3 look_at = rs_vec3_splat(0.0f);
        double cone = 30.0, delta = 5.0;
        if (rs_json_check_keys(r, node, path, keys) || rs_json_get_vec3(r, node, path, "position", 1, &position) ||
            rs_json_get_vec3(r, node, path, "look_at", 1, &look_at) ||
            rs_json_get_vec3(r, node, path, "intensity", 1, &intensity) ||
            rs_json_check_colour_range(r, path, "intensity", intensity, INFINITY) ||
            rs_json_get_number(r, node, path, "cone_angle", 0, &cone) ||
            rs_json_get_number(r, node, path, "cone_delta_angle", 0, &delta) ||
            check_angle(r, path, "cone_angle", cone, 0.0, 90.0, 1) ||
            check_angle(r, path, "cone_delta_angle", delta, 0.0, cone, 0))
            return -1;
        /* the axis in double, as the camera's frame is checked (scene_json.c) */
        double ax = (double)look_at.x - position.x, ay = (double)look_at.y - position.y,
               az = (double)look_at.z - position.z;
        double length = sqrt(ax * ax + ay * ay + az * az);
        if (!(length >= RS_SCENE_MIN_LENGTH)) {
            char where[RS_PATH_MAX];
            rs_json_join_key(where, path, "look_at");
            return rs_json_fail(r, where, "must be at least %g from position (got %g)", RS_SCENE_MIN_LENGTH, length);
        }
        RsVec3 axis = rs_vec3((float)(ax / length), (float)(ay / length), (float)(az / length));
        return rs_scene_add_spot_light(r->scene, position, axis, intensity, (float)cone, (float)delta, r->err);
    }
    if (strcmp(type, "directional") == 0) {
        static const char* const keys[] = {"type", "direction", "irradiance", NULL};
        RsVec3 direction = rs_vec3_splat(0.0f), irradiance = rs_vec3_splat(0.0f);
        if (rs_json_check_keys(r, node, path, keys) || rs_json_get_vec3(r, node, path, "direction", 1, &direction) ||
            rs_json_get_vec3(r, node, path, "irradiance", 1, &irradiance) ||
            rs_json_check_colour_range(r, path, "irradiance", irradiance, INFINITY))
            return -1;
        double length = sqrt((double)direction.x * direction.x + (double)direction.y * direction.y +
                             (double)direction.z * direction.z);
        if (!(length >= RS_SCENE_MIN_LENGTH)) {
            char where[RS_PATH_MAX];
            rs_json_join_key(where, path, "direction");
            return rs_json_fail(r, where, "must have a length of at least %g (got %g)", RS_SCENE_MIN_LENGTH, length);
        }
        RsVec3 unit = rs_vec3((float)(direction.x / length), (float)(direction.y / length),
                              (float)(direction.z / length));
        return rs_scene_add_directional_light(r->scene, unit, irradiance, r->err);
    }
    char where[RS_PATH_MAX];
    rs_json_join_key(where, path, "type");
    return rs_json_fail(r, where, "must be \"point\", \"spot\" or \"directional\" (got \"%s\")", type);
}
