/* quality_args.c - the options of `raystream bench-quality` (see bench_quality.h). Host C11,
 * application layer. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app/bench/bench_quality.h"
#include "host/scene/settings.h"

void rs_quality_usage(FILE* f)
{
    fprintf(f,
            "usage: raystream bench-quality [options]\n"
            "\n"
            "Error against time: per scene a reference image, then for each configuration (sampler x\n"
            "light sampler x adaptive sampling x integrator) the relMSE against it after 1, 2, 4, ...\n"
            "samples per pixel (passes for light and sppm), with the tracing time, and the time at which\n"
            "each target error is reached. relMSE = mean over pixels (all, or a --mask region's) and\n"
            "channels of (x - ref)^2 / (ref^2 + 0.01); \"trimmed\" leaves out the worst 0.1%% of pixels.\n"
            "\n"
            "  --scenes A.json,B.json  scenes (default scenes/cornell.json)\n"
            "  --configs LIST          ';'-separated configurations of ','-separated keys: sampler=\n"
            "                          independent|sobol, light=power|tree, threshold=E (adaptive\n"
            "                          sampling; 0 = off), min-spp=N, integrator=path|whitted|light|\n"
            "                          sppm (light and sppm count --max-spp in passes, on one device),\n"
            "                          photons=N (sppm's photons per pass); keys left out keep the scene's\n"
            "                          setting; \"default\" is the scene's settings alone. Default:\n"
            "                          independent and sobol x power and tree, and sobol+tree with\n"
            "                          threshold=0.01\n"
            "  --targets LIST          relMSE targets, e.g. 1e-2,3e-3,1e-3 (the default)\n"
            "  --max-spp N             the ladder's last step (default 65536 on CUDA, 256 on the CPU)\n"
            "  --max-seconds S         no step predicted to end past S seconds of tracing (default 60;\n"
            "                          0 = no limit); the ladder also ends once both errors have\n"
            "                          reached the smallest target\n"
            "  --reference FILE[,..]   reference images (.exr or .pfm), one per scene, instead of\n"
            "                          rendering them; an .exr with a variance layer (render --aov\n"
            "                          variance) gives the reference's own error\n"
            "  --mask FILE[,..]        a region per scene (an image of the render's size: PNG, JPEG, .hdr,\n"
            "                          .exr or .pfm; nonzero = inside): every error, the reference's\n"
            "                          own included, is measured over its pixels alone\n"
            "  --reference-spp N       samples of a rendered reference (default 65536 on CUDA, 1024 on\n"
            "                          the CPU), traced with the Sobol sampler and the light tree\n"
            "                          (unbiased, fastest) and a seed of its own, kept as PFM for reruns\n"
            "  --reference-cache DIR   where rendered references are kept (default: the folder of\n"
            "                          --json, else of --csv; neither: not kept)\n"
            "  --external BINARY       measure another raystream build instead: BINARY render SCENE\n"
            "                          --spp N ... -o TMP.pfm per step, timed by its \"done in\" line;\n"
            "                          --configs are then passed as --sampler, --light-sampler,\n"
            "                          --noise-threshold, --min-spp, --integrator, --photons (default:\n"
            "                          none, the binary's own)\n"
            "  --json FILE, --csv FILE results with metadata (device, commit, scene hashes)\n"
            "  --width W --height H    default the scene's resolution (CUDA), 160 wide on the CPU\n"
            "  --max-depth, --seed, --backend, --devices, --threads, --sampler, --light-sampler,\n"
            "  --noise-threshold, --min-spp, --integrator, --photons, --sppm-radius, --sppm-alpha,\n"
            "  --quiet: as for render\n");
}

/* "a,b,c" into items (pointing into storage); -1 when there are too many or one is empty. */
static int split(const char* option, const char* text, char sep, char** items, int max, char* storage,
                 size_t storage_size)
{
    if (strlen(text) >= storage_size) {
        rs_cli_error("%s: the list is too long", option);
        return -1;
    }
    memcpy(storage, text, strlen(text) + 1);
    int n = 0;
    char* p = storage;
    for (;;) {
        char* end = strchr(p, sep);
        if (end)
            *end = '\0';
        if (!*p) {
            rs_cli_error("%s: empty item in '%s'", option, text);
            return -1;
        }
        if (n == max) {
            rs_cli_error("%s: at most %d items", option, max);
            return -1;
        }
        items[n++] = p;
        if (!end)
            return n;
        p = end + 1;
    }
}

static int parse_config(const char* text, RsQualityConfig* c)
{
    memset(c, 0, sizeof c[0]);
    snprintf(c->text, sizeof c->text, "%s", text);
    if (strcmp(text, "default") == 0)
        return 0;
    char storage[256];
    char* keys[8];
    int n = split("--configs", text, ',', keys, 8, storage, sizeof storage);
    if (n < 0)
        return -1;
    for (int k = 0; k < n; ++k) {
        char* eq = strchr(keys[k], '=');
        if (!eq) {
            rs_cli_error("--configs: '%s' in '%s' is not KEY=VALUE (keys: sampler, light, threshold, min-spp, "
                         "integrator, photons)",
                         keys[k], text);
            return -1;
        }
        *eq = '\0';
        const char *key = keys[k], *value = eq + 1;
        if (strcmp(key, "sampler") == 0) {
            if (rs_sampler_parse(value, &c->sampler)) {
                rs_cli_error("--configs: unknown sampler '%s' in '%s' (expected one of: %s)", value, text,
                             rs_sampler_list());
                return -1;
            }
            c->sampler_set = 1;
        } else if (strcmp(key, "light") == 0 || strcmp(key, "light-sampler") == 0) {
            if (rs_light_sampler_parse(value, &c->light_sampler)) {
                rs_cli_error("--configs: unknown light sampler '%s' in '%s' (expected one of: %s)", value, text,
                             rs_light_sampler_list());
                return -1;
            }
            c->light_set = 1;
        } else if (strcmp(key, "threshold") == 0 || strcmp(key, "noise-threshold") == 0) {
            double t;
            if (rs_cli_float("--configs: threshold", value, 0.0, RS_MAX_NOISE_THRESHOLD, &t))
                return -1;
            c->noise_threshold = (float)t;
            c->threshold_set = 1;
        } else if (strcmp(key, "min-spp") == 0) {
            uint64_t v;
            if (rs_cli_uint("--configs: min-spp", value, 1, RS_SCENE_MAX_SPP, &v))
                return -1;
            c->min_spp = (uint32_t)v;
            c->min_spp_set = 1;
        } else if (strcmp(key, "integrator") == 0) {
            if (rs_integrator_parse(value, &c->integrator)) {
                rs_cli_error("--configs: unknown integrator '%s' in '%s' (expected path, whitted, light or sppm)",
                             value, text);
                return -1;
            }
            c->integrator_set = 1;
        } else if (strcmp(key, "photons") == 0) {
            uint64_t v; /* --photons' range */
            if (rs_cli_uint("--configs: photons", value, 1, 1u << 30, &v))
                return -1;
            c->photons = (uint32_t)v;
        } else {
            rs_cli_error("--configs: unknown key '%s' in '%s' (expected sampler, light, threshold, min-spp, "
                         "integrator or photons)",
                         key, text);
            return -1;
        }
    }
    return 0;
}

static int parse_configs(const char* text, RsQualityOptions* o)
{
    char storage[4096];
    char* items[RS_QUALITY_MAX_CONFIGS];
    int n = split("--configs", text, ';', items, RS_QUALITY_MAX_CONFIGS, storage, sizeof storage);
    if (n < 0)
        return -1;
    for (int i = 0; i < n; ++i)
        if (parse_config(items[i], &o->configs[i]))
            return -1;
    o->config_count = n;
    return 0;
}

static int parse_targets(const char* text, RsQualityOptions* o)
{
    char storage[1024];
    char* items[RS_QUALITY_MAX_TARGETS];
    int n = split("--targets", text, ',', items, RS_QUALITY_MAX_TARGETS, storage, sizeof storage);
    if (n < 0)
        return -1;
    for (int i = 0; i < n; ++i) {
        char* end = NULL;
        double t = strtod(items[i], &end);
        if (end == items[i] || *end != '\0' || !isfinite(t) || t <= 0.0 || t >= 1e6) {
            rs_cli_error("--targets: expected positive relMSE values such as 1e-2,3e-3,1e-3, got '%s'", items[i]);
            return -1;
        }
        o->targets[i] = t;
    }
    o->target_count = n;
    return 0;
}

/* Options a rendering command shares, kept as given so that --external's render gets them too
 * (a configuration's own settings follow them there, and so win). */
static int remember_pass(RsQualityOptions* o, char** argv, int first, int last)
{
    static const char* const handed_on[] = {"--backend",   "--devices",      "--threads",         "--integrator",
                                            "--accel",     "--deadray",      "--payload",         "--trace-kernel",
                                            "--sort-rays", "--sort-materials", "--sbvh",         "--no-sbvh",         "--no-camera-tree",         "--sah-bins",        "--max-memory",
                                            "--sampler",   "--light-sampler", "--noise-threshold", "--min-spp",
                                            "--photons",   "--sppm-radius",  "--sppm-alpha"};
    const char* arg = argv[first];
    for (size_t k = 0; k < sizeof handed_on / sizeof handed_on[0]; ++k) {
        size_t len = strlen(handed_on[k]);
        if (strncmp(arg, handed_on[k], len) != 0 || (arg[len] != '\0' && arg[len] != '='))
            continue;
        for (int i = first; i <= last; ++i) {
            if (o->pass_count == RS_QUALITY_MAX_PASS) {
                rs_cli_error("bench-quality: too many rendering options for --external");
                return -1;
            }
            o->pass[o->pass_count++] = argv[i];
        }
    }
    return 0;
}

int rs_quality_parse_args(int argc, char** argv, RsQualityOptions* o)
{
    memset(o, 0, sizeof *o);
    rs_common_options_init(&o->common);
    o->max_seconds = -1.0;
    for (int i = 0; i < argc; ++i) {
        int missing = 0, first = i;
        const char* v;
        uint64_t n;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            rs_quality_usage(stdout);
            return 1;
        } else if ((v = rs_cli_value(argc, argv, &i, "--scenes", NULL, &missing))) {
            o->scene_count = split("--scenes", v, ',', (char**)o->scenes, RS_QUALITY_MAX_SCENES, o->scene_storage,
                                   sizeof o->scene_storage);
            if (o->scene_count < 0)
                return -1;
        } else if ((v = rs_cli_value(argc, argv, &i, "--reference", NULL, &missing))) {
            o->reference_count = split("--reference", v, ',', (char**)o->references, RS_QUALITY_MAX_SCENES,
                                       o->reference_storage, sizeof o->reference_storage);
            if (o->reference_count < 0)
                return -1;
        } else if ((v = rs_cli_value(argc, argv, &i, "--mask", NULL, &missing))) {
            o->mask_count = split("--mask", v, ',', (char**)o->masks, RS_QUALITY_MAX_SCENES, o->mask_storage,
                                  sizeof o->mask_storage);
            if (o->mask_count < 0)
                return -1;
        } else if ((v = rs_cli_value(argc, argv, &i, "--configs", NULL, &missing))) {
            if (parse_configs(v, o))
                return -1;
        } else if ((v = rs_cli_value(argc, argv, &i, "--targets", NULL, &missing))) {
            if (parse_targets(v, o))
                return -1;
        } else if ((v = rs_cli_value(argc, argv, &i, "--max-spp", NULL, &missing))) {
            if (rs_cli_uint("--max-spp", v, 1, RS_SCENE_MAX_SPP, &n))
                return -1;
            o->max_spp = (uint32_t)n;
        } else if ((v = rs_cli_value(argc, argv, &i, "--reference-spp", NULL, &missing))) {
            if (rs_cli_uint("--reference-spp", v, 2, RS_SCENE_MAX_SPP, &n))
                return -1;
            o->reference_spp = (uint32_t)n;
        } else if ((v = rs_cli_value(argc, argv, &i, "--max-seconds", NULL, &missing))) {
            if (rs_cli_float("--max-seconds", v, 0.0, 1e7, &o->max_seconds))
                return -1;
        } else if ((v = rs_cli_value(argc, argv, &i, "--json", NULL, &missing))) {
            if (rs_cli_path("--json", v))
                return -1;
            o->json = v;
        } else if ((v = rs_cli_value(argc, argv, &i, "--csv", NULL, &missing))) {
            if (rs_cli_path("--csv", v))
                return -1;
            o->csv = v;
        } else if ((v = rs_cli_value(argc, argv, &i, "--reference-cache", NULL, &missing))) {
            if (rs_cli_path("--reference-cache", v))
                return -1;
            o->cache_dir = v;
        } else if ((v = rs_cli_value(argc, argv, &i, "--external", NULL, &missing))) {
            if (rs_cli_path("--external", v))
                return -1;
            o->external = v;
        } else if (missing) {
            return -1;
        } else {
            int common = rs_common_option(argc, argv, &i, &o->common);
            if (common < 0)
                return -1;
            if (common == 0) {
                rs_cli_error("bench-quality: unknown argument '%s' (see raystream bench-quality --help)", argv[i]);
                return -1;
            }
            if (strcmp(argv[first], "--spp") == 0 || strncmp(argv[first], "--spp=", 6) == 0) {
                rs_cli_error("--spp: bench-quality takes --max-spp (the ladder's last step) and --reference-spp");
                return -1;
            }
            if (remember_pass(o, argv, first, i))
                return -1;
        }
    }
    if (o->reference_count && o->reference_count != (o->scene_count ? o->scene_count : 1)) {
        rs_cli_error("--reference: %d files for %d scenes; give one per scene, in the order of --scenes",
                     o->reference_count, o->scene_count ? o->scene_count : 1);
        return -1;
    }
    if (o->mask_count && o->mask_count != (o->scene_count ? o->scene_count : 1)) {
        rs_cli_error("--mask: %d files for %d scenes; give one per scene, in the order of --scenes", o->mask_count,
                     o->scene_count ? o->scene_count : 1);
        return -1;
    }
    if (o->target_count == 0) {
        o->targets[0] = 1e-2;
        o->targets[1] = 3e-3;
        o->targets[2] = 1e-3;
        o->target_count = 3;
    }
    if (o->config_count == 0 && !o->external &&
        parse_configs("sampler=independent,light=power;sampler=independent,light=tree;"
                      "sampler=sobol,light=power;sampler=sobol,light=tree;"
                      "sampler=sobol,light=tree,threshold=0.01",
                      o))
        return -1;
    return 0;
}

void rs_quality_label(const RsRenderDesc* rd, const RsQualityConfig* config, char* out, size_t size)
{
    char integrator[64] = "";
    if (rd->integrator != RS_INTEGRATOR_PATH || (config && config->integrator_set)) {
        if (config && config->photons)
            snprintf(integrator, sizeof integrator, "%s %u photons+", rs_integrator_name(rd->integrator),
                     config->photons);
        else
            snprintf(integrator, sizeof integrator, "%s+", rs_integrator_name(rd->integrator));
    }
    int n = snprintf(out, size, "%s%s+%s", integrator, rs_sampler_name(rd->sampler),
                     rs_light_sampler_name(rd->light_sampler));
    if (rd->noise_threshold > 0.0f && n >= 0 && (size_t)n < size)
        snprintf(out + n, size - (size_t)n, "+adaptive %g (min %u spp)", rd->noise_threshold, rd->min_spp);
}
