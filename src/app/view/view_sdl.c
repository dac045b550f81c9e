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

static void draw_hud(SDL_Renderer* r, const RsViewer* v)
{
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
    SDL_SetRenderDrawColor(r, 0, 0, 0, 150);
    SDL_Rect panel = {4, 4, 250, 176};
    SDL_RenderFillRect(r, &panel);
    SDL_Color white = {255, 255, 255, 255};
    char line[256];
    float y = 8.0f;
    snprintf(line, sizeof line, "%.1f FPS  %.1f spp  %.1f Mrays/s", v->fps, rs_viewer_spp(v), v->mrays);
    draw_text(r, 10, y, 1.0f, line, white);
    y += 12;
    snprintf(line, sizeof line, "%s  depth %u  %s  %s  %s", rs_integrator_name(v->integrator), v->max_depth,
             rs_deadray_name(rs_renderer_backend_config(v->renderer)->deadray), rs_accel_name(v->scene.accel.view.kind),
             rs_renderer_backend_name(v->renderer));
    draw_text(r, 10, y, 1.0f, line, white);
    y += 12;
    snprintf(line, sizeof line, "exposure %+.1f%s (applied %+.2f)  %s%s", v->display.exposure,
             v->display.auto_exposure ? " + auto" : "", v->stats.exposure, rs_layer_name(v->display.layer),
             v->display.denoise && v->display.layer == RS_LAYER_BEAUTY ? ", denoised" : "");
    draw_text(r, 10, y, 1.0f, line, white);
    y += 16;

    /* live rays entering each bounce in the last frame, as % of its camera rays */
    draw_text(r, 10, y, 1.0f, "live rays per bounce", white);
    y += 10;
    uint64_t cam = v->last.live_at_depth[1] ? v->last.live_at_depth[1] : 1;
    for (uint32_t d = 1; d <= v->max_depth && d <= 9; ++d) {
        float f = (float)v->last.live_at_depth[d] / (float)cam;
        SDL_Rect bar = {10 + (int)(d - 1) * 26, (int)y + 40 - (int)(40 * f), 20, (int)(40 * f)};
        SDL_SetRenderDrawColor(r, 90, 160, 255, 230);
        SDL_RenderFillRect(r, &bar);
    }
    y += 48;

    /* luminance histogram, log scale in EV from RS_HIST_MIN_EV to RS_HIST_MAX_EV */
    draw_text(r, 10, y, 1.0f, "luminance histogram (EV)", white);
    y += 10;
    uint32_t peak = 1;
    for (int b = 0; b < RS_HIST_BINS; ++b)
        peak = v->stats.histogram[b] > peak ? v->stats.histogram[b] : peak;
    for (int b = 0; b < RS_HIST_BINS; ++b) {
        int h = (int)(40.0f * (float)v->stats.histogram[b] / (float)peak);
        SDL_Rect bar = {10 + b * 3, (int)y + 40 - h, 3, h};
        SDL_SetRenderDrawColor(r, 255, 200, 80, 230);
        SDL_RenderFillRect(r, &bar);
    }
}

static int key_of_event(const SDL_KeyboardEvent* k)
{
    SDL_Keycode c = k->keysym.sym;
    int shift = (k->keysym.mod & KMOD_SHIFT) != 0;
    if (c == SDLK_ESCAPE)
        return RS_VIEW_KEY_ESCAPE;
    if (c == SDLK_TAB)
        return '\t';
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
        rs_cli_error("view: cannot open a window: %s (try --headless, or SDL_VIDEODRIVER=dummy)", SDL_GetError());
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
        rs_cli_error("view: cannot create the window: %s", SDL_GetError());
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
            char title[256];
            snprintf(title, sizeof title, "raystream - %.1f FPS, %.1f spp, %.1f Mrays/s, %s, depth %u, %s", v->fps,
                     rs_viewer_spp(v), v->mrays, rs_deadray_name(rs_renderer_backend_config(v->renderer)->deadray), v->max_depth,
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
