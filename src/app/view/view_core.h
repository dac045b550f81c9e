/* view_core.h - the interactive viewer without its window: progressive accumulation in slices
 * that fit a frame budget, restarted on every change; a fly-through camera; the keys; the
 * display pipeline (auto-exposure by reduction, luminance histogram); screenshots; the state the
 * HUD shows. view_sdl.c puts it in an SDL2 window; `raystream view --headless` runs it alone.
 *
 * Host C11, application layer. Keys are characters, as typed: w a s d q e (move), r (reset
 * camera), 1-9 (max depth), m or \t (next dead-ray strategy), i (integrator), b / B (exposure
 * +/- half a stop), x (auto-exposure on/off), p (screenshot), c (print camera JSON), h (HUD),
 * v (next layer), S (adaptive sampling's heat map on/off), ? (the key list on/off; F1 in a
 * window), 27 (Esc: quit).
 */
#ifndef RS_APP_VIEW_CORE_H
#define RS_APP_VIEW_CORE_H

#include <stdio.h>

#include "app/options.h"
#include "host/render/renderer.h"
#include "host/scene/scene.h"
#include "host/util/file_list.h"

#define RS_VIEW_KEY_ESCAPE 27

typedef struct RsViewer {
    RsScene scene;
    RsCommonOptions options;
    RsRenderer* renderer;
    uint32_t width, height, max_depth, integrator;
    uint64_t spp_limit; /* stop accumulating at this many samples per pixel (0: never) */

    /* camera: position and angles; the scene's camera is the reset point */
    RsVec3 eye;
    float yaw, pitch, fov, speed;
    RsVec3 home_eye;
    float home_yaw, home_pitch, home_fov;

    /* progressive state */
    uint64_t next_path;   /* global path index of the next slice */
    uint64_t slice_paths; /* paths per frame, adapted to the budget */
    RsTraceStats last;    /* statistics of the last frame's slice */
    uint64_t frames;
    double fps, mrays;    /* smoothed, of the frame work alone (trace + display): for the HUD */
    double first_frame_at; /* when the first frame began, for the run's averages */
    double rays_total;     /* rays traced by every frame */

    RsDisplaySettings display;
    uint32_t layer_before_heat; /* the layer S returns to */
    RsDisplayStats stats;
    uint8_t* rgba;        /* width * height, what the window shows */

    int dirty;        /* the camera or the settings changed: restart before the next frame */
    int camera_home;  /* untouched since open or 'r': use the scene's camera exactly */
    double shown_spp; /* samples per pixel of the image on display */
    int hud, help, quit; /* help: the HUD's list of keys is shown */
    uint32_t screenshots; /* taken with 'p' */
    uint32_t shot_number; /* NNNN of the last raystream-NNNN.png */
    uint32_t keys_applied;
    FILE* messages;       /* where 'c' prints the camera and screenshots are reported */
} RsViewer;

/* Loads the scene (files_read, which may be NULL, gets every file the load read) and starts. */
int rs_viewer_open(RsViewer* v, const char* scene_path, const RsCommonOptions* options, RsFileList* files_read,
                   RsError* err);
void rs_viewer_close(RsViewer* v);

/* The whole run's averages, from the first frame's start to now: what the window loop, event
 * handling and presenting cost is included, unlike in the HUD's smoothed figures. */
double rs_viewer_elapsed(const RsViewer* v);
double rs_viewer_average_fps(const RsViewer* v);
double rs_viewer_average_mrays(const RsViewer* v);

/* Traces one slice of about budget_seconds and refreshes the display image. */
int rs_viewer_frame(RsViewer* v, double budget_seconds, RsError* err);

/* Applies a key (see the header comment); returns 1 if it was one of the viewer's keys. */
int rs_viewer_key(RsViewer* v, int key, RsError* err);
/* Mouse look by a drag of (dx, dy) pixels; wheel: field of view, or speed with shift. */
void rs_viewer_look(RsViewer* v, float dx, float dy);
void rs_viewer_wheel(RsViewer* v, float steps, int shift);

/* Writes the display image as PNG and the linear film as HDR (hdr_path may be NULL). */
int rs_viewer_screenshot(RsViewer* v, const char* png_path, const char* hdr_path, RsError* err);
/* The current camera as a scene-file "camera" snippet. */
void rs_viewer_camera_json(const RsViewer* v, char* out, size_t size);
/* The state the HUD shows, as JSON (for tests and scripts). */
int rs_viewer_write_state(const RsViewer* v, const char* path, RsError* err);

/* The viewer's keys, one per line ("W A S D Q E   move"), NULL-terminated: what the help
 * overlay (? or F1) lists. */
const char* const* rs_viewer_key_help(void);

/* The dead-ray strategy as the HUD shows it: its name, or with auto "auto: NAME" where NAME
 * ran most of the last slice's deepest bounces (buf holds it). */
const char* rs_viewer_deadray(const RsViewer* v, char* buf, size_t size);

/* Samples per pixel accumulated so far (fractional while a pass is partly done). */
double rs_viewer_spp(const RsViewer* v);

#endif /* RS_APP_VIEW_CORE_H */
