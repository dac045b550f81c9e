/* image_settings.c - the list of what changes an image (see image_settings.h). Host C11. */
#define _POSIX_C_SOURCE 200809L
#include "host/render/image_settings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/io/file_hash.h"
#include "host/scene/settings.h"
#include "host/util/array.h"

static const char* class_name(uint32_t cls)
{
    return cls == RS_SETTING_IMAGE ? "image" : cls == RS_SETTING_ROUNDING ? "rounding" : "job";
}

static int class_parse(const char* name, size_t len, uint32_t* cls)
{
    static const uint32_t classes[] = {RS_SETTING_IMAGE, RS_SETTING_ROUNDING, RS_SETTING_JOB};
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; ++i)
        if (strlen(class_name(classes[i])) == len && strncmp(name, class_name(classes[i]), len) == 0) {
            *cls = classes[i];
            return 0;
        }
    return -1;
}

int rs_image_settings_add(RsImageSettings* s, uint32_t cls, const char* name, const char* value, RsError* err)
{
    char* n = strdup(name);
    char* v = strdup(value);
    if (!n || !v) {
        free(n);
        free(v);
        return rs_error_set(err, "out of memory listing the render's settings");
    }
    int32_t at = s->count ? rs_name_index_find(&s->index, s->names, name) : -1;
    if (at >= 0) {
        free(s->entries[at].name);
        free(s->entries[at].value);
        s->entries[at] = (RsImageSetting){cls, n, v};
        s->names[at] = n; /* the same text: the index's hash still holds */
        return 0;
    }
    if (s->count >= 0x7fffffffu ||
        rs_array_reserve_raw((void**)&s->entries, &s->capacity, s->count, 1, sizeof *s->entries, err) ||
        rs_array_reserve_raw((void**)&s->names, &s->names_capacity, s->count, 1, sizeof *s->names, err)) {
        free(n);
        free(v);
        return err->message[0] ? -1 : rs_error_set(err, "too many settings");
    }
    s->entries[s->count] = (RsImageSetting){cls, n, v};
    s->names[s->count] = n;
    if (rs_name_index_add(&s->index, s->names, (uint32_t)s->count, err)) {
        free(n);
        free(v);
        return -1;
    }
    s->count++;
    return 0;
}

void rs_image_settings_free(RsImageSettings* s)
{
    for (size_t i = 0; i < s->count; ++i) {
        free(s->entries[i].name);
        free(s->entries[i].value);
    }
    free(s->entries);
    free(s->names);
    rs_name_index_free(&s->index);
    memset(s, 0, sizeof *s);
}

const RsImageSetting* rs_image_settings_find(const RsImageSettings* s, const char* name)
{
    int32_t at = s->count ? rs_name_index_find(&s->index, s->names, name) : -1;
    return at >= 0 ? &s->entries[at] : NULL;
}

/* The shortest decimal that reads back as the same float: 0.01, not 0.00999999978. */
static void float_text(float f, char* out, size_t size)
{
    for (int digits = 1; digits <= 9; ++digits) {
        snprintf(out, size, "%.*g", digits, (double)f);
        if (strtof(out, NULL) == f)
            return;
    }
}

int rs_image_settings_describe(RsImageSettings* s, const RsScene* scene, const RsFrameDesc* frame,
                               const char* backend, uint32_t film_planes, uint32_t spp, RsError* err)
{
    char v[64];
    int status = 0;
#define ADD(cls, name, ...) (snprintf(v, sizeof v, __VA_ARGS__), status |= rs_image_settings_add(s, cls, name, v, err))
    ADD(RS_SETTING_IMAGE, "size", "%ux%u", frame->width, frame->height);
    ADD(RS_SETTING_IMAGE, "seed", "%u", frame->seed);
    ADD(RS_SETTING_IMAGE, "max_depth", "%u", frame->max_depth);
    ADD(RS_SETTING_IMAGE, "integrator", "%s", rs_integrator_name(frame->integrator));
    ADD(RS_SETTING_IMAGE, "rr_depth", "%u", frame->rr_depth);
    ADD(RS_SETTING_IMAGE, "sampler", "%s", rs_sampler_name(frame->sampler));
    ADD(RS_SETTING_IMAGE, "light_sampler", "%s", rs_light_sampler_name(scene->render.light_sampler));
    char threshold[32];
    float_text(frame->noise_threshold, threshold, sizeof threshold);
    ADD(RS_SETTING_IMAGE, "noise_threshold", "%s", threshold);
    ADD(RS_SETTING_IMAGE, "min_spp", "%u", frame->min_spp);
    if (frame->integrator == RS_INTEGRATOR_SPPM) { /* what only SPPM's image depends on */
        char radius[32], alpha[32];
        float_text(frame->sppm_radius, radius, sizeof radius);
        float_text(frame->sppm_alpha, alpha, sizeof alpha);
        ADD(RS_SETTING_IMAGE, "photons_per_pass", "%u", frame->photons_per_pass);
        ADD(RS_SETTING_IMAGE, "sppm_radius", "%s", radius);
        ADD(RS_SETTING_IMAGE, "sppm_alpha", "%s", alpha);
    }
    ADD(RS_SETTING_ROUNDING, "backend", "%s", backend);
    ADD(RS_SETTING_ROUNDING, "accel", "%s", rs_accel_name(scene->accel_options.kind));
    if (scene->accel_options.kind == RS_ACCEL_GRID) { /* a grid has neither */
        ADD(RS_SETTING_ROUNDING, "spatial_splits", "%s", "n/a");
        ADD(RS_SETTING_ROUNDING, "sah_bins", "%s", "n/a");
        ADD(RS_SETTING_ROUNDING, "camera_tree", "%s", "n/a");
    } else {
        ADD(RS_SETTING_ROUNDING, "spatial_splits", "%s", scene->accel_options.spatial_splits ? "on" : "off");
        ADD(RS_SETTING_ROUNDING, "sah_bins", "%u",
            scene->accel_options.bins ? scene->accel_options.bins : RS_ACCEL_DEFAULT_BINS);
        /* bvh8's binary tree, which camera rays walk (bvh2 ignores the option): the same hits,
         * except where two triangles tie at one distance (a shared edge), which the two walks may
         * order differently */
        ADD(RS_SETTING_ROUNDING, "camera_tree", "%s", scene->accel_options.camera_tree ? "on" : "off");
    }
    ADD(RS_SETTING_JOB, "spp", "%u", spp);
    ADD(RS_SETTING_JOB, "film_planes", "%u", film_planes);
#undef ADD
    return status ? -1 : 0;
}

int rs_image_settings_add_files(RsImageSettings* s, const char* scene_path, const RsFileList* files, RsError* err)
{
    const char* slash = strrchr(scene_path, '/');
    size_t folder = slash ? (size_t)(slash - scene_path) + 1 : 0;
    /* the scene file first, whether or not its loader listed it */
    for (size_t i = 0; i <= files->count; ++i) {
        const char* path = i == 0 ? scene_path : files->paths[i - 1];
        if (i > 0 && strcmp(path, scene_path) == 0)
            continue;
        uint64_t hash = 0;
        if (rs_file_hash64(path, &hash))
            return rs_error_set(err, "%s: cannot read it again to fingerprint the render", path);
        char value[32];
        snprintf(value, sizeof value, "%016llx", (unsigned long long)hash);
        if (i == 0) {
            if (rs_image_settings_add(s, RS_SETTING_IMAGE, RS_SETTING_SCENE, value, err))
                return -1;
            continue;
        }
        const char* rel = folder && strncmp(path, scene_path, folder) == 0 ? path + folder : path;
        size_t n = sizeof RS_SETTING_FILE_PREFIX + strlen(rel);
        char* name = malloc(n);
        if (!name)
            return rs_error_set(err, "out of memory listing the render's files");
        snprintf(name, n, "%s%s", RS_SETTING_FILE_PREFIX, rel);
        int failed = rs_image_settings_add(s, RS_SETTING_IMAGE, name, value, err);
        free(name);
        if (failed)
            return -1;
    }
    return 0;
}

/* ---- the text form ---- */

/* Appends `text` escaped; with out NULL only counts. */
static size_t escape(const char* text, char* out)
{
    size_t n = 0;
    for (const unsigned char* p = (const unsigned char*)text; *p; ++p) {
        char buf[8];
        size_t k;
        if (*p == '\\')
            k = (size_t)snprintf(buf, sizeof buf, "\\\\");
        else if (*p == '\t')
            k = (size_t)snprintf(buf, sizeof buf, "\\t");
        else if (*p == '\n')
            k = (size_t)snprintf(buf, sizeof buf, "\\n");
        else if (*p < 0x20 || *p == 0x7f)
            k = (size_t)snprintf(buf, sizeof buf, "\\x%02x", *p);
        else
            buf[0] = (char)*p, k = 1;
        if (out)
            memcpy(out + n, buf, k);
        n += k;
    }
    return n;
}

char* rs_image_settings_text(const RsImageSettings* s, size_t* bytes)
{
    size_t n = 0;
    for (size_t i = 0; i < s->count; ++i)
        n += strlen(class_name(s->entries[i].cls)) + 1 + escape(s->entries[i].name, NULL) + 1 +
             escape(s->entries[i].value, NULL) + 1;
    char* text = malloc(n + 1);
    if (!text)
        return NULL;
    size_t at = 0;
    for (size_t i = 0; i < s->count; ++i) {
        const char* c = class_name(s->entries[i].cls);
        memcpy(text + at, c, strlen(c));
        at += strlen(c);
        text[at++] = '\t';
        at += escape(s->entries[i].name, text + at);
        text[at++] = '\t';
        at += escape(s->entries[i].value, text + at);
        text[at++] = '\n';
    }
    text[at] = '\0';
    *bytes = at;
    return text;
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Unescapes field [p, end) into a new string; NULL when malformed (or out of memory). */
static char* unescape(const char* p, const char* end)
{
    char* out = malloc((size_t)(end - p) + 1);
    if (!out)
        return NULL;
    size_t n = 0;
    int bad = 0;
    while (p < end && !bad) {
        char c = *p++;
        if ((unsigned char)c < 0x20 || c == 0x7f) {
            bad = 1; /* raw control bytes are never written */
        } else if (c != '\\') {
            out[n++] = c;
        } else if (p < end && (*p == '\\' || *p == 't' || *p == 'n')) {
            out[n++] = *p == 't' ? '\t' : *p == 'n' ? '\n' : '\\';
            ++p;
        } else if (end - p >= 3 && p[0] == 'x' && hex_digit(p[1]) >= 0 && hex_digit(p[2]) >= 0 &&
                   hex_digit(p[1]) * 16 + hex_digit(p[2]) != 0) {
            out[n++] = (char)(hex_digit(p[1]) * 16 + hex_digit(p[2]));
            p += 3;
        } else {
            bad = 1;
        }
    }
    if (bad) {
        free(out);
        return NULL;
    }
    out[n] = '\0';
    return out;
}

int rs_image_settings_parse(RsImageSettings* s, const char* text, size_t bytes, RsError* err)
{
    const char* p = text;
    const char* end = text + bytes;
    size_t line = 0;
    while (p < end) {
        ++line;
        const char* eol = memchr(p, '\n', (size_t)(end - p));
        const char* tab1 = eol ? memchr(p, '\t', (size_t)(eol - p)) : NULL;
        const char* tab2 = tab1 ? memchr(tab1 + 1, '\t', (size_t)(eol - tab1 - 1)) : NULL;
        uint32_t cls = 0;
        if (!tab2 || class_parse(p, (size_t)(tab1 - p), &cls))
            return rs_error_set(err, "settings line %zu is malformed", line);
        char* name = unescape(tab1 + 1, tab2);
        char* value = unescape(tab2 + 1, eol);
        int status = !name || !value || !name[0] || rs_image_settings_find(s, name)
                         ? rs_error_set(err, "settings line %zu is malformed", line)
                         : rs_image_settings_add(s, cls, name, value, err);
        free(name);
        free(value);
        if (status)
            return -1;
        p = eol + 1;
    }
    return 0;
}

/* ---- comparing ---- */

int rs_image_settings_diff(const RsImageSettings* theirs, const RsImageSettings* ours, uint32_t classes,
                           RsSettingDiff* d)
{
    for (size_t i = 0; i < ours->count; ++i) {
        const RsImageSetting* o = &ours->entries[i];
        if (!(o->cls & classes))
            continue;
        const RsImageSetting* t = rs_image_settings_find(theirs, o->name);
        if (!t || strcmp(t->value, o->value) != 0) {
            *d = (RsSettingDiff){o->cls, o->name, t ? t->value : NULL, o->value};
            return 1;
        }
    }
    for (size_t i = 0; i < theirs->count; ++i) {
        const RsImageSetting* t = &theirs->entries[i];
        if ((t->cls & classes) && !rs_image_settings_find(ours, t->name)) {
            *d = (RsSettingDiff){t->cls, t->name, t->value, NULL};
            return 1;
        }
    }
    return 0;
}

void rs_setting_diff_text(const RsSettingDiff* d, const char* made, const char* uses, char* out, size_t size)
{
    size_t prefix = strlen(RS_SETTING_FILE_PREFIX);
    int file = strncmp(d->name, RS_SETTING_FILE_PREFIX, prefix) == 0;
    const char* what = file ? d->name + prefix : d->name;
    if (strcmp(d->name, RS_SETTING_SCENE) == 0 && d->theirs && d->ours)
        snprintf(out, size, "%s a different scene file (content hash %s; %s %s)", made, d->theirs, uses, d->ours);
    else if (file && d->theirs && d->ours)
        snprintf(out, size, "%s a different %s (content hash %s; %s %s)", made, what, d->theirs, uses, d->ours);
    else if (file)
        snprintf(out, size, d->theirs ? "%s the input %s; %s no such input" : "%s no input %s; %s it", made, what,
                 uses);
    else if (d->theirs && d->ours)
        snprintf(out, size, "%s %s %s; %s %s", made, what, d->theirs, uses, d->ours);
    else if (d->theirs)
        snprintf(out, size, "%s %s %s; %s no %s", made, what, d->theirs, uses, what);
    else
        snprintf(out, size, "%s no %s; %s %s %s", made, what, uses, what, d->ours);
}
