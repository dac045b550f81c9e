/* fuzz_cli.c - libFuzzer harness for the command-line parsers of render and view, and through
 * them the options every command shares (src/app/render/render_args.c, view_args.c, options.c,
 * cli.c). Host C11.
 *
 * Input: the first byte picks the command (even: render, odd: view); the rest is its
 * arguments, separated by NUL bytes (at most 64). The parser must return 0, 1 (--help) or -1
 * (after a message); when it accepts the line, what it accepted must hold: a scene, at least
 * one output of a supported format whose path leaves room for ".partial" and ".tmp-PID", values
 * within their documented ranges, a --keys list of real keys. Messages go to /dev/null.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "app/command_args.h"
#include "app/render/time_limit.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void check_common(const RsCommonOptions* o)
{
    if (o->spp > (1u << 20) || o->max_depth > 1024 || o->width > 16384 || o->height > 16384 ||
        o->accel.bins > 64 || (o->accel.bins != 0 && o->accel.bins < 2))
        abort();
    if (!(o->noise_threshold >= 0.0f && o->noise_threshold <= 1.0f) || o->min_spp > (1u << 20))
        abort(); /* NaN fails the first test */
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static FILE* null;
    if (!null) {
        null = fopen("/dev/null", "w");
        rs_cli_set_messages(null);
    }
    if (size == 0)
        return 0;
    char* text = malloc(size); /* the arguments, NUL-terminated each */
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    char* argv[65];
    int argc = 0;
    for (size_t i = 0; i < size - 1 && argc < 64;) {
        argv[argc++] = text + i;
        i += strlen(text + i) + 1;
    }
    argv[argc] = NULL;
    if (data[0] % 2 == 0) {
        RsRenderArgs a;
        int status = rs_render_parse_args(argc, argv, &a);
        if (status < -1 || status > 1)
            abort();
        if (status == 0) {
            if (!a.scene_path || a.output_count < 1 || a.output_count > RS_MAX_OUTPUTS || a.checkpoint_every < 1)
                abort();
            if (!(a.time_limit == 0.0 || (a.time_limit > 0.0 && a.time_limit <= RS_TIME_LIMIT_MAX)))
                abort(); /* --time-limit: none, or a finite number of seconds > 0 */
            for (int i = 0; i < a.output_count; ++i) {
                RsImageFormat fmt;
                RsError err = {{0}};
                size_t len = strlen(a.outputs[i]);
                /* the format is checked when the outputs are, before rendering; the length here */
                (void)rs_image_format_from_path(a.outputs[i], &fmt, &err);
                if (len == 0 || len >= RS_PATH_BYTES - RS_PATH_SUFFIX_ROOM)
                    abort();
            }
            check_common(&a.opt);
        }
    } else {
        RsViewArgs a;
        int status = rs_view_parse_args(argc, argv, &a);
        if (status < -1 || status > 1)
            abort();
        if (status == 0) {
            if (!a.scene_path || (a.headless && a.script.frames == 0))
                abort();
            if (a.script.keys) {
                char buf[RS_VIEW_KEYS_MAX];
                if (strlen(a.script.keys) >= sizeof buf)
                    abort();
                strcpy(buf, a.script.keys);
                for (char* tok = strtok(buf, ","); tok; tok = strtok(NULL, ","))
                    if (rs_view_key_code(tok) < 0)
                        abort();
            }
            check_common(&a.opt);
        }
    }
    free(text);
    return 0;
}
