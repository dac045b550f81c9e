/* scene_loader.c - telling a scene file's format and handing it to that format's loader (see
 * scene_loader.h). Host C11 (POSIX).
 *
 * Recognition reads at most RS_SNIFF_BYTES from the start of the file, and only from a regular
 * file (safe_file.h): a FIFO, a device or a directory is refused with the JSON loader's words
 * before anything is read. Each format's sniffer scores those bytes alone: 2 where they are
 * unmistakably its own (a magic number, an XML root, a pbrt directive, a glTF "asset"), 1 where
 * they may be (a JSON object whose kind the prefix does not settle), 0 otherwise. The best score
 * wins and the extension breaks ties; where no sniffer scores, the extension decides, an empty
 * file goes to the JSON loader (which reports it as it always has), and anything else is
 * refused. So a raystream scene loads whatever its name, and a JSON object that does not parse
 * still reaches the JSON loader, whose messages name the line and column.
 */
#define _POSIX_C_SOURCE 200809L
#include "host/import/scene_loader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "host/import/gltf/gltf_load.h"
#include "host/import/json/scene_json.h"
#include "host/import/mitsuba/mitsuba_loader.h"
#include "host/import/pbrt/pbrt_loader.h"
#include "host/io/safe_file.h"

#define RS_SNIFF_BYTES 65536

typedef struct RsSceneFormat {
    const char* name;           /* as messages name it: "... is a <name>" */
    const char* extensions[3];  /* with the dot; NULL-terminated */
    int (*sniff)(const char* head, const char* end); /* 0, 1 or 2: see the comment at the top */
    RsSceneLoadFn load;         /* NULL: recognised, but raystream cannot read it yet */
} RsSceneFormat;

/* ---- reading the first bytes ---- */

static const char* skip_space(const char* p, const char* end)
{
    if (end - p >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) /* a UTF-8 byte order mark */
        p += 3;
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        ++p;
    return p;
}

static int starts_with(const char* p, const char* end, const char* word)
{
    size_t n = strlen(word);
    return (size_t)(end - p) >= n && memcmp(p, word, n) == 0;
}

/* Moves *p (on a JSON string's opening quote) past the string; its bytes, escapes undecoded,
 * go to out[] (may be NULL), or "" if they do not fit. 0 if the string does not end in time. */
static int json_string(const char** p, const char* end, char* out, size_t out_size)
{
    size_t n = 0;
    int fits = 1;
    const char* s = *p + 1;
    for (; s < end && *s != '"'; ++s) {
        if (*s == '\\' && ++s == end)
            return 0;
        if (out && n + 1 < out_size)
            out[n++] = *s;
        else
            fits = 0;
    }
    if (s == end)
        return 0;
    if (out)
        out[fits ? n : 0] = '\0';
    *p = s + 1;
    return 1;
}

/* Moves *p past one JSON value of any type (containers by their brackets). 0 if it does not
 * end in time or is malformed. */
static int json_skip_value(const char** p, const char* end)
{
    int depth = 0;
    for (const char* s = *p; s < end;) {
        if (*s == '"') {
            if (!json_string(&s, end, NULL, 0))
                return 0;
            if (depth == 0) {
                *p = s;
                return 1;
            }
            continue;
        }
        if (*s == '{' || *s == '[') {
            ++depth;
        } else if (*s == '}' || *s == ']' || *s == ',') {
            if (depth == 0) { /* the end of a number, true, false or null */
                *p = s;
                return 1;
            }
            if (*s != ',' && --depth == 0) {
                *p = s + 1;
                return 1;
            }
        }
        ++s;
    }
    return 0;
}

/* The value of member `key` of the JSON object at p (on its '{'); NULL if the object has no
 * such member (*undecided = 0) or the bytes end first (*undecided = 1). */
static const char* json_member(const char* p, const char* end, const char* key, int* undecided)
{
    *undecided = 1;
    for (++p;;) {
        p = skip_space(p, end);
        if (p < end && *p == '}')
            break;
        char name[16];
        if (p == end || *p != '"' || !json_string(&p, end, name, sizeof name))
            return NULL;
        p = skip_space(p, end);
        if (p == end || *p != ':')
            return NULL;
        p = skip_space(p + 1, end);
        if (p < end && strcmp(name, key) == 0)
            return p;
        if (!json_skip_value(&p, end))
            return NULL;
        p = skip_space(p, end);
        if (p < end && *p == '}')
            break;
        if (p == end || *p != ',')
            return NULL;
        ++p;
    }
    *undecided = 0;
    return NULL;
}

/* ---- the sniffers ---- */

/* glTF 2.0 as JSON: an object whose "asset" is an object with a "version". */
static int sniff_gltf_json(const char* head, const char* end)
{
    const char* p = skip_space(head, end);
    if (p == end || *p != '{')
        return 0;
    int undecided = 0;
    const char* asset = json_member(p, end, "asset", &undecided);
    if (!asset)
        return undecided;
    if (*asset != '{')
        return 0;
    return json_member(asset, end, "version", &undecided) ? 2 : undecided;
}

/* raystream's own JSON: any other JSON object (a broken one too: the JSON loader says where). */
static int sniff_raystream_json(const char* head, const char* end)
{
    const char* p = skip_space(head, end);
    if (p == end || *p != '{')
        return 0;
    return sniff_gltf_json(head, end) == 2 ? 0 : 1;
}

/* Mitsuba 3: XML whose root element is <scene>, after any declaration, comments and DOCTYPE. */
static int sniff_mitsuba_xml(const char* head, const char* end)
{
    const char* p = skip_space(head, end);
    for (;;) {
        const char* close = starts_with(p, end, "<?")     ? "?>"
                            : starts_with(p, end, "<!--") ? "-->"
                            : starts_with(p, end, "<!")   ? ">"
                                                          : NULL;
        if (!close)
            break;
        const char* at = p + 2;
        while (at < end && !starts_with(at, end, close))
            ++at;
        if (at == end)
            return 0;
        p = skip_space(at + strlen(close), end);
    }
    if (!starts_with(p, end, "<scene") || p + 6 == end)
        return 0;
    char after = p[6];
    return after == '>' || after == '/' || after == ' ' || after == '\t' || after == '\n' || after == '\r' ? 2 : 0;
}

/* pbrt-v4: the first word past whitespace and # comments is one of its directives. */
static int sniff_pbrt(const char* head, const char* end)
{
    static const char* const directives[] = {
        "Accelerator", "ActiveTransform", "AreaLightSource", "Attribute", "AttributeBegin", "AttributeEnd",
        "Camera", "ColorSpace", "ConcatTransform", "CoordinateSystem", "CoordSysTransform", "Film", "Identity",
        "Import", "Include", "Integrator", "LightSource", "LookAt", "MakeNamedMaterial", "MakeNamedMedium",
        "Material", "MediumInterface", "NamedMaterial", "ObjectBegin", "ObjectEnd", "ObjectInstance", "Option",
        "PixelFilter", "ReverseOrientation", "Rotate", "Sampler", "Scale", "Shape", "Texture", "Transform",
        "TransformBegin", "TransformEnd", "TransformTimes", "Translate", "WorldBegin", NULL};
    const char* p = skip_space(head, end);
    while (p < end && *p == '#') {
        while (p < end && *p != '\n')
            ++p;
        p = skip_space(p, end);
    }
    const char* word = p;
    while (p < end && ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z')))
        ++p;
    if (p == word || (p < end && !memchr(" \t\r\n\"[#", *p, 7)))
        return 0;
    for (int i = 0; directives[i]; ++i)
        if (strlen(directives[i]) == (size_t)(p - word) && memcmp(directives[i], word, (size_t)(p - word)) == 0)
            return 2;
    return 0;
}

/* binary glTF 2.0 (.glb): the magic "glTF". */
static int sniff_glb(const char* head, const char* end) { return starts_with(head, end, "glTF") ? 2 : 0; }

static int load_raystream_json(const char* path, const RsSceneLoadOptions* options, RsScene* scene,
                               RsFileList* files_read, RsError* err)
{
    return rs_scene_json_load(path, options->accel, scene, files_read, err);
}

static int load_mitsuba_xml(const char* path, const RsSceneLoadOptions* options, RsScene* scene,
                            RsFileList* files_read, RsError* err)
{
    return rs_mitsuba_load(path, options->accel, options->camera, scene, files_read, err);
}

static int load_pbrt(const char* path, const RsSceneLoadOptions* options, RsScene* scene, RsFileList* files_read,
                     RsError* err)
{
    return rs_pbrt_load(path, options->accel, scene, files_read, err);
}

static int load_gltf(const char* path, const RsSceneLoadOptions* options, RsScene* scene, RsFileList* files_read,
                     RsError* err)
{
    return rs_gltf_load(path, options->accel, options->camera, scene, files_read, err);
}

/* Every format raystream knows. An importer of issue 25 fills in its row's loader (and may
 * move the row's sniffer into its folder); a new format adds a row. */
static const RsSceneFormat formats[] = {
    {"raystream JSON scene", {".json"}, sniff_raystream_json, load_raystream_json},
    {"Mitsuba 3 XML scene", {".xml"}, sniff_mitsuba_xml, load_mitsuba_xml},
    {"pbrt-v4 scene", {".pbrt"}, sniff_pbrt, load_pbrt},
    {"glTF 2.0 scene", {".gltf"}, sniff_gltf_json, load_gltf},
    {"binary glTF 2.0 scene", {".glb"}, sniff_glb, load_gltf},
};
enum { FORMAT_COUNT = sizeof formats / sizeof formats[0] };

/* Whether a format's loader chooses among several cameras (options->camera). The others read
 * one camera (a raystream JSON scene has one; pbrt-v4 and Mitsuba files have one each as
 * raystream reads them), so --camera N other than 0 is refused for them here, once for all of
 * their loaders, rather than ignored. */
static int picks_camera(const RsSceneFormat* f) { return f->load == load_gltf; }

/* ---- choosing ---- */

static int has_extension(const char* path, const RsSceneFormat* f)
{
    const char* slash = strrchr(path, '/');
    const char* dot = strrchr(slash ? slash + 1 : path, '.');
    for (int i = 0; dot && f->extensions[i]; ++i)
        if (strcasecmp(dot, f->extensions[i]) == 0)
            return 1;
    return 0;
}

static void append(char* out, size_t size, const char* a, const char* b)
{
    size_t n = strlen(out);
    snprintf(out + n, size - n, "%s%s", a, b);
}

/* "raystream JSON scene (.json), ...": the formats raystream reads. */
static void readable_formats(char* out, size_t size)
{
    out[0] = '\0';
    for (int i = 0; i < FORMAT_COUNT; ++i) {
        if (!formats[i].load)
            continue;
        append(out, size, out[0] ? ", " : "", formats[i].name);
        for (int k = 0; formats[i].extensions[k]; ++k)
            append(out, size, k ? " or " : " (", formats[i].extensions[k]);
        append(out, size, ")", "");
    }
}

/* The format of the file whose first bytes are head[0, size): by content, then by name. */
static const RsSceneFormat* choose(const char* path, const char* head, size_t size, int* by_content)
{
    const RsSceneFormat* best = NULL;
    int best_score = 0;
    for (int i = 0; i < FORMAT_COUNT; ++i) {
        int score = formats[i].sniff(head, head + size);
        if (score > best_score || (score > 0 && score == best_score && !has_extension(path, best) &&
                                   has_extension(path, &formats[i]))) {
            best = &formats[i];
            best_score = score;
        }
    }
    *by_content = best != NULL;
    for (int i = 0; !best && i < FORMAT_COUNT; ++i)
        if (has_extension(path, &formats[i]))
            best = &formats[i];
    if (!best && skip_space(head, head + size) == head + size)
        best = &formats[0]; /* empty: the JSON loader says so, as it always has */
    return best;
}

int rs_scene_load(const char* path, const RsAccelOptions* accel, RsScene* scene, RsFileList* files_read,
                  RsError* err)
{
    RsSceneLoadOptions options = {accel, -1};
    return rs_scene_load_with(path, &options, scene, files_read, err);
}

int rs_scene_load_with(const char* path, const RsSceneLoadOptions* options, RsScene* scene, RsFileList* files_read,
                       RsError* err)
{
    static const RsSceneLoadOptions defaults = {NULL, -1};
    if (!options)
        options = &defaults;
    rs_scene_init(scene);
    char why[256];
    FILE* f = rs_file_open_regular(path, UINT64_MAX, NULL, why, sizeof why);
    if (!f)
        return rs_error_set(err, "%s: cannot open scene: %s", path, why);
    char* head = malloc(RS_SNIFF_BYTES);
    size_t size = head ? fread(head, 1, RS_SNIFF_BYTES, f) : 0;
    const char* failure = !head ? "out of memory" : ferror(f) ? "read error" : NULL;
    fclose(f);
    int by_content = 0;
    const RsSceneFormat* format = failure ? NULL : choose(path, head, size, &by_content);
    free(head);
    if (failure)
        return rs_error_set(err, "%s: cannot open scene: %s", path, failure);
    if (format && format->load && options->camera > 0 && !picks_camera(format))
        return rs_error_set(err, "%s: --camera %d: a %s has one camera (--camera chooses among a glTF file's "
                            "cameras); leave the option out", path, (int)options->camera, format->name);
    if (format && format->load)
        return format->load(path, options, scene, files_read, err);
    char readable[512];
    readable_formats(readable, sizeof readable);
    if (!format)
        return rs_error_set(err, "%s: not a scene raystream can read; raystream reads: %s", path, readable);
    if (by_content)
        return rs_error_set(err, "%s: this is a %s, which raystream cannot read yet; raystream reads: %s", path,
                            format->name, readable);
    return rs_error_set(err, "%s: named as a %s (%s), which raystream cannot read yet; raystream reads: %s", path,
                        format->name, format->extensions[0], readable);
}
