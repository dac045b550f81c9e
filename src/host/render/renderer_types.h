/* renderer_types.h - the renderer's settings, its handle and its tick callback: the part of
 * renderer.h that the renderer's own state (renderer_queue.h) is made of.
 *
 * Host C11. Apart from renderer.h so that renderer_queue.h can hold the renderer's state
 * without including renderer.h, whose functions renderer.c defines (that would be an include
 * circle). Callers include renderer.h, which includes this.
 */
#ifndef RS_HOST_RENDERER_TYPES_H
#define RS_HOST_RENDERER_TYPES_H

#include "host/backend/backend.h"

#define RS_MAX_DEVICES 16

typedef struct RsRendererConfig {
    RsBackendConfig backend;     /* every device's settings; .device is set per device */
    int devices[RS_MAX_DEVICES]; /* CUDA device indices (CPU: instances sharing the processors) */
    int device_count;            /* 0: every device of the backend's kind (all GPUs, or the CPU) */
    /* Spans per device when several share the image; 0: as few as keep a span's paths within
     * one wave, at least 4 per device (renderer.c). The viewer, which traces a slice of
     * the image's paths per frame, asks for 2. */
    uint32_t spans_per_device;
    /* Makes each device's backend; NULL: rs_backend_create. Tests wrap a backend here (to make
     * a device fail on cue, say). */
    RsBackend* (*create_backend)(const RsBackendConfig* config, RsError* err);
} RsRendererConfig;

typedef struct RsRenderer RsRenderer;

/* Called on the thread inside rs_renderer_trace between pieces of work (one device) or about
 * ten times a second (several devices): where render reports progress and saves checkpoints. */
typedef void (*RsRendererTick)(void* ctx);

#endif /* RS_HOST_RENDERER_TYPES_H */
