/* light_select.h - building what src/kernel/light/light_select.h reads: the arrays of one light
 * selection method over the scene's light table.
 *
 * Host C11. Today's method, RS_LIGHT_SELECT_POWER, is one cumulative table over the lights'
 * powers (pbrt-v4's PowerLightSampler). A new method (a light tree, say) adds its arrays to
 * RsLightSelect and RsLightSelectView, a builder here, and its cases in the kernel header; the
 * consumers (NEE and MIS in stage_shade.h) do not change.
 */
#ifndef RS_HOST_LIGHT_SELECT_H
#define RS_HOST_LIGHT_SELECT_H

#include "host/util/error.h"
#include "kernel/scene/scene_view.h"

typedef struct RsLightSelect {
    uint32_t method; /* RS_LIGHT_SELECT_* */
    uint32_t count;  /* lights */
    float* cdf;      /* POWER: cumulative probability up to and including light i; the last is 1 */
    float* pmf;      /* POWER: probability of light i */
} RsLightSelect;

/* Builds `method` over `count` lights of the given powers (count 0: nothing to build). */
int rs_light_select_build(RsLightSelect* sel, uint32_t method, const double* power, uint32_t count, RsError* err);
void rs_light_select_free(RsLightSelect* sel);
RsLightSelectView rs_light_select_view(const RsLightSelect* sel);

#endif /* RS_HOST_LIGHT_SELECT_H */
