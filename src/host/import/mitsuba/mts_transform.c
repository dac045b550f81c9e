/* mts_transform.c - Mitsuba's <transform>: translate, scale, rotate, matrix and lookat
 * children, each applied after those before it (to_world = last * ... * first), as Mitsuba
 * composes them. Host C11.
 *
 * A matrix must be affine (last row 0 0 0 1): raystream's shapes and cameras cannot take a
 * projective one. lookat builds Mitsuba's camera frame, whose columns are left = up x dir, the
 * re-orthogonalised up, dir = target - origin (normalised), and the origin.
 */
#include <math.h>
#include <string.h>

#include "host/import/mitsuba/mts_internal.h"

double rs_mts_transform_det(const RsTransform* t)
{
    const float(*a)[4] = t->m;
    return (double)a[0][0] * ((double)a[1][1] * a[2][2] - (double)a[1][2] * a[2][1]) -
           (double)a[0][1] * ((double)a[1][0] * a[2][2] - (double)a[1][2] * a[2][0]) +
           (double)a[0][2] * ((double)a[1][0] * a[2][1] - (double)a[1][1] * a[2][0]);
}

static int read_vec_attr(RsMts* m, const RsMtsNode* n, const char* attr, RsVec3* out)
{
    const char* text = rs_mts_attr(n, attr);
    if (!text)
        return rs_mts_fail(m, n, "lookat: needs '%s'", attr);
    double v[3];
    int count = 0;
    if (rs_mts_read_list(m, n, attr, text, v, 3, &count))
        return -1;
    if (count != 3)
        return rs_mts_fail(m, n, "lookat: %s needs 3 numbers (got '%.60s')", attr, text);
    *out = rs_vec3((float)v[0], (float)v[1], (float)v[2]);
    return 0;
}

static int lookat(RsMts* m, const RsMtsNode* n, RsTransform* out)
{
    RsVec3 origin, target, up = rs_vec3(0.0f, 1.0f, 0.0f);
    if (read_vec_attr(m, n, "origin", &origin) || read_vec_attr(m, n, "target", &target))
        return -1;
    if (rs_mts_attr(n, "up") && read_vec_attr(m, n, "up", &up))
        return -1;
    RsVec3 dir = rs_sub(target, origin);
    if (!(rs_length(dir) > 0.0f))
        return rs_mts_fail(m, n, "lookat: origin and target must differ");
    dir = rs_normalize(dir);
    RsVec3 left = rs_cross(up, dir);
    if (!(rs_length(left) > 1e-6f * rs_length(up)))
        return rs_mts_fail(m, n, "lookat: up must not be zero or parallel to the view direction");
    left = rs_normalize(left);
    RsVec3 new_up = rs_cross(dir, left);
    const RsVec3 cols[4] = {left, new_up, dir, origin};
    for (int c = 0; c < 4; ++c) {
        out->m[0][c] = cols[c].x;
        out->m[1][c] = cols[c].y;
        out->m[2][c] = cols[c].z;
    }
    return 0;
}

static int matrix(RsMts* m, const RsMtsNode* n, RsTransform* out)
{
    const char* text = rs_mts_attr(n, "value");
    if (!text)
        return rs_mts_fail(m, n, "matrix: needs a value of 16 numbers");
    double v[16];
    int count = 0;
    if (rs_mts_read_list(m, n, "matrix", text, v, 16, &count))
        return -1;
    if (count == 9) { /* a 3x3 linear matrix */
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 4; ++j)
                out->m[i][j] = j < 3 ? (float)v[i * 3 + j] : 0.0f;
        return 0;
    }
    if (count != 16)
        return rs_mts_fail(m, n, "matrix: needs 16 numbers (got %d)", count);
    if (v[12] != 0.0 || v[13] != 0.0 || v[14] != 0.0 || v[15] != 1.0)
        return rs_mts_fail(m, n, "matrix: the last row must be 0 0 0 1 (raystream takes affine transforms only)");
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j)
            out->m[i][j] = (float)v[i * 4 + j];
    return 0;
}

static int one_step(RsMts* m, const RsMtsNode* n, RsTransform* step)
{
    *step = rs_transform_identity();
    if (strcmp(n->tag, "translate") == 0) {
        RsVec3 t;
        if (rs_mts_read_xyz(m, n, 0.0, &t))
            return -1;
        *step = rs_transform_translate(t);
        return 0;
    }
    if (strcmp(n->tag, "scale") == 0) {
        RsVec3 s;
        if (rs_mts_read_xyz(m, n, 1.0, &s))
            return -1;
        *step = rs_transform_scale(s);
        return 0;
    }
    if (strcmp(n->tag, "rotate") == 0) {
        RsVec3 axis;
        double angle = 0.0;
        const char* a = rs_mts_attr(n, "angle");
        if (rs_mts_read_xyz(m, n, 0.0, &axis) || (a && rs_mts_parse_number(m, n, "angle", a, &angle)))
            return -1;
        if (rs_mts_attr(n, "value") && rs_mts_attr(n, "x"))
            return rs_mts_fail(m, n, "rotate: give the axis as value or as x, y, z, not both");
        if (!(rs_length(axis) > 0.0f))
            return rs_mts_fail(m, n, "rotate: the axis must not be zero");
        *step = rs_transform_rotate((float)angle, axis);
        return 0;
    }
    if (strcmp(n->tag, "matrix") == 0)
        return matrix(m, n, step);
    if (strcmp(n->tag, "lookat") == 0)
        return lookat(m, n, step);
    return rs_mts_fail(m, n, "transform: <%s> is not a transform step (translate, scale, rotate, matrix, lookat)",
                       n->tag);
}

int rs_mts_get_transform(RsMts* m, RsMtsNode* obj, const char* name, RsTransform* out)
{
    *out = rs_transform_identity();
    RsMtsNode* t = rs_mts_child(m, obj, name);
    if (!t)
        return 0;
    if (strcmp(t->tag, "transform") != 0)
        return rs_mts_fail(m, t, "%s: expected a <transform> (got <%s>)", name, t->tag);
    for (uint32_t i = 0; i < t->child_count; ++i) {
        RsTransform step;
        if (one_step(m, t->children[i], &step))
            return -1;
        *out = rs_transform_compose(&step, out);
    }
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j)
            if (!(fabsf(out->m[i][j]) <= 1e18f))
                return rs_mts_fail(m, t, "%s: the composed transform has entries beyond 1e18", name);
    return 0;
}
