/* splat.cuh - the splat film's resolve on the GPU (kernel/film/splat.h): scatter by sort.
 * Device-side host glue (nvcc).
 *
 * A kernel copies each record's sort key and slot, cub::DeviceRadixSort::SortPairs orders the
 * pairs on the key bits that carry information (rs_splat_sort_bits), and a kernel with one
 * thread per sorted record lets each run's first thread sum the run in key order with
 * rs_splat_resolve_run, the code the CPU resolve (host/backend/cpu/splat_cpu.c) runs, so both
 * give the same bits for the same set of records. No float atomics.
 */
#ifndef RS_CUDA_POST_SPLAT_CUH
#define RS_CUDA_POST_SPLAT_CUH

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/film/splat.h"

/* Sized once for a queue capacity and reused by every resolve. */
typedef struct RsSplatScratch {
    uint64_t* keys[2];  /* sort keys, double-buffered for the radix sort */
    uint32_t* index[2]; /* the records' slots, sorted along */
    void* cub_temp;
    size_t cub_bytes;
    uint32_t* faults;   /* device: bad pixels, duplicates (rs_splat_check's counts) */
    void* readback;     /* pinned host memory for the count and the faults */
    uint32_t capacity;
} RsSplatScratch;

cudaError_t rs_splat_scratch_alloc(RsSplatScratch* s, uint32_t capacity);
void rs_splat_scratch_free(RsSplatScratch* s);

/* Adds the queue's splats into plane (pixels entries on the device: rgb sums, w left alone)
 * and empties the queue; the appends must be queued on `stream` before this. Waits for the
 * stream twice: for the count (the sort's size) and, at the end, for the fault counts, so that
 * *stats is complete on return; hand it to rs_splat_check (host/backend/cpu/splat_cpu.h) for
 * the verdict. On overflow (stats->count > capacity) nothing is added. cudaErrorInvalidValue
 * for a queue larger than the scratch. */
cudaError_t rs_launch_splat_resolve(RsSplatQueue queue, RsFloat4* plane, uint32_t pixels, RsSplatScratch* s,
                                    RsSplatResolveStats* stats, cudaStream_t stream);

#endif /* RS_CUDA_POST_SPLAT_CUH */
