/* render.c - `raystream render SCENE -o FILE ...`: offline rendering with progress and ETA.
 *
 * Host C11, application layer. Order of work, so that no time is wasted on a run that cannot
 * finish: parse options, load the scene, check every output path is writable, create the
 * backend, then trace one sample pass at a time, reporting progress between passes. SIGINT or
 * SIGTERM stops after the current pass and writes what has been accumulated to
 * NAME.partial.EXT, saying how many samples it holds.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../host/checkpoint.h"
#include "../host/file_hash.h"
#include "../host/image_io.h"
#include "../host/scene_json.h"
#include "../host/wavefront.h"
#include "cli.h"
#include "commands.h"
#include "options.h"

#define RS_MAX_OUTPUTS 8

static volatile sig_atomic_t interrupted = 0;
static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void render_usage(FILE* f)
{
    fprintf(f,
            "usage: raystream render SCENE [options]\n"
            "\n"
            "Renders SCENE (a JSON scene file, see scenes/README.md) and writes the image.\n"
            "\n"
            "  -o, --output FILE     image to write; .png (tone-mapped sRGB), .hdr or .pfm (linear);\n"
            "                        may be given several times (default: SCENE's name with .png)\n"
            "  --exposure EV         exposure in stops applied before tone mapping (default 0)\n"
            "  --auto-exposure       map the log-average luminance to middle grey (then add --exposure)\n"
            "  --tonemap NAME        clamp | reinhard | aces (default clamp)\n"
            "  --checkpoint FILE     save the accumulated film there every --checkpoint-every seconds\n"
            "                        (default 60), at the end and on an interrupt\n"
            "  --resume FILE         continue from a checkpoint to --spp; the result is bit-identical\n"
            "                        to a render that never stopped\n"
            "%s",
            rs_common_options_help);
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

static void report_progress(uint32_t done, uint32_t spp, double elapsed, const RsTraceStats* stats, int tty)
{
    char el[32], eta[32];
    format_seconds(elapsed, el, sizeof el);
    format_seconds(done ? elapsed * (spp - done) / done : 0.0, eta, sizeof eta);
    double mrays = elapsed > 0.0 ? (double)total_rays(stats) / elapsed / 1e6 : 0.0;
    fprintf(stderr, "%sraystream: %u/%u spp  %s elapsed  ETA %s  %.1f Mrays/s%s", tty ? "\r" : "", done, spp, el,
            eta, mrays, tty ? "   " : "\n");
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

static void default_output(const char* scene_path, char* out, size_t size)
{
    const char* base = strrchr(scene_path, '/');
    base = base ? base + 1 : scene_path;
    const char* dot = strrchr(base, '.');
    int len = dot ? (int)(dot - base) : (int)strlen(base);
    snprintf(out, size, "%.*s.png", len, base);
}

static int save_checkpoint(RsBackend* backend, const char* path, const RsCheckpointHeader* base, uint32_t done)
{
    RsCheckpointHeader h = *base;
    h.spp_done = done;
    size_t pixels = (size_t)h.width * h.height;
    RsFloat4* film = malloc(pixels * sizeof *film);
    RsError err = {{0}};
    int status = -1;
    if (!film)
        rs_error_set(&err, "out of memory for a checkpoint");
    else if (backend->ops->read_film(backend, film, &err) == 0)
        status = rs_checkpoint_save(path, &h, film, &err);
    if (status)
        rs_cli_error("%s", err.message);
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
            char name[4096];
            if (partial)
                partial_name(outputs[i], name, sizeof name);
            else
                snprintf(name, sizeof name, "%s", outputs[i]);
            rs_error_clear(&err);
            if (rs_image_write(name, rd->width, rd->height, rgb, rgba, &err)) {
                rs_cli_error("%s", err.message);
                status = RS_EXIT_FAILURE;
            } else if (!quiet || partial) {
                fprintf(stderr, "raystream: wrote %s\n", name);
            }
        }
    }
    free(film);
    free(rgb);
    free(rgba);
    return status;
}

int rs_cmd_render(int argc, char** argv)
{
    RsCommonOptions opt;
    rs_common_options_init(&opt);
    RsDisplaySettings display = {0.0f, 0, RS_TONE_CLAMP};
    const char* outputs[RS_MAX_OUTPUTS];
    int output_count = 0;
    const char* scene_path = NULL;
    const char* checkpoint = NULL;
    const char* resume = NULL;
    uint64_t checkpoint_every = 60;

    for (int i = 0; i < argc; ++i) {
        int missing = 0;
        const char* v;
        int common = rs_common_option(argc, argv, &i, &opt);
        if (common < 0)
            return RS_EXIT_USAGE;
        if (common > 0)
            continue;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            render_usage(stdout);
            return RS_EXIT_OK;
        } else if ((v = rs_cli_value(argc, argv, &i, "--output", "-o", &missing))) {
            if (output_count == RS_MAX_OUTPUTS) {
                rs_cli_error("at most %d outputs", RS_MAX_OUTPUTS);
                return RS_EXIT_USAGE;
            }
            outputs[output_count++] = v;
        } else if ((v = rs_cli_value(argc, argv, &i, "--exposure", NULL, &missing))) {
            double ev;
            if (rs_cli_float("--exposure", v, -64.0, 64.0, &ev))
                return RS_EXIT_USAGE;
            display.exposure = (float)ev;
        } else if ((v = rs_cli_value(argc, argv, &i, "--tonemap", NULL, &missing))) {
            if (rs_tone_curve_parse(v, &display.curve)) {
                rs_cli_error("--tonemap: expected clamp, reinhard or aces, got '%s'", v);
                return RS_EXIT_USAGE;
            }
        } else if ((v = rs_cli_value(argc, argv, &i, "--checkpoint", NULL, &missing))) {
            checkpoint = v;
        } else if ((v = rs_cli_value(argc, argv, &i, "--resume", NULL, &missing))) {
            resume = v;
        } else if ((v = rs_cli_value(argc, argv, &i, "--checkpoint-every", NULL, &missing))) {
            if (rs_cli_uint("--checkpoint-every", v, 1, 86400 * 365, &checkpoint_every))
                return RS_EXIT_USAGE;
        } else if (strcmp(argv[i], "--auto-exposure") == 0) {
            display.auto_exposure = 1;
        } else if (missing) {
            return RS_EXIT_USAGE;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            rs_cli_error("render: unknown option '%s' (see raystream render --help)", argv[i]);
            return RS_EXIT_USAGE;
        } else if (scene_path) {
            rs_cli_error("render: one scene at a time (got '%s' and '%s')", scene_path, argv[i]);
            return RS_EXIT_USAGE;
        } else {
            scene_path = argv[i];
        }
    }
    if (!scene_path) {
        render_usage(stderr);
        return RS_EXIT_USAGE;
    }
    char default_out[1024];
    if (output_count == 0) {
        default_output(scene_path, default_out, sizeof default_out);
        outputs[output_count++] = default_out;
    }

    RsError err = {{0}};
    for (int i = 0; i < output_count; ++i) {
        if (rs_image_check_writable(outputs[i], &err)) {
            rs_cli_error("%s", err.message);
            return RS_EXIT_FAILURE;
        }
    }
    RsScene scene;
    RsAccelOptions accel = rs_common_accel(&opt);
    if (rs_scene_load_json(scene_path, &accel, &scene, &err)) {
        rs_cli_error("%s", err.message);
        return RS_EXIT_FAILURE;
    }
    RsRenderDesc rd = scene.render;
    rs_common_options_apply(&opt, &rd);
    RsCheckpointHeader ck;
    rs_checkpoint_header_init(&ck);
    ck.width = rd.width;
    ck.height = rd.height;
    ck.seed = rd.seed;
    ck.max_depth = rd.max_depth;
    ck.integrator = rd.integrator;
    if ((checkpoint || resume) && rs_file_hash64(scene_path, &ck.scene_hash)) {
        rs_cli_error("%s: cannot read the scene to fingerprint it for the checkpoint", scene_path);
        rs_scene_free(&scene);
        return RS_EXIT_FAILURE;
    }

    int status = RS_EXIT_FAILURE;
    RsBackend* backend = rs_backend_create(&opt.backend, &err);
    RsWavefront wf;
    uint32_t wave = 0;
    uint64_t pixels = (uint64_t)rd.width * rd.height;
    RsSceneView view = rs_scene_view(&scene);
    RsFrameDesc frame = rs_frame_from_scene(&scene, rd.width, rd.height, rd.max_depth, rd.integrator, rd.seed);
    if (!backend || backend->ops->set_scene(backend, &view, &err) ||
        rs_wavefront_plan(backend, pixels * rd.spp, &wave, &err) ||
        rs_wavefront_begin(&wf, backend, &frame, wave, &err)) {
        rs_cli_error("%s", err.message);
        goto done;
    }
    if (!opt.quiet)
        fprintf(stderr, "raystream: %s: %ux%u, %u spp, %s, max depth %u, %s on %s, %zu primitives in %s%s (%.2f s)\n",
                scene_path, rd.width, rd.height, rd.spp, rs_integrator_name(rd.integrator), rd.max_depth,
                rs_deadray_name(opt.backend.deadray), backend->device, scene.prims.count,
                rs_accel_name(scene.accel.view.kind), scene.accel_options.spatial_splits ? "+sbvh" : "",
                scene.accel.stats.build_seconds);

    uint32_t done = 0;
    if (resume) {
        RsCheckpointHeader got;
        RsFloat4* film = NULL;
        if (rs_checkpoint_load(resume, &ck, &got, &film, &err) || backend->ops->write_film(backend, film, &err)) {
            rs_cli_error("%s", err.message);
            free(film);
            goto done;
        }
        free(film);
        if (got.spp_done > rd.spp) {
            rs_cli_error("%s holds %u samples per pixel, more than the %u asked for", resume, got.spp_done, rd.spp);
            goto done;
        }
        done = got.spp_done;
        if (!opt.quiet)
            fprintf(stderr, "raystream: resuming from %s at %u of %u spp\n", resume, done, rd.spp);
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    int tty = isatty(2);
    double start = now_seconds(), last_report = start, last_checkpoint = start;
    uint32_t first = done;
    for (; done < rd.spp && !interrupted; ++done) {
        if (rs_wavefront_trace(&wf, (uint64_t)done * pixels, pixels, &err)) {
            rs_cli_error("%s (after %u of %u samples per pixel)", err.message, done, rd.spp);
            if (done > 0)
                write_outputs(backend, &rd, outputs, output_count, &display, 1, opt.quiet);
            goto done;
        }
        double now = now_seconds();
        if (!opt.quiet && (now - last_report > (tty ? 0.25 : 5.0) || done + 1 == rd.spp)) {
            report_progress(done + 1 - first, rd.spp - first, now - start, &wf.stats, tty);
            last_report = now;
        }
        if (checkpoint && (now - last_checkpoint >= (double)checkpoint_every || done + 1 == rd.spp)) {
            if (save_checkpoint(backend, checkpoint, &ck, done + 1))
                goto done;
            last_checkpoint = now;
        }
    }
    double elapsed = now_seconds() - start;
    if (!opt.quiet && tty)
        fputc('\n', stderr);
    if (interrupted) {
        fprintf(stderr, "raystream: interrupted after %u of %u samples per pixel\n", done, rd.spp);
        if (checkpoint && save_checkpoint(backend, checkpoint, &ck, done) == 0)
            fprintf(stderr, "raystream: saved %s (%u spp); continue with --resume %s\n", checkpoint, done, checkpoint);
        if (done > 0)
            write_outputs(backend, &rd, outputs, output_count, &display, 1, opt.quiet);
        status = RS_EXIT_INTERRUPTED;
        goto done;
    }
    const RsTraceStats* s = &wf.stats;
    if (!opt.quiet)
        fprintf(stderr,
                "raystream: done in %.2f s: %.2f Mrays/s (%.2f M camera, %.2f M bounce, %.2f M shadow rays)\n",
                elapsed, (double)total_rays(s) / elapsed / 1e6, (double)s->camera_rays / 1e6,
                (double)s->bounce_rays / 1e6, (double)s->shadow_rays / 1e6);
    status = write_outputs(backend, &rd, outputs, output_count, &display, 0, opt.quiet);
done:
    rs_backend_destroy(backend);
    rs_scene_free(&scene);
    return status;
}
