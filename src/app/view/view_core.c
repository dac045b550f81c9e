/* view_core.c - the viewer's state machine (see view_core.h). Host C11, application layer.
 *
 * Camera: position plus yaw and pitch around the world's y axis (the scene format is y-up);
 * forward = (sin yaw cos pitch, sin pitch, -cos yaw cos pitch). Moves are 2% of the scene's
 * bounding-box diagonal per key press (the wheel with shift scales that).
 * Progressive rendering: global path numbers keep counting across frames, so frame after frame
 * adds samples to the same film (pixels may differ by one sample while a pass is under way;
 * the film keeps a count per pixel). Any change to what is rendered restarts at path 0.
 */
#define _POSIX_C_SOURCE 200809L
#include "app/view/view_core.h"

#include <cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

#include "host/import/scene_loader.h"
#include "host/io/image_io.h"
#include "host/render/particle_trace.h"
#include "host/scene/settings.h"
#include "host/util/clock.h"

static RsVec3 forward_of(float yaw, float pitch)
{
    return rs_vec3(sinf(yaw) * cosf(pitch), sinf(pitch), -cosf(yaw) * cosf(pitch));
}

static uint64_t pixels_of(const RsViewer* v) { return (uint64_t)v->width * v->height; }

/* (Re)starts accumulation for the current camera and settings. */
static int restart(RsViewer* v, RsError* err)
{
    RsCameraDesc cam = v->scene.camera;
    if (!v->camera_home) { /* the exact scene camera otherwise: a screenshot then matches `render` */
        cam.eye = v->eye;
        cam.look_at = rs_add(v->eye, forward_of(v->yaw, v->pitch));
        cam.up = rs_vec3(0.0f, 1.0f, 0.0f);
        cam.fov_degrees = v->fov;
        if (cam.focus_distance <= 0.0f) /* keep the scene's focus plane when the camera moves */
            cam.focus_distance = rs_length(rs_sub(v->scene.camera.look_at, v->scene.camera.eye));
    }
    RsScene view_scene = v->scene; /* only the camera differs; the arrays are shared */
    view_scene.camera = cam;
    RsFrameDesc frame = rs_frame_from_scene(&view_scene, v->width, v->height, v->max_depth, v->integrator,
                                            v->options.seed_set ? v->options.seed : v->scene.render.seed);
    rs_common_options_frame(&v->options, &frame);
    if (rs_renderer_begin(v->renderer, &frame, pixels_of(v) * 4, err))
        return -1;
    v->next_path = 0;
    return 0;
}

/* The viewer traces a slice per frame, so each device gets a couple of spans: pieces large
 * enough to fill it, and the same spans frame after frame (no film moves between devices). */
#define RS_VIEW_SPANS_PER_DEVICE 2

static int make_renderer(RsViewer* v, RsError* err)
{
    rs_renderer_destroy(v->renderer);
    RsRendererConfig rc = rs_common_renderer_config(&v->options);
    rc.spans_per_device = RS_VIEW_SPANS_PER_DEVICE;
    rc.backend.aovs = 1; /* the denoiser's guides and the layers 'v' shows */
    rc.backend.particles = 1; /* the integrator key reaches light and sppm */
    if (rs_integrator_particles(v->integrator) && rc.device_count == 0) {
        rc.device_count = 1; /* they run on one device (host/render/particle_trace.h) */
        rc.devices[0] = 0;
    }
    v->renderer = rs_renderer_create(&v->scene, &rc, err);
    if (!v->renderer)
        return -1;
    return restart(v, err);
}

int rs_viewer_open(RsViewer* v, const char* scene_path, const RsCommonOptions* options, RsFileList* files_read,
                   RsError* err)
{
    memset(v, 0, sizeof *v);
    v->messages = stdout;
    v->options = *options;
    RsAccelOptions accel = rs_common_accel(options);
    RsSceneLoadOptions load_options = {&accel, options->camera};
    if (rs_scene_load_with(scene_path, &load_options, &v->scene, files_read, err))
        return -1;
    RsRenderDesc rd = v->scene.render;
    rs_common_options_apply(options, &rd);
    if (rs_scene_set_render(&v->scene, &rd, err))
        return -1;
    rs_common_warn_unlit(&v->scene, scene_path);
    v->width = rd.width;
    v->height = rd.height;
    v->max_depth = rd.max_depth;
    v->integrator = rd.integrator;
    if (rs_integrator_particles(v->integrator) && rs_particles_check_scene(&v->scene, v->integrator, err))
        return -1;
    v->spp_limit = options->spp; /* 0 (not given): keep refining */

    const RsCameraDesc* c = &v->scene.camera;
    RsVec3 f = rs_normalize(rs_sub(c->look_at, c->eye));
    v->home_eye = c->eye;
    v->home_yaw = atan2f(f.x, -f.z);
    v->home_pitch = asinf(rs_clampf(f.y, -1.0f, 1.0f));
    v->home_fov = c->fov_degrees;
    v->speed = 0.02f * rs_length(rs_sub(v->scene.bounds_hi, v->scene.bounds_lo));
    v->eye = v->home_eye;
    v->yaw = v->home_yaw;
    v->pitch = v->home_pitch;
    v->fov = v->home_fov;
    v->camera_home = 1;

    v->display.auto_exposure = 1;
    v->display.same_rgba = 1; /* v->rgba lives until after the renderer (rs_viewer_close) */
    v->display.curve = RS_TONE_CLAMP;
    v->hud = 1;
    v->slice_paths = pixels_of(v) / 8 > 1024 ? pixels_of(v) / 8 : 1024;
    v->rgba = calloc(pixels_of(v), 4);
    if (!v->rgba)
        return rs_error_set(err, "out of memory for a %ux%u display image", v->width, v->height);
    return make_renderer(v, err);
}

void rs_viewer_close(RsViewer* v)
{
    rs_renderer_destroy(v->renderer);
    free(v->rgba);
    rs_scene_free(&v->scene);
    memset(v, 0, sizeof *v);
}

double rs_viewer_elapsed(const RsViewer* v) { return v->frames ? rs_clock_seconds() - v->first_frame_at : 0.0; }

double rs_viewer_average_fps(const RsViewer* v)
{
    double elapsed = rs_viewer_elapsed(v);
    return elapsed > 0.0 ? (double)v->frames / elapsed : 0.0;
}

double rs_viewer_average_mrays(const RsViewer* v)
{
    double elapsed = rs_viewer_elapsed(v);
    return elapsed > 0.0 ? v->rays_total / elapsed / 1e6 : 0.0;
}

const char* const* rs_viewer_key_help(void)
{
    static const char* const lines[] = {
        "W A S D Q E    move",          "mouse drag     look around",    "wheel          zoom (shift: speed)",
        "R              reset camera",   "1 - 9          max depth",      "M or Tab       dead-ray strategy",
        "I              integrator",     "B / Shift-B    exposure +/-",   "X              auto-exposure",
        "N              denoiser",       "V              layer shown",    "Shift-S        adaptive heat map",
        "P              save PNG + HDR", "C              print camera",   "H              HUD on/off",
        "F1 or ?        this list",      "Esc            quit",           NULL};
    return lines;
}

const char* rs_viewer_deadray(const RsViewer* v, char* buf, size_t size)
{
    RsDeadRay d = rs_renderer_backend_config(v->renderer)->deadray;
    if (d != RS_DEADRAY_AUTO)
        return rs_deadray_name(d);
    uint32_t deepest = v->max_depth + 1 < RS_STATS_DEPTHS ? v->max_depth + 1 : RS_STATS_DEPTHS;
    for (uint32_t depth = deepest; depth >= 1; --depth) {
        RsDeadRay most = rs_trace_stats_deadray_at(&v->last, depth);
        if (most != RS_DEADRAY_COUNT) {
            snprintf(buf, size, "auto: %s", rs_deadray_name(most));
            return buf;
        }
    }
    return "auto";
}

double rs_viewer_spp(const RsViewer* v) { return (double)v->next_path / (double)pixels_of(v); }

int rs_viewer_frame(RsViewer* v, double budget_seconds, RsError* err)
{
    if (v->dirty) { /* many input events per frame cost one restart */
        if (restart(v, err))
            return -1;
        v->dirty = 0;
    }
    double t0 = rs_clock_seconds();
    if (v->frames == 0)
        v->first_frame_at = t0;
    uint64_t limit = v->spp_limit ? v->spp_limit * pixels_of(v) : UINT64_MAX;
    uint64_t n = v->slice_paths < limit - v->next_path ? v->slice_paths : limit - v->next_path;
    RsTraceStats before = rs_renderer_stats(v->renderer);
    if (n > 0) {
        if (rs_renderer_trace(v->renderer, v->next_path + n, err))
            return -1;
        v->next_path += n;
    }
    double t_trace = rs_clock_seconds() - t0;
    RsDisplaySettings shown = v->display;
    if (v->display.layer == RS_LAYER_ALBEDO || v->display.layer == RS_LAYER_NORMAL ||
        v->display.layer == RS_LAYER_SAMPLES) {
        shown.exposure = 0.0f; /* reflectances and mapped normals are already in [0, 1] */
        shown.auto_exposure = 0;
    }
    if (rs_renderer_display(v->renderer, &shown, v->rgba, &v->stats, err))
        return -1;
    v->shown_spp = rs_viewer_spp(v);
    double t = rs_clock_seconds() - t0;

    /* what the HUD shows: this frame's slice */
    RsTraceStats now = rs_renderer_stats(v->renderer);
    v->last = rs_trace_stats_since(&now, &before);
    double rays = (double)rs_trace_stats_rays(&v->last);
    double fps = t > 0.0 ? 1.0 / t : 0.0, mrays = t > 0.0 ? rays / t / 1e6 : 0.0;
    v->fps = v->frames ? 0.8 * v->fps + 0.2 * fps : fps;
    v->mrays = v->frames ? 0.8 * v->mrays + 0.2 * mrays : mrays;
    v->rays_total += rays;
    v->frames++;

    /* next slice: as many paths as fit the budget at this frame's rate, between 1024 and 4 passes */
    if (n > 0 && t_trace > 0.0) {
        double want = (double)n * (budget_seconds - (t - t_trace)) / t_trace;
        double most = (double)pixels_of(v) * 4.0;
        v->slice_paths = (uint64_t)(want < 1024.0 ? 1024.0 : (want > most ? most : want));
    }
    return 0;
}

/* The integrator key: path, whitted, light, sppm, path, ...; the particle integrators only for
 * a scene with a light particles can leave from. A new renderer, since they run on one device. */
static int next_integrator(RsViewer* v, RsError* err)
{
    for (int step = 0; step < 4; ++step) {
        v->integrator = (v->integrator + 1) % 4;
        RsError ignored = {{0}};
        if (!rs_integrator_particles(v->integrator) ||
            rs_particles_check_scene(&v->scene, v->integrator, &ignored) == 0)
            break;
    }
    return make_renderer(v, err);
}

static int next_strategy(RsViewer* v, RsError* err)
{
    RsBackendKind kind = rs_renderer_backend_config(v->renderer)->kind; /* stay on the backend "auto" chose */
    v->options.backend.deadray = rs_deadray_next(v->options.backend.deadray, kind);
    v->options.backend.kind = kind;
    return make_renderer(v, err);
}

int rs_viewer_key(RsViewer* v, int key, RsError* err)
{
    RsVec3 f = forward_of(v->yaw, v->pitch);
    RsVec3 right = rs_normalize(rs_cross(f, rs_vec3(0.0f, 1.0f, 0.0f)));
    int moved = 1;
    int moves_camera = key > 0 && key < 128 && strchr("wsadeq", key) != NULL;
    int camera_home = moves_camera ? 0 : v->camera_home;
    switch (key) {
    case 'w': v->eye = rs_madd(v->eye, f, v->speed); break;
    case 's': v->eye = rs_madd(v->eye, f, -v->speed); break;
    case 'd': v->eye = rs_madd(v->eye, right, v->speed); break;
    case 'a': v->eye = rs_madd(v->eye, right, -v->speed); break;
    case 'e': v->eye.y += v->speed; break;
    case 'q': v->eye.y -= v->speed; break;
    case 'r':
        v->eye = v->home_eye;
        v->yaw = v->home_yaw;
        v->pitch = v->home_pitch;
        v->fov = v->home_fov;
        camera_home = 1;
        break;
    default:
        moved = 0;
        break;
    }
    if (key >= '1' && key <= '9') {
        v->max_depth = (uint32_t)(key - '0');
        moved = 1;
    }
    if (moved) {
        v->keys_applied++;
        v->camera_home = camera_home;
        v->dirty = 1;
        return 1;
    }
    switch (key) {
    case 'm':
    case '\t':
        v->keys_applied++;
        return next_strategy(v, err) ? -1 : 1;
    case 'i':
        v->keys_applied++;
        return next_integrator(v, err) ? -1 : 1;
    case 'b': v->display.exposure += 0.5f; break;
    case 'B': v->display.exposure -= 0.5f; break;
    case 'x': v->display.auto_exposure = !v->display.auto_exposure; break;
    case 'n': v->display.denoise = !v->display.denoise; break;
    case 'v': v->display.layer = (v->display.layer + 1) % RS_LAYER_COUNT; break;
    case 'S': /* adaptive sampling's heat map on or off (aov.h, rs_film_samples_heat) */
        if (v->display.layer == RS_LAYER_SAMPLES) {
            v->display.layer = v->layer_before_heat;
        } else {
            v->layer_before_heat = v->display.layer;
            v->display.layer = RS_LAYER_SAMPLES;
        }
        break;
    case 'h': v->hud = !v->hud; break;
    case '?': v->help = !v->help; break;
    case RS_VIEW_KEY_ESCAPE: v->quit = 1; break;
    case 'c': {
        char json[512];
        rs_viewer_camera_json(v, json, sizeof json);
        fprintf(v->messages, "%s\n", json);
        fflush(v->messages);
        break;
    }
    case 'p': {
        /* the next number whose files do not exist: an earlier session's screenshots, and any
         * input of this one (a texture in the current folder), are never overwritten */
        char png[64], hdr[64];
        struct stat st;
        do {
            v->shot_number++;
            snprintf(png, sizeof png, "raystream-%04u.png", v->shot_number);
            snprintf(hdr, sizeof hdr, "raystream-%04u.hdr", v->shot_number);
        } while ((lstat(png, &st) == 0 || lstat(hdr, &st) == 0) && v->shot_number < UINT32_MAX);
        v->screenshots++;
        if (rs_viewer_screenshot(v, png, hdr, err))
            return -1;
        fprintf(v->messages, "raystream: saved %s and %s (%.1f spp)\n", png, hdr, v->shown_spp);
        fflush(v->messages);
        break;
    }
    default:
        return 0;
    }
    v->keys_applied++;
    return 1;
}

void rs_viewer_look(RsViewer* v, float dx, float dy)
{
    float per_pixel = v->fov * (RS_PI / 180.0f) / (float)v->height;
    v->yaw += dx * per_pixel;
    v->pitch = rs_clampf(v->pitch - dy * per_pixel, -1.55f, 1.55f);
    v->camera_home = 0;
    v->dirty = 1;
}

void rs_viewer_wheel(RsViewer* v, float steps, int shift)
{
    if (shift) {
        v->speed *= powf(1.25f, steps);
        return;
    }
    v->fov = rs_clampf(v->fov * powf(0.9f, steps), 1.0f, 170.0f);
    v->camera_home = 0;
    v->dirty = 1;
}

int rs_viewer_screenshot(RsViewer* v, const char* png_path, const char* hdr_path, RsError* err)
{
    if (rs_image_write(png_path, v->width, v->height, NULL, v->rgba, err))
        return -1;
    if (!hdr_path)
        return 0;
    size_t pixels = pixels_of(v);
    RsFloat4* film = malloc(rs_renderer_film_planes(v->renderer) * pixels * sizeof *film); /* every plane */
    float* rgb = malloc(pixels * 3 * sizeof *rgb);
    int status = -1;
    if (!film || !rgb)
        rs_error_set(err, "out of memory for a screenshot");
    else if (rs_renderer_read_film(v->renderer, film, err) == 0) {
        rs_film_resolve(film, (uint32_t)pixels, rgb);
        status = rs_image_write(hdr_path, v->width, v->height, rgb, NULL, err);
    }
    free(film);
    free(rgb);
    return status;
}

void rs_viewer_camera_json(const RsViewer* v, char* out, size_t size)
{
    RsVec3 at = rs_add(v->eye, forward_of(v->yaw, v->pitch));
    snprintf(out, size,
             "\"camera\": { \"eye\": [%.6g, %.6g, %.6g], \"look_at\": [%.6g, %.6g, %.6g], \"up\": [0, 1, 0], "
             "\"fov\": %.6g, \"resolution\": [%u, %u] }",
             v->eye.x, v->eye.y, v->eye.z, at.x, at.y, at.z, v->fov, v->width, v->height);
}

int rs_viewer_write_state(const RsViewer* v, const char* path, RsError* err)
{
    cJSON* s = cJSON_CreateObject();
    cJSON_AddNumberToObject(s, "frames", (double)v->frames);
    cJSON_AddNumberToObject(s, "spp", v->shown_spp);
    cJSON_AddNumberToObject(s, "width", v->width);
    cJSON_AddNumberToObject(s, "height", v->height);
    cJSON_AddStringToObject(s, "accel", rs_accel_name(v->scene.accel.view.kind));
    cJSON_AddNumberToObject(s, "max_depth", v->max_depth);
    cJSON_AddStringToObject(s, "integrator", rs_integrator_name(v->integrator));
    cJSON_AddStringToObject(s, "deadray", rs_deadray_name(rs_renderer_backend_config(v->renderer)->deadray));
    char shown[64];
    cJSON_AddStringToObject(s, "deadray_shown", rs_viewer_deadray(v, shown, sizeof shown));
    cJSON_AddStringToObject(s, "backend", rs_renderer_backend_name(v->renderer));
    char device[1024];
    rs_renderer_describe(v->renderer, device, sizeof device);
    cJSON_AddStringToObject(s, "device", device);
    cJSON_AddNumberToObject(s, "devices", rs_renderer_device_count(v->renderer));
    cJSON_AddNumberToObject(s, "exposure", v->display.exposure);
    cJSON_AddBoolToObject(s, "auto_exposure", v->display.auto_exposure);
    cJSON_AddNumberToObject(s, "applied_exposure", v->stats.exposure);
    cJSON_AddBoolToObject(s, "denoise", v->display.denoise);
    cJSON_AddStringToObject(s, "layer", rs_layer_name(v->display.layer));
    cJSON_AddBoolToObject(s, "hud", v->hud);
    cJSON_AddBoolToObject(s, "help", v->help);
    cJSON_AddNumberToObject(s, "keys_applied", v->keys_applied);
    cJSON_AddNumberToObject(s, "screenshots", v->screenshots);
    cJSON_AddNumberToObject(s, "fps", v->fps);
    cJSON_AddNumberToObject(s, "mrays_per_s", v->mrays);
    cJSON* live = cJSON_AddArrayToObject(s, "live_rays");
    for (uint32_t d = 1; d <= v->max_depth + 1 && d <= RS_STATS_DEPTHS; ++d) /* + emission-only */
        cJSON_AddItemToArray(live, cJSON_CreateNumber((double)v->last.live_at_depth[d]));
    cJSON* hist = cJSON_AddArrayToObject(s, "histogram");
    for (int b = 0; b < RS_HIST_BINS; ++b)
        cJSON_AddItemToArray(hist, cJSON_CreateNumber(v->stats.histogram[b]));
    char* text = cJSON_Print(s);
    cJSON_Delete(s);
    FILE* f = text ? fopen(path, "w") : NULL;
    int ok = f && fputs(text, f) >= 0;
    if (f)
        ok &= fclose(f) == 0;
    free(text);
    return ok ? 0 : rs_error_set(err, "cannot write '%s': %s", path, strerror(errno));
}
