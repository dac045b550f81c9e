/* cpu_backend.h - the CPU backend's state: what backend_cpu.c (buffers and stage loops),
 * deadray_cpu.c (the dead-ray strategies) and film_cpu.c (the film and the images made from
 * it) all work on. Host C11; not part of any public API. It declares no function of those
 * files: each has a header of its own, and backend_cpu.c, which puts the backend together,
 * calls the others (none of them calls it back).
 *
 * The CPU picture of the GPU: a "batch" of RS_CPU_BATCH = 32 consecutive rows is a warp; one
 * rs_pool_run is one kernel launch; a worker is an SM. Which rows a stage visits is decided
 * here, never in the stage code.
 */
#ifndef RS_HOST_CPU_BACKEND_H
#define RS_HOST_CPU_BACKEND_H

#include <stdatomic.h>

#include "host/backend/backend.h"
#include "host/backend/cpu/denoise_cpu.h"
#include "host/backend/cpu/splat_cpu.h"
#include "host/backend/cpu/sppm_cpu.h"
#include "host/util/thread_pool.h"

#define RS_CPU_BATCH 32u
/* Roger et al.'s block size s for compact-block (reduction inside a block, then concatenation) */
#define RS_CPU_COMPACT_BLOCK 256u
/* Below twice these per worker, a stage runs on the calling thread alone (rs_pool_run_items):
 * tracing a ray costs microseconds, a per-pixel or per-entry step far less, and waking the
 * workers tens of microseconds. */
#define RS_CPU_MIN_RAYS_PER_WORKER 64u
#define RS_CPU_MIN_PIXELS_PER_WORKER 2048u
#define RS_CPU_MIN_ENTRIES_PER_WORKER 8192u

/* The particle integrators' buffers (particles_cpu.c): a frame of light tracing holds the
 * splat queue, one of SPPM the photon queue, the visible points and the pass's sums. */
typedef struct RsCpuParticles {
    RsSplat* splats;
    RsPhoton* photons;
    RsFloat4* visible[4]; /* RsVisiblePoints: origin, direction, hit, weight */
    RsFloat4* sppm_pass;
    uint64_t count;       /* the queue's appends (kp.splats.count or kp.photons.count) */
    uint32_t capacity, pixels;
    int sppm;
    RsSplatCpuScratch splat_scratch;
    RsSppmCpuScratch sppm_scratch;
} RsCpuParticles;

typedef struct RsCpuBackend {
    RsBackend base;
    RsThreadPool* pool;
    RsKernelParams kp; /* scene view, frame settings and the current buffers */

    uint32_t capacity;   /* paths per wave the buffers hold */
    uint32_t film_pixels;  /* per plane; the film has rs_film_planes(&base.config) of them */
    RsRayStateSoA rays[2]; /* [0] is current; [1] exists only for payload compaction */
    RsShadowStateSoA shadows;
    RsFloat4* path_radiance;
    RsFloat4* path_aov[3]; /* with AOVs: path_albedo, path_normal, path_position (aov.h) */
    RsFloat4* film;
    RsFloat4* image;       /* make_image's output, film_pixels entries (allocated on first use) */
    RsDenoiseScratch denoise;

    /* dead-ray state */
    RsDeadRay deadray;    /* the strategy in use: config.deadray, or what auto picked last */
    int in_wave;          /* between generate and accumulate: a switch converts the live set */
    int camera_rays;      /* between a camera wave's generate and its first shade */
    uint32_t extend_kind; /* the structure extend walks: the scene's, or the camera tree (accel.h) */
    uint32_t* alive;      /* per row: the flags strategy, and the input of every compaction */
    uint32_t* stencil;    /* per 32 rows: bit i set = row 32*word + i alive */
    uint32_t* index[2];   /* live rows (compaction): [0] current, [1] being built */
    uint32_t* scratch;    /* scan results (compact-scan), per-block output (compact-block) */
    uint32_t* block_offsets; /* compact-block: per-block counts, then their exclusive scan */
    uint32_t* worker_sums;   /* one per worker: partial counts and their offsets */
    uint32_t live;        /* items in the active set: rows, or entries of index[0] */
    int dense;            /* compaction: the active rows are exactly [0, live) */
    RsBounceCounts counts; /* the last drop_dead's, for read_counts */
    uint64_t nonfinite_paths; /* kp.nonfinite_paths points here (stage_accumulate.h) */
    atomic_uint shadow_count;
    atomic_uint next_batch; /* persistent threads' work counter */
    atomic_uint out_cursor; /* compact-warp's output offset */
    RsCpuParticles particles;
} RsCpuBackend;

/* The backend an RsBackend of the CPU's ops is (its first member). */
static inline RsCpuBackend* rs_cpu_of(RsBackend* b) { return (RsCpuBackend*)b; }

/* The row of active item `i` (compaction strategies). */
static inline uint32_t rs_cpu_active_row(const RsCpuBackend* b, uint32_t i)
{
    return b->dense ? i : b->index[0][i];
}

#endif /* RS_HOST_CPU_BACKEND_H */
