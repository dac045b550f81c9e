/* scene_json.h - loading a scene from a JSON file (format v1, see scenes/README.md).
 *
 * Host C11. On success the scene is built (BVH and light table) and ready to render; on
 * failure *err names the file, the position or JSON path, and the problem, and the scene holds
 * nothing.
 */
#ifndef RS_HOST_SCENE_JSON_H
#define RS_HOST_SCENE_JSON_H

#include "host/scene/scene.h"
#include "host/scene/settings.h" /* the limits; its users found them here before */
#include "host/util/file_list.h"

/* A scene file is JSON text; a larger file is refused before it is read (a path that names
 * /dev/zero or a FIFO is refused too: scene and mesh files must be regular files). */
#define RS_SCENE_MAX_BYTES (512ull << 20)

/* Loads and builds the scene at `path`; `accel` chooses the acceleration structure (NULL: the
 * default). Every file read (the scene, its meshes and what they name, textures, the
 * environment map) is added to files_read (may be NULL) as it was opened. On failure the scene
 * is left empty and err says why, naming the file. Programs go through rs_scene_load
 * (host/import/scene_loader.h), which picks this loader for a raystream JSON scene. */
int rs_scene_json_load(const char* path, const RsAccelOptions* accel, RsScene* scene, RsFileList* files_read,
                       RsError* err);

/* rs_scene_json_load without the list of files: for tests and the fuzzer, which read JSON only. */
int rs_scene_load_json(const char* path, const RsAccelOptions* accel, RsScene* scene, RsError* err);

#endif /* RS_HOST_SCENE_JSON_H */
