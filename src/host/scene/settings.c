/* settings.c - the names of the settings chosen by name (see settings.h). Host C11. */
#include "host/scene/settings.h"

#include <string.h>

#include "kernel/sampling/sampler.h"
#include "kernel/scene/scene_view.h"

int rs_integrator_parse(const char* name, uint32_t* out)
{
    if (strcmp(name, "path") == 0)
        *out = RS_INTEGRATOR_PATH;
    else if (strcmp(name, "whitted") == 0)
        *out = RS_INTEGRATOR_WHITTED;
    else if (strcmp(name, "light") == 0)
        *out = RS_INTEGRATOR_LIGHT;
    else if (strcmp(name, "sppm") == 0)
        *out = RS_INTEGRATOR_SPPM;
    else
        return -1;
    return 0;
}

const char* rs_integrator_name(uint32_t integrator)
{
    switch (integrator) {
    case RS_INTEGRATOR_WHITTED:
        return "whitted";
    case RS_INTEGRATOR_LIGHT:
        return "light";
    case RS_INTEGRATOR_SPPM:
        return "sppm";
    default:
        return "path";
    }
}

/* One table per named setting: the value is the index. */
static const char* const sampler_names[RS_SAMPLER_COUNT] = {"independent", "sobol"};
static const char* const light_sampler_names[RS_LIGHT_SELECT_COUNT] = {"power", "tree"};

static int parse_name(const char* const* names, uint32_t count, const char* name, uint32_t* out)
{
    for (uint32_t i = 0; i < count; ++i)
        if (strcmp(names[i], name) == 0) {
            *out = i;
            return 0;
        }
    return -1;
}

int rs_sampler_parse(const char* name, uint32_t* out)
{
    return parse_name(sampler_names, RS_SAMPLER_COUNT, name, out);
}

const char* rs_sampler_name(uint32_t sampler) { return sampler < RS_SAMPLER_COUNT ? sampler_names[sampler] : "?"; }

const char* rs_sampler_list(void) { return "independent, sobol"; }

int rs_light_sampler_parse(const char* name, uint32_t* out)
{
    return parse_name(light_sampler_names, RS_LIGHT_SELECT_COUNT, name, out);
}

const char* rs_light_sampler_name(uint32_t light_sampler)
{
    return light_sampler < RS_LIGHT_SELECT_COUNT ? light_sampler_names[light_sampler] : "?";
}

const char* rs_light_sampler_list(void) { return "power, tree"; }
