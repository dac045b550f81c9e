/* bench_meta.c - benchmark result files (see bench_meta.h). Host C11, application layer.
 * CSV rows are written (and flushed) as each configuration finishes, into NAME.tmp-PID, renamed
 * to NAME when the run ends or a signal stops it (interrupt.h): so an interrupted run keeps
 * them, and a file the run reads (a scene, a mesh, a texture) is never truncated before the
 * check that it is not an output. */
#define _POSIX_C_SOURCE 200809L
#include "app/bench/bench_meta.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app/output_paths.h"
#include "host/import/scene_loader.h"
#include "git_commit.h"
#include "host/io/file_hash.h"
#include "host/io/safe_file.h"
#include "host/util/thread_pool.h"
#include "version.h"

void rs_file_hash(const char* path, char* out, size_t size)
{
    uint64_t h;
    if (rs_file_hash64(path, &h))
        snprintf(out, size, "unreadable");
    else
        snprintf(out, size, "fnv1a64:%016llx", (unsigned long long)h);
}

static const char csv_header[] =
    "scene,integrator,deadray,payload,depth,width,height,spp,ms_median,ms_min,ms_max,fps_median,"
    "mrays_camera,mrays_bounce,mrays_shadow,mrays_total,live_rays,live_fraction,shadow_rays,readback_bytes,"
    "stage_generate_ms,stage_sort_ms,stage_extend_ms,stage_shade_ms,stage_connect_ms,stage_drop_dead_ms,stage_accumulate_ms,devices,denoise_ms,"
    "gpu_busy,deadray_per_bounce\n";

int rs_bench_meta_open(BenchMeta* m, const RsCommonOptions* o, const char* json_path, const char* csv_path,
                       uint32_t frames, uint32_t warmup, RsError* err)
{
    memset(m, 0, sizeof *m);
    m->json_path = json_path;
    m->csv_path = csv_path;
    if (json_path && rs_file_check_writable(json_path, err))
        return -1;
    if (csv_path && !(m->csv = rs_bench_csv_open(csv_path, csv_header, err)))
        return -1;
    m->root = cJSON_CreateObject();
    cJSON* meta = cJSON_AddObjectToObject(m->root, "meta");
    cJSON_AddStringToObject(meta, "raystream", RS_VERSION);
    cJSON_AddStringToObject(meta, "git_commit", RS_GIT_COMMIT);
    cJSON_AddStringToObject(meta, "build_type", RS_BUILD_TYPE);
    cJSON_AddStringToObject(meta, "cuda_architectures", RS_CUDA_ARCHS);
    char host[256] = "unknown";
    gethostname(host, sizeof host - 1);
    cJSON_AddStringToObject(meta, "host", host);
    cJSON_AddNumberToObject(meta, "cpu_processors", rs_cpu_count());
    cJSON_AddNumberToObject(meta, "cpu_threads", o->backend.threads ? o->backend.threads : rs_cpu_count());
    cJSON_AddNumberToObject(meta, "frames", frames);
    cJSON_AddNumberToObject(meta, "warmup_frames", warmup);
    cJSON_AddNumberToObject(meta, "seed", o->seed_set ? o->seed : 1);
    cJSON_AddBoolToObject(meta, "payload_compaction", o->backend.payload);
    cJSON_AddStringToObject(meta, "accel", rs_accel_name(rs_common_accel(o).kind));
    cJSON_AddBoolToObject(meta, "spatial_splits", o->accel.spatial_splits);
    cJSON_AddNumberToObject(meta, "sah_bins", o->accel.bins ? o->accel.bins : RS_ACCEL_DEFAULT_BINS);
    cJSON_AddBoolToObject(meta, "camera_tree", o->accel.camera_tree);
    cJSON_AddStringToObject(meta, "trace_kernel", rs_trace_kernel_name(o->backend.trace_kernel));
    cJSON_AddBoolToObject(meta, "sort_rays", o->backend.sort_rays);
    cJSON_AddBoolToObject(meta, "sort_materials", o->backend.sort_materials);
    time_t now = time(NULL);
    char date[64];
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    cJSON_AddStringToObject(meta, "date", date);
    m->scenes = cJSON_AddArrayToObject(m->root, "scenes");
    m->results = cJSON_AddArrayToObject(m->root, "results");
    return 0;
}

void rs_bench_meta_scene(BenchMeta* m, const char* path, const RsScene* scene)
{
    char hash[64];
    rs_file_hash(path, hash, sizeof hash);
    cJSON* s = cJSON_CreateObject();
    cJSON_AddStringToObject(s, "file", path);
    cJSON_AddStringToObject(s, "hash", hash);
    cJSON_AddNumberToObject(s, "primitives", (double)scene->prims.count);
    const RsAccelStats* a = &scene->accel.stats;
    cJSON_AddStringToObject(s, "accel", rs_accel_name(scene->accel.view.kind));
    cJSON_AddNumberToObject(s, "accel_nodes", a->nodes);
    cJSON_AddNumberToObject(s, "accel_bytes", (double)a->bytes);
    cJSON_AddNumberToObject(s, "accel_build_seconds", a->build_seconds);
    cJSON_AddNumberToObject(s, "sah_cost", a->sah_cost);
    cJSON_AddItemToArray(m->scenes, s);
}

/* backend name, device description, device count and (CUDA) the first device's details */
static void record_devices(BenchMeta* m, const char* backend, const char* device, int devices, int cuda_device)
{
    if (m->devices_recorded >= devices)
        return; /* the run with the most devices names them all */
    m->devices_recorded = devices;
    cJSON* meta = cJSON_GetObjectItem(m->root, "meta");
    cJSON_DeleteItemFromObject(meta, "backend");
    cJSON_DeleteItemFromObject(meta, "device");
    cJSON_DeleteItemFromObject(meta, "devices");
    cJSON_AddStringToObject(meta, "backend", backend);
    cJSON_AddStringToObject(meta, "device", device);
    cJSON_AddNumberToObject(meta, "devices", devices);
    RsDeviceInfo info;
    if (cJSON_GetObjectItem(meta, "gpu") || cuda_device < 0 || rs_cuda_device_info(cuda_device, &info) != 0)
        return;
    cJSON* g = cJSON_AddObjectToObject(meta, "gpu");
    cJSON_AddStringToObject(g, "name", info.name);
    cJSON_AddNumberToObject(g, "sm_count", info.sm_count);
    char cc[16], driver[16], runtime[16];
    snprintf(cc, sizeof cc, "%d.%d", info.cc_major, info.cc_minor);
    snprintf(driver, sizeof driver, "%d.%d", info.driver_version / 1000, info.driver_version % 1000 / 10);
    snprintf(runtime, sizeof runtime, "%d.%d", info.runtime_version / 1000, info.runtime_version % 1000 / 10);
    cJSON_AddStringToObject(g, "compute_capability", cc);
    cJSON_AddStringToObject(g, "cuda_driver", driver);
    cJSON_AddStringToObject(g, "cuda_runtime", runtime);
    cJSON_AddNumberToObject(g, "memory_bytes", (double)info.memory_bytes);
}

void rs_bench_meta_device(BenchMeta* m, const RsRenderer* renderer)
{
    char device[1024];
    rs_renderer_describe(renderer, device, sizeof device);
    int cuda = rs_renderer_backend_config(renderer)->kind == RS_BACKEND_CUDA;
    record_devices(m, rs_renderer_backend_name(renderer), device, rs_renderer_device_count(renderer),
                   cuda ? rs_renderer_device_id(renderer, 0) : -1);
}

void rs_bench_meta_backend(BenchMeta* m, const RsBackend* backend)
{
    record_devices(m, backend->name, backend->device, 1,
                   backend->config.kind == RS_BACKEND_CUDA ? backend->config.device : -1);
}

void rs_bench_meta_result(BenchMeta* m, const char* scene, const char* integrator, const char* deadray, int payload,
                          int devices, uint32_t depth, uint32_t width, uint32_t height, uint32_t spp, double ms_median,
                          double ms_min, double ms_max, const RsTraceStats* s, const double* stage_ms,
                          double denoise_ms, double busy)
{
    double seconds = ms_median * 1e-3;
    double camera = s->camera_rays / seconds / 1e6, bounce = s->bounce_rays / seconds / 1e6,
           shadow = s->shadow_rays / seconds / 1e6;
    cJSON* r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "scene", scene);
    cJSON_AddStringToObject(r, "integrator", integrator);
    cJSON_AddStringToObject(r, "deadray", deadray);
    cJSON_AddBoolToObject(r, "payload", payload);
    cJSON_AddNumberToObject(r, "devices", devices);
    cJSON_AddNumberToObject(r, "depth", depth);
    cJSON_AddNumberToObject(r, "width", width);
    cJSON_AddNumberToObject(r, "height", height);
    cJSON_AddNumberToObject(r, "spp", spp);
    cJSON_AddNumberToObject(r, "ms_median", ms_median);
    cJSON_AddNumberToObject(r, "ms_min", ms_min);
    cJSON_AddNumberToObject(r, "ms_max", ms_max);
    cJSON_AddNumberToObject(r, "fps_median", 1000.0 / ms_median);
    cJSON* mr = cJSON_AddObjectToObject(r, "mrays_per_s");
    cJSON_AddNumberToObject(mr, "camera", camera);
    cJSON_AddNumberToObject(mr, "bounce", bounce);
    cJSON_AddNumberToObject(mr, "shadow", shadow);
    cJSON_AddNumberToObject(mr, "total", camera + bounce + shadow);
    /* depth + 1 entries: the last counts the emission-only segments after a specular last
     * vertex (src/kernel/stages/stage_shade.h) */
    cJSON* live = cJSON_AddArrayToObject(r, "live_rays");
    cJSON* fraction = cJSON_AddArrayToObject(r, "live_fraction");
    cJSON* shadows = cJSON_AddArrayToObject(r, "shadow_rays");
    for (uint32_t d = 1; d <= depth + 1 && d <= RS_STATS_DEPTHS; ++d) {
        cJSON_AddItemToArray(live, cJSON_CreateNumber((double)s->live_at_depth[d]));
        cJSON_AddItemToArray(fraction, cJSON_CreateNumber(
                                           s->camera_rays ? (double)s->live_at_depth[d] / (double)s->camera_rays : 0));
        cJSON_AddItemToArray(shadows, cJSON_CreateNumber((double)s->shadow_at_depth[d]));
    }
    cJSON_AddNumberToObject(r, "readback_bytes_per_frame", (double)s->readback_bytes);
    if (denoise_ms >= 0.0)
        cJSON_AddNumberToObject(r, "denoise_ms", denoise_ms);
    else
        cJSON_AddNullToObject(r, "denoise_ms");
    cJSON* st = cJSON_AddObjectToObject(r, "stage_ms");
    for (int k = 0; k < RS_STAGE_COUNT; ++k)
        cJSON_AddNumberToObject(st, rs_stage_name((RsStage)k), stage_ms[k]);
    cJSON_AddNumberToObject(r, "gpu_busy", busy);
    /* per bounce, the strategy that ran most of them: --deadray auto's picks */
    cJSON* picks = cJSON_AddArrayToObject(r, "deadray_per_bounce");
    for (uint32_t d = 1; d <= depth + 1 && d <= RS_STATS_DEPTHS; ++d) {
        RsDeadRay most = rs_trace_stats_deadray_at(s, d);
        cJSON_AddItemToArray(picks, most == RS_DEADRAY_COUNT ? cJSON_CreateNull()
                                                             : cJSON_CreateString(rs_deadray_name(most)));
    }
    cJSON_AddItemToArray(m->results, r);

    if (m->csv) {
        fprintf(m->csv, "%s,%s,%s,%d,%u,%u,%u,%u,%.4f,%.4f,%.4f,%.3f,%.3f,%.3f,%.3f,%.3f,", scene, integrator, deadray,
                payload, depth, width, height, spp, ms_median, ms_min, ms_max, 1000.0 / ms_median, camera, bounce,
                shadow, camera + bounce + shadow);
        for (int col = 0; col < 3; ++col) { /* ';'-separated per-bounce lists */
            for (uint32_t d = 1; d <= depth + 1 && d <= RS_STATS_DEPTHS; ++d) {
                if (col == 0)
                    fprintf(m->csv, "%s%llu", d > 1 ? ";" : "", (unsigned long long)s->live_at_depth[d]);
                else if (col == 1)
                    fprintf(m->csv, "%s%.6f", d > 1 ? ";" : "",
                            s->camera_rays ? (double)s->live_at_depth[d] / (double)s->camera_rays : 0.0);
                else
                    fprintf(m->csv, "%s%llu", d > 1 ? ";" : "", (unsigned long long)s->shadow_at_depth[d]);
            }
            fputc(',', m->csv);
        }
        fprintf(m->csv, "%llu", (unsigned long long)s->readback_bytes);
        for (int k = 0; k < RS_STAGE_COUNT; ++k)
            fprintf(m->csv, ",%.4f", stage_ms[k]);
        fprintf(m->csv, ",%d,", devices);
        if (denoise_ms >= 0.0)
            fprintf(m->csv, "%.4f", denoise_ms);
        fprintf(m->csv, ",%.4f,", busy);
        for (uint32_t d = 1; d <= depth + 1 && d <= RS_STATS_DEPTHS; ++d) {
            RsDeadRay most = rs_trace_stats_deadray_at(s, d);
            fprintf(m->csv, "%s%s", d > 1 ? ";" : "", most == RS_DEADRAY_COUNT ? "-" : rs_deadray_name(most));
        }
        fputc('\n', m->csv);
        fflush(m->csv);
    }
}

int rs_bench_check_paths(const char* json, const char* csv, const char* const* scenes, int scene_count,
                         const RsFileList* files_read, RsError* err)
{
    RsPathSet paths = {0};
    int status = (json && rs_path_set_write(&paths, json, "results (--json)", err)) ||
                 (csv && rs_path_set_write(&paths, csv, "results (--csv)", err));
    for (int i = 0; i < scene_count && !status; ++i)
        status = rs_path_set_read(&paths, scenes[i], "scene", err);
    if (!status && files_read)
        status = rs_path_set_read_list(&paths, files_read, err) || rs_path_set_check_collisions(&paths, err);
    else if (!status)
        status = rs_path_set_check(&paths, err);
    rs_path_set_free(&paths);
    return status ? -1 : 0;
}

int rs_bench_load_scene(const char* path, const RsAccelOptions* accel, const char* json, const char* csv,
                        RsScene* scene, RsFileList* files_read, int* clash, RsError* err)
{
    *clash = 0;
    RsFileList own = {0};
    RsFileList* files = files_read ? files_read : &own;
    if (rs_scene_load(path, accel, scene, files, err)) {
        rs_file_list_free(&own);
        return -1;
    }
    *clash = rs_bench_check_paths(json, csv, NULL, 0, files, err) != 0;
    rs_file_list_free(&own);
    if (*clash)
        rs_scene_free(scene);
    return *clash ? -1 : 0;
}

static void csv_temp_name(const char* path, char* out, size_t size)
{
    snprintf(out, size, "%s.tmp-%ld", path, (long)getpid());
}

FILE* rs_bench_csv_open(const char* path, const char* header, RsError* err)
{
    char tmp[4096];
    csv_temp_name(path, tmp, sizeof tmp);
    FILE* f = fopen(tmp, "w");
    if (!f) {
        rs_error_set(err, "cannot write '%s': %s", path, strerror(errno));
        return NULL;
    }
    fputs(header, f);
    fflush(f);
    return f;
}

int rs_bench_csv_close(FILE* f, const char* path, int keep, RsError* err)
{
    char tmp[4096];
    csv_temp_name(path, tmp, sizeof tmp);
    int failed = fclose(f) != 0;
    int e = errno;
    if (!failed && keep && rename(tmp, path) != 0) {
        failed = 1;
        e = errno;
    }
    if (failed || !keep)
        remove(tmp);
    return failed ? rs_error_set(err, "cannot write '%s': %s", path, strerror(e)) : 0;
}

void rs_bench_meta_discard(BenchMeta* m)
{
    if (m->csv)
        rs_bench_csv_close(m->csv, m->csv_path, 0, NULL);
    cJSON_Delete(m->root);
    memset(m, 0, sizeof *m);
}

int rs_bench_meta_close(BenchMeta* m, RsError* err)
{
    int status = 0;
    if (m->csv && rs_bench_csv_close(m->csv, m->csv_path, 1, err))
        status = -1;
    if (m->json_path && m->root) {
        char* text = cJSON_Print(m->root);
        char tmp[4096];
        snprintf(tmp, sizeof tmp, "%s.tmp-%ld", m->json_path, (long)getpid());
        FILE* f = text ? fopen(tmp, "w") : NULL;
        int ok = f && fputs(text, f) >= 0 && fputc('\n', f) != EOF;
        ok = f && fclose(f) == 0 && ok;
        if (!ok || rename(tmp, m->json_path) != 0) {
            remove(tmp);
            status = rs_error_set(err, "cannot write '%s': %s", m->json_path, strerror(errno));
        }
        free(text);
    }
    cJSON_Delete(m->root);
    memset(m, 0, sizeof *m);
    return status;
}
