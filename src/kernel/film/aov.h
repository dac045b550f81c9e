/* aov.h - arbitrary output variables: what the film records besides the beauty image, and the
 * images (layers) made from it.
 *
 * Shared header (gcc C11, g++, nvcc). With AOVs on (RsBackendConfig.aovs: render --aov or
 * --denoise, the viewer), the film is RS_FILM_PLANES_AOV planes of width * height RsFloat4,
 * plane-major (plane k of pixel i is film[k * pixels + i]), summed by stage_accumulate.h in the
 * same per-pixel sample order as the beauty, so they are as deterministic as it is:
 *
 *   plane   .xyz                                   .w
 *   beauty  radiance rgb sum                       samples
 *   squares r^2, g^2, b^2 sums                     luminance^2 sum     (sample variance; each
 *           sum saturates at the largest float rather than overflow)
 *   albedo  albedo rgb sum                         passes visited; negative: stopped (adaptive.h)
 *   normal  shading normal sum                     samples whose camera ray hit something
 *   position hit point sum (world space)           depth sum
 *
 * Each path records its AOVs in three per-slot rows while it is traced (stage_shade.h calls
 * rs_aov_record): position and depth at the first hit, which is what a compositor expects;
 * albedo and normal at the first vertex with a non-delta lobe, following mirrors and smooth
 * glass with the albedo scaled by the specular chain's weight, as Cycles' denoising features
 * do, so that a guide image shows what a mirror reflects instead of a flat mirror. The normal
 * faces the incoming ray. Depth is camera-space z (the distance along the view axis, pbrt's and
 * Cycles' convention). Rays that escape record nothing (zero albedo and normal).
 *
 * Layers, the images a user sees or writes (rs_film_layer): albedo and normal are averages
 * over all samples (a half-covered pixel has a half-length normal, as OpenImageDenoise expects
 * its guides); depth and position are averages over the samples that hit something (depth is
 * +infinity where none did); variance is the variance of the pixel's mean per channel,
 * s^2 / n with the unbiased sample variance s^2 (0 below two samples).
 */
#ifndef RS_KERNEL_AOV_H
#define RS_KERNEL_AOV_H

#include "kernel/bsdf/bsdf.h"
#include "kernel/state/kernel_params.h"

enum {
    RS_PLANE_BEAUTY = 0,
    RS_PLANE_SQUARES = 1,
    RS_PLANE_ALBEDO = 2,
    RS_PLANE_NORMAL = 3,
    RS_PLANE_POSITION = 4,
    RS_FILM_PLANES_AOV = 5
};

/* The layers: X(id, name, channels (EXR suffixes), help). Beauty is layer 0 and is not an AOV. */
#define RS_LAYER_TABLE(X) \
    X(BEAUTY, "beauty", "RGB", "the rendered image (mean radiance)") \
    X(ALBEDO, "albedo", "RGB", "reflectance at the first non-specular hit, through mirrors and glass") \
    X(NORMAL, "normal", "XYZ", "shading normal there, facing the camera (world space)") \
    X(DEPTH, "depth", "Z", "camera-space z of the first hit; +inf where no sample hit") \
    X(POSITION, "position", "XYZ", "first hit point (world space)") \
    X(VARIANCE, "variance", "RGB", "variance of the pixel's mean, per channel") \
    X(SAMPLES, "samples", "N", "samples the pixel took (adaptive sampling stops converged pixels early)")

typedef enum RsLayer {
#define RS_LAYER_ENUM(id, name, channels, help) RS_LAYER_##id,
    RS_LAYER_TABLE(RS_LAYER_ENUM)
#undef RS_LAYER_ENUM
    RS_LAYER_COUNT
} RsLayer;

/* Reflectance a guide image shows for a material: its colour, or for a conductor the Fresnel
 * reflectance at normal incidence (its colour channel holds no reflectance). */
RS_FN RsVec3 rs_aov_albedo(const RsMaterial* m)
{
    if (rs_material_type(m) == RS_MAT_CONDUCTOR)
        return rs_fresnel_conductor(1.0f, rs_xyz(m->c), rs_xyz(m->d));
    return rs_material_albedo(m);
}

/* Clears a path's AOV rows (stage_generate.h). */
RS_FN void rs_aov_clear(const RsKernelParams* kp, uint32_t slot)
{
    if (!kp->path_albedo)
        return;
    RsFloat4 zero = rs_float4(0.0f, 0.0f, 0.0f, 0.0f);
    kp->path_albedo[slot] = zero;
    kp->path_normal[slot] = zero;
    kp->path_position[slot] = zero;
}

/* Records what a path's vertex contributes to the AOVs (stage_shade.h, at every hit; a no-op
 * without AOVs). depth: ray segments traced (1 = the camera ray's hit); p: the hit point; ns:
 * the shading normal; throughput: the path's weight arriving here. */
RS_FN void rs_aov_record(const RsKernelParams* kp, uint32_t slot, uint32_t depth, RsVec3 p, RsVec3 ns, RsVec3 wo,
                         const RsMaterial* mat, RsVec3 throughput)
{
    if (!kp->path_albedo)
        return;
    if (depth == 1) { /* the camera ray's hit: position, depth, and one hit in path_normal.w */
        float z = rs_dot(rs_sub(p, rs_xyz(kp->camera.eye)), rs_xyz(kp->camera.forward));
        kp->path_position[slot] = rs_pack(p, z);
        kp->path_normal[slot] = rs_float4(0.0f, 0.0f, 0.0f, 1.0f);
    }
    /* path_albedo.w: 1 once albedo and normal are recorded */
    if (kp->path_albedo[slot].w != 0.0f || !rs_bsdf_has_density(mat))
        return;
    RsVec3 n = rs_dot(ns, wo) < 0.0f ? rs_neg(ns) : ns;
    kp->path_albedo[slot] = rs_pack(rs_mul(throughput, rs_aov_albedo(mat)), 1.0f);
    kp->path_normal[slot] = rs_pack(n, kp->path_normal[slot].w);
}

/* The largest float: the squares plane saturates there (stage_accumulate.h). */
#define RS_FILM_SQUARE_MAX 3.40282347e38f

/* sum + x * x, held at the largest float instead of overflowing to infinity */
/* The albedo plane's w after one more pass visited its pixel: |w| + 1, the sign (stopped,
 * adaptive.h) kept. */
RS_FN float rs_film_visit(float w) { return w < 0.0f ? w - 1.0f : w + 1.0f; }

RS_FN float rs_aov_add_square(float sum, float x) { return rs_minf(sum + x * x, RS_FILM_SQUARE_MAX); }

/* Adds one path's AOVs to its pixel's planes (stage_accumulate.h): l is its radiance. */
RS_FN void rs_aov_accumulate(RsFloat4* squares, RsFloat4* albedo, RsFloat4* normal, RsFloat4* position, RsFloat4 l,
                             RsFloat4 path_albedo, RsFloat4 path_normal, RsFloat4 path_position)
{
    float lum = rs_luminance(rs_xyz(l));
    *squares = rs_float4(rs_aov_add_square(squares->x, l.x), rs_aov_add_square(squares->y, l.y),
                         rs_aov_add_square(squares->z, l.z), rs_aov_add_square(squares->w, lum));
    *albedo = rs_float4(albedo->x + path_albedo.x, albedo->y + path_albedo.y, albedo->z + path_albedo.z,
                        rs_film_visit(albedo->w));
    *normal = rs_float4(normal->x + path_normal.x, normal->y + path_normal.y, normal->z + path_normal.z,
                        normal->w + path_normal.w);
    *position = rs_float4(position->x + path_position.x, position->y + path_position.y,
                          position->z + path_position.z, position->w + path_position.w);
}

/* One layer's value at a pixel of an AOV film (planes of `pixels` entries), as rgb | 1 (w 0:
 * the pixel has no samples yet). Beauty and variance need only planes 0 and 1. */
RS_FN RsFloat4 rs_film_layer(const RsFloat4* film, uint32_t pixels, uint32_t pixel, uint32_t layer)
{
    RsFloat4 b = film[pixel];
    float n = b.w;
    if (!(n > 0.0f))
        return rs_float4(0.0f, 0.0f, 0.0f, 0.0f);
    float inv = 1.0f / n;
    RsVec3 v;
    if (layer == RS_LAYER_BEAUTY) {
        v = rs_scale(rs_xyz(b), inv);
    } else if (layer == RS_LAYER_VARIANCE) {
        RsFloat4 sq = film[(size_t)RS_PLANE_SQUARES * pixels + pixel];
        float k = n > 1.0f ? 1.0f / ((n - 1.0f) * n) : 0.0f; /* s^2 / n = (sum x^2 - n mean^2) / ((n - 1) n) */
        RsVec3 mean = rs_scale(rs_xyz(b), inv);
        v = rs_vec3(rs_maxf(0.0f, (sq.x - n * mean.x * mean.x) * k), rs_maxf(0.0f, (sq.y - n * mean.y * mean.y) * k),
                    rs_maxf(0.0f, (sq.z - n * mean.z * mean.z) * k));
    } else if (layer == RS_LAYER_ALBEDO) {
        v = rs_scale(rs_xyz(film[(size_t)RS_PLANE_ALBEDO * pixels + pixel]), inv);
    } else if (layer == RS_LAYER_SAMPLES) {
        v = rs_vec3_splat(n);
    } else if (layer == RS_LAYER_NORMAL) {
        v = rs_scale(rs_xyz(film[(size_t)RS_PLANE_NORMAL * pixels + pixel]), inv);
    } else {
        float hits = film[(size_t)RS_PLANE_NORMAL * pixels + pixel].w;
        RsFloat4 p = film[(size_t)RS_PLANE_POSITION * pixels + pixel];
        if (layer == RS_LAYER_DEPTH)
            v = rs_vec3_splat(hits > 0.0f ? p.w / hits : RS_INFINITY);
        else
            v = hits > 0.0f ? rs_scale(rs_xyz(p), 1.0f / hits) : rs_vec3_splat(0.0f);
    }
    return rs_pack(v, 1.0f);
}

/* The samples layer as a heat map: the share of the passes that visited the pixel in which it
 * took a sample (the albedo plane's w counts the visits, adaptive.h), from blue (stopped early)
 * through green to red (never stopped). */
RS_FN RsFloat4 rs_film_samples_heat(const RsFloat4* film, uint32_t pixels, uint32_t pixel)
{
    float visits = fabsf(film[(size_t)RS_PLANE_ALBEDO * pixels + pixel].w);
    if (!(visits > 0.0f))
        return rs_float4(0.0f, 0.0f, 0.0f, 0.0f);
    float t = rs_minf(1.0f, film[pixel].w / visits);
    float r = rs_minf(1.0f, rs_maxf(0.0f, 2.0f * t - 1.0f)), b = rs_minf(1.0f, rs_maxf(0.0f, 1.0f - 2.0f * t));
    return rs_float4(r, 1.0f - r - b, b, 1.0f);
}

/* A layer as the viewer shows it (then tone-mapped): normals mapped to 0.5 + 0.5 n, depth
 * without its infinities, samples as a heat map; the rest as they are. */
RS_FN RsFloat4 rs_film_layer_display(const RsFloat4* film, uint32_t pixels, uint32_t pixel, uint32_t layer)
{
    if (layer == RS_LAYER_SAMPLES)
        return rs_film_samples_heat(film, pixels, pixel);
    RsFloat4 v = rs_film_layer(film, pixels, pixel, layer);
    if (layer == RS_LAYER_NORMAL && v.w > 0.0f)
        return rs_float4(0.5f + 0.5f * v.x, 0.5f + 0.5f * v.y, 0.5f + 0.5f * v.z, 1.0f);
    if (layer == RS_LAYER_DEPTH && !rs_is_finite(v.x))
        return rs_float4(0.0f, 0.0f, 0.0f, v.w);
    return v;
}

#endif /* RS_KERNEL_AOV_H */
