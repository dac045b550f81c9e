/* mesh_child.c - the import child's side: assimp reads the mesh file through an IO system that
 * opens regular files only, and the result goes out as records (mesh_stream.h). Host C11
 * (POSIX); runs only in the child process mesh_import.c forks, so an assimp crash or hang
 * costs the child, never raystream.
 *
 * The IO system refuses anything but a regular file, so a FIFO or a device named inside a mesh
 * (mtllib, a glTF buffer) is skipped or reported, never waited on; every file it does open is
 * reported in an 'F' record, so that the parent can list every file the scene read.
 *
 * assimp drops some input with no more than a line in its log: a missing mtllib, an undefined
 * material, faces whose indices are out of range; and its MTL reader silently loses or misreads
 * some maps (mtl_check.h). The child listens to the log and checks every MTL file assimp opens,
 * and says what was dropped in a 'W' record, in raystream's words; the parent decides whether
 * it matters. glTF names files by URI, so a name that assimp cannot open is tried again
 * percent-decoded ("my%20buffer.bin" is "my buffer.bin"), as the glTF specification says.
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
#include <strings.h>

#include <assimp/cfileio.h>

#include "host/import/mesh/mesh_stream.h"
#include "host/import/mesh/mtl_check.h"
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

/* A 'W' record: part of the file was dropped, or would be misread (RsMeshDrop `kind`). */
static void send_drop(FILE* out, uint32_t kind, const char* text)
{
    uint32_t n = (uint32_t)strnlen(text, 1023);
    put(out, "W", 1);
    put_u32(out, kind);
    put_u32(out, n);
    put(out, text, n);
}

static int ends_with(const char* s, const char* end)
{
    size_t n = strlen(s), m = strlen(end);
    return n >= m && strcasecmp(s + n - m, end) == 0;
}

/* assimp's log, read for the input it drops with a word there only. The messages are assimp
 * 5.2's (Debian 12's); each known one becomes a 'W' record in raystream's words. */
static void on_log(const char* message, char* user)
{
    static const struct {
        const char* text;
        uint32_t kind;
        const char* says;
    } known[] = {
        {"OBJ: Unable to locate material file ", RS_MESH_DROP_MATERIAL,
         "mtllib '%s': cannot read the material file (missing, or not a regular file), so its materials would be "
         "dropped"},
        {"OBJ: failed to locate material ", RS_MESH_DROP_MATERIAL,
         "usemtl '%s': no material of that name in the file's MTL files"},
        {"Some faces had out-of-range indices", RS_MESH_DROP_GEOMETRY,
         "faces that use vertex indices beyond the vertex list%s (assimp would drop them)"},
    };
    FILE* out = (FILE*)(void*)user;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; ++i) {
        const char* at = strstr(message, known[i].text);
        if (!at)
            continue;
        char name[512], text[1024];
        const char* arg = at + strlen(known[i].text);
        size_t n = strcspn(arg, "\r\n");
        const char* comma = strstr(arg, ", creating new material");
        if (comma && (size_t)(comma - arg) < n)
            n = (size_t)(comma - arg);
        snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name - 1 ? n : sizeof name - 1), arg);
        if (known[i].kind == RS_MESH_DROP_GEOMETRY)
            name[0] = '\0';
        snprintf(text, sizeof text, known[i].says, name);
        send_drop(out, known[i].kind, text);
        return;
    }
}

/* The MTL file at `path`, which assimp just opened, read as assimp's MTL reader reads its maps. */
static void check_mtl(FILE* out, const char* path)
{
    char why[1024];
    FILE* f = rs_file_open_regular(path, UINT64_MAX, NULL, why, sizeof why);
    if (!f)
        return; /* assimp has it open: it cannot vanish but by a race, which its import reports */
    if (rs_mtl_check(f, path, why, sizeof why))
        send_drop(out, RS_MESH_DROP_MATERIAL, why);
    fclose(f);
}

int rs_mesh_uri_decode(const char* path, char* out, size_t size)
{
    size_t n = 0;
    int decoded = 0;
    for (const char* p = path; *p && n + 1 < size; ++p) {
        unsigned hi, lo;
        if (p[0] == '%' && sscanf(p + 1, "%1x%1x", &hi, &lo) == 2 && (hi | lo) != 0) {
            out[n++] = (char)(hi * 16 + lo);
            p += 2;
            decoded = 1;
        } else {
            out[n++] = *p;
        }
    }
    out[n] = '\0';
    return decoded && strlen(path) < size;
}

static int importing_gltf; /* the file imported is a glTF: its file names are URIs */

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
    char why[128], decoded[RS_MESH_STREAM_PATH_MAX];
    FILE* file = rs_file_open_regular(path, UINT64_MAX, NULL, why, sizeof why);
    if (!file && importing_gltf && rs_mesh_uri_decode(path, decoded, sizeof decoded)) {
        file = rs_file_open_regular(decoded, UINT64_MAX, NULL, why, sizeof why);
        if (file)
            path = decoded;
    }
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
    if (ends_with(path, ".mtl"))
        check_mtl((FILE*)(void*)io->UserData, path);
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
    struct aiLogStream log = {on_log, (char*)(void*)out};
    aiAttachLogStream(&log);
    importing_gltf = ends_with(path, ".gltf") || ends_with(path, ".glb");
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
                if (!ok) {
                    char text[256];
                    snprintf(text, sizeof text, "face %u of mesh %u uses vertex %u, but the mesh has %u vertices", f, mi,
                             index, mesh->mNumVertices);
                    send_drop(out, RS_MESH_DROP_GEOMETRY, text);
                    break;
                }
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
                continue; /* reported above: the parent ends the import */
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
