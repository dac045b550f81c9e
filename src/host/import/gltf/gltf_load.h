/* gltf_load.h - loading a glTF 2.0 file (.gltf text or .glb binary) as the whole scene: its
 * meshes, materials, textures, cameras and KHR_lights_punctual lights (docs/import/gltf.md has
 * what is supported, approximated and refused).
 *
 * Host C11. The loader dispatcher (host/import/scene_loader.c) calls it for both glTF rows.
 */
#ifndef RS_HOST_GLTF_LOAD_H
#define RS_HOST_GLTF_LOAD_H

#include "host/scene/scene.h"
#include "host/util/file_list.h"

/* Loads and builds the scene of the glTF file at `path` with `accel` (NULL: the default);
 * `camera` picks the camera (in node order, see gltf_camera.c; -1: the first, or one framing
 * the scene when the file has none). Every file read is added to files_read (may be NULL). On
 * failure the scene is empty and err says why, naming the file and the JSON path. */
int rs_gltf_load(const char* path, const RsAccelOptions* accel, int32_t camera, RsScene* scene,
                 RsFileList* files_read, RsError* err);

#endif /* RS_HOST_GLTF_LOAD_H */
