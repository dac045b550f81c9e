/* display_cpu.c - host display pipeline (see display_cpu.h). Host C11. */
#include "host/backend/cpu/display_cpu.h"

#include <math.h>
#include <string.h>

void rs_display_stats_cpu(const RsFloat4* film, uint32_t pixels, RsDisplayStats* stats)
{
    memset(stats, 0, sizeof *stats);
    double sum_log = 0.0;
    uint32_t lit = 0;
    for (uint32_t i = 0; i < pixels; ++i) {
        if (!(film[i].w > 0.0f))
            continue;
        float lum = rs_luminance(rs_film_pixel(film[i]));
        if (lum > 0.0f) {
            sum_log += log((double)RS_LOG_DELTA + (double)lum);
            lit++;
        }
        stats->max_luminance = lum > stats->max_luminance ? lum : stats->max_luminance;
        stats->histogram[rs_hist_bin(lum)]++;
        stats->pixels++;
    }
    stats->log_average = lit ? exp(sum_log / lit) : 0.0;
}

float rs_display_exposure(const RsDisplaySettings* settings, const RsDisplayStats* stats)
{
    return rs_exposure_ev(settings->exposure, settings->auto_exposure, stats->log_average);
}

void rs_display_tonemap_cpu(const RsFloat4* film, uint32_t begin, uint32_t end, float exposure, uint32_t curve,
                            uint8_t* rgba)
{
    float scale = exp2f(exposure);
    for (uint32_t i = begin; i < end; ++i) {
        rs_tonemap_rgb(rs_film_pixel(film[i]), scale, curve, rgba + 4 * (size_t)i);
        rgba[4 * (size_t)i + 3] = 255;
    }
}
