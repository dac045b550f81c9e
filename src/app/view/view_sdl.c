/* view_sdl.c - the viewer's SDL2 window: the display image through a streaming texture, input
 * mapped to the viewer's keys, and the HUD drawn over it (text by stb_easy_font, bars for the
 * live rays of each bounce and for the luminance histogram). Host C11, application layer.
 *
 * Scripted runs (--frames, --keys, --screenshot, --state) push their keys as real SDL key
 * events, so they travel the same path as a user's; they work with SDL's dummy and offscreen
 * video drivers and under Xvfb.
 */
#include <SDL.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wmissing-braces"
#include <stb_easy_font.h>
#pragma GCC diagnostic pop

#include "app/cli.h"
#include "app/interrupt.h"
#include "app/view/view_window.h"
#include "host/io/image_io.h"
#include "host/scene/settings.h"

int rs_view_window_available(void) { return 1; }

/* One line of text at (x, y), scaled, with stb_easy_font's quads turned into triangles. */
static void draw_text(SDL_Renderer* r, float x, float y, float scale, const char* text, SDL_Color colour)
{
    static char quads[64 * 1024];
    static SDL_Vertex verts[4096];
    static int indices[6144];
    int n = stb_easy_font_print(0, 0, (char*)text, NULL, quads, sizeof quads);
    if (n > 1024)
        n = 1024;
    for (int q = 0; q < n; ++q) {
        for (int k = 0; k < 4; ++k) {
            const float* p = (const float*)(quads + (q * 4 + k) * 16);
            SDL_Vertex* v = &verts[q * 4 + k];
            v->position.x = x + p[0] * scale;
            v->position.y = y + p[1] * scale;
            v->color = colour;
            v->tex_coord.x = v->tex_coord.y = 0.0f;
        }
        int* ix = &indices[q * 6];
        ix[0] = q * 4, ix[1] = q * 4 + 1, ix[2] = q * 4 + 2, ix[3] = q * 4, ix[4] = q * 4 + 2, ix[5] = q * 4 + 3;
    }
    SDL_RenderGeometry(r, NULL, verts, n * 4, indices, n * 6);
}

/* `text` cut to fit `width` pixels at `scale` (a cut line ends in ".."): on a small window the
 * HUD keeps what fits instead of running off the edge. */
static const char* fit_text(const char* text, float width, float scale, char* out, size_t size)
{
    snprintf(out, size, "%s", text);
    size_t n = strlen(out);
    while (n > 2 && (float)stb_easy_font_width(out) * scale > width) {
        out[n - 1] = '\0';
        out[n - 3] = out[n - 2] = '.';
        --n;
    }
    return out;
}

/* The list of keys (? or F1), centred, in as many lines as the window has room for. */
static void draw_help(SDL_Renderer* r, const RsViewer* v, float scale)
{
    const char* const* lines = rs_viewer_key_help();
    int count = 0;
    float key_w = 0.0f, text_w = 0.0f; /* each line is "KEY   WHAT": two columns */
    char key[64];
    for (; lines[count]; ++count) {
        size_t k = strcspn(lines[count], " ");
        while (lines[count][k] == ' ' && lines[count][k + 1] != ' ' && lines[count][k + 1])
            k += 1 + strcspn(lines[count] + k + 1, " ");
        snprintf(key, sizeof key, "%.*s", (int)k, lines[count]);
        float kw = (float)stb_easy_font_width(key) * scale;
        float tw = (float)stb_easy_font_width((char*)lines[count] + k + strspn(lines[count] + k, " ")) * scale;
        key_w = kw > key_w ? kw : key_w;
        text_w = tw > text_w ? tw : text_w;
    }
    float line_h = 11.0f * scale, w = (float)v->width, h = (float)v->height, gap = 10.0f * scale;
    int fit = (int)((h - 16.0f - line_h) / line_h);
    int shown = count < fit ? count : fit;
    float panel_w = key_w + gap + text_w + 16.0f;
    panel_w = panel_w < w - 8.0f ? panel_w : w - 8.0f;
    float panel_h = (float)(shown + 1) * line_h + 10.0f;
    float x0 = (w - panel_w) / 2.0f, y0 = (h - panel_h) / 2.0f > 4.0f ? (h - panel_h) / 2.0f : 4.0f;
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
    SDL_SetRenderDrawColor(r, 0, 0, 0, 200);
    SDL_Rect panel = {(int)x0, (int)y0, (int)panel_w, (int)panel_h};
    SDL_RenderFillRect(r, &panel);
    SDL_Color white = {255, 255, 255, 255}, grey = {180, 180, 180, 255}, gold = {255, 210, 120, 255};
    char buf[128];
    float y = y0 + 5.0f;
    draw_text(r, x0 + 8.0f, y, scale, fit_text(shown < count ? "keys (more in a larger window):" : "keys:",
                                                 panel_w - 16.0f, scale, buf, sizeof buf), grey);
    for (int i = 0; i < shown; ++i) {
        y += line_h;
        size_t k = strcspn(lines[i], " ");
        while (lines[i][k] == ' ' && lines[i][k + 1] != ' ' && lines[i][k + 1])
            k += 1 + strcspn(lines[i] + k + 1, " ");
        snprintf(key, sizeof key, "%.*s", (int)k, lines[i]);
        draw_text(r, x0 + 8.0f, y, scale, key, gold);
        float tx = x0 + 8.0f + key_w + gap;
        draw_text(r, tx, y, scale, fit_text(lines[i] + k + strspn(lines[i] + k, " "), x0 + panel_w - 8.0f - tx, scale,
                                            buf, sizeof buf), white);
    }
}

/* The HUD: figures, live rays per bounce, the luminance histogram and a hint line. It scales
 * with the window: text twice as large from 900 pixels high; below 320x240 only the text
 * lines, below 200x120 only the first and the hint; every line cut to the window's width. */
static void draw_hud(SDL_Renderer* r, const RsViewer* v)
{
    float scale = v->height >= 900 && v->width >= 1200 ? 2.0f : 1.0f;
    int bars = v->width >= 320 && v->height >= 240;
    int tiny = v->width < 200 || v->height < 120;
    float avail = (float)v->width - 14.0f * scale;
    float line_h = 12.0f * scale;
    char buf[256];
    SDL_Color white = {255, 255, 255, 255}, grey = {190, 190, 190, 255};
    const char* hint = v->help ? "F1 or ?: hide keys   H: hide HUD" : "F1 or ?: keys   H: hide HUD";
    int text_lines = tiny ? 1 : 3;
    float panel_w = 250.0f * scale, panel_h = (float)(text_lines + 1) * line_h + 8.0f * scale;
    if (bars)
        panel_h += 4.0f * scale + 2.0f * 58.0f * scale;
    panel_w = panel_w < (float)v->width - 8.0f ? panel_w : (float)v->width - 8.0f;
    panel_h = panel_h < (float)v->height - 8.0f ? panel_h : (float)v->height - 8.0f;
    char text[3][256], deadray[64];
    snprintf(text[0], sizeof text[0], "%.1f FPS  %.1f spp  %.1f Mrays/s", v->fps, rs_viewer_spp(v), v->mrays);
    snprintf(text[1], sizeof text[1], "%s  depth %u  %s  %s  %s", rs_integrator_name(v->integrator), v->max_depth,
             rs_viewer_deadray(v, deadray, sizeof deadray), rs_accel_name(v->scene.accel.view.kind),
             rs_renderer_backend_name(v->renderer));
    snprintf(text[2], sizeof text[2], "exposure %+.1f%s (applied %+.2f)  %s%s", v->display.exposure,
             v->display.auto_exposure ? " + auto" : "", v->stats.exposure, rs_layer_name(v->display.layer),
             v->display.denoise && v->display.layer == RS_LAYER_BEAUTY ? ", denoised" : "");
    for (int i = 0; i < text_lines; ++i) { /* as wide as its longest line, within the window */
        float lw = (float)stb_easy_font_width(text[i]) * scale + 14.0f * scale;
        panel_w = lw > panel_w && lw < (float)v->width - 8.0f ? lw : panel_w;
    }
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
    SDL_SetRenderDrawColor(r, 0, 0, 0, 150);
    SDL_Rect panel = {4, 4, (int)panel_w, (int)panel_h};
    SDL_RenderFillRect(r, &panel);
    float x = 10.0f, y = 8.0f;
    for (int i = 0; i < text_lines; ++i) {
        draw_text(r, x, y, scale, fit_text(text[i], avail, scale, buf, sizeof buf), white);
        y += line_h;
    }
    if (bars) {
        y += 4.0f * scale;
        /* live rays entering each bounce in the last frame, as % of its camera rays */
        draw_text(r, x, y, scale, "live rays per bounce", white);
        y += 10.0f * scale;
        uint64_t cam = v->last.live_at_depth[1] ? v->last.live_at_depth[1] : 1;
        for (uint32_t d = 1; d <= v->max_depth && d <= 9; ++d) {
            float f = (float)v->last.live_at_depth[d] / (float)cam;
            SDL_Rect bar = {(int)(x + (float)(d - 1) * 26.0f * scale), (int)(y + 40.0f * scale * (1.0f - f)),
                            (int)(20.0f * scale), (int)(40.0f * scale * f)};
            SDL_SetRenderDrawColor(r, 90, 160, 255, 230);
            SDL_RenderFillRect(r, &bar);
        }
        y += 48.0f * scale;
        /* luminance histogram, log scale in EV from RS_HIST_MIN_EV to RS_HIST_MAX_EV */
        draw_text(r, x, y, scale, "luminance histogram (EV)", white);
        y += 10.0f * scale;
        uint32_t peak = 1;
        for (int b = 0; b < RS_HIST_BINS; ++b)
            peak = v->stats.histogram[b] > peak ? v->stats.histogram[b] : peak;
        for (int b = 0; b < RS_HIST_BINS; ++b) {
            float hb = 40.0f * scale * (float)v->stats.histogram[b] / (float)peak;
            SDL_Rect bar = {(int)(x + (float)b * 3.0f * scale), (int)(y + 40.0f * scale - hb), (int)(3.0f * scale),
                            (int)hb};
            SDL_SetRenderDrawColor(r, 255, 200, 80, 230);
            SDL_RenderFillRect(r, &bar);
        }
        y += 48.0f * scale;
    }
    draw_text(r, x, y, scale, fit_text(hint, avail, scale, buf, sizeof buf), grey);
    if (v->help)
        draw_help(r, v, scale);
}

static int key_of_event(const SDL_KeyboardEvent* k)
{
    SDL_Keycode c = k->keysym.sym;
    int shift = (k->keysym.mod & KMOD_SHIFT) != 0;
    if (c == SDLK_ESCAPE)
        return RS_VIEW_KEY_ESCAPE;
    if (c == SDLK_TAB)
        return '\t';
    if (c == SDLK_F1 || (c == SDLK_SLASH && shift) || c == SDLK_QUESTION)
        return '?';
    if (c >= SDLK_a && c <= SDLK_z)
        return shift ? (int)(c - SDLK_a + 'A') : (int)(c - SDLK_a + 'a');
    if (c >= SDLK_0 && c <= SDLK_9)
        return (int)(c - SDLK_0 + '0');
    return 0;
}

/* Pushes the scripted keys as SDL key-down events. */
static void inject_keys(const char* list)
{
    char buf[RS_VIEW_KEYS_MAX];
    snprintf(buf, sizeof buf, "%s", list);
    for (char* tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        int code = rs_view_key_code(tok);
        SDL_Event e;
        memset(&e, 0, sizeof e);
        e.type = SDL_KEYDOWN;
        e.key.state = SDL_PRESSED;
        if (code == RS_VIEW_KEY_ESCAPE)
            e.key.keysym.sym = SDLK_ESCAPE;
        else if (code == '\t')
            e.key.keysym.sym = SDLK_TAB;
        else if (code == '?')
            e.key.keysym.sym = SDLK_F1;
        else if (code >= 'A' && code <= 'Z') {
            e.key.keysym.sym = SDLK_a + (code - 'A');
            e.key.keysym.mod = KMOD_LSHIFT;
        } else
            e.key.keysym.sym = (SDL_Keycode)code; /* SDL keycodes of letters and digits are their ASCII */
        SDL_PushEvent(&e);
    }
}

/* Reads back what is about to be presented (image and HUD) and writes it as PNG. */
static int save_window(SDL_Renderer* r, const RsViewer* v, const char* path, RsError* err)
{
    uint8_t* pixels = malloc((size_t)v->width * v->height * 4);
    if (!pixels)
        return rs_error_set(err, "out of memory for a window shot");
    int status = -1;
    if (SDL_RenderReadPixels(r, NULL, SDL_PIXELFORMAT_RGBA32, pixels, (int)v->width * 4) != 0)
        rs_error_set(err, "view: cannot read the window back: %s", SDL_GetError());
    else
        status = rs_image_write(path, v->width, v->height, NULL, pixels, err);
    free(pixels);
    return status;
}

int rs_view_window_run(RsViewer* v, const RsViewScript* script)
{
    /* signals are raystream's (interrupt.h, installed by view.c), in a window as headless:
     * SDL's own SIGINT and SIGTERM handlers would only post SDL_QUIT */
    SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        rs_view_no_display(SDL_GetError());
        return RS_EXIT_FAILURE;
    }
    /* a driver that shows nothing (offscreen, dummy), which SDL falls back to where no display
     * answers, only when asked for by name: otherwise the viewer would run invisibly */
    const char* driver = SDL_GetCurrentVideoDriver();
    const char* asked = getenv("SDL_VIDEODRIVER");
    if (driver && (strcmp(driver, "offscreen") == 0 || strcmp(driver, "dummy") == 0) && !(asked && asked[0])) {
        char why[96];
        snprintf(why, sizeof why, "SDL found only its '%s' video driver, which shows nothing", driver);
        SDL_Quit();
        rs_view_no_display(why);
        return RS_EXIT_FAILURE;
    }
    int status = RS_EXIT_FAILURE;
    SDL_Window* window = SDL_CreateWindow("raystream", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED,
                                          (int)v->width, (int)v->height, 0);
    SDL_Renderer* renderer = window ? SDL_CreateRenderer(window, -1, SDL_RENDERER_ACCELERATED) : NULL;
    if (window && !renderer)
        renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE);
    SDL_Texture* texture = renderer ? SDL_CreateTexture(renderer, SDL_PIXELFORMAT_RGBA32, SDL_TEXTUREACCESS_STREAMING,
                                                        (int)v->width, (int)v->height)
                                    : NULL;
    if (!texture) {
        rs_view_no_display(SDL_GetError());
        goto done;
    }
    RsError err = {{0}};
    int dragging = 0;
    Uint32 last_title = 0;
    for (uint64_t frame = 0; !v->quit && !rs_interrupt_count() && (!script->frames || frame < script->frames);
         ++frame) {
        if (script->keys && frame == script->keys_at_frame)
            inject_keys(script->keys);
        if (rs_interrupt_take_save_request() && rs_viewer_key(v, 'p', &err) < 0) {
            rs_cli_error("%s", err.message);
            goto done;
        }
        SDL_Event e;
        while (SDL_PollEvent(&e)) {
            if (e.type == SDL_QUIT) {
                v->quit = 1;
            } else if (e.type == SDL_KEYDOWN) {
                int key = key_of_event(&e.key);
                if (key && rs_viewer_key(v, key, &err) < 0) {
                    rs_cli_error("%s", err.message);
                    goto done;
                }
            } else if (e.type == SDL_MOUSEBUTTONDOWN || e.type == SDL_MOUSEBUTTONUP) {
                dragging = e.type == SDL_MOUSEBUTTONDOWN;
            } else if (e.type == SDL_MOUSEMOTION && dragging) {
                rs_viewer_look(v, (float)e.motion.xrel, (float)e.motion.yrel);
            } else if (e.type == SDL_MOUSEWHEEL) {
                rs_viewer_wheel(v, e.wheel.preciseY, (SDL_GetModState() & KMOD_SHIFT) != 0);
            }
        }
        if (v->quit)
            break;
        if (rs_viewer_frame(v, script->budget_seconds, &err)) {
            rs_cli_error("%s", err.message);
            goto done;
        }
        SDL_UpdateTexture(texture, NULL, v->rgba, (int)v->width * 4);
        SDL_RenderClear(renderer);
        SDL_RenderCopy(renderer, texture, NULL, NULL);
        if (v->hud)
            draw_hud(renderer, v);
        if (script->window_shot && script->frames && frame + 1 == script->frames &&
            save_window(renderer, v, script->window_shot, &err)) {
            rs_cli_error("%s", err.message);
            goto done;
        }
        SDL_RenderPresent(renderer);
        if (SDL_GetTicks() - last_title > 500) {
            char title[256], deadray[64];
            snprintf(title, sizeof title, "raystream - %.1f FPS, %.1f spp, %.1f Mrays/s, %s, depth %u, %s", v->fps,
                     rs_viewer_spp(v), v->mrays, rs_viewer_deadray(v, deadray, sizeof deadray), v->max_depth,
                     rs_integrator_name(v->integrator));
            SDL_SetWindowTitle(window, title);
            last_title = SDL_GetTicks();
        }
    }
    status = RS_EXIT_OK;
done:
    if (texture)
        SDL_DestroyTexture(texture);
    if (renderer)
        SDL_DestroyRenderer(renderer);
    if (window)
        SDL_DestroyWindow(window);
    SDL_Quit();
    return status;
}
