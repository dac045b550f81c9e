/* mitsuba_loader.h - Mitsuba 3 XML scenes (docs/import/mitsuba.md lists what is read, what is
 * approximated and what is refused). Host C11.
 *
 * The scene's sensor becomes the camera, its film the image size, its sampler the samples per
 * pixel and its integrator the depth; shapes, BSDFs, emitters and textures become raystream's
 * (mts_internal.h names the file for each). Approximations are warnings on the scene
 * (rs_scene_warn), anything raystream cannot render honestly an error naming file:line and the
 * plugin.
 */
#ifndef RS_HOST_MITSUBA_LOADER_H
#define RS_HOST_MITSUBA_LOADER_H

#include "host/scene/scene.h"
#include "host/util/file_list.h"

/* Loads and builds the scene at `path` with accel (NULL: the default), as scene_loader.h's
 * loaders do; camera: -1 or 0 (a Mitsuba scene's camera is its first sensor). */
int rs_mitsuba_load(const char* path, const RsAccelOptions* accel, int32_t camera, RsScene* scene,
                    RsFileList* files_read, RsError* err);

#endif /* RS_HOST_MITSUBA_LOADER_H */
