/* mesh_records.c - the parent's side of a mesh import: the child's records (mesh_stream.h)
 * become materials and triangles of the scene, and the maps of the file's materials become
 * textures. Host C11 (POSIX).
 *
 * Nothing the child sends is trusted: every length and index is checked before it is used, and
 * a stream that stops early or is malformed ends the import with an error, never a crash.
 */
#define _POSIX_C_SOURCE 200809L
#include "host/import/mesh/mesh_stream.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "host/import/mesh/mesh_messages.h"
#include "host/scene/settings.h"
#include "host/util/clock.h"

/* Reads exactly `size` bytes; 0 on success, -1 on end of stream, error or timeout. */
static int take(RsMeshReader* r, void* out, size_t size)
{
    unsigned char* dst = out;
    while (size > 0) {
        if (r->pos == r->len) {
            double left = r->deadline - rs_clock_seconds();
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

/* A map of a file's material (its diffuse or opacity map), relative to the mesh file unless
 * absolute: its texture index, or -1 with an error naming the scene, the mesh file, the material
 * and the map. The image's path is added to `files`. */
static int32_t file_texture(RsScene* scene, const char* path, const char* where, const char* name, const char* map,
                            uint32_t flags, RsFileList* files, RsError* err)
{
    if (map[0] == '*')
        return rs_error_set(err, "%s: '%s': material '%s' uses an embedded texture (%s), which raystream cannot read",
                            where, path, name, map);
    const char* slash = strrchr(path, '/');
    size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
    /* a glTF names its images by URI: "my%20tex.png" is "my tex.png", unless a file carries
     * the name as written */
    char decoded[1024];
    size_t n = strlen(path);
    int gltf = (n > 5 && strcasecmp(path + n - 5, ".gltf") == 0) || (n > 4 && strcasecmp(path + n - 4, ".glb") == 0);
    if (gltf && rs_mesh_uri_decode(map, decoded, sizeof decoded)) {
        char* literal = malloc(dir + strlen(map) + 1);
        if (literal) {
            snprintf(literal, dir + strlen(map) + 1, "%.*s%s", (int)dir, map[0] == '/' ? "" : path, map);
            if (access(literal, F_OK) != 0)
                map = decoded;
            free(literal);
        }
    }
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
    if (texture >= 0 && rs_file_list_add(files, full, err))
        texture = -1;
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
    char maps[RS_MESH_MAP_KINDS][1024]; /* by RsMeshMap kind; "" where the material has none */
} FileMaterial;

/* Loads map `kind` of fm if it has one: 1 with *out set, 0 if it has none, -1 on error. */
static int file_map(RsScene* scene, const char* path, const char* where, const FileMaterial* fm, RsMeshMap kind,
                    uint32_t flags, uint32_t* out, RsFileList* files, RsError* err)
{
    if (!fm->maps[kind][0])
        return 0;
    int32_t t = file_texture(scene, path, where, fm->name, fm->maps[kind], flags, files, err);
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
                              RsMaterialDesc* d, RsFileList* files, RsError* err)
{
    const float* c = fm->colours;
    int gltf = fm->pbr[0] != 0.0f;
    uint32_t metallic_roughness = RS_NO_TEXTURE;
    int has_mr = file_map(scene, path, where, fm, RS_MESH_MAP_METALLIC_ROUGHNESS, 0, &metallic_roughness, files, err);
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
    int has_colour =
        file_map(scene, path, where, fm, RS_MESH_MAP_COLOUR, colour_flags, &d->colour_texture, files, err);
    if (has_colour < 0 ||
        file_map(scene, path, where, fm, RS_MESH_MAP_MASK, RS_TEXTURE_LOAD_MASK, &d->alpha_texture, files, err) < 0 ||
        file_map(scene, path, where, fm, RS_MESH_MAP_NORMAL, 0, &d->normal_map, files, err) < 0)
        return -1;
    if (has_colour && !metal)
        d->colour = rs_vec3_splat(1.0f);
    if (d->normal_map == RS_NO_TEXTURE) {
        int has_bump = file_map(scene, path, where, fm, RS_MESH_MAP_BUMP, 0, &d->bump_map, files, err);
        if (has_bump < 0)
            return -1;
        d->bump_scale = fm->bump_scale; /* checked by file_material */
    }
    int has_emission =
        file_map(scene, path, where, fm, RS_MESH_MAP_EMISSION, RS_TEXTURE_SRGB, &d->emission_texture, files, err);
    if (has_emission < 0)
        return -1;
    if (has_emission && !gltf)
        d->emission = rs_vec3_splat(1.0f);
    return 0;
}

/* The raystream material for the file's material number `index`, named "file#index:name". The
 * number makes it unique: two materials of a file may carry the same name, or names that only
 * differ beyond what assimp keeps (1023 bytes) or the import stream sends (255). */
static int32_t file_material(RsScene* scene, const char* path, const char* where, uint32_t index,
                             const FileMaterial* fm, RsFileList* files, RsError* err)
{
    const float* c = fm->colours;
    const char* name = fm->name;
    RsVec3 emission = rs_vec3(emission_of(c[3]), emission_of(c[4]), emission_of(c[5]));
    if (emission.x < 0.0f || emission.y < 0.0f || emission.z < 0.0f) {
        rs_error_set(err, "%s: '%s': material '%s' has an emission [%g, %g, %g] that is not a finite number within %g",
                     where, path, name, c[3], c[4], c[5], RS_SCENE_MAX_MAGNITUDE);
        return -1;
    }
    /* clamping to [0, 1] is documented; NaN has no place in it (it became black) */
    if (!(isfinite(c[0]) && isfinite(c[1]) && isfinite(c[2]))) {
        rs_error_set(err, "%s: '%s': material '%s' has a diffuse colour (Kd, base colour) [%g, %g, %g] that is not "
                     "finite", where, path, name, c[0], c[1], c[2]);
        return -1;
    }
    if (!(isfinite(fm->pbr[1]) && isfinite(fm->pbr[2]))) {
        rs_error_set(err, "%s: '%s': material '%s' has a metallic factor %g and roughness factor %g: both must be "
                     "finite", where, path, name, fm->pbr[1], fm->pbr[2]);
        return -1;
    }
    if (fm->maps[RS_MESH_MAP_BUMP][0] && !(fm->bump_scale >= 0.0f && fm->bump_scale <= (float)RS_SCENE_MAX_MAGNITUDE)) {
        rs_error_set(err, "%s: '%s': material '%s': the bump multiplier (-bm) must be in [0, %g] (got %g)", where, path,
                     name, RS_SCENE_MAX_MAGNITUDE, fm->bump_scale);
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
    if (material < 0 && file_material_desc(scene, path, where, fm, &d, files, err) == 0)
        material = rs_scene_add_material_desc(scene, full, &d, err);
    free(full);
    return material;
}

/* The rest of an 'M' record, after its name: 0, or -1 if the stream is cut short or bad. */
static int take_material(RsMeshReader* r, FileMaterial* fm)
{
    uint32_t count;
    memset(fm->maps, 0, sizeof fm->maps);
    if (take(r, fm->colours, sizeof fm->colours) || take(r, &fm->clamp, 4) || take(r, fm->pbr, sizeof fm->pbr) ||
        take(r, &fm->bump_scale, sizeof fm->bump_scale) || take(r, &count, 4) || count > RS_MESH_MAP_KINDS)
        return -1;
    for (uint32_t i = 0; i < count; ++i) {
        uint32_t kind, length;
        if (take(r, &kind, 4) || kind >= RS_MESH_MAP_KINDS || take(r, &length, 4) || length >= sizeof fm->maps[kind] ||
            take(r, fm->maps[kind], length))
            return -1;
        fm->maps[kind][length] = '\0';
    }
    return 0;
}

#define RS_MAX_FILE_MATERIALS 65536

int rs_mesh_read_records(RsMeshReader* r, RsScene* scene, const char* path, const char* where, const RsTransform* xf,
                         int32_t material_override, RsFileList* files, int* done, RsError* err)
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
        } else if (tag == 'F') {
            uint32_t n;
            char file[RS_MESH_STREAM_PATH_MAX];
            if (take(r, &n, 4) || n >= sizeof file || take(r, file, n))
                break;
            file[n] = '\0';
            if (rs_file_list_add(files, file, err)) {
                status = -1;
                break;
            }
        } else if (tag == 'X' || tag == 'M') {
            uint32_t n;
            char text[1024];
            if (take(r, &n, 4) || n >= sizeof text || take(r, text, n))
                break;
            text[n] = '\0';
            if (tag == 'X') {
                char says[2048];
                rs_mesh_explain_error(path, text, says, sizeof says);
                status = rs_error_set(err, "%s: cannot import '%s': %s", where, path, says);
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
            materials[material_count] =
                material_override >= 0 ? material_override
                                       : file_material(scene, path, where, material_count, fm, files, err);
            if (materials[material_count++] < 0) {
                status = -1;
                break;
            }
        } else if (tag == 'W') {
            uint32_t kind, n;
            char text[1024];
            if (take(r, &kind, 4) || take(r, &n, 4) || n >= sizeof text || take(r, text, n))
                break;
            text[n] = '\0';
            /* the scene's own material replaces every material of the file: what is wrong with
             * those changes nothing then */
            if (kind != RS_MESH_DROP_MATERIAL || material_override < 0) {
                status = rs_error_set(err, "%s: '%s': %s", where, path, text);
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
