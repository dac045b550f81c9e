/* quality_run.c - the measurement of one bench-quality configuration: a ladder of sample counts
 * traced in this process, or rendered by another raystream binary (see bench_quality.h).
 *
 * Host C11 (POSIX: fork, exec), application layer. In this process one renderer traces the image
 * progressively (paths [0, spp * pixels) after each step, so step k continues step k - 1), and
 * only rs_renderer_trace, which returns when every device has finished, is timed. One untimed
 * sample per pixel first (then the film is cleared) keeps one-off costs such as CUDA's lazy
 * module loading out of whichever configuration happens to run first. The particle integrators
 * (light, sppm) count passes where the others count samples per pixel, as rs_renderer_trace
 * does, so the same ladder serves them; they run on one device. An external binary starts
 * from nothing at every step; its time is the tracing time its render reports ("done in X s:
 * R Mrays/s (C M camera, B M bounce, S M shadow rays)"), taken as (C + B + S) / R where those are
 * large enough to beat the two decimals X is printed with. Either way the image is compared with
 * the reference by quality_metric.c.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app/bench/bench_quality.h"
#include "host/io/image_read.h"
#include "host/io/safe_file.h"
#include "host/render/particle_trace.h"
#include "host/scene/settings.h"
#include "host/util/clock.h"

void rs_quality_config_over(const RsQualityConfig* config, RsRenderDesc* rd)
{
    if (!config)
        return;
    if (config->sampler_set)
        rd->sampler = config->sampler;
    if (config->light_set)
        rd->light_sampler = config->light_sampler;
    if (config->threshold_set)
        rd->noise_threshold = config->noise_threshold;
    if (config->min_spp_set)
        rd->min_spp = config->min_spp;
    if (config->integrator_set)
        rd->integrator = config->integrator;
}

int rs_quality_render_setup(const RsQualityOptions* o, const RsQualityScene* qs, const RsRenderDesc* rd,
                            const RsQualityConfig* config, RsRendererConfig* renderer, RsFrameDesc* frame,
                            RsError* err)
{
    *renderer = qs->renderer;
    renderer->backend.film_stats = rd->noise_threshold > 0.0f; /* adaptive sampling's planes */
    *frame = rs_frame_from_scene(&qs->scene, rd->width, rd->height, rd->max_depth, rd->integrator, rd->seed);
    rs_common_options_frame(&o->common, frame);
    if (config && config->photons) {
        if (rd->integrator != RS_INTEGRATOR_SPPM)
            return rs_error_set(err, "photons=%u: photons per pass are sppm's, and this configuration runs the %s "
                                     "integrator (add integrator=sppm)",
                                config->photons, rs_integrator_name(rd->integrator));
        frame->photons_per_pass = config->photons;
    }
    if (!rs_integrator_particles(rd->integrator))
        return 0;
    /* as render does (rs_common_check_particles), with the message kept for the results */
    if (rs_particles_check_scene(&qs->scene, rd->integrator, err))
        return -1;
    renderer->backend.particles = 1;
    if (renderer->device_count == 0)
        renderer->devices[0] = 0; /* the first device of the backend's */
    renderer->device_count = 1;   /* the splats of a chunk land anywhere: one device (particle_trace.h) */
    return 0;
}

int rs_quality_apply(RsQualityScene* qs, const RsQualityConfig* config, RsRenderDesc* rd, RsError* err)
{
    rs_quality_config_over(config, rd);
    uint32_t before = qs->scene.render.light_sampler;
    if (rs_scene_set_render(&qs->scene, rd, err) == 0)
        return 0;
    /* the failed method freed the former selection: build it again for what comes next */
    RsError again = {{0}};
    if (rs_scene_select_lights(&qs->scene, before, &again))
        qs->scene.built = 0; /* nothing more can run on this scene */
    return -1;
}

/* The step after `spp`: twice as many, or --max-spp itself when that is not a power of two; 0
 * after the last. */
static uint32_t next_spp(uint32_t spp, uint32_t max_spp)
{
    if (spp >= max_spp)
        return 0;
    return spp > max_spp / 2 ? max_spp : spp * 2;
}

int rs_quality_continue(const RsQualityOptions* o, RsQualityRun* run, uint32_t next)
{
    if (run->count == 0)
        return 1;
    if (next == 0 || run->count == RS_QUALITY_MAX_POINTS) {
        run->stopped = "max-spp";
        return 0;
    }
    const RsQualityPoint* p = &run->points[run->count - 1];
    if (o->max_seconds > 0.0 && p->seconds * next / p->spp > o->max_seconds) {
        run->stopped = "max-seconds";
        return 0;
    }
    double smallest = o->targets[0];
    for (int t = 1; t < o->target_count; ++t)
        smallest = o->targets[t] < smallest ? o->targets[t] : smallest;
    if (p->error.relmse <= smallest && p->error.relmse_trimmed <= smallest) {
        run->stopped = "targets reached";
        return 0;
    }
    return 1;
}

static void report(const RsQualityOptions* o, const RsQualityScene* qs, const RsQualityRun* run)
{
    if (o->common.quiet)
        return;
    const RsQualityPoint* p = &run->points[run->count - 1];
    fprintf(stderr, "raystream: %s %s: %u spp in %.4f s: relMSE %.4g, trimmed %.4g\n", qs->path, run->label, p->spp,
            p->seconds, p->error.relmse, p->error.relmse_trimmed);
}

int rs_quality_run_here(const RsQualityOptions* o, RsQualityScene* qs, const RsRenderDesc* rd,
                        const RsQualityConfig* config, const RsQualityReference* ref, RsQualityDeviceFn device,
                        void* ctx, RsQualityRun* run, RsError* err)
{
    uint64_t pixels = (uint64_t)rd->width * rd->height;
    RsFrameDesc frame;
    RsRendererConfig renderer;
    if (rs_quality_render_setup(o, qs, rd, config, &renderer, &frame, err))
        return -1;
    if (rd->integrator == RS_INTEGRATOR_SPPM)
        run->photons = frame.photons_per_pass;
    RsRenderer* r = rs_renderer_create(&qs->scene, &renderer, err);
    if (!r)
        return -1;
    if (device)
        device(ctx, r);
    RsFloat4* film = malloc(pixels * rs_renderer_film_planes(r) * sizeof *film);
    double* scratch = malloc(pixels * sizeof *scratch);
    int status = -1;
    if (!film || !scratch) {
        rs_error_set(err, "out of memory for a %ux%u film", rd->width, rd->height);
        goto done;
    }
    if (rs_renderer_begin(r, &frame, pixels * o->max_spp, err) || rs_renderer_trace(r, pixels, err) ||
        rs_renderer_begin(r, &frame, pixels * o->max_spp, err))
        goto done;
    double seconds = 0.0;
    for (uint32_t spp = 1; rs_quality_continue(o, run, spp); spp = next_spp(spp, o->max_spp)) {
        double t0 = rs_clock_seconds();
        int traced = rs_renderer_trace(r, pixels * spp, err);
        seconds += rs_clock_seconds() - t0;
        if (traced || rs_renderer_read_film(r, film, err))
            goto done;
        RsQualityPoint* p = &run->points[run->count++];
        RsTraceStats stats = rs_renderer_stats(r);
        p->spp = spp;
        p->seconds = seconds;
        p->rays = rs_trace_stats_rays(&stats);
        rs_quality_film_error(film, ref->rgb, (uint32_t)pixels, qs->mask, scratch, &p->error);
        report(o, qs, run);
    }
    status = 0;
done:
    free(film);
    free(scratch);
    rs_renderer_destroy(r);
    return status;
}

/* Runs argv with stdout to /dev/null and stderr to `log`; returns its exit status, or -1 when it
 * could not be started (err says why). */
static int run_process(char* const* argv, const char* log, RsError* err)
{
    pid_t pid = fork();
    if (pid < 0)
        return rs_error_set(err, "--external: cannot start %s: %s", argv[0], strerror(errno));
    if (pid == 0) {
        int out = open("/dev/null", O_WRONLY);
        int errfd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (out < 0 || errfd < 0 || dup2(out, 1) < 0 || dup2(errfd, 2) < 0)
            _exit(126);
        execvp(argv[0], argv);
        dprintf(2, "raystream: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0) {
        if (errno != EINTR)
            return rs_error_set(err, "--external: waiting for %s: %s", argv[0], strerror(errno));
    }
    if (WIFSIGNALED(st))
        return 128 + WTERMSIG(st);
    return WEXITSTATUS(st);
}

/* The end of the log as one line, for an error message. */
static void log_tail(const char* text, char* out, size_t size)
{
    size_t n = strlen(text), keep = size > 1 ? size - 1 : 0;
    const char* p = n > keep ? text + n - keep : text;
    size_t k = 0;
    for (; *p && k + 1 < size; ++p)
        out[k++] = *p == '\n' ? ' ' : *p;
    while (k > 0 && out[k - 1] == ' ')
        --k;
    out[k] = '\0';
}

/* The tracing time and rays from render's "done in" line. */
static int parse_done(const char* text, double* seconds, uint64_t* rays)
{
    const char *p = NULL, *q = text;
    while ((q = strstr(q, "done in ")) != NULL)
        p = q++;
    double x, rate, camera, bounce, shadow;
    if (!p || sscanf(p, "done in %lf s: %lf Mrays/s (%lf M camera, %lf M bounce, %lf M shadow rays)", &x, &rate,
                     &camera, &bounce, &shadow) != 5)
        return -1;
    double total = camera + bounce + shadow; /* M rays, two decimals */
    *rays = (uint64_t)(total * 1e6 + 0.5);
    *seconds = rate > 0.0 && total >= 1.0 ? total / rate : x;
    return 0;
}

/* One step: BINARY render SCENE --spp N ... -o DIR/step.pfm, its time, rays and image. */
static int external_step(const RsQualityOptions* o, const RsQualityScene* qs, const RsQualityConfig* config,
                         uint32_t spp, const char* dir, RsRgbImage* image, double* seconds, uint64_t* rays,
                         RsError* err)
{
    char out[RS_PATH_BYTES + 32], log[RS_PATH_BYTES + 32], n[6][32];
    snprintf(out, sizeof out, "%s/step.pfm", dir);
    snprintf(log, sizeof log, "%s/step.log", dir);
    snprintf(n[0], sizeof n[0], "%u", spp);
    snprintf(n[1], sizeof n[1], "%u", qs->rd.width);
    snprintf(n[2], sizeof n[2], "%u", qs->rd.height);
    snprintf(n[3], sizeof n[3], "%u", qs->rd.max_depth);
    snprintf(n[4], sizeof n[4], "%u", qs->rd.seed);
    const char* argv[64] = {o->external, "render", qs->path, "--spp", n[0], "--width", n[1], "--height", n[2],
                            "--max-depth", n[3], "--seed", n[4], "-o", out};
    int argc = 15;
    for (int i = 0; i < o->pass_count; ++i)
        argv[argc++] = o->pass[i];
    if (config && config->sampler_set) {
        argv[argc++] = "--sampler";
        argv[argc++] = rs_sampler_name(config->sampler);
    }
    if (config && config->light_set) {
        argv[argc++] = "--light-sampler";
        argv[argc++] = rs_light_sampler_name(config->light_sampler);
    }
    if (config && config->threshold_set) {
        snprintf(n[5], sizeof n[5], "%.9g", config->noise_threshold);
        argv[argc++] = "--noise-threshold";
        argv[argc++] = n[5];
    }
    char min_spp[32], photons[32];
    if (config && config->min_spp_set) {
        snprintf(min_spp, sizeof min_spp, "%u", config->min_spp);
        argv[argc++] = "--min-spp";
        argv[argc++] = min_spp;
    }
    if (config && config->integrator_set) {
        argv[argc++] = "--integrator";
        argv[argc++] = rs_integrator_name(config->integrator);
    }
    if (config && config->photons) {
        snprintf(photons, sizeof photons, "%u", config->photons);
        argv[argc++] = "--photons";
        argv[argc++] = photons;
    }
    argv[argc] = NULL;
    remove(out);
    int code = run_process((char* const*)argv, log, err);
    if (code < 0)
        return -1;
    char why[256];
    size_t size = 0;
    char* text = rs_file_read_all(log, 16u << 20, &size, why, sizeof why);
    int status = -1;
    if (!text) {
        rs_error_set(err, "--external: cannot read %s's messages: %s", o->external, why);
    } else if (code != 0) {
        char tail[400];
        log_tail(text, tail, sizeof tail);
        rs_error_set(err, "--external: %s render exited %d at %u spp: %s", o->external, code, spp, tail);
    } else if (parse_done(text, seconds, rays)) {
        rs_error_set(err, "--external: %s render printed no \"done in X s: ...\" line", o->external);
    } else if (rs_image_read(out, image, err) == 0) {
        if (image->width != qs->rd.width || image->height != qs->rd.height) {
            rs_error_set(err, "--external: %s wrote a %ux%u image, %ux%u was asked for", o->external, image->width,
                         image->height, qs->rd.width, qs->rd.height);
            rs_rgb_image_free(image);
        } else {
            status = 0;
        }
    }
    free(text);
    remove(out);
    remove(log);
    return status;
}

int rs_quality_run_external(const RsQualityOptions* o, RsQualityScene* qs, const RsQualityConfig* config,
                            const RsQualityReference* ref, RsQualityRun* run, RsError* err)
{
    const char* tmp = getenv("TMPDIR");
    char dir[RS_PATH_BYTES];
    snprintf(dir, sizeof dir, "%s/raystream-quality-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return rs_error_set(err, "--external: cannot make a temporary folder in %s: %s", tmp && *tmp ? tmp : "/tmp",
                            strerror(errno));
    uint32_t pixels = qs->rd.width * qs->rd.height;
    double* scratch = malloc((size_t)pixels * sizeof *scratch);
    int status = scratch ? 0 : rs_error_set(err, "out of memory for a %ux%u image", qs->rd.width, qs->rd.height);
    for (uint32_t spp = 1; status == 0 && rs_quality_continue(o, run, spp); spp = next_spp(spp, o->max_spp)) {
        RsRgbImage image;
        RsQualityPoint p;
        memset(&p, 0, sizeof p);
        p.spp = spp;
        if (external_step(o, qs, config, spp, dir, &image, &p.seconds, &p.rays, err)) {
            status = -1;
            break;
        }
        rs_quality_image_error(image.rgb, ref->rgb, pixels, qs->mask, scratch, &p.error);
        rs_rgb_image_free(&image);
        run->points[run->count++] = p;
        report(o, qs, run);
    }
    free(scratch);
    rmdir(dir);
    return status;
}
