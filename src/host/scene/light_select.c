/* light_select.c - light selection arrays (see light_select.h). Host C11. */
#include "host/scene/light_select.h"

#include <stdlib.h>
#include <string.h>

#include "host/util/array.h"
#include "host/util/clock.h"

void rs_light_select_free(RsLightSelect* sel)
{
    free(sel->cdf);
    free(sel->pmf);
    rs_light_tree_free(&sel->tree);
    memset(sel, 0, sizeof *sel);
}

/* Probability proportional to power, summed in double so that a scene of many dim lights
 * beside a bright one keeps its small probabilities; the last cumulative entry is exactly 1, so
 * a number just below 1 always finds a light. */
static int build_power(RsLightSelect* sel, const double* power, uint32_t count, RsError* err)
{
    sel->cdf = rs_alloc_aligned(count, sizeof(float), 16);
    sel->pmf = rs_alloc_aligned(count, sizeof(float), 16);
    if (!sel->cdf || !sel->pmf)
        return rs_error_set(err, "out of memory building the light selection table (%u lights)", count);
    double total = 0.0;
    for (uint32_t i = 0; i < count; ++i)
        total += power[i];
    double cumulative = 0.0;
    for (uint32_t i = 0; i < count; ++i) {
        double pdf = power[i] / total;
        cumulative += pdf;
        sel->cdf[i] = i + 1 == count ? 1.0f : (float)cumulative;
        sel->pmf[i] = (float)pdf;
    }
    return 0;
}

int rs_light_select_build(RsLightSelect* sel, uint32_t method, const RsSceneView* view, const double* power,
                          uint32_t threads, RsError* err)
{
    rs_light_select_free(sel);
    double t0 = rs_clock_seconds();
    sel->method = method;
    sel->count = view->light_count;
    if (sel->count == 0)
        return 0;
    int failed;
    switch (method) {
    case RS_LIGHT_SELECT_POWER:
        failed = 0;
        break;
    case RS_LIGHT_SELECT_TREE:
        failed = rs_light_tree_build(&sel->tree, view, power, threads, err);
        break;
    default:
        return rs_error_set(err, "internal error: unknown light selection method %u", method);
    }
    /* the power table always: particles leave the lights by power whatever NEE uses */
    failed = failed || build_power(sel, power, sel->count, err);
    if (failed) {
        rs_light_select_free(sel);
        return -1;
    }
    sel->build_seconds = rs_clock_seconds() - t0;
    return 0;
}

RsLightSelectView rs_light_select_view(const RsLightSelect* sel)
{
    RsLightSelectView v;
    memset(&v, 0, sizeof v);
    v.method = sel->method;
    int power = sel->method == RS_LIGHT_SELECT_POWER;
    v.cdf = power ? sel->cdf : sel->tree.infinite_cdf;
    v.pmf = power ? sel->pmf : sel->tree.infinite_pmf;
    v.power_cdf = sel->cdf;
    v.power_pmf = sel->pmf;
    v.nodes = sel->tree.nodes;
    v.trails = sel->tree.trails;
    v.node_count = sel->tree.node_count;
    v.env_prob = sel->tree.env_prob;
    return v;
}
