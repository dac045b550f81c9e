/* light_select.h - building what src/kernel/light/light_select.h reads: the arrays of one light
 * selection method over the scene's light table.
 *
 * Host C11. RS_LIGHT_SELECT_POWER is one cumulative table over the lights' powers (pbrt-v4's
 * PowerLightSampler); RS_LIGHT_SELECT_TREE a BVH over the emitters with power and orientation
 * bounds (light_tree.h). A new method adds its arrays to RsLightSelect and RsLightSelectView, a
 * builder here, and its cases in the kernel header; the consumers (NEE and MIS in
 * stage_shade.h) do not change.
 */
#ifndef RS_HOST_LIGHT_SELECT_H
#define RS_HOST_LIGHT_SELECT_H

#include "host/scene/light_tree.h"
#include "host/util/error.h"
#include "kernel/scene/scene_view.h"

typedef struct RsLightSelect {
    uint32_t method; /* RS_LIGHT_SELECT_* */
    uint32_t count;  /* lights */
    float* cdf;      /* cumulative probability up to and including light i, by power; the last is 1 */
    float* pmf;      /* probability of light i, by power: POWER's choice, and for every method
                        where particles leave the lights (light tracing, SPPM) */
    RsLightTree tree; /* TREE: nodes, trails and the environment's probability (light_tree.h) */
    double build_seconds; /* how long rs_light_select_build took */
} RsLightSelect;

/* Builds `method` over the light table of `view` (lights, light_count, env_light, and the
 * prims, materials and point lights the entries name; its light_select is not read), whose
 * entries have the given powers (count 0: nothing to build), on up to `threads` threads (0: one
 * per processor). */
int rs_light_select_build(RsLightSelect* sel, uint32_t method, const RsSceneView* view, const double* power,
                          uint32_t threads, RsError* err);
void rs_light_select_free(RsLightSelect* sel);
RsLightSelectView rs_light_select_view(const RsLightSelect* sel);

#endif /* RS_HOST_LIGHT_SELECT_H */
