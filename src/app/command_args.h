/* command_args.h - the parsed command lines of the subcommands that take user paths and many
 * options, separated from running them so that the command-line fuzzer (tests/fuzz) can drive
 * the parsers alone. Host C11, application layer.
 *
 * Each rs_*_parse_args returns 0 when the command should run, 1 when it asked for --help, and
 * -1 after printing a usage error. The parsed struct points into argv.
 */
#ifndef RS_APP_COMMAND_ARGS_H
#define RS_APP_COMMAND_ARGS_H

#include "app/cli.h"
#include "app/options.h"
#include "app/view/view_window.h"
#include "host/io/image_io.h"

#define RS_MAX_OUTPUTS 8

typedef struct RsRenderArgs {
    RsCommonOptions opt;
    RsDisplaySettings display;
    const char* outputs[RS_MAX_OUTPUTS];
    int output_count;
    const char* scene_path;
    const char* checkpoint;
    const char* resume;
    uint64_t checkpoint_every; /* seconds */
    double time_limit;         /* --time-limit: seconds of tracing, then stop at the pass; 0 = none */
    uint32_t aovs;      /* bit 1 << RS_LAYER_* for each --aov layer (written into .exr outputs) */
    int denoise;        /* --denoise: outputs hold the denoised beauty (.exr: the noisy one too) */
    int exr_half;       /* --exr-half: half-float .exr channels */
    char default_output[RS_PATH_BYTES]; /* SCENE's base name with .png, when no -o is given */
} RsRenderArgs;

int rs_render_parse_args(int argc, char** argv, RsRenderArgs* a);
void rs_render_usage(FILE* f);

typedef struct RsViewArgs {
    RsCommonOptions opt;
    RsViewScript script;
    const char* scene_path;
    int headless;
} RsViewArgs;

int rs_view_parse_args(int argc, char** argv, RsViewArgs* a);
void rs_view_usage(FILE* f);

#endif /* RS_APP_COMMAND_ARGS_H */
