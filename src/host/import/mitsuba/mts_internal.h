/* mts_internal.h - what the pieces of the Mitsuba 3 XML importer share: the element tree (every
 * element with its file and line), the loading context, and each piece's entry points.
 *
 * Host C11; only src/host/import/mitsuba/ includes it. The pieces, each with one job:
 *   mts_xml.c        XML text -> element tree, through expat (line numbers, limits)
 *   mts_resolve.c    <default>, $name substitution, <include>, ids and <ref>
 *   mts_props.c      property values: numbers, booleans, strings, points, colours
 *   mts_transform.c  <transform>: lookat, matrix, rotate, scale, translate, in order
 *   mts_spectrum.c   spectra and blackbodies -> linear sRGB (the CIE tables: mts_tables.c)
 *   mts_sensor.c     sensor, film, sampler, integrator
 *   mts_bsdf.c       BSDFs and textures -> materials
 *   mts_emitter.c    emitters
 *   mts_shape.c      shapes, shapegroups and instances
 *   mts_serialized.c Mitsuba's .serialized meshes, through zlib
 *   mitsuba_loader.c the loader: the walk over the scene
 */
#ifndef RS_HOST_MTS_INTERNAL_H
#define RS_HOST_MTS_INTERNAL_H

#include <stdint.h>

#include "host/scene/scene.h"
#include "host/util/array.h"
#include "host/util/file_list.h"
#include "host/util/name_index.h"

#define RS_MTS_MAX_INCLUDE_DEPTH 32
#define RS_MTS_MAX_SUBSTITUTION_DEPTH 16 /* a $name whose value names another, and so on */
#define RS_MTS_MAX_ELEMENTS 4000000      /* over every file of a scene */
#define RS_MTS_MAX_NESTING 256           /* elements inside elements */
#define RS_MTS_MAX_VALUE_BYTES 65536     /* one attribute after substitution */
#define RS_MTS_MAX_FILE_BYTES (512ull << 20)

typedef struct RsMtsAttr {
    char* name;
    char* value;
} RsMtsAttr;

typedef struct RsMtsNode {
    char* tag;
    RsMtsAttr* attrs;
    uint32_t attr_count;
    struct RsMtsNode** children;
    uint32_t child_count, child_capacity;
    const char* file; /* owned by the document (RsMtsDoc.files) */
    int line;
    int used;         /* a property read by its object; unread ones are warned about */
} RsMtsNode;

/* Every file read and every id declared, for the whole load. */
typedef struct RsMtsDoc {
    RS_ARRAY(char*) files;   /* paths as given, for messages; freed with the document */
    RS_ARRAY(char*) id_names;
    RS_ARRAY(RsMtsNode*) id_nodes;
    RsNameIndex id_index;
    RS_ARRAY(char*) param_names; /* <default> values, in the order declared */
    RS_ARRAY(char*) param_values;
    RsNameIndex param_index;
    uint64_t element_count;
} RsMtsDoc;

/* A material made for a BSDF element (and, for area lights, with an emission added). */
typedef struct RsMtsMaterial {
    const RsMtsNode* bsdf; /* NULL: the default diffuse */
    const RsMtsNode* emitter;
    int32_t index;
} RsMtsMaterial;

/* A shapegroup made into an object. */
typedef struct RsMtsGroup {
    const RsMtsNode* node;
    uint32_t object;
} RsMtsGroup;

typedef struct RsMts {
    RsScene* scene;
    RsError* err;
    RsFileList* files;
    RsMtsDoc doc;
    RsMtsNode* root;
    RS_ARRAY(RsMtsMaterial) materials;
    RS_ARRAY(RsMtsGroup) groups;
    RS_ARRAY(char*) search; /* Mitsuba's file resolver: the scene's folder, then each <path>, newest last */
    uint32_t unnamed; /* counter for names of materials without an id */
    /* Applied to everything placed in the world (shapes, instances, sensor, emitters): a
     * rotation that turns an environment map's to_world into a turn about +y, the only one
     * raystream's maps take, so the image is the same (mitsuba_loader.c); identity otherwise. */
    RsTransform world;
    int have_sensor, have_light;
    int warned_one_sided;
} RsMts;

/* ---- mts_xml.c ---- */
/* Parses `path` into a tree (root: *out). `display` is the path as messages name it. */
int rs_mts_parse_file(RsMts* m, const char* path, RsMtsNode** out);
int rs_mts_parse_text(RsMts* m, const char* file, const char* text, size_t size, RsMtsNode** out);
void rs_mts_node_free(RsMtsNode* node);
const char* rs_mts_attr(const RsMtsNode* node, const char* name);
int rs_mts_node_add_child(RsMtsNode* parent, RsMtsNode* child, RsError* err);
void rs_mts_doc_free(RsMtsDoc* doc);

/* ---- mts_resolve.c ---- */
/* Substitutes, expands includes and registers ids over the whole tree. */
int rs_mts_resolve(RsMts* m, RsMtsNode* root, const char* path);
/* A <ref id=...> element's target (errors name the ref); other elements are returned as is. */
RsMtsNode* rs_mts_deref(RsMts* m, RsMtsNode* node);

/* ---- messages ---- */
int rs_mts_fail(RsMts* m, const RsMtsNode* node, const char* fmt, ...) __attribute__((format(printf, 3, 4)));
void rs_mts_warn(RsMts* m, const RsMtsNode* node, const char* fmt, ...) __attribute__((format(printf, 3, 4)));

/* The message a library call has set, again with node's file and line and the plugin before it. */
int rs_mts_rethrow(RsMts* m, const RsMtsNode* node, const char* plugin);

/* ---- mts_props.c ---- */
/* The child of `obj` named `name` (the value of its name attribute; a <ref name=...> is
 * followed), marked used; NULL if none. */
RsMtsNode* rs_mts_child(RsMts* m, RsMtsNode* obj, const char* name);
/* Child objects of a tag (bsdf, emitter, ...) without a name, or with any name: marked used. */
int rs_mts_parse_number(RsMts* m, const RsMtsNode* node, const char* what, const char* text, double* out);
/* Each returns 0 with *out unchanged if absent, -1 (err set) if malformed. */
int rs_mts_get_float(RsMts* m, RsMtsNode* obj, const char* name, double* out);
int rs_mts_get_int(RsMts* m, RsMtsNode* obj, const char* name, int64_t* out);
int rs_mts_get_bool(RsMts* m, RsMtsNode* obj, const char* name, int* out);
int rs_mts_get_string(RsMts* m, RsMtsNode* obj, const char* name, const char** out);
int rs_mts_get_point(RsMts* m, RsMtsNode* obj, const char* name, RsVec3* out);
/* A colour from <rgb>, <spectrum>, <float> (grey) or a blackbody; `emitter`: Mitsuba's rules
 * for emission (unbounded, no D65 weighting) instead of reflectance. A texture child is an
 * error unless `texture` is non-NULL, which then receives it (and *out is unchanged). */
int rs_mts_get_colour(RsMts* m, RsMtsNode* obj, const char* name, int emitter, RsVec3* out, RsMtsNode** texture);
/* Whether every property of obj was read; warns naming each one that was not. */
void rs_mts_warn_unused(RsMts* m, RsMtsNode* obj, const char* plugin);
/* Up to max numbers separated by commas or spaces (count in *count). */
int rs_mts_read_list(RsMts* m, const RsMtsNode* node, const char* what, const char* text, double* out, int max,
                     int* count);
/* Reads a vector of 3 from attributes x, y, z (defaults d) or value="a, b, c". */
int rs_mts_read_xyz(RsMts* m, const RsMtsNode* node, double d, RsVec3* out);

/* ---- mts_transform.c ---- */
/* The <transform name=...> child of obj (identity if absent), as a 3x4 affine matrix. */
int rs_mts_get_transform(RsMts* m, RsMtsNode* obj, const char* name, RsTransform* out);
double rs_mts_transform_det(const RsTransform* t);

/* ---- mts_spectrum.c ---- */
/* A spectrum's text ("0.5" or "400:0.1, 500:0.5, ...") -> linear sRGB. */
int rs_mts_spectrum_rgb(RsMts* m, const RsMtsNode* node, const char* text, int emitter, RsVec3* out);
/* Planck's radiance at temperature kelvin (scaled) -> linear sRGB, as Mitsuba's rgb variants. */
RsVec3 rs_mts_blackbody_rgb(double kelvin);
/* Tabulated (wavelength nm, value) pairs -> linear sRGB: d65 weights by illuminant D65 (Mitsuba's
 * rule for reflectances); bounded clamps to [0, 1]. */
RsVec3 rs_mts_spectrum_list_rgb(const double* wavelengths, const double* values, int count, int d65, int bounded);

/* ---- mts_tables.c (generated by tools/make_mitsuba_tables.py) ---- */
#define RS_MTS_CIE_MIN 360
#define RS_MTS_CIE_COUNT 471 /* 360..830 nm, 1 nm apart */
extern const float rs_mts_cie_xyz[RS_MTS_CIE_COUNT][3];
extern const float rs_mts_cie_d65[RS_MTS_CIE_COUNT];
typedef struct RsMtsConductor {
    const char* name;
    float eta[3], k[3];
} RsMtsConductor;
extern const RsMtsConductor rs_mts_conductors[];
typedef struct RsMtsIor {
    const char* name;
    float ior;
} RsMtsIor;
extern const RsMtsIor rs_mts_iors[];

/* ---- the plugins ---- */
int rs_mts_read_sensor(RsMts* m, RsMtsNode* node);
int rs_mts_read_integrator(RsMts* m, RsMtsNode* node);
/* The material of a shape with bsdf element `bsdf` (NULL: Mitsuba's default diffuse) and area
 * emitter `emitter` (or NULL). */
int32_t rs_mts_material(RsMts* m, RsMtsNode* bsdf, RsMtsNode* emitter);
int rs_mts_read_emitter(RsMts* m, RsMtsNode* node);
int rs_mts_read_shape(RsMts* m, RsMtsNode* node, int in_group);
/* Loads shape shape_index of a .serialized file with to_world xf; face_normals: flat shading. */
int rs_mts_load_serialized(RsMts* m, const RsMtsNode* node, const char* path, uint32_t shape_index,
                           const RsTransform* xf, int face_normals, int flip, uint32_t material);
/* Whether the material reads a texture at texture coordinates. */
int rs_mts_material_textured(const RsMts* m, uint32_t material);

/* The path of a file named in the scene, as Mitsuba's file resolver finds it: in the folders of
 * <path> elements (the latest first), then the main scene's folder, then the folder of the
 * file that names it; if it is in none, the main scene's folder (for the message). */
int rs_mts_resolve_path(RsMts* m, const RsMtsNode* node, const char* name, char* out, size_t out_size);
/* Adds a folder to the front of the search (a <path>, or the scene's own folder). */
int rs_mts_add_search_path(RsMts* m, const RsMtsNode* node, const char* folder);

#endif /* RS_HOST_MTS_INTERNAL_H */
