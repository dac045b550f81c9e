/* view_args.c - the command line of `raystream view` (see command_args.h), and its key names.
 * Host C11, application layer. */
#include <stdio.h>
#include <string.h>

#include "app/command_args.h"

void rs_view_usage(FILE* f)
{
    fprintf(f,
            "usage: raystream view SCENE [options]\n"
            "\n"
            "Progressive path tracing in a window. Keys: W/A/S/D/Q/E move, mouse drag looks around,\n"
            "wheel zooms (shift+wheel: move speed), R resets the camera, 1-9 set the max depth,\n"
            "M or Tab cycles the dead-ray strategy, I cycles the integrator (path, whitted, light,\n"
            "sppm), B / Shift-B exposure, X auto-exposure on/off, N the denoiser on/off, V cycles the\n"
            "layer shown (beauty, albedo,\n"
            "normal, depth, position, variance), P saves raystream-NNNN.png and .hdr, C prints the\n"
            "camera as JSON for a scene file, H toggles the HUD, F1 or ? lists the keys, Esc quits.\n"
            "Without a display (no DISPLAY or WAYLAND_DISPLAY) it stops at once and says so: use\n"
            "`raystream render`, xvfb-run, or --headless.\n"
            "\n"
            "  --frames N            render N frames, then save/exit (scripted run)\n"
            "  --keys LIST           keys to apply after the first frames, e.g. 3,m,i,B,tab,esc\n"
            "  --screenshot FILE     save the display image (PNG) when the run ends\n"
            "  --state FILE          write the HUD's state as JSON when the run ends\n"
            "  --window-shot FILE    save the window itself, HUD included (PNG), at the last frame\n"
            "  --budget-ms MS        time per frame to aim for (default 33)\n"
            "  --headless            no window: run the same loop offscreen (needs --frames)\n"
            "  --spp N               stop refining at N samples per pixel (default: never)\n");
    fputs(rs_camera_option_help, f);
    rs_common_options_usage(f);
}

int rs_view_key_code(const char* name)
{
    if (strcmp(name, "tab") == 0)
        return '\t';
    if (strcmp(name, "esc") == 0)
        return RS_VIEW_KEY_ESCAPE;
    if (strlen(name) == 1)
        return (unsigned char)name[0];
    return -1;
}

/* Every key of a --keys list must be one; the list must fit RS_VIEW_KEYS_MAX, the buffer its
 * users split it in (a longer one would be cut, and keys silently dropped). */
static int check_keys(const char* list)
{
    if (strlen(list) >= RS_VIEW_KEYS_MAX) {
        rs_cli_error("--keys: the list is too long (%zu characters; at most %d)", strlen(list), RS_VIEW_KEYS_MAX - 1);
        return -1;
    }
    char buf[RS_VIEW_KEYS_MAX];
    snprintf(buf, sizeof buf, "%s", list);
    for (char* tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        if (rs_view_key_code(tok) < 0) {
            rs_cli_error("--keys: '%s' is not a key (single characters, tab, esc)", tok);
            return -1;
        }
    }
    return 0;
}

int rs_view_parse_args(int argc, char** argv, RsViewArgs* a)
{
    memset(a, 0, sizeof *a);
    rs_common_options_init(&a->opt);
    a->script = (RsViewScript){0, NULL, 2, NULL, NULL, NULL, 1.0 / 30.0};
    for (int i = 0; i < argc; ++i) {
        int missing = 0;
        const char* v;
        uint64_t n;
        int common = rs_common_option(argc, argv, &i, &a->opt);
        if (common == 0)
            common = rs_camera_option(argc, argv, &i, &a->opt.camera);
        if (common < 0)
            return -1;
        if (common > 0)
            continue;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            return 1;
        } else if (strcmp(argv[i], "--headless") == 0) {
            a->headless = 1;
        } else if ((v = rs_cli_value(argc, argv, &i, "--frames", NULL, &missing))) {
            if (rs_cli_uint("--frames", v, 1, 100000000, &a->script.frames))
                return -1;
        } else if ((v = rs_cli_value(argc, argv, &i, "--budget-ms", NULL, &missing))) {
            if (rs_cli_uint("--budget-ms", v, 1, 10000, &n))
                return -1;
            a->script.budget_seconds = (double)n / 1000.0;
        } else if ((v = rs_cli_value(argc, argv, &i, "--keys", NULL, &missing))) {
            if (check_keys(v))
                return -1;
            a->script.keys = v;
        } else if ((v = rs_cli_value(argc, argv, &i, "--screenshot", NULL, &missing))) {
            if (rs_cli_path("--screenshot", v))
                return -1;
            a->script.screenshot = v;
        } else if ((v = rs_cli_value(argc, argv, &i, "--state", NULL, &missing))) {
            if (rs_cli_path("--state", v))
                return -1;
            a->script.state = v;
        } else if ((v = rs_cli_value(argc, argv, &i, "--window-shot", NULL, &missing))) {
            if (rs_cli_path("--window-shot", v))
                return -1;
            a->script.window_shot = v;
        } else if (missing) {
            return -1;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            rs_cli_error("view: unknown option '%s' (see raystream view --help)", argv[i]);
            return -1;
        } else if (a->scene_path) {
            rs_cli_error("view: one scene at a time");
            return -1;
        } else {
            a->scene_path = argv[i];
        }
    }
    if (!a->scene_path) {
        rs_view_usage(rs_cli_messages());
        return -1;
    }
    if (a->headless && !a->script.frames) {
        rs_cli_error("view --headless needs --frames N (there is no window to close)");
        return -1;
    }
    return 0;
}
