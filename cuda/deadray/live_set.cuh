/* live_set.cuh - how a kernel finds the live rays under each dead-ray strategy, as data.
 *
 * Device-only header (nvcc). The backend fills one RsLiveSet per launch; deadray_*.cuh turn it
 * into "call the stage for each live row". Stage code (src/kernel/) never sees it.
 */
#ifndef RS_CUDA_LIVE_SET_CUH
#define RS_CUDA_LIVE_SET_CUH

#include <stdint.h>

/* How stage kernels iterate; every compaction variant shares RS_LIVE_INDEX. */
enum RsLiveMode { RS_LIVE_FLAGS = 0, RS_LIVE_STENCIL = 1, RS_LIVE_PERSISTENT = 2, RS_LIVE_INDEX = 3 };

/* Device counters, one uint32 each, in one small allocation. */
enum RsCounter {
    RS_CTR_LIVE = 0,      /* live rays after the last drop (reductions, compactions) */
    RS_CTR_SHADOW = 1,    /* shadow rays appended in this bounce */
    RS_CTR_TICKET = 2,    /* persistent threads: next 32-ray batch to hand out */
    RS_CTR_DONE = 3,      /* persistent threads: warps that found no more work */
    RS_CTR_FETCH = 4,     /* --trace-kernel persistent: next ray to hand out (reset before each launch) */
    RS_CTR_CONVERT = 5,   /* --deadray auto: entries appended converting stencil bits to a list */
    RS_CTR_COUNT = 6
};

typedef struct RsLiveSet {
    uint32_t* alive;    /* flags: per row, 1 = alive */
    uint32_t* stencil;  /* stencil, persistent: bit (row % 32) of word (row / 32) */
    uint32_t* index;    /* compaction: the rows that are alive */
    uint32_t* keep;     /* compaction: per index position, written by shade: 1 = continues */
    uint32_t* counters; /* RS_CTR_* */
    uint32_t n;         /* rows in the wave (flags, stencil, persistent) or live entries (index) */
} RsLiveSet;

#define RS_FULL_WARP 0xffffffffu

#endif /* RS_CUDA_LIVE_SET_CUH */
