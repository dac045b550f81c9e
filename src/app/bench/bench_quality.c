/* bench_quality.c - `raystream bench-quality`: how soon the noise goes. For each scene a
 * reference image, then for each configuration (sampler x light sampler x adaptive sampling x
 * integrator) the error against it after 1, 2, 4, ... samples per pixel (passes for the particle
 * integrators) with the tracing time, and the time at which each target error is first reached,
 * over the whole image or a --mask region (docs/benchmarks.md, "Error against time").
 *
 * Host C11, application layer. The parts are listed in bench_quality.h; this file runs them in
 * order and writes the results: a table on stdout, JSON with the run's metadata (bench_meta.c:
 * device, commit, scene hashes) and a CSV of every point. A configuration that fails (a method
 * this build does not have yet, say) is reported with its message and the others still run; the
 * exit status is then 1.
 */
#define _POSIX_C_SOURCE 200809L
#include <cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/bench/bench_meta.h"
#include "app/bench/bench_quality.h"
#include "app/commands.h"
#include "app/scenes_dir.h"
#include "host/import/scene_loader.h"
#include "host/scene/settings.h"

static void record_device(void* ctx, const RsRenderer* renderer) { rs_bench_meta_device(ctx, renderer); }

static void add_or_null(cJSON* o, const char* name, double v, int known)
{
    if (known && isfinite(v))
        cJSON_AddNumberToObject(o, name, v);
    else
        cJSON_AddNullToObject(o, name);
}

static void smallest_errors(const RsQualityRun* runs, int count, double* plain, double* trimmed)
{
    *plain = *trimmed = INFINITY;
    for (int c = 0; c < count; ++c)
        for (int k = 0; k < runs[c].count; ++k) {
            const RsQualityError* e = &runs[c].points[k].error;
            *plain = e->relmse < *plain ? e->relmse : *plain;
            *trimmed = e->relmse_trimmed < *trimmed ? e->relmse_trimmed : *trimmed;
        }
}

/* The time to each target, plain and trimmed; -1 = not reached. */
static void times_to(const RsQualityOptions* o, const RsQualityRun* run, double* plain, double* trimmed)
{
    double seconds[RS_QUALITY_MAX_POINTS], e[RS_QUALITY_MAX_POINTS], et[RS_QUALITY_MAX_POINTS];
    for (int k = 0; k < run->count; ++k) {
        seconds[k] = run->points[k].seconds;
        e[k] = run->points[k].error.relmse;
        et[k] = run->points[k].error.relmse_trimmed;
    }
    for (int t = 0; t < o->target_count; ++t) {
        plain[t] = rs_quality_time_to(seconds, e, run->count, o->targets[t]);
        trimmed[t] = rs_quality_time_to(seconds, et, run->count, o->targets[t]);
    }
}

static cJSON* reference_json(const RsQualityReference* ref, double smallest, double smallest_trimmed, int* adequate)
{
    cJSON* r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "source", ref->source);
    if (ref->file[0])
        cJSON_AddStringToObject(r, "file", ref->file);
    else
        cJSON_AddNullToObject(r, "file");
    int rendered = strcmp(ref->source, "given") != 0;
    add_or_null(r, "spp", ref->spp, rendered);
    add_or_null(r, "seed", ref->seed, rendered);
    if (rendered)
        cJSON_AddStringToObject(r, "key", ref->key);
    add_or_null(r, "seconds", ref->seconds, strcmp(ref->source, "rendered") == 0);
    cJSON_AddNumberToObject(r, "epsilon", RS_QUALITY_EPSILON);
    if (ref->has_estimate)
        cJSON_AddStringToObject(r, "estimate_from", ref->estimate_from);
    else
        cJSON_AddNullToObject(r, "estimate_from");
    add_or_null(r, "relmse_estimate", ref->estimate.relmse, ref->has_estimate);
    add_or_null(r, "relmse_trimmed_estimate", ref->estimate.relmse_trimmed, ref->has_estimate);
    cJSON_AddNumberToObject(r, "nonfinite_pixels", (double)ref->estimate.nonfinite);
    int known = ref->has_estimate && isfinite(smallest) && smallest > 0.0 && smallest_trimmed > 0.0;
    double ratio = known ? ref->estimate.relmse / smallest : NAN;
    double ratio_trimmed = known ? ref->estimate.relmse_trimmed / smallest_trimmed : NAN;
    add_or_null(r, "smallest_relmse", smallest, isfinite(smallest));
    add_or_null(r, "smallest_relmse_trimmed", smallest_trimmed, isfinite(smallest_trimmed));
    add_or_null(r, "ratio_to_smallest", ratio, known);
    add_or_null(r, "ratio_trimmed_to_smallest", ratio_trimmed, known);
    *adequate = known ? (ratio <= 0.1 && ratio_trimmed <= 0.1) : -1;
    if (*adequate < 0)
        cJSON_AddNullToObject(r, "adequate");
    else
        cJSON_AddBoolToObject(r, "adequate", *adequate);
    return r;
}

static cJSON* run_json(const RsQualityOptions* o, const RsQualityRun* run, const RsQualityConfig* config)
{
    cJSON* c = cJSON_CreateObject();
    cJSON_AddStringToObject(c, "label", run->label);
    if (config)
        cJSON_AddStringToObject(c, "config", config->text);
    else
        cJSON_AddNullToObject(c, "config");
    if (o->external)
        cJSON_AddStringToObject(c, "external", o->external);
    else
        cJSON_AddNullToObject(c, "external");
    int known = run->settings_known;
    if (known || (config && config->sampler_set))
        cJSON_AddStringToObject(c, "sampler", rs_sampler_name(run->rd.sampler));
    else
        cJSON_AddNullToObject(c, "sampler");
    if (known || (config && config->light_set))
        cJSON_AddStringToObject(c, "light_sampler", rs_light_sampler_name(run->rd.light_sampler));
    else
        cJSON_AddNullToObject(c, "light_sampler");
    add_or_null(c, "noise_threshold", run->rd.noise_threshold, known || (config && config->threshold_set));
    add_or_null(c, "min_spp", run->rd.min_spp, known || (config && config->min_spp_set));
    if (known || (config && config->integrator_set))
        cJSON_AddStringToObject(c, "integrator", rs_integrator_name(run->rd.integrator));
    else
        cJSON_AddNullToObject(c, "integrator");
    /* photons per pass: what ran here, else what the configuration asked the external binary for */
    uint32_t photons = run->photons ? run->photons : config ? config->photons : 0;
    add_or_null(c, "photons", photons, photons > 0);
    if (run->error[0])
        cJSON_AddStringToObject(c, "error", run->error);
    else
        cJSON_AddNullToObject(c, "error");
    if (run->stopped)
        cJSON_AddStringToObject(c, "stopped", run->stopped);
    else
        cJSON_AddNullToObject(c, "stopped");
    cJSON* points = cJSON_AddArrayToObject(c, "points");
    for (int k = 0; k < run->count; ++k) {
        const RsQualityPoint* p = &run->points[k];
        cJSON* j = cJSON_CreateObject();
        cJSON_AddNumberToObject(j, "spp", p->spp);
        cJSON_AddNumberToObject(j, "seconds", p->seconds);
        cJSON_AddNumberToObject(j, "rays", (double)p->rays);
        add_or_null(j, "relmse", p->error.relmse, 1);
        add_or_null(j, "relmse_trimmed", p->error.relmse_trimmed, 1);
        cJSON_AddNumberToObject(j, "pixels_compared", (double)p->error.compared);
        cJSON_AddNumberToObject(j, "pixels_trimmed", (double)p->error.trimmed);
        cJSON_AddNumberToObject(j, "missing_pixels", (double)p->error.missing);
        cJSON_AddNumberToObject(j, "nonfinite_pixels", (double)p->error.nonfinite);
        cJSON_AddItemToArray(points, j);
    }
    double plain[RS_QUALITY_MAX_TARGETS], trimmed[RS_QUALITY_MAX_TARGETS];
    times_to(o, run, plain, trimmed);
    cJSON* times = cJSON_AddArrayToObject(c, "time_to_target");
    for (int t = 0; t < o->target_count; ++t) {
        cJSON* j = cJSON_CreateObject();
        cJSON_AddNumberToObject(j, "target", o->targets[t]);
        add_or_null(j, "seconds", plain[t], plain[t] >= 0.0);
        add_or_null(j, "seconds_trimmed", trimmed[t], trimmed[t] >= 0.0);
        cJSON_AddItemToArray(times, j);
    }
    return c;
}

static void print_table(const RsQualityOptions* o, const RsQualityScene* qs, const RsQualityReference* ref,
                        const RsQualityRun* runs, int count, int adequate)
{
    printf("\n%s: %ux%u, depth %u; reference: %s", qs->path, qs->rd.width, qs->rd.height, qs->rd.max_depth,
           ref->source);
    if (strcmp(ref->source, "given") != 0)
        printf(", %u spp", ref->spp);
    if (ref->has_estimate)
        printf(", its own relMSE %.3g (trimmed %.3g)%s", ref->estimate.relmse, ref->estimate.relmse_trimmed,
               adequate > 0 ? "" : adequate == 0 ? " - NOT below a tenth of the smallest error" : "");
    if (qs->mask)
        printf("\nregion: mask %s, %llu of %llu pixels (every error below is over these alone)", qs->mask_path,
               (unsigned long long)qs->mask_pixels, (unsigned long long)qs->rd.width * qs->rd.height);
    printf("\n%-40s %7s %9s %10s %10s", "configuration", "spp", "seconds", "relMSE", "trimmed");
    for (int t = 0; t < o->target_count; ++t) {
        char head[32];
        snprintf(head, sizeof head, "s to %.0e", o->targets[t]);
        printf(" %15s", head);
    }
    printf("\n");
    for (int c = 0; c < count; ++c) {
        const RsQualityRun* run = &runs[c];
        printf("%-40.40s", run->label);
        if (run->count == 0) {
            printf(" failed: %s\n", run->error);
            continue;
        }
        const RsQualityPoint* p = &run->points[run->count - 1];
        printf(" %7u %9.4f %10.3e %10.3e", p->spp, p->seconds, p->error.relmse, p->error.relmse_trimmed);
        double plain[RS_QUALITY_MAX_TARGETS], trimmed[RS_QUALITY_MAX_TARGETS];
        times_to(o, run, plain, trimmed);
        for (int t = 0; t < o->target_count; ++t) {
            char cell[40], a[16] = "-", b[16] = "-";
            if (plain[t] >= 0.0)
                snprintf(a, sizeof a, "%.3g", plain[t]);
            if (trimmed[t] >= 0.0)
                snprintf(b, sizeof b, "%.3g", trimmed[t]);
            snprintf(cell, sizeof cell, "%s/%s", a, b);
            printf(" %15s", cell);
        }
        printf(run->error[0] ? "  (then failed: %s)\n" : "\n", run->error);
    }
    printf("(seconds to a target: plain/trimmed; - = not reached)\n");
    fflush(stdout);
}

static void csv_rows(FILE* csv, const RsQualityOptions* o, const RsQualityScene* qs, const RsQualityRun* run,
                     const RsQualityConfig* config)
{
    if (!csv)
        return;
    int known = run->settings_known;
    for (int k = 0; k < run->count; ++k) {
        const RsQualityPoint* p = &run->points[k];
        fprintf(csv, "%s,\"%s\",%s,%s,%s,", qs->path, run->label, o->external ? o->external : "",
                known || (config && config->sampler_set) ? rs_sampler_name(run->rd.sampler) : "",
                known || (config && config->light_set) ? rs_light_sampler_name(run->rd.light_sampler) : "");
        if (known || (config && config->threshold_set))
            fprintf(csv, "%g", run->rd.noise_threshold);
        fputc(',', csv);
        if (known || (config && config->min_spp_set))
            fprintf(csv, "%u", run->rd.min_spp);
        fprintf(csv, ",%u,%.6f,%llu,%.6e,%.6e,%llu,%llu,", p->spp, p->seconds, (unsigned long long)p->rays,
                p->error.relmse, p->error.relmse_trimmed, (unsigned long long)p->error.missing,
                (unsigned long long)p->error.nonfinite);
        /* appended columns: integrator, photons, mask, mask_pixels (empty: unknown, or the whole image) */
        if (known || (config && config->integrator_set))
            fputs(rs_integrator_name(run->rd.integrator), csv);
        uint32_t photons = run->photons ? run->photons : config ? config->photons : 0;
        fputc(',', csv);
        if (photons)
            fprintf(csv, "%u", photons);
        if (qs->mask)
            fprintf(csv, ",\"%s\",%llu\n", qs->mask_path, (unsigned long long)qs->mask_pixels);
        else
            fputs(",,\n", csv);
    }
    fflush(csv);
}

/* Measures every configuration of one loaded scene; adds its JSON, CSV rows and table. Returns
 * 0, or -1 when something failed (printed). */
static int measure_scene(const RsQualityOptions* o, int index, RsQualityScene* qs, BenchMeta* meta, FILE* csv)
{
    RsError err = {{0}};
    RsQualityReference ref;
    if (rs_quality_reference(o, index, qs, &ref, &err)) {
        rs_cli_error("%s: reference: %s", qs->path, err.message);
        return -1;
    }
    int count = o->config_count ? o->config_count : 1, status = 0;
    RsQualityRun* runs = calloc((size_t)count, sizeof *runs);
    if (!runs) {
        rs_quality_reference_free(&ref);
        rs_cli_error("out of memory");
        return -1;
    }
    for (int c = 0; c < count; ++c) {
        const RsQualityConfig* config = o->config_count ? &o->configs[c] : NULL;
        RsQualityRun* run = &runs[c];
        run->rd = qs->rd;
        rs_error_clear(&err);
        int failed;
        if (o->external) {
            snprintf(run->label, sizeof run->label, "external%s%s", config ? " " : "", config ? config->text : "");
            rs_quality_config_over(config, &run->rd); /* what it sets; the binary's own defaults otherwise */
            if (config && config->photons && run->rd.integrator != RS_INTEGRATOR_SPPM)
                failed = rs_error_set(&err, "photons=%u: photons per pass are sppm's; add integrator=sppm",
                                      config->photons);
            else
                failed = rs_quality_run_external(o, qs, config, &ref, run, &err);
        } else {
            run->settings_known = 1;
            failed = !qs->scene.built
                         ? rs_error_set(&err, "the scene's light selection could not be rebuilt after a failure")
                         : rs_quality_apply(qs, config, &run->rd, &err);
            rs_quality_label(&run->rd, config, run->label, sizeof run->label);
            if (!failed)
                failed = rs_quality_run_here(o, qs, &run->rd, config, &ref, record_device, meta, run, &err);
        }
        if (failed) {
            snprintf(run->error, sizeof run->error, "%s", err.message);
            run->stopped = "error";
            rs_cli_error("%s: %s: %s", qs->path, run->label, err.message);
            status = -1;
        }
    }
    if (!meta->devices_recorded) { /* --external, or nothing ran here: name the device all the same */
        RsRenderer* r = rs_renderer_create(&qs->scene, &qs->renderer, &err);
        if (r)
            rs_bench_meta_device(meta, r);
        rs_renderer_destroy(r);
    }
    double smallest, smallest_trimmed;
    smallest_errors(runs, count, &smallest, &smallest_trimmed);
    int adequate;
    cJSON* result = cJSON_CreateObject();
    cJSON_AddStringToObject(result, "scene", qs->path);
    cJSON_AddNumberToObject(result, "width", qs->rd.width);
    cJSON_AddNumberToObject(result, "height", qs->rd.height);
    cJSON_AddNumberToObject(result, "max_depth", qs->rd.max_depth);
    cJSON_AddNumberToObject(result, "seed", qs->rd.seed);
    cJSON_AddStringToObject(result, "integrator", rs_integrator_name(qs->rd.integrator));
    char region[RS_PATH_BYTES + 64];
    if (qs->mask)
        snprintf(region, sizeof region, "mask %s, %llu pixels", qs->mask_path, (unsigned long long)qs->mask_pixels);
    else
        snprintf(region, sizeof region, "image, %llu pixels", (unsigned long long)qs->rd.width * qs->rd.height);
    cJSON_AddStringToObject(result, "region", region);
    if (qs->mask)
        cJSON_AddStringToObject(result, "mask", qs->mask_path);
    else
        cJSON_AddNullToObject(result, "mask");
    add_or_null(result, "mask_pixels", (double)qs->mask_pixels, qs->mask != NULL);
    cJSON_AddItemToObject(result, "reference", reference_json(&ref, smallest, smallest_trimmed, &adequate));
    cJSON* configs = cJSON_AddArrayToObject(result, "configurations");
    for (int c = 0; c < count; ++c) {
        const RsQualityConfig* config = o->config_count ? &o->configs[c] : NULL;
        cJSON_AddItemToArray(configs, run_json(o, &runs[c], config));
        csv_rows(csv, o, qs, &runs[c], config);
    }
    cJSON_AddItemToArray(meta->results, result);
    print_table(o, qs, &ref, runs, count, adequate);
    if (adequate == 0) {
        double ratio = fmax(ref.estimate.relmse / smallest, ref.estimate.relmse_trimmed / smallest_trimmed);
        double need = ref.spp * ratio / 0.1;
        rs_cli_warning("%s: the reference's own relMSE (%.3g, trimmed %.3g) is not at most a tenth of the smallest "
                       "error measured (%.3g, trimmed %.3g); %s",
                       qs->path, ref.estimate.relmse, ref.estimate.relmse_trimmed, smallest, smallest_trimmed,
                       strcmp(ref.source, "given") == 0 ? "give a less noisy reference"
                                                         : "raise --reference-spp");
        if (strcmp(ref.source, "given") != 0)
            rs_cli_note("%s: about %.0f reference spp would do", qs->path, ceil(need));
    } else if (adequate < 0 && !ref.has_estimate) {
        rs_cli_warning("%s: the reference's own error cannot be estimated (a .pfm, or an .exr without a variance "
                       "layer; render it with --aov variance)",
                       qs->path);
    }
    rs_quality_reference_free(&ref);
    free(runs);
    return status;
}

/* Loads a scene, checking the result files against every file it reads (*clash: they meet), and
 * settles its settings: the command line's over the scene file's; on the CPU without
 * --width/--height, 160 pixels wide. */
static int load_scene(const RsQualityOptions* o, int index, RsQualityScene* qs, int* clash, RsError* err)
{
    memset(qs, 0, sizeof *qs);
    const char* path = o->scenes[index];
    qs->path = path;
    qs->renderer = rs_common_renderer_config(&o->common);
    RsAccelOptions accel = rs_common_accel(&o->common);
    if (rs_bench_load_scene(path, &accel, o->json, o->csv, &qs->scene, &qs->files, clash, err))
        return -1;
    RsRenderDesc rd = qs->scene.render;
    if (!o->common.width && !o->common.height && !rs_backend_is_cuda(&o->common.backend) && rd.width > 160) {
        rd.height = (uint32_t)fmax(1.0, floor(160.0 * rd.height / rd.width + 0.5));
        rd.width = 160;
    }
    rs_common_options_apply(&o->common, &rd);
    qs->rd = rd;
    if (rs_quality_apply(qs, NULL, &qs->rd, err))
        return -1;
    return rs_quality_mask_load(o, index, qs, err);
}

static void add_meta(BenchMeta* meta, const RsQualityOptions* o)
{
    cJSON* m = cJSON_GetObjectItem(meta->root, "meta");
    cJSON_DeleteItemFromObject(m, "frames");
    cJSON_DeleteItemFromObject(m, "warmup_frames");
    cJSON_DeleteItemFromObject(m, "seed"); /* each scene's own, in its result */
    cJSON_AddStringToObject(m, "benchmark", "bench-quality");
    cJSON_AddNumberToObject(m, "epsilon", RS_QUALITY_EPSILON);
    cJSON_AddNumberToObject(m, "trim_fraction", RS_QUALITY_TRIM);
    cJSON* t = cJSON_AddArrayToObject(m, "targets");
    for (int i = 0; i < o->target_count; ++i)
        cJSON_AddItemToArray(t, cJSON_CreateNumber(o->targets[i]));
    cJSON_AddNumberToObject(m, "max_spp", o->max_spp);
    cJSON_AddNumberToObject(m, "max_seconds", o->max_seconds);
    cJSON_AddNumberToObject(m, "reference_spp", o->reference_spp);
    if (o->external)
        cJSON_AddStringToObject(m, "external", o->external);
    else
        cJSON_AddNullToObject(m, "external");
}

int rs_cmd_bench_quality(int argc, char** argv)
{
    RsQualityOptions* o = malloc(sizeof *o);
    if (!o) {
        rs_cli_error("out of memory");
        return RS_EXIT_FAILURE;
    }
    int parsed = rs_quality_parse_args(argc, argv, o);
    if (parsed) {
        free(o);
        return parsed > 0 ? RS_EXIT_OK : RS_EXIT_USAGE;
    }
    if (o->scene_count == 0)
        o->scenes[o->scene_count++] = rs_default_scene("cornell.json");
    int cuda = rs_backend_is_cuda(&o->common.backend);
    if (!o->max_spp)
        o->max_spp = cuda ? 65536 : 256;
    if (!o->reference_spp)
        o->reference_spp = cuda ? 65536 : 1024;
    if (o->max_seconds < 0.0)
        o->max_seconds = 60.0;
    RsError err = {{0}};
    RsRendererConfig rc = rs_common_renderer_config(&o->common);
    int device_ids[RS_MAX_DEVICES], devices = 0;
    if (rs_renderer_resolve_devices(&rc, device_ids, &devices, &err)) {
        rs_cli_error("%s", err.message);
        free(o);
        return RS_EXIT_USAGE;
    }
    if (o->external && strchr(o->external, '/') && access(o->external, X_OK) != 0) {
        rs_cli_error("--external: cannot run '%s' (not an executable file)", o->external);
        free(o);
        return RS_EXIT_USAGE;
    }
    /* the result files against each other and the scenes before anything runs, then against
     * every file each scene reads (rs_bench_load_scene); the CSV goes through a temporary name */
    if (rs_bench_check_paths(o->json, o->csv, (const char* const*)o->scenes, o->scene_count, NULL, &err)) {
        rs_cli_error("%s", err.message);
        free(o);
        return RS_EXIT_FAILURE;
    }
    BenchMeta meta;
    FILE* csv = NULL;
    if (rs_bench_meta_open(&meta, &o->common, o->json, NULL, 0, 0, &err) ||
        (o->csv && !(csv = rs_bench_csv_open(o->csv,
                                             "scene,configuration,external,sampler,light_sampler,noise_threshold,"
                                             "min_spp,spp,seconds,rays,relmse,relmse_trimmed,missing_pixels,"
                                             "nonfinite_pixels,integrator,photons,mask,mask_pixels\n",
                                             &err)))) {
        rs_cli_error("%s", err.message);
        meta.json_path = NULL; /* nothing measured: no file */
        rs_bench_meta_close(&meta, &err);
        free(o);
        return RS_EXIT_FAILURE;
    }
    add_meta(&meta, o);
    int status = RS_EXIT_OK, clash = 0;
    for (int si = 0; si < o->scene_count; ++si) {
        RsQualityScene qs;
        rs_error_clear(&err);
        if (load_scene(o, si, &qs, &clash, &err)) {
            rs_cli_error("%s", err.message);
            status = RS_EXIT_FAILURE;
        } else {
            rs_bench_meta_scene(&meta, qs.path, &qs.scene);
            if (measure_scene(o, si, &qs, &meta, csv))
                status = RS_EXIT_FAILURE;
        }
        rs_scene_free(&qs.scene);
        rs_file_list_free(&qs.files);
        free(qs.mask);
        if (clash)
            break; /* a result file is an input: write nothing */
    }
    rs_error_clear(&err);
    if (csv && rs_bench_csv_close(csv, o->csv, !clash, &err)) {
        rs_cli_error("%s", err.message);
        status = RS_EXIT_FAILURE;
    }
    rs_error_clear(&err);
    if (clash) {
        rs_bench_meta_discard(&meta);
    } else if (rs_bench_meta_close(&meta, &err)) {
        rs_cli_error("%s", err.message);
        status = RS_EXIT_FAILURE;
    }
    free(o);
    return status;
}
