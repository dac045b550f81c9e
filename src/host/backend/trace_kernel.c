/* trace_kernel.c - how extend runs its traversals (see backend.h): names, parsing, and what
 * RS_TRACE_AUTO resolves to. Host C11. */
#include <string.h>

#include "host/backend/backend.h"
#include "kernel/accel/accel.h"

const char* rs_trace_kernel_name(RsTraceKernel k)
{
    return k == RS_TRACE_PERSISTENT ? "persistent" : (k == RS_TRACE_PLAIN ? "plain" : "auto");
}

RsTraceKernel rs_trace_kernel_resolve(RsTraceKernel k, uint32_t accel, uint32_t depth)
{
    if (k != RS_TRACE_AUTO)
        return k;
    return accel == RS_ACCEL_BVH8 && depth >= 2 ? RS_TRACE_PERSISTENT : RS_TRACE_PLAIN;
}

RsTraceKernel rs_trace_kernel_resolve_shadow(RsTraceKernel k, uint32_t accel)
{
    if (k != RS_TRACE_AUTO)
        return k;
    return accel == RS_ACCEL_BVH8 ? RS_TRACE_PERSISTENT : RS_TRACE_PLAIN;
}

int rs_trace_kernel_parse(const char* name, RsTraceKernel* out)
{
    if (strcmp(name, "auto") == 0)
        *out = RS_TRACE_AUTO;
    else if (strcmp(name, "plain") == 0)
        *out = RS_TRACE_PLAIN;
    else if (strcmp(name, "persistent") == 0)
        *out = RS_TRACE_PERSISTENT;
    else
        return -1;
    return 0;
}
