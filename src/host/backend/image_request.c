/* image_request.c - the film's layers and the images made from it (see backend.h): layer names
 * and channels from aov.h's table, the planes of a film, and the checks of an image request
 * and of denoiser settings, which both backends make the same way. Host C11. */
#include "host/backend/backend.h"

int rs_denoise_settings_check(const RsDenoiseSettings* s, RsError* err)
{
    if (s->iterations < 1 || s->iterations > RS_DENOISE_MAX_ITERATIONS)
        return rs_error_set(err, "denoiser iterations must be 1 to %u (got %u)", RS_DENOISE_MAX_ITERATIONS,
                            s->iterations);
    if (!(s->sigma_luminance > 0.0f && s->sigma_normal >= 0.0f && s->sigma_depth > 0.0f) ||
        !rs_is_finite(s->sigma_luminance) || !rs_is_finite(s->sigma_normal) || !rs_is_finite(s->sigma_depth))
        return rs_error_set(err, "denoiser sigmas must be finite and positive");
    return 0;
}

static const struct {
    const char* name;
    const char* channels;
} layer_rows[RS_LAYER_COUNT] = {
#define RS_LAYER_ROW(id, name, channels, help) {name, channels},
    RS_LAYER_TABLE(RS_LAYER_ROW)
#undef RS_LAYER_ROW
};

const char* rs_layer_name(uint32_t layer) { return layer < RS_LAYER_COUNT ? layer_rows[layer].name : "(unknown)"; }

const char* rs_layer_channels(uint32_t layer) { return layer < RS_LAYER_COUNT ? layer_rows[layer].channels : ""; }

uint32_t rs_film_sppm_plane(const RsBackendConfig* config)
{
    return config->aovs || config->film_stats ? RS_FILM_PLANES_AOV : 1u;
}

uint32_t rs_film_planes(const RsBackendConfig* config)
{
    return rs_film_sppm_plane(config) + (config->particles ? 2u : 0u);
}

int rs_image_request_check(const RsBackendConfig* config, const RsImageRequest* request, RsError* err)
{
    if (request->layer >= RS_LAYER_COUNT)
        return rs_error_set(err, "internal error: layer %u", request->layer);
    if (request->denoise && request->layer != RS_LAYER_BEAUTY)
        return rs_error_set(err, "internal error: only the beauty layer is denoised");
    if (!config->aovs && (request->denoise || request->layer != RS_LAYER_BEAUTY))
        return rs_error_set(err, "internal error: AOVs or denoising asked of a film without AOVs");
    return request->denoise ? rs_denoise_settings_check(&request->denoiser, err) : 0;
}

RsImageRequest rs_display_image_request(const RsDisplaySettings* settings)
{
    RsImageRequest r;
    r.layer = settings->layer;
    r.for_display = 1;
    r.denoise = settings->denoise && settings->layer == RS_LAYER_BEAUTY; /* other layers show as they are */
    r.denoiser = rs_denoise_defaults();
    return r;
}
