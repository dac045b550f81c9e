/* options.h - the options every rendering subcommand shares (render, bench, view): scene
 * overrides, backend and dead-ray strategy, acceleration structure, threads, memory cap.
 *
 * Host C11, application layer.
 */
#ifndef RS_APP_OPTIONS_H
#define RS_APP_OPTIONS_H

#include <stdio.h>

#include "host/render/renderer.h"
#include "host/scene/scene.h"

typedef struct RsCommonOptions {
    RsBackendConfig backend;
    RsAccelOptions accel; /* read it through rs_common_accel */
    int accel_set;        /* --accel was given */
    /* 0 (or unset) = take the scene file's value */
    uint32_t width, height, spp, max_depth, seed;
    int seed_set, integrator_set;
    uint32_t integrator;
    uint32_t sampler, light_sampler, min_spp; /* --sampler, --light-sampler, --min-spp */
    float noise_threshold;                   /* --noise-threshold */
    int sampler_set, light_sampler_set, noise_threshold_set;
    int quiet;
    int32_t camera; /* render and view: --camera N (which of a glTF's cameras); -1: the scene's default */
    uint32_t photons;             /* --photons (sppm); 0: the frame's default */
    float sppm_radius, sppm_alpha; /* --sppm-radius, --sppm-alpha; 0: the frame's default */
    int devices[RS_MAX_DEVICES]; /* --devices; device_count 0 = all */
    int device_count;
} RsCommonOptions;

void rs_common_options_init(RsCommonOptions* o);

/* If argv[*i] is a common option, consumes it (and its value) and returns 1; returns 0 if it is
 * not one; returns -1 after printing a usage error. */
int rs_common_option(int argc, char** argv, int* i, RsCommonOptions* o);

/* --camera N, for the commands that load a scene to show or write it (render, view, convert):
 * which of the scene file's cameras, numbered from 0 (glTF: in node order), into *camera, which
 * rs_scene_load_with takes as RsSceneLoadOptions.camera. Consumes it and its value and returns
 * 1; 0 if argv[*i] is not it; -1 after printing a usage error. rs_camera_option_help is its
 * line of help. */
int rs_camera_option(int argc, char** argv, int* i, int32_t* camera);
extern const char rs_camera_option_help[];

/* Prints the help for the common options, but for --spp, whose meaning each command states
 * itself (render: samples per pixel; view: where refining stops; bench: per frame). */
void rs_common_options_usage(FILE* f);

/* The renderer's settings from the options. */
RsRendererConfig rs_common_renderer_config(const RsCommonOptions* o);

/* The acceleration structure to build: --accel's, else the backend's best (bvh8 on CUDA, where
 * it wins every benchmark that matters; bvh2 on the CPU, where the scalar eight-box test of
 * bvh8 costs 10-25% more). */
RsAccelOptions rs_common_accel(const RsCommonOptions* o);

/* Will this configuration's backend be CUDA (AUTO with a device present)? */
int rs_backend_is_cuda(const RsBackendConfig* config);

/* Warns (on stderr) when a built scene has no emitter at all: no emissive surface, no point or
 * spot light, and a black or absent environment, so that the image will be black. The command
 * still runs: a black image is what such a scene is. */
void rs_common_warn_unlit(const RsScene* scene, const char* scene_path);

/* The particle integrators' options (--photons, --sppm-radius, --sppm-alpha) over a frame's. */
void rs_common_options_frame(const RsCommonOptions* o, RsFrameDesc* frame);

/* For a particle integrator (light, sppm): refuses, by name, what it cannot honour (--denoise,
 * --aov; a scene without a light particles can leave from), prints why and returns -1;
 * otherwise readies the renderer's settings (config.particles, one device) and returns 0.
 * Nothing for the other integrators. */
int rs_common_check_particles(const RsScene* scene, uint32_t integrator, int aovs, int denoise,
                              RsRendererConfig* config);

/* Applies the overrides to a loaded scene's render settings. */
void rs_common_options_apply(const RsCommonOptions* o, RsRenderDesc* render);

#endif /* RS_APP_OPTIONS_H */
