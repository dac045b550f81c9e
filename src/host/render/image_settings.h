/* image_settings.h - ONE list of everything that changes a rendered image, so that a checkpoint,
 * the MPI ranks of one job and an EXR's metadata all speak of the same things (issue 24, kind 5).
 *
 * Host C11. An entry is a name and a value, both text, in one of three classes:
 *   RS_SETTING_IMAGE     changes what a sample is: the scene file's and every input file's
 *                        content, size, seed, depth, integrator, Russian roulette's depth,
 *                        sampler, light sampler, noise threshold, minimum spp. A resume or a
 *                        rank that differs is refused.
 *   RS_SETTING_ROUNDING  the same estimator with other float rounding (and other tie-breaking
 *                        between surfaces at exactly the same distance): backend, acceleration
 *                        structure, spatial splits, SAH bins. The image stays correct, only not
 *                        bit-identical to one made without the change, so a difference is noted,
 *                        not refused (a checkpoint made on a GPU resumes on the CPU).
 *   RS_SETTING_JOB       what the ranks of one job must share although a checkpoint need not:
 *                        spp (a resume continues to another), film planes (a checkpoint's own
 *                        rule: more planes than asked for are fine) and the program's build.
 * What is NOT on the list, and why, is the render command's table (src/app/render/
 * render_settings.c), checked against `render --help` by tests/app/test_render_settings.c.
 *
 * The text form (rs_image_settings_text) is one line per entry, "class<TAB>name<TAB>value\n",
 * with backslash, tab, newline and other control bytes escaped (\\, \t, \n, \xHH): what
 * checkpoints store and rank 0 broadcasts.
 */
#ifndef RS_HOST_IMAGE_SETTINGS_H
#define RS_HOST_IMAGE_SETTINGS_H

#include <stddef.h>
#include <stdint.h>

#include "host/backend/backend.h"
#include "host/scene/scene.h"
#include "host/util/error.h"
#include "host/util/file_list.h"
#include "host/util/name_index.h"

enum {
    RS_SETTING_IMAGE = 1u << 0,
    RS_SETTING_ROUNDING = 1u << 1,
    RS_SETTING_JOB = 1u << 2,
    RS_SETTING_ALL = 7u
};

/* Entry names of input files start with this ("file:textures/brick.png"); the scene file's is
 * RS_SETTING_SCENE. */
#define RS_SETTING_FILE_PREFIX "file:"
#define RS_SETTING_SCENE "scene"

typedef struct RsImageSetting {
    uint32_t cls; /* RS_SETTING_* (one bit) */
    char* name;
    char* value;
} RsImageSetting;

/* Start from RsImageSettings s = {0}. */
typedef struct RsImageSettings {
    RsImageSetting* entries;
    size_t count, capacity;
    char** names; /* entries[i].name, for the index: a scene may read thousands of files */
    size_t names_capacity;
    RsNameIndex index;
} RsImageSettings;

/* Adds an entry (names are unique: an entry of the same name is replaced). */
int rs_image_settings_add(RsImageSettings* s, uint32_t cls, const char* name, const char* value, RsError* err);
void rs_image_settings_free(RsImageSettings* s);
const RsImageSetting* rs_image_settings_find(const RsImageSettings* s, const char* name);

/* The settings of a render: the frame's (size, seed, depth, integrator, rr depth, sampler,
 * threshold, min spp), the scene's light sampler and acceleration options, and what the
 * caller knows (backend: "cpu" or "cuda"; film planes; spp). */
int rs_image_settings_describe(RsImageSettings* s, const RsScene* scene, const RsFrameDesc* frame,
                               const char* backend, uint32_t film_planes, uint32_t spp, RsError* err);

/* The content hash of the scene file (entry RS_SETTING_SCENE) and of every other file a scene
 * load read, named RS_SETTING_FILE_PREFIX + its path relative to the scene's folder, so that a
 * copied or moved scene folder keeps its names. A file that cannot be read is an error. */
int rs_image_settings_add_files(RsImageSettings* s, const char* scene_path, const RsFileList* files, RsError* err);

/* The text form (malloc'ed, NUL-terminated, *bytes without the NUL), or NULL when out of memory. */
char* rs_image_settings_text(const RsImageSettings* s, size_t* bytes);
/* Reads the text form back (into an empty list); a malformed line is an error. */
int rs_image_settings_parse(RsImageSettings* s, const char* text, size_t bytes, RsError* err);

/* The first difference between two lists among the entries of the classes asked for, by name
 * in `ours`' order, then entries only `theirs` has. Returns 1 and fills *d when they differ
 * (theirs or ours NULL: that side has no such entry), 0 when they agree. */
typedef struct RsSettingDiff {
    uint32_t cls;
    const char* name;
    const char* theirs;
    const char* ours;
} RsSettingDiff;
int rs_image_settings_diff(const RsImageSettings* theirs, const RsImageSettings* ours, uint32_t classes,
                           RsSettingDiff* d);

/* A difference in words, "made with sampler independent; this render uses sobol": `made` is how
 * the other side is named ("made with" for a checkpoint, "rank 0 uses" for a rank), `uses` ours
 * ("this render uses", "this rank uses"). Files are named as such ("textures/a.png has changed"). */
void rs_setting_diff_text(const RsSettingDiff* d, const char* made, const char* uses, char* out, size_t size);

#endif /* RS_HOST_IMAGE_SETTINGS_H */
