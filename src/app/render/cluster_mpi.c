/* cluster_mpi.c - the cluster on OpenMPI (see cluster.h). Host C11.
 *
 * Stops are small messages from rank 0 (tag RS_TAG_STOP, the level as an int), sent eagerly and
 * polled with MPI_Iprobe from the other ranks' ticks, so no rank ever waits on another inside
 * the render; the film and the counters meet in one MPI_Reduce each after it. A rank that fails
 * calls MPI_Abort, which ends the whole job (mpirun reports which rank), and mpirun ends the job
 * as well when a rank dies from a signal: no rank is left waiting in a collective.
 */
#include <mpi.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "app/cli.h"
#include "app/render/cluster.h"

#define RS_TAG_STOP 7

int rs_cluster_built(void) { return 1; }

int rs_cluster_join(RsCluster* c)
{
    c->rank = 0;
    c->size = 1;
    c->joined = 0;
    if (!getenv("OMPI_COMM_WORLD_SIZE") && !getenv("PMI_SIZE") && !getenv("PMIX_RANK"))
        return 0; /* not started by a launcher: one process, no MPI */
    int provided = 0;
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        rs_cli_error("MPI_Init_thread failed");
        return -1;
    }
    c->joined = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &c->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &c->size);
    return 0;
}

void rs_cluster_leave(RsCluster* c)
{
    if (c->joined)
        MPI_Finalize();
    c->joined = 0;
}

void rs_cluster_abort(RsCluster* c, int code)
{
    if (c->joined)
        MPI_Abort(MPI_COMM_WORLD, code);
    exit(code);
}

void rs_cluster_local_devices(const RsCluster* c, RsRendererConfig* config)
{
    const char* rank = getenv("OMPI_COMM_WORLD_LOCAL_RANK");
    const char* size = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
    if (!c->joined || config->device_count != 0 || !rank || !size || atoi(size) < 2 ||
        rs_backend_resolve_kind(config->backend.kind) != RS_BACKEND_CUDA)
        return;
    int local = atoi(rank), ranks = atoi(size), gpus = rs_cuda_device_count();
    for (int d = 0; d < gpus && config->device_count < RS_MAX_DEVICES; ++d)
        if (d % ranks == local)
            config->devices[config->device_count++] = d;
    if (config->device_count == 0) /* more ranks than GPUs here: share them round-robin */
        config->devices[config->device_count++] = gpus > 0 ? local % gpus : 0;
}

void rs_cluster_send_stop(RsCluster* c, int level)
{
    for (int r = 1; c->joined && r < c->size; ++r)
        MPI_Send(&level, 1, MPI_INT, r, RS_TAG_STOP, MPI_COMM_WORLD); /* one int: sent eagerly */
}

int rs_cluster_poll_stop(RsCluster* c)
{
    int level = 0;
    for (;;) {
        int waiting = 0;
        MPI_Status st;
        if (!c->joined || MPI_Iprobe(0, RS_TAG_STOP, MPI_COMM_WORLD, &waiting, &st) != MPI_SUCCESS || !waiting)
            return level;
        int got = 0;
        MPI_Recv(&got, 1, MPI_INT, 0, RS_TAG_STOP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        level = got > level ? got : level;
    }
}

char* rs_cluster_share_text(RsCluster* c, const char* text, size_t bytes, size_t* out_bytes)
{
    /* the length first (an unsigned long long, whatever size_t is), then the bytes */
    unsigned long long n = bytes;
    if (c->joined && c->size > 1 && MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD) != MPI_SUCCESS) {
        rs_cli_error("rank %d of %d: MPI_Bcast of the settings' length failed", c->rank, c->size);
        return NULL;
    }
    if (n > INT_MAX) {
        rs_cli_error("rank %d of %d: the render's settings take %llu bytes, more than one message holds", c->rank,
                     c->size, n);
        return NULL;
    }
    char* copy = malloc((size_t)n + 1);
    if (!copy) {
        rs_cli_error("rank %d of %d: out of memory for the render's settings", c->rank, c->size);
        return NULL;
    }
    if (c->rank == 0)
        memcpy(copy, text, (size_t)n);
    if (c->joined && c->size > 1 && n > 0 &&
        MPI_Bcast(copy, (int)n, MPI_CHAR, 0, MPI_COMM_WORLD) != MPI_SUCCESS) {
        rs_cli_error("rank %d of %d: MPI_Bcast of the settings failed", c->rank, c->size);
        free(copy);
        return NULL;
    }
    copy[n] = '\0';
    *out_bytes = (size_t)n;
    return copy;
}

int rs_cluster_sum_film(RsCluster* c, RsFloat4* film, size_t pixels)
{
    if (!c->joined || c->size == 1)
        return 0;
    /* in pieces, so that a count never overflows an int */
    const size_t chunk = (size_t)1 << 26;
    float* f = (float*)film;
    for (size_t at = 0; at < pixels * 4; at += chunk) {
        int n = (int)(pixels * 4 - at < chunk ? pixels * 4 - at : chunk);
        int status = c->rank == 0 ? MPI_Reduce(MPI_IN_PLACE, f + at, n, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD)
                                  : MPI_Reduce(f + at, NULL, n, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);
        if (status != MPI_SUCCESS)
            return -1;
    }
    return 0;
}

int rs_cluster_sum_u64(RsCluster* c, uint64_t* values, int count)
{
    if (!c->joined || c->size == 1)
        return 0;
    int status = c->rank == 0 ? MPI_Reduce(MPI_IN_PLACE, values, count, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD)
                              : MPI_Reduce(values, NULL, count, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    return status == MPI_SUCCESS ? 0 : -1;
}

int rs_cluster_max_int(RsCluster* c, int* value)
{
    if (!c->joined || c->size == 1)
        return 0;
    return MPI_Allreduce(MPI_IN_PLACE, value, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD) == MPI_SUCCESS ? 0 : -1;
}
