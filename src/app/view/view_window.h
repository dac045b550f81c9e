/* view_window.h - the viewer's window (view_sdl.c with SDL2, view_window_stub.c without).
 * Host C11, application layer. */
#ifndef RS_APP_VIEW_WINDOW_H
#define RS_APP_VIEW_WINDOW_H

#include "app/view/view_core.h"

/* The longest --keys list, with its NUL. */
#define RS_VIEW_KEYS_MAX 512

typedef struct RsViewScript {
    uint64_t frames;        /* 0: run until the user quits */
    const char* keys;       /* keys to inject, comma-separated ("3,m,i,tab,esc,B") */
    uint64_t keys_at_frame; /* the frame after which they are injected */
    const char* screenshot; /* written when the run ends */
    const char* state;      /* JSON of the HUD state, written when the run ends */
    const char* window_shot; /* the window itself (image and HUD), PNG, at the last frame */
    double budget_seconds;  /* per frame */
} RsViewScript;

/* Opens a window and runs the viewer in it; returns the process exit code. */
int rs_view_window_run(RsViewer* v, const RsViewScript* script);

/* The one message for a viewer that cannot show a window (no display, SDL_Init or the
 * window failing: `why`), suggesting what works instead (view.c). */
void rs_view_no_display(const char* why);

/* Whether this build has a window at all. */
int rs_view_window_available(void);

/* Parses one key name of a --keys list into its character ('tab' -> '\t', 'esc' -> 27). */
int rs_view_key_code(const char* name);

#endif /* RS_APP_VIEW_WINDOW_H */
