/* settings.c - integrator names (see settings.h). Host C11. */
#include "host/scene/settings.h"

#include <string.h>

int rs_integrator_parse(const char* name, uint32_t* out)
{
    if (strcmp(name, "path") == 0)
        *out = RS_INTEGRATOR_PATH;
    else if (strcmp(name, "whitted") == 0)
        *out = RS_INTEGRATOR_WHITTED;
    else
        return -1;
    return 0;
}

const char* rs_integrator_name(uint32_t integrator)
{
    return integrator == RS_INTEGRATOR_WHITTED ? "whitted" : "path";
}
