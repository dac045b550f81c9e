/* accel.c - the acceleration-structure table on the host: names, parsing, and the timed build
 * dispatch (see accel_build.h). Host C11. */
#include <stdlib.h>
#include <string.h>

#include "host/accel/accel_build.h"
#include "host/util/array.h"
#include "host/util/clock.h"

#define RS_ACCEL_NAME(e, name, help) #name,
static const char* const names[RS_ACCEL_COUNT] = {RS_ACCELS(RS_ACCEL_NAME)};
#undef RS_ACCEL_NAME
#define RS_ACCEL_HELP(e, name, help) help,
static const char* const helps[RS_ACCEL_COUNT] = {RS_ACCELS(RS_ACCEL_HELP)};
#undef RS_ACCEL_HELP

typedef int (*Builder)(const RsPrim*, uint32_t, const RsAccelOptions*, RsAccel*, RsError*);
#define RS_ACCEL_FN(e, name, help) rs_accel_##name##_build,
static const Builder builders[RS_ACCEL_COUNT] = {RS_ACCELS(RS_ACCEL_FN)};
#undef RS_ACCEL_FN

const char* rs_accel_name(uint32_t kind) { return kind < RS_ACCEL_COUNT ? names[kind] : "?"; }
const char* rs_accel_help(uint32_t kind) { return kind < RS_ACCEL_COUNT ? helps[kind] : "?"; }

int rs_accel_parse(const char* name, uint32_t* kind)
{
    for (uint32_t k = 0; k < RS_ACCEL_COUNT; ++k) {
        if (strcmp(name, names[k]) == 0) {
            *kind = k;
            return 0;
        }
    }
    return -1;
}

const char* rs_accel_list(void)
{
    static char list[128];
    if (!list[0]) {
        for (uint32_t k = 0; k < RS_ACCEL_COUNT; ++k) {
            if (k)
                strcat(list, ", ");
            strcat(list, names[k]);
        }
    }
    return list;
}

RsPrim* rs_trace_prims_make(const RsPrim* prims, const uint32_t* refs, uint32_t n)
{
    RsPrim* out = rs_alloc_aligned(n ? n : 1, sizeof(RsPrim), 64);
    if (!out)
        return NULL;
    for (uint32_t i = 0; i < n; ++i) {
        out[i] = prims[refs[i]];
        out[i].a.w = rs_uint_as_float(refs[i]);
    }
    return out;
}

RsAccelOptions rs_accel_options_default(void)
{
    RsAccelOptions o;
    memset(&o, 0, sizeof o);
    o.kind = RS_ACCEL_BVH8;
    o.bins = RS_ACCEL_DEFAULT_BINS;
    o.spatial_splits = 1; /* SBVH: traces faster on the GPU (docs/architecture.md, section 6.2) */
    o.camera_tree = 1;    /* camera rays walk the binary tree (kernel/accel/accel.h) */
    return o;
}

int rs_accel_build(const RsPrim* prims, uint32_t count, const RsAccelOptions* opt, RsAccel* out, RsError* err)
{
    memset(out, 0, sizeof *out);
    if (opt->kind >= RS_ACCEL_COUNT)
        return rs_error_set(err, "unknown acceleration structure %u", opt->kind);
    double t0 = rs_clock_seconds(); /* the pool's start is part of the build's cost */
    RsAccelOptions o = *opt;
    o.pool = rs_pool_create(opt->threads, err);
    if (!o.pool)
        return -1;
    out->view.kind = opt->kind;
    int status = builders[opt->kind](prims, count, &o, out, err);
    rs_pool_destroy(o.pool);
    if (status) {
        rs_accel_free(out);
        return -1;
    }
    out->stats.build_seconds = rs_clock_seconds() - t0;
    return 0;
}

void rs_accel_free(RsAccel* a)
{
    for (int i = 0; i < 4; ++i)
        free(a->owned[i]);
    memset(a, 0, sizeof *a);
}
