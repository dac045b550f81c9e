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
    if (e != cudaSuccess)
        rs_cuda_accel_free(d);
    return e;
}

void rs_cuda_accel_free(RsCudaAccel* d)
{
    for (int i = 0; i < 3; ++i)
        cudaFree(d->owned[i]);
    memset(d, 0, sizeof *d);
}
