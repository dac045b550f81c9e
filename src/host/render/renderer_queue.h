/* renderer_queue.h - the renderer's state, and the queue of spans that its devices take work
 * from. Host C11 + POSIX threads; only renderer.c and renderer_queue.c include it.
 *
 * renderer.c makes and answers for the state (the public calls of renderer.h);
 * renderer_queue.c runs the devices over it: the device threads, which span each takes next,
 * and one piece of a span traced and copied back.
 */
#ifndef RS_HOST_RENDERER_QUEUE_H
#define RS_HOST_RENDERER_QUEUE_H

#include <pthread.h>
#include <signal.h>

#include "host/render/film_spans.h"
#include "host/render/renderer_types.h"
#include "host/render/wavefront.h"

typedef struct RsDevice {
    RsRenderer* r;
    int index; /* in the renderer's list */
    RsBackend* backend;
    RsWavefront wf;
    RsTraceStats stats; /* a copy of wf.stats, taken under the lock after every piece */
    uint64_t paths;     /* traced since begin */
    RsFloat4* staging;  /* a span's film in pass order, on its way to or from the host */
    uint32_t staging_entries; /* its size: planes x pixels */
    pthread_t thread;
    int thread_started;
    RsError err;
} RsDevice;

struct RsRenderer {
    RsRendererConfig config;
    RsDevice devices[RS_MAX_DEVICES];
    int device_count;
    uint32_t width, height;
    uint64_t pixels;
    RsSpan* spans;
    uint32_t span_count;
    RsFloat4* film; /* the host's film (several devices only): `planes` planes of `pixels` */
    uint32_t planes; /* rs_film_planes of the devices' configuration */
    uint32_t share_index, share_count; /* this process traces spans k % count == index */
    uint32_t integrator; /* the frame's (particle integrators trace by passes: particle_trace.c) */

    pthread_mutex_t lock;
    pthread_cond_t work;      /* a new trace started, or quit */
    pthread_cond_t progress;  /* a piece ended, or a device finished the trace */
    uint64_t job;             /* trace number: workers wake when it changes */
    int running;              /* devices still working on the current trace */
    int quit;
    int failed;
    RsError error;            /* the first device failure */
    int stopped;

    const volatile sig_atomic_t* stop_pass;
    const volatile sig_atomic_t* stop_wave;
    RsRendererTick tick;
    void* tick_ctx;
};

/* Several devices: each runs on a thread of its own, and the host holds the film. */
static inline int rs_renderer_several(const RsRenderer* r) { return r->device_count > 1; }

/* A device thread (several devices; arg: its RsDevice): every trace, pieces until the queue is
 * empty (or a stop or failure). */
void* rs_renderer_queue_device_main(void* arg);

/* Under the lock, with the spans' targets set: traces until the queue is empty, or a stop or a
 * failure (r->failed, r->stopped). One device traces on this thread, calling the tick between
 * pieces; several are woken, and this thread waits for them, ticking about ten times a second. */
void rs_renderer_queue_run(RsRenderer* r);

#endif /* RS_HOST_RENDERER_QUEUE_H */
