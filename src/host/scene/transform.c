/* transform.c - affine transforms (see transform.h). Host C11. */
#include "host/scene/transform.h"

#include <string.h>

RsTransform rs_transform_identity(void)
{
    RsTransform t;
    memset(&t, 0, sizeof t);
    t.m[0][0] = t.m[1][1] = t.m[2][2] = 1.0f;
    return t;
}

RsTransform rs_transform_translate(RsVec3 d)
{
    RsTransform t = rs_transform_identity();
    t.m[0][3] = d.x;
    t.m[1][3] = d.y;
    t.m[2][3] = d.z;
    return t;
}

RsTransform rs_transform_scale(RsVec3 s)
{
    RsTransform t = rs_transform_identity();
    t.m[0][0] = s.x;
    t.m[1][1] = s.y;
    t.m[2][2] = s.z;
    return t;
}

/* Rodrigues' rotation formula, R = cos I + sin [a]x + (1 - cos) a a^T. */
RsTransform rs_transform_rotate(float angle_degrees, RsVec3 axis)
{
    RsVec3 a = rs_normalize(axis);
    float th = angle_degrees * RS_PI / 180.0f;
    float c = cosf(th), s = sinf(th), k = 1.0f - c;
    RsTransform t = rs_transform_identity();
    t.m[0][0] = c + k * a.x * a.x;
    t.m[0][1] = k * a.x * a.y - s * a.z;
    t.m[0][2] = k * a.x * a.z + s * a.y;
    t.m[1][0] = k * a.y * a.x + s * a.z;
    t.m[1][1] = c + k * a.y * a.y;
    t.m[1][2] = k * a.y * a.z - s * a.x;
    t.m[2][0] = k * a.z * a.x - s * a.y;
    t.m[2][1] = k * a.z * a.y + s * a.x;
    t.m[2][2] = c + k * a.z * a.z;
    return t;
}

RsTransform rs_transform_compose(const RsTransform* a, const RsTransform* b)
{
    RsTransform r;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 4; ++j) {
            float sum = j == 3 ? a->m[i][3] : 0.0f;
            for (int k = 0; k < 3; ++k)
                sum += a->m[i][k] * b->m[k][j];
            r.m[i][j] = sum;
        }
    }
    return r;
}

RsVec3 rs_transform_point(const RsTransform* t, RsVec3 p)
{
    return rs_vec3(t->m[0][0] * p.x + t->m[0][1] * p.y + t->m[0][2] * p.z + t->m[0][3],
                   t->m[1][0] * p.x + t->m[1][1] * p.y + t->m[1][2] * p.z + t->m[1][3],
                   t->m[2][0] * p.x + t->m[2][1] * p.y + t->m[2][2] * p.z + t->m[2][3]);
}

RsVec3 rs_transform_normal(const RsTransform* t, RsVec3 n)
{
    /* cofactor matrix of the 3x3 part: det(M) M^-T, computed without dividing by det */
    const float(*m)[4] = t->m;
    float c[3][3];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
            c[i][j] = m[i1][j1] * m[i2][j2] - m[i1][j2] * m[i2][j1];
        }
    return rs_vec3(c[0][0] * n.x + c[0][1] * n.y + c[0][2] * n.z, c[1][0] * n.x + c[1][1] * n.y + c[1][2] * n.z,
                   c[2][0] * n.x + c[2][1] * n.y + c[2][2] * n.z);
}
