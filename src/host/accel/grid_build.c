/* grid_build.c - the uniform grid of src/kernel/accel/grid.h. Host C11.
 *
 * Resolution by the usual cube-root rule (Woo; Cleary and Wyvill; GPU Gems 2 ch. 33.3.3): with
 * N primitives in a box of volume V, cells of side (V / (RS_GRID_DENSITY N))^(1/3), so about
 * RS_GRID_DENSITY cells per primitive, as cube-shaped as the box allows (an axis with no extent
 * gets one cell). Each primitive is listed in every cell its bounding box overlaps; the lists
 * are one array in cell order (counted, prefix-summed, then filled, in primitive order, so the
 * grid and every traversal are the same on every run). Built on one thread: it is the baseline,
 * not a structure to tune.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host/accel/accel_build.h"
#include "host/accel/bvh_binary.h"
#include "host/util/array.h"

#define RS_GRID_MAX_AXIS 1024u
#define RS_GRID_MAX_CELLS (64u << 20)

static void cell_range(RsVec3 lo, RsVec3 hi, const RsGridView* g, uint32_t c0[3], uint32_t c1[3])
{
    for (int k = 0; k < 3; ++k) {
        float glo = rs_vec3_get(rs_xyz(g->lo), k), size = rs_vec3_get(rs_xyz(g->cell), k);
        uint32_t res = k == 0 ? g->res.x : (k == 1 ? g->res.y : g->res.z);
        c0[k] = (uint32_t)rs_grid_axis_cell(rs_vec3_get(lo, k), glo, size, res);
        c1[k] = (uint32_t)rs_grid_axis_cell(rs_vec3_get(hi, k), glo, size, res);
    }
}

int rs_accel_grid_build(const RsPrim* prims, uint32_t count, const RsAccelOptions* opt, RsAccel* out, RsError* err)
{
    (void)opt;
    RsVec3* boxes = malloc((size_t)count * 2 * sizeof *boxes);
    if (!boxes)
        return rs_error_set(err, "out of memory building the grid over %u primitives", count);
    RsVec3 lo = rs_vec3_splat(INFINITY), hi = rs_vec3_splat(-INFINITY);
    for (uint32_t i = 0; i < count; ++i) {
        rs_prim_bounds(&prims[i], &boxes[2 * i], &boxes[2 * i + 1]);
        lo = rs_vmin(lo, boxes[2 * i]);
        hi = rs_vmax(hi, boxes[2 * i + 1]);
    }
    RsVec3 extent = rs_sub(hi, lo);
    float largest = rs_max_component(extent);
    /* volume with flat axes counted as a thousandth of the largest, so flat scenes still divide */
    double floor_extent = largest > 0.0f ? 1e-3 * largest : 1.0;
    double ex = fmax(extent.x, floor_extent), ey = fmax(extent.y, floor_extent), ez = fmax(extent.z, floor_extent);
    double side = cbrt(ex * ey * ez / (RS_GRID_DENSITY * (double)count));
    uint32_t res[3];
    double e[3] = {extent.x, extent.y, extent.z};
    for (int k = 0; k < 3; ++k) {
        double n = e[k] > 0.0 ? ceil(e[k] / side) : 1.0;
        res[k] = n < 1.0 ? 1u : (n > RS_GRID_MAX_AXIS ? RS_GRID_MAX_AXIS : (uint32_t)n);
    }
    while ((uint64_t)res[0] * res[1] * res[2] > RS_GRID_MAX_CELLS)
        for (int k = 0; k < 3; ++k)
            res[k] = res[k] > 1 ? (res[k] + 1) / 2 : 1;
    RsGridView* g = &out->view.grid;
    memset(g, 0, sizeof *g);
    g->res = rs_uint4(res[0], res[1], res[2], 0);
    RsVec3 cell = rs_vec3(extent.x > 0.0f ? extent.x / (float)res[0] : 1.0f,
                          extent.y > 0.0f ? extent.y / (float)res[1] : 1.0f,
                          extent.z > 0.0f ? extent.z / (float)res[2] : 1.0f);
    g->lo = rs_pack(lo, 0.0f);
    g->hi = rs_pack(hi, 0.0f);
    g->cell = rs_pack(cell, 0.0f);
    uint32_t cells = res[0] * res[1] * res[2];
    uint32_t* offsets = calloc((size_t)cells + 1, sizeof *offsets);
    if (!offsets) {
        free(boxes);
        return rs_error_set(err, "out of memory: a grid of %u cells", cells);
    }
    uint64_t total = 0;
    for (uint32_t i = 0; i < count; ++i) {
        uint32_t c0[3], c1[3];
        cell_range(boxes[2 * i], boxes[2 * i + 1], g, c0, c1);
        for (uint32_t z = c0[2]; z <= c1[2]; ++z)
            for (uint32_t y = c0[1]; y <= c1[1]; ++y)
                for (uint32_t x = c0[0]; x <= c1[0]; ++x)
                    offsets[x + res[0] * (y + res[1] * z) + 1]++;
        total += (uint64_t)(c1[0] - c0[0] + 1) * (c1[1] - c0[1] + 1) * (c1[2] - c0[2] + 1);
    }
    if (total > 0xffffffffu) {
        free(boxes);
        free(offsets);
        return rs_error_set(err, "grid: %llu cell entries do not fit 32-bit indices", (unsigned long long)total);
    }
    uint32_t nonempty = 0;
    for (uint32_t c = 0; c < cells; ++c) {
        nonempty += offsets[c + 1] != 0;
        offsets[c + 1] += offsets[c];
    }
    uint32_t* refs = malloc((size_t)(total ? total : 1) * sizeof *refs);
    uint32_t* cursor = malloc((size_t)cells * sizeof *cursor);
    uint32_t* identity = malloc((size_t)count * sizeof *identity);
    if (!refs || !cursor || !identity) {
        free(boxes);
        free(offsets);
        free(refs);
        free(cursor);
        free(identity);
        return rs_error_set(err, "out of memory: %llu grid entries", (unsigned long long)total);
    }
    memcpy(cursor, offsets, (size_t)cells * sizeof *cursor);
    for (uint32_t i = 0; i < count; ++i) {
        uint32_t c0[3], c1[3];
        cell_range(boxes[2 * i], boxes[2 * i + 1], g, c0, c1);
        for (uint32_t z = c0[2]; z <= c1[2]; ++z)
            for (uint32_t y = c0[1]; y <= c1[1]; ++y)
                for (uint32_t x = c0[0]; x <= c1[0]; ++x)
                    refs[cursor[x + res[0] * (y + res[1] * z)]++] = i;
        identity[i] = i;
    }
    free(cursor);
    free(boxes);
    RsPrim* trace = rs_trace_prims_make(prims, identity, count); /* refs index the scene's order */
    free(identity);
    if (!trace) {
        free(offsets);
        free(refs);
        return rs_error_set(err, "out of memory: grid trace primitives");
    }
    g->cells = offsets;
    g->refs = refs;
    g->prims = trace;
    g->cell_count = cells;
    g->ref_count = (uint32_t)total;
    g->prim_count = count;
    out->owned[0] = offsets;
    out->owned[1] = refs;
    out->owned[2] = trace;
    out->stats.nodes = cells;
    out->stats.leaves = nonempty;
    out->stats.references = total;
    out->stats.bytes = ((uint64_t)cells + 1) * 4 + total * 4 + (uint64_t)count * sizeof(RsPrim);
    return 0;
}
