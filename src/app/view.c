/* view.c - `raystream view SCENE`: the interactive viewer, in an SDL2 window or headless.
 * Host C11, application layer. Scripted runs (--frames, --keys, --screenshot, --state) render a
 * given number of frames, apply keys as if typed, save and exit: for tests, demos and
 * measuring the viewer's frame rate offscreen. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../host/image_io.h"
#include "cli.h"
#include "commands.h"
#include "view_window.h"

static void view_usage(FILE* f)
{
    fprintf(f,
            "usage: raystream view SCENE [options]\n"
            "\n"
            "Progressive path tracing in a window. Keys: W/A/S/D/Q/E move, mouse drag looks around,\n"
            "wheel zooms (shift+wheel: move speed), R resets the camera, 1-9 set the max depth,\n"
            "M or Tab cycles the dead-ray strategy, I toggles the integrator, B / Shift-B exposure,\n"
            "X auto-exposure on/off, P saves raystream-NNNN.png and .hdr, C prints the camera as\n"
            "JSON for a scene file, H toggles the HUD, Esc quits.\n"
            "\n"
            "  --frames N            render N frames, then save/exit (scripted run)\n"
            "  --keys LIST           keys to apply after the first frames, e.g. 3,m,i,B,tab,esc\n"
            "  --screenshot FILE     save the display image (PNG) when the run ends\n"
            "  --state FILE          write the HUD's state as JSON when the run ends\n"
            "  --window-shot FILE    save the window itself, HUD included (PNG), at the last frame\n"
            "  --budget-ms MS        time per frame to aim for (default 33)\n"
            "  --headless            no window: run the same loop offscreen (needs --frames)\n"
            "  --spp N               stop refining at N samples per pixel (default: never)\n"
            "%s",
            rs_common_options_help);
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

int rs_cmd_view(int argc, char** argv)
{
    RsCommonOptions opt;
    rs_common_options_init(&opt);
    RsViewScript script = {0, NULL, 2, NULL, NULL, NULL, 1.0 / 30.0};
    const char* scene_path = NULL;
    int headless = 0;
    for (int i = 0; i < argc; ++i) {
        int missing = 0;
        const char* v;
        uint64_t n;
        int common = rs_common_option(argc, argv, &i, &opt);
        if (common < 0)
            return RS_EXIT_USAGE;
        if (common > 0)
            continue;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            view_usage(stdout);
            return RS_EXIT_OK;
        } else if (strcmp(argv[i], "--headless") == 0) {
            headless = 1;
        } else if ((v = rs_cli_value(argc, argv, &i, "--frames", NULL, &missing))) {
            if (rs_cli_uint("--frames", v, 1, 100000000, &script.frames))
                return RS_EXIT_USAGE;
        } else if ((v = rs_cli_value(argc, argv, &i, "--budget-ms", NULL, &missing))) {
            if (rs_cli_uint("--budget-ms", v, 1, 10000, &n))
                return RS_EXIT_USAGE;
            script.budget_seconds = (double)n / 1000.0;
        } else if ((v = rs_cli_value(argc, argv, &i, "--keys", NULL, &missing))) {
            char buf[512];
            snprintf(buf, sizeof buf, "%s", v);
            for (char* tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
                if (rs_view_key_code(tok) < 0) {
                    rs_cli_error("--keys: '%s' is not a key (single characters, tab, esc)", tok);
                    return RS_EXIT_USAGE;
                }
            }
            script.keys = v;
        } else if ((v = rs_cli_value(argc, argv, &i, "--screenshot", NULL, &missing))) {
            script.screenshot = v;
        } else if ((v = rs_cli_value(argc, argv, &i, "--state", NULL, &missing))) {
            script.state = v;
        } else if ((v = rs_cli_value(argc, argv, &i, "--window-shot", NULL, &missing))) {
            script.window_shot = v;
        } else if (missing) {
            return RS_EXIT_USAGE;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            rs_cli_error("view: unknown option '%s' (see raystream view --help)", argv[i]);
            return RS_EXIT_USAGE;
        } else if (scene_path) {
            rs_cli_error("view: one scene at a time");
            return RS_EXIT_USAGE;
        } else {
            scene_path = argv[i];
        }
    }
    if (!scene_path) {
        view_usage(stderr);
        return RS_EXIT_USAGE;
    }
    if (headless && !script.frames) {
        rs_cli_error("view --headless needs --frames N (there is no window to close)");
        return RS_EXIT_USAGE;
    }
    RsError err = {{0}};
    if (script.screenshot && rs_image_check_writable_png(script.screenshot, &err)) {
        rs_cli_error("%s", err.message);
        return RS_EXIT_FAILURE;
    }
    RsViewer viewer;
    if (rs_viewer_open(&viewer, scene_path, &opt, &err)) {
        rs_cli_error("%s", err.message);
        rs_viewer_close(&viewer);
        return RS_EXIT_FAILURE;
    }
    int status = RS_EXIT_OK;
    if (headless) {
        for (uint64_t f = 0; f < script.frames && !viewer.quit && status == RS_EXIT_OK; ++f) {
            if (script.keys && f == script.keys_at_frame) {
                char buf[512];
                snprintf(buf, sizeof buf, "%s", script.keys);
                for (char* tok = strtok(buf, ","); tok && status == RS_EXIT_OK; tok = strtok(NULL, ","))
                    if (rs_viewer_key(&viewer, rs_view_key_code(tok), &err) < 0)
                        status = RS_EXIT_FAILURE;
            }
            if (status == RS_EXIT_OK && rs_viewer_frame(&viewer, script.budget_seconds, &err))
                status = RS_EXIT_FAILURE;
        }
        if (status != RS_EXIT_OK)
            rs_cli_error("%s", err.message);
    } else {
        status = rs_view_window_run(&viewer, &script);
    }
    if (status == RS_EXIT_OK && script.screenshot && rs_viewer_screenshot(&viewer, script.screenshot, NULL, &err)) {
        rs_cli_error("%s", err.message);
        status = RS_EXIT_FAILURE;
    }
    if (status == RS_EXIT_OK && script.state && rs_viewer_write_state(&viewer, script.state, &err)) {
        rs_cli_error("%s", err.message);
        status = RS_EXIT_FAILURE;
    }
    if (!opt.quiet)
        rs_cli_note("view: %llu frames in %.3f s: %.1f FPS and %.1f Mrays/s on average, %.1f spp, on %s",
                    (unsigned long long)viewer.frames, rs_viewer_elapsed(&viewer), rs_viewer_average_fps(&viewer),
                    rs_viewer_average_mrays(&viewer), rs_viewer_spp(&viewer), viewer.backend->device);
    rs_viewer_close(&viewer);
    return status;
}
