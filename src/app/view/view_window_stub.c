/* view_window_stub.c - the viewer's window in a build without SDL2: only --headless works.
 * Host C11, application layer. */
#include "app/cli.h"
#include "app/view/view_window.h"

int rs_view_window_available(void) { return 0; }

int rs_view_window_run(RsViewer* v, const RsViewScript* script)
{
    (void)v;
    (void)script;
    rs_cli_error("view: this raystream was built without SDL2 (install libsdl2-dev and rebuild), "
                 "so only --headless is available");
    return RS_EXIT_FAILURE;
}
