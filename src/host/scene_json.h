/* scene_json.h - loading a scene from a JSON file (format v1, see scenes/README.md).
 *
 * Host C11. On success the scene is built (BVH and light table) and ready to render; on
 * failure *err names the file, the position or JSON path, and the problem, and the scene holds
 * nothing.
 */
#ifndef RS_HOST_SCENE_JSON_H
#define RS_HOST_SCENE_JSON_H

#include "scene.h"

#define RS_SCENE_MAX_RESOLUTION 16384
#define RS_SCENE_MAX_DEPTH 1024
#define RS_SCENE_MAX_SPP 1048576

/* Loads and builds the scene at `path`; `accel` chooses the acceleration structure (NULL: the
 * default). On failure the scene is left empty and err says why, naming the file. */
int rs_scene_load_json(const char* path, const RsAccelOptions* accel, RsScene* scene, RsError* err);

/* "path" / "whitted" <-> RS_INTEGRATOR_*; parse returns -1 for an unknown name. */
int rs_integrator_parse(const char* name, uint32_t* out);
const char* rs_integrator_name(uint32_t integrator);

#endif /* RS_HOST_SCENE_JSON_H */
