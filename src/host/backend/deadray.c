/* deadray.c - the dead-ray strategies' properties, from deadray_table.h (see backend.h): names,
 * help texts, which are compactions, which backends have each, and their extra wave bytes.
 * Host C11. */
#include <string.h>

#include "host/backend/backend.h"

typedef struct DeadRayRow {
    const char* name;
    int compaction;
    uint32_t extra_bytes;
    uint32_t backends;
    const char* help;
} DeadRayRow;

static const DeadRayRow deadray_rows[RS_DEADRAY_COUNT] = {
#define RS_DEADRAY_ROW(id, name, compaction, bytes, backends, help) {name, compaction, bytes, backends, help},
    RS_DEADRAY_TABLE(RS_DEADRAY_ROW)
#undef RS_DEADRAY_ROW
};

static const char deadray_list[] = ""
#define RS_DEADRAY_LIST_ITEM(id, name, compaction, bytes, backends, help) ", " name
    RS_DEADRAY_TABLE(RS_DEADRAY_LIST_ITEM)
#undef RS_DEADRAY_LIST_ITEM
    ;

const char* rs_deadray_name(RsDeadRay d) { return d < RS_DEADRAY_COUNT ? deadray_rows[d].name : "?"; }

const char* rs_deadray_help(RsDeadRay d) { return d < RS_DEADRAY_COUNT ? deadray_rows[d].help : "?"; }

int rs_deadray_parse(const char* name, RsDeadRay* out)
{
    for (int i = 0; i < RS_DEADRAY_COUNT; ++i) {
        if (strcmp(name, deadray_rows[i].name) == 0) {
            *out = (RsDeadRay)i;
            return 0;
        }
    }
    return -1;
}

int rs_deadray_is_compaction(RsDeadRay d) { return d < RS_DEADRAY_COUNT && deadray_rows[d].compaction == 1; }

int rs_deadray_may_compact(RsDeadRay d) { return d < RS_DEADRAY_COUNT && deadray_rows[d].compaction != 0; }

int rs_deadray_supported(RsDeadRay d, RsBackendKind kind)
{
    if (d >= RS_DEADRAY_COUNT)
        return 0;
    uint32_t on = kind == RS_BACKEND_CPU ? RS_ON_CPU : (kind == RS_BACKEND_CUDA ? RS_ON_CUDA : RS_ON_CPU | RS_ON_CUDA);
    return (deadray_rows[d].backends & on) == on;
}

const char* rs_deadray_list(void) { return deadray_list + 2; /* past the leading ", " */ }

RsDeadRay rs_deadray_next(RsDeadRay d, RsBackendKind kind)
{
    for (int step = 1; step <= RS_DEADRAY_COUNT; ++step) {
        RsDeadRay next = (RsDeadRay)((d + step) % RS_DEADRAY_COUNT);
        if (rs_deadray_supported(next, kind))
            return next;
    }
    return d;
}

uint32_t rs_deadray_extra_bytes(RsDeadRay d) { return d < RS_DEADRAY_COUNT ? deadray_rows[d].extra_bytes : 0u; }
