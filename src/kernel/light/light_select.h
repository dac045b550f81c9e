/* light_select.h - which light next-event estimation samples: one interface for every way of
 * choosing, and the probability of each choice.
 *
 * Shared header (gcc C11, g++, nvcc). Two calls, used by every consumer:
 *   rs_light_select_sample(scene, ctx, u, &pmf) -> light   NEE picks a light of the table
 *   rs_light_select_pmf(scene, ctx, light)      -> pmf     the probability NEE would have
 *                                                          picked it: the MIS weight of a BSDF
 *                                                          ray that hits an emitter needs it
 * Lights are the entries of the scene's light table (scene_data.h, "light entry"); a primitive
 * names its own entry (rs_prim_light), the environment's is scene->env_light. Nothing about
 * selection is stored with a primitive, so a new method changes only this file and the host's
 * builder (src/host/scene/light_select.c).
 *
 * The context is the shading point: where NEE samples from, or, for the MIS weight, where the
 * BSDF ray came from. RayState does not carry that vertex's normal, so rs_light_context_of_ray
 * gives n = 0 and the ray's origin (the vertex pushed off the surface by its error bound). The
 * two calls must agree for one path, so a method may use ctx.p (a continuous function of it:
 * the offset is a few ulps) but must ignore ctx.n until the ray carries the normal.
 *
 * Methods (RS_LIGHT_SELECT_*; an enum switch, never a device function pointer):
 *   POWER  probability proportional to emitted power (pbrt-v4's PowerLightSampler), one CDF for
 *          the whole scene, binary search; ignores the context.
 *   TREE   a BVH over the emitters with power and orientation bounds (light_tree.h): one walk
 *          from the root, each child drawn in proportion to its importance at ctx.p (power,
 *          distance, orientation; never ctx.n); the probability is the product of the choices
 *          along the light's stored trail. The environment is picked beside the tree with a
 *          fixed probability, its share of the scene's power (what POWER gives it).
 */
#ifndef RS_KERNEL_LIGHT_SELECT_H
#define RS_KERNEL_LIGHT_SELECT_H

#include "kernel/light/light_tree.h"
#include "kernel/scene/scene_view.h"

typedef struct RsLightContext {
    RsVec3 p; /* the shading point */
    RsVec3 n; /* its geometric normal, or (0, 0, 0) where unknown */
} RsLightContext;

RS_FN RsLightContext rs_light_context(RsVec3 p, RsVec3 n)
{
    RsLightContext c;
    c.p = p;
    c.n = n;
    return c;
}

/* The context of the vertex a ray left, as far as the ray knows it (see above). */
RS_FN RsLightContext rs_light_context_of_ray(RsFloat4 origin)
{
    return rs_light_context(rs_xyz(origin), rs_vec3_splat(0.0f));
}

/* Index of the first light whose cumulative probability in `cdf` (count entries, the last 1)
 * exceeds u: RS_LIGHT_SELECT_POWER's pick, and where particles leave the lights (light_emit.h). */
RS_FN uint32_t rs_light_select_power_find(const float* cdf, uint32_t count, float u)
{
    uint32_t lo = 0, hi = count - 1;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (u < cdf[mid])
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* Picks a light for NEE at ctx with u in [0, 1); *pmf is the probability of that pick (0 only
 * when no light can be picked: rs_light_sample then finds none). Only call with
 * scene->light_count > 0. */
RS_FN uint32_t rs_light_select_sample(const RsSceneView* s, RsLightContext ctx, float u, float* pmf)
{
    const RsLightSelectView* sel = &s->light_select;
    switch (sel->method) {
    case RS_LIGHT_SELECT_TREE:
        return rs_light_tree_sample(s, ctx.p, u, pmf);
    default: { /* RS_LIGHT_SELECT_POWER */
        uint32_t light = rs_light_select_power_find(sel->cdf, s->light_count, u);
        *pmf = sel->pmf[light];
        return light;
    }
    }
}

/* The probability that rs_light_select_sample at ctx picks `light`; 0 for RS_NO_LIGHT. */
RS_FN float rs_light_select_pmf(const RsSceneView* s, RsLightContext ctx, uint32_t light)
{
    if (light == RS_NO_LIGHT)
        return 0.0f;
    switch (s->light_select.method) {
    case RS_LIGHT_SELECT_TREE:
        return rs_light_tree_pmf(s, ctx.p, light);
    default: /* RS_LIGHT_SELECT_POWER */
        return s->light_select.pmf[light];
    }
}

#endif /* RS_KERNEL_LIGHT_SELECT_H */
