/* gltf_light.c - KHR_lights_punctual: point, spot and directional lights placed by nodes
 * (gltf_doc.h). Host C11.
 *
 * Units, as glTF viewers show them: the Khronos sample viewer and three.js multiply a light's
 * colour by its intensity and use the product as the light's radiometric value, without a
 * luminous-efficacy factor. raystream does the same, so a glTF renders as bright as it does in
 * those viewers and as its emissive materials (whose emissiveFactor is displayed as is):
 *   point, spot   radiant intensity (W/sr)   = intensity (cd)  x colour
 *   directional   irradiance (W/m^2)         = intensity (lux) x colour
 * (Blender's importer instead divides by 683 lm/W and leaves the rest to exposure; multiply by
 * 1/683 to compare with it.) A spot light shines down its node's -Z: full up to innerConeAngle,
 * none beyond outerConeAngle (raystream's cone = outer, delta = outer - inner; its falloff in
 * between follows raystream's spot light, not glTF's suggested curve). `range` is ignored with
 * a warning: raystream's lights fall off with the square of distance only.
 */
#include "host/import/gltf/gltf_doc.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "host/scene/settings.h"

#define GLTF_PI 3.14159265358979323846

static int read_light(RsGltf* g, const cJSON* light, const char* path, const RsGltfPlacement* pl)
{
    const char* type = NULL;
    double colour[3] = {1, 1, 1}, intensity = 1.0;
    char where[RS_GLTF_PATH_MAX];
    if (rs_gltf_get_string(g, light, path, "type", NULL, &type) ||
        rs_gltf_get_numbers(g, light, path, "color", 3, colour) ||
        rs_gltf_get_number(g, light, path, "intensity", 1.0, &intensity))
        return -1;
    if (!type)
        return rs_gltf_fail(g, path, "missing required key 'type'");
    for (int k = 0; k < 3; ++k)
        if (colour[k] < 0.0) {
            rs_gltf_join_key(where, path, "color");
            return rs_gltf_fail(g, where, "must not be negative");
        }
    if (intensity < 0.0) {
        rs_gltf_join_key(where, path, "intensity");
        return rs_gltf_fail(g, where, "must not be negative (got %g)", intensity);
    }
    if (rs_gltf_member(light, "range"))
        rs_gltf_warn(g, path, "range ignored: the light falls off with the square of distance only");
    RsVec3 value = rs_vec3((float)(intensity * colour[0]), (float)(intensity * colour[1]),
                           (float)(intensity * colour[2]));
    const double* m = pl->world;
    if (!(fabs(m[12]) <= RS_SCENE_MAX_MAGNITUDE && fabs(m[13]) <= RS_SCENE_MAX_MAGNITUDE &&
          fabs(m[14]) <= RS_SCENE_MAX_MAGNITUDE)) {
        snprintf(where, sizeof where, "nodes[%d]", pl->node);
        return rs_gltf_fail(g, where, "places %s at [%g, %g, %g]: not a finite number within +-%g", path, m[12], m[13],
                            m[14], RS_SCENE_MAX_MAGNITUDE);
    }
    for (int k = 0; k < 3; ++k)
        if (!(colour[k] * intensity <= RS_SCENE_MAX_MAGNITUDE))
            return rs_gltf_fail(g, path, "intensity x color is beyond %g", RS_SCENE_MAX_MAGNITUDE);
    RsVec3 position = rs_vec3((float)m[12], (float)m[13], (float)m[14]);
    double axis[3] = {-m[8], -m[9], -m[10]};
    double length = sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
    RsVec3 direction = rs_vec3(0.0f, 0.0f, -1.0f);
    if (strcmp(type, "point") != 0) {
        if (!(length >= RS_SCENE_MIN_LENGTH)) {
            snprintf(where, sizeof where, "nodes[%d]", pl->node);
            return rs_gltf_fail(g, where, "the transform of %s's node flattens its direction (a zero scale)", path);
        }
        direction = rs_vec3((float)(axis[0] / length), (float)(axis[1] / length), (float)(axis[2] / length));
    }
    int status;
    if (strcmp(type, "point") == 0) {
        status = rs_scene_add_point_light(g->scene, position, value, g->err);
    } else if (strcmp(type, "spot") == 0) {
        const cJSON* spot = rs_gltf_member(light, "spot");
        double inner = 0.0, outer = GLTF_PI / 4.0;
        rs_gltf_join_key(where, path, "spot");
        if (spot && !cJSON_IsObject(spot))
            return rs_gltf_fail(g, where, "must be an object");
        if (rs_gltf_get_number(g, spot, where, "innerConeAngle", 0.0, &inner) ||
            rs_gltf_get_number(g, spot, where, "outerConeAngle", GLTF_PI / 4.0, &outer))
            return -1;
        /* glTF asks inner < outer; equal angles (a hard edge) are read as such */
        if (!(outer > 0.0 && outer <= GLTF_PI / 2.0 + 1e-6 && inner >= 0.0 && inner <= outer))
            return rs_gltf_fail(g, where, "needs 0 <= innerConeAngle < outerConeAngle <= pi/2 (got %g, %g)", inner,
                                outer);
        double cone = outer * 180.0 / GLTF_PI, delta = (outer - inner) * 180.0 / GLTF_PI;
        if (cone > 90.0)
            cone = 90.0;
        if (delta > cone)
            delta = cone;
        status = rs_scene_add_spot_light(g->scene, position, direction, value, (float)cone, (float)delta, g->err);
    } else if (strcmp(type, "directional") == 0) {
        status = rs_scene_add_directional_light(g->scene, direction, value, g->err);
    } else {
        rs_gltf_join_key(where, path, "type");
        return rs_gltf_fail(g, where, "must be \"point\", \"spot\" or \"directional\" (got \"%s\")", type);
    }
    if (status) {
        /* the scene's message (e.g. a kind of light this build cannot render yet) with the light's place */
        char message[sizeof g->err->message];
        const char* text = g->err->message;
        size_t n = strlen(g->path);
        if (strncmp(text, g->path, n) == 0 && strncmp(text + n, ": ", 2) == 0)
            text += n + 2; /* the scene's own "FILE: " */
        snprintf(message, sizeof message, "%s", text);
        rs_error_clear(g->err);
        return rs_gltf_fail(g, path, "%s", message);
    }
    ++g->lights;
    return 0;
}

int rs_gltf_read_lights(RsGltf* g)
{
    const cJSON* ext = rs_gltf_extension(g->root, "KHR_lights_punctual");
    const cJSON* lights = NULL;
    int count = 0;
    if (ext && rs_gltf_array(g, ext, "extensions.KHR_lights_punctual", "lights", &lights, &count))
        return -1;
    for (size_t i = 0; i < g->light_nodes.count; ++i) {
        const RsGltfPlacement* pl = &g->light_nodes.data[i];
        char path[RS_GLTF_PATH_MAX], where[RS_GLTF_PATH_MAX];
        snprintf(where, sizeof where, "nodes[%d].extensions.KHR_lights_punctual.light", pl->node);
        if (pl->index >= count)
            return rs_gltf_fail(g, where, "names light %d, but the file has %d", pl->index, count);
        const cJSON* light = cJSON_GetArrayItem(lights, pl->index);
        snprintf(path, sizeof path, "extensions.KHR_lights_punctual.lights[%d]", pl->index);
        if (!cJSON_IsObject(light))
            return rs_gltf_fail(g, path, "must be an object");
        if (read_light(g, light, path, pl))
            return -1;
    }
    return 0;
}
