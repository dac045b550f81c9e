/* render.c - `raystream render SCENE -o FILE ...`: offline rendering with progress and ETA.
 *
 * Host C11, application layer. Order of work, so that no time is wasted on a run that cannot
 * finish: parse options, check every file to write can be written and is neither another one
 * nor the scene or --resume (output_paths.h), load the scene and check them against every file
 * it read, create the renderer (renderer.h: every device asked for), then trace to the sample
 * count, reporting progress and saving checkpoints from the renderer's tick (and on SIGUSR1).
 * Stop signals escalate (interrupt.h): the first stops at the end of the sample pass in flight,
 * the second after the wave in flight; either way what has been accumulated is saved to the
 * checkpoint and written to NAME.partial.EXT. --time-limit stops the same way at the pass, but
 * ends as a finished render (time_limit.h). Before tracing, the render's settings
 * (render_settings.h) are listed: checkpoints store them, --resume and the MPI ranks compare
 * them, EXR outputs carry them. A device that fails ends the render with an error naming it,
 * and what the film holds is still saved and written. A checkpoint that cannot be saved is a
 * warning: the render goes on and its images are still written.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
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
#include "kernel/film/adaptive.h"

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

/* Saves the film; a failure is a warning (the render goes on, its images are still written).
 * nonfinite: the samples dropped by this run (base holds those of a resumed checkpoint). */
static int save_checkpoint(RsRenderer* renderer, const char* path, const RsCheckpointHeader* base,
                           const RsImageSettings* settings, uint64_t paths_done, uint64_t nonfinite)
{
    RsCheckpointHeader h = *base;
    h.paths_done = paths_done;
    h.nonfinite_paths = base->nonfinite_paths + nonfinite;
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

/* Fails before anything is rendered when a file to write cannot be written or is another file
 * to write or an input (output_paths.h): first against the scene and --resume, then, once the
 * scene has loaded, against every file it read; then clears the temporaries that a killed run
 * left beside the files to write. */
static int check_destinations(const RsRenderArgs* a, RsPathSet* paths, const RsFileList* files_read)
{
    RsError err = {{0}};
    int bad = files_read ? rs_path_set_read_list(paths, files_read, &err) || rs_path_set_check_collisions(paths, &err)
                         : rs_render_list_paths(a, paths, &err) || rs_path_set_check(paths, &err);
    if (bad) {
        rs_cli_error("%s", err.message);
        return -1;
    }
    for (size_t i = 0; files_read && i < paths->write_count; ++i)
        rs_file_remove_stale_temps(paths->writes[i].path);
    return 0;
}

/* SIGUSR1 or SIGUSR2 (interrupt.h): the checkpoint now, and the render goes on. */
static void save_on_request(RsRenderer* renderer, const RsRenderArgs* a, const RsCheckpointHeader* ck,
                            const RsImageSettings* settings, const RsCluster* cl, uint64_t done, int sig, int tty)
{
    const char* name = sig == SIGUSR2 ? "SIGUSR2" : "SIGUSR1";
    if (tty)
        fputc('\n', stderr); /* after the progress line */
    if (!a->checkpoint)
        rs_cli_note("asked to save (%s): there is no --checkpoint to save to; the render goes on", name);
    else if (cl->size > 1)
        rs_cli_note("asked to save (%s): under mpirun the checkpoint is saved at the end and on an interrupt "
                    "only; the render goes on", name);
    else if (save_checkpoint(renderer, a->checkpoint, ck, settings, done, rs_renderer_stats(renderer).nonfinite_paths) == 0)
        rs_cli_note("saved %s (%s); the render goes on", a->checkpoint, name);
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
    int stop_seen; /* under mpirun: the job's stop level so far */
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
    int own = rs_interrupt_level();
    if (p->cluster->rank == 0 && rs_time_limit_check(&p->limit, rs_clock_seconds())) {
        /* a stop at the pass like a first interrupt, but no interrupt is counted: the render
         * ends as a finished one (time_limit.h); under mpirun every rank stops with rank 0 */
        rs_interrupt_escalate(1);
        own = own > 1 ? own : 1;
    }
    if (p->cluster->size > 1) {
        /* a signal to any rank stops them all (cluster.h) */
        int level = rs_cluster_stop_level(p->cluster, own);
        if (level > p->stop_seen && level > own && p->cluster->rank == 0)
            rs_cli_note(level == 1 ? "another rank was interrupted: every rank finishes its sample pass, then the "
                                     "image is written"
                                   : "another rank was interrupted again: every rank stops after its wave");
        p->stop_seen = level > p->stop_seen ? level : p->stop_seen;
        rs_interrupt_escalate(level);
    }
    uint64_t done = image_paths_done(p);
    double now = rs_clock_seconds();
    int save = rs_interrupt_take_save_request();
    if (save && p->cluster->rank == 0) {
        save_on_request(p->renderer, p->args, p->checkpoint, p->settings, p->cluster, done, save, p->tty);
        p->last_checkpoint = now;
    }
    if (!p->args->opt.quiet && now - p->last_report > (p->tty ? 0.25 : 5.0)) {
        RsTraceStats stats = rs_renderer_stats(p->renderer);
        report_progress(done, p->total, done - p->first, p->total - p->first, p->pixels, now - p->start, &stats,
                        p->tty);
        p->last_report = now;
    }
    /* under mpirun the film is gathered once, at the end (or on an interrupt) */
    if (p->args->checkpoint && p->cluster->size == 1 && now - p->last_checkpoint >= (double)p->args->checkpoint_every &&
        done < p->total) {
        save_checkpoint(p->renderer, p->args->checkpoint, p->checkpoint, p->settings, done,
                        rs_renderer_stats(p->renderer).nonfinite_paths);
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
    uint64_t rays[4] = {s->camera_rays, s->bounce_rays, s->shadow_rays, s->nonfinite_paths};
    if (!film || rs_renderer_read_film(renderer, film, err) || rs_cluster_max_int(cl, stopped) ||
        rs_cluster_sum_u64(cl, rays, 4) || rs_cluster_sum_film(cl, film, entries)) {
        free(film);
        return film ? -1 : rs_error_set(err, "out of memory gathering the film");
    }
    int status = 1;
    if (cl->rank == 0) {
        s->camera_rays = rays[0];
        s->bounce_rays = rays[1];
        s->shadow_rays = rays[2];
        s->nonfinite_paths = rays[3];
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
    RsPathSet paths = {0};
    if (cl->rank == 0 && check_destinations(&a, &paths, NULL)) {
        rs_path_set_free(&paths);
        return RS_EXIT_FAILURE;
    }
    const RsCommonOptions* opt = &a.opt;

    RsError err = {{0}};
    RsScene scene;
    RsAccelOptions accel = rs_common_accel(opt);
    /* every file the scene read: the outputs are checked against them, the settings fingerprint them */
    RsFileList files = {0};
    RsImageSettings settings = {0};
    RsRenderer* renderer = NULL;
    int status = RS_EXIT_FAILURE;
    RsSceneLoadOptions load_options = {&accel, opt->camera};
    int loaded = rs_scene_load_with(a.scene_path, &load_options, &scene, &files, &err) == 0;
    if (!loaded)
        rs_cli_error("%s", err.message);
    int clear = loaded && (cl->rank != 0 || check_destinations(&a, &paths, &files) == 0);
    rs_path_set_free(&paths);
    if (!clear) {
        if (loaded)
            rs_scene_free(&scene);
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
    rs_common_options_frame(opt, &frame);
    RsRendererConfig rc = rs_common_renderer_config(opt);
    if (rs_common_check_particles(&scene, rd.integrator, a.aovs != 0, a.denoise, &rc))
        goto done;
    rc.backend.aovs = a.aovs != 0 || a.denoise;
    rc.backend.film_stats = rd.noise_threshold > 0.0f; /* adaptive.h's planes */
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
        char lights[96] = "";
        if (scene.light_select.method == RS_LIGHT_SELECT_TREE)
            snprintf(lights, sizeof lights, ", %u lights in a light tree (%.3f s)", scene.light_count,
                     scene.light_select.build_seconds);
        rs_cli_note("%s: %ux%u, %u spp, %s, max depth %u, %s on %s%s, %zu primitives in %s%s (%.2f s)%s", a.scene_path,
                    rd.width, rd.height, rd.spp, rs_integrator_name(rd.integrator), rd.max_depth,
                    rs_deadray_name(opt->backend.deadray), devices, ranks, scene.prims.count,
                    rs_accel_name(scene.accel.view.kind),
                    scene.accel_options.spatial_splits && scene.accel.view.kind != RS_ACCEL_GRID ? "+sbvh" : "",
                    scene.accel.stats.build_seconds, lights);
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
        /* paths visited: with the AOV planes, the albedo plane counts them (adaptive sampling's
           stopped pixels hold fewer samples than visits; kernel/film/adaptive.h); SPPM's two
           state planes come after those */
        ck.nonfinite_paths = got.nonfinite_paths; /* the whole render's count goes on from there */
        double counted = 0.0;
        for (uint64_t i = 0; i < pixels; ++i)
            counted += rs_film_sppm_plane(&rc.backend) > 1 ? rs_adaptive_visits(film[RS_PLANE_ALBEDO * pixels + i].w)
                                                            : film[i].w;
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
    rs_interrupt_install("interrupted: finishing this sample pass, then writing the image (interrupt again to "
                         "stop sooner)",
                         "stopping after the current wave; what is done will still be written (a third interrupt "
                         "quits without writing)");
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
    /* under mpirun the other ranks' stops raise these flags too, through the tick */
    rs_renderer_set_stop(renderer, rs_interrupt_pass_flag(), rs_interrupt_stop_flag());
    rs_renderer_set_tick(renderer, render_tick, &progress);
    int traced = rs_renderer_trace(renderer, total, &err);
    if (traced < 0 && cl->size > 1) {
        rs_cli_error("rank %d of %d: %s", cl->rank, cl->size, err.message);
        goto done; /* the job ends: rs_cmd_render aborts it */
    }
    if (cl->size > 1 && rs_cluster_wait_all(cl, rs_interrupt_level)) {
        rs_cli_error("rank %d of %d: waiting for the other ranks failed", cl->rank, cl->size);
        goto done;
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
    /* never a silent black pixel: say how many samples were numerical accidents (dropped by
     * accumulate, kernel/stages/stage_accumulate.h), even with --quiet */
    if (s.nonfinite_paths + ck.nonfinite_paths > 0)
        rs_cli_warning("%llu non-finite samples were dropped (each counted as a sample with no radiance)",
                       (unsigned long long)(s.nonfinite_paths + ck.nonfinite_paths));
    /* the time limit (and no interrupt) ended it: a finished render of fewer samples */
    int timed_out = traced == RS_WAVEFRONT_STOPPED && progress.limit.reached && rs_interrupt_count() == 0;
    if (!timed_out && (traced != 0 || done_paths < total)) {
        /* an error or an interrupt: keep everything that was traced */
        if (traced < 0)
            rs_cli_error("%s", err.message);
        report_film(renderer, traced < 0 ? "failed" : "interrupted", pixels, ck.film_planes, rd.spp);
        if (a.checkpoint && done_paths > progress.first &&
            save_checkpoint(renderer, a.checkpoint, &ck, &settings, done_paths, s.nonfinite_paths) == 0)
            rs_cli_note("saved %s; continue with --resume %s", a.checkpoint, a.checkpoint);
        if (done_paths > 0)
            rs_render_write_outputs(renderer, rd.width, rd.height, &a, &scene.camera, &settings, 1);
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
    if (a.checkpoint && save_checkpoint(renderer, a.checkpoint, &ck, &settings, done_paths, s.nonfinite_paths) == 0 &&
        timed_out &&
        done_paths < total)
        rs_cli_note("saved %s; continue with --resume %s", a.checkpoint, a.checkpoint);
    if (!opt->quiet)
        rs_cli_note("done in %.2f s: %.2f Mrays/s (%.2f M camera, %.2f M bounce, %.2f M shadow rays)", elapsed,
                    (double)rs_trace_stats_rays(&s) / elapsed / 1e6, (double)s.camera_rays / 1e6,
                    (double)s.bounce_rays / 1e6, (double)s.shadow_rays / 1e6);
    status = rs_render_write_outputs(renderer, rd.width, rd.height, &a, &scene.camera, &settings, 0);
done:
    rs_interrupt_uninstall();
    rs_renderer_destroy(renderer);
    rs_scene_free(&scene);
    rs_image_settings_free(&settings);
    rs_file_list_free(&files);
    return status;
}
