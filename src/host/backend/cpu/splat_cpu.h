/* splat_cpu.h - the splat film's resolve on the thread pool (kernel/film/splat.h), and the
 * verdict on a resolve that both backends report through. Host C11.
 *
 * Resolve sorts the queue's (key, slot) pairs with a parallel LSD radix sort (radix_sort_cpu.h:
 * 8-bit digits; per-worker histograms, offsets in digit-major, worker-minor order, a stable
 * scatter), which gives the one sorted order whatever the worker count, then sums each pixel's run in key order
 * with rs_splat_resolve_run, one worker per pixel. The result is bit-identical to the CUDA
 * resolve (cuda/post/splat.cu) of the same set of records.
 */
#ifndef RS_HOST_BACKEND_CPU_SPLAT_CPU_H
#define RS_HOST_BACKEND_CPU_SPLAT_CPU_H

#include "host/backend/cpu/radix_sort_cpu.h"
#include "host/util/error.h"
#include "host/util/thread_pool.h"
#include "kernel/film/splat.h"

/* Sort buffers, grown on demand and kept between resolves. Zero-initialise before first use. */
typedef struct RsSplatCpuScratch {
    RsRadixSortCpu sort;
    uint32_t* faults; /* per worker: bad pixels, duplicates */
    uint32_t fault_workers;
} RsSplatCpuScratch;

void rs_splat_cpu_scratch_free(RsSplatCpuScratch* scratch);

/* Adds the queue's splats into plane (pixels entries: rgb sums, w left alone) and empties the
 * queue. The appends must have finished (the launch that made them has returned). pool may be
 * NULL (this thread only). stats may be NULL. Returns rs_splat_check's verdict: on overflow
 * nothing is added. */
int rs_splat_resolve_cpu(RsThreadPool* pool, RsSplatQueue queue, RsFloat4* plane, uint32_t pixels,
                         RsSplatCpuScratch* scratch, RsSplatResolveStats* stats, RsError* err);

/* 0, or -1 with the reason: "splat queue overflow: N splats for a capacity of M", records
 * outside the plane, repeated keys. The CUDA backend reports its resolve through this too. */
int rs_splat_check(const RsSplatResolveStats* stats, uint32_t capacity, uint32_t pixels, RsError* err);

#endif /* RS_HOST_BACKEND_CPU_SPLAT_CPU_H */
