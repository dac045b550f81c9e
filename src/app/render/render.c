/* render.c - `raystream render SCENE -o FILE ...`: offline rendering with progress and ETA.
 *
 * Host C11, application layer. Order of work, so that no time is wasted on a run that cannot
 * finish: parse options, check every output and the checkpoint path can be written, load the
 * scene, create the renderer (renderer.h: every device asked for), then trace to the sample
 * count, reporting progress and saving checkpoints from the renderer's tick. Interrupts
 * escalate (interrupt.h): the first stops at the end of the sample pass in flight, the second
 * after the wave in flight; either way what has been accumulated is saved to the checkpoint and
 * written to NAME.partial.EXT. --time-limit stops the same way at the pass, but ends as a
 * finished render (time_limit.h). Before tracing, the render's settings (render_settings.h) are
 * listed: checkpoints store them, --resume and the MPI ranks compare them, EXR outputs carry
 * them. A device that fails ends the render with an error naming it,
 * and what the film holds is still saved and written. A checkpoint that cannot be saved is a
 * warning: the render goes on and its images are still written.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/cli.h"
#include "app/command_args.h"
#include "app/commands.h"
#include "app/interrupt.h"
#include "app/options.h"
#include "app/render/cluster.h"
#include "app/render/render_outputs.h"
#include "app/render/render_settings.h"
#include "app/render/time_limit.h"
#include "host/import/scene_loader.h"
#include "host/io/image_io.h"
#include "host/io/safe_file.h"
#include "host/render/checkpoint.h"
#include "host/render/renderer.h"
#include "host/scene/settings.h"
#include "host/util/clock.h"
#include "host/util/file_list.h"

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
    double mrays = elapsed > 0.0 ? (double)rs_trace_stats_rays(stats) / elapsed / 1e6 : 0.0;
    fprintf(stderr, "%sraystream: %llu/%llu spp  %s elapsed  ETA %s  %.1f Mrays/s%s", tty ? "\r" : "",
            (unsigned long long)(done_paths / pixels), (unsigned long long)(total_paths / pixels), el, eta, mrays,
            tty ? "   " : "\n");
    fflush(stderr);
}

/* Saves the film; a failure is a warning (the render goes on, its images are still written). */
static int save_checkpoint(RsRenderer* renderer, const char* path, const RsCheckpointHeader* base,
                           const RsImageSettings* settings, uint64_t paths_done)
{
    RsCheckpointHeader h = *base;
    h.paths_done = paths_done;
    size_t entries = (size_t)h.width * h.height * h.film_planes;
    RsFloat4* film = malloc(entries * sizeof *film);
    RsError err = {{0}};
    int status = -1;
    if (!film)
        rs_error_set(&err, "out of memory for a checkpoint");
    else if (rs_renderer_read_film(renderer, film, &err) == 0)
        status = rs_checkpoint_save(path, &h, settings, film, &err);
    if (status)
        rs_cli_warning("%s; the render goes on", err.message);
    free(film);
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
        rs_render_partial_name(a->outputs[i], partial, sizeof partial);
        rs_file_remove_stale_temps(a->outputs[i]);
        rs_file_remove_stale_temps(partial);
    }
    if (a->checkpoint)
        rs_file_remove_stale_temps(a->checkpoint);
    return 0;
}

/* Says how far an interrupted (or failed) render got, from the film's per-pixel counts. */
static void report_stop(const char* what, const RsFloat4* film, uint64_t pixels, uint32_t spp)
{
    float lo = film[0].w, hi = film[0].w;
    double sum = 0.0;
    for (uint64_t i = 0; i < pixels; ++i) {
        lo = film[i].w < lo ? film[i].w : lo;
        hi = film[i].w > hi ? film[i].w : hi;
        sum += film[i].w;
    }
    if (lo == hi)
        rs_cli_note("%s after %.0f of %u samples per pixel", what, (double)lo, spp);
    else if (hi == lo + 1.0f)
        rs_cli_note("stopped in sample pass %.0f of %u: %.1f%% of its paths were traced, so pixels hold %.0f or "
                    "%.0f samples",
                    (double)hi, spp, 100.0 * (sum - (double)lo * (double)pixels) / (double)pixels, (double)lo,
                    (double)hi);
    else
        rs_cli_note("%s with %.2f of %u samples per pixel on average (pixels hold %.0f to %.0f)", what,
                    sum / (double)pixels, spp, (double)lo, (double)hi);
}

/* The same, reading the film first. */
static void report_film(RsRenderer* renderer, const char* what, uint64_t pixels, uint32_t planes, uint32_t spp)
{
    RsFloat4* film = malloc(pixels * planes * sizeof *film);
    RsError err = {{0}};
    if (film && rs_renderer_read_film(renderer, film, &err) == 0)
        report_stop(what, film, pixels, spp);
    free(film);
}

/* What the renderer's tick needs: progress lines, timed checkpoints, the time limit and, under
 * mpirun, the stops that rank 0 passes on to the other ranks. */
typedef struct RenderProgress {
    RsRenderer* renderer;
    const RsRenderArgs* args;
    const RsCheckpointHeader* checkpoint;
    const RsImageSettings* settings;
    RsCluster* cluster;
    RsTimeLimit limit;
    uint64_t first, total, pixels;
    double start, last_report, last_checkpoint;
    int tty;
    int stop_sent;                               /* rank 0: the stop level passed on so far */
    volatile sig_atomic_t stop_pass, stop_wave;  /* rank 0: its own pass stop (an interrupt or the
                                                    time limit); the other ranks: rank 0's stops */
} RenderProgress;

/* Paths done, over the whole image: under mpirun this rank's share, scaled to the image. */
static uint64_t image_paths_done(const RenderProgress* p)
{
    uint64_t done = 0, target = 0;
    rs_renderer_progress(p->renderer, &done, &target);
    if (p->cluster->size == 1 || target == 0)
        return done;
    return (uint64_t)((double)done / (double)target * (double)p->total);
}

static void render_tick(void* ctx)
{
    RenderProgress* p = ctx;
    if (p->cluster->rank == 0) {
        int level = rs_interrupt_count() >= 2 ? 2 : rs_interrupt_count();
        if (level < 1 && rs_time_limit_check(&p->limit, rs_clock_seconds()))
            level = 1;
        p->stop_pass |= level >= 1;
        if (p->cluster->size > 1 && level > p->stop_sent) {
            rs_cluster_send_stop(p->cluster, level);
            p->stop_sent = level;
        }
    } else {
        int level = rs_cluster_poll_stop(p->cluster);
        p->stop_pass |= level >= 1;
        p->stop_wave |= level >= 2;
    }
    uint64_t done = image_paths_done(p);
    double now = rs_clock_seconds();
    if (!p->args->opt.quiet && now - p->last_report > (p->tty ? 0.25 : 5.0)) {
        RsTraceStats stats = rs_renderer_stats(p->renderer);
        report_progress(done, p->total, done - p->first, p->total - p->first, p->pixels, now - p->start, &stats,
                        p->tty);
        p->last_report = now;
    }
    /* under mpirun the film is gathered once, at the end (or on an interrupt) */
    if (p->args->checkpoint && p->cluster->size == 1 && now - p->last_checkpoint >= (double)p->args->checkpoint_every &&
        done < p->total) {
        save_checkpoint(p->renderer, p->args->checkpoint, p->checkpoint, p->settings, done);
        p->last_checkpoint = now;
    }
}

/* Under mpirun: every rank's film summed into rank 0's, which then holds the whole image (and
 * the others are done). *stopped and the ray counts become the job's. Returns 1 on ranks other
 * than 0, 0 on rank 0, -1 on an error. */
static int gather(RsCluster* cl, RsRenderer* renderer, uint64_t pixels, uint32_t spp, int* stopped, RsTraceStats* s,
                  RsError* err)
{
    size_t entries = (size_t)pixels * rs_renderer_film_planes(renderer);
    RsFloat4* film = malloc(entries * sizeof *film);
    uint64_t rays[3] = {s->camera_rays, s->bounce_rays, s->shadow_rays};
    if (!film || rs_renderer_read_film(renderer, film, err) || rs_cluster_max_int(cl, stopped) ||
        rs_cluster_sum_u64(cl, rays, 3) || rs_cluster_sum_film(cl, film, entries)) {
        free(film);
        return film ? -1 : rs_error_set(err, "out of memory gathering the film");
    }
    int status = 1;
    if (cl->rank == 0) {
        s->camera_rays = rays[0];
        s->bounce_rays = rays[1];
        s->shadow_rays = rays[2];
        rs_renderer_set_share(renderer, 0, 1); /* from here on, the whole image */
        status = rs_renderer_resume(renderer, film, spp, err);
    }
    free(film);
    return status;
}

static int render_main(RsRenderArgs* args, RsCluster* cl);

int rs_cmd_render(int argc, char** argv)
{
    RsRenderArgs a;
    int parsed = rs_render_parse_args(argc, argv, &a);
    if (parsed > 0) {
        rs_render_usage(stdout);
        return RS_EXIT_OK;
    }
    if (parsed < 0)
        return RS_EXIT_USAGE;
    RsCluster cl;
    if (rs_cluster_join(&cl))
        return RS_EXIT_FAILURE;
    if (cl.rank != 0)
        a.opt.quiet = 1; /* progress and notes come from rank 0 */
    int status = render_main(&a, &cl);
    /* a rank that cannot go on must not leave the others waiting in the gather */
    if (cl.size > 1 && status != RS_EXIT_OK && status != RS_EXIT_INTERRUPTED)
        rs_cluster_abort(&cl, status);
    rs_cluster_leave(&cl);
    return status;
}

static int render_main(RsRenderArgs* args, RsCluster* cl)
{
    RsRenderArgs a = *args;
    if (cl->rank == 0 && check_destinations(&a))
        return RS_EXIT_FAILURE;
    const RsCommonOptions* opt = &a.opt;

    RsError err = {{0}};
    RsScene scene;
    RsAccelOptions accel = rs_common_accel(opt);
    RsFileList files = {0}; /* every file the scene read: what the settings fingerprint */
    RsImageSettings settings = {0};
    RsRenderer* renderer = NULL;
    int status = RS_EXIT_FAILURE;
    if (rs_scene_load(a.scene_path, &accel, &scene, &files, &err)) {
        rs_cli_error("%s", err.message);
        rs_file_list_free(&files);
        return RS_EXIT_FAILURE;
    }
    RsRenderDesc rd = scene.render;
    rs_common_options_apply(opt, &rd);
    if (rs_scene_set_render(&scene, &rd, &err)) {
        rs_cli_error("%s", err.message);
        goto done;
    }
    if (cl->rank == 0)
        rs_common_warn_unlit(&scene, a.scene_path);
    RsCheckpointHeader ck;
    rs_checkpoint_header_init(&ck);
    ck.width = rd.width;
    ck.height = rd.height;

    uint64_t pixels = (uint64_t)rd.width * rd.height, total = pixels * rd.spp;
    RsFrameDesc frame = rs_frame_from_scene(&scene, rd.width, rd.height, rd.max_depth, rd.integrator, rd.seed);
    RsRendererConfig rc = rs_common_renderer_config(opt);
    rc.backend.aovs = a.aovs != 0 || a.denoise;
    ck.film_planes = rs_film_planes(&rc.backend);
    /* input files are hashed only where the list is kept or compared */
    int exr = 0;
    for (int i = 0; i < a.output_count; ++i) {
        RsImageFormat format;
        RsError ignored = {{0}};
        exr |= rs_image_format_from_path(a.outputs[i], &format, &ignored) == 0 && format == RS_IMAGE_EXR;
    }
    int fingerprint = a.checkpoint || a.resume || cl->size > 1 || exr;
    if (rs_render_settings(&a, &scene, &frame, ck.film_planes, rd.spp, fingerprint ? &files : NULL, &settings,
                           &err)) {
        rs_cli_error("%s", err.message);
        goto done;
    }
    if (rs_render_agree(cl, &settings))
        goto done;
    rs_cluster_local_devices(cl, &rc);
    renderer = rs_renderer_create(&scene, &rc, &err);
    if (renderer)
        rs_renderer_set_share(renderer, (uint32_t)cl->rank, (uint32_t)cl->size);
    if (!renderer || rs_renderer_begin(renderer, &frame, total, &err)) {
        if (cl->size > 1)
            rs_cli_error("rank %d of %d: %s", cl->rank, cl->size, err.message);
        else
            rs_cli_error("%s", err.message);
        goto done;
    }
    if (!opt->quiet) {
        char devices[1024], ranks[64] = "";
        rs_renderer_describe(renderer, devices, sizeof devices);
        if (cl->size > 1)
            snprintf(ranks, sizeof ranks, " (rank 0 of %d)", cl->size);
        rs_cli_note("%s: %ux%u, %u spp, %s, max depth %u, %s on %s%s, %zu primitives in %s%s (%.2f s)", a.scene_path,
                    rd.width, rd.height, rd.spp, rs_integrator_name(rd.integrator), rd.max_depth,
                    rs_deadray_name(opt->backend.deadray), devices, ranks, scene.prims.count,
                    rs_accel_name(scene.accel.view.kind), scene.accel_options.spatial_splits ? "+sbvh" : "",
                    scene.accel.stats.build_seconds);
    }

    if (a.resume) {
        RsCheckpointHeader got;
        RsImageSettings made = {0};
        RsFloat4* film = NULL;
        if (rs_checkpoint_load(a.resume, &ck, &settings, &got, &made, &film, &err)) {
            rs_cli_error("%s", err.message);
            goto done;
        }
        RsSettingDiff d;
        if (!opt->quiet && rs_image_settings_diff(&made, &settings, RS_SETTING_ROUNDING, &d)) {
            char words[1024];
            rs_setting_diff_text(&d, "made with", "this render uses", words, sizeof words);
            rs_cli_note("%s: %s: the same estimate, but the result will not be bit-identical to a render that "
                        "never stopped",
                        a.resume, words);
        }
        rs_image_settings_free(&made);
        double counted = 0.0;
        for (uint64_t i = 0; i < pixels; ++i)
            counted += film[i].w;
        if (got.paths_done > total) {
            rs_cli_error("%s holds %.2f samples per pixel, more than the %u asked for", a.resume,
                         (double)got.paths_done / (double)pixels, rd.spp);
            free(film);
            goto done;
        }
        if (counted != (double)got.paths_done) {
            rs_cli_error("%s: its header counts %llu samples but its pixels hold %.0f; the file is inconsistent",
                         a.resume, (unsigned long long)got.paths_done, counted);
            free(film);
            goto done;
        }
        if (rs_renderer_resume(renderer, film, rd.spp, &err)) {
            rs_cli_error("%s: %s", a.resume, err.message);
            free(film);
            goto done;
        }
        free(film);
        if (!opt->quiet)
            rs_cli_note("resuming from %s at %.2f of %u spp", a.resume, (double)got.paths_done / (double)pixels,
                        rd.spp);
    }
    rs_interrupt_install();
    RenderProgress progress;
    memset(&progress, 0, sizeof progress);
    progress.renderer = renderer;
    progress.args = &a;
    progress.checkpoint = &ck;
    progress.settings = &settings;
    progress.cluster = cl;
    progress.first = rs_renderer_paths_done(renderer) * (uint64_t)cl->size; /* a resumed film: about even shares */
    progress.total = total;
    progress.pixels = pixels;
    progress.tty = isatty(2);
    progress.start = progress.last_report = progress.last_checkpoint = rs_clock_seconds();
    rs_time_limit_start(&progress.limit, cl->rank == 0 ? a.time_limit : 0.0, progress.start);
    /* rank 0: a first interrupt or the time limit, through the tick; the other ranks: rank 0's */
    rs_renderer_set_stop(renderer, &progress.stop_pass,
                         cl->rank == 0 ? rs_interrupt_stop_flag() : &progress.stop_wave);
    rs_renderer_set_tick(renderer, render_tick, &progress);
    int traced = rs_renderer_trace(renderer, total, &err);
    if (traced < 0 && cl->size > 1) {
        rs_cli_error("rank %d of %d: %s", cl->rank, cl->size, err.message);
        goto done; /* the job ends: rs_cmd_render aborts it */
    }
    RsTraceStats s = rs_renderer_stats(renderer);
    if (cl->size > 1) {
        int stopped = traced != 0;
        int gathered = gather(cl, renderer, pixels, rd.spp, &stopped, &s, &err);
        if (gathered < 0) {
            rs_cli_error("rank %d of %d: gathering the film: %s", cl->rank, cl->size, err.message);
            goto done;
        }
        if (gathered > 0) {
            /* not rank 0: its part is in rank 0's film, and rank 0 reports how the job ended (a
             * non-zero exit here would make mpirun kill rank 0 while it writes) */
            status = RS_EXIT_OK;
            goto done;
        }
        traced = stopped ? RS_WAVEFRONT_STOPPED : 0;
        progress.first = 0;
    }
    uint64_t done_paths = rs_renderer_paths_done(renderer);
    double elapsed = rs_clock_seconds() - progress.start;
    if (!opt->quiet) {
        report_progress(done_paths, total, done_paths - progress.first, total - progress.first, pixels, elapsed, &s,
                        progress.tty);
        if (progress.tty)
            fputc('\n', stderr);
    }
    /* the time limit (and no interrupt) ended it: a finished render of fewer samples */
    int timed_out = traced == RS_WAVEFRONT_STOPPED && progress.limit.reached && rs_interrupt_count() == 0;
    if (!timed_out && (traced != 0 || done_paths < total)) {
        /* an error or an interrupt: keep everything that was traced */
        if (traced < 0)
            rs_cli_error("%s", err.message);
        report_film(renderer, traced < 0 ? "failed" : "interrupted", pixels, ck.film_planes, rd.spp);
        if (a.checkpoint && done_paths > progress.first &&
            save_checkpoint(renderer, a.checkpoint, &ck, &settings, done_paths) == 0)
            rs_cli_note("saved %s; continue with --resume %s", a.checkpoint, a.checkpoint);
        if (done_paths > 0)
            rs_render_write_outputs(renderer, rd.width, rd.height, &a, &settings, 1);
        status = traced < 0 ? RS_EXIT_FAILURE : RS_EXIT_INTERRUPTED;
        goto done;
    }
    if (timed_out && done_paths < total) {
        char what[96];
        rs_time_limit_describe(&progress.limit, what, sizeof what);
        char stopped[128];
        snprintf(stopped, sizeof stopped, "stopped at %s", what);
        report_film(renderer, stopped, pixels, ck.film_planes, rd.spp);
    }
    if (a.checkpoint && save_checkpoint(renderer, a.checkpoint, &ck, &settings, done_paths) == 0 && timed_out &&
        done_paths < total)
        rs_cli_note("saved %s; continue with --resume %s", a.checkpoint, a.checkpoint);
    if (!opt->quiet)
        rs_cli_note("done in %.2f s: %.2f Mrays/s (%.2f M camera, %.2f M bounce, %.2f M shadow rays)", elapsed,
                    (double)rs_trace_stats_rays(&s) / elapsed / 1e6, (double)s.camera_rays / 1e6,
                    (double)s.bounce_rays / 1e6, (double)s.shadow_rays / 1e6);
    status = rs_render_write_outputs(renderer, rd.width, rd.height, &a, &settings, 0);
done:
    rs_interrupt_uninstall();
    rs_renderer_destroy(renderer);
    rs_scene_free(&scene);
    rs_image_settings_free(&settings);
    rs_file_list_free(&files);
    return status;
}
