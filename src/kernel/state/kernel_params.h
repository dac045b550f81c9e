/* kernel_params.h - everything a stage function reads besides its own ray: the scene, the
 * camera, the render settings and the buffers of the current wave.
 *
 * Shared header (gcc C11, g++, nvcc). The CPU backend passes a pointer to one of these; the
 * CUDA backend passes it by value as a kernel argument (it is a few hundred bytes of pointers
 * and scalars), so the struct holds device pointers there and host pointers here.
 *
 * index visits the pixels in 8x4 tiles (pixel_order.h). The image is traced in spans: runs of
 * pass-order indices [span_first_index, span_first_index + span_pixels) (the whole image on one
 * device; bands of rows that several devices share, renderer.c). Inside a span, paths are
 * numbered l = sample * span_pixels + (index - span_first_index), so one sample pass over the
 * span is a contiguous range and a whole-image span numbers paths exactly as the image does. A
 * wave is the range [wave_first_path, wave_first_path + wave_paths) of that numbering; slot =
 * l - wave_first_path is a path's stable id inside the wave. A path's pixel and sample, and so
 * its random numbers and its radiance, do not depend on the span it was traced in.
 */
#ifndef RS_KERNEL_KERNEL_PARAMS_H
#define RS_KERNEL_KERNEL_PARAMS_H

#include "kernel/geometry/camera.h"
#include "kernel/scene/scene_view.h"
#include "kernel/state/ray_state.h"

enum { RS_INTEGRATOR_PATH = 0, RS_INTEGRATOR_WHITTED = 1 };

typedef struct RsKernelParams {
    RsSceneView scene;
    RsCamera camera;
    uint32_t width, height;
    uint32_t seed;
    uint32_t sampler;    /* RS_SAMPLER_* (sampler.h): where random numbers come from */
    uint32_t max_depth;  /* ray segments per path: 1 = camera rays with direct light only */
    uint32_t integrator; /* RS_INTEGRATOR_* */
    uint32_t rr_depth;   /* Russian roulette may end a path from this depth on */
    float noise_threshold; /* adaptive sampling (film/adaptive.h): 0 = off */
    uint32_t min_spp;      /* adaptive sampling: samples before a pixel may stop */
    uint32_t span_first_index; /* the span being traced: first pass-order index, pixel count */
    uint32_t span_pixels;
    uint64_t wave_first_path;  /* in the span's numbering (see above) */
    uint32_t wave_paths;
    RsRayStateSoA rays;
    RsShadowStateSoA shadows;
    RsFloat4* path_radiance; /* per slot: rgb | 1, or 0 for a path of a stopped pixel (adaptive.h) */
    RsFloat4* film;          /* per pixel: summed rgb | number of samples summed; with AOVs, the
                                planes of aov.h follow, each width * height entries */
    /* per slot, only with AOVs (NULL otherwise; aov.h says what they hold) */
    RsFloat4* path_albedo;   /* albedo rgb | 1 once recorded */
    RsFloat4* path_normal;   /* shading normal | 1 if the camera ray hit something */
    RsFloat4* path_position; /* first hit point | its camera-space depth */
    /* paths whose radiance was not finite, dropped by accumulate (stage_accumulate.h) since
     * set_frame; one counter per backend instance, or NULL not to count */
    uint64_t* nonfinite_paths;
} RsKernelParams;

RS_FN uint32_t rs_pixel_count(const RsKernelParams* kp) { return kp->width * kp->height; }

/* The pass-order index of a path of the span (l: its number in the span's numbering). */
RS_FN uint32_t rs_span_index(const RsKernelParams* kp, uint64_t l)
{
    return kp->span_first_index + (uint32_t)(l % kp->span_pixels);
}

#endif /* RS_KERNEL_KERNEL_PARAMS_H */
