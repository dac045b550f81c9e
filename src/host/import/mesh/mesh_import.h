/* mesh_import.h - triangle meshes from files (OBJ+MTL, PLY, glTF, ...) through assimp's C API.
 *
 * Host C11. Node transforms inside the file are applied (aiProcess_PreTransformVertices),
 * then the instance transform from the scene file. Without a material override, each material
 * of the file becomes a raystream material named "<file>#<name>": Kd -> diffuse albedo
 * (clamped to [0, 1]), Ke -> emission. Other MTL/glTF parameters are ignored for now.
 */
#ifndef RS_HOST_MESH_IMPORT_H
#define RS_HOST_MESH_IMPORT_H

#include "host/scene/scene.h"
#include "host/scene/transform.h"
#include "host/util/file_list.h"

/* `where` prefixes every message (e.g. "scene.json: shapes[2].file"). material_override < 0
 * means: use the file's materials. Every file read (the mesh, what assimp opened for it: MTL
 * files, glTF buffers; the images of its materials) is added to files_read (may be NULL). */
int rs_mesh_import(RsScene* scene, const char* path, const char* where, const RsTransform* xf,
                   int32_t material_override, RsFileList* files_read, RsError* err);

#endif /* RS_HOST_MESH_IMPORT_H */
