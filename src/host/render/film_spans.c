/* film_spans.c - spans of an image and their progress (see film_spans.h). Host C11. */
#include "host/render/film_spans.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/film/pixel_order.h"

int rs_spans_plan(uint32_t width, uint32_t height, uint32_t count, RsSpan** spans, uint32_t* span_count,
                  RsError* err)
{
    uint32_t bands = (height + RS_TILE_H - 1) / RS_TILE_H;
    uint32_t n = count == 0 ? 1 : (count > bands ? bands : count);
    RsSpan* s = calloc(n, sizeof *s);
    if (!s)
        return rs_error_set(err, "out of memory planning %u image spans", n);
    /* band b starts at index b * 4 * width (the last band may be shorter: it ends the image) */
    for (uint32_t k = 0; k < n; ++k) {
        uint32_t band_lo = (uint32_t)((uint64_t)bands * k / n), band_hi = (uint32_t)((uint64_t)bands * (k + 1) / n);
        uint64_t lo = (uint64_t)band_lo * RS_TILE_H * width;
        uint64_t hi = k + 1 == n ? (uint64_t)width * height : (uint64_t)band_hi * RS_TILE_H * width;
        s[k].first_index = (uint32_t)lo;
        s[k].pixels = (uint32_t)(hi - lo);
        s[k].holder = -1;
    }
    *spans = s;
    *span_count = n;
    return 0;
}

/* The sample count of pass-order index i, checked to be whole and in range. */
static int count_at(const RsFloat4* film, uint32_t width, uint32_t height, uint32_t index, uint32_t max_samples,
                    uint32_t* count, RsError* err)
{
    uint32_t pixel = rs_pixel_of_index(index, width, height);
    float w = film[pixel].w;
    if (!(w >= 0.0f) || w > (float)max_samples || w != floorf(w))
        return rs_error_set(err, "pixel (%u, %u) holds %g samples, not a whole number from 0 to %u", pixel % width,
                            pixel / width, (double)w, max_samples);
    *count = (uint32_t)w;
    return 0;
}

int rs_spans_from_counts(const RsFloat4* film, uint32_t width, uint32_t height, uint32_t max_samples,
                         RsSpan** spans, uint32_t* span_count, RsError* err)
{
    /* at most one cut per pixel: size the output for the worst case, then shrink */
    uint64_t pixels = (uint64_t)width * height;
    RsSpan* out = malloc((size_t)pixels * sizeof *out);
    if (!out)
        return rs_error_set(err, "out of memory reading the film's sample counts");
    uint32_t n = 0;
    for (uint32_t k = 0; k < *span_count; ++k) {
        const RsSpan* s = &(*spans)[k];
        uint32_t end = s->first_index + s->pixels;
        uint32_t i = s->first_index;
        while (i < end) {
            /* a run: `high` samples for a while, then (optionally) high - 1 to the run's end */
            uint32_t start = i, high, c;
            if (count_at(film, width, height, i, max_samples, &high, err)) {
                free(out);
                return -1;
            }
            while (++i < end) {
                if (count_at(film, width, height, i, max_samples, &c, err)) {
                    free(out);
                    return -1;
                }
                if (c != high)
                    break;
            }
            uint32_t ahead = i - start; /* pixels with `high` */
            if (i < end && high > 0 && c == high - 1) {
                while (++i < end) {
                    if (count_at(film, width, height, i, max_samples, &c, err)) {
                        free(out);
                        return -1;
                    }
                    if (c != high - 1)
                        break;
                }
            }
            RsSpan* r = &out[n++];
            memset(r, 0, sizeof *r);
            r->first_index = start;
            r->pixels = i - start;
            r->holder = -1;
            /* all at `high` (ahead == pixels), or `ahead` pixels one sample ahead of the rest */
            r->done = ahead == r->pixels ? (uint64_t)high * r->pixels : (uint64_t)(high - 1) * r->pixels + ahead;
        }
    }
    RsSpan* shrunk = realloc(out, (size_t)n * sizeof *out);
    free(*spans);
    *spans = shrunk ? shrunk : out;
    *span_count = n;
    return 0;
}

uint64_t rs_span_share(const RsSpan* span, uint64_t image_pixels, uint64_t global_paths)
{
    uint64_t passes = global_paths / image_pixels, rest = global_paths % image_pixels;
    uint64_t partial = rest <= span->first_index ? 0 : rest - span->first_index;
    if (partial > span->pixels)
        partial = span->pixels;
    return passes * span->pixels + partial;
}
