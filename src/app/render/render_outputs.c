/* render_outputs.c - writing render's outputs (see render_outputs.h). Host C11, application
 * layer. The AOV layers are computed on the host from the film read back (aov.h's
 * rs_film_layer, the function the devices use for the viewer), the denoised beauty on the
 * first device (rs_renderer_image), PNG bytes by the display pipeline. */
#include "app/render/render_outputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/cli.h"
#include "host/backend/cpu/denoise_cpu.h"
#include "host/io/exr_io.h"
#include "host/io/image_io.h"
#include "version.h"

static void insert_before_extension(const char* path, const char* tag, char* out, size_t size)
{
    const char* dot = strrchr(path, '.');
    const char* slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash))
        snprintf(out, size, "%s.%s", path, tag);
    else
        snprintf(out, size, "%.*s.%s%s", (int)(dot - path), path, tag, dot);
}

void rs_render_partial_name(const char* path, char* out, size_t size) { insert_before_extension(path, "partial", out, size); }

void rs_render_noisy_name(const char* path, char* out, size_t size) { insert_before_extension(path, "noisy", out, size); }

int rs_render_list_paths(const RsRenderArgs* a, RsPathSet* paths, RsError* err)
{
    for (int i = 0; i < a->output_count; ++i) {
        const char* out = a->outputs[i];
        RsImageFormat format;
        if (rs_image_format_from_path(out, &format, err))
            return -1;
        char name[RS_PATH_BYTES], role[RS_PATH_BYTES + 96];
        if (rs_path_set_write(paths, out, "output (-o)", err))
            return -1;
        rs_render_partial_name(out, name, sizeof name);
        snprintf(role, sizeof role, "partial image of -o '%s' (written on an interrupt)", out);
        if (rs_path_set_write(paths, name, role, err))
            return -1;
        if (!a->denoise || format == RS_IMAGE_EXR)
            continue; /* an EXR keeps the noisy beauty as a layer */
        rs_render_noisy_name(out, name, sizeof name);
        snprintf(role, sizeof role, "noisy image of -o '%s' (--denoise)", out);
        if (rs_path_set_write(paths, name, role, err))
            return -1;
        char partial[RS_PATH_BYTES];
        rs_render_partial_name(out, partial, sizeof partial);
        rs_render_noisy_name(partial, name, sizeof name);
        snprintf(role, sizeof role, "noisy partial image of -o '%s' (--denoise, on an interrupt)", out);
        if (rs_path_set_write(paths, name, role, err))
            return -1;
    }
    if (a->checkpoint && rs_path_set_write(paths, a->checkpoint, "checkpoint (--checkpoint)", err))
        return -1;
    if (rs_path_set_read(paths, a->scene_path, "scene", err))
        return -1;
    /* --resume F --checkpoint F continues a render in place: F is read once, then rewritten */
    if (a->resume && !(a->checkpoint && rs_path_same_file(a->resume, a->checkpoint)) &&
        rs_path_set_read(paths, a->resume, "checkpoint to resume (--resume)", err))
        return -1;
    return 0;
}

/* rgb | w images -> interleaved floats of the layer's channel count */
static void pack_channels(const RsFloat4* image, size_t pixels, int channels, float* out)
{
    for (size_t i = 0; i < pixels; ++i) {
        const float v[3] = {image[i].x, image[i].y, image[i].z};
        for (int c = 0; c < channels; ++c)
            out[i * (size_t)channels + (size_t)c] = v[c];
    }
}

/* What every output is made of, computed once. */
typedef struct Images {
    size_t pixels;
    float* beauty;  /* rgb: the denoised image with --denoise, else the film's mean */
    float* noisy;   /* rgb: the film's mean (with --denoise only) */
    uint8_t* rgba;  /* the beauty through the display pipeline */
    uint8_t* noisy_rgba;
    float* layers[RS_LAYER_COUNT]; /* the AOVs asked for, interleaved */
} Images;

static void images_free(Images* im)
{
    free(im->beauty);
    free(im->noisy);
    free(im->rgba);
    free(im->noisy_rgba);
    for (int l = 0; l < RS_LAYER_COUNT; ++l)
        free(im->layers[l]);
}

static int make_images(RsRenderer* renderer, uint32_t width, uint32_t height, const RsRenderArgs* a, Images* im,
                       RsError* err)
{
    memset(im, 0, sizeof *im);
    im->pixels = (size_t)width * height;
    size_t planes = rs_renderer_film_planes(renderer);
    RsFloat4* film = malloc(planes * im->pixels * sizeof *film);
    RsFloat4* image = malloc(im->pixels * sizeof *image);
    im->beauty = malloc(im->pixels * 3 * sizeof(float));
    im->rgba = malloc(im->pixels * 4);
    int status = -1;
    RsDisplayStats stats;
    if (!film || !image || !im->beauty || !im->rgba) {
        rs_error_set(err, "out of memory reading back the image");
        goto done;
    }
    if (rs_renderer_read_film(renderer, film, err) || rs_renderer_display(renderer, &a->display, im->rgba, &stats, err))
        goto done;
    if (a->denoise) {
        RsDisplaySettings noisy_display = a->display;
        noisy_display.denoise = 0;
        RsImageRequest request = {RS_LAYER_BEAUTY, 0, 1, rs_denoise_defaults()};
        im->noisy = malloc(im->pixels * 3 * sizeof(float));
        im->noisy_rgba = malloc(im->pixels * 4);
        if (!im->noisy || !im->noisy_rgba) {
            rs_error_set(err, "out of memory reading back the image");
            goto done;
        }
        rs_film_resolve(film, (uint32_t)im->pixels, im->noisy);
        if (rs_renderer_image(renderer, &request, image, err) ||
            rs_renderer_display(renderer, &noisy_display, im->noisy_rgba, &stats, err))
            goto done;
        pack_channels(image, im->pixels, 3, im->beauty);
    } else {
        rs_film_resolve(film, (uint32_t)im->pixels, im->beauty);
    }
    for (uint32_t l = RS_LAYER_BEAUTY + 1; l < RS_LAYER_COUNT; ++l) {
        if (!(a->aovs & (1u << l)))
            continue;
        int channels = (int)strlen(rs_layer_channels(l));
        if (!(im->layers[l] = malloc(im->pixels * (size_t)channels * sizeof(float)))) {
            rs_error_set(err, "out of memory for the %s layer", rs_layer_name(l));
            goto done;
        }
        rs_film_layer_cpu(NULL, film, width, height, l, 0, image);
        pack_channels(image, im->pixels, channels, im->layers[l]);
    }
    status = 0;
done:
    free(film);
    free(image);
    return status;
}

/* The settings as EXR attributes "raystream:NAME" (names past the format's limit, or holding
 * control bytes, as an input file's path might, are counted in "raystream:omitted"), the
 * samples per pixel reached, and what a reader wants to know of where the image came from but
 * a checkpoint must not compare (a moved scene folder still resumes): the version, the scene
 * file as given and the camera. */
#define RS_EXR_EXTRA 10
typedef struct Metadata {
    RsExrAttribute* list;
    char** names;
    int count;
    char spp[64], omitted[64];
    char eye[96], look_at[96], up[96], lens[64], aperture[64], focus[64];
} Metadata;

static void vec_text(RsVec3 v, char* out, size_t size) { snprintf(out, size, "%.9g %.9g %.9g", v.x, v.y, v.z); }

static void add_camera(const RsRenderArgs* a, const RsCameraDesc* c, Metadata* m)
{
    m->list[m->count++] = (RsExrAttribute){"raystream:version", RS_VERSION};
    m->list[m->count++] = (RsExrAttribute){"raystream:scene_file", a->scene_path ? a->scene_path : ""};
    if (!c)
        return;
    vec_text(c->eye, m->eye, sizeof m->eye);
    vec_text(c->look_at, m->look_at, sizeof m->look_at);
    vec_text(c->up, m->up, sizeof m->up);
    m->list[m->count++] = (RsExrAttribute){"raystream:camera.eye", m->eye};
    m->list[m->count++] = (RsExrAttribute){"raystream:camera.look_at", m->look_at};
    m->list[m->count++] = (RsExrAttribute){"raystream:camera.up", m->up};
    if (c->projection == RS_PROJECTION_ORTHOGRAPHIC) {
        snprintf(m->lens, sizeof m->lens, "%.9g", c->ortho_height);
        m->list[m->count++] = (RsExrAttribute){"raystream:camera.projection", "orthographic"};
        m->list[m->count++] = (RsExrAttribute){"raystream:camera.ortho_height", m->lens};
    } else {
        snprintf(m->lens, sizeof m->lens, "%.9g", c->fov_degrees);
        m->list[m->count++] = (RsExrAttribute){"raystream:camera.fov", m->lens};
    }
    if (c->aperture_radius > 0.0f) {
        snprintf(m->aperture, sizeof m->aperture, "%.9g", c->aperture_radius);
        snprintf(m->focus, sizeof m->focus, "%.9g", c->focus_distance);
        m->list[m->count++] = (RsExrAttribute){"raystream:camera.aperture", m->aperture};
        m->list[m->count++] = (RsExrAttribute){"raystream:camera.focus_distance", m->focus};
    }
}

static void metadata_free(Metadata* m)
{
    for (int i = 0; m->names && i < m->count; ++i)
        free(m->names[i]); /* NULL for the names that are string constants */
    free(m->names);
    free(m->list);
    memset(m, 0, sizeof *m);
}

static int make_metadata(const RsRenderArgs* a, const RsCameraDesc* camera, const RsImageSettings* settings,
                         double spp, Metadata* m, RsError* err)
{
    memset(m, 0, sizeof *m);
    size_t n = settings ? settings->count : 0;
    m->list = calloc(n + 2 + RS_EXR_EXTRA, sizeof *m->list);
    m->names = calloc(n + 2 + RS_EXR_EXTRA, sizeof *m->names);
    if (!m->list || !m->names)
        return rs_error_set(err, "out of memory for the EXR metadata");
    int omitted = 0;
    for (size_t i = 0; i < n; ++i) {
        const RsImageSetting* e = &settings->entries[i];
        size_t len = sizeof "raystream:" + strlen(e->name);
        int control = 0;
        for (const char* p = e->name; *p; ++p)
            control |= (unsigned char)*p < 0x20;
        if (len - 1 > RS_EXR_MAX_ATTRIBUTE_NAME || control) {
            ++omitted;
            continue;
        }
        char* name = malloc(len);
        if (!name)
            return rs_error_set(err, "out of memory for the EXR metadata");
        snprintf(name, len, "raystream:%s", e->name);
        m->names[m->count] = name;
        m->list[m->count++] = (RsExrAttribute){name, e->value};
    }
    snprintf(m->spp, sizeof m->spp, "%.6g", spp);
    m->list[m->count++] = (RsExrAttribute){"raystream:spp_reached", m->spp};
    if (omitted) {
        snprintf(m->omitted, sizeof m->omitted, "%d input files (their paths cannot name an attribute)", omitted);
        m->list[m->count++] = (RsExrAttribute){"raystream:omitted", m->omitted};
    }
    add_camera(a, camera, m);
    return 0;
}

static int write_exr(const char* path, uint32_t width, uint32_t height, const Images* im, const Metadata* meta,
                     int half, RsError* err)
{
    RsExrLayer layers[RS_LAYER_COUNT + 1];
    int n = 0;
    layers[n++] = (RsExrLayer){"", "RGB", im->beauty};
    if (im->noisy)
        layers[n++] = (RsExrLayer){"noisy", "RGB", im->noisy};
    for (int l = RS_LAYER_BEAUTY + 1; l < RS_LAYER_COUNT; ++l)
        if (im->layers[l])
            layers[n++] = (RsExrLayer){rs_layer_name(l), rs_layer_channels(l), im->layers[l]};
    return rs_exr_write_with_attributes(path, width, height, layers, n, meta->list, meta->count, half, err);
}

int rs_render_write_outputs(RsRenderer* renderer, uint32_t width, uint32_t height, const RsRenderArgs* a,
                            const RsCameraDesc* camera, const RsImageSettings* settings, int partial)
{
    RsError err = {{0}};
    Images im;
    Metadata meta = {0};
    double spp = (double)rs_renderer_paths_done(renderer) / ((double)width * height);
    if (make_images(renderer, width, height, a, &im, &err) || make_metadata(a, camera, settings, spp, &meta, &err)) {
        rs_cli_error("%s", err.message);
        images_free(&im);
        metadata_free(&meta);
        return RS_EXIT_FAILURE;
    }
    int status = RS_EXIT_OK;
    for (int i = 0; i < a->output_count; ++i) {
        char name[RS_PATH_BYTES], noisy[RS_PATH_BYTES];
        if (partial)
            rs_render_partial_name(a->outputs[i], name, sizeof name);
        else
            snprintf(name, sizeof name, "%s", a->outputs[i]);
        RsImageFormat format = RS_IMAGE_PNG;
        rs_error_clear(&err);
        int failed = rs_image_format_from_path(name, &format, &err);
        if (!failed && format == RS_IMAGE_EXR) {
            failed = write_exr(name, width, height, &im, &meta, a->exr_half, &err);
        } else if (!failed) {
            failed = rs_image_write(name, width, height, im.beauty, im.rgba, &err);
            if (!failed && im.noisy) {
                rs_render_noisy_name(name, noisy, sizeof noisy);
                failed = rs_image_write(noisy, width, height, im.noisy, im.noisy_rgba, &err);
                if (!failed && (!a->opt.quiet || partial))
                    rs_cli_note("wrote %s", noisy);
            }
        }
        if (failed) {
            rs_cli_error("%s", err.message);
            status = RS_EXIT_FAILURE;
        } else if (!a->opt.quiet || partial) {
            rs_cli_note("wrote %s", name);
        }
    }
    images_free(&im);
    metadata_free(&meta);
    return status;
}
