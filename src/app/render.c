/* render.c - `raystream render SCENE -o FILE ...`: offline rendering with progress and ETA.
 *
 * Host C11, application layer. Order of work, so that no time is wasted on a run that cannot
 * finish: parse options, check every output and the checkpoint path can be written, load the
 * scene, create the backend, then trace one sample pass at a time, reporting progress and
 * saving checkpoints between passes. Interrupts escalate (interrupt.h): the first stops after
 * the pass in flight, the second after the wave in flight; either way what has been
 * accumulated is saved to the checkpoint and written to NAME.partial.EXT. A checkpoint that
 * cannot be saved is a warning: the render goes on and its images are still written.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../host/checkpoint.h"
#include "../host/file_hash.h"
#include "../host/image_io.h"
#include "../host/safe_file.h"
#include "../host/scene_json.h"
#include "../host/wavefront.h"
#include "cli.h"
#include "command_args.h"
#include "commands.h"
#include "interrupt.h"
#include "options.h"

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static uint64_t total_rays(const RsTraceStats* s) { return s->camera_rays + s->bounce_rays + s->shadow_rays; }

static void format_seconds(double s, char* out, size_t size)
{
    if (s < 60.0)
        snprintf(out, size, "%.1f s", s);
    else if (s < 3600.0)
        snprintf(out, size, "%dm%02ds", (int)(s / 60.0), (int)s % 60);
    else
        snprintf(out, size, "%dh%02dm", (int)(s / 3600.0), ((int)s % 3600) / 60);
}

/* done_paths of total_paths; `traced` of `to_trace` of them in this run, for the rate and ETA */
static void report_progress(uint64_t done_paths, uint64_t total_paths, uint64_t traced, uint64_t to_trace,
                            uint64_t pixels, double elapsed, const RsTraceStats* stats, int tty)
{
    char el[32], eta[32];
    format_seconds(elapsed, el, sizeof el);
    format_seconds(traced ? elapsed * (double)(to_trace - traced) / (double)traced : 0.0, eta, sizeof eta);
    double mrays = elapsed > 0.0 ? (double)total_rays(stats) / elapsed / 1e6 : 0.0;
    fprintf(stderr, "%sraystream: %llu/%llu spp  %s elapsed  ETA %s  %.1f Mrays/s%s", tty ? "\r" : "",
            (unsigned long long)(done_paths / pixels), (unsigned long long)(total_paths / pixels), el, eta, mrays,
            tty ? "   " : "\n");
    fflush(stderr);
}

/* "out.png" -> "out.partial.png" */
static void partial_name(const char* path, char* out, size_t size)
{
    const char* dot = strrchr(path, '.');
    const char* slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash))
        snprintf(out, size, "%s.partial", path);
    else
        snprintf(out, size, "%.*s.partial%s", (int)(dot - path), path, dot);
}

/* Saves the film; a failure is a warning (the render goes on, its images are still written). */
static int save_checkpoint(RsBackend* backend, const char* path, const RsCheckpointHeader* base, uint64_t paths_done)
{
    RsCheckpointHeader h = *base;
    h.paths_done = paths_done;
    size_t pixels = (size_t)h.width * h.height;
    RsFloat4* film = malloc(pixels * sizeof *film);
    RsError err = {{0}};
    int status = -1;
    if (!film)
        rs_error_set(&err, "out of memory for a checkpoint");
    else if (backend->ops->read_film(backend, film, &err) == 0)
        status = rs_checkpoint_save(path, &h, film, &err);
    if (status)
        rs_cli_warning("%s; the render goes on", err.message);
    free(film);
    return status;
}

/* PNG bytes come from the backend's display pipeline (the viewer's), HDR and PFM from the film. */
static int write_outputs(RsBackend* backend, const RsRenderDesc* rd, const char* const* outputs, int count,
                         const RsDisplaySettings* display, int partial, int quiet)
{
    size_t pixels = (size_t)rd->width * rd->height;
    RsFloat4* film = malloc(pixels * sizeof *film);
    float* rgb = malloc(pixels * 3 * sizeof *rgb);
    uint8_t* rgba = malloc(pixels * 4);
    RsDisplayStats stats;
    RsError err = {{0}};
    int status = RS_EXIT_OK;
    if (!film || !rgb || !rgba) {
        rs_cli_error("out of memory reading back the image");
        status = RS_EXIT_FAILURE;
    } else if (backend->ops->read_film(backend, film, &err) ||
               backend->ops->display(backend, display, rgba, &stats, &err)) {
        rs_cli_error("%s", err.message);
        status = RS_EXIT_FAILURE;
    } else {
        rs_film_resolve(film, (uint32_t)pixels, rgb);
        for (int i = 0; i < count; ++i) {
            char name[RS_PATH_BYTES];
            if (partial)
                partial_name(outputs[i], name, sizeof name);
            else
                snprintf(name, sizeof name, "%s", outputs[i]);
            rs_error_clear(&err);
            if (rs_image_write(name, rd->width, rd->height, rgb, rgba, &err)) {
                rs_cli_error("%s", err.message);
                status = RS_EXIT_FAILURE;
            } else if (!quiet || partial) {
                rs_cli_note("wrote %s", name);
            }
        }
    }
    free(film);
    free(rgb);
    free(rgba);
    return status;
}

/* Fails before anything is rendered when an output or the checkpoint cannot be written; clears
 * temporaries that a killed run left beside them. */
static int check_destinations(const RsRenderArgs* a)
{
    RsError err = {{0}};
    for (int i = 0; i < a->output_count; ++i)
        if (rs_image_check_writable(a->outputs[i], &err))
            break;
    if (!err.message[0] && a->checkpoint)
        rs_file_check_writable(a->checkpoint, &err);
    if (err.message[0]) {
        rs_cli_error("%s", err.message);
        return -1;
    }
    for (int i = 0; i < a->output_count; ++i) {
        char partial[RS_PATH_BYTES];
        partial_name(a->outputs[i], partial, sizeof partial);
        rs_file_remove_stale_temps(a->outputs[i]);
        rs_file_remove_stale_temps(partial);
    }
    if (a->checkpoint)
        rs_file_remove_stale_temps(a->checkpoint);
    return 0;
}

/* Says how far an interrupted (or failed) render got. */
static void report_stop(const char* what, uint64_t done_paths, uint64_t pixels, uint32_t spp)
{
    uint64_t passes = done_paths / pixels, rest = done_paths % pixels;
    if (rest == 0)
        rs_cli_note("%s after %llu of %u samples per pixel", what, (unsigned long long)passes, spp);
    else
        rs_cli_note("stopped in sample pass %llu of %u: %.1f%% of its paths were traced, so pixels hold %llu or "
                    "%llu samples",
                    (unsigned long long)passes + 1, spp, 100.0 * (double)rest / (double)pixels,
                    (unsigned long long)passes, (unsigned long long)passes + 1);
}

int rs_cmd_render(int argc, char** argv)
{
    RsRenderArgs a;
    int parsed = rs_render_parse_args(argc, argv, &a);
    if (parsed > 0) {
        rs_render_usage(stdout);
        return RS_EXIT_OK;
    }
    if (parsed < 0 || check_destinations(&a))
        return parsed < 0 ? RS_EXIT_USAGE : RS_EXIT_FAILURE;
    const RsCommonOptions* opt = &a.opt;

    RsError err = {{0}};
    RsScene scene;
    RsAccelOptions accel = rs_common_accel(opt);
    if (rs_scene_load_json(a.scene_path, &accel, &scene, &err)) {
        rs_cli_error("%s", err.message);
        return RS_EXIT_FAILURE;
    }
    RsRenderDesc rd = scene.render;
    rs_common_options_apply(opt, &rd);
    RsCheckpointHeader ck;
    rs_checkpoint_header_init(&ck);
    ck.width = rd.width;
    ck.height = rd.height;
    ck.seed = rd.seed;
    ck.max_depth = rd.max_depth;
    ck.integrator = rd.integrator;
    if ((a.checkpoint || a.resume) && rs_file_hash64(a.scene_path, &ck.scene_hash)) {
        rs_cli_error("%s: cannot read the scene to fingerprint it for the checkpoint", a.scene_path);
        rs_scene_free(&scene);
        return RS_EXIT_FAILURE;
    }

    int status = RS_EXIT_FAILURE;
    RsBackend* backend = rs_backend_create(&opt->backend, &err);
    RsWavefront wf;
    uint32_t wave = 0;
    uint64_t pixels = (uint64_t)rd.width * rd.height, total = pixels * rd.spp;
    RsSceneView view = rs_scene_view(&scene);
    RsFrameDesc frame = rs_frame_from_scene(&scene, rd.width, rd.height, rd.max_depth, rd.integrator, rd.seed);
    if (!backend || backend->ops->set_scene(backend, &view, &err) || rs_wavefront_plan(backend, total, &wave, &err) ||
        rs_wavefront_begin(&wf, backend, &frame, wave, &err)) {
        rs_cli_error("%s", err.message);
        goto done;
    }
    if (!opt->quiet)
        rs_cli_note("%s: %ux%u, %u spp, %s, max depth %u, %s on %s, %zu primitives in %s%s (%.2f s)", a.scene_path,
                    rd.width, rd.height, rd.spp, rs_integrator_name(rd.integrator), rd.max_depth,
                    rs_deadray_name(opt->backend.deadray), backend->device, scene.prims.count,
                    rs_accel_name(scene.accel.view.kind), scene.accel_options.spatial_splits ? "+sbvh" : "",
                    scene.accel.stats.build_seconds);

    uint64_t done_paths = 0;
    if (a.resume) {
        RsCheckpointHeader got;
        RsFloat4* film = NULL;
        if (rs_checkpoint_load(a.resume, &ck, &got, &film, &err) || backend->ops->write_film(backend, film, &err)) {
            rs_cli_error("%s", err.message);
            free(film);
            goto done;
        }
        free(film);
        if (got.paths_done > total) {
            rs_cli_error("%s holds %.2f samples per pixel, more than the %u asked for", a.resume,
                         (double)got.paths_done / (double)pixels, rd.spp);
            goto done;
        }
        done_paths = got.paths_done;
        if (!opt->quiet)
            rs_cli_note("resuming from %s at %.2f of %u spp", a.resume, (double)done_paths / (double)pixels, rd.spp);
    }
    rs_interrupt_install();
    wf.stop = rs_interrupt_stop_flag();
    int tty = isatty(2);
    double start = now_seconds(), last_report = start, last_checkpoint = start;
    uint64_t first = done_paths;
    int traced = 0;
    while (done_paths < total && rs_interrupt_count() == 0) {
        /* to the end of the pass in flight (a resumed render may start inside one) */
        uint64_t pass_end = (done_paths / pixels + 1) * pixels;
        traced = rs_wavefront_trace(&wf, done_paths, (pass_end < total ? pass_end : total) - done_paths, &err);
        done_paths += wf.paths_traced;
        if (traced < 0)
            break;
        double now = now_seconds();
        if (!opt->quiet && (now - last_report > (tty ? 0.25 : 5.0) || done_paths == total)) {
            report_progress(done_paths, total, done_paths - first, total - first, pixels, now - start, &wf.stats, tty);
            last_report = now;
        }
        if (a.checkpoint && traced == 0 && (now - last_checkpoint >= (double)a.checkpoint_every || done_paths == total)) {
            save_checkpoint(backend, a.checkpoint, &ck, done_paths);
            last_checkpoint = now;
        }
    }
    double elapsed = now_seconds() - start;
    if (!opt->quiet && tty)
        fputc('\n', stderr);
    if (traced < 0 || done_paths < total) {
        /* an error or an interrupt: keep everything that was traced */
        if (traced < 0)
            rs_cli_error("%s", err.message);
        report_stop(traced < 0 ? "failed" : "interrupted", done_paths, pixels, rd.spp);
        if (a.checkpoint && done_paths > first && save_checkpoint(backend, a.checkpoint, &ck, done_paths) == 0)
            rs_cli_note("saved %s; continue with --resume %s", a.checkpoint, a.checkpoint);
        if (done_paths > 0)
            write_outputs(backend, &rd, a.outputs, a.output_count, &a.display, 1, opt->quiet);
        status = traced < 0 ? RS_EXIT_FAILURE : RS_EXIT_INTERRUPTED;
        goto done;
    }
    const RsTraceStats* s = &wf.stats;
    if (!opt->quiet)
        rs_cli_note("done in %.2f s: %.2f Mrays/s (%.2f M camera, %.2f M bounce, %.2f M shadow rays)", elapsed,
                    (double)total_rays(s) / elapsed / 1e6, (double)s->camera_rays / 1e6, (double)s->bounce_rays / 1e6,
                    (double)s->shadow_rays / 1e6);
    status = write_outputs(backend, &rd, a.outputs, a.output_count, &a.display, 0, opt->quiet);
done:
    rs_interrupt_uninstall();
    rs_backend_destroy(backend);
    rs_scene_free(&scene);
    return status;
}
