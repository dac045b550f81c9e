/* bench_compact.h - the stream-compaction micro-benchmark (CUDA backend only): every
 * compaction, index and payload variant, over stream length, fill ratio and block size, against
 * a plain device-to-device copy measured in the same run (Roger et al.'s three plots).
 * Host C11 interface; implemented in cuda/deadray/bench_compact.cu, answered by backend_cuda_stub.c
 * in builds without CUDA. */
#ifndef RS_HOST_BENCH_COMPACT_H
#define RS_HOST_BENCH_COMPACT_H

#include <stdint.h>

#include "host/util/error.h"

typedef struct RsCompactBenchRow {
    const char* sweep;  /* "size", "fill" or "block_size" */
    const char* method; /* "compact-scan", "compact-block", "compact-warp", "compact-cub", "copy" */
    int payload;        /* 1: the live RayState rows (80 bytes) are moved too */
    uint32_t n;         /* stream length */
    double fill;        /* fraction of entries kept */
    uint32_t block;     /* entries per block / tile (scan, block); 0 where it does not apply */
    uint32_t kept;
    double ms;          /* median */
    double gbps;        /* bytes read + written (minimal traffic) per second, 1e9 */
    double copy_gbps;   /* the copy of the same n in this run */
    double gitems;      /* input entries per second, 1e9 */
} RsCompactBenchRow;

typedef struct RsCompactBenchConfig {
    const uint32_t* sizes;
    int size_count;
    const double* fills;
    int fill_count;
    const int* items; /* entries per thread: block size = 256 * items */
    int item_count;
    uint32_t fill_sweep_n, block_sweep_n;
    int repeats;
} RsCompactBenchConfig;

typedef void (*RsCompactBenchEmit)(const RsCompactBenchRow* row, void* ctx);

int rs_cuda_bench_compact(const RsCompactBenchConfig* config, RsCompactBenchEmit emit, void* ctx, RsError* err);

#endif /* RS_HOST_BENCH_COMPACT_H */
