/* pbrt_loop.c - Loop subdivision (see pbrt_loop.h). Host C11. */
#include "host/import/pbrt/geometry/pbrt_loop.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct Edge {
    uint32_t a, b;     /* a < b */
    uint32_t opposite; /* the third vertex of the face it came from */
    uint32_t face;
    int side;          /* which edge of the face: 0 (v0 v1), 1 (v1 v2), 2 (v2 v0) */
} Edge;

static int edge_order(const void* x, const void* y)
{
    const Edge* e = x;
    const Edge* f = y;
    if (e->a != f->a)
        return e->a < f->a ? -1 : 1;
    if (e->b != f->b)
        return e->b < f->b ? -1 : 1;
    return e->face < f->face ? -1 : e->face > f->face;
}

typedef struct Level {
    double* p;       /* 3 per vertex */
    size_t vertices;
    uint32_t* tri;   /* 3 per triangle */
    size_t triangles;
} Level;

/* The edges of l sorted so that the copies of one edge are adjacent; *edges = 3 per triangle. */
static Edge* edges_of(const Level* l)
{
    Edge* e = malloc((l->triangles ? l->triangles : 1) * 3 * sizeof *e);
    if (!e)
        return NULL;
    for (size_t t = 0; t < l->triangles; ++t)
        for (int k = 0; k < 3; ++k) {
            uint32_t u = l->tri[3 * t + (size_t)k], v = l->tri[3 * t + (size_t)((k + 1) % 3)];
            Edge* x = &e[3 * t + (size_t)k];
            x->a = u < v ? u : v;
            x->b = u < v ? v : u;
            x->opposite = l->tri[3 * t + (size_t)((k + 2) % 3)];
            x->face = (uint32_t)t;
            x->side = k;
        }
    qsort(e, l->triangles * 3, sizeof *e, edge_order);
    return e;
}

/* Per vertex: the number of distinct neighbours, their sum, whether it is on a boundary, and the
 * sum and count of its boundary neighbours. */
typedef struct Ring {
    double sum[3], boundary_sum[3];
    uint32_t valence, boundary_count;
} Ring;

static void add_neighbour(Ring* r, const double* q, int boundary)
{
    for (int c = 0; c < 3; ++c)
        r->sum[c] += q[c];
    ++r->valence;
    if (boundary) {
        for (int c = 0; c < 3; ++c)
            r->boundary_sum[c] += q[c];
        ++r->boundary_count;
    }
}

static Ring* rings_of(const Level* l, const Edge* e)
{
    Ring* r = calloc(l->vertices ? l->vertices : 1, sizeof *r);
    if (!r)
        return NULL;
    for (size_t i = 0, n = l->triangles * 3; i < n;) {
        size_t j = i + 1;
        while (j < n && e[j].a == e[i].a && e[j].b == e[i].b)
            ++j;
        int boundary = j - i != 2;
        add_neighbour(&r[e[i].a], l->p + 3 * (size_t)e[i].b, boundary);
        add_neighbour(&r[e[i].b], l->p + 3 * (size_t)e[i].a, boundary);
        i = j;
    }
    return r;
}

static double beta_of(uint32_t n) { return n == 3 ? 3.0 / 16.0 : 3.0 / (8.0 * n); }

static int subdivide_once(Level* l)
{
    Edge* e = edges_of(l);
    Ring* r = e ? rings_of(l, e) : NULL;
    size_t n3 = l->triangles * 3;
    /* each distinct edge gets a new vertex after the old ones */
    uint32_t* edge_vertex = malloc((n3 ? n3 : 1) * sizeof *edge_vertex); /* indexed by face * 3 + side */
    size_t distinct = 0;
    for (size_t i = 0; e && i < n3;) {
        size_t j = i + 1;
        while (j < n3 && e[j].a == e[i].a && e[j].b == e[i].b)
            ++j;
        ++distinct;
        i = j;
    }
    size_t vertices = l->vertices + distinct;
    double* p = malloc(vertices * 3 * sizeof *p);
    uint32_t* tri = malloc(l->triangles * 12 * sizeof *tri + sizeof *tri);
    int ok = e && r && edge_vertex && p && tri;
    for (size_t v = 0; ok && v < l->vertices; ++v) { /* old points */
        const double* q = l->p + 3 * v;
        double* o = p + 3 * v;
        if (r[v].boundary_count == 2) {
            for (int c = 0; c < 3; ++c)
                o[c] = 0.75 * q[c] + 0.125 * r[v].boundary_sum[c];
        } else if (r[v].boundary_count == 0 && r[v].valence > 0) {
            double beta = beta_of(r[v].valence);
            for (int c = 0; c < 3; ++c)
                o[c] = (1.0 - r[v].valence * beta) * q[c] + beta * r[v].sum[c];
        } else {
            memcpy(o, q, 3 * sizeof *o); /* a corner or a non-manifold point stays */
        }
    }
    size_t next = l->vertices;
    for (size_t i = 0; ok && i < n3;) { /* edge points */
        size_t j = i + 1;
        while (j < n3 && e[j].a == e[i].a && e[j].b == e[i].b)
            ++j;
        const double* a = l->p + 3 * (size_t)e[i].a;
        const double* b = l->p + 3 * (size_t)e[i].b;
        double* o = p + 3 * next;
        if (j - i == 2) {
            const double* c = l->p + 3 * (size_t)e[i].opposite;
            const double* d = l->p + 3 * (size_t)e[i + 1].opposite;
            for (int k = 0; k < 3; ++k)
                o[k] = 0.375 * (a[k] + b[k]) + 0.125 * (c[k] + d[k]);
        } else {
            for (int k = 0; k < 3; ++k)
                o[k] = 0.5 * (a[k] + b[k]);
        }
        for (size_t k = i; k < j; ++k)
            edge_vertex[3 * (size_t)e[k].face + (size_t)e[k].side] = (uint32_t)next;
        ++next;
        i = j;
    }
    for (size_t t = 0; ok && t < l->triangles; ++t) {
        const uint32_t* v = l->tri + 3 * t;
        uint32_t e01 = edge_vertex[3 * t], e12 = edge_vertex[3 * t + 1], e20 = edge_vertex[3 * t + 2];
        uint32_t out[12] = {v[0], e01, e20, v[1], e12, e01, v[2], e20, e12, e01, e12, e20};
        memcpy(tri + 12 * t, out, sizeof out);
    }
    free(e);
    free(r);
    free(edge_vertex);
    if (!ok) {
        free(p);
        free(tri);
        return -1;
    }
    free(l->p);
    free(l->tri);
    l->p = p;
    l->vertices = vertices;
    l->tri = tri;
    l->triangles *= 4;
    return 0;
}

/* Moves every point to its limit position. */
static int to_limit(Level* l)
{
    Edge* e = edges_of(l);
    Ring* r = e ? rings_of(l, e) : NULL;
    double* p = malloc((l->vertices ? l->vertices : 1) * 3 * sizeof *p);
    int ok = e && r && p;
    for (size_t v = 0; ok && v < l->vertices; ++v) {
        const double* q = l->p + 3 * v;
        double* o = p + 3 * v;
        if (r[v].boundary_count == 2) {
            for (int c = 0; c < 3; ++c)
                o[c] = 0.6 * q[c] + 0.2 * r[v].boundary_sum[c];
        } else if (r[v].boundary_count == 0 && r[v].valence > 0) {
            double gamma = 1.0 / (r[v].valence + 3.0 / (8.0 * beta_of(r[v].valence)));
            for (int c = 0; c < 3; ++c)
                o[c] = (1.0 - r[v].valence * gamma) * q[c] + gamma * r[v].sum[c];
        } else {
            memcpy(o, q, 3 * sizeof *o);
        }
    }
    free(e);
    free(r);
    if (!ok) {
        free(p);
        return -1;
    }
    free(l->p);
    l->p = p;
    return 0;
}

int rs_loop_subdivide(const float* P, size_t vertex_count, const uint32_t* indices, size_t index_count, int levels,
                      RsLoopMesh* out, const char* where, RsError* err)
{
    memset(out, 0, sizeof *out);
    if (levels < 0)
        levels = 0;
    double triangles = (double)(index_count / 3);
    for (int i = 0; i < levels; ++i)
        triangles *= 4.0;
    if (triangles > RS_LOOP_MAX_TRIANGLES)
        return rs_error_set(err, "%s: %d levels of subdivision make %.0f triangles, more than %u", where, levels,
                            triangles, RS_LOOP_MAX_TRIANGLES);
    Level l = {malloc((vertex_count ? vertex_count : 1) * 3 * sizeof(double)), vertex_count,
               malloc((index_count ? index_count : 1) * sizeof(uint32_t)), index_count / 3};
    if (!l.p || !l.tri) {
        free(l.p);
        free(l.tri);
        return rs_error_set(err, "%s: out of memory", where);
    }
    for (size_t i = 0; i < vertex_count * 3; ++i)
        l.p[i] = P[i];
    memcpy(l.tri, indices, l.triangles * 3 * sizeof(uint32_t));
    int status = 0;
    for (int i = 0; !status && i < levels; ++i)
        status = subdivide_once(&l);
    if (!status && levels > 0)
        status = to_limit(&l);
    out->P = status ? NULL : malloc(l.vertices * 3 * sizeof(float) + sizeof(float));
    out->N = status ? NULL : calloc(l.vertices * 3 + 1, sizeof(float));
    double* n = status ? NULL : calloc(l.vertices * 3 + 1, sizeof(double));
    if (status || !out->P || !out->N || !n) {
        free(l.p);
        free(l.tri);
        free(n);
        rs_loop_free(out);
        return rs_error_set(err, "%s: out of memory while subdividing", where);
    }
    for (size_t t = 0; t < l.triangles; ++t) { /* area-weighted face normals */
        const uint32_t* v = l.tri + 3 * t;
        const double *a = l.p + 3 * (size_t)v[0], *b = l.p + 3 * (size_t)v[1], *c = l.p + 3 * (size_t)v[2];
        double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, w[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        double f[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
        for (int k = 0; k < 3; ++k)
            for (int q = 0; q < 3; ++q)
                n[3 * (size_t)v[k] + (size_t)q] += f[q];
    }
    for (size_t i = 0; i < l.vertices; ++i) {
        double* m = n + 3 * i;
        double len = sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
        for (int q = 0; q < 3; ++q) {
            out->P[3 * i + (size_t)q] = (float)l.p[3 * i + (size_t)q];
            out->N[3 * i + (size_t)q] = len > 0.0 ? (float)(m[q] / len) : 0.0f;
        }
    }
    free(n);
    free(l.p);
    out->vertex_count = l.vertices;
    out->indices = l.tri;
    out->index_count = l.triangles * 3;
    return 0;
}

void rs_loop_free(RsLoopMesh* mesh)
{
    free(mesh->P);
    free(mesh->N);
    free(mesh->indices);
    memset(mesh, 0, sizeof *mesh);
}
