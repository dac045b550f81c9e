/* bvh_binary_split.c - where the binary SAH builder cuts a node, and the cut itself (see
 * bvh_binary_internal.h). Host C11.
 *
 * A node's references are split by the cheaper of:
 *   - an object split: centroids binned into `bins` buckets per axis, the boundary of least
 *     SAH cost A_L N_L + A_R N_R (Wald 2007); references are partitioned in place;
 *   - a spatial split (when enabled and the object split's children overlap enough, Stich et
 *     al. 2009; bvh_binary_task.c decides): the node box cut into `bins` slabs per axis, each
 *     reference binned as its pieces in the slabs it crosses (a triangle swept through the
 *     planes in float, so a long thin triangle only adds its own slab-sized pieces), the
 *     boundary of least cost; straddling references go to both sides with boxes clipped
 *     exactly, in two new segments.
 * Bins are filled by _add over any part of a node's references and _merge'd (bvh_binary_top.c
 * fills one per worker); the split found does not depend on how the references were shared.
 */
#include <float.h>
#include <stdint.h>

#include "host/accel/bvh_binary_internal.h"

static int box_valid(RsBinaryBox b) { return b.lo.x <= b.hi.x && b.lo.y <= b.hi.y && b.lo.z <= b.hi.z; }

static int bin_of(float x, float lo, float scale, int bins)
{
    /* clamped as a float, before the conversion: where hi - lo is a denormal, scale is
     * infinite and the product inf (or NaN at x == lo, 0 * inf), and converting either (or
     * any float beyond int's range) to int is undefined */
    float f = (x - lo) * scale;
    if (!(f >= 1.0f))
        return 0; /* below bin 1, and NaN */
    if (f >= (float)(bins - 1))
        return bins - 1;
    return (int)f;
}

void rs_binary_object_bins_init(RsBinaryObjectBins* o, RsBinaryBox cbox, int bins)
{
    o->bins = bins;
    for (int axis = 0; axis < 3; ++axis) {
        o->lo[axis] = rs_binary_axis(cbox.lo, axis);
        float hi = rs_binary_axis(cbox.hi, axis);
        o->live[axis] = hi > o->lo[axis];
        o->scale[axis] = o->live[axis] ? (float)bins / (hi - o->lo[axis]) : 0.0f;
        for (int i = 0; i < bins; ++i) {
            o->box[axis][i] = rs_binary_box_empty();
            o->count[axis][i] = 0;
        }
    }
}

void rs_binary_object_bins_add(RsBinaryObjectBins* o, const RsBinaryRef* r, uint32_t count)
{
    const int bins = o->bins;
    for (uint32_t i = 0; i < count; ++i) {
        RsVec3 c = rs_binary_centroid(r[i].box);
        for (int axis = 0; axis < 3; ++axis) {
            int b = bin_of(rs_binary_axis(c, axis), o->lo[axis], o->scale[axis], bins);
            o->count[axis][b]++;
            rs_binary_box_grow(&o->box[axis][b], r[i].box);
        }
    }
}

void rs_binary_object_bins_merge(RsBinaryObjectBins* o, const RsBinaryObjectBins* from)
{
    for (int axis = 0; axis < 3; ++axis)
        for (int i = 0; i < o->bins; ++i) {
            o->count[axis][i] += from->count[axis][i];
            rs_binary_box_grow(&o->box[axis][i], from->box[axis][i]);
        }
}

RsBinarySplit rs_binary_object_best(const RsBinaryObjectBins* o, uint32_t count)
{
    RsBinarySplit best = {-1, 0, 0, 0.0f, FLT_MAX, rs_binary_box_empty(), rs_binary_box_empty()};
    const int bins = o->bins;
    for (int axis = 0; axis < 3; ++axis) {
        if (!o->live[axis])
            continue;
        float right_cost[RS_BINARY_MAX_BINS];
        RsBinaryBox right_box[RS_BINARY_MAX_BINS];
        RsBinaryBox acc = rs_binary_box_empty();
        uint32_t n = 0;
        for (int i = bins - 1; i > 0; --i) {
            rs_binary_box_grow(&acc, o->box[axis][i]);
            n += o->count[axis][i];
            right_cost[i - 1] = n ? rs_binary_box_area(acc) * (float)n : 0.0f;
            right_box[i - 1] = acc;
        }
        acc = rs_binary_box_empty();
        n = 0;
        for (int i = 0; i < bins - 1; ++i) {
            rs_binary_box_grow(&acc, o->box[axis][i]);
            n += o->count[axis][i];
            if (n == 0 || n == count)
                continue;
            float cost = rs_binary_box_area(acc) * (float)n + right_cost[i];
            if (cost < best.cost) {
                best.axis = axis;
                best.bin = i;
                best.cost = cost;
                best.left = acc;
                best.right = right_box[i];
            }
        }
    }
    return best;
}

RsBinarySplit rs_binary_object_split(const RsBinaryRef* r, uint32_t count, RsBinaryBox cbox, int bins)
{
    RsBinaryObjectBins o;
    rs_binary_object_bins_init(&o, cbox, bins);
    rs_binary_object_bins_add(&o, r, count);
    return rs_binary_object_best(&o, count);
}

/* Bins for a node of `count` references: the full count for big nodes, where a better split
 * pays back over many rays, and about two per reference below that, since more bins than
 * references only cost sweep time. */
int rs_binary_bins_for(uint32_t count, uint32_t max_bins)
{
    uint32_t b = 2 * count;
    return (int)(b < 4 ? 4 : (b > max_bins ? max_bins : b));
}

static float spatial_plane(RsBinaryBox box, int axis, int i, int bins)
{
    float lo = rs_binary_axis(box.lo, axis), hi = rs_binary_axis(box.hi, axis);
    return lo + (hi - lo) * ((float)i / (float)bins);
}

/* A triangle's vertices sorted along one axis (w: their coordinates on it), for the sweep below. */
typedef struct SweepTri {
    RsVec3 v[3];
    float w[3];
} SweepTri;

static SweepTri sweep_tri(const RsPrim* p, int axis)
{
    SweepTri t;
    t.v[0] = rs_xyz(p->a);
    t.v[1] = rs_add(t.v[0], rs_xyz(p->b));
    t.v[2] = rs_add(t.v[0], rs_xyz(p->c));
    for (int i = 0; i < 3; ++i)
        t.w[i] = rs_binary_axis(t.v[i], axis);
#define SWAP_IF(i, j)                      \
    if (t.w[j] < t.w[i]) {                 \
        float w_ = t.w[i];                 \
        RsVec3 v_ = t.v[i];                \
        t.w[i] = t.w[j], t.v[i] = t.v[j];  \
        t.w[j] = w_, t.v[j] = v_;          \
    }
    SWAP_IF(0, 1)
    SWAP_IF(1, 2)
    SWAP_IF(0, 1)
#undef SWAP_IF
    return t;
}

static RsVec3 lerp_at(RsVec3 a, float wa, RsVec3 b, float wb, float x)
{
    float t = wb > wa ? (x - wa) / (wb - wa) : 0.0f;
    return rs_add(a, rs_scale(rs_sub(b, a), t));
}

/* The triangle's cross-section with the plane at x (clamped to its extent): the segment between
 * its long edge v0-v2 and whichever short edge the plane crosses, as a box. */
static RsBinaryBox sweep_section(const SweepTri* t, float x)
{
    if (x <= t->w[0]) {
        RsBinaryBox b = {t->v[0], t->v[0]};
        return b;
    }
    if (x >= t->w[2]) {
        RsBinaryBox b = {t->v[2], t->v[2]};
        return b;
    }
    RsVec3 p = lerp_at(t->v[0], t->w[0], t->v[2], t->w[2], x);
    RsVec3 q = x < t->w[1] ? lerp_at(t->v[0], t->w[0], t->v[1], t->w[1], x)
                           : lerp_at(t->v[1], t->w[1], t->v[2], t->w[2], x);
    RsBinaryBox b = {rs_vmin(p, q), rs_vmax(p, q)};
    return b;
}

/* Bins a reference that crosses bins b0 < b1 along `axis`. Triangles are swept through the
 * planes in float: each plane's cross-section is computed once and bounds the pieces on both of
 * its sides, so a reference crossing k planes costs k sections (two edge points each) instead
 * of k exact clips. These pieces only estimate the split's cost; the references of the split
 * chosen are clipped exactly (rs_binary_clip_prim, rounded outwards) when they are partitioned,
 * so the estimate's rounding never makes a box too small. Other primitives are chopped as boxes. */
static void bin_straddler(const RsPrim* p, RsBinaryBox rb, int axis, int b0, int b1, RsBinaryBox box, int bins,
                          RsBinaryBox* bin_box)
{
    if (rs_prim_type(p) != RS_PRIM_TRIANGLE) {
        for (int b = b0; b <= b1; ++b) {
            RsBinaryBox piece = rb;
            if (b > b0)
                rs_binary_set_axis(&piece.lo, axis, spatial_plane(box, axis, b, bins));
            if (b < b1)
                rs_binary_set_axis(&piece.hi, axis, spatial_plane(box, axis, b + 1, bins));
            rs_binary_box_grow(&bin_box[b], piece);
        }
        return;
    }
    SweepTri t = sweep_tri(p, axis);
    float lo = rs_binary_axis(rb.lo, axis), hi = rs_binary_axis(rb.hi, axis);
    RsBinaryBox prev = sweep_section(&t, lo);
    float x0 = lo;
    for (int b = b0; b <= b1; ++b) {
        float x1 = b < b1 ? spatial_plane(box, axis, b + 1, bins) : hi;
        RsBinaryBox next = sweep_section(&t, x1), piece = prev;
        rs_binary_box_grow(&piece, next);
        for (int k = 0; k < 3; ++k)
            if (t.w[k] > x0 && t.w[k] < x1) {
                piece.lo = rs_vmin(piece.lo, t.v[k]);
                piece.hi = rs_vmax(piece.hi, t.v[k]);
            }
        piece = rs_binary_box_intersect(piece, rb);
        if (b > b0)
            rs_binary_set_axis(&piece.lo, axis, x0);
        if (b < b1)
            rs_binary_set_axis(&piece.hi, axis, x1);
        if (box_valid(piece))
            rs_binary_box_grow(&bin_box[b], piece);
        prev = next;
        x0 = x1;
    }
}

void rs_binary_spatial_bins_init(RsBinarySpatialBins* o, RsBinaryBox box, int bins)
{
    o->bins = bins;
    o->box = box;
    for (int axis = 0; axis < 3; ++axis) {
        o->lo[axis] = rs_binary_axis(box.lo, axis);
        float hi = rs_binary_axis(box.hi, axis);
        o->live[axis] = hi > o->lo[axis];
        o->scale[axis] = o->live[axis] ? (float)bins / (hi - o->lo[axis]) : 0.0f;
        for (int i = 0; i < bins; ++i) {
            o->bin_box[axis][i] = rs_binary_box_empty();
            o->entry[axis][i] = o->exit[axis][i] = 0;
        }
    }
}

void rs_binary_spatial_bins_add(RsBinarySpatialBins* o, const RsPrim* prims, const RsBinaryRef* r, uint32_t count)
{
    const int bins = o->bins;
    for (int axis = 0; axis < 3; ++axis) {
        if (!o->live[axis])
            continue;
        float lo = o->lo[axis], scale = o->scale[axis];
        RsBinaryBox* bin_box = o->bin_box[axis];
        for (uint32_t i = 0; i < count; ++i) {
            int b0 = bin_of(rs_binary_axis(r[i].box.lo, axis), lo, scale, bins);
            int b1 = bin_of(rs_binary_axis(r[i].box.hi, axis), lo, scale, bins);
            o->entry[axis][b0]++;
            o->exit[axis][b1]++;
            if (b0 == b1)
                rs_binary_box_grow(&bin_box[b0], r[i].box);
            else
                bin_straddler(&prims[r[i].prim], r[i].box, axis, b0, b1, o->box, bins, bin_box);
        }
    }
}

void rs_binary_spatial_bins_merge(RsBinarySpatialBins* o, const RsBinarySpatialBins* from)
{
    for (int axis = 0; axis < 3; ++axis)
        for (int i = 0; i < o->bins; ++i) {
            o->entry[axis][i] += from->entry[axis][i];
            o->exit[axis][i] += from->exit[axis][i];
            rs_binary_box_grow(&o->bin_box[axis][i], from->bin_box[axis][i]);
        }
}

RsBinarySplit rs_binary_spatial_best(const RsBinarySpatialBins* o)
{
    RsBinarySplit best = {-1, 1, 0, 0.0f, FLT_MAX, rs_binary_box_empty(), rs_binary_box_empty()};
    const int bins = o->bins;
    for (int axis = 0; axis < 3; ++axis) {
        if (!o->live[axis])
            continue;
        float right_cost[RS_BINARY_MAX_BINS];
        RsBinaryBox right_box[RS_BINARY_MAX_BINS];
        uint32_t right_n[RS_BINARY_MAX_BINS];
        RsBinaryBox acc = rs_binary_box_empty();
        uint32_t n = 0;
        for (int i = bins - 1; i > 0; --i) {
            rs_binary_box_grow(&acc, o->bin_box[axis][i]);
            n += o->exit[axis][i];
            right_cost[i - 1] = n ? rs_binary_box_area(acc) * (float)n : 0.0f;
            right_box[i - 1] = acc;
            right_n[i - 1] = n;
        }
        acc = rs_binary_box_empty();
        n = 0;
        for (int i = 0; i < bins - 1; ++i) {
            rs_binary_box_grow(&acc, o->bin_box[axis][i]);
            n += o->entry[axis][i];
            if (n == 0 || right_n[i] == 0)
                continue;
            float cost = rs_binary_box_area(acc) * (float)n + right_cost[i];
            if (cost < best.cost) {
                best.axis = axis;
                best.plane = spatial_plane(o->box, axis, i + 1, bins);
                best.cost = cost;
                best.left = acc;
                best.right = right_box[i];
            }
        }
    }
    return best;
}

RsBinarySplit rs_binary_spatial_split(const RsBinaryBuild* c, const RsBinaryRef* r, uint32_t count, RsBinaryBox box,
                                      int bins)
{
    RsBinarySpatialBins o;
    rs_binary_spatial_bins_init(&o, box, bins);
    rs_binary_spatial_bins_add(&o, c->prims, r, count);
    return rs_binary_spatial_best(&o);
}

/* ---- partitioning ---- */

uint32_t rs_binary_partition_object(RsBinaryRef* r, uint32_t count, RsBinarySplit s, RsBinaryBox cbox, int bins)
{
    float lo = rs_binary_axis(cbox.lo, s.axis), hi = rs_binary_axis(cbox.hi, s.axis);
    float scale = (float)bins / (hi - lo);
    uint32_t i = 0, j = count;
    while (i < j) {
        if (bin_of(rs_binary_axis(rs_binary_centroid(r[i].box), s.axis), lo, scale, bins) <= s.bin) {
            ++i;
        } else {
            --j;
            RsBinaryRef t = r[i];
            r[i] = r[j];
            r[j] = t;
        }
    }
    return i;
}

int rs_binary_spatial_cut(const RsPrim* prims, const RsBinaryRef* ref, RsBinarySplit s, RsBinaryRef* left,
                          RsBinaryRef* right)
{
    float lo = rs_binary_axis(ref->box.lo, s.axis), hi = rs_binary_axis(ref->box.hi, s.axis);
    if (hi <= s.plane) {
        *left = *ref;
        return 1;
    }
    if (lo >= s.plane) {
        *right = *ref;
        return 2;
    }
    const RsPrim* p = &prims[ref->prim];
    int sides = 0;
    RsBinaryRef piece = *ref;
    piece.box = rs_binary_clip_prim(p, ref->box, s.axis, lo, s.plane);
    if (box_valid(piece.box)) {
        *left = piece;
        sides |= 1;
    }
    piece.box = rs_binary_clip_prim(p, ref->box, s.axis, s.plane, hi);
    if (box_valid(piece.box)) {
        *right = piece;
        sides |= 2;
    }
    return sides;
}

/* Copies the references into two new segments by the plane; returns -1 when out of memory,
 * 0 when one side would be empty (the caller falls back to an object split). */
int rs_binary_partition_spatial(RsBinaryBuild* c, const RsBinaryRef* r, uint32_t count, RsBinarySplit s,
                                RsBinarySegment** left, uint32_t* nl, RsBinarySegment** right, uint32_t* nr)
{
    /* a reference goes left when it ends at or before the plane (a flat one lying in it too),
     * right when it starts at or after it, and to both, clipped, when it straddles it */
    uint32_t l = 0, rr = 0;
    for (uint32_t i = 0; i < count; ++i) {
        float lo = rs_binary_axis(r[i].box.lo, s.axis), hi = rs_binary_axis(r[i].box.hi, s.axis);
        l += hi <= s.plane || lo < s.plane;
        rr += !(hi <= s.plane) && (lo >= s.plane || hi > s.plane);
    }
    if (l == 0 || rr == 0)
        return 0;
    *left = rs_binary_segment_new(l);
    *right = rs_binary_segment_new(rr);
    if (!*left || !*right) {
        if (*left)
            rs_binary_segment_release(*left);
        if (*right)
            rs_binary_segment_release(*right);
        return -1;
    }
    uint32_t a = 0, b = 0;
    for (uint32_t i = 0; i < count; ++i) {
        int sides = rs_binary_spatial_cut(c->prims, &r[i], s, &(*left)->data[a], &(*right)->data[b]);
        a += sides & 1;
        b += sides >> 1;
    }
    *nl = a;
    *nr = b;
    return a > 0 && b > 0 ? 1 : 0;
}
