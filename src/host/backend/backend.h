/* backend.h - the interface between the bounce loop and one device that runs the stages.
 *
 * Host C11. A backend instance owns one device (the CPU's thread pool, or one GPU: its index,
 * stream and kernel state; nothing is kept in function statics), the wave buffers (RayState,
 * shadow queue, path radiance, film) and the dead-ray strategy's state, and runs one stage over
 * the live rays per call. The order of the calls, the wave sizes and the statistics belong to
 * wavefront.c, the one bounce loop; which device traces which part of the image belongs to
 * the renderer (renderer.c, renderer_queue.c). Apps talk to the renderer, not to this table.
 * Backends: backend_cpu.c (always built) and cuda/backend/backend_cuda.cu (when CUDA is built); the
 * factory is backend_factory.c. The struct-of-function-pointers shape follows Embree's and
 * Cycles' device interfaces. The tables both backends share are defined one file each, as the
 * sections below say: deadray.c, image_request.c, backend_config.c, trace_kernel.c.
 */
#ifndef RS_HOST_BACKEND_H
#define RS_HOST_BACKEND_H

#include "host/backend/deadray_table.h"
#include "host/util/error.h"
#include "kernel/film/denoise.h"
#include "kernel/film/tonemap.h"
#include "kernel/state/kernel_params.h"

typedef enum RsDeadRay {
#define RS_DEADRAY_ENUM(id, name, compaction, bytes, backends, help) RS_DEADRAY_##id,
    RS_DEADRAY_TABLE(RS_DEADRAY_ENUM)
#undef RS_DEADRAY_ENUM
    RS_DEADRAY_COUNT
} RsDeadRay;

typedef enum RsBackendKind { RS_BACKEND_AUTO, RS_BACKEND_CPU, RS_BACKEND_CUDA } RsBackendKind;

/* How extend runs its traversals (CUDA; the CPU backend has one way). */
typedef enum RsTraceKernel {
    RS_TRACE_AUTO,      /* bvh8: plain for camera rays, persistent for bounce rays; else plain */
    RS_TRACE_PLAIN,     /* one thread per ray, one launch over the live rays */
    RS_TRACE_PERSISTENT /* bvh8: persistent warps that refill finished lanes (dynamic fetch) */
} RsTraceKernel;

/* The wavefront stages, as the scheduler times them. */
typedef enum RsStage {
    RS_STAGE_GENERATE,
    RS_STAGE_SORT,
    RS_STAGE_EXTEND,
    RS_STAGE_SHADE,
    RS_STAGE_CONNECT,
    RS_STAGE_DROP_DEAD,
    RS_STAGE_ACCUMULATE,
    RS_STAGE_COUNT
} RsStage;

/* Test-only: a fixed sequence of strategies that auto follows instead of choosing. */
#define RS_DEADRAY_SCHEDULE_MAX 8

typedef struct RsBackendConfig {
    RsBackendKind kind;
    RsDeadRay deadray;
    /* With deadray auto, tests only: when schedule_length > 0 the bounce loop takes the
     * strategies of deadray_schedule in turn (one per set_deadray call, wrapping around)
     * instead of choosing; the forced-switch tests make it alternate families every bounce. */
    RsDeadRay deadray_schedule[RS_DEADRAY_SCHEDULE_MAX];
    uint32_t schedule_length;
    int payload;           /* compaction moves whole RayState rows instead of building an index list */
    uint32_t threads;      /* CPU worker threads; 0 = one per processor */
    uint64_t memory_limit; /* bytes the wave buffers may use; 0 = backend default */
    int time_stages;       /* CUDA: record events around every stage (the benchmark's breakdown) */
    RsTraceKernel trace_kernel;
    int sort_rays;         /* order bounce rays by ray_sort.h's key before extend (compaction strategies) */
    int sort_materials;    /* order hit rays by material_sort.h's key before shade (compaction strategies) */
    int device;            /* CUDA: the device index this instance drives */
    int aovs;              /* the film carries aov.h's planes (render --aov or --denoise, the viewer) */
    int film_stats;        /* adaptive sampling: the same planes, but only the squares and the
                              visits are kept (kernel/film/adaptive.h): no per-path AOV rows */
    int instances;         /* set by set_scene: the scene has instances, so the rays' and shadow
                              rays' instance lanes are allocated (ray_state_fields.h) */
    int particles;         /* frames may use a particle integrator (light, sppm): the shadow
                              queue's target lane, the splat and photon queues, the visible
                              points and the film's two SPPM planes (after the others) exist */
} RsBackendConfig;

/* What a frame needs besides the scene. */
typedef struct RsFrameDesc {
    RsCamera camera;
    uint32_t width, height;
    uint32_t seed, max_depth, integrator, rr_depth;
    uint32_t sampler; /* RS_SAMPLER_* (kernel/sampling/sampler.h) */
    float noise_threshold; /* adaptive sampling (docs/architecture.md): 0 = off */
    uint32_t min_spp;      /* adaptive sampling: samples before a pixel may stop */
    /* particle integrators (kernel_params.h, RsParticleParams) */
    uint32_t photons_per_pass; /* SPPM: photons per pass (light tracing: always the pixel count) */
    float sppm_radius;         /* SPPM: initial gather radius, scene units (> 0) */
    float sppm_alpha;          /* SPPM: in (0, 1) */
} RsFrameDesc;

/* A wave: paths [first_path, first_path + paths) of a span of the image (kernel_params.h). A
 * particle wave (phase RS_PHASE_PARTICLES) numbers particles the same way, span_pixels being
 * the particles per pass; it lies inside one chunk, which starts at chunk_first_path. */
typedef struct RsWaveRange {
    uint32_t span_first_index, span_pixels;
    uint64_t first_path;
    uint32_t paths;
    uint32_t phase;            /* RS_PHASE_* */
    uint64_t chunk_first_path; /* particle waves: the first particle of the wave's chunk */
} RsWaveRange;

/* What a bounce left behind, as known on the host after read_counts. */
typedef struct RsBounceCounts {
    uint32_t live;        /* paths still alive */
    uint32_t shadow_rays; /* shadow rays traced in this bounce */
} RsBounceCounts;

/* How the film becomes display bytes (see src/kernel/film/tonemap.h). */
typedef struct RsDisplaySettings {
    float exposure;    /* stops, added to the automatic exposure when that is on */
    int auto_exposure; /* map the log-average luminance to middle grey */
    uint32_t curve;    /* RS_TONE_* */
    uint32_t layer;    /* RS_LAYER_* (aov.h) shown; anything but beauty needs AOVs */
    int denoise;       /* with layer beauty: show it denoised (needs AOVs) */
    int same_rgba;     /* the caller passes one rgba buffer to every display call and frees it only
                          after the renderer: the CUDA backend may page-lock it (film_ops.cu) */
} RsDisplaySettings;

/* An image made from the film (make_image): one layer, or the denoised beauty. */
typedef struct RsImageRequest {
    uint32_t layer;  /* RS_LAYER_*; RS_LAYER_BEAUTY when denoise */
    int for_display; /* rs_film_layer_display's mapping instead of the layer's values */
    int denoise;
    RsDenoiseSettings denoiser;
} RsImageRequest;

typedef struct RsDisplayStats {
    double log_average;     /* exp(mean log(delta + L)) over lit pixels (L > 0) */
    float max_luminance;
    float exposure;         /* stops actually applied */
    uint32_t pixels;        /* pixels with at least one sample */
    uint32_t histogram[RS_HIST_BINS];
} RsDisplayStats;

typedef struct RsBackend RsBackend;

typedef struct RsBackendOps {
    void (*destroy)(RsBackend* b);
    /* Takes its own copy of the scene arrays (the CPU backend may alias them). */
    int (*set_scene)(RsBackend* b, const RsSceneView* scene, RsError* err);
    /* Sizes the buffers for waves of up to wave_capacity paths and clears the film. */
    int (*set_frame)(RsBackend* b, const RsFrameDesc* frame, uint32_t wave_capacity, RsError* err);
    int (*generate)(RsBackend* b, const RsWaveRange* wave, RsError* err);
    /* deadray auto only (NULL for a backend without it): the strategy from now on, one that
     * rs_deadray_supported says the backend has, but neither flags nor auto. Between waves it
     * sets what generate builds; inside a wave (after generate, before a bounce's sort or
     * extend) it also converts the live set when the family changes: the stencil family
     * (stencil, persistent: a bit per row) <-> the index family (compactions: a list of live
     * rows); within a family nothing moves. Starts the bounce's device timing (bounce_seconds). */
    int (*set_deadray)(RsBackend* b, RsDeadRay strategy, RsError* err);
    /* deadray auto on an asynchronous backend: device seconds from the last set_deadray to the
     * end of the drop_dead that read_counts waited for; call after read_counts. NULL for a
     * synchronous backend: the bounce loop times those with the wall clock. */
    int (*bounce_seconds)(RsBackend* b, double* seconds, RsError* err);
    /* Reorders the live index list by ray_sort.h's key (compaction strategies only). */
    int (*sort)(RsBackend* b, RsError* err);
    /* Reorders the live index list by the hit's material (material_sort.h; compaction only). */
    int (*sort_materials)(RsBackend* b, RsError* err);
    int (*extend)(RsBackend* b, RsError* err);
    int (*shade)(RsBackend* b, RsError* err);
    int (*connect)(RsBackend* b, RsError* err);
    /* Applies the dead-ray strategy and starts the read-back of the bounce's counts; returns
     * without waiting (on the GPU), so one thread can drive several devices. */
    int (*drop_dead)(RsBackend* b, RsError* err);
    /* Adaptive sampling (kernel/film/adaptive.h): judges the span's pixels at the end of a
     * decision pass; the film then holds exactly their samples before it. */
    int (*adaptive_update)(RsBackend* b, uint32_t span_first_index, uint32_t span_pixels, RsError* err);
    /* Waits for drop_dead's counts (on the GPU: one 8-byte read-back, the only synchronisation
     * inside the bounce loop) and readies the next bounce. */
    int (*read_counts)(RsBackend* b, RsBounceCounts* counts, RsError* err);
    int (*accumulate)(RsBackend* b, RsError* err);
    /* film: rs_film_planes planes of width * height pixels (aov.h; plane 0: rgb sums | samples) */
    int (*read_film)(RsBackend* b, RsFloat4* film, RsError* err);
    int (*write_film)(RsBackend* b, const RsFloat4* film, RsError* err);
    /* The film of one span, in pass order, plane after plane: values[p * span_pixels + k] is
     * plane p of the pixel of index span_first_index + k. */
    int (*read_film_span)(RsBackend* b, uint32_t span_first_index, uint32_t span_pixels, RsFloat4* values,
                          RsError* err);
    int (*write_film_span)(RsBackend* b, uint32_t span_first_index, uint32_t span_pixels, const RsFloat4* values,
                           RsError* err);
    /* Makes an image from the film (a layer, or the denoiser's output) in the instance's image
     * buffer (width * height RsFloat4, rgb | 1), where display and read_image find it. */
    int (*make_image)(RsBackend* b, const RsImageRequest* request, RsError* err);
    int (*read_image)(RsBackend* b, RsFloat4* image, RsError* err);
    /* Tone-maps the film (or, for another layer or the denoised beauty, make_image's image,
     * which it makes) into width * height RGBA8 pixels (alpha 255), top row first, and
     * reports the luminance statistics: a parallel reduction and a histogram on the GPU. */
    int (*display)(RsBackend* b, const RsDisplaySettings* settings, uint8_t* rgba, RsDisplayStats* stats,
                   RsError* err);
    /* Waits until all queued work is done. */
    int (*finish)(RsBackend* b, RsError* err);
    /* Device time per stage since the last call, added to seconds[]. NULL for a backend whose
     * calls are synchronous: the scheduler times those with the wall clock. */
    int (*take_stage_times)(RsBackend* b, double seconds[RS_STAGE_COUNT], RsError* err);
    /* Bytes of wave buffers this instance allocates per path in flight: what planning divides by. */
    uint64_t (*bytes_per_path)(const RsBackend* b);
    /* Paths accumulate dropped since set_frame because their radiance was not finite
     * (kernel/stages/stage_accumulate.h); waits for queued work. NULL: the backend drops none. */
    int (*read_nonfinite)(RsBackend* b, uint64_t* paths, RsError* err);

    /* Particle integrators (docs/architecture.md, section 10.4), with config.particles. The
     * queues are sized by set_frame for a chunk (RS_PARTICLE_CHUNK particles x (max_depth + 1)
     * records), so they cannot overflow; a count past the capacity is still an error. */
    /* After the last wave of a chunk. Light tracing: adds the chunk's splats to film plane 0
     * (rgb; splat.h's resolve). SPPM photon pass: builds the photon grid of the chunk's photons
     * (photon_grid.h) and adds what each pixel's visible point gathers to sppm_pass. Empties the
     * queue. */
    int (*particle_resolve)(RsBackend* b, RsError* err);
    /* SPPM, after a pass's camera wave(s) and all its photon chunks: every pixel's radius, photon
     * count and flux follow the pass (photon_grid.h's rule), film plane 0 becomes (the pixel's
     * estimate x passes | passes), and the pass's sums and visible points are cleared. */
    int (*sppm_update)(RsBackend* b, RsError* err);
} RsBackendOps;

struct RsBackend {
    const RsBackendOps* ops;
    RsBackendConfig config;
    char name[32];           /* "cpu" or "cuda" */
    char device[256];        /* e.g. "CPU, 2 threads" or "GPU 1: NVIDIA H200 (132 SMs, sm_90)" */
    uint64_t memory_budget;  /* bytes available to wave buffers */
    uint32_t preferred_wave; /* paths per wave that keep this device busy */
    uint64_t readback_bytes; /* device-to-host bytes copied so far (counts and film) */
    int time_bounce;         /* deadray auto: the wavefront wants this bounce's time (bounce_seconds) */
};

/* ---- deadray.c: strategy properties, from deadray_table.h ---- */

const char* rs_deadray_name(RsDeadRay d);
int rs_deadray_parse(const char* name, RsDeadRay* out);
/* A compaction proper (keeps a list of live rows on every bounce); not auto. */
int rs_deadray_is_compaction(RsDeadRay d);
/* A compaction, or auto (which may pick one): needs the index list, --payload and --sort-rays apply. */
int rs_deadray_may_compact(RsDeadRay d);
const char* rs_deadray_help(RsDeadRay d);
/* Whether a backend kind (CPU or CUDA) has the strategy. */
int rs_deadray_supported(RsDeadRay d, RsBackendKind kind);
/* "flags, stencil, ..." for help texts */
const char* rs_deadray_list(void);
/* The next strategy after d that `kind` has (wrapping around): the viewer's strategy key. */
RsDeadRay rs_deadray_next(RsDeadRay d, RsBackendKind kind);
/* Wave bytes per path the strategy keeps beyond every strategy's (the table's column); 0 for
 * an unknown one. */
uint32_t rs_deadray_extra_bytes(RsDeadRay d);

/* ---- image_request.c: the film's layers, and the images made from it ---- */

/* "beauty", "albedo", ... and their channel letters ("RGB", "XYZ", "Z"), from aov.h's table. */
const char* rs_layer_name(uint32_t layer);
const char* rs_layer_channels(uint32_t layer);

/* Planes in a film of this configuration: RS_FILM_PLANES_AOV with AOVs, else 1; two more (SPPM's
 * state, rs_film_sppm_plane on) for a backend that may trace particles. */
uint32_t rs_film_planes(const RsBackendConfig* config);
/* The first of the two SPPM planes (config->particles). */
uint32_t rs_film_sppm_plane(const RsBackendConfig* config);

/* Checks denoiser settings a user gave (iteration count, finite positive sigmas). */
int rs_denoise_settings_check(const RsDenoiseSettings* s, RsError* err);

/* Checks an image request against a configuration (AOVs present, layer known, settings). */
int rs_image_request_check(const RsBackendConfig* config, const RsImageRequest* request, RsError* err);

/* The request that display settings imply (for_display, default denoiser settings; denoise
 * only for the beauty layer). */
RsImageRequest rs_display_image_request(const RsDisplaySettings* settings);

/* ---- backend_config.c: what a configuration implies ---- */

/* Copies a frame's settings into the kernel parameters (both backends do this in set_frame). */
void rs_kernel_params_set_frame(RsKernelParams* kp, const RsFrameDesc* frame);

/* Bytes of wave buffers per path in flight for a configuration, from the table: an upper bound
 * for either backend (each instance says its own through ops->bytes_per_path). */
uint64_t rs_wave_bytes_per_path(const RsBackendConfig* config);

/* Checks the combination of options a backend is asked for; 0 or -1 with the reason. */
int rs_backend_config_check(const RsBackendConfig* config, uint32_t accel, RsError* err);

/* ---- trace_kernel.c: how extend runs its traversals ---- */

const char* rs_trace_kernel_name(RsTraceKernel k);
/* What RS_TRACE_AUTO means for a structure and ray depth (1 = camera rays): dynamic fetch pays
 * where a warp's rays walk very different distances (bounce rays: 1.7-2x on the benchmark
 * models), while coherent camera rays lose ~10% to its bookkeeping on Sponza and Conference. */
RsTraceKernel rs_trace_kernel_resolve(RsTraceKernel k, uint32_t accel, uint32_t depth);
/* What shadow rays run: auto is persistent for bvh8 (they are as incoherent as bounce rays). */
RsTraceKernel rs_trace_kernel_resolve_shadow(RsTraceKernel k, uint32_t accel);
int rs_trace_kernel_parse(const char* name, RsTraceKernel* out);

/* backend_factory.c: creates the backend config->kind asks for (AUTO: CUDA when a device is
 * present), on config->device for CUDA. */
RsBackend* rs_backend_create(const RsBackendConfig* config, RsError* err);
void rs_backend_destroy(RsBackend* b);
/* What AUTO resolves to on this machine. */
RsBackendKind rs_backend_resolve_kind(RsBackendKind kind);

/* The backends' own constructors, for the factory (which has checked the strategy). */
RsBackend* rs_backend_cpu_create(const RsBackendConfig* config, RsError* err);

/* Provided by cuda/ when CUDA is built, by backend_cuda_stub.c otherwise. */
int rs_cuda_built(void);
int rs_cuda_device_count(void);
RsBackend* rs_backend_cuda_create(const RsBackendConfig* config, RsError* err);
/* Human-readable description of every CUDA device (name, SMs, memory, capability, versions). */
int rs_cuda_describe(char* out, size_t size);

typedef struct RsDeviceInfo {
    char name[256];
    int sm_count;
    int cc_major, cc_minor;
    int driver_version, runtime_version; /* e.g. 13000 for 13.0 */
    uint64_t memory_bytes;
} RsDeviceInfo;
/* CUDA device `device`; -1 if there is none. */
int rs_cuda_device_info(int device, RsDeviceInfo* info);

#endif /* RS_HOST_BACKEND_H */
