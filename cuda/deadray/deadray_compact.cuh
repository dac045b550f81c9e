/* deadray_compact.cuh - stream compaction of live ray indices, four ways, and the live-ray
 * counts of the strategies that move nothing.
 *
 * Device-side host glue (nvcc). All compactions take n entries of `in` with a verdict per
 * entry in `keep` (nonzero = keep) and write the kept entries to `out` and their number to
 * *count (device memory). They are also what `raystream bench-compact` measures.
 *   RS_COMPACT_SCAN   exclusive prefix sum of the verdicts + scatter: count per tile, scan of
 *                     the tile counts, then each tile re-reads its verdicts, scans them inside
 *                     the block and scatters; order-preserving (Horn 2005; Sengupta et al.)
 *   RS_COMPACT_BLOCK  Roger, Assarsson & Holzschuch 2007: each block reduces its own segment of
 *                     s = block * items entries into a temporary run, the run lengths are
 *                     prefix-summed, and the runs are concatenated; order-preserving, O(n)
 *   RS_COMPACT_WARP   ballot + popc inside each warp, one atomicAdd per warp for its output
 *                     offset; one pass, not order-preserving
 *   RS_COMPACT_CUB    cub::DeviceSelect::Flagged, the library baseline
 */
#ifndef RS_CUDA_DEADRAY_COMPACT_CUH
#define RS_CUDA_DEADRAY_COMPACT_CUH

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

typedef enum RsCompactMethod { RS_COMPACT_SCAN, RS_COMPACT_BLOCK, RS_COMPACT_WARP, RS_COMPACT_CUB } RsCompactMethod;

/* Entries per thread in a tile; a tile (Roger et al.'s block, size s) is RS_COMPACT_THREADS *
 * items entries. The default is what the renderer uses; the micro-benchmark sweeps it. */
#define RS_COMPACT_THREADS 256
#define RS_COMPACT_DEFAULT_ITEMS 8

typedef struct RsCompactScratch {
    uint32_t* tile_sums; /* one per tile (scan, block) */
    uint32_t* runs;      /* block: the per-block compacted runs, capacity entries */
    void* cub_temp;
    size_t cub_bytes;
    uint32_t capacity;
} RsCompactScratch;

/* Allocates scratch for up to `capacity` entries (all methods). */
cudaError_t rs_compact_scratch_alloc(RsCompactScratch* s, uint32_t capacity);
void rs_compact_scratch_free(RsCompactScratch* s);
size_t rs_compact_scratch_bytes_per_entry(void);

/* items: entries per thread for SCAN and BLOCK (1, 2, 4, 8 or 16); ignored by the others. */
cudaError_t rs_compact(RsCompactMethod method, const uint32_t* in, const uint32_t* keep, uint32_t n, uint32_t* out,
                       uint32_t* count, RsCompactScratch* scratch, int items, cudaStream_t stream);

/* --deadray auto's change of family inside a wave (deadray_convert.cu). The rows whose bit is set
 * among words[0 .. (paths + 31) / 32), appended to index in any order (*cursor, device memory,
 * is zeroed first and ends as their number); and the words of `paths` rows cleared, then the
 * bits of index[0..n) set. */
cudaError_t rs_stencil_to_index(const uint32_t* words, uint32_t paths, uint32_t* index, uint32_t* cursor,
                                cudaStream_t stream);
cudaError_t rs_index_to_stencil(const uint32_t* index, uint32_t n, uint32_t paths, uint32_t* words,
                                cudaStream_t stream);

/* *count += number of nonzero alive[0..n) / set bits in words[0..n). */
cudaError_t rs_count_flags(const uint32_t* alive, uint32_t n, uint32_t* count, cudaStream_t stream);
cudaError_t rs_count_stencil(const uint32_t* words, uint32_t n_words, uint32_t* count, cudaStream_t stream);

#endif /* RS_CUDA_DEADRAY_COMPACT_CUH */
