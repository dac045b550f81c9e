/* radix_sort_cpu.h - a parallel LSD radix sort of (64-bit key, 32-bit slot) pairs on the thread
 * pool, shared by the splat film's resolve (splat_cpu.c) and SPPM's photon grid (sppm_cpu.c).
 * Host C11.
 *
 * 8-bit digits; each pass counts digits per worker over contiguous shares, turns the counts into
 * offsets in digit-major, worker-minor order and scatters each share in order: a stable sort,
 * so for unique keys its output is the one sorted order whatever the worker count. A pass whose
 * digit is the same for every key is skipped (it would move nothing).
 */
#ifndef RS_HOST_BACKEND_CPU_RADIX_SORT_CPU_H
#define RS_HOST_BACKEND_CPU_RADIX_SORT_CPU_H

#include <stdint.h>

#include "host/util/error.h"
#include "host/util/thread_pool.h"

/* Below twice this many items per worker, a step runs on the calling thread alone: sorting a
 * record costs nanoseconds, waking the workers tens of microseconds. */
#define RS_RADIX_MIN_PER_WORKER 8192u

/* Buffers grown on demand and kept between sorts. Zero-initialise before first use. */
typedef struct RsRadixSortCpu {
    uint64_t* keys[2];
    uint32_t* index[2];
    uint32_t* histograms; /* 256 per worker */
    uint32_t capacity, workers;
} RsRadixSortCpu;

void rs_radix_sort_cpu_free(RsRadixSortCpu* s);

/* Room for n pairs sorted by up to `workers` workers; `what` names the buffers in the error
 * ("splat resolve"), bytes_per_item the size the message quotes per item. Keeps what is there
 * when it is big enough. */
int rs_radix_sort_cpu_reserve(RsRadixSortCpu* s, uint32_t n, uint32_t workers, const char* what,
                              double bytes_per_item, RsError* err);

/* Sorts the n pairs in keys[0], index[0] on key bits [0, bits). Returns the buffer (0 or 1) that
 * holds the sorted pairs. pool may be NULL. */
int rs_radix_sort_cpu(RsThreadPool* pool, RsRadixSortCpu* s, uint32_t n, int bits);

/* task(ctx, worker, workers) over n items on the pool, or on this thread alone when the pool is
 * NULL or n is small (RS_RADIX_MIN_PER_WORKER); returns the number of workers that ran it. */
uint32_t rs_radix_run_steps(RsThreadPool* pool, RsPoolTask task, void* ctx, uint32_t n);

#endif /* RS_HOST_BACKEND_CPU_RADIX_SORT_CPU_H */
