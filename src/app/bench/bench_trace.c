/* bench_trace.c - `raystream bench-trace`: rays per second through each acceleration structure,
 * per kind of ray, with what each structure costs to build and to keep.
 *
 * Host C11, application layer. For each scene and structure (bvh8 also with the persistent
 * dynamic-fetch extend), one wave of one path per pixel is generated, and then:
 *   camera  extend over every camera ray;
 *   shadow  after one shade, connect over the shadow rays it queued (next-event estimation from
 *           the first hits: any-hit, stopping at the first occluder);
 *   bounce  extend over the rays shade continued (after a diffuse bounce, the incoherent case),
 *           once in the order compaction leaves them and once sorted by ray_sort.h's key (the
 *           sort's own time is reported beside it, so whether sorting pays can be read off);
 * each timed `repeats` times after one untimed run; the median counts. Times are the stage's
 * device time by CUDA events on the GPU, the wall clock on the CPU. The dead-ray strategy is
 * compact-scan, so extend visits exactly the live rays. Output: a table per scene with, per
 * structure, what it and the wave buffers take (by part for a two-level structure: world, BLAS,
 * TLAS, instance records; "/2L" marks one), and JSON / CSV with the run's metadata (bench_meta.c).
 * --two-level runs a scene's own shapes through the two-level path (one identity instance), to
 * compare its cost with the flat structure's.
 */
#define _POSIX_C_SOURCE 200809L
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/bench/bench_meta.h"
#include "app/cli.h"
#include "app/commands.h"
#include "app/interrupt.h"
#include "app/options.h"
#include "app/scenes_dir.h"
#include "host/import/scene_loader.h"
#include "host/render/wavefront.h"
#include "host/util/clock.h"

#define MAX_SCENES 16
#define MAX_REPEATS 1000

typedef struct TraceOptions {
    RsCommonOptions common;
    const char* scenes[MAX_SCENES];
    int scene_count;
    int accel[RS_ACCEL_COUNT];
    uint32_t repeats;
    const char* json;
    const char* csv;
} TraceOptions;

typedef struct Timing {
    uint64_t rays;
    double ms; /* median */
} Timing;

typedef struct TraceResult {
    Timing camera, shadow, bounce, bounce_sorted, sort;
} TraceResult;

static void usage(FILE* f)
{
    fprintf(f,
            "usage: raystream bench-trace [options]\n"
            "\n"
            "Rays per second through each acceleration structure for camera rays, shadow rays from the\n"
            "first hits, and diffuse bounce rays (unsorted and sorted), with build time and memory.\n"
            "\n"
            "  --scenes A.json,B.json  scenes (default: the shipped scenes)\n"
            "  --accel all|LIST        structures, comma-separated (default all: %s)\n"
            "  --repeats N             timed runs per measurement, median reported (default 20 on CUDA,\n"
            "                          3 on CPU)\n"
            "  --width W --height H    default 1920x1080 on CUDA, 320x180 on CPU\n"
            "  --json FILE, --csv FILE results with metadata\n"
            "  --backend, --threads, --seed, --no-sbvh, --no-camera-tree, --sah-bins, --quiet: as for\n"
            "                          render\n"
            "\n"
            "A bvh8 row marked +cam traces its camera rays through the binary tree bvh8 keeps for them\n"
            "(--no-camera-tree: through the 8-wide nodes, by the row's extend kernel); its MiB include\n"
            "that tree.\n",
            rs_accel_list());
}

static int compare_double(const void* a, const void* b)
{
    double x = *(const double*)a, y = *(const double*)b;
    return x < y ? -1 : (x > y);
}

typedef int (*StageOp)(RsBackend* b, RsError* err);

/* Seconds one call of `op` takes: device time of `stage` where the backend reports it. */
static int time_op(RsBackend* b, StageOp op, RsStage stage, double* seconds, RsError* err)
{
    if (b->ops->take_stage_times) {
        double before[RS_STAGE_COUNT] = {0}, after[RS_STAGE_COUNT] = {0};
        if (b->ops->take_stage_times(b, before, err) || op(b, err) || b->ops->finish(b, err) ||
            b->ops->take_stage_times(b, after, err))
            return -1;
        *seconds = after[stage];
        return 0;
    }
    double t0 = rs_clock_seconds();
    if (op(b, err))
        return -1;
    *seconds = rs_clock_seconds() - t0;
    return 0;
}

/* One untimed run, then `repeats` timed ones; the median in ms. With `sort`, the list is sorted
 * before each extend and the sort's median goes to *sort_ms. */
static int measure(RsBackend* b, StageOp op, RsStage stage, uint32_t repeats, int sort, double* ms, double* sort_ms,
                   RsError* err)
{
    double t[MAX_REPEATS], s[MAX_REPEATS], unused;
    if ((sort && time_op(b, b->ops->sort, RS_STAGE_SORT, &unused, err)) || time_op(b, op, stage, &unused, err))
        return -1;
    for (uint32_t i = 0; i < repeats; ++i) {
        if ((sort && time_op(b, b->ops->sort, RS_STAGE_SORT, &s[i], err)) || time_op(b, op, stage, &t[i], err))
            return -1;
    }
    qsort(t, repeats, sizeof *t, compare_double);
    *ms = 1e3 * (repeats % 2 ? t[repeats / 2] : 0.5 * (t[repeats / 2 - 1] + t[repeats / 2]));
    if (sort) {
        qsort(s, repeats, sizeof *s, compare_double);
        *sort_ms = 1e3 * (repeats % 2 ? s[repeats / 2] : 0.5 * (s[repeats / 2 - 1] + s[repeats / 2]));
    }
    return 0;
}

static int run(const RsScene* scene, RsBackendConfig cfg, uint32_t width, uint32_t height, uint32_t repeats,
               uint32_t seed, TraceResult* r, RsBackend** backend_out, RsError* err)
{
    memset(r, 0, sizeof *r);
    cfg.deadray = RS_DEADRAY_COMPACT_SCAN;
    cfg.time_stages = 1;
    cfg.sort_rays = 1; /* the backend keeps sort buffers; only the explicit sort calls below use them */
    RsBackend* b = rs_backend_create(&cfg, err);
    if (!b)
        return -1;
    *backend_out = b;
    uint32_t pixels = width * height, wave = 0;
    RsSceneView view = rs_scene_view(scene);
    RsFrameDesc frame = rs_frame_from_scene(scene, width, height, 2, RS_INTEGRATOR_PATH, seed);
    RsBounceCounts counts;
    RsWaveRange whole_image = {0, pixels, 0, pixels, RS_PHASE_CAMERA, 0}; /* one camera ray per pixel */
    if (b->ops->set_scene(b, &view, err) || rs_wavefront_plan(b, pixels, &wave, err))
        return -1;
    if (wave < pixels)
        return rs_error_set(err, "%ux%u does not fit one wave on %s (%u paths); use a smaller --width/--height",
                            width, height, b->device, wave);
    double unused;
    if (b->ops->set_frame(b, &frame, pixels, err) || b->ops->generate(b, &whole_image, err))
        return -1;
    r->camera.rays = pixels;
    if (measure(b, b->ops->extend, RS_STAGE_EXTEND, repeats, 0, &r->camera.ms, &unused, err) ||
        b->ops->shade(b, err) || b->ops->drop_dead(b, err) || b->ops->read_counts(b, &counts, err))
        return -1;
    r->shadow.rays = counts.shadow_rays;
    r->bounce.rays = r->bounce_sorted.rays = counts.live;
    if (measure(b, b->ops->connect, RS_STAGE_CONNECT, repeats, 0, &r->shadow.ms, &unused, err) ||
        measure(b, b->ops->extend, RS_STAGE_EXTEND, repeats, 0, &r->bounce.ms, &unused, err) ||
        measure(b, b->ops->extend, RS_STAGE_EXTEND, repeats, 1, &r->bounce_sorted.ms, &r->sort.ms, err))
        return -1;
    return 0;
}

static double rate(const Timing* t) { return t->ms > 0.0 ? (double)t->rays / (t->ms * 1e-3) : 0.0; }

/* The structure's parts and the wave buffers: what the device holds besides textures. */
static void print_memory(const RsScene* scene, uint64_t wave_bytes, uint32_t paths)
{
    RsSceneAccelBytes m = rs_scene_accel_bytes(scene);
    if (m.instance_count)
        printf("  memory: world %.3f MiB, BLAS %.3f MiB (%u objects), TLAS %.3f MiB, instance records %.3f MiB "
               "(%u instances: %.1f bytes each with the TLAS), wave buffers %.1f MiB (%u paths x %.0f bytes)\n",
               m.world / 1048576.0, m.blas / 1048576.0, m.object_count, m.tlas / 1048576.0,
               m.instances / 1048576.0, m.instance_count, (double)(m.tlas + m.instances) / m.instance_count,
               wave_bytes / 1048576.0, paths, (double)wave_bytes / paths);
    else
        printf("  memory: structure %.3f MiB, wave buffers %.1f MiB (%u paths x %.0f bytes)\n", m.world / 1048576.0,
               wave_bytes / 1048576.0, paths, (double)wave_bytes / paths);
}

static void add_json(cJSON* results, const char* scene_path, const RsScene* scene, const RsAccelStats* st,
                     uint32_t accel, int spatial, RsTraceKernel kernel, uint32_t width, uint32_t height,
                     const TraceResult* r, uint64_t wave_bytes)
{
    const char* scene_name = scene_path;
    cJSON* o = cJSON_CreateObject();
    RsSceneAccelBytes m = rs_scene_accel_bytes(scene);
    cJSON* mem = cJSON_AddObjectToObject(o, "memory");
    cJSON_AddNumberToObject(mem, "world_bytes", (double)m.world);
    cJSON_AddNumberToObject(mem, "blas_bytes", (double)m.blas);
    cJSON_AddNumberToObject(mem, "tlas_bytes", (double)m.tlas);
    cJSON_AddNumberToObject(mem, "instance_bytes", (double)m.instances);
    cJSON_AddNumberToObject(mem, "instances", m.instance_count);
    cJSON_AddNumberToObject(mem, "objects", m.object_count);
    cJSON_AddNumberToObject(mem, "wave_bytes", (double)wave_bytes);
    cJSON_AddBoolToObject(o, "two_level", scene->accel_options.two_level);
    cJSON_AddStringToObject(o, "scene", scene_name);
    cJSON_AddStringToObject(o, "accel", rs_accel_name(accel));
    cJSON_AddBoolToObject(o, "spatial_splits", spatial);
    cJSON_AddBoolToObject(o, "camera_tree", scene->accel.view.camera_tree != 0); /* camera rays walk it */
    cJSON_AddNumberToObject(o, "spatial_splits_made", st->spatial_splits);
    cJSON_AddStringToObject(o, "trace_kernel", rs_trace_kernel_name(kernel));
    cJSON_AddNumberToObject(o, "width", width);
    cJSON_AddNumberToObject(o, "height", height);
    cJSON_AddNumberToObject(o, "build_seconds", st->build_seconds);
    cJSON_AddNumberToObject(o, "bytes", (double)st->bytes);
    cJSON_AddNumberToObject(o, "nodes", st->nodes);
    cJSON_AddNumberToObject(o, "references", (double)st->references);
    cJSON_AddNumberToObject(o, "sah_cost", st->sah_cost);
    const struct {
        const char* name;
        const Timing* t;
    } kinds[] = {{"camera", &r->camera}, {"shadow", &r->shadow}, {"bounce", &r->bounce},
                 {"bounce_sorted", &r->bounce_sorted}};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; ++k) {
        cJSON* t = cJSON_AddObjectToObject(o, kinds[k].name);
        cJSON_AddNumberToObject(t, "rays", (double)kinds[k].t->rays);
        cJSON_AddNumberToObject(t, "ms_median", kinds[k].t->ms);
        cJSON_AddNumberToObject(t, "rays_per_s", rate(kinds[k].t));
    }
    cJSON_AddNumberToObject(o, "sort_ms_median", r->sort.ms);
    cJSON_AddItemToArray(results, o);
}

static int parse_args(int argc, char** argv, TraceOptions* o, char* storage, size_t storage_size)
{
    for (int i = 0; i < argc; ++i) {
        int missing = 0;
        const char* v;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            exit(RS_EXIT_OK);
        }
        int common = rs_common_option(argc, argv, &i, &o->common);
        if (common < 0)
            return -1;
        if (common > 0)
            continue;
        uint64_t n;
        if ((v = rs_cli_value(argc, argv, &i, "--scenes", NULL, &missing)) != NULL) {
            snprintf(storage, storage_size, "%s", v);
            for (char* tok = strtok(storage, ","); tok && o->scene_count < MAX_SCENES; tok = strtok(NULL, ","))
                o->scenes[o->scene_count++] = tok;
        } else if ((v = rs_cli_value(argc, argv, &i, "--repeats", NULL, &missing)) != NULL) {
            if (rs_cli_uint("--repeats", v, 1, MAX_REPEATS, &n))
                return -1;
            o->repeats = (uint32_t)n;
        } else if ((v = rs_cli_value(argc, argv, &i, "--json", NULL, &missing)) != NULL) {
            o->json = v;
        } else if ((v = rs_cli_value(argc, argv, &i, "--csv", NULL, &missing)) != NULL) {
            o->csv = v;
        } else if (missing) {
            return -1;
        } else {
            rs_cli_error("bench-trace: unknown option '%s' (see raystream bench-trace --help)", argv[i]);
            return -1;
        }
    }
    return 0;
}

/* --accel is a common option holding one structure; bench-trace also takes a list or "all". */
static int parse_accels(int argc, char** argv, TraceOptions* o)
{
    for (int k = 0; k < RS_ACCEL_COUNT; ++k)
        o->accel[k] = 1;
    for (int i = 0; i + 1 < argc; ++i) {
        if (strcmp(argv[i], "--accel") != 0 || strcmp(argv[i + 1], "all") == 0)
            continue;
        memset(o->accel, 0, sizeof o->accel);
        char list[256];
        snprintf(list, sizeof list, "%s", argv[i + 1]);
        for (char* tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
            uint32_t k;
            if (rs_accel_parse(tok, &k)) {
                rs_cli_error("--accel: unknown acceleration structure '%s' (expected all or some of: %s)", tok,
                             rs_accel_list());
                return -1;
            }
            o->accel[k] = 1;
        }
        /* hide the list from the common parser, which takes one name */
        argv[i + 1] = (char*)rs_accel_name(RS_ACCEL_BVH8);
    }
    return 0;
}

int rs_cmd_bench_trace(int argc, char** argv)
{
    TraceOptions o;
    memset(&o, 0, sizeof o);
    rs_common_options_init(&o.common);
    char storage[4096];
    if (parse_accels(argc, argv, &o) || parse_args(argc, argv, &o, storage, sizeof storage))
        return RS_EXIT_USAGE;
    if (o.scene_count == 0) {
        static const char* defaults[] = {"cornell.json", "mirrors.json", "diffuse.json", "reflect-23k.json"};
        for (int i = 0; i < 4; ++i)
            o.scenes[o.scene_count++] = rs_default_scene(defaults[i]);
    }
    int cuda = o.common.backend.kind == RS_BACKEND_CUDA ||
               (o.common.backend.kind == RS_BACKEND_AUTO && rs_cuda_built() && rs_cuda_device_count() > 0);
    if (!o.repeats)
        o.repeats = cuda ? 20 : 3;
    uint32_t width = o.common.width ? o.common.width : (cuda ? 1920 : 320);
    uint32_t height = o.common.height ? o.common.height : (cuda ? 1080 : 180);
    uint32_t seed = o.common.seed_set ? o.common.seed : 1;
    const char* unit = cuda ? "G" : "M";
    double scale = cuda ? 1e-9 : 1e-6;

    BenchMeta meta;
    RsError err = {{0}};
    if (rs_bench_check_paths(o.json, o.csv, o.scenes, o.scene_count, NULL, &err) ||
        rs_bench_meta_open(&meta, &o.common, o.json, NULL, o.repeats, 1, &err)) {
        rs_cli_error("%s", err.message);
        return RS_EXIT_FAILURE;
    }
    FILE* csv = o.csv ? rs_bench_csv_open(o.csv,
                                          "scene,accel,spatial_splits,trace_kernel,width,height,build_seconds,bytes,"
                                          "camera_rays_per_s,shadow_rays_per_s,bounce_rays_per_s,"
                                          "bounce_sorted_rays_per_s,sort_ms\n",
                                          &err)
                      : NULL;
    if (o.csv && !csv) {
        rs_cli_error("%s", err.message);
        rs_bench_meta_discard(&meta);
        return RS_EXIT_FAILURE;
    }
    /* a stop signal ends the run after the structure in flight, writing what was measured */
    rs_interrupt_install("interrupted: finishing this structure, then writing the results",
                         "interrupted again: finishing this structure (a third interrupt quits without writing)");
    int status = RS_EXIT_OK, clash = 0;
    for (int si = 0; si < o.scene_count && status == RS_EXIT_OK && !rs_interrupt_count(); ++si) {
        RsScene scene;
        RsAccelOptions accel = o.common.accel;
        rs_error_clear(&err);
        if (rs_bench_load_scene(o.scenes[si], &accel, o.json, o.csv, &scene, NULL, &clash, &err)) {
            rs_cli_error("%s", err.message);
            status = RS_EXIT_FAILURE;
            break;
        }
        printf("\n%s: %zu primitives, %zu objects of %zu, %zu instances%s, %ux%u, median of %u (%s rays/s)\n",
               o.scenes[si], scene.prims.count, scene.objects.count, scene.object_prims.count, scene.instances.count,
               scene.accel_options.two_level ? " (--two-level: the world as one more)" : "", width, height, o.repeats,
               unit);
        printf("%-13s %-10s %8s %7s %8s %8s %8s %8s %8s %8s\n", "accel", "extend", "build s", "splits", "MiB", "camera",
               "shadow", "bounce", "sorted", "sort ms");
        for (uint32_t k = 0; k < RS_ACCEL_COUNT && status == RS_EXIT_OK && !rs_interrupt_count(); ++k) {
            if (!o.accel[k])
                continue;
            scene.accel_options.kind = k;
            if (rs_scene_build(&scene, &err)) {
                rs_cli_error("%s: %s", o.scenes[si], err.message);
                status = RS_EXIT_FAILURE;
                break;
            }
            rs_bench_meta_scene(&meta, o.scenes[si], &scene);
            int spatial = scene.accel_options.spatial_splits && k != RS_ACCEL_GRID; /* the grid has none */
            /* the dynamic-fetch kernel walks flat bvh8 scenes only */
            int kernels = cuda && k == RS_ACCEL_BVH8 && scene.two_level.view.instance_count == 0 ? 2 : 1;
            for (int kernel = 0; kernel < kernels; ++kernel) {
                RsBackendConfig cfg = o.common.backend;
                cfg.trace_kernel = kernel ? RS_TRACE_PERSISTENT : RS_TRACE_PLAIN;
                TraceResult r;
                RsBackend* backend = NULL;
                if (run(&scene, cfg, width, height, o.repeats, seed, &r, &backend, &err)) {
                    rs_cli_error("%s: %s: %s", o.scenes[si], rs_accel_name(k), err.message);
                    rs_backend_destroy(backend);
                    status = RS_EXIT_FAILURE;
                    break;
                }
                rs_bench_meta_backend(&meta, backend);
                uint64_t wave_bytes = backend->ops->bytes_per_path(backend) * (uint64_t)width * height;
                rs_backend_destroy(backend);
                const RsAccelStats* st = &scene.accel.stats;
                char name[32];
                snprintf(name, sizeof name, "%s%s%s%s", rs_accel_name(k), spatial ? "+sbvh" : "",
                         scene.accel.view.camera_tree ? "+cam" : "", scene.two_level.view.instance_count ? "/2L" : "");
                /* a two-level structure: its build and bytes in all (print_memory gives the parts) */
                RsSceneAccelBytes mem = rs_scene_accel_bytes(&scene);
                double build_s = st->build_seconds + scene.two_level.build_seconds;
                uint64_t bytes = mem.world + mem.blas + mem.tlas + mem.instances;
                printf("%-13s %-10s %8.3f %7u %8.1f %8.3f %8.3f %8.3f %8.3f %8.3f\n", name,
                       rs_trace_kernel_name(cfg.trace_kernel), build_s, st->spatial_splits, (double)bytes / 1048576.0,
                       rate(&r.camera) * scale, rate(&r.shadow) * scale, rate(&r.bounce) * scale,
                       rate(&r.bounce_sorted) * scale, r.sort.ms);
                print_memory(&scene, wave_bytes, width * height);
                fflush(stdout);
                add_json(meta.results, o.scenes[si], &scene, st, k, spatial,
                         cfg.trace_kernel, width, height, &r, wave_bytes);
                if (csv)
                    fprintf(csv, "%s,%s,%d,%s,%u,%u,%.4f,%llu,%.6g,%.6g,%.6g,%.6g,%.4f\n", o.scenes[si],
                            rs_accel_name(k), spatial, rs_trace_kernel_name(cfg.trace_kernel),
                            width, height, st->build_seconds, (unsigned long long)st->bytes, rate(&r.camera),
                            rate(&r.shadow), rate(&r.bounce), rate(&r.bounce_sorted), r.sort.ms);
                if (csv)
                    fflush(csv); /* an interrupted or killed run keeps its rows */
            }
        }
        rs_scene_free(&scene);
    }
    rs_error_clear(&err);
    if (csv && rs_bench_csv_close(csv, o.csv, !clash, &err)) {
        rs_cli_error("%s", err.message);
        status = RS_EXIT_FAILURE;
    }
    rs_error_clear(&err);
    if (clash) {
        rs_bench_meta_discard(&meta); /* an output is an input: write nothing */
    } else if (rs_bench_meta_close(&meta, &err)) {
        rs_cli_error("%s", err.message);
        status = RS_EXIT_FAILURE;
    }
    if (status == RS_EXIT_OK && rs_interrupt_count())
        status = RS_EXIT_INTERRUPTED;
    rs_interrupt_uninstall();
    return status;
}
