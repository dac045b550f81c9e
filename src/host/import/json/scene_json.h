/* scene_json.h - loading a scene from a JSON file (format v1, see scenes/README.md).
 *
 * Host C11. On success the scene is built (BVH and light table) and ready to render; on
 * failure *err names the file, the position or JSON path, and the problem, and the scene holds
 * nothing.
 */
#ifndef RS_HOST_SCENE_JSON_H
#define RS_HOST_SCENE_JSON_H

#include "host/scene/scene.h"

#define RS_SCENE_MAX_RESOLUTION 16384
#define RS_SCENE_MAX_DEPTH 1024
#define RS_SCENE_MAX_SPP 1048576

/* Every number of a scene lies within +-RS_SCENE_MAX_MAGNITUDE. Positions, lengths and
 * radiances are stored as 32-bit floats, and the renderer squares and multiplies them (ray-
 * sphere tests, cross products, light power): with |x| <= 1e18 those products stay finite,
 * where a number like 1e39 or 1e308 would become infinity and an object would vanish or the
 * image turn black. Lengths that must be positive (radius, scale) are at least
 * RS_SCENE_MIN_LENGTH, so that their squares are not zero. */
#define RS_SCENE_MAX_MAGNITUDE 1e18
#define RS_SCENE_MIN_LENGTH 1e-18
/* Index of refraction: a real material's lies well inside. */
#define RS_SCENE_MIN_IOR 0.01
#define RS_SCENE_MAX_IOR 100.0
/* A scene file is JSON text; a larger file is refused before it is read (a path that names
 * /dev/zero or a FIFO is refused too: scene and mesh files must be regular files). */
#define RS_SCENE_MAX_BYTES (512ull << 20)

/* Loads and builds the scene at `path`; `accel` chooses the acceleration structure (NULL: the
 * default). On failure the scene is left empty and err says why, naming the file. */
int rs_scene_load_json(const char* path, const RsAccelOptions* accel, RsScene* scene, RsError* err);

/* "path" / "whitted" <-> RS_INTEGRATOR_*; parse returns -1 for an unknown name. */
int rs_integrator_parse(const char* name, uint32_t* out);
const char* rs_integrator_name(uint32_t integrator);

#endif /* RS_HOST_SCENE_JSON_H */
