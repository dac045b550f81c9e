/* mesh_import.c - assimp C API to scene triangles (see mesh_import.h). Host C11. */
#include "mesh_import.h"

#include <assimp/cimport.h>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static float clamp01(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x); }

/* The raystream material for the file's material `index`, created on first use. */
static int32_t file_material(RsScene* scene, const char* path, const struct aiScene* ai, unsigned index,
                             RsError* err)
{
    const struct aiMaterial* m = index < ai->mNumMaterials ? ai->mMaterials[index] : NULL;
    struct aiString ai_name;
    const char* name = "default";
    if (m && aiGetMaterialString(m, AI_MATKEY_NAME, &ai_name) == aiReturn_SUCCESS && ai_name.length > 0)
        name = ai_name.data;
    char full[1024];
    snprintf(full, sizeof full, "%s#%s", path, name);
    int32_t existing = rs_scene_find_material(scene, full);
    if (existing >= 0)
        return existing;
    struct aiColor4D kd = {0.5f, 0.5f, 0.5f, 1.0f}, ke = {0.0f, 0.0f, 0.0f, 1.0f};
    if (m) {
        aiGetMaterialColor(m, AI_MATKEY_COLOR_DIFFUSE, &kd);
        aiGetMaterialColor(m, AI_MATKEY_COLOR_EMISSIVE, &ke);
    }
    RsVec3 albedo = rs_vec3(clamp01(kd.r), clamp01(kd.g), clamp01(kd.b));
    RsVec3 emission = rs_vec3(ke.r > 0.0f ? ke.r : 0.0f, ke.g > 0.0f ? ke.g : 0.0f, ke.b > 0.0f ? ke.b : 0.0f);
    return rs_scene_add_material(scene, full, rs_material_make(RS_MAT_DIFFUSE, albedo, emission, 1.0f, 0), err);
}

int rs_mesh_import(RsScene* scene, const char* path, const char* where, const RsTransform* xf,
                   int32_t material_override, RsError* err)
{
    FILE* probe = fopen(path, "rb");
    if (!probe)
        return rs_error_set(err, "%s: cannot read '%s': %s", where, path, strerror(errno));
    fclose(probe);

    const struct aiScene* ai = aiImportFile(path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
                                                      aiProcess_PreTransformVertices);
    if (!ai)
        return rs_error_set(err, "%s: cannot import '%s': %s", where, path, aiGetErrorString());
    size_t before = scene->prims.count;
    int status = 0;
    for (unsigned mi = 0; mi < ai->mNumMeshes && status == 0; ++mi) {
        const struct aiMesh* mesh = ai->mMeshes[mi];
        if (!(mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE))
            continue;
        int32_t material = material_override >= 0 ? material_override
                                                  : file_material(scene, path, ai, mesh->mMaterialIndex, err);
        if (material < 0) {
            status = -1;
            break;
        }
        for (unsigned f = 0; f < mesh->mNumFaces && status == 0; ++f) {
            const struct aiFace* face = &mesh->mFaces[f];
            if (face->mNumIndices != 3)
                continue; /* points and lines left over from triangulation */
            RsVec3 v[3];
            for (int k = 0; k < 3; ++k) {
                const struct aiVector3D* p = &mesh->mVertices[face->mIndices[k]];
                v[k] = rs_transform_point(xf, rs_vec3(p->x, p->y, p->z));
                if (!isfinite(v[k].x) || !isfinite(v[k].y) || !isfinite(v[k].z)) {
                    aiReleaseImport(ai);
                    return rs_error_set(err, "%s: '%s' has a vertex that is not a finite number (mesh %u, face %u)",
                                        where, path, mi, f);
                }
            }
            status = rs_scene_add_triangle(scene, v[0], v[1], v[2], (uint32_t)material, err);
        }
    }
    aiReleaseImport(ai);
    if (status)
        return -1;
    if (scene->prims.count == before)
        return rs_error_set(err, "%s: '%s' contains no triangles with any area", where, path);
    return 0;
}
