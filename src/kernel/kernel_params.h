/* kernel_params.h - everything a stage function reads besides its own ray: the scene, the
 * camera, the render settings and the buffers of the current wave.
 *
 * Shared header (gcc C11, g++, nvcc). The CPU backend passes a pointer to one of these; the
 * CUDA backend passes it by value as a kernel argument (it is a few hundred bytes of pointers
 * and scalars), so the struct holds device pointers there and host pointers here.
 *
 * Paths are numbered globally as g = sample * pixel_count + index, so one sample pass over the
 * image is a contiguous range; index visits the pixels in tiles (pixel_order.h). A wave is the range [wave_first_path, wave_first_path +
 * wave_paths); slot = g - wave_first_path is a path's stable id inside the wave.
 */
#ifndef RS_KERNEL_KERNEL_PARAMS_H
#define RS_KERNEL_KERNEL_PARAMS_H

#include "camera.h"
#include "ray_state.h"
#include "scene_view.h"

enum { RS_INTEGRATOR_PATH = 0, RS_INTEGRATOR_WHITTED = 1 };

typedef struct RsKernelParams {
    RsSceneView scene;
    RsCamera camera;
    uint32_t width, height;
    uint32_t seed;
    uint32_t max_depth;  /* ray segments per path: 1 = camera rays with direct light only */
    uint32_t integrator; /* RS_INTEGRATOR_* */
    uint32_t rr_depth;   /* Russian roulette may end a path from this depth on */
    uint64_t wave_first_path;
    uint32_t wave_paths;
    RsRayStateSoA rays;
    RsShadowStateSoA shadows;
    RsFloat4* path_radiance; /* per slot: rgb | unused */
    RsFloat4* film;          /* per pixel: summed rgb | number of samples summed */
} RsKernelParams;

RS_FN uint32_t rs_pixel_count(const RsKernelParams* kp) { return kp->width * kp->height; }

#endif /* RS_KERNEL_KERNEL_PARAMS_H */
