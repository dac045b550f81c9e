/* render_args.c - the command line of `raystream render` (see command_args.h). Host C11,
 * application layer. */
#include <stdio.h>
#include <string.h>

#include "app/command_args.h"
#include "app/render/time_limit.h"
#include "kernel/film/aov.h"

/* "albedo,normal" -> bits 1 << RS_LAYER_ALBEDO | 1 << RS_LAYER_NORMAL; "all": every AOV. */
static int parse_aovs(const char* list, uint32_t* mask)
{
    *mask = 0;
    const char* p = list;
    while (*p) {
        size_t len = strcspn(p, ",");
        int found = 0;
        if (len == 3 && strncmp(p, "all", 3) == 0) {
            *mask |= ((1u << RS_LAYER_COUNT) - 1u) & ~(1u << RS_LAYER_BEAUTY);
            found = 1;
        }
        for (uint32_t l = RS_LAYER_BEAUTY + 1; l < RS_LAYER_COUNT && !found; ++l)
            if (strlen(rs_layer_name(l)) == len && strncmp(p, rs_layer_name(l), len) == 0) {
                *mask |= 1u << l;
                found = 1;
            }
        if (!found) {
            rs_cli_error("--aov: unknown layer '%.*s' (all, albedo, normal, depth, position, variance, samples)", (int)len, p);
            return -1;
        }
        p += len;
        if (*p == ',')
            ++p;
    }
    if (*mask == 0) {
        rs_cli_error("--aov: expected a list of layers (all, albedo, normal, depth, position, variance, samples)");
        return -1;
    }
    return 0;
}

void rs_render_usage(FILE* f)
{
    fprintf(f,
            "usage: raystream render SCENE [options]\n"
            "\n"
            "Renders SCENE (a JSON scene file, see scenes/README.md, or a glTF 2.0 .gltf/.glb file) and\n"
            "writes the image.\n"
            "\n"
            "  -o, --output FILE     image to write; .png (tone-mapped sRGB), .exr, .hdr or .pfm\n"
            "                        (linear); may be given several times (default: SCENE's name\n"
            "                        with .png)\n"
            "  --aov LIST            also write these layers into every .exr output: all, or any of\n"
            "                        albedo, normal, depth, position, variance, samples (comma-separated)\n"
            "  --denoise             write the denoised image (a-trous wavelet filter guided by the\n"
            "                        AOVs); .exr outputs keep the noisy one as the layer 'noisy',\n"
            "                        other formats in NAME.noisy.EXT\n"
            "  --exr-half            write .exr channels as half floats (default: 32-bit float)\n"
            "  --exposure EV         exposure in stops applied before tone mapping (default 0)\n"
            "  --auto-exposure       map the log-average luminance to middle grey (then add --exposure)\n"
            "  --tonemap NAME        clamp | reinhard | aces (default clamp)\n"
            "  --checkpoint FILE     save the accumulated film there every --checkpoint-every seconds\n"
            "                        (default 60), at the end and on an interrupt\n"
            "  --resume FILE         continue from a checkpoint to --spp; the result is bit-identical\n"
            "                        to a render that never stopped\n"
            "  --time-limit SECONDS  stop once tracing has taken this long (a number > 0), at the end\n"
            "                        of the sample pass in flight, and write the image as a finished\n"
            "                        render (and the checkpoint, which --resume continues)\n"
            "  --spp N               samples per pixel (default: the scene's render.spp)\n");
    fputs(rs_camera_option_help, f);
    rs_common_options_usage(f);
    fprintf(f, "\n"
               "Ctrl-C (or SIGTERM, SIGHUP, SIGQUIT) finishes the sample pass in flight, then saves the\n"
               "checkpoint and writes NAME.partial.EXT; a second one stops after the current wave and\n"
               "still saves and writes; a third quits at once. SIGUSR1 saves the checkpoint and goes on.\n"
               "Every file to write is checked first: none may be another one or an input.\n");
}

/* "scenes/cornell.json" -> "cornell.png"; -1 if that does not fit `size` with room to spare */
static int default_output(const char* scene_path, char* out, size_t size)
{
    const char* base = strrchr(scene_path, '/');
    base = base ? base + 1 : scene_path;
    const char* dot = strrchr(base, '.');
    size_t len = dot ? (size_t)(dot - base) : strlen(base);
    if (len + sizeof ".png" + RS_PATH_SUFFIX_ROOM > size)
        return -1;
    snprintf(out, size, "%.*s.png", (int)len, base);
    return 0;
}

int rs_render_parse_args(int argc, char** argv, RsRenderArgs* a)
{
    memset(a, 0, sizeof *a);
    rs_common_options_init(&a->opt);
    a->display = (RsDisplaySettings){.exposure = 0.0f, .auto_exposure = 0, .curve = RS_TONE_CLAMP};
    a->checkpoint_every = 60;
    for (int i = 0; i < argc; ++i) {
        int missing = 0;
        const char* v;
        int common = rs_common_option(argc, argv, &i, &a->opt);
        if (common == 0)
            common = rs_camera_option(argc, argv, &i, &a->opt.camera);
        if (common < 0)
            return -1;
        if (common > 0)
            continue;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            return 1;
        } else if ((v = rs_cli_value(argc, argv, &i, "--output", "-o", &missing))) {
            if (a->output_count == RS_MAX_OUTPUTS) {
                rs_cli_error("at most %d outputs", RS_MAX_OUTPUTS);
                return -1;
            }
            if (rs_cli_path("--output", v))
                return -1;
            a->outputs[a->output_count++] = v;
        } else if ((v = rs_cli_value(argc, argv, &i, "--exposure", NULL, &missing))) {
            double ev;
            if (rs_cli_float("--exposure", v, -64.0, 64.0, &ev))
                return -1;
            a->display.exposure = (float)ev;
        } else if ((v = rs_cli_value(argc, argv, &i, "--tonemap", NULL, &missing))) {
            if (rs_tone_curve_parse(v, &a->display.curve)) {
                rs_cli_error("--tonemap: expected clamp, reinhard or aces, got '%s'", v);
                return -1;
            }
        } else if ((v = rs_cli_value(argc, argv, &i, "--checkpoint", NULL, &missing))) {
            if (rs_cli_path("--checkpoint", v))
                return -1;
            a->checkpoint = v;
        } else if ((v = rs_cli_value(argc, argv, &i, "--resume", NULL, &missing))) {
            a->resume = v;
        } else if ((v = rs_cli_value(argc, argv, &i, "--checkpoint-every", NULL, &missing))) {
            if (rs_cli_uint("--checkpoint-every", v, 1, 86400 * 365, &a->checkpoint_every))
                return -1;
        } else if ((v = rs_cli_value(argc, argv, &i, "--time-limit", NULL, &missing))) {
            if (rs_time_limit_parse(v, &a->time_limit))
                return -1;
        } else if (strcmp(argv[i], "--auto-exposure") == 0) {
            a->display.auto_exposure = 1;
        } else if ((v = rs_cli_value(argc, argv, &i, "--aov", NULL, &missing))) {
            if (parse_aovs(v, &a->aovs))
                return -1;
        } else if (strcmp(argv[i], "--denoise") == 0) {
            a->denoise = 1;
        } else if (strcmp(argv[i], "--exr-half") == 0) {
            a->exr_half = 1;
        } else if (missing) {
            return -1;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            rs_cli_error("render: unknown option '%s' (see raystream render --help)", argv[i]);
            return -1;
        } else if (a->scene_path) {
            rs_cli_error("render: one scene at a time (got '%s' and '%s')", a->scene_path, argv[i]);
            return -1;
        } else {
            a->scene_path = argv[i];
        }
    }
    if (!a->scene_path) {
        rs_render_usage(rs_cli_messages());
        return -1;
    }
    if (a->output_count == 0) {
        if (default_output(a->scene_path, a->default_output, sizeof a->default_output)) {
            rs_cli_error("render: the scene's file name is too long to name the image after it; give -o FILE");
            return -1;
        }
        a->outputs[a->output_count++] = a->default_output;
    }
    int exr = 0;
    for (int k = 0; k < a->output_count; ++k) {
        RsImageFormat format;
        RsError ignored = {{0}}; /* an unknown extension is reported before rendering */
        exr |= rs_image_format_from_path(a->outputs[k], &format, &ignored) == 0 && format == RS_IMAGE_EXR;
    }
    if (a->aovs && !exr) {
        rs_cli_error("--aov writes layers into an OpenEXR file: give an output ending in .exr (-o NAME.exr)");
        return -1;
    }
    a->display.denoise = a->denoise;
    return 0;
}
