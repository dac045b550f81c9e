/* mesh_child.c - the import child's side: assimp reads the mesh file through an IO system that
 * opens regular files only, and the result goes out as records (mesh_stream.h). Host C11
 * (POSIX); runs only in the child process mesh_import.c forks, so an assimp crash or hang
 * costs the child, never raystream.
 *
 * The IO system refuses anything but a regular file, so a FIFO or a device named inside a mesh
 * (mtllib, a glTF buffer) is skipped or reported, never waited on; every file it does open is
 * reported in an 'F' record, so that the parent can list every file the scene read.
 */
#define _POSIX_C_SOURCE 200809L
#include <assimp/cimport.h>
#include <assimp/ObjMaterial.h>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <assimp/cfileio.h>

#include "host/import/mesh/mesh_stream.h"
#include "host/io/safe_file.h"

static void put(FILE* out, const void* data, size_t size) { fwrite(data, 1, size, out); }

static void put_u32(FILE* out, uint32_t v) { put(out, &v, sizeof v); }

static void send_error(FILE* out, const char* text)
{
    uint32_t n = (uint32_t)strlen(text);
    put(out, "X", 1);
    put_u32(out, n);
    put(out, text, n);
}

/* An 'F' record: assimp opened `path`. */
static void send_file(FILE* out, const char* path)
{
    uint32_t n = (uint32_t)strlen(path);
    if (n >= RS_MESH_STREAM_PATH_MAX)
        return; /* cannot happen: the open of so long a path fails */
    put(out, "F", 1);
    put_u32(out, n);
    put(out, path, n);
}

static const enum aiTextureType file_map_types[RS_MESH_MAP_KINDS] = {
    aiTextureType_DIFFUSE, aiTextureType_OPACITY,  aiTextureType_NORMALS,
    aiTextureType_HEIGHT,  aiTextureType_EMISSIVE, aiTextureType_UNKNOWN, /* glTF's metallic-roughness */
};

static void send_material(FILE* out, const struct aiMaterial* m)
{
    struct aiString ai_name;
    const char* name = "default";
    if (m && aiGetMaterialString(m, AI_MATKEY_NAME, &ai_name) == aiReturn_SUCCESS && ai_name.length > 0)
        name = ai_name.data;
    struct aiColor4D kd = {0.5f, 0.5f, 0.5f, 1.0f}, ke = {0.0f, 0.0f, 0.0f, 1.0f};
    if (m) {
        aiGetMaterialColor(m, AI_MATKEY_COLOR_DIFFUSE, &kd);
        aiGetMaterialColor(m, AI_MATKEY_COLOR_EMISSIVE, &ke);
    }
    float colours[6] = {kd.r, kd.g, kd.b, ke.r, ke.g, ke.b};
    uint32_t n = (uint32_t)strnlen(name, 255);
    put(out, "M", 1);
    put_u32(out, n);
    put(out, name, n);
    put(out, colours, sizeof colours);
    struct aiString texture;
    enum aiTextureMapMode mode = aiTextureMapMode_Wrap;
    if (m)
        aiGetMaterialTexture(m, aiTextureType_DIFFUSE, 0, &texture, NULL, NULL, NULL, NULL, &mode, NULL);
    put_u32(out, mode == aiTextureMapMode_Clamp || mode == aiTextureMapMode_Decal);
    float pbr[3] = {0.0f, 0.0f, 1.0f}; /* (given, metallic, roughness); glTF's roughness defaults to 1 */
    if (m && aiGetMaterialFloatArray(m, AI_MATKEY_METALLIC_FACTOR, &pbr[1], NULL) == aiReturn_SUCCESS) {
        pbr[0] = 1.0f;
        aiGetMaterialFloatArray(m, AI_MATKEY_ROUGHNESS_FACTOR, &pbr[2], NULL);
    }
    put(out, pbr, sizeof pbr);
    float bump_scale = 1.0f;
    if (m)
        aiGetMaterialFloatArray(m, AI_MATKEY_OBJ_BUMPMULT_HEIGHT(0), &bump_scale, NULL);
    put(out, &bump_scale, sizeof bump_scale);
    uint32_t found[RS_MESH_MAP_KINDS], count = 0;
    struct aiString paths[RS_MESH_MAP_KINDS];
    for (uint32_t kind = 0; m && kind < RS_MESH_MAP_KINDS; ++kind)
        if (aiGetMaterialTexture(m, file_map_types[kind], 0, &paths[count], NULL, NULL, NULL, NULL, NULL, NULL) ==
                aiReturn_SUCCESS &&
            paths[count].length > 0)
            found[count++] = kind;
    put_u32(out, count);
    for (uint32_t i = 0; i < count; ++i) {
        uint32_t t = (uint32_t)strnlen(paths[i].data, 1023);
        put_u32(out, found[i]);
        put_u32(out, t);
        put(out, paths[i].data, t);
    }
}

/* ---- child: assimp's file access, regular files only ---- */

static FILE* file_of(struct aiFile* f) { return (FILE*)(void*)f->UserData; }

static size_t io_read(struct aiFile* f, char* buffer, size_t size, size_t count)
{
    return fread(buffer, size, count, file_of(f));
}

static size_t io_write(struct aiFile* f, const char* buffer, size_t size, size_t count)
{
    (void)f, (void)buffer, (void)size, (void)count;
    return 0;
}

static size_t io_tell(struct aiFile* f)
{
    long at = ftell(file_of(f));
    return at < 0 ? 0 : (size_t)at;
}

static size_t io_size(struct aiFile* f)
{
    FILE* file = file_of(f);
    long at = ftell(file), size = -1;
    if (at >= 0 && fseek(file, 0, SEEK_END) == 0)
        size = ftell(file);
    if (at >= 0)
        fseek(file, at, SEEK_SET);
    return size < 0 ? 0 : (size_t)size;
}

static enum aiReturn io_seek(struct aiFile* f, size_t offset, enum aiOrigin origin)
{
    int whence = origin == aiOrigin_CUR ? SEEK_CUR : origin == aiOrigin_END ? SEEK_END : SEEK_SET;
    return fseek(file_of(f), (long)offset, whence) == 0 ? aiReturn_SUCCESS : aiReturn_FAILURE;
}

static void io_flush(struct aiFile* f) { (void)f; }

/* io->UserData is the record stream: each file opened is reported there. */
static struct aiFile* io_open(struct aiFileIO* io, const char* path, const char* mode)
{
    if (strpbrk(mode, "wa+"))
        return NULL; /* an import only reads */
    char why[128];
    FILE* file = rs_file_open_regular(path, UINT64_MAX, NULL, why, sizeof why);
    struct aiFile* f = file ? calloc(1, sizeof *f) : NULL;
    if (!f) {
        if (file)
            fclose(file);
        return NULL;
    }
    f->ReadProc = io_read;
    f->WriteProc = io_write;
    f->TellProc = io_tell;
    f->FileSizeProc = io_size;
    f->SeekProc = io_seek;
    f->FlushProc = io_flush;
    f->UserData = (aiUserData)(void*)file;
    send_file((FILE*)(void*)io->UserData, path);
    return f;
}

static void io_close(struct aiFileIO* io, struct aiFile* f)
{
    (void)io;
    if (f) {
        fclose(file_of(f));
        free(f);
    }
}

static int child_import(const char* path, FILE* out)
{
    struct aiFileIO io = {io_open, io_close, (aiUserData)(void*)out};
    const struct aiScene* ai = aiImportFileEx(
        path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_PreTransformVertices, &io);
    if (!ai) {
        send_error(out, aiGetErrorString());
        return 0;
    }
    unsigned materials = ai->mNumMaterials ? ai->mNumMaterials : 1;
    for (unsigned i = 0; i < materials; ++i)
        send_material(out, i < ai->mNumMaterials ? ai->mMaterials[i] : NULL);
    for (unsigned mi = 0; mi < ai->mNumMeshes; ++mi) {
        const struct aiMesh* mesh = ai->mMeshes[mi];
        if (!(mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE))
            continue;
        uint32_t material = mesh->mMaterialIndex < materials ? mesh->mMaterialIndex : 0;
        for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
            const struct aiFace* face = &mesh->mFaces[f];
            if (face->mNumIndices != 3)
                continue; /* points and lines left over from triangulation */
            float v[9], n[9], uv[6];
            const struct aiVector3D* coords = mesh->mTextureCoords[0];
            uint32_t flags = (mesh->mNormals ? RS_SHADING_NORMALS : 0u) | (coords ? RS_SHADING_UVS : 0u);
            int ok = 1;
            for (int k = 0; k < 3; ++k) {
                unsigned index = face->mIndices[k];
                ok &= index < mesh->mNumVertices;
                if (!ok)
                    break;
                const struct aiVector3D* p = &mesh->mVertices[index];
                v[3 * k] = p->x, v[3 * k + 1] = p->y, v[3 * k + 2] = p->z;
                if (mesh->mNormals) {
                    const struct aiVector3D* vn = &mesh->mNormals[index];
                    n[3 * k] = vn->x, n[3 * k + 1] = vn->y, n[3 * k + 2] = vn->z;
                }
                if (coords)
                    uv[2 * k] = coords[index].x, uv[2 * k + 1] = coords[index].y;
            }
            if (!ok)
                continue; /* an index past the vertex array: skip the face */
            put(out, "T", 1);
            put_u32(out, material);
            put(out, v, sizeof v);
            put_u32(out, flags);
            if (flags & RS_SHADING_NORMALS)
                put(out, n, sizeof n);
            if (flags & RS_SHADING_UVS)
                put(out, uv, sizeof uv);
        }
    }
    aiReleaseImport(ai);
    return 0;
}

void rs_mesh_child_import(const char* path, FILE* out)
{
    child_import(path, out);
    put(out, "Z", 1);
}
