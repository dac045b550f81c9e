/* bench_compact_cmd.c - `raystream bench-compact`: the stream-compaction micro-benchmark
 * (src/host/backend/bench_compact.h): a table on stdout, JSON and CSV with metadata.
 * Host C11, application layer. */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/bench/bench_meta.h"
#include "app/cli.h"
#include "app/commands.h"
#include "host/backend/backend.h"
#include "host/backend/bench_compact.h"

#define MAX_LIST 32

typedef struct Output {
    cJSON* rows;
    FILE* csv;
} Output;

static void emit(const RsCompactBenchRow* r, void* ctx)
{
    Output* out = ctx;
    printf("%-10s %-14s %-7s %10u %5.2f %6u %10.4f %8.1f %8.1f %6.2f %8.2f\n", r->sweep, r->method,
           r->payload ? "payload" : "index", r->n, r->fill, r->block, r->ms, r->gbps, r->copy_gbps,
           r->gbps / r->copy_gbps, r->gitems);
    fflush(stdout);
    cJSON* j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "sweep", r->sweep);
    cJSON_AddStringToObject(j, "method", r->method);
    cJSON_AddBoolToObject(j, "payload", r->payload);
    cJSON_AddNumberToObject(j, "n", r->n);
    cJSON_AddNumberToObject(j, "fill", r->fill);
    cJSON_AddNumberToObject(j, "block_size", r->block);
    cJSON_AddNumberToObject(j, "kept", r->kept);
    cJSON_AddNumberToObject(j, "ms_median", r->ms);
    cJSON_AddNumberToObject(j, "gbps", r->gbps);
    cJSON_AddNumberToObject(j, "copy_gbps", r->copy_gbps);
    cJSON_AddNumberToObject(j, "ratio_to_copy", r->gbps / r->copy_gbps);
    cJSON_AddNumberToObject(j, "gitems_per_s", r->gitems);
    cJSON_AddItemToArray(out->rows, j);
    if (out->csv)
        fprintf(out->csv, "%s,%s,%d,%u,%.4f,%u,%u,%.5f,%.2f,%.2f,%.4f,%.4f\n", r->sweep, r->method, r->payload, r->n,
                r->fill, r->block, r->kept, r->ms, r->gbps, r->copy_gbps, r->gbps / r->copy_gbps, r->gitems);
    if (out->csv)
        fflush(out->csv); /* a killed run keeps its rows */
}

static int parse_sizes(const char* text, uint32_t* out, int* count)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", text);
    *count = 0;
    for (char* tok = strtok(buf, ","); tok && *count < MAX_LIST; tok = strtok(NULL, ",")) {
        uint64_t v;
        if (rs_cli_size("--sizes", tok, &v) || v > 0x7fffffffu)
            return -1;
        out[(*count)++] = (uint32_t)v;
    }
    return *count ? 0 : -1;
}

int rs_cmd_bench_compact(int argc, char** argv)
{
    uint32_t sizes[MAX_LIST];
    int size_count = 0, item_count = 5, fill_count = 11;
    double fills[MAX_LIST];
    int items[MAX_LIST] = {1, 2, 4, 8, 16};
    for (int i = 0; i < 7; ++i)
        sizes[size_count++] = (1u << 20) << i; /* 1M .. 64M */
    for (int i = 0; i < fill_count; ++i)
        fills[i] = i / 10.0;
    uint64_t repeats = 20, sweep_n = 16u << 20;
    const char *json = NULL, *csv = NULL;
    for (int i = 0; i < argc; ++i) {
        int missing = 0;
        const char* v;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: raystream bench-compact [--sizes 1M,2M,...] [--sweep-size 16M] [--repeat N] "
                   "[--json FILE] [--csv FILE]\n\n"
                   "Stream-compaction micro-benchmark on the GPU: compact-scan, compact-block, compact-warp and\n"
                   "compact-cub, index and payload variants, against a device-to-device copy of the same n in\n"
                   "the same run. Three sweeps, as Roger et al.'s plots: stream length (fill 0.5), block size\n"
                   "(256 x 1..16 entries, at --sweep-size) and fill ratio 0..1 (at --sweep-size).\n");
            return RS_EXIT_OK;
        } else if ((v = rs_cli_value(argc, argv, &i, "--sizes", NULL, &missing))) {
            if (parse_sizes(v, sizes, &size_count)) {
                rs_cli_error("--sizes: expected a list such as 1M,4M,16M, got '%s'", v);
                return RS_EXIT_USAGE;
            }
        } else if ((v = rs_cli_value(argc, argv, &i, "--sweep-size", NULL, &missing))) {
            if (rs_cli_size("--sweep-size", v, &sweep_n) || sweep_n > 0x7fffffffu)
                return RS_EXIT_USAGE;
        } else if ((v = rs_cli_value(argc, argv, &i, "--repeat", NULL, &missing))) {
            if (rs_cli_uint("--repeat", v, 1, 10000, &repeats))
                return RS_EXIT_USAGE;
        } else if ((v = rs_cli_value(argc, argv, &i, "--json", NULL, &missing))) {
            json = v;
        } else if ((v = rs_cli_value(argc, argv, &i, "--csv", NULL, &missing))) {
            csv = v;
        } else {
            if (!missing)
                rs_cli_error("bench-compact: unknown argument '%s'", argv[i]);
            return RS_EXIT_USAGE;
        }
    }
    if (!rs_cuda_built() || rs_cuda_device_count() == 0) {
        rs_cli_error("bench-compact measures GPU kernels and needs a CUDA device (%s)",
                     rs_cuda_built() ? "none found" : "this build has no CUDA backend");
        return RS_EXIT_FAILURE;
    }
    RsCommonOptions common;
    rs_common_options_init(&common);
    BenchMeta meta;
    RsError err = {{0}};
    if (rs_bench_check_paths(json, csv, NULL, 0, NULL, &err) ||
        rs_bench_meta_open(&meta, &common, json, NULL, 0, 1, &err)) {
        rs_cli_error("%s", err.message);
        return RS_EXIT_FAILURE;
    }
    Output out = {cJSON_AddArrayToObject(meta.root, "compaction"), NULL};
    if (csv) {
        out.csv = fopen(csv, "w");
        if (!out.csv) {
            rs_cli_error("cannot write '%s'", csv);
            rs_bench_meta_close(&meta, &err);
            return RS_EXIT_FAILURE;
        }
        fputs("sweep,method,payload,n,fill,block_size,kept,ms_median,gbps,copy_gbps,ratio_to_copy,gitems_per_s\n",
              out.csv);
    }
    RsBackendConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.kind = RS_BACKEND_CUDA;
    cfg.deadray = RS_DEADRAY_COMPACT_CUB;
    RsBackend* probe = rs_backend_create(&cfg, &err);
    if (probe) {
        rs_bench_meta_backend(&meta, probe);
        rs_backend_destroy(probe);
    }
    printf("%-10s %-14s %-7s %10s %5s %6s %10s %8s %8s %6s %8s\n", "sweep", "method", "variant", "n", "fill", "block",
           "ms", "GB/s", "copyGB/s", "ratio", "Gitems/s");
    RsCompactBenchConfig c = {sizes, size_count, fills, fill_count, items, item_count, (uint32_t)sweep_n,
                              (uint32_t)sweep_n, (int)repeats};
    rs_error_clear(&err);
    int status = rs_cuda_bench_compact(&c, emit, &out, &err) ? RS_EXIT_FAILURE : RS_EXIT_OK;
    if (status)
        rs_cli_error("%s", err.message);
    if (out.csv)
        fclose(out.csv);
    rs_error_clear(&err);
    if (rs_bench_meta_close(&meta, &err)) {
        rs_cli_error("%s", err.message);
        status = RS_EXIT_FAILURE;
    }
    return status;
}
