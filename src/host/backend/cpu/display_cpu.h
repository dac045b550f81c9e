/* display_cpu.h - the display pipeline on the host: luminance reduction (log-average, max),
 * luminance histogram and tone mapping of a film, for the CPU backend and as the reference the
 * CUDA kernels are tested against. Host C11. */
#ifndef RS_HOST_DISPLAY_CPU_H
#define RS_HOST_DISPLAY_CPU_H

#include "host/backend/backend.h"

/* Statistics of `pixels` film entries; deterministic (fixed summation order, in double). */
void rs_display_stats_cpu(const RsFloat4* film, uint32_t pixels, RsDisplayStats* stats);

/* The exposure in stops that settings and stats give together. */
float rs_display_exposure(const RsDisplaySettings* settings, const RsDisplayStats* stats);

/* Tone-maps film entries [begin, end) into RGBA8. */
void rs_display_tonemap_cpu(const RsFloat4* film, uint32_t begin, uint32_t end, float exposure, uint32_t curve,
                            uint8_t* rgba);

#endif /* RS_HOST_DISPLAY_CPU_H */
