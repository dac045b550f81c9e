/* pbrt_transform.c - pbrt-v4 transforms in double precision (see pbrt_transform.h). Host C11. */
#include "host/import/pbrt/pbrt_transform.h"

#include <math.h>
#include <string.h>

RsPbrtMatrix rs_pbrt_identity(void)
{
    RsPbrtMatrix r;
    memset(&r, 0, sizeof r);
    for (int i = 0; i < 4; ++i)
        r.m[i][i] = 1.0;
    return r;
}

RsPbrtMatrix rs_pbrt_mul(const RsPbrtMatrix* a, const RsPbrtMatrix* b)
{
    RsPbrtMatrix r;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
            double s = 0.0;
            for (int k = 0; k < 4; ++k)
                s += a->m[i][k] * b->m[k][j];
            r.m[i][j] = s;
        }
    return r;
}

RsPbrtMatrix rs_pbrt_translate(double x, double y, double z)
{
    RsPbrtMatrix r = rs_pbrt_identity();
    r.m[0][3] = x;
    r.m[1][3] = y;
    r.m[2][3] = z;
    return r;
}

RsPbrtMatrix rs_pbrt_scale(double x, double y, double z)
{
    RsPbrtMatrix r = rs_pbrt_identity();
    r.m[0][0] = x;
    r.m[1][1] = y;
    r.m[2][2] = z;
    return r;
}

RsPbrtMatrix rs_pbrt_rotate(double degrees, double x, double y, double z)
{
    double len = sqrt(x * x + y * y + z * z);
    x /= len;
    y /= len;
    z /= len;
    double theta = degrees * (3.14159265358979323846 / 180.0);
    double s = sin(theta), c = cos(theta), t = 1.0 - c;
    RsPbrtMatrix r = rs_pbrt_identity();
    r.m[0][0] = x * x * t + c;
    r.m[0][1] = x * y * t - z * s;
    r.m[0][2] = x * z * t + y * s;
    r.m[1][0] = x * y * t + z * s;
    r.m[1][1] = y * y * t + c;
    r.m[1][2] = y * z * t - x * s;
    r.m[2][0] = x * z * t - y * s;
    r.m[2][1] = y * z * t + x * s;
    r.m[2][2] = z * z * t + c;
    return r;
}

static void cross(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static int normalize(double v[3])
{
    double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (!(len > 0.0) || !isfinite(len))
        return -1;
    for (int i = 0; i < 3; ++i)
        v[i] /= len;
    return 0;
}

int rs_pbrt_look_at(const double eye[3], const double look[3], const double up[3], RsPbrtMatrix* out)
{
    double dir[3] = {look[0] - eye[0], look[1] - eye[1], look[2] - eye[2]};
    double u[3] = {up[0], up[1], up[2]}, right[3], new_up[3];
    if (normalize(dir) || normalize(u))
        return -1;
    cross(u, dir, right);
    if (normalize(right))
        return -1;
    cross(dir, right, new_up);
    /* camera-from-world is the inverse of [right new_up dir eye], an orthonormal frame */
    RsPbrtMatrix r = rs_pbrt_identity();
    for (int j = 0; j < 3; ++j) {
        r.m[0][j] = right[j];
        r.m[1][j] = new_up[j];
        r.m[2][j] = dir[j];
    }
    for (int i = 0; i < 3; ++i)
        r.m[i][3] = -(r.m[i][0] * eye[0] + r.m[i][1] * eye[1] + r.m[i][2] * eye[2]);
    *out = r;
    return 0;
}

RsPbrtMatrix rs_pbrt_from_columns(const double v[16])
{
    RsPbrtMatrix r;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            r.m[i][j] = v[j * 4 + i];
    return r;
}

int rs_pbrt_invert(const RsPbrtMatrix* a, RsPbrtMatrix* out)
{
    double m[4][8];
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
            m[i][j] = a->m[i][j];
            m[i][j + 4] = i == j ? 1.0 : 0.0;
        }
    for (int col = 0; col < 4; ++col) {
        int pivot = col;
        for (int i = col + 1; i < 4; ++i)
            if (fabs(m[i][col]) > fabs(m[pivot][col]))
                pivot = i;
        if (!(fabs(m[pivot][col]) > 1e-300))
            return -1;
        if (pivot != col)
            for (int j = 0; j < 8; ++j) {
                double t = m[col][j];
                m[col][j] = m[pivot][j];
                m[pivot][j] = t;
            }
        double inv = 1.0 / m[col][col];
        for (int j = 0; j < 8; ++j)
            m[col][j] *= inv;
        for (int i = 0; i < 4; ++i) {
            if (i == col || m[i][col] == 0.0)
                continue;
            double f = m[i][col];
            for (int j = 0; j < 8; ++j)
                m[i][j] -= f * m[col][j];
        }
    }
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            out->m[i][j] = m[i][j + 4];
    return 0;
}

int rs_pbrt_is_affine(const RsPbrtMatrix* a)
{
    return a->m[3][0] == 0.0 && a->m[3][1] == 0.0 && a->m[3][2] == 0.0 && a->m[3][3] == 1.0;
}

double rs_pbrt_det3(const RsPbrtMatrix* a)
{
    const double(*m)[4] = a->m;
    return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
           m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

void rs_pbrt_point(const RsPbrtMatrix* a, const double p[3], double out[3])
{
    double r[3];
    for (int i = 0; i < 3; ++i)
        r[i] = a->m[i][0] * p[0] + a->m[i][1] * p[1] + a->m[i][2] * p[2] + a->m[i][3];
    memcpy(out, r, sizeof r);
}

void rs_pbrt_vector(const RsPbrtMatrix* a, const double v[3], double out[3])
{
    double r[3];
    for (int i = 0; i < 3; ++i)
        r[i] = a->m[i][0] * v[0] + a->m[i][1] * v[1] + a->m[i][2] * v[2];
    memcpy(out, r, sizeof r);
}

int rs_pbrt_normal_matrix(const RsPbrtMatrix* a, double out[3][3])
{
    double det = rs_pbrt_det3(a);
    if (!(fabs(det) > 1e-300))
        return -1;
    const double(*m)[4] = a->m;
    /* inverse transpose = cofactor matrix / det */
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
            out[i][j] = (m[i1][j1] * m[i2][j2] - m[i1][j2] * m[i2][j1]) / det;
        }
    return 0;
}

RsTransform rs_pbrt_to_transform(const RsPbrtMatrix* a)
{
    RsTransform t;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j)
            t.m[i][j] = (float)a->m[i][j];
    return t;
}

int rs_pbrt_is_similarity(const RsPbrtMatrix* a, double* scale)
{
    double col[3][3], len[3];
    for (int j = 0; j < 3; ++j) {
        for (int i = 0; i < 3; ++i)
            col[j][i] = a->m[i][j];
        len[j] = sqrt(col[j][0] * col[j][0] + col[j][1] * col[j][1] + col[j][2] * col[j][2]);
    }
    *scale = len[0];
    if (!(len[0] > 0.0) || fabs(len[1] - len[0]) > 1e-6 * len[0] || fabs(len[2] - len[0]) > 1e-6 * len[0])
        return 0;
    for (int p = 0; p < 3; ++p) {
        int q = (p + 1) % 3;
        double d = col[p][0] * col[q][0] + col[p][1] * col[q][1] + col[p][2] * col[q][2];
        if (fabs(d) > 1e-6 * len[0] * len[0])
            return 0;
    }
    return 1;
}
