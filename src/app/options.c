/* options.c - shared rendering options (see options.h). Host C11, application layer. */
#include "app/options.h"

#include <stdlib.h>
#include <string.h>

#include "app/cli.h"
#include "host/render/particle_trace.h"
#include "host/scene/settings.h"

static const char help_before_deadray[] =
    "  --max-depth D         ray segments per path; 1 = camera rays + direct light (default: scene)\n"
    "  --integrator NAME     path | whitted | light | sppm (default: scene): light traces\n"
    "                        particles from the lights to the camera (Mitsuba's ptracer; one\n"
    "                        pass = a particle per pixel), sppm is stochastic progressive photon\n"
    "                        mapping (one pass = a camera pass and a photon pass): both find\n"
    "                        caustics the path tracer cannot; --spp N = N passes\n"
    "  --photons N           sppm: photons per pass (default: the pixel count, at least 262144)\n"
    "  --sppm-radius R       sppm: initial gather radius in scene units (default: three pixels'\n"
    "                        footprint at the scene's centre)\n"
    "  --sppm-alpha A        sppm: the share of a pass's photons a pixel keeps, 0 < A < 1\n"
    "                        (default 2/3)\n"
    "  --seed S              random seed (default: scene)\n"
    "  --sampler NAME        sobol | independent: where random numbers come from (default: the\n"
    "                        scene's render.sampler, else sobol)\n"
    "  --light-sampler NAME  tree | power: how a light is picked for direct lighting (default:\n"
    "                        the scene's render.light_sampler, else tree)\n"
    "  --noise-threshold E   adaptive sampling: a pixel stops once its estimated error is below E\n"
    "                        (0 to 1; 0.01 is a good start; 0 = off; default: scene)\n"
    "  --min-spp N           adaptive sampling: samples before a pixel may stop (default: scene)\n"
    "  --width W --height H  image size (default: the scene's camera.resolution)\n"
    "  --backend NAME        auto | cpu | cuda (default auto: CUDA when a device is present)\n"
    "  --devices all|LIST    GPUs to share the image, e.g. 0,2 (default all; `raystream info`\n"
    "                        lists them); with --backend cpu, LIST makes that many CPU\n"
    "                        instances share the processors (for testing the multi-device path)\n"
    "  --deadray NAME        how dead rays are dropped between bounces (default auto):\n";

static const char help_after_deadray[] =
    "  --payload             compaction moves whole ray rows instead of an index list\n"
    "  --accel NAME          acceleration structure: bvh8 (default on CUDA), bvh2 (default on the\n"
    "                        CPU) or grid\n"
    "  --trace-kernel NAME   auto (default) | plain | persistent: extend by one thread per ray, or\n"
    "                        (bvh8) by persistent warps that refill finished lanes (dynamic\n"
    "                        fetch; CUDA); auto: persistent for bvh8's bounce and shadow rays\n"
    "  --sort-rays           order bounce rays by origin cell and direction octant before each\n"
    "                        extend (auto and the compaction strategies)\n"
    "  --sort-materials      order hit rays by material before each shade, so neighbouring\n"
    "                        lanes shade the same material (auto, compactions)\n"
    "  --no-sbvh             BVHs without spatial splits: faster to build, more overlapping\n"
    "                        boxes where triangles are long and thin (default: spatial splits,\n"
    "                        Stich et al. 2009; --sbvh asks for them explicitly)\n"
    "  --no-camera-tree      bvh8 without its camera tree: camera rays walk the 8-wide nodes\n"
    "                        too (default: bvh8 keeps the binary tree it is built from, and\n"
    "                        camera rays, which fan out from one eye, walk that)\n"
    "  --sah-bins N          SAH bins per axis when building a BVH, 2..64 (default 32)\n"
    "  --two-level           trace the scene's own shapes as one instance of a two-level BVH\n"
    "                        (as scenes with instances are): what the two-level path costs\n"
    "  --threads N           CPU backend worker threads (default: one per processor)\n"
    "  --max-memory SIZE     cap on wave-buffer memory, e.g. 64M; frames are traced in waves\n"
    "  --quiet               no progress output\n";

const char rs_camera_option_help[] =
    "  --camera N            which of the scene's cameras, numbered from 0 (glTF: in node order;\n"
    "                        default: the first; docs/import/gltf.md)\n";

int rs_camera_option(int argc, char** argv, int* i, int32_t* camera)
{
    int missing = 0;
    uint64_t n = 0;
    const char* v = rs_cli_value(argc, argv, i, "--camera", NULL, &missing);
    if (!v)
        return missing ? -1 : 0;
    if (rs_cli_uint("--camera", v, 0, 2147483647u, &n))
        return -1;
    *camera = (int32_t)n;
    return 1;
}

void rs_common_options_usage(FILE* f)
{
    fputs(help_before_deadray, f);
    for (int d = 0; d < RS_DEADRAY_COUNT; ++d)
        fprintf(f, "      %-16s%s\n", rs_deadray_name((RsDeadRay)d), rs_deadray_help((RsDeadRay)d));
    fputs(help_after_deadray, f);
}

/* "all" or a comma-separated list of device indices */
static int parse_devices(const char* v, RsCommonOptions* o)
{
    o->device_count = 0;
    if (strcmp(v, "all") == 0)
        return 0;
    const char* p = v;
    while (*p) {
        char* end = NULL;
        unsigned long d = strtoul(p, &end, 10);
        if (end == p || (*end != ',' && *end != '\0') || d >= RS_MAX_DEVICES || *p == '-' || *p == '+') {
            rs_cli_error("--devices: expected all or a list of device numbers below %d like 0,2, got '%s'",
                         RS_MAX_DEVICES, v);
            return -1;
        }
        if (o->device_count == RS_MAX_DEVICES) {
            rs_cli_error("--devices: at most %d devices", RS_MAX_DEVICES);
            return -1;
        }
        o->devices[o->device_count++] = (int)d;
        p = *end == ',' ? end + 1 : end;
        if (*end == ',' && *p == '\0') {
            rs_cli_error("--devices: '%s' ends with a comma", v);
            return -1;
        }
    }
    if (o->device_count == 0) {
        rs_cli_error("--devices: expected all or a list of device numbers, got '%s'", v);
        return -1;
    }
    return 0;
}

RsRendererConfig rs_common_renderer_config(const RsCommonOptions* o)
{
    RsRendererConfig c;
    memset(&c, 0, sizeof c);
    c.backend = o->backend;
    c.device_count = o->device_count;
    memcpy(c.devices, o->devices, sizeof c.devices);
    return c;
}

void rs_common_options_init(RsCommonOptions* o)
{
    memset(o, 0, sizeof *o);
    o->backend.kind = RS_BACKEND_AUTO;
    /* picks per bounce from what it measures: stencil where most rays live, a compaction where
     * most are dead (docs/architecture.md, section 5.1) */
    o->backend.deadray = RS_DEADRAY_AUTO;
    o->accel = rs_accel_options_default();
    o->camera = -1;
}

int rs_common_option(int argc, char** argv, int* i, RsCommonOptions* o)
{
    int missing = 0;
    const char* v;
    uint64_t n;
    const char* arg = argv[*i];
#define VALUE(name, alias) (v = rs_cli_value(argc, argv, i, name, alias, &missing)) != NULL
    if (strcmp(arg, "--quiet") == 0 || strcmp(arg, "-q") == 0) {
        o->quiet = 1;
    } else if (strcmp(arg, "--payload") == 0) {
        o->backend.payload = 1;
    } else if (strcmp(arg, "--sbvh") == 0) {
        o->accel.spatial_splits = 1;
    } else if (strcmp(arg, "--no-sbvh") == 0) {
        o->accel.spatial_splits = 0;
    } else if (strcmp(arg, "--no-camera-tree") == 0) {
        o->accel.camera_tree = 0;
    } else if (strcmp(arg, "--two-level") == 0) {
        o->accel.two_level = 1;
    } else if (strcmp(arg, "--sort-rays") == 0) {
        o->backend.sort_rays = 1;
    } else if (strcmp(arg, "--sort-materials") == 0) {
        o->backend.sort_materials = 1;
    } else if (VALUE("--trace-kernel", NULL)) {
        if (rs_trace_kernel_parse(v, &o->backend.trace_kernel)) {
            rs_cli_error("--trace-kernel: expected auto, plain or persistent, got '%s'", v);
            return -1;
        }
    } else if (VALUE("--accel", NULL)) {
        if (rs_accel_parse(v, &o->accel.kind)) {
            rs_cli_error("--accel: unknown acceleration structure '%s' (expected one of: %s)", v, rs_accel_list());
            return -1;
        }
        o->accel_set = 1;
    } else if (VALUE("--sah-bins", NULL)) {
        if (rs_cli_uint("--sah-bins", v, 2, 64, &n))
            return -1;
        o->accel.bins = (uint32_t)n;
    } else if (VALUE("--spp", NULL)) {
        if (rs_cli_uint("--spp", v, 1, 1u << 20, &n))
            return -1;
        o->spp = (uint32_t)n;
    } else if (VALUE("--max-depth", NULL)) {
        if (rs_cli_uint("--max-depth", v, 1, 1024, &n))
            return -1;
        o->max_depth = (uint32_t)n;
    } else if (VALUE("--seed", NULL)) {
        if (rs_cli_uint("--seed", v, 0, 0xffffffffu, &n))
            return -1;
        o->seed = (uint32_t)n;
        o->seed_set = 1;
    } else if (VALUE("--width", NULL)) {
        if (rs_cli_uint("--width", v, 1, 16384, &n))
            return -1;
        o->width = (uint32_t)n;
    } else if (VALUE("--height", NULL)) {
        if (rs_cli_uint("--height", v, 1, 16384, &n))
            return -1;
        o->height = (uint32_t)n;
    } else if (VALUE("--threads", NULL)) {
        if (rs_cli_uint("--threads", v, 1, 1024, &n))
            return -1;
        o->backend.threads = (uint32_t)n;
        o->accel.threads = (uint32_t)n;
    } else if (VALUE("--max-memory", NULL)) {
        if (rs_cli_size("--max-memory", v, &o->backend.memory_limit))
            return -1;
    } else if (VALUE("--integrator", NULL)) {
        if (rs_integrator_parse(v, &o->integrator)) {
            rs_cli_error("--integrator: expected path, whitted, light or sppm, got '%s'", v);
            return -1;
        }
        o->integrator_set = 1;
    } else if (VALUE("--photons", NULL)) {
        if (rs_cli_uint("--photons", v, 1, 1u << 30, &n))
            return -1;
        o->photons = (uint32_t)n;
    } else if (VALUE("--sppm-radius", NULL)) {
        double radius;
        if (rs_cli_float("--sppm-radius", v, 1e-30, 1e30, &radius))
            return -1;
        o->sppm_radius = (float)radius;
    } else if (VALUE("--sppm-alpha", NULL)) {
        double alpha;
        if (rs_cli_float("--sppm-alpha", v, 1e-6, 0.999999, &alpha))
            return -1;
        o->sppm_alpha = (float)alpha;
    } else if (VALUE("--sampler", NULL)) {
        if (rs_sampler_parse(v, &o->sampler)) {
            rs_cli_error("--sampler: unknown sampler '%s' (expected one of: %s)", v, rs_sampler_list());
            return -1;
        }
        o->sampler_set = 1;
    } else if (VALUE("--light-sampler", NULL)) {
        if (rs_light_sampler_parse(v, &o->light_sampler)) {
            rs_cli_error("--light-sampler: unknown light sampler '%s' (expected one of: %s)", v,
                         rs_light_sampler_list());
            return -1;
        }
        o->light_sampler_set = 1;
    } else if (VALUE("--noise-threshold", NULL)) {
        double threshold;
        if (rs_cli_float("--noise-threshold", v, 0.0, RS_MAX_NOISE_THRESHOLD, &threshold))
            return -1;
        o->noise_threshold = (float)threshold;
        o->noise_threshold_set = 1;
    } else if (VALUE("--min-spp", NULL)) {
        if (rs_cli_uint("--min-spp", v, 1, 1u << 20, &n))
            return -1;
        o->min_spp = (uint32_t)n;
    } else if (VALUE("--deadray", NULL)) {
        if (rs_deadray_parse(v, &o->backend.deadray)) {
            rs_cli_error("--deadray: unknown strategy '%s' (expected one of: %s)", v, rs_deadray_list());
            return -1;
        }
    } else if (VALUE("--devices", NULL)) {
        if (parse_devices(v, o))
            return -1;
    } else if (VALUE("--backend", NULL)) {
        if (strcmp(v, "auto") == 0)
            o->backend.kind = RS_BACKEND_AUTO;
        else if (strcmp(v, "cpu") == 0)
            o->backend.kind = RS_BACKEND_CPU;
        else if (strcmp(v, "cuda") == 0)
            o->backend.kind = RS_BACKEND_CUDA;
        else {
            rs_cli_error("--backend: expected auto, cpu or cuda, got '%s'", v);
            return -1;
        }
    } else {
        return missing ? -1 : 0;
    }
#undef VALUE
    return 1;
}

int rs_backend_is_cuda(const RsBackendConfig* config)
{
    return config->kind == RS_BACKEND_CUDA ||
           (config->kind == RS_BACKEND_AUTO && rs_cuda_built() && rs_cuda_device_count() > 0);
}

RsAccelOptions rs_common_accel(const RsCommonOptions* o)
{
    RsAccelOptions a = o->accel;
    if (!o->accel_set)
        a.kind = rs_backend_is_cuda(&o->backend) ? RS_ACCEL_BVH8 : RS_ACCEL_BVH2;
    return a;
}

void rs_common_options_apply(const RsCommonOptions* o, RsRenderDesc* r)
{
    if (o->width)
        r->width = o->width;
    if (o->height)
        r->height = o->height;
    if (o->spp)
        r->spp = o->spp;
    if (o->max_depth)
        r->max_depth = o->max_depth;
    if (o->seed_set)
        r->seed = o->seed;
    if (o->integrator_set)
        r->integrator = o->integrator;
    if (o->sampler_set)
        r->sampler = o->sampler;
    if (o->light_sampler_set)
        r->light_sampler = o->light_sampler;
    if (o->noise_threshold_set)
        r->noise_threshold = o->noise_threshold;
    if (o->min_spp)
        r->min_spp = o->min_spp;
}

void rs_common_options_frame(const RsCommonOptions* o, RsFrameDesc* frame)
{
    if (o->photons)
        frame->photons_per_pass = o->photons;
    if (o->sppm_radius > 0.0f)
        frame->sppm_radius = o->sppm_radius;
    if (o->sppm_alpha > 0.0f)
        frame->sppm_alpha = o->sppm_alpha;
}

int rs_common_check_particles(const RsScene* scene, uint32_t integrator, int aovs, int denoise,
                              RsRendererConfig* config)
{
    RsError err = {{0}};
    const char* name = rs_integrator_name(integrator);
    if (!rs_integrator_particles(integrator))
        return 0;
    if (denoise) {
        rs_cli_error("--integrator %s: --denoise needs the albedo and normal of each pixel's first hit, which "
                     "particles do not record; denoise a path-traced render instead",
                     name);
        return -1;
    }
    if (aovs) {
        rs_cli_error("--integrator %s: --aov layers come from camera paths, which %s does not trace for "
                     "every pixel; only the beauty is written",
                     name, name);
        return -1;
    }
    if (rs_particles_check_scene(scene, integrator, &err)) {
        rs_cli_error("%s", err.message);
        return -1;
    }
    config->backend.particles = 1;
    /* one device (particle_trace.h): the first, unless --devices named one */
    if (config->device_count == 0) {
        config->device_count = 1;
        config->devices[0] = 0;
    }
    return 0;
}

void rs_common_warn_unlit(const RsScene* scene, const char* scene_path)
{
    for (size_t i = 0; i < scene->warnings.count; ++i)
        rs_cli_warning("%s", scene->warnings.data[i]);
    if (scene->warnings_dropped)
        rs_cli_warning("%s: %u more warnings not shown", scene_path, scene->warnings_dropped);
    if (scene->built && scene->light_count == 0)
        rs_cli_warning("%s: the scene has no light (no emissive material on any shape, no point or spot light, and "
                       "a black or absent environment): the image will be black",
                       scene_path);
}
