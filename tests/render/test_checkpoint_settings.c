/* test_checkpoint_settings.c - the list of what changes an image (host/render/image_settings.h)
 * and checkpoint format 4, which stores it (checkpoint.h). Host C11, render suite.
 *
 * Checks: the text form reads back exactly, names and values with tabs, newlines, backslashes
 * and control bytes included, and malformed text is refused; a difference is found whatever
 * the order, in the class asked for only, and worded with the entry's name; a list made from a
 * scene and a frame changes with each of sampler, light sampler, threshold and min spp; a
 * checkpoint resumes with its own list, gives that list back, accepts a rounding-only difference
 * and refuses an image difference (another light sampler, another input file) naming it; formats
 * 2 and 3 are refused as another estimator's.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/render/checkpoint.h"
#include "host/render/wavefront.h"
#include "kernel/light/light_select.h"
#include "kernel/sampling/sampler.h"
#include "tests/test.h"

static void add(RsImageSettings* s, uint32_t cls, const char* name, const char* value)
{
    RsError err = {{0}};
    CHECK(rs_image_settings_add(s, cls, name, value, &err) == 0, "%s", err.message);
}

static void test_text(void)
{
    RsImageSettings s = {0}, back = {0};
    add(&s, RS_SETTING_IMAGE, "sampler", "sobol");
    add(&s, RS_SETTING_ROUNDING, "accel", "bvh8");
    add(&s, RS_SETTING_JOB, "spp", "64");
    add(&s, RS_SETTING_IMAGE, "file:odd\tname\nwith\\slash\x01and\x7f", "va\tl\\ue\n");
    add(&s, RS_SETTING_IMAGE, "file:caf\xc3\xa9.png", "");
    add(&s, RS_SETTING_IMAGE, "sampler", "independent"); /* replaces */
    CHECK(s.count == 5, "%zu entries", s.count);
    size_t bytes = 0;
    char* text = rs_image_settings_text(&s, &bytes);
    CHECK(text && strlen(text) == bytes, "text form");
    size_t lines = 0;
    for (size_t i = 0; i < bytes; ++i)
        lines += text[i] == '\n';
    CHECK(lines == 5, "%zu lines for 5 entries: escapes keep one entry a line", lines);
    RsError err = {{0}};
    CHECK(rs_image_settings_parse(&back, text, bytes, &err) == 0, "%s", err.message);
    CHECK(back.count == s.count, "%zu entries read back of %zu", back.count, s.count);
    for (size_t i = 0; i < s.count && i < back.count; ++i) {
        CHECK(strcmp(s.entries[i].name, back.entries[i].name) == 0, "name %zu", i);
        CHECK(strcmp(s.entries[i].value, back.entries[i].value) == 0, "value %zu", i);
        CHECK(s.entries[i].cls == back.entries[i].cls, "class %zu", i);
    }
    RsSettingDiff d;
    CHECK(!rs_image_settings_diff(&s, &back, RS_SETTING_ALL, &d), "a list differs from its own text: %s", d.name);
    free(text);
    rs_image_settings_free(&back);

    const char* bad[] = {"image\tsampler\n", "image\tsampler\tsobol", "colour\tsampler\tsobol\n",
                         "image\t\tsobol\n", "image\tsampler\tso\\qbol\n", "image\tsampler\tsobol\\\n",
                         "image\tsampler\tsobol\nimage\tsampler\tsobol\n", "image\tsam\x01pler\tsobol\n",
                         "image\tsampler\t\\x00\n"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        RsImageSettings t = {0};
        RsError e = {{0}};
        CHECK(rs_image_settings_parse(&t, bad[i], strlen(bad[i]), &e) != 0 && e.message[0],
              "malformed text %zu accepted", i);
        rs_image_settings_free(&t);
    }
    rs_image_settings_free(&s);
}

static void test_diff(void)
{
    RsImageSettings a = {0}, b = {0};
    add(&a, RS_SETTING_IMAGE, "seed", "1");
    add(&a, RS_SETTING_ROUNDING, "accel", "bvh8");
    add(&a, RS_SETTING_IMAGE, "sampler", "independent");
    add(&b, RS_SETTING_IMAGE, "sampler", "sobol");
    add(&b, RS_SETTING_ROUNDING, "accel", "bvh2");
    add(&b, RS_SETTING_IMAGE, "seed", "1");
    RsSettingDiff d;
    CHECK(rs_image_settings_diff(&a, &b, RS_SETTING_IMAGE, &d) == 1 && strcmp(d.name, "sampler") == 0,
          "the sampler's difference");
    char words[256];
    rs_setting_diff_text(&d, "made with", "this render uses", words, sizeof words);
    CHECK(strcmp(words, "made with sampler independent; this render uses sobol") == 0, "%s", words);
    CHECK(rs_image_settings_diff(&a, &b, RS_SETTING_ROUNDING, &d) == 1 && strcmp(d.name, "accel") == 0, "accel");
    CHECK(rs_image_settings_diff(&a, &b, RS_SETTING_JOB, &d) == 0, "no job entries, no difference");
    add(&b, RS_SETTING_IMAGE, "sampler", "independent");
    CHECK(rs_image_settings_diff(&a, &b, RS_SETTING_IMAGE, &d) == 0, "the same image entries in another order");
    add(&a, RS_SETTING_IMAGE, "file:textures/a.png", "00000000000000aa");
    CHECK(rs_image_settings_diff(&a, &b, RS_SETTING_IMAGE, &d) == 1 && d.ours == NULL, "an input only one has");
    rs_setting_diff_text(&d, "rank 0 uses", "this rank uses", words, sizeof words);
    CHECK(strstr(words, "textures/a.png") != NULL, "%s", words);
    add(&b, RS_SETTING_IMAGE, "file:textures/a.png", "00000000000000bb");
    CHECK(rs_image_settings_diff(&a, &b, RS_SETTING_IMAGE, &d) == 1, "another input's content");
    rs_setting_diff_text(&d, "made with", "this render uses", words, sizeof words);
    CHECK(strstr(words, "made with a different textures/a.png") != NULL, "%s", words);
    rs_image_settings_free(&a);
    rs_image_settings_free(&b);
}

/* A list from a built scene, with the render settings changed by `edit`. */
static void describe(RsScene* scene, RsRenderDesc rd, RsImageSettings* out)
{
    scene->render = rd;
    RsFrameDesc frame = rs_frame_from_scene(scene, rd.width, rd.height, rd.max_depth, rd.integrator, rd.seed);
    RsError err = {{0}};
    CHECK(rs_image_settings_describe(out, scene, &frame, "cpu", 1, rd.spp, &err) == 0, "%s", err.message);
}

static void test_describe(RsScene* scene)
{
    RsRenderDesc base = scene->render;
    RsImageSettings ref = {0};
    describe(scene, base, &ref);
    struct {
        const char* entry;
        RsRenderDesc rd;
    } cases[5];
    for (int i = 0; i < 5; ++i)
        cases[i].rd = base;
    cases[0].entry = "sampler";
    cases[0].rd.sampler = base.sampler == RS_SAMPLER_SOBOL ? RS_SAMPLER_INDEPENDENT : RS_SAMPLER_SOBOL;
    cases[1].entry = "light_sampler";
    cases[1].rd.light_sampler = base.light_sampler == RS_LIGHT_SELECT_POWER ? 1u : RS_LIGHT_SELECT_POWER;
    cases[2].entry = "noise_threshold";
    cases[2].rd.noise_threshold = base.noise_threshold + 0.01f;
    cases[3].entry = "min_spp";
    cases[3].rd.min_spp = base.min_spp + 1;
    cases[4].entry = "seed";
    cases[4].rd.seed = base.seed + 1;
    for (int i = 0; i < 5; ++i) {
        RsImageSettings s = {0};
        describe(scene, cases[i].rd, &s);
        RsSettingDiff d;
        CHECK(rs_image_settings_diff(&ref, &s, RS_SETTING_IMAGE, &d) == 1 && strcmp(d.name, cases[i].entry) == 0,
              "changing %s", cases[i].entry);
        rs_image_settings_free(&s);
    }
    const RsImageSetting* t = rs_image_settings_find(&ref, "noise_threshold");
    scene->render = base;
    RsRenderDesc rd = base;
    rd.noise_threshold = 0.01f;
    RsImageSettings s = {0};
    describe(scene, rd, &s);
    t = rs_image_settings_find(&s, "noise_threshold");
    CHECK(t && strcmp(t->value, "0.01") == 0, "threshold 0.01 written as %s", t ? t->value : "nothing");
    scene->render = base;
    rs_image_settings_free(&s);
    /* the grid has no spatial splits or SAH bins to record; a BVH has both */
    const RsImageSetting* splits = rs_image_settings_find(&ref, "spatial_splits");
    CHECK(scene->accel_options.kind == RS_ACCEL_GRID || (splits && strcmp(splits->value, "n/a") != 0),
          "a BVH's spatial splits recorded as %s", splits ? splits->value : "nothing");
    RsAccelKind kind = scene->accel_options.kind;
    scene->accel_options.kind = RS_ACCEL_GRID;
    RsImageSettings grid = {0};
    describe(scene, base, &grid);
    splits = rs_image_settings_find(&grid, "spatial_splits");
    const RsImageSetting* bins = rs_image_settings_find(&grid, "sah_bins");
    CHECK(splits && strcmp(splits->value, "n/a") == 0 && bins && strcmp(bins->value, "n/a") == 0,
          "a grid's spatial splits and SAH bins recorded as %s and %s", splits ? splits->value : "nothing",
          bins ? bins->value : "nothing");
    scene->accel_options.kind = kind;
    rs_image_settings_free(&grid);
    rs_image_settings_free(&ref);
}

static void test_checkpoint(void)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/rs-test-ckset-%ld", (long)getpid());
    RsCheckpointHeader h;
    rs_checkpoint_header_init(&h);
    h.width = 3;
    h.height = 2;
    h.paths_done = 6;
    h.nonfinite_paths = 3; /* a resumed render reports the whole count (render.c) */
    RsFloat4 film[6];
    for (int i = 0; i < 6; ++i)
        film[i] = rs_float4(0.1f * (float)i, 0.2f, 0.3f, 1.0f);
    RsImageSettings made = {0};
    add(&made, RS_SETTING_IMAGE, "light_sampler", "power");
    add(&made, RS_SETTING_IMAGE, "file:textures/a.png", "00000000000000aa");
    add(&made, RS_SETTING_ROUNDING, "accel", "bvh8");
    add(&made, RS_SETTING_JOB, "spp", "1");
    RsError err = {{0}};
    CHECK(rs_checkpoint_save(path, &h, &made, film, &err) == 0, "%s", err.message);

    RsCheckpointHeader got;
    RsImageSettings back = {0};
    RsFloat4* loaded = NULL;
    RsImageSettings now = {0};
    add(&now, RS_SETTING_IMAGE, "light_sampler", "power");
    add(&now, RS_SETTING_IMAGE, "file:textures/a.png", "00000000000000aa");
    add(&now, RS_SETTING_ROUNDING, "accel", "bvh2"); /* rounding only: resumed */
    add(&now, RS_SETTING_JOB, "spp", "8");           /* a resume continues to more samples */
    CHECK(rs_checkpoint_load(path, &h, &now, &got, &back, &loaded, &err) == 0, "%s", err.message);
    CHECK(loaded && memcmp(loaded, film, sizeof film) == 0, "the film read back");
    CHECK(got.paths_done == 6 && got.nonfinite_paths == 3 && back.count == made.count, "header and settings read back");
    RsSettingDiff d;
    CHECK(rs_image_settings_diff(&back, &made, RS_SETTING_ALL, &d) == 0, "the settings read back differ");
    free(loaded);
    rs_image_settings_free(&back);

    add(&now, RS_SETTING_IMAGE, "light_sampler", "tree");
    rs_error_clear(&err);
    CHECK(rs_checkpoint_load(path, &h, &now, &got, &back, &loaded, &err) != 0 && !loaded && back.count == 0,
          "another light sampler resumed");
    CHECK(strstr(err.message, "made with light_sampler power; this render uses tree"), "%s", err.message);
    add(&now, RS_SETTING_IMAGE, "light_sampler", "power");
    add(&now, RS_SETTING_IMAGE, "file:textures/a.png", "00000000000000ab");
    rs_error_clear(&err);
    CHECK(rs_checkpoint_load(path, &h, &now, &got, NULL, &loaded, &err) != 0, "another texture resumed");
    CHECK(strstr(err.message, "made with a different textures/a.png"), "%s", err.message);
    add(&now, RS_SETTING_IMAGE, "file:textures/a.png", "00000000000000aa");
    add(&now, RS_SETTING_IMAGE, "file:textures/b.png", "00000000000000bb");
    rs_error_clear(&err);
    CHECK(rs_checkpoint_load(path, &h, &now, &got, NULL, &loaded, &err) != 0, "a render reading another input");
    CHECK(strstr(err.message, "textures/b.png"), "%s", err.message);

    /* formats 2 and 3: the header's version field rewritten */
    for (uint32_t version = 2; version <= 3; ++version) {
        FILE* f = fopen(path, "r+b");
        CHECK(f && fseek(f, 8, SEEK_SET) == 0 && fwrite(&version, 4, 1, f) == 1, "rewriting the version");
        if (f)
            fclose(f);
        rs_error_clear(&err);
        CHECK(rs_checkpoint_load(path, &h, &made, &got, NULL, &loaded, &err) != 0, "format %u resumed", version);
        CHECK(strstr(err.message, "estimator changed"), "format %u: %s", version, err.message);
    }
    unlink(path);
    rs_image_settings_free(&made);
    rs_image_settings_free(&now);
}

int main(void)
{
    test_text();
    test_diff();
    RsScene scene;
    rs_scene_init(&scene);
    RsError err = {{0}};
    uint32_t m = (uint32_t)rs_scene_add_material(&scene, "light", rs_material_make(RS_MAT_DIFFUSE, rs_vec3(0.5f, 0.5f, 0.5f), rs_vec3(1.0f, 1.0f, 1.0f), 1.5f, 0), &err);
    CHECK(rs_scene_add_sphere(&scene, rs_vec3(0.0f, 0.0f, -3.0f), 1.0f, m, &err) == 0, "%s", err.message);
    CHECK(rs_scene_build(&scene, &err) == 0, "%s", err.message);
    test_describe(&scene);
    rs_scene_free(&scene);
    test_checkpoint();
    return rs_test_finish("test_checkpoint_settings");
}
