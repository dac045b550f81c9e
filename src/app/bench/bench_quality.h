/* bench_quality.h - `raystream bench-quality`, the equal-time error benchmark: what its parts
 * share. Host C11, application layer.
 *
 *   bench_quality.c      the command: scenes, configurations, JSON, CSV and the table
 *   quality_args.c       its options (--configs, --targets, ...) and help
 *   quality_reference.c  the reference image of a scene: given, cached, or rendered here
 *   quality_mask.c       the region of a scene its errors are measured over (--mask)
 *   quality_run.c        the measurement: a ladder of sample counts, in this process or by
 *                        running another raystream's `render` (--external)
 *   quality_metric.c     the error measures (quality_metric.h)
 */
#ifndef RS_APP_BENCH_QUALITY_H
#define RS_APP_BENCH_QUALITY_H

#include <stdio.h>

#include "app/bench/quality_metric.h"
#include "app/cli.h"
#include "app/options.h"
#include "host/render/renderer.h"
#include "host/scene/scene.h"
#include "host/util/file_list.h"

#define RS_QUALITY_MAX_SCENES 16
#define RS_QUALITY_MAX_CONFIGS 32
#define RS_QUALITY_MAX_TARGETS 16
#define RS_QUALITY_MAX_POINTS 24 /* 1, 2, 4, ..., 2^20 spp (--spp's limit) */
#define RS_QUALITY_MAX_PASS 32   /* arguments handed on to --external's render */

/* One configuration: the render settings it sets; what it leaves unset stays the scene's (with
 * the command line's --sampler and the like applied). integrator= may pick a particle
 * integrator (light, sppm), whose ladder steps are passes (rs_renderer_trace counts them so). */
typedef struct RsQualityConfig {
    char text[160]; /* as given, for messages */
    int sampler_set, light_set, threshold_set, min_spp_set, integrator_set;
    uint32_t sampler, light_sampler, min_spp, integrator;
    uint32_t photons; /* sppm's photons per pass; 0: --photons, else the frame's default */
    float noise_threshold;
} RsQualityConfig;

typedef struct RsQualityOptions {
    RsCommonOptions common;
    const char* scenes[RS_QUALITY_MAX_SCENES];
    int scene_count;
    const char* references[RS_QUALITY_MAX_SCENES];
    int reference_count;
    const char* masks[RS_QUALITY_MAX_SCENES]; /* --mask: the region each scene's error is measured in */
    int mask_count;
    RsQualityConfig configs[RS_QUALITY_MAX_CONFIGS];
    int config_count;
    double targets[RS_QUALITY_MAX_TARGETS];
    int target_count;
    uint32_t max_spp, reference_spp; /* 0: the backend's default */
    double max_seconds;              /* < 0: the backend's default; 0: no limit */
    const char* json;
    const char* csv;
    const char* external;  /* another raystream binary whose `render` is measured */
    const char* cache_dir; /* where rendered references are kept (default: beside --json) */
    const char* pass[RS_QUALITY_MAX_PASS]; /* --backend, --devices, ... as given, for --external */
    int pass_count;
    char scene_storage[4096], reference_storage[4096], mask_storage[4096];
} RsQualityOptions;

/* Returns 0 to run, 1 after --help, -1 after a usage error (printed). Fills the defaults that do
 * not depend on the backend (configurations, targets). */
int rs_quality_parse_args(int argc, char** argv, RsQualityOptions* o);
void rs_quality_usage(FILE* f);
/* "independent+power", "sobol+tree+adaptive 0.01 (min 16 spp)", "sppm 65536 photons+sobol+tree":
 * a configuration's effective settings, for tables and legends. The integrator leads when it is
 * not the path tracer or `config` (may be NULL) names it; photons when the configuration sets them. */
void rs_quality_label(const RsRenderDesc* rd, const RsQualityConfig* config, char* out, size_t size);

/* A scene's reference image and what is known of its own error. */
typedef struct RsQualityReference {
    float* rgb; /* width * height * 3, rows top first */
    uint32_t width, height;
    const char* source; /* "rendered", "cache" or "given" */
    char file[RS_PATH_BYTES]; /* the given file, or the cache file ("" when not saved) */
    char key[40];             /* the cache key ("" for a given reference) */
    uint32_t spp, seed;       /* rendered or cached: its samples and seed */
    double seconds;           /* rendered here: its tracing time */
    int has_estimate;
    RsQualityError estimate; /* its own relMSE (plain and trimmed), when it can be estimated */
    const char* estimate_from; /* "halves" or "variance" */
} RsQualityReference;

/* The scene as measured: loaded, its settings with the command line's applied (rd). */
typedef struct RsQualityScene {
    const char* path;
    RsScene scene;
    RsFileList files; /* every file the scene read: the reference's cache key */
    RsRenderDesc rd;
    RsRendererConfig renderer;
    uint8_t* mask;           /* --mask: width * height bytes, nonzero inside; NULL: the whole image */
    const char* mask_path;   /* the file it came from */
    uint64_t mask_pixels;    /* how many are inside */
} RsQualityScene;

/* Reads scene index `index`'s --mask (nothing without one): an image of the render's size (PNG,
 * JPEG, .hdr or .exr through the project's decoder, or .pfm), nonzero in any colour channel
 * inside. A size mismatch or an empty region is an error. */
int rs_quality_mask_load(const RsQualityOptions* o, int index, RsQualityScene* qs, RsError* err);

/* The renderer settings and the frame of settings *rd on the scene, with configuration `config`'s
 * frame keys (may be NULL): for the particle integrators (light, sppm) one device (the first of
 * the selection) and the splat film, and --photons, --sppm-radius, --sppm-alpha; an error, by
 * name, when the scene has no light a particle can leave from. */
int rs_quality_render_setup(const RsQualityOptions* o, const RsQualityScene* qs, const RsRenderDesc* rd,
                            const RsQualityConfig* config, RsRendererConfig* renderer, RsFrameDesc* frame,
                            RsError* err);

/* Gets the reference of scene index `index`: the given file, a cached render, or a render at
 * --reference-spp (then cached beside the results). */
int rs_quality_reference(const RsQualityOptions* o, int index, RsQualityScene* qs, RsQualityReference* ref,
                         RsError* err);
void rs_quality_reference_free(RsQualityReference* ref);

typedef struct RsQualityPoint {
    uint32_t spp;
    double seconds; /* tracing time from the first sample up to spp */
    uint64_t rays;  /* camera + bounce + shadow rays traced up to spp */
    RsQualityError error;
} RsQualityPoint;

/* One configuration on one scene. */
typedef struct RsQualityRun {
    char label[200];
    RsRenderDesc rd; /* its settings (unknown beyond the size and depth for --external without --configs) */
    int settings_known;
    uint32_t photons; /* sppm in this process: photons per pass; 0 otherwise or unknown */
    RsQualityPoint points[RS_QUALITY_MAX_POINTS];
    int count;
    const char* stopped; /* why the ladder ended: "max-spp", "max-seconds", "targets reached", "error" */
    char error[1024];    /* "" unless the configuration failed */
} RsQualityRun;

/* The settings `config` sets, written over *rd (NULL: none). */
void rs_quality_config_over(const RsQualityConfig* config, RsRenderDesc* rd);
/* Makes *rd, with configuration `config` applied over it (NULL: nothing more), the scene's
 * render settings (rs_scene_set_render: rebuilds the light selection when its method
 * changes). On failure the scene keeps its former light selection, so the next configuration
 * still runs. */
int rs_quality_apply(RsQualityScene* qs, const RsQualityConfig* config, RsRenderDesc* rd, RsError* err);

/* The ladder in this process: one renderer, traced to 1, 2, 4, ... spp (passes for light and
 * sppm), timing rs_renderer_trace alone, the film compared with the reference after each step.
 * `config` (may be NULL) gives the frame keys rd cannot hold (photons). `device` (may be NULL)
 * gets the renderer for the run's metadata before it is destroyed. */
typedef void (*RsQualityDeviceFn)(void* ctx, const RsRenderer* renderer);
int rs_quality_run_here(const RsQualityOptions* o, RsQualityScene* qs, const RsRenderDesc* rd,
                        const RsQualityConfig* config, const RsQualityReference* ref, RsQualityDeviceFn device,
                        void* ctx, RsQualityRun* run, RsError* err);
/* The same ladder by `o->external render SCENE --spp N ... -o TMP.pfm`, one process per step,
 * its time read from the "done in X s" line render prints. config may be NULL (the binary's
 * own settings). */
int rs_quality_run_external(const RsQualityOptions* o, RsQualityScene* qs, const RsQualityConfig* config,
                            const RsQualityReference* ref, RsQualityRun* run, RsError* err);

/* Whether the ladder goes on to `next` spp (0: past --max-spp): the next step predicted (from
 * the time per sample so far) to end within --max-seconds, and the errors, plain and trimmed,
 * not both at or below the smallest target yet: every time to a target is then known, and
 * stopping there keeps the smallest error measured near the smallest target, which is what
 * the reference must beat tenfold. Sets run->stopped when it does not. */
int rs_quality_continue(const RsQualityOptions* o, RsQualityRun* run, uint32_t next_spp);

#endif /* RS_APP_BENCH_QUALITY_H */
