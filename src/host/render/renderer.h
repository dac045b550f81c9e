/* renderer.h - the layer that render, view, bench and the tests talk to: a scene and settings
 * in, passes traced on one or several devices, a film, a display image and statistics out.
 *
 * Host C11. A renderer owns one backend instance per device (backend.h), each with its own
 * bounce loop (wavefront.h), and cuts the image into spans (film_spans.h) that the devices take
 * from a shared queue: a faster or less loaded device takes more. Every pixel's samples are
 * traced on one device at a time and added in sample order, so the film is bit-identical to a
 * single-device render with the same seed, for every strategy and any number of devices.
 *
 * One device traces on the calling thread, the whole image as one span, exactly as the bounce
 * loop alone would. Several devices run one thread each; after every piece of work (a span's
 * next wave or so) the device's span is copied back into the host's film, so a device that
 * fails loses only the piece in flight: the error names the device, and the film still holds
 * every sample completed anywhere.
 *
 * Its settings are renderer_types.h (included here); renderer.c defines these calls, and
 * renderer_queue.c runs the device threads and the queue.
 *
 * Usage:
 *   r = rs_renderer_create(&scene, &config, &err);
 *   rs_renderer_begin(r, &frame, planned_paths, &err);    (clears the film; again on any change)
 *   rs_renderer_resume(r, checkpoint_film, spp, &err);     (optional: continue a saved film)
 *   rs_renderer_trace(r, spp * pixels, &err);              (every pixel to spp samples)
 *   rs_renderer_read_film / rs_renderer_display / rs_renderer_stats
 *   rs_renderer_destroy(r);
 */
#ifndef RS_HOST_RENDERER_H
#define RS_HOST_RENDERER_H

#include <signal.h>

#include "host/render/renderer_types.h"
#include "host/render/wavefront.h"
#include "host/scene/scene.h"

/* Creates the devices' backends and uploads the scene to each. */
RsRenderer* rs_renderer_create(const RsScene* scene, const RsRendererConfig* config, RsError* err);
void rs_renderer_destroy(RsRenderer* r);

/* Starts a new image: sizes the waves for about planned_paths paths in all, clears the film
 * and the statistics. */
int rs_renderer_begin(RsRenderer* r, const RsFrameDesc* frame, uint64_t planned_paths, RsError* err);

/* Continues a saved film (a checkpoint's): its per-pixel sample counts (w) say where each span
 * stands. Fails when a count is not a whole number from 0 to max_samples. */
int rs_renderer_resume(RsRenderer* r, const RsFloat4* film, uint32_t max_samples, RsError* err);

/* Traces until the film holds paths [0, global_paths) of the image in pass order (path g is
 * sample g / pixels of pass-order index g % pixels): render asks for spp * pixels, the viewer
 * for a few more paths each frame. Returns 0, -1 on error (err names the device), or
 * RS_WAVEFRONT_STOPPED when a stop flag ended it early. */
int rs_renderer_trace(RsRenderer* r, uint64_t global_paths, RsError* err);

/* Interrupts: when *after_pass becomes non-zero every span stops at the end of its sample pass
 * in flight (its pixels then all hold the same count); when *after_wave does, the pieces in
 * flight stop after their wave in flight. Either may be NULL. */
void rs_renderer_set_stop(RsRenderer* r, const volatile sig_atomic_t* after_pass,
                          const volatile sig_atomic_t* after_wave);
void rs_renderer_set_tick(RsRenderer* r, RsRendererTick tick, void* ctx);

/* Several processes (MPI ranks) sharing one image: this one traces only the spans k with
 * k % count == index, and its film holds only those (the others read as zero), so the ranks'
 * films sum to the whole image exactly. Every rank plans the same spans (their number then
 * depends on the image and the sample count alone). Call before rs_renderer_begin or
 * rs_renderer_resume; (0, 1), the default, is the whole image. */
void rs_renderer_set_share(RsRenderer* r, uint32_t index, uint32_t count);

/* Samples in the film, summed over the pixels (of this process's share). */
uint64_t rs_renderer_paths_done(RsRenderer* r);
/* The trace under way (or last): paths done and asked for, over this process's share. */
void rs_renderer_progress(RsRenderer* r, uint64_t* done, uint64_t* target);
/* The film (rs_renderer_film_planes planes of width * height RsFloat4, aov.h; plane 0: rgb
 * sums | samples); safe to call from a tick. */
int rs_renderer_read_film(RsRenderer* r, RsFloat4* film, RsError* err);
/* Tone-maps the film into RGBA8 (the first device's display pipeline). Not from a tick. */
int rs_renderer_display(RsRenderer* r, const RsDisplaySettings* settings, uint8_t* rgba, RsDisplayStats* stats,
                        RsError* err);
/* Statistics since rs_renderer_begin, summed over the devices. */
RsTraceStats rs_renderer_stats(RsRenderer* r);
/* 1, or RS_FILM_PLANES_AOV when the configuration asked for AOVs (backend.aovs). */
uint32_t rs_renderer_film_planes(const RsRenderer* r);
/* An image made from the whole film on the first device: a layer or the denoised beauty
 * (width * height RsFloat4, rgb | 1). Not from a tick. */
int rs_renderer_image(RsRenderer* r, const RsImageRequest* request, RsFloat4* image, RsError* err);
/* The same without the read-back: returns when the image is made (what bench times). */
int rs_renderer_make_image(RsRenderer* r, const RsImageRequest* request, RsError* err);

int rs_renderer_device_count(const RsRenderer* r);
/* The backend's own index of device `device` (the CUDA device number). */
int rs_renderer_device_id(const RsRenderer* r, int device);
/* Paths device `device` traced since rs_renderer_begin: how the queue shared the work. */
uint64_t rs_renderer_device_paths(RsRenderer* r, int device);
/* The devices' settings, with the backend kind resolved (never AUTO). */
const RsBackendConfig* rs_renderer_backend_config(const RsRenderer* r);
/* "cpu" or "cuda" */
const char* rs_renderer_backend_name(const RsRenderer* r);
/* "GPU 0: NVIDIA H100 ..." for one device, "2 devices: GPU 0: ..., GPU 1: ..." for several. */
void rs_renderer_describe(const RsRenderer* r, char* out, size_t size);

/* The devices a configuration would use (config->device_count 0: all of its kind), checked:
 * unknown or repeated indices are an error. */
int rs_renderer_resolve_devices(const RsRendererConfig* config, int devices[RS_MAX_DEVICES], int* count,
                                RsError* err);

#endif /* RS_HOST_RENDERER_H */
