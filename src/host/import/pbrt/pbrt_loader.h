/* pbrt_loader.h - raystream's reader of pbrt-v4 scenes (docs/import/pbrt.md has what is
 * supported, approximated and refused).
 *
 * Host C11. The loader of the "pbrt-v4 scene" row of scene_loader.c: it reads the scene file
 * and what it includes, maps each directive into the scene (through the same rs_scene_* calls
 * as the JSON reader; ObjectBegin/ObjectInstance through objects and instances), records a
 * warning (rs_scene_warn) for everything approximated or ignored, and fails with
 * "FILE:LINE: DIRECTIVE \"type\": problem" for what it cannot render honestly. On failure the
 * scene is empty.
 */
#ifndef RS_HOST_PBRT_LOADER_H
#define RS_HOST_PBRT_LOADER_H

#include "host/scene/scene.h"
#include "host/util/file_list.h"

int rs_pbrt_load(const char* path, const RsAccelOptions* accel, RsScene* scene, RsFileList* files_read, RsError* err);

#endif /* RS_HOST_PBRT_LOADER_H */
