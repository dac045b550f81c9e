/* view.c - `raystream view SCENE`: the interactive viewer, in an SDL2 window or headless.
 * Host C11, application layer. Scripted runs (--frames, --keys, --screenshot, --state) render a
 * given number of frames, apply keys as if typed, save and exit: for tests, demos and
 * measuring the viewer's frame rate offscreen. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/cli.h"
#include "app/command_args.h"
#include "app/commands.h"
#include "app/view/view_window.h"
#include "host/io/image_io.h"

int rs_cmd_view(int argc, char** argv)
{
    RsViewArgs a;
    int parsed = rs_view_parse_args(argc, argv, &a);
    if (parsed > 0) {
        rs_view_usage(stdout);
        return RS_EXIT_OK;
    }
    if (parsed < 0)
        return RS_EXIT_USAGE;
    RsCommonOptions opt = a.opt;
    RsViewScript script = a.script;
    const char* scene_path = a.scene_path;
    int headless = a.headless;
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
                char buf[RS_VIEW_KEYS_MAX];
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
    if (!opt.quiet && viewer.renderer) {
        char device[1024];
        rs_renderer_describe(viewer.renderer, device, sizeof device);
        rs_cli_note("view: %llu frames in %.3f s: %.1f FPS and %.1f Mrays/s on average, %.1f spp, on %s",
                    (unsigned long long)viewer.frames, rs_viewer_elapsed(&viewer), rs_viewer_average_fps(&viewer),
                    rs_viewer_average_mrays(&viewer), rs_viewer_spp(&viewer), device);
    }
    rs_viewer_close(&viewer);
    return status;
}
