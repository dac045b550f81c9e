/* ray_state.h - RayState and the shadow queue as structures of arrays, generated from the
 * field lists.
 *
 * Shared header (gcc C11, g++, nvcc). A "row" is one ray's entry in every field array. Stage
 * code reads and writes single fields (s->hit[row]) so that it touches only what it needs;
 * rs_ray_move copies a whole row, which is what payload compaction does.
 */
#ifndef RS_KERNEL_RAY_STATE_H
#define RS_KERNEL_RAY_STATE_H

#include "kernel/state/ray_state_fields.h"
#include "kernel/state/shadow_state_fields.h"
#include "kernel/util/compat.h"

#define RS_FIELD_POINTER(type, name, lanes) type* name;
#define RS_FIELD_VALUE(type, name, lanes) type name;
#define RS_FIELD_SIZE_CHECK(type, name, lanes) \
    RS_STATIC_ASSERT(sizeof(type) == 16 && RS_ALIGNOF(type) == 16, #name " must be one aligned 128-bit word");
#define RS_FIELD_BYTES(type, name, lanes) +sizeof(type)
#define RS_FIELD_COUNT(type, name, lanes) +1
#define RS_FIELD_NAME(type, name, lanes) #name,

typedef struct RsRayStateSoA {
    RS_RAY_STATE_FIELDS(RS_FIELD_POINTER)
} RsRayStateSoA;

typedef struct RsShadowStateSoA {
    RS_SHADOW_STATE_FIELDS(RS_FIELD_POINTER)
} RsShadowStateSoA;

/* One ray in registers. */
typedef struct RsRayRow {
    RS_RAY_STATE_FIELDS(RS_FIELD_VALUE)
} RsRayRow;

typedef struct RsShadowRow {
    RS_SHADOW_STATE_FIELDS(RS_FIELD_VALUE)
} RsShadowRow;

RS_RAY_STATE_FIELDS(RS_FIELD_SIZE_CHECK)
RS_SHADOW_STATE_FIELDS(RS_FIELD_SIZE_CHECK)

#define RS_RAY_STATE_BYTES_PER_RAY (0 RS_RAY_STATE_FIELDS(RS_FIELD_BYTES))
#define RS_SHADOW_STATE_BYTES_PER_RAY (0 RS_SHADOW_STATE_FIELDS(RS_FIELD_BYTES))
/* Without the instance lanes (and the shadow queue's target lane): what a scene without
 * instances allocates per ray on a backend that traces no particles. */
#define RS_RAY_STATE_CORE_BYTES_PER_RAY (0 RS_RAY_STATE_CORE_FIELDS(RS_FIELD_BYTES))
#define RS_SHADOW_STATE_CORE_BYTES_PER_RAY (0 RS_SHADOW_STATE_CORE_FIELDS(RS_FIELD_BYTES))
#define RS_RAY_STATE_FIELD_COUNT (0 RS_RAY_STATE_FIELDS(RS_FIELD_COUNT))
#define RS_SHADOW_STATE_FIELD_COUNT (0 RS_SHADOW_STATE_FIELDS(RS_FIELD_COUNT))
/* Initialiser for a `const char* names[]` table, for debug dumps. */
#define RS_RAY_STATE_FIELD_NAMES {RS_RAY_STATE_FIELDS(RS_FIELD_NAME)}

RS_FN void rs_ray_load(const RsRayStateSoA* s, uint32_t row, RsRayRow* r)
{
#define RS_LOAD(type, name, lanes) r->name = s->name[row];
    RS_RAY_STATE_FIELDS(RS_LOAD)
#undef RS_LOAD
}

RS_FN void rs_ray_store(const RsRayStateSoA* s, uint32_t row, const RsRayRow* r)
{
#define RS_STORE(type, name, lanes) s->name[row] = r->name;
    RS_RAY_STATE_FIELDS(RS_STORE)
#undef RS_STORE
}

/* The instance lane only where it is allocated (a scene with instances). */
RS_FN void rs_ray_move(const RsRayStateSoA* src, uint32_t from, const RsRayStateSoA* dst, uint32_t to)
{
#define RS_MOVE(type, name, lanes) dst->name[to] = src->name[from];
    RS_RAY_STATE_CORE_FIELDS(RS_MOVE)
#undef RS_MOVE
    if (dst->instance)
        dst->instance[to] = src->instance[from];
}

/* `instanced`: the scene has instances, so the instance lane is stored too (a scene without
 * them never reads it, and the store would cost every shadow ray 16 bytes). The target lane is
 * stored where it is allocated (a backend that may trace particles; every stage that makes a
 * shadow ray fills it). */
RS_FN void rs_shadow_store(const RsShadowStateSoA* s, uint32_t index, const RsShadowRow* r, int instanced)
{
#define RS_STORE(type, name, lanes) s->name[index] = r->name;
    RS_SHADOW_STATE_CORE_FIELDS(RS_STORE)
#undef RS_STORE
    if (instanced)
        s->instance[index] = r->instance;
    if (s->target)
        s->target[index] = r->target;
}

/* Lanes of path.z: depth in the low 16 bits; the high 16 the path's eta scale (the product of
 * the eta^2 of the refractions it crossed, stage_shade.h) as the top half of a float's bits
 * (bfloat16), 0 meaning 1. */
#define RS_PATH_DEPTH_MASK 0xffffu

RS_FN float rs_path_eta_scale(uint32_t path_z)
{
    uint32_t bits = path_z & ~RS_PATH_DEPTH_MASK;
    return bits ? rs_uint_as_float(bits) : 1.0f;
}

/* path.z with depth `depth` and eta scale `scale`, kept within [1e-4, 1e4] (bfloat16 keeps
 * 8 bits of it: Russian roulette only needs a consistent probability, not an exact one). */
RS_FN uint32_t rs_path_z(uint32_t depth, float scale)
{
    scale = rs_minf(rs_maxf(scale, 1e-4f), 1e4f);
    return (rs_float_as_uint(scale) & ~RS_PATH_DEPTH_MASK) | (depth & RS_PATH_DEPTH_MASK);
}

#endif /* RS_KERNEL_RAY_STATE_H */
