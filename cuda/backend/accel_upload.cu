/* accel_upload.cu - copies an acceleration structure to the device (see accel_upload.cuh).
 * The arrays each structure has are listed here once, by kind. nvcc. */
#include <string.h>

#include "cuda/backend/accel_upload.cuh"

template <class T>
static cudaError_t copy(RsCudaAccel* d, int slot, const T* src, size_t count, const T** dst)
{
    *dst = NULL;
    if (count == 0)
        return cudaSuccess;
    T* p = NULL;
    cudaError_t e = cudaMalloc((void**)&p, count * sizeof(T));
    if (e != cudaSuccess)
        return e;
    d->owned[slot] = p;
    d->bytes += count * sizeof(T);
    *dst = p;
    return cudaMemcpy(p, src, count * sizeof(T), cudaMemcpyHostToDevice);
}

cudaError_t rs_cuda_accel_upload(const RsAccelView* host, RsCudaAccel* d)
{
    memset(d, 0, sizeof *d);
    d->view = *host;
    /* cut-outs point into scene arrays, which the backend uploads and attaches itself */
    d->view.bvh2.cutouts = NULL;
    d->view.bvh8.cutouts = NULL;
    d->view.grid.cutouts = NULL;
    cudaError_t e = cudaSuccess;
    switch (host->kind) {
    case RS_ACCEL_BVH2:
        e = copy(d, 0, host->bvh2.nodes, host->bvh2.node_count, &d->view.bvh2.nodes);
        if (e == cudaSuccess)
            e = copy(d, 1, host->bvh2.prims, host->bvh2.prim_count, &d->view.bvh2.prims);
        break;
    case RS_ACCEL_BVH8:
        e = copy(d, 0, host->bvh8.nodes, host->bvh8.node_count, &d->view.bvh8.nodes);
        if (e == cudaSuccess)
            e = copy(d, 1, host->bvh8.prims, host->bvh8.prim_count, &d->view.bvh8.prims);
        if (e == cudaSuccess && host->camera_tree) /* the binary tree camera rays walk (accel.h) */
            e = copy(d, 8, host->bvh2.nodes, host->bvh2.node_count, &d->view.bvh2.nodes);
        if (e == cudaSuccess && host->camera_tree)
            e = copy(d, 9, host->bvh2.prims, host->bvh2.prim_count, &d->view.bvh2.prims);
        break;
    case RS_ACCEL_GRID:
        e = copy(d, 0, host->grid.cells, (size_t)host->grid.cell_count + 1, &d->view.grid.cells);
        if (e == cudaSuccess)
            e = copy(d, 1, host->grid.refs, host->grid.ref_count, &d->view.grid.refs);
        if (e == cudaSuccess)
            e = copy(d, 2, host->grid.prims, host->grid.prim_count, &d->view.grid.prims);
        break;
    default:
        e = cudaErrorInvalidValue;
    }
    /* the two-level part (kernel/accel/instance.h), each array counted in its own figure */
    const RsInstanceView* hi = &host->inst;
    RsInstanceView* di = &d->view.inst;
    int wide = host->kind == RS_ACCEL_BVH8;
    size_t before = d->bytes;
    if (e == cudaSuccess && hi->instance_count) {
        uint32_t blas_nodes = 0, blas_prims = 0;
        for (uint32_t o = 0; o < hi->object_count; ++o) {
            blas_nodes = blas_nodes > hi->objects[o].node_base + hi->objects[o].node_count
                             ? blas_nodes : hi->objects[o].node_base + hi->objects[o].node_count;
            blas_prims = blas_prims > hi->objects[o].prim_base + hi->objects[o].prim_count
                             ? blas_prims : hi->objects[o].prim_base + hi->objects[o].prim_count;
        }
        e = wide ? copy(d, 3, hi->blas_bvh8, blas_nodes, &di->blas_bvh8)
                 : copy(d, 3, hi->blas_bvh2, blas_nodes, &di->blas_bvh2);
        if (e == cudaSuccess)
            e = copy(d, 4, hi->blas_prims, blas_prims, &di->blas_prims);
        d->blas_bytes = d->bytes - before;
        before = d->bytes;
        if (e == cudaSuccess)
            e = copy(d, 5, hi->tlas, hi->tlas_node_count, &di->tlas);
        d->tlas_bytes = d->bytes - before;
        before = d->bytes;
        if (e == cudaSuccess)
            e = copy(d, 6, hi->instances, hi->instance_count, &di->instances);
        if (e == cudaSuccess)
            e = copy(d, 7, hi->objects, hi->object_count, &di->objects);
        d->instance_bytes = d->bytes - before;
    }
    if (e != cudaSuccess)
        rs_cuda_accel_free(d);
    return e;
}

void rs_cuda_accel_free(RsCudaAccel* d)
{
    for (int i = 0; i < RS_CUDA_ACCEL_ARRAYS; ++i)
        cudaFree(d->owned[i]);
    memset(d, 0, sizeof *d);
}
