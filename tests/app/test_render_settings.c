/* test_render_settings.c - every option of `raystream render` is either on the list of what
 * changes an image (host/render/image_settings.h) or declared not to change it
 * (src/app/render/render_settings.c's table), and the declaration holds. Host C11, app suite.
 *
 * Walks `render --help` (rs_render_usage): each option it names must have a row in the table,
 * and each row must name an option of the help. Then, for each option, renders nothing but
 * prepares the render as render.c does (parse the command line, load the scene with the
 * options' acceleration structure, apply the overrides, make the frame and the film's planes)
 * and builds the settings list: an option said to feed entry E must change E for one of its
 * sample values; an option said not to change the image must leave the whole list as it was.
 * Argument: a scene (scenes/cornell.json).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/command_args.h"
#include "app/render/render_settings.h"
#include "host/import/scene_loader.h"
#include "host/render/wavefront.h"
#include "tests/test.h"

/* The list render.c would make for this command line (without input file hashes). */
static int settings_of(int argc, char** argv, RsImageSettings* out)
{
    RsRenderArgs a;
    if (rs_render_parse_args(argc, argv, &a) != 0)
        return -1;
    RsError err = {{0}};
    RsScene scene;
    RsAccelOptions accel = rs_common_accel(&a.opt);
    if (rs_scene_load(a.scene_path, &accel, &scene, NULL, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return -1;
    }
    RsRenderDesc rd = scene.render;
    rs_common_options_apply(&a.opt, &rd);
    scene.render = rd; /* what rs_scene_set_render records (without building another light selection) */
    RsFrameDesc frame = rs_frame_from_scene(&scene, rd.width, rd.height, rd.max_depth, rd.integrator, rd.seed);
    RsRendererConfig rc = rs_common_renderer_config(&a.opt);
    rc.backend.aovs = a.aovs != 0 || a.denoise;
    int status = rs_render_settings(&a, &scene, &frame, rs_film_planes(&rc.backend), rd.spp, NULL, out, &err);
    if (status)
        fprintf(stderr, "%s\n", err.message);
    rs_scene_free(&scene);
    return status;
}

/* Every distinct "--name" in the text, in order. */
static int options_in(const char* text, char names[][64], int max)
{
    int n = 0;
    for (const char* p = strstr(text, "--"); p; p = strstr(p + 2, "--")) {
        size_t len = 2;
        while ((p[len] >= 'a' && p[len] <= 'z') || p[len] == '-' || (p[len] >= '0' && p[len] <= '9'))
            ++len;
        if (len == 2 || len >= 64 || (p > text && p[-1] != ' ' && p[-1] != '(' && p[-1] != ','))
            continue;
        char name[64];
        memcpy(name, p, len);
        name[len] = '\0';
        int seen = 0;
        for (int i = 0; i < n; ++i)
            seen |= strcmp(names[i], name) == 0;
        if (!seen && n < max)
            memcpy(names[n++], name, len + 1);
    }
    return n;
}

int main(int argc, char** argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_render_settings SCENE.json\n");
        return 2;
    }
    FILE* null = fopen("/dev/null", "w");
    rs_cli_set_messages(null); /* the parser's messages for values a row gets wrong show as failures */
    char* help = NULL;
    size_t help_bytes = 0;
    FILE* f = open_memstream(&help, &help_bytes);
    rs_render_usage(f);
    fclose(f);
    char options[128][64];
    int count = options_in(help, options, 128);
    CHECK(count >= 30, "only %d options found in render --help", count);

    char out_path[] = "/tmp/rs-test-settings.exr";
    char* base_argv[] = {argv[1], "-o", out_path, NULL, NULL};
    RsImageSettings base = {0};
    CHECK(settings_of(3, base_argv, &base) == 0, "the base command line");
    for (const char* e[] = {"size", "seed", "sampler", "light_sampler", "noise_threshold", "min_spp", "integrator",
                            "max_depth", "rr_depth", "accel", "backend", "spp", "film_planes", "build"},
         **p = e;
         p < e + sizeof e / sizeof e[0]; ++p)
        CHECK(rs_image_settings_find(&base, *p), "the list has no entry '%s'", *p);

    for (int i = 0; i < count; ++i) {
        const char* option = options[i];
        const RsOptionEffect* effect = rs_render_option_effect(option);
        CHECK(effect, "render --help lists %s, which render_settings.c's table neither puts on the settings list "
                      "nor declares not to change the image", option);
        if (!effect)
            continue;
        CHECK(effect->setting || (effect->why && effect->why[0]), "%s: declared harmless without a reason", option);
        char samples[256];
        snprintf(samples, sizeof samples, "%s", effect->samples ? effect->samples : "");
        int changed = 0, tried = 0;
        char* save = NULL;
        for (char* v = effect->samples ? strtok_r(samples, "|", &save) : samples; v;
             v = effect->samples ? strtok_r(NULL, "|", &save) : NULL) {
            char* args[6] = {argv[1], "-o", out_path, (char*)option, v, NULL};
            RsImageSettings list = {0};
            int n = effect->samples ? 5 : 4;
            int status = settings_of(n, args, &list);
            CHECK(status == 0, "%s %s: the command line is refused", option, effect->samples ? v : "");
            ++tried;
            if (status == 0) {
                RsSettingDiff d;
                if (effect->setting) {
                    const RsImageSetting* was = rs_image_settings_find(&base, effect->setting);
                    const RsImageSetting* now = rs_image_settings_find(&list, effect->setting);
                    CHECK(was && now, "%s: the list has no entry '%s'", option, effect->setting);
                    changed |= was && now && strcmp(was->value, now->value) != 0;
                } else {
                    CHECK(!rs_image_settings_diff(&base, &list, RS_SETTING_ALL, &d),
                          "%s %s is declared not to change the image, but changes '%s' (%s -> %s)", option,
                          effect->samples ? v : "", d.name, d.theirs ? d.theirs : "none", d.ours ? d.ours : "none");
                }
            }
            rs_image_settings_free(&list);
            if (!effect->samples)
                break;
        }
        if (effect->setting)
            CHECK(changed, "%s is said to feed '%s', but none of %d values changed it", option, effect->setting,
                  tried);
    }
    /* no stale rows: every option the table knows is in the help */
    size_t rows = 0;
    const RsOptionEffect* table = rs_render_option_effects(&rows);
    for (size_t r = 0; r < rows; ++r) {
        int found = 0;
        for (int i = 0; i < count; ++i)
            found |= strcmp(options[i], table[r].option) == 0;
        CHECK(found, "render_settings.c's table has %s, which render --help does not mention", table[r].option);
    }
    rs_image_settings_free(&base);
    free(help);
    fclose(null);
    return rs_test_finish("test_render_settings");
}
