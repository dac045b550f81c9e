/* grid.h - the uniform grid: layout, closest-hit and any-hit traversal.
 *
 * Shared header (gcc C11, g++, nvcc). Purcell's accelerator (GPU Gems 2, ch. 33.3.3; Purcell
 * et al., "Ray Tracing on Programmable Graphics Hardware", 2002): the scene box cut into
 * equal cells, each with the list of primitives whose bounding box overlaps it, walked with the
 * 3D digital differential analyser of Amanatides and Woo ("A Fast Voxel Traversal Algorithm",
 * 1987). It is the baseline the BVHs are measured against, not a structure to tune. The builder
 * (src/host/accel/grid_build.c) sizes it by the usual cube-root rule, about RS_GRID_DENSITY
 * cells per primitive, with cells as close to cubes as the box allows.
 *
 * Layout: cells[c] .. cells[c + 1] is cell c's range in refs (c = x + nx (y + ny z)); refs holds
 * indices into the trace primitives. A primitive that spans several cells is listed in each, so
 * a hit found in a cell counts only if it lies before the cell's exit: later cells cannot hold
 * anything nearer. No mailboxes: a primitive may be tested more than once, which costs time but
 * never changes the answer.
 */
#ifndef RS_KERNEL_ACCEL_GRID_H
#define RS_KERNEL_ACCEL_GRID_H

#include "kernel/accel/trace_hit.h"

#define RS_GRID_DENSITY 3.0f

typedef struct RsGridView {
    RsFloat4 lo;       /* xyz: the grid box's low corner */
    RsFloat4 hi;       /* xyz: its high corner */
    RsFloat4 cell;     /* xyz: cell size per axis */
    RsUint4 res;       /* xyz: cells per axis */
    const uint32_t* cells; /* cell count + 1 offsets into refs */
    const uint32_t* refs;
    const RsPrim* prims;   /* trace primitives (trace_hit.h) */
    const RsCutouts* cutouts; /* alpha cut-outs, or NULL (cutout.h) */
    uint32_t cell_count, ref_count, prim_count, pad_;
} RsGridView;

RS_FN int rs_grid_axis_cell(float p, float lo, float size, uint32_t res)
{
    /* clamped as a float before the conversion: a cell of denormal size (a flat axis, whose
     * extent is a denormal) puts points far outside the grid beyond int's range or at inf,
     * whose conversion to int is undefined */
    float c = floorf((p - lo) / size);
    if (!(c >= 1.0f))
        return 0; /* below cell 1, and NaN */
    if (c >= (float)(res - 1u))
        return (int)res - 1;
    return (int)c;
}

RS_FN int rs_grid_traverse(const RsGridView* g, RsVec3 o, RsVec3 d, float tmax, uint32_t skip, int any, RsHit* hit)
{
    rs_hit_init(hit, tmax);
    if (g->cell_count == 0)
        return 0;
    RsVec3 inv_d = rs_safe_inverse(d);
    float t_enter;
    RsVec3 o_inv = rs_mul(o, inv_d);
    if (!rs_intersect_box(g->lo, g->hi, inv_d, o_inv, 0.0f, tmax, &t_enter))
        return 0;
    RsVec3 p = rs_madd(o, d, t_enter);
    int cx = rs_grid_axis_cell(p.x, g->lo.x, g->cell.x, g->res.x);
    int cy = rs_grid_axis_cell(p.y, g->lo.y, g->cell.y, g->res.y);
    int cz = rs_grid_axis_cell(p.z, g->lo.z, g->cell.z, g->res.z);
    /* per axis: the next cell in the ray's direction, where the ray reaches it, and the t
     * between two boundaries */
    int step_x = d.x >= 0.0f ? 1 : -1, step_y = d.y >= 0.0f ? 1 : -1, step_z = d.z >= 0.0f ? 1 : -1;
    float next_x = (g->lo.x + (float)(cx + (step_x > 0)) * g->cell.x - o.x) * inv_d.x;
    float next_y = (g->lo.y + (float)(cy + (step_y > 0)) * g->cell.y - o.y) * inv_d.y;
    float next_z = (g->lo.z + (float)(cz + (step_z > 0)) * g->cell.z - o.z) * inv_d.z;
    float delta_x = g->cell.x * fabsf(inv_d.x), delta_y = g->cell.y * fabsf(inv_d.y), delta_z = g->cell.z * fabsf(inv_d.z);
    for (;;) {
        uint32_t c = (uint32_t)cx + g->res.x * ((uint32_t)cy + g->res.y * (uint32_t)cz);
        for (uint32_t i = g->cells[c]; i < g->cells[c + 1]; ++i)
            if (rs_hit_prim(&g->prims[g->refs[i]], o, d, skip, g->cutouts, hit) && any)
                return 1;
        float exit = rs_minf(next_x, rs_minf(next_y, next_z));
        if (hit->prim != RS_NO_HIT && hit->t <= exit)
            break; /* nothing in a later cell can be nearer */
        if (exit >= hit->t)
            break; /* beyond tmax */
        if (next_x <= next_y && next_x <= next_z) {
            cx += step_x;
            next_x += delta_x;
            if (cx < 0 || cx >= (int)g->res.x)
                break;
        } else if (next_y <= next_z) {
            cy += step_y;
            next_y += delta_y;
            if (cy < 0 || cy >= (int)g->res.y)
                break;
        } else {
            cz += step_z;
            next_z += delta_z;
            if (cz < 0 || cz >= (int)g->res.z)
                break;
        }
    }
    return hit->prim != RS_NO_HIT;
}

RS_FN int rs_grid_closest(const RsGridView* g, RsVec3 o, RsVec3 d, float tmax, uint32_t skip, RsHit* hit)
{
    return rs_grid_traverse(g, o, d, tmax, skip, 0, hit);
}

RS_FN int rs_grid_any(const RsGridView* g, RsVec3 o, RsVec3 d, float tmax, uint32_t skip)
{
    RsHit hit;
    return rs_grid_traverse(g, o, d, tmax, skip, 1, &hit);
}

#endif /* RS_KERNEL_ACCEL_GRID_H */
