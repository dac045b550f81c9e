/* render_settings.c - the render command's settings list and option table (see
 * render_settings.h). Host C11, application layer. */
#include "app/render/render_settings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/cli.h"
#include "git_commit.h"
#include "version.h"

#define SAME_IMAGE "bit-identical images whatever its value (docs/architecture.md, section 8)"
#define OUTPUT_ONLY "how the film is turned into the written files, after rendering; not the film"

/* Every option of `render --help`, with where it stands. */
static const RsOptionEffect effects[] = {
    {"--width", "33", "size", NULL},
    {"--height", "21", "size", NULL},
    {"--seed", "7", "seed", NULL},
    {"--max-depth", "3", "max_depth", NULL},
    {"--integrator", "whitted|path", "integrator", NULL},
    {"--sampler", "sobol|independent", "sampler", NULL},
    {"--light-sampler", "tree|power", "light_sampler", NULL},
    {"--noise-threshold", "0.05|0.1", "noise_threshold", NULL},
    {"--min-spp", "3|5", "min_spp", NULL},
    {"--photons", "100", NULL, "changes nothing unless --integrator is sppm; with it the list has photons_per_pass"},
    {"--sppm-radius", "0.5", NULL, "changes nothing unless --integrator is sppm; with it the list has sppm_radius"},
    {"--sppm-alpha", "0.5", NULL, "changes nothing unless --integrator is sppm; with it the list has sppm_alpha"},
    {"--backend", "cuda|cpu", "backend", NULL},
    {"--accel", "grid|bvh2", "accel", NULL},
    {"--no-sbvh", NULL, "spatial_splits", NULL},
    {"--no-camera-tree", NULL, "camera_tree", NULL},
    {"--sbvh", NULL, NULL, "the default (spatial splits on); kept for old command lines"},
    {"--sah-bins", "8|16", "sah_bins", NULL},
    {"--spp", "3|5", "spp", NULL},
    {"--camera", "0", "camera", NULL},
    {"--aov", "albedo", "film_planes", NULL},
    {"--denoise", NULL, "film_planes", NULL},
    {"--output", "other.exr", NULL, "where the image is written"},
    {"--exposure", "1", NULL, OUTPUT_ONLY},
    {"--auto-exposure", NULL, NULL, OUTPUT_ONLY},
    {"--tonemap", "aces", NULL, OUTPUT_ONLY},
    {"--exr-half", NULL, NULL, OUTPUT_ONLY},
    {"--checkpoint", "other.ckpt", NULL, "where the film is saved"},
    {"--checkpoint-every", "5", NULL, "when the film is saved"},
    {"--resume", "other.ckpt", NULL, "continues a film whose list is checked against this one"},
    {"--time-limit", "5", NULL, "when the render stops; a sample is the same whenever it is traced"},
    {"--quiet", NULL, NULL, "progress output only"},
    {"--threads", "2", NULL, SAME_IMAGE},
    {"--max-memory", "64M", NULL, SAME_IMAGE " (wave size)"},
    {"--devices", "0", NULL, SAME_IMAGE},
    {"--deadray", "flags", NULL, SAME_IMAGE},
    {"--payload", NULL, NULL, SAME_IMAGE},
    {"--trace-kernel", "plain", NULL, SAME_IMAGE},
    {"--sort-rays", NULL, NULL, SAME_IMAGE},
    {"--sort-materials", NULL, NULL, SAME_IMAGE},
    {"--two-level", NULL, NULL, SAME_IMAGE " (the world as one identity instance: the same rays and arithmetic)"},
};

const RsOptionEffect* rs_render_option_effect(const char* option)
{
    for (size_t i = 0; i < sizeof effects / sizeof effects[0]; ++i)
        if (strcmp(effects[i].option, option) == 0)
            return &effects[i];
    return NULL;
}

const RsOptionEffect* rs_render_option_effects(size_t* count)
{
    *count = sizeof effects / sizeof effects[0];
    return effects;
}

int rs_render_settings(const RsRenderArgs* a, const RsScene* scene, const RsFrameDesc* frame, uint32_t film_planes,
                       uint32_t spp, const RsFileList* files, RsImageSettings* out, RsError* err)
{
    const char* backend = rs_backend_is_cuda(&a->opt.backend) ? "cuda" : "cpu";
    char camera[16] = "default"; /* which of the file's cameras (glTF: --camera N) */
    if (a->opt.camera >= 0)
        snprintf(camera, sizeof camera, "%d", (int)a->opt.camera);
    if (rs_image_settings_describe(out, scene, frame, backend, film_planes, spp, err) ||
        rs_image_settings_add(out, RS_SETTING_IMAGE, "camera", camera, err) ||
        rs_image_settings_add(out, RS_SETTING_JOB, "build", RS_VERSION " " RS_GIT_COMMIT, err))
        return -1;
    return files ? rs_image_settings_add_files(out, a->scene_path, files, err) : 0;
}

int rs_render_agree(RsCluster* cl, const RsImageSettings* ours)
{
    if (cl->size == 1)
        return 0;
    size_t bytes = 0, root_bytes = 0;
    char* text = rs_image_settings_text(ours, &bytes);
    if (!text) {
        rs_cli_error("rank %d of %d: out of memory for the render's settings", cl->rank, cl->size);
        return -1;
    }
    char* root = rs_cluster_share_text(cl, text, bytes, &root_bytes);
    free(text);
    if (!root)
        return -1;
    RsImageSettings theirs = {0};
    RsError err = {{0}};
    int differs = 0;
    if (rs_image_settings_parse(&theirs, root, root_bytes, &err)) {
        rs_cli_error("rank %d of %d: rank 0's settings arrived damaged: %s", cl->rank, cl->size, err.message);
        differs = 1;
    } else {
        RsSettingDiff d;
        char words[1024];
        if (rs_image_settings_diff(&theirs, ours, RS_SETTING_IMAGE | RS_SETTING_JOB, &d)) {
            rs_setting_diff_text(&d, "rank 0 uses", "this rank uses", words, sizeof words);
            rs_cli_error("rank %d of %d: %s; every rank must render the same image", cl->rank, cl->size, words);
            differs = 1;
        } else if (rs_image_settings_diff(&theirs, ours, RS_SETTING_ROUNDING, &d)) {
            rs_setting_diff_text(&d, "rank 0 uses", "this rank uses", words, sizeof words);
            rs_cli_warning("rank %d of %d: %s: the image is the same estimate, but not bit-identical to one made "
                           "with one %s",
                           cl->rank, cl->size, words, d.name);
        }
    }
    rs_image_settings_free(&theirs);
    free(root);
    int any = differs;
    if (rs_cluster_max_int(cl, &any)) {
        rs_cli_error("rank %d of %d: comparing the ranks' settings failed", cl->rank, cl->size);
        return -1;
    }
    if (any && !differs && cl->rank == 0)
        rs_cli_error("the ranks disagree on what to render (their messages say how); nothing was rendered");
    return any ? -1 : 0;
}
