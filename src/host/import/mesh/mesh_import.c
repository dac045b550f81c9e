/* mesh_import.c - assimp C API to scene triangles (see mesh_import.h). Host C11 (POSIX).
 *
 * assimp runs in a child process. Fuzzing found inputs on which assimp 5.2 (Debian 12) aborts
 * on an internal assertion or loops forever; no check of ours can anticipate all of them, and
 * "no input file may crash raystream". So the child imports the file and streams materials and
 * triangles back through a pipe; the parent turns them into scene primitives. A child that dies
 * by a signal, or does not finish within the import time limit (RAYSTREAM_MESH_TIMEOUT seconds,
 * default 300), becomes an error message naming the file; raystream itself keeps running.
 *
 * Every file the import touches must be a regular file: the parent checks the mesh file itself
 * before forking (a FIFO would block the open forever), and the child gives assimp an IO system
 * that refuses anything else, so a FIFO or a device named inside a mesh (mtllib, a glTF buffer)
 * is skipped or reported, never waited on. The child dies with the parent (PR_SET_PDEATHSIG),
 * and the parent kills and reaps it on every path out, so no import process is ever orphaned.
 * PLY headers are checked first: their element counts must fit the file's size, since assimp
 * allocates for the counts before reading the data.
 *
 * Stream records: 'M' name_length name kd[3] ke[3] clamp pbr[3] bump_scale map_count, then per
 * map: kind length path (a material of the file, numbered in order: 1 if its diffuse map clamps
 * instead of repeating, glTF's metallic-roughness as (1 if given, metallic, roughness), MTL's
 * bump multiplier (-bm), and the paths of its maps as the file wrote them, each with its
 * FileMap kind);
 * 'T' material_number v0[3] v1[3] v2[3] flags, then n0[3] n1[3] n2[3] if flags has
 * RS_SHADING_NORMALS and (u, v) of the three vertices if it has RS_SHADING_UVS (a triangle, in
 * the file's own space); 'X' length text (assimp's error); 'Z' (done). Vertex normals and
 * texture coordinates are the file's own: a mesh without normals (an OBJ without vn) stays
 * flat, as its author made it.
 */
#define _POSIX_C_SOURCE 200809L
#include "host/import/mesh/mesh_import.h"

#include <assimp/cimport.h>
#include <assimp/ObjMaterial.h>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <assimp/cfileio.h>

#include "host/import/json/scene_json.h"
#include "host/import/mesh/ply_header.h"
#include "host/io/safe_file.h"

/* ---- child: assimp to records ---- */

static void put(FILE* out, const void* data, size_t size) { fwrite(data, 1, size, out); }

static void put_u32(FILE* out, uint32_t v) { put(out, &v, sizeof v); }

static void send_error(FILE* out, const char* text)
{
    uint32_t n = (uint32_t)strlen(text);
    put(out, "X", 1);
    put_u32(out, n);
    put(out, text, n);
}

/* The maps of a file's material that raystream reads, and what it makes of them. */
typedef enum FileMap {
    MAP_COLOUR,             /* MTL map_Kd, glTF baseColorTexture: replaces the diffuse colour */
    MAP_MASK,               /* MTL map_d: a cut-out mask */
    MAP_NORMAL,             /* MTL norm, glTF normalTexture: tangent-space normals */
    MAP_BUMP,               /* MTL map_bump / bump: a height field */
    MAP_EMISSION,           /* MTL map_Ke, glTF emissiveTexture */
    MAP_METALLIC_ROUGHNESS, /* glTF metallicRoughnessTexture: roughness in green, metal in blue */
    MAP_KINDS
} FileMap;

static const enum aiTextureType file_map_types[MAP_KINDS] = {
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
    uint32_t found[MAP_KINDS], count = 0;
    struct aiString paths[MAP_KINDS];
    for (uint32_t kind = 0; m && kind < MAP_KINDS; ++kind)
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

static struct aiFile* io_open(struct aiFileIO* io, const char* path, const char* mode)
{
    (void)io;
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
    struct aiFileIO io = {io_open, io_close, NULL};
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

/* ---- parent: records to scene ---- */

typedef struct Reader {
    int fd;
    double deadline;
    unsigned char buf[65536];
    size_t len, pos;
    int timed_out;
} Reader;

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Reads exactly `size` bytes; 0 on success, -1 on end of stream, error or timeout. */
static int take(Reader* r, void* out, size_t size)
{
    unsigned char* dst = out;
    while (size > 0) {
        if (r->pos == r->len) {
            double left = r->deadline - now_seconds();
            if (left <= 0.0) {
                r->timed_out = 1;
                return -1;
            }
            struct pollfd p = {r->fd, POLLIN, 0};
            int ready = poll(&p, 1, (int)(left * 1000.0) + 1);
            if (ready < 0 && errno == EINTR)
                continue;
            if (ready == 0) {
                r->timed_out = 1;
                return -1;
            }
            ssize_t got = read(r->fd, r->buf, sizeof r->buf);
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0)
                return -1;
            r->len = (size_t)got;
            r->pos = 0;
        }
        size_t n = r->len - r->pos < size ? r->len - r->pos : size;
        memcpy(dst, r->buf + r->pos, n);
        r->pos += n;
        dst += n;
        size -= n;
    }
    return 0;
}

static float clamp01(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : (x == x ? x : 0.0f)); }

/* Emission as the scene format allows it: >= 0 (negative values mean none) and within
 * RS_SCENE_MAX_MAGNITUDE; -1 for NaN, infinity or beyond, which the caller reports. */
static float emission_of(float x)
{
    if (!(x <= (float)RS_SCENE_MAX_MAGNITUDE)) /* NaN too */
        return -1.0f;
    return x > 0.0f ? x : 0.0f;
}

/* The raystream material for the file's material number `index`, named "file#index:name". The
 * number makes it unique: two materials of a file may carry the same name, or names that only
 * differ beyond what assimp keeps (1023 bytes) or the import stream sends (255). */
/* A map of a file's material (its diffuse or opacity map), relative to the mesh file unless
 * absolute: its texture index, or -1 with an error naming the scene, the mesh file, the material
 * and the map. */
static int32_t file_texture(RsScene* scene, const char* path, const char* where, const char* name, const char* map,
                            uint32_t flags, RsError* err)
{
    if (map[0] == '*')
        return rs_error_set(err, "%s: '%s': material '%s' uses an embedded texture (%s), which raystream cannot read",
                            where, path, name, map);
    const char* slash = strrchr(path, '/');
    size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
    size_t size = dir + strlen(map) + 1;
    char* full = malloc(size);
    char* context = malloc(strlen(where) + strlen(path) + strlen(name) + 32);
    if (!full || !context) {
        free(full);
        free(context);
        return rs_error_set(err, "out of memory importing '%s'", path);
    }
    if (map[0] == '/')
        snprintf(full, size, "%s", map);
    else
        snprintf(full, size, "%.*s%s", (int)dir, path, map);
    for (char* c = full + dir; *c; ++c) /* files written on Windows name their maps with backslashes */
        if (*c == '\\')
            *c = '/';
    sprintf(context, "%s: '%s': material '%s'", where, path, name);
    int32_t texture = rs_texture_load(&scene->textures, full, flags, context, err);
    free(full);
    free(context);
    return texture;
}

/* What the import stream says of one material of a file. */
typedef struct FileMaterial {
    char name[1024];
    float colours[6]; /* Kd, Ke */
    uint32_t clamp;   /* the diffuse map clamps */
    float pbr[3];     /* glTF: (1 if given, metallic, roughness) */
    float bump_scale; /* MTL -bm */
    char maps[MAP_KINDS][1024]; /* by FileMap kind; "" where the material has none */
} FileMaterial;

/* Loads map `kind` of fm if it has one: 1 with *out set, 0 if it has none, -1 on error. */
static int file_map(RsScene* scene, const char* path, const char* where, const FileMaterial* fm, FileMap kind,
                    uint32_t flags, uint32_t* out, RsError* err)
{
    if (!fm->maps[kind][0])
        return 0;
    int32_t t = file_texture(scene, path, where, fm->name, fm->maps[kind], flags, err);
    if (t < 0)
        return -1;
    *out = (uint32_t)t;
    return 1;
}

/* A file's material in raystream's terms. MTL: the diffuse and emission maps replace Kd and Ke,
 * as in 3ds Max and Blender. glTF metallic-roughness: a metal (metallic factor times the mean
 * of the metallic map's blue channel >= 0.5) becomes a conductor of the base colour, anything
 * else a plastic (glTF's dielectric reflects 4% head-on: ior 1.5); the map's green channel is
 * the perceptual roughness, and the emissive map scales the emissive factor. */
static int file_material_desc(RsScene* scene, const char* path, const char* where, const FileMaterial* fm,
                              RsMaterialDesc* d, RsError* err)
{
    const float* c = fm->colours;
    int gltf = fm->pbr[0] != 0.0f;
    uint32_t metallic_roughness = RS_NO_TEXTURE;
    int has_mr = file_map(scene, path, where, fm, MAP_METALLIC_ROUGHNESS, 0, &metallic_roughness, err);
    if (has_mr < 0)
        return -1;
    float metallic = fm->pbr[1];
    if (has_mr)
        metallic *= rs_texture_mean_channel(&scene->textures, metallic_roughness, 2);
    int metal = gltf && metallic >= 0.5f;
    *d = rs_material_desc(!gltf ? RS_MAT_DIFFUSE : metal ? RS_MAT_CONDUCTOR : RS_MAT_PLASTIC);
    d->roughness_u = d->roughness_v = gltf ? clamp01(fm->pbr[2]) : 0.0f;
    if (gltf && has_mr) {
        d->roughness_texture = metallic_roughness;
        d->roughness_channel = 1;
    }
    d->colour = rs_vec3(clamp01(c[0]), clamp01(c[1]), clamp01(c[2]));
    d->emission = rs_vec3(emission_of(c[3]), emission_of(c[4]), emission_of(c[5]));
    uint32_t colour_flags = RS_TEXTURE_SRGB | (fm->clamp ? RS_TEXTURE_CLAMP : 0u);
    int has_colour = file_map(scene, path, where, fm, MAP_COLOUR, colour_flags, &d->colour_texture, err);
    if (has_colour < 0 || file_map(scene, path, where, fm, MAP_MASK, RS_TEXTURE_LOAD_MASK, &d->alpha_texture, err) < 0 ||
        file_map(scene, path, where, fm, MAP_NORMAL, 0, &d->normal_map, err) < 0)
        return -1;
    if (has_colour && !metal)
        d->colour = rs_vec3_splat(1.0f);
    if (d->normal_map == RS_NO_TEXTURE) {
        int has_bump = file_map(scene, path, where, fm, MAP_BUMP, 0, &d->bump_map, err);
        if (has_bump < 0)
            return -1;
        d->bump_scale = fm->bump_scale >= 0.0f && fm->bump_scale <= (float)RS_SCENE_MAX_MAGNITUDE ? fm->bump_scale : 1.0f;
    }
    int has_emission = file_map(scene, path, where, fm, MAP_EMISSION, RS_TEXTURE_SRGB, &d->emission_texture, err);
    if (has_emission < 0)
        return -1;
    if (has_emission && !gltf)
        d->emission = rs_vec3_splat(1.0f);
    return 0;
}

static int32_t file_material(RsScene* scene, const char* path, const char* where, uint32_t index,
                             const FileMaterial* fm, RsError* err)
{
    const float* c = fm->colours;
    const char* name = fm->name;
    RsVec3 emission = rs_vec3(emission_of(c[3]), emission_of(c[4]), emission_of(c[5]));
    if (emission.x < 0.0f || emission.y < 0.0f || emission.z < 0.0f) {
        rs_error_set(err, "%s: '%s': material '%s' has an emission [%g, %g, %g] that is not a finite number within %g",
                     where, path, name, c[3], c[4], c[5], RS_SCENE_MAX_MAGNITUDE);
        return -1;
    }
    size_t size = strlen(path) + strlen(name) + 16;
    char* full = malloc(size);
    if (!full) {
        rs_error_set(err, "out of memory importing '%s'", path);
        return -1;
    }
    snprintf(full, size, "%s#%u:%s", path, index, name);
    int32_t material = rs_scene_find_material(scene, full);
    RsMaterialDesc d;
    if (material < 0 && file_material_desc(scene, path, where, fm, &d, err) == 0)
        material = rs_scene_add_material(scene, full, rs_material_from_desc(&d), err);
    free(full);
    return material;
}

/* The rest of an 'M' record, after its name: 0, or -1 if the stream is cut short or bad. */
static int take_material(Reader* r, FileMaterial* fm)
{
    uint32_t count;
    memset(fm->maps, 0, sizeof fm->maps);
    if (take(r, fm->colours, sizeof fm->colours) || take(r, &fm->clamp, 4) || take(r, fm->pbr, sizeof fm->pbr) ||
        take(r, &fm->bump_scale, sizeof fm->bump_scale) || take(r, &count, 4) || count > MAP_KINDS)
        return -1;
    for (uint32_t i = 0; i < count; ++i) {
        uint32_t kind, length;
        if (take(r, &kind, 4) || kind >= MAP_KINDS || take(r, &length, 4) || length >= sizeof fm->maps[kind] ||
            take(r, fm->maps[kind], length))
            return -1;
        fm->maps[kind][length] = '\0';
    }
    return 0;
}

#define RS_MAX_FILE_MATERIALS 65536

static int read_records(Reader* r, RsScene* scene, const char* path, const char* where, const RsTransform* xf,
                        int32_t material_override, int* done, RsError* err)
{
    int32_t* materials = NULL;
    uint32_t material_count = 0;
    int status = 0;
    FileMaterial* fm = malloc(sizeof *fm); /* 7 KiB: off the stack */
    if (!fm)
        return rs_error_set(err, "%s: out of memory importing '%s'", where, path);
    for (;;) {
        char tag;
        if (take(r, &tag, 1))
            break;
        if (tag == 'Z') {
            *done = 1;
            break;
        } else if (tag == 'X' || tag == 'M') {
            uint32_t n;
            char text[1024];
            if (take(r, &n, 4) || n >= sizeof text || take(r, text, n))
                break;
            text[n] = '\0';
            if (tag == 'X') {
                status = rs_error_set(err, "%s: cannot import '%s': %s", where, path, text);
                break;
            }
            memcpy(fm->name, text, n + 1);
            if (take_material(r, fm) || material_count == RS_MAX_FILE_MATERIALS)
                break;
            int32_t* grown = realloc(materials, (material_count + 1) * sizeof *materials);
            if (!grown) {
                status = rs_error_set(err, "%s: out of memory importing '%s'", where, path);
                break;
            }
            materials = grown;
            materials[material_count] = material_override >= 0 ? material_override
                                                                : file_material(scene, path, where, material_count, fm, err);
            if (materials[material_count++] < 0) {
                status = -1;
                break;
            }
        } else if (tag == 'T') {
            uint32_t m, flags;
            float v[9], normal[9], uv[6];
            if (take(r, &m, 4) || take(r, v, sizeof v) || take(r, &flags, 4) ||
                ((flags & RS_SHADING_NORMALS) && take(r, normal, sizeof normal)) ||
                ((flags & RS_SHADING_UVS) && take(r, uv, sizeof uv)))
                break;
            if (m >= material_count) {
                status = rs_error_set(err, "%s: cannot import '%s': a face names material %u of %u", where, path, m,
                                      material_count);
                break;
            }
            RsVec3 p[3];
            for (int k = 0; k < 3; ++k) {
                p[k] = rs_transform_point(xf, rs_vec3(v[3 * k], v[3 * k + 1], v[3 * k + 2]));
                float big = fmaxf(fabsf(p[k].x), fmaxf(fabsf(p[k].y), fabsf(p[k].z)));
                if (!(big <= (float)RS_SCENE_MAX_MAGNITUDE)) { /* also NaN */
                    status = rs_error_set(err,
                                          "%s: '%s' has a vertex (transformed: [%g, %g, %g]) that is not a finite "
                                          "number within +-%g",
                                          where, path, p[k].x, p[k].y, p[k].z, RS_SCENE_MAX_MAGNITUDE);
                    break;
                }
            }
            RsVec3 n[3];
            for (int k = 0; k < 3 && (flags & RS_SHADING_NORMALS); ++k)
                n[k] = rs_transform_normal(xf, rs_vec3(normal[3 * k], normal[3 * k + 1], normal[3 * k + 2]));
            if (status || rs_scene_add_triangle_shaded(scene, p[0], p[1], p[2], (flags & RS_SHADING_NORMALS) ? n : NULL,
                                                       (flags & RS_SHADING_UVS) ? uv : NULL, (uint32_t)materials[m],
                                                       err)) {
                status = -1;
                break;
            }
        } else {
            status = rs_error_set(err, "%s: internal error: bad record from the import process", where);
            break;
        }
    }
    free(materials);
    free(fm);
    return status;
}

static int has_extension(const char* path, const char* ext)
{
    size_t n = strlen(path), m = strlen(ext);
    return n >= m && strcasecmp(path + n - m, ext) == 0;
}

static double import_timeout(void)
{
    const char* s = getenv("RAYSTREAM_MESH_TIMEOUT");
    double t = s ? atof(s) : 0.0;
    return t > 0.0 ? t : 300.0;
}

int rs_mesh_import(RsScene* scene, const char* path, const char* where, const RsTransform* xf,
                   int32_t material_override, RsError* err)
{
    char why[512];
    uint64_t size = 0;
    FILE* probe = rs_file_open_regular(path, UINT64_MAX, &size, why, sizeof why);
    if (!probe)
        return rs_error_set(err, "%s: cannot read '%s': %s", where, path, why);
    int bad_ply = has_extension(path, ".ply") && rs_ply_header_check(probe, size, why, sizeof why);
    fclose(probe);
    if (bad_ply)
        return rs_error_set(err, "%s: cannot import '%s': %s", where, path, why);

    int fds[2];
    if (pipe(fds) != 0)
        return rs_error_set(err, "%s: cannot start the mesh import: %s", where, strerror(errno));
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return rs_error_set(err, "%s: cannot start the mesh import: %s", where, strerror(errno));
    }
    if (pid == 0) {
#ifdef __linux__
        /* die with the parent, however it ends (an interrupt, SIGKILL): an import nobody reads
         * must not run on; the check after it covers a parent that died before the call */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
        if (getppid() != parent)
            _exit(1);
        /* die plainly on assimp's faults: no inherited crash handlers (a fuzzer's, a debugger's);
         * and the parent's interrupt handlers are not ours: the parent decides */
        int fatal[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGINT, SIGTERM};
        for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; ++i)
            signal(fatal[i], SIG_DFL);
        close(fds[0]);
        FILE* out = fdopen(fds[1], "wb");
        if (out) {
            child_import(path, out);
            put(out, "Z", 1);
            fclose(out);
        }
        _exit(0); /* no atexit handlers: the parent owns everything else */
    }
    close(fds[1]);
    size_t before = scene->prims.count;
    double timeout = import_timeout();
    Reader* r = calloc(1, sizeof *r);
    int done = 0, status = -1;
    if (!r) {
        rs_error_set(err, "%s: out of memory importing '%s'", where, path);
    } else {
        r->fd = fds[0];
        r->deadline = now_seconds() + timeout;
        status = read_records(r, scene, path, where, xf, material_override, &done, err);
    }
    close(fds[0]);
    /* every way out but a finished import (an error in the records, the time limit, out of
     * memory) kills the child first, so that waiting for it cannot block */
    if (!done)
        kill(pid, SIGKILL);
    int child_status = 0;
    while (waitpid(pid, &child_status, 0) < 0 && errno == EINTR) {
    }
    if (status == 0 && r && r->timed_out)
        status = rs_error_set(err, "%s: assimp did not finish reading '%s' within %.0f s (a malformed file?)", where,
                              path, timeout);
    else if (status == 0 && !done && WIFSIGNALED(child_status) &&
             (WTERMSIG(child_status) == SIGINT || WTERMSIG(child_status) == SIGTERM))
        status = rs_error_set(err, "%s: the import of '%s' was interrupted", where, path);
    else if (status == 0 && !done && WIFSIGNALED(child_status) && WTERMSIG(child_status) != SIGKILL)
        status = rs_error_set(err, "%s: assimp crashed reading '%s' (signal %d): the file is malformed", where, path,
                              WTERMSIG(child_status));
    else if (status == 0 && !done)
        status = rs_error_set(err, "%s: the import of '%s' ended early", where, path);
    free(r);
    if (status)
        return -1;
    if (scene->prims.count == before)
        return rs_error_set(err, "%s: '%s' contains no triangles with any area", where, path);
    return 0;
}
