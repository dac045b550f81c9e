/* scene_loader.h - the one way into raystream for a scene file, whatever its format: every
 * command (render, view, info, bench) loads through rs_scene_load.
 *
 * Host C11. The format is told by the file's content first (its first bytes), its name's
 * extension second (scene_loader.c has the table of formats and how each is recognised). A
 * format that raystream recognises but cannot read yet is refused naming the file and the
 * format; a file of no known format is refused listing the formats raystream reads.
 *
 * Importers: json/ (raystream's own), mitsuba/ (Mitsuba 3 XML), pbrt/ (pbrt-v4), gltf/ (glTF 2.0).
 * Adding one: put it in a folder of its own under src/host/import/, give it a loader with
 * RsSceneLoadFn's signature
 * that fills the scene, builds it (rs_scene_build) and adds every file it opens to files_read,
 * and name that loader in its row of the table in scene_loader.c. Nothing else changes: the
 * commands, the error messages and the list of formats follow the table.
 */
#ifndef RS_HOST_SCENE_LOADER_H
#define RS_HOST_SCENE_LOADER_H

#include "host/scene/scene.h"
#include "host/util/file_list.h"

/* What the command line asks of every loader. */
typedef struct RsSceneLoadOptions {
    const RsAccelOptions* accel; /* NULL: the default acceleration structure */
    int32_t camera;              /* which of the file's cameras (glTF: --camera N); -1: the format's default */
} RsSceneLoadOptions;

/* A loader of one format: loads and builds the scene at `path` with options->accel, adds
 * every file it read to files_read (may be NULL), and on failure leaves the scene empty with
 * err naming the file. */
typedef int (*RsSceneLoadFn)(const char* path, const RsSceneLoadOptions* options, RsScene* scene,
                             RsFileList* files_read, RsError* err);

/* Recognises the format of `path` and loads it with that format's loader. files_read (may be
 * NULL) gets every file the load read, as it was opened: the scene file, then meshes, MTL
 * files, glTF buffers, textures and environment maps (paths named in a scene are relative to
 * its folder). On failure the scene is empty, err says why naming the file, and files_read
 * holds what had been read before the failure. */
int rs_scene_load(const char* path, const RsAccelOptions* accel, RsScene* scene, RsFileList* files_read,
                  RsError* err);
/* rs_scene_load with every option (options NULL: the defaults). */
int rs_scene_load_with(const char* path, const RsSceneLoadOptions* options, RsScene* scene, RsFileList* files_read,
                       RsError* err);

#endif /* RS_HOST_SCENE_LOADER_H */
