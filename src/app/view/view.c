/* view.c - `raystream view SCENE`: the interactive viewer, in an SDL2 window or headless.
 * Host C11, application layer. Scripted runs (--frames, --keys, --screenshot, --state) render a
 * given number of frames, apply keys as if typed, save and exit: for tests, demos and
 * measuring the viewer's frame rate offscreen.
 *
 * Signals (interrupt.h): a stop signal (Ctrl-C, SIGTERM, SIGHUP from a closing terminal,
 * SIGQUIT) quits as Esc does, after the frame in flight, in a window or headless alike: the
 * files a script asked for (--screenshot, --state) are still written, and the exit status is
 * 130. A viewer has no checkpoint, so SIGUSR1 or SIGUSR2 saves a screenshot as P does, and the
 * viewer goes on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/cli.h"
#include "app/command_args.h"
#include "app/commands.h"
#include "app/interrupt.h"
#include "app/output_paths.h"
#include "app/view/view_window.h"
#include "host/io/image_io.h"

void rs_view_no_display(const char* why)
{
    rs_cli_error("view: no display to open a window on (%s). Render to a file with `raystream render SCENE -o "
                 "image.png`, run the viewer on a virtual display (`xvfb-run -a raystream view SCENE`), or script it "
                 "without a window (--headless --frames N)",
                 why);
}

/* Where no display can be reached, SDL would fall back to a driver that shows nothing and the
 * viewer would run invisibly: say so at once, before the scene loads. SDL_VIDEODRIVER named
 * (dummy, offscreen, kmsdrm...) is the user's choice and passes. */
static int display_missing(void)
{
#ifdef __linux__
    const char* names[] = {"DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"};
    for (int i = 0; i < 3; ++i) {
        const char* value = getenv(names[i]);
        if (value && value[0])
            return 0;
    }
    return 1;
#else
    return 0;
#endif
}

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
    if (!headless && rs_view_window_available() && display_missing()) {
        rs_view_no_display("neither DISPLAY nor WAYLAND_DISPLAY is set");
        return RS_EXIT_FAILURE;
    }
    if (script.screenshot && rs_image_check_writable_png(script.screenshot, &err)) {
        rs_cli_error("%s", err.message);
        return RS_EXIT_FAILURE;
    }
    /* what the run writes, against each other and the scene, then every file the scene read */
    RsPathSet paths = {0};
    RsFileList files_read = {0};
    RsViewer viewer;
    int bad = (script.screenshot && rs_path_set_write(&paths, script.screenshot, "screenshot (--screenshot)", &err)) ||
              (script.window_shot &&
               rs_path_set_write(&paths, script.window_shot, "window shot (--window-shot)", &err)) ||
              (script.state && rs_path_set_write(&paths, script.state, "state (--state)", &err)) ||
              rs_path_set_read(&paths, scene_path, "scene", &err) || rs_path_set_check(&paths, &err);
    if (!bad) {
        bad = rs_viewer_open(&viewer, scene_path, &opt, &files_read, &err) ||
              rs_path_set_read_list(&paths, &files_read, &err) || rs_path_set_check_collisions(&paths, &err);
        if (bad)
            rs_viewer_close(&viewer);
    }
    rs_path_set_free(&paths);
    rs_file_list_free(&files_read);
    if (bad) {
        rs_cli_error("%s", err.message);
        return RS_EXIT_FAILURE;
    }
    rs_interrupt_install("interrupted: quitting after this frame",
                         "interrupted again: quitting after this frame (a third interrupt quits without writing)");
    int status = RS_EXIT_OK;
    if (headless) {
        for (uint64_t f = 0; f < script.frames && !viewer.quit && !rs_interrupt_count() && status == RS_EXIT_OK;
             ++f) {
            if (rs_interrupt_take_save_request() && rs_viewer_key(&viewer, 'p', &err) < 0)
                status = RS_EXIT_FAILURE;
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
    if (status == RS_EXIT_OK && rs_interrupt_count())
        status = RS_EXIT_INTERRUPTED;
    rs_interrupt_uninstall();
    if (!opt.quiet && viewer.renderer && viewer.frames > 0) {
        char device[1024];
        rs_renderer_describe(viewer.renderer, device, sizeof device);
        rs_cli_note("view: %llu frames in %.3f s: %.1f FPS and %.1f Mrays/s on average, %.1f spp, on %s",
                    (unsigned long long)viewer.frames, rs_viewer_elapsed(&viewer), rs_viewer_average_fps(&viewer),
                    rs_viewer_average_mrays(&viewer), rs_viewer_spp(&viewer), device);
    }
    rs_viewer_close(&viewer);
    return status;
}
