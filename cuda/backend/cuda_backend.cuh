/* cuda_backend.cuh - one CUDA backend instance (RsCudaBackend) and what the backend's parts
 * share: entering an entry point, the stage timing marks, the live set handed to the stage
 * launchers, and the entry points each part defines for the ops table in backend_cuda.cu.
 *
 * Internal to cuda/backend/ (nvcc). The parts: backend_cuda.cu (ops table, create, destroy,
 * finish), scene_upload.cu (set_scene), wave_frame.cu (wave buffers, set_frame), stage_ops.cu
 * (one launch per stage of the bounce loop), stage_timing.cu (timing events), film_ops.cu
 * (film, image, display), particle_ops.cu (the particle integrators' queues, resolve and SPPM
 * update) and device_query.cu (what the program asks before it makes a backend).
 */
#ifndef RS_CUDA_CUDA_BACKEND_CUH
#define RS_CUDA_CUDA_BACKEND_CUH

#include <cuda_runtime.h>

#include "cuda/backend/accel_upload.cuh"
#include "cuda/backend/cuda_check.cuh"
#include "cuda/backend/scene_arrays.h"
#include "cuda/deadray/deadray_compact.cuh"
#include "cuda/post/denoise.cuh"
#include "cuda/post/display.cuh"
#include "cuda/post/splat.cuh"
#include "cuda/post/sppm.cuh"
#include "cuda/stages/kernels.cuh"
#include "cuda/stages/ray_sort.cuh"

extern "C" {
#include "host/backend/backend.h"
}

#define RS_TIMING_MARKS 128

/* The particle integrators' buffers (config.particles; particle_ops.cu says who gets what). */
typedef struct RsCudaParticles {
    RsSplatQueue splats;  /* light tracing: device entries and count */
    RsSplatScratch splat_scratch;
    RsPhotonQueue photons; /* SPPM's photon pass */
    RsSppmScratch sppm_scratch;
    uint32_t sppm_scratch_photons, sppm_scratch_pixels; /* what sppm_scratch was sized for */
    RsVisiblePoints visible; /* SPPM: sppm_pixels entries each */
    RsFloat4* sppm_pass;
    uint32_t sppm_pixels;
} RsCudaParticles;

typedef struct RsCudaBackend {
    RsBackend base;
    RsCudaContext ctx;
    cudaStream_t stream;
    int device;
    RsDeadRay deadray; /* the strategy in use: config.deadray, or what auto picked last */
    int mode;          /* RsLiveMode of deadray */
    RsCompactMethod method;
    int in_wave;       /* between generate and accumulate: a switch converts the live set */
    int camera_rays;   /* between a camera wave's generate and its first shade: extend may walk
                          the camera tree (kernel/accel/accel.h) */
    cudaEvent_t bounce_start, bounce_end; /* auto: set_deadray .. drop_dead, for bounce_seconds */

    /* scene (device copies): the arrays of scene_arrays.h, and those it says are not rows */
#define RS_SCENE_ARRAY_MEMBER(type, member, field, count) type* member;
    RS_SCENE_ARRAYS(RS_SCENE_ARRAY_MEMBER, scene)
#undef RS_SCENE_ARRAY_MEMBER
    RsCudaAccel accel;
    RsCutouts* cutouts; /* device copy, with device pointers; NULL without cut-outs */
    float* env_row_cdf; /* built here from env_texels */
    float* env_marginal_cdf;
    RsKernelParams kp; /* device pointers */

    /* wave */
    uint32_t capacity, film_pixels;
    RsRayStateSoA rays[2]; /* [1] only with payload compaction */
    RsShadowStateSoA shadows;
    RsFloat4* path_radiance;
    RsFloat4* path_aov[3]; /* with AOVs: path_albedo, path_normal, path_position (aov.h) */
    RsFloat4* film;        /* rs_film_planes planes of film_pixels */
    RsFloat4* image;       /* make_image's output (allocated on first use) */
    RsDenoiseScratchGpu denoise;
    uint32_t *alive, *stencil, *index[2], *keep, *counters;
    uint32_t* host_counters; /* pinned, RS_CTR_COUNT entries */
    uint64_t* nonfinite_paths; /* device: kp.nonfinite_paths (stage_accumulate.h), cleared by set_frame */
    RsCompactScratch scratch;
    RsSortScratch sort;
    RsDisplayScratch display;
    void* display_host;        /* the caller's RGBA buffer, page-locked by cudaHostRegister (film_ops.cu) */
    RsFloat4* span_staging; /* packed span film for read/write_film_span */
    uint32_t span_staging_capacity;
    cudaEvent_t counts_ready; /* recorded after drop_dead's counter copy */
    RsGridCache grids;        /* persistent grid sizes on this device */
    RsCudaParticles particles;
    uint32_t paths;          /* rows of the current wave */
    uint32_t live;           /* rays alive entering the current bounce */

    /* stage timing (config.time_stages): event pairs, resolved in batches */
    struct {
        int stage;
        cudaEvent_t start, stop;
    } marks[RS_TIMING_MARKS];
    int mark_count;
    double stage_seconds[RS_STAGE_COUNT];
} RsCudaBackend;

static inline RsCudaBackend* cuda_backend(RsBackend* b) { return (RsCudaBackend*)b; }

/* Every entry point: names the stage for error messages and makes this instance's device the
 * calling thread's current one. */
static inline int enter(RsCudaBackend* b, const char* stage, RsError* err)
{
    b->ctx.stage = stage;
    b->ctx.err = err;
    RS_CUDA(&b->ctx, cudaSetDevice(b->device));
    return 0;
}

/* Resolves the recorded event pairs into per-stage seconds (waits for them). stage_timing.cu */
int rs_cuda_backend_flush_marks(RsCudaBackend* b);

/* Brackets a stage's device work with events when stage timing is on. */
static inline int mark_begin(RsCudaBackend* b, int stage)
{
    if (!b->base.config.time_stages)
        return 0;
    if (b->mark_count == RS_TIMING_MARKS && rs_cuda_backend_flush_marks(b))
        return -1;
    b->marks[b->mark_count].stage = stage;
    RS_CUDA(&b->ctx, cudaEventRecord(b->marks[b->mark_count].start, b->stream));
    return 0;
}

static inline int mark_end(RsCudaBackend* b)
{
    if (!b->base.config.time_stages)
        return 0;
    RS_CUDA(&b->ctx, cudaEventRecord(b->marks[b->mark_count].stop, b->stream));
    b->mark_count++;
    return 0;
}

static inline RsLiveSet live_set(const RsCudaBackend* b)
{
    RsLiveSet s;
    s.alive = b->alive;
    s.stencil = b->stencil;
    s.index = b->index[0];
    s.keep = b->keep;
    s.counters = b->counters;
    s.n = b->mode == RS_LIVE_INDEX ? b->live : b->paths;
    return s;
}

/* scene_upload.cu */
int rs_cuda_backend_set_scene(RsBackend* base, const RsSceneView* scene, RsError* err);
void rs_cuda_backend_free_scene(RsCudaBackend* b); /* destroy's part: no checks, nothing left to free */

/* wave_frame.cu */
int rs_cuda_backend_set_frame(RsBackend* base, const RsFrameDesc* f, uint32_t wave_capacity, RsError* err);
void rs_cuda_backend_free_wave(RsCudaBackend* b);

/* particle_ops.cu: set_frame's part (after the film and rs_kernel_params_set_frame) points kp
 * at the queues the frame's integrator uses, sized and cleared */
int rs_cuda_backend_set_frame_particles(RsCudaBackend* b, const RsFrameDesc* f);
void rs_cuda_backend_free_particles(RsCudaBackend* b);
int rs_cuda_backend_particle_resolve(RsBackend* base, RsError* err);
int rs_cuda_backend_sppm_update(RsBackend* base, RsError* err);

/* How the stage kernels iterate and which compaction drop_dead runs, for a strategy
 * (backend_cuda.cu). */
int rs_cuda_live_mode(RsDeadRay d);
RsCompactMethod rs_cuda_compact_method(RsDeadRay d);

/* stage_ops.cu */
int rs_cuda_backend_set_deadray(RsBackend* base, RsDeadRay d, RsError* err);
int rs_cuda_backend_bounce_seconds(RsBackend* base, double* seconds, RsError* err);
int rs_cuda_backend_generate(RsBackend* base, const RsWaveRange* wave, RsError* err);
int rs_cuda_backend_sort(RsBackend* base, RsError* err);
int rs_cuda_backend_sort_materials(RsBackend* base, RsError* err);
int rs_cuda_backend_extend(RsBackend* base, RsError* err);
int rs_cuda_backend_shade(RsBackend* base, RsError* err);
int rs_cuda_backend_connect(RsBackend* base, RsError* err);
int rs_cuda_backend_drop_dead(RsBackend* base, RsError* err);
int rs_cuda_backend_adaptive_update(RsBackend* base, uint32_t span_first_index, uint32_t span_pixels, RsError* err);
int rs_cuda_backend_read_counts(RsBackend* base, RsBounceCounts* counts, RsError* err);
int rs_cuda_backend_accumulate(RsBackend* base, RsError* err);
int rs_cuda_backend_read_nonfinite(RsBackend* base, uint64_t* paths, RsError* err);

/* stage_timing.cu */
int rs_cuda_backend_take_stage_times(RsBackend* base, double seconds[RS_STAGE_COUNT], RsError* err);

/* film_ops.cu */
int rs_cuda_backend_read_film(RsBackend* base, RsFloat4* film, RsError* err);
int rs_cuda_backend_write_film(RsBackend* base, const RsFloat4* film, RsError* err);
int rs_cuda_backend_read_film_span(RsBackend* base, uint32_t first, uint32_t pixels, RsFloat4* values, RsError* err);
int rs_cuda_backend_write_film_span(RsBackend* base, uint32_t first, uint32_t pixels, const RsFloat4* values,
                                    RsError* err);
int rs_cuda_backend_make_image(RsBackend* base, const RsImageRequest* request, RsError* err);
int rs_cuda_backend_read_image(RsBackend* base, RsFloat4* image, RsError* err);
int rs_cuda_backend_display(RsBackend* base, const RsDisplaySettings* settings, uint8_t* rgba, RsDisplayStats* stats,
                            RsError* err);

#endif /* RS_CUDA_CUDA_BACKEND_CUH */
