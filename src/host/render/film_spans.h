/* film_spans.h - how an image is cut into spans that devices trace independently, and how far
 * each span has got.
 *
 * Host C11. A span is a run of pass-order indices [first_index, first_index + pixels)
 * (pixel_order.h); its paths are numbered l = sample * pixels + (index - first_index)
 * (kernel_params.h), and `done` says that paths [0, done) are in the film: every pixel of the
 * span holds done / pixels samples, and the first done % pixels of them one more. Because a
 * pixel's samples are always added in sample order and its random numbers depend only on
 * (seed, pixel, sample), which device traced a span, and how the image was cut, never changes
 * a pixel's value: the image is bit-identical to one traced on one device in one piece.
 *
 * The film itself records the same thing (w = samples per pixel), so a checkpoint needs no
 * span list: rs_spans_from_counts rebuilds one from the film, for any number of devices.
 */
#ifndef RS_HOST_FILM_SPANS_H
#define RS_HOST_FILM_SPANS_H

#include <stdint.h>

#include "host/util/error.h"
#include "kernel/util/compat.h"

typedef struct RsSpan {
    uint32_t first_index, pixels;
    uint64_t done;   /* paths of the span in the film */
    uint64_t target; /* paths the trace under way should bring it to */
    int holder;      /* the device whose film holds the span's newest samples; -1: the host's */
    int busy;        /* a device is tracing it */
} RsSpan;

/* Cuts a width x height image into about `count` spans of whole 4-row bands (fewer when the
 * image has fewer bands); count 1 gives the whole image. *spans is allocated (caller frees). */
int rs_spans_plan(uint32_t width, uint32_t height, uint32_t count, RsSpan** spans, uint32_t* span_count,
                  RsError* err);

/* Refines a plan to the per-pixel sample counts of a film (its w): each span is cut where the
 * counts stop following the "done" pattern above, and gets its `done`. Fails, naming the pixel,
 * when a count is not a whole number of samples in [0, max_samples]. *spans is replaced. */
int rs_spans_from_counts(const RsFloat4* film, uint32_t width, uint32_t height, uint32_t max_samples,
                         RsSpan** spans, uint32_t* span_count, RsError* err);

/* The span's share of "paths [0, global_paths) of the whole image in pass order": the paths
 * of its own numbering that fall there (the viewer advances the image that way). */
uint64_t rs_span_share(const RsSpan* span, uint64_t image_pixels, uint64_t global_paths);

#endif /* RS_HOST_FILM_SPANS_H */
