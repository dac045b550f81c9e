/* bench_meta.h - the benchmark's JSON and CSV files: results and the metadata that makes them
 * comparable later (GPU, driver and runtime, SM count, build type, architectures, resolution,
 * spp, seed, scene file hashes, git commit). Host C11, application layer. */
#ifndef RS_APP_BENCH_META_H
#define RS_APP_BENCH_META_H

#include <cJSON.h>
#include <stdio.h>

#include "app/options.h"
#include "host/render/renderer.h"
#include "host/scene/scene.h"
#include "host/util/file_list.h"

typedef struct BenchMeta {
    cJSON* root;
    cJSON* results;
    cJSON* scenes;
    FILE* csv;
    const char* json_path;
    const char* csv_path;
    int devices_recorded;
} BenchMeta;

/* Checks both paths can be written (before anything runs) and starts the documents. */
int rs_bench_meta_open(BenchMeta* m, const RsCommonOptions* o, const char* json_path, const char* csv_path,
                       uint32_t frames, uint32_t warmup, RsError* err);
void rs_bench_meta_scene(BenchMeta* m, const char* path, const RsScene* scene);
/* Records the backend and devices (again when a run uses more devices than the last). */
void rs_bench_meta_device(BenchMeta* m, const RsRenderer* renderer);
/* The same for the micro-benchmarks, which drive one backend directly. */
void rs_bench_meta_backend(BenchMeta* m, const RsBackend* backend);
/* busy: the sum of stage times over the frame time (the device's busy fraction); per_frame's
 * deadray_at_depth gives the strategy that ran most bounces of each depth (auto's picks). */
void rs_bench_meta_result(BenchMeta* m, const char* scene, const char* integrator, const char* deadray, int payload,
                          int devices, uint32_t depth, uint32_t width, uint32_t height, uint32_t spp, double ms_median,
                          double ms_min, double ms_max, const RsTraceStats* per_frame, const double* stage_ms,
                          double denoise_ms, double busy);
/* Writes the JSON (to a temporary name, then renamed) and closes the CSV (renamed from its
 * temporary name). */
int rs_bench_meta_close(BenchMeta* m, RsError* err);
/* Ends without writing: the CSV's temporary is removed, no JSON is written (a path check
 * failed: an output names an input). */
void rs_bench_meta_discard(BenchMeta* m);

/* The result files (--json, --csv; either may be NULL) against each other and the scenes
 * (output_paths.h), with the writability checks: before anything runs. With files_read (a
 * scene just loaded), against the files it read, without them. Returns -1 naming the clash. */
int rs_bench_check_paths(const char* json, const char* csv, const char* const* scenes, int scene_count,
                         const RsFileList* files_read, RsError* err);

/* Loads a benchmark scene (rs_scene_load) and checks the result files against every file it
 * read. files_read (may be NULL) keeps that list for the caller. On failure err names the file
 * or the clash, *clash says which (a clash: nothing may be written), and the scene is empty. */
int rs_bench_load_scene(const char* path, const RsAccelOptions* accel, const char* json, const char* csv,
                        RsScene* scene, RsFileList* files_read, int* clash, RsError* err);

/* A CSV results file written through PATH.tmp-PID, flushed by its writer after each row:
 * rs_bench_csv_close renames it to PATH (keep) or removes it. err may be NULL when not kept. */
FILE* rs_bench_csv_open(const char* path, const char* header, RsError* err);
int rs_bench_csv_close(FILE* f, const char* path, int keep, RsError* err);

/* FNV-1a 64-bit hash of a file's bytes, as "fnv1a64:<16 hex digits>"; "unreadable" on error. */
void rs_file_hash(const char* path, char* out, size_t size);

#endif /* RS_APP_BENCH_META_H */
