/* bench.c - `raystream bench`: frames per second per reflection depth for each dead-ray
 * strategy, with the ray statistics that explain them (docs/benchmarks.md).
 *
 * Host C11, application layer. For every (scene, integrator, depth) it times each selected
 * strategy on the same frames, their frames taken in turn (bench_row.h): `warmup` untimed
 * frames, then `frames` timed ones, each a full image at `spp` samples per pixel; a frame's time
 * is the wall clock from the first launch until the device has finished (so launch overheads
 * count, as they do for a user). Every configuration replays the same
 * sample numbers, so all strategies trace the same rays and must report the same live-ray
 * counts. Reported: median, min and max ms and FPS from the median; Mrays/s per ray kind
 * (camera, bounce, shadow) at the median time; live rays entering each bounce (count and
 * fraction of camera rays); time per stage (CUDA events on the GPU, wall clock on the CPU);
 * the device's busy fraction (sum of stage times over the mean frame time, per device: a
 * host-side regression shows as a drop); bytes read back to the host per frame; for every row
 * the strategy that ran each bounce (--deadray auto's picks). Output: a table on stdout (per
 * scene and integrator: depth rows x strategy columns of FPS and busy %, then auto's picks),
 * and JSON / CSV with the run's metadata.
 * With several devices (--devices, default all), every configuration runs on the first 1, 2,
 * ..., N of them and a scaling table follows: time, speed-up over one device, efficiency, and
 * each device's share of the paths (the queue's balance).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/bench/bench_meta.h"
#include "app/bench/bench_row.h"
#include "app/cli.h"
#include "app/commands.h"
#include "app/interrupt.h"
#include "app/options.h"
#include "app/scenes_dir.h"
#include "host/import/scene_loader.h"
#include "host/render/renderer.h"
#include "host/scene/settings.h"

#define MAX_SCENES 16
#define MAX_DEPTHS 64

typedef struct BenchOptions {
    RsCommonOptions common;
    const char* scenes[MAX_SCENES];
    int scene_count;
    uint32_t depths[MAX_DEPTHS];
    int depth_count;
    int deadray[RS_DEADRAY_COUNT]; /* selected strategies */
    int integrators[4];            /* indexed by RS_INTEGRATOR_*: path, whitted, light, sppm */
    uint32_t frames, warmup;
    int warmup_set;
    int denoise; /* also time the denoiser on each timed frame's film */
    const char* json;
    const char* csv;
} BenchOptions;

static void bench_usage(FILE* f)
{
    fprintf(f,
            "usage: raystream bench [options]\n"
            "\n"
            "FPS per reflection depth for each dead-ray strategy, with Mrays/s per ray kind, live rays\n"
            "per bounce and time per stage. Default suite: scenes/mirrors.json, scenes/diffuse.json and\n"
            "scenes/reflect-23k.json, depths 1..8, every strategy, whitted and path.\n"
            "\n"
            "  --scenes A.json,B.json  scenes to run (default: the suite above)\n"
            "  --depths LIST           e.g. 1..8 or 1,2,4,8 (default 1..8)\n"
            "  --deadray all|LIST      strategies, comma-separated (default all the backend has, auto\n"
            "                          among them: its rows say which strategy it ran per bounce)\n"
            "  --integrator NAME       path | whitted | both | light | sppm | all (default both: path\n"
            "                          and whitted); light and sppm time passes (--spp passes a frame)\n"
            "                          on one device and print particles (photons) per second\n"
            "  --photons N             sppm: photons per pass (default: the pixel count, at least 262144)\n"
            "  --frames N              timed frames per configuration (default 30 on CUDA, 3 on CPU);\n"
            "                          the strategies of a depth take their frames in turn\n"
            "  --warmup N              untimed frames first (default 5 on CUDA, 1 on CPU)\n"
            "  --denoise               also time the denoiser on every timed frame (the film then\n"
            "                          carries AOVs); reported as denoise_ms, apart from the frame\n"
            "  --json FILE, --csv FILE results with metadata (GPU, versions, build, scene hashes, commit)\n"
            "  --spp N                 samples per pixel per frame (default 1)\n"
            "  --width W --height H    default 1024x768 on CUDA, 160x120 on CPU\n"
            "  --devices all|LIST      devices to share each frame (default all); with more than one,\n"
            "                          every configuration also runs on the first 1..N-1 of them and a\n"
            "                          scaling table follows\n"
            "  --backend, --threads, --payload, --seed, --max-memory, --no-sbvh, --sort-rays,\n"
            "  --sort-materials, --trace-kernel: as for render\n");
}

static int parse_list(const char* text, char** items, int max, char* storage, size_t storage_size)
{
    snprintf(storage, storage_size, "%s", text);
    int n = 0;
    for (char* tok = strtok(storage, ","); tok && n < max; tok = strtok(NULL, ","))
        items[n++] = tok;
    return n;
}

static int parse_depths(const char* text, BenchOptions* o)
{
    unsigned a, b;
    char tail;
    o->depth_count = 0;
    if (sscanf(text, "%u..%u%c", &a, &b, &tail) == 2) {
        if (a < 1 || b < a || b > 1024 || b - a >= MAX_DEPTHS)
            goto bad;
        for (unsigned d = a; d <= b; ++d)
            o->depths[o->depth_count++] = d;
        return 0;
    }
    char storage[512];
    char* items[MAX_DEPTHS];
    int n = parse_list(text, items, MAX_DEPTHS, storage, sizeof storage);
    for (int i = 0; i < n; ++i) {
        uint64_t v;
        if (rs_cli_uint("--depths", items[i], 1, 1024, &v))
            return -1;
        o->depths[o->depth_count++] = (uint32_t)v;
    }
    if (o->depth_count > 0)
        return 0;
bad:
    rs_cli_error("--depths: expected a range such as 1..8 or a list such as 1,2,4,8, got '%s'", text);
    return -1;
}

static int parse_bench_args(int argc, char** argv, BenchOptions* o, char* scene_storage, size_t storage_size)
{
    for (int i = 0; i < argc; ++i) {
        int missing = 0;
        const char* v;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            bench_usage(stdout);
            exit(RS_EXIT_OK);
        } else if ((v = rs_cli_value(argc, argv, &i, "--integrator", NULL, &missing))) {
            /* bench takes "both" (path and whitted) and "all" besides the single names */
            int all = strcmp(v, "all") == 0, both = all || strcmp(v, "both") == 0;
            uint32_t one = 0;
            if (!both && rs_integrator_parse(v, &one)) {
                rs_cli_error("--integrator: expected path, whitted, both, light, sppm or all, got '%s'", v);
                return -1;
            }
            o->integrators[RS_INTEGRATOR_PATH] = both || one == RS_INTEGRATOR_PATH;
            o->integrators[RS_INTEGRATOR_WHITTED] = both || one == RS_INTEGRATOR_WHITTED;
            o->integrators[RS_INTEGRATOR_LIGHT] = all || (!both && one == RS_INTEGRATOR_LIGHT);
            o->integrators[RS_INTEGRATOR_SPPM] = all || (!both && one == RS_INTEGRATOR_SPPM);
        } else if ((v = rs_cli_value(argc, argv, &i, "--deadray", NULL, &missing))) {
            /* bench takes "all" and lists besides a single name */
            memset(o->deadray, 0, sizeof o->deadray);
            if (strcmp(v, "all") == 0) {
                for (int d = 0; d < RS_DEADRAY_COUNT; ++d)
                    o->deadray[d] = 1;
                continue;
            }
            char storage[512];
            char* items[RS_DEADRAY_COUNT * 2];
            int n = parse_list(v, items, RS_DEADRAY_COUNT * 2, storage, sizeof storage);
            for (int k = 0; k < n; ++k) {
                RsDeadRay d;
                if (rs_deadray_parse(items[k], &d)) {
                    rs_cli_error("--deadray: unknown strategy '%s' (expected all or some of: %s)", items[k],
                                 rs_deadray_list());
                    return -1;
                }
                o->deadray[d] = 1;
            }
        } else if ((v = rs_cli_value(argc, argv, &i, "--scenes", NULL, &missing))) {
            o->scene_count = parse_list(v, (char**)o->scenes, MAX_SCENES, scene_storage, storage_size);
        } else if ((v = rs_cli_value(argc, argv, &i, "--depths", NULL, &missing))) {
            if (parse_depths(v, o))
                return -1;
        } else if ((v = rs_cli_value(argc, argv, &i, "--frames", NULL, &missing))) {
            uint64_t n;
            if (rs_cli_uint("--frames", v, 1, 100000, &n))
                return -1;
            o->frames = (uint32_t)n;
        } else if ((v = rs_cli_value(argc, argv, &i, "--warmup", NULL, &missing))) {
            uint64_t n;
            if (rs_cli_uint("--warmup", v, 0, 100000, &n))
                return -1;
            o->warmup = (uint32_t)n;
            o->warmup_set = 1;
        } else if (strcmp(argv[i], "--denoise") == 0) {
            o->denoise = 1;
        } else if ((v = rs_cli_value(argc, argv, &i, "--json", NULL, &missing))) {
            o->json = v;
        } else if ((v = rs_cli_value(argc, argv, &i, "--csv", NULL, &missing))) {
            o->csv = v;
        } else if (missing) {
            return -1;
        } else {
            int common = rs_common_option(argc, argv, &i, &o->common);
            if (common < 0)
                return -1;
            if (common == 0) {
                rs_cli_error("bench: unknown argument '%s' (see raystream bench --help)", argv[i]);
                return -1;
            }
        }
    }
    return 0;
}

/* Per configuration: time on 1..N devices, speed-up over one, efficiency, shares of the paths. */
static void print_scaling(const BenchResult* results, int count, const char* scene, uint32_t integrator)
{
    int printed = 0;
    for (int i = 0; i < count; ++i) {
        const BenchResult* one = &results[i];
        if (one->scene != scene || one->integrator != integrator || one->devices != 1)
            continue;
        for (int k = 0; k < count; ++k) {
            const BenchResult* r = &results[k];
            if (r->scene != scene || r->integrator != integrator || r->deadray != one->deadray ||
                r->depth != one->depth)
                continue;
            if (!printed++)
                printf("\n%s, %s: scaling over devices (median ms per frame)\n%-14s %5s %7s %9s %8s %6s  %s\n",
                       scene, rs_integrator_name(integrator), "strategy", "depth", "devices", "ms", "speed-up", "eff.",
                       "share of paths per device");
            double speedup = one->ms_median / r->ms_median;
            printf("%-14s %5u %7d %9.2f %7.2fx %5.0f%% ", rs_deadray_name(r->deadray), r->depth, r->devices,
                   r->ms_median, speedup, 100.0 * speedup / r->devices);
            for (int d = 0; d < r->devices; ++d)
                printf(" %.3f", r->share[d]);
            printf("\n");
        }
    }
    fflush(stdout);
}

/* "stencil x3, compact-cub x6": the strategy of each bounce (1 .. depth + 1), runs counted. */
static void picks_text(const RsTraceStats* s, uint32_t depth, char* out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    RsDeadRay run = RS_DEADRAY_COUNT;
    uint32_t length = 0;
    for (uint32_t d = 1; d <= depth + 2 && d <= RS_STATS_DEPTHS + 1; ++d) {
        RsDeadRay most = d <= depth + 1 && d <= RS_STATS_DEPTHS ? rs_trace_stats_deadray_at(s, d) : RS_DEADRAY_COUNT;
        if (most == run) {
            ++length;
            continue;
        }
        if (run != RS_DEADRAY_COUNT && used < size)
            used += (size_t)snprintf(out + used, size - used, "%s%s x%u", used ? ", " : "", rs_deadray_name(run),
                                     length);
        run = most;
        length = 1;
    }
}

static void print_table(const BenchResult* results, int count, const BenchOptions* o, const char* scene,
                        uint32_t integrator)
{
    printf("\n%s, %s: FPS (median of %u frames) and device busy %% (stage time / frame time)\n%5s", scene,
           rs_integrator_name(integrator), o->frames, "depth");
    for (int d = 0; d < RS_DEADRAY_COUNT; ++d)
        if (o->deadray[d])
            printf(" %13s", rs_deadray_name((RsDeadRay)d));
    printf("\n");
    for (int k = 0; k < o->depth_count; ++k) {
        printf("%5u", o->depths[k]);
        for (int d = 0; d < RS_DEADRAY_COUNT; ++d) {
            if (!o->deadray[d])
                continue;
            const BenchResult* hit = NULL;
            for (int i = 0; i < count; ++i)
                if (results[i].scene == scene && results[i].integrator == integrator &&
                    results[i].depth == o->depths[k] && results[i].deadray == (RsDeadRay)d &&
                    (!hit || results[i].devices > hit->devices))
                    hit = &results[i]; /* the run on every device */
            if (hit)
                printf(" %8.1f %3.0f%%", 1000.0 / hit->ms_median, 100.0 * hit->busy);
            else
                printf(" %13s", "-");
        }
        printf("\n");
    }
    for (int k = 0; k < o->depth_count && o->deadray[RS_DEADRAY_AUTO]; ++k) {
        const BenchResult* hit = NULL;
        for (int i = 0; i < count; ++i)
            if (results[i].scene == scene && results[i].integrator == integrator && results[i].depth == o->depths[k] &&
                results[i].deadray == RS_DEADRAY_AUTO && (!hit || results[i].devices > hit->devices))
                hit = &results[i];
        if (!hit)
            continue;
        char picks[512];
        picks_text(&hit->per_frame, hit->depth, picks, sizeof picks);
        printf("auto at depth %u, per bounce: %s\n", hit->depth, picks);
    }
    fflush(stdout);
}

/* One measured configuration: into the JSON / CSV, and a line on stderr (stdout for particle
 * and denoiser rates). */
static void report_result(const BenchOptions* o, const BenchResult* r, int payload, uint32_t width, uint32_t height,
                          uint32_t spp, BenchMeta* meta)
{
    const char* integrator = rs_integrator_name(r->integrator);
    const char* deadray = rs_deadray_name(r->deadray);
    rs_bench_meta_result(meta, r->scene, integrator, deadray, payload, r->devices, r->depth, width, height, spp,
                         r->ms_median, r->ms_min, r->ms_max, &r->per_frame, r->stage_ms, r->denoise_ms, r->busy);
    if (!o->common.quiet)
        fprintf(stderr, "raystream: %s %s %s depth %u on %d device%s: %.2f ms (%.1f FPS)\n", r->scene, integrator,
                deadray, r->depth, r->devices, r->devices == 1 ? "" : "s", r->ms_median, 1000.0 / r->ms_median);
    if (r->particles_per_frame > 0.0)
        printf("%s, %s, %s, depth %u: %.1f M %s/s, %.2f passes/s (%.3g per pass, median of %u frames of %u passes)\n",
               r->scene, integrator, deadray, r->depth, r->particles_per_frame / r->ms_median * 1e-3,
               r->integrator == RS_INTEGRATOR_SPPM ? "photons" : "particles", spp * 1000.0 / r->ms_median,
               r->particles_per_frame / spp, o->frames, spp);
    if (o->denoise)
        printf("%s, %s, %s, depth %u: denoise %ux%u: %.3f ms (median of %u)\n", r->scene, integrator, deadray,
               r->depth, width, height, r->denoise_ms, o->frames);
}

int rs_cmd_bench(int argc, char** argv)
{
    BenchOptions o;
    memset(&o, 0, sizeof o);
    rs_common_options_init(&o.common);
    o.integrators[RS_INTEGRATOR_PATH] = o.integrators[RS_INTEGRATOR_WHITTED] = 1;
    for (int d = 0; d < RS_DEADRAY_COUNT; ++d)
        o.deadray[d] = 1;
    char scene_storage[4096];
    if (parse_bench_args(argc, argv, &o, scene_storage, sizeof scene_storage))
        return RS_EXIT_USAGE;
    if (o.scene_count == 0) {
        static const char* defaults[] = {"mirrors.json", "diffuse.json", "reflect-23k.json"};
        for (int i = 0; i < 3; ++i)
            o.scenes[o.scene_count++] = rs_default_scene(defaults[i]);
    }
    if (o.depth_count == 0)
        parse_depths("1..8", &o);

    RsError err = {{0}};
    RsBackendKind kind = rs_backend_resolve_kind(o.common.backend.kind);
    int cuda = kind == RS_BACKEND_CUDA;
    int selected = 0;
    for (int d = 0; d < RS_DEADRAY_COUNT; ++d) {
        if (!rs_deadray_supported((RsDeadRay)d, kind))
            o.deadray[d] = 0; /* e.g. CUB exists on the GPU only */
        selected += o.deadray[d];
    }
    if (!selected) { /* a row needs at least one strategy to time (bench_row.h) */
        rs_cli_error("--deadray: none of the strategies asked for runs on the %s backend", cuda ? "CUDA" : "CPU");
        return RS_EXIT_USAGE;
    }
    RsRendererConfig all_devices = rs_common_renderer_config(&o.common);
    all_devices.backend.time_stages = 1;
    all_devices.backend.aovs = o.denoise;
    all_devices.backend.particles = o.integrators[RS_INTEGRATOR_LIGHT] || o.integrators[RS_INTEGRATOR_SPPM];
    int device_ids[RS_MAX_DEVICES], device_total = 0;
    if (rs_renderer_resolve_devices(&all_devices, device_ids, &device_total, &err)) {
        rs_cli_error("%s", err.message);
        return RS_EXIT_USAGE;
    }
    if (!o.frames)
        o.frames = cuda ? 30 : 3;
    if (!o.warmup_set)
        o.warmup = cuda ? 5 : 1;
    uint32_t width = o.common.width ? o.common.width : (cuda ? 1024 : 160);
    uint32_t height = o.common.height ? o.common.height : (cuda ? 768 : 120);
    uint32_t spp = o.common.spp ? o.common.spp : 1;

    BenchMeta meta;
    if (rs_bench_check_paths(o.json, o.csv, o.scenes, o.scene_count, NULL, &err) ||
        rs_bench_meta_open(&meta, &o.common, o.json, o.csv, o.frames, o.warmup, &err)) {
        rs_cli_error("%s", err.message);
        return RS_EXIT_FAILURE;
    }
    /* a stop signal ends the run after the row in flight, every strategy of one depth (a second
     * one drops it), and what was measured is written (interrupt.h) */
    rs_interrupt_install("interrupted: finishing this depth's strategies, then writing the results (interrupt again "
                         "to stop sooner)",
                         "stopping now; the configurations measured will still be written (a third interrupt quits "
                         "without writing)");
    int clash = 0;
    size_t capacity = (size_t)o.scene_count * 4 * RS_DEADRAY_COUNT * o.depth_count * (size_t)device_total;
    BenchResult* results = calloc(capacity ? capacity : 1, sizeof *results);
    int count = 0, status = RS_EXIT_OK;
    for (int si = 0; si < o.scene_count && status == RS_EXIT_OK && !rs_interrupt_count(); ++si) {
        RsScene scene;
        rs_error_clear(&err);
        RsAccelOptions accel = rs_common_accel(&o.common);
        if (rs_bench_load_scene(o.scenes[si], &accel, o.json, o.csv, &scene, NULL, &clash, &err)) {
            rs_cli_error("%s", err.message);
            status = RS_EXIT_FAILURE;
            break;
        }
        RsRenderDesc overrides = scene.render;
        rs_common_options_apply(&o.common, &overrides);
        if (rs_scene_set_render(&scene, &overrides, &err)) {
            rs_cli_error("%s", err.message);
            rs_scene_free(&scene);
            status = RS_EXIT_FAILURE;
            break;
        }
        rs_common_warn_unlit(&scene, o.scenes[si]);
        rs_bench_meta_scene(&meta, o.scenes[si], &scene);
        /* 1, 2, ..., N devices when there are several: the scaling table; the last is all */
        for (int used = device_total > 1 ? 1 : device_total;
             used <= device_total && status == RS_EXIT_OK && !rs_interrupt_count(); ++used) {
            /* a renderer per strategy, all resident, so that a row takes their frames in turn
             * (bench_row.h) */
            RsRenderer* renderers[RS_DEADRAY_COUNT];
            RsDeadRay strategies[RS_DEADRAY_COUNT];
            int strategy_count = 0;
            for (int d = 0; d < RS_DEADRAY_COUNT && status == RS_EXIT_OK; ++d) {
                if (!o.deadray[d])
                    continue;
                RsRendererConfig cfg = all_devices;
                cfg.backend.deadray = (RsDeadRay)d;
                cfg.backend.film_stats = scene.render.noise_threshold > 0.0f; /* adaptive sampling's planes */
                cfg.device_count = used;
                memcpy(cfg.devices, device_ids, sizeof cfg.devices);
                RsRenderer* renderer = rs_renderer_create(&scene, &cfg, &err);
                if (!renderer) {
                    rs_cli_error("%s", err.message);
                    status = RS_EXIT_FAILURE;
                    break;
                }
                rs_bench_meta_device(&meta, renderer);
                rs_renderer_set_stop(renderer, NULL, rs_interrupt_stop_flag());
                renderers[strategy_count] = renderer;
                strategies[strategy_count++] = (RsDeadRay)d;
            }
            for (int ii = 0; ii < 4 && status == RS_EXIT_OK; ++ii) {
                /* the particle integrators run on one device (host/render/particle_trace.h) */
                if (!o.integrators[ii] || (rs_integrator_particles((uint32_t)ii) && used > 1))
                    continue;
                for (int k = 0; k < o.depth_count && status == RS_EXIT_OK && !rs_interrupt_count(); ++k) {
                    BenchRow row = {&scene, scene.render, &o.common, o.frames, o.warmup, o.denoise};
                    row.render.width = width;
                    row.render.height = height;
                    row.render.spp = spp;
                    row.render.max_depth = o.depths[k];
                    row.render.seed = o.common.seed_set ? o.common.seed : 1;
                    row.render.integrator = (uint32_t)ii;
                    BenchResult* rows = &results[count];
                    for (int j = 0; j < strategy_count; ++j) {
                        rows[j].scene = o.scenes[si];
                        rows[j].integrator = (uint32_t)ii;
                        rows[j].depth = o.depths[k];
                        rows[j].deadray = strategies[j];
                    }
                    int failed = 0;
                    int ran = bench_row_run(&row, renderers, rows, strategy_count, &failed, &err);
                    if (ran > 0)
                        break; /* dropped by a second stop signal */
                    if (ran < 0) {
                        rs_cli_error("%s: %s %s depth %u: %s", o.scenes[si], rs_integrator_name((uint32_t)ii),
                                     rs_deadray_name(strategies[failed]), o.depths[k], err.message);
                        status = RS_EXIT_FAILURE;
                        break;
                    }
                    for (int j = 0; j < strategy_count; ++j)
                        report_result(&o, &rows[j], all_devices.backend.payload, width, height, spp, &meta);
                    count += strategy_count;
                }
            }
            for (int j = 0; j < strategy_count; ++j)
                rs_renderer_destroy(renderers[j]);
        }
        for (int ii = 0; ii < 4; ++ii) {
            if (!o.integrators[ii] || status != RS_EXIT_OK)
                continue;
            print_table(results, count, &o, o.scenes[si], (uint32_t)ii);
            if (device_total > 1)
                print_scaling(results, count, o.scenes[si], (uint32_t)ii);
        }
        rs_scene_free(&scene);
    }
    rs_error_clear(&err);
    if (clash) {
        rs_bench_meta_discard(&meta); /* an output is an input: write nothing */
    } else if (rs_bench_meta_close(&meta, &err)) {
        rs_cli_error("%s", err.message);
        status = RS_EXIT_FAILURE;
    }
    if (status == RS_EXIT_OK && rs_interrupt_count()) {
        rs_cli_note("interrupted: %d configuration%s measured%s", count, count == 1 ? "" : "s",
                    o.json || o.csv ? " and written" : "");
        status = RS_EXIT_INTERRUPTED;
    }
    rs_interrupt_uninstall();
    free(results);
    return status;
}
