/* cluster_mpi.c - the cluster on OpenMPI (see cluster.h). Host C11.
 *
 * Stops are small messages (one int, the level), sent eagerly and polled with MPI_Iprobe from
 * the ranks' ticks, so no rank ever waits on another inside the render: a rank that gets a
 * signal asks rank 0 (RS_TAG_ASK), and rank 0 sends the job's level to every rank
 * (RS_TAG_STOP). After its trace a rank waits for the others in a non-blocking barrier, still
 * passing its signals on; once every rank has left that wait, the ranks sum how many messages
 * each was sent and receive the rest, so none is left unreceived. The film and the counters
 * then meet in one MPI_Reduce each. A rank that fails calls MPI_Abort, which ends the whole
 * job (mpirun reports which rank), and mpirun ends the job as well when a rank dies from a
 * signal (a third interrupt): no rank is left waiting in a collective.
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/cli.h"
#include "app/render/cluster.h"

#define RS_TAG_STOP 7 /* rank 0 -> the others: the job's stop level */
#define RS_TAG_ASK 8  /* a rank -> rank 0: the stop level its signals asked for */

int rs_cluster_built(void) { return 1; }

int rs_cluster_join(RsCluster* c)
{
    c->rank = 0;
    c->size = 1;
    c->joined = 0;
    c->level = c->sent_level = 0;
    c->sent = NULL;
    c->received = 0;
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
    c->sent = calloc((size_t)c->size, sizeof *c->sent);
    if (!c->sent) {
        rs_cli_error("rank %d of %d: out of memory", c->rank, c->size);
        MPI_Abort(MPI_COMM_WORLD, 1);
        return -1;
    }
    return 0;
}

void rs_cluster_leave(RsCluster* c)
{
    if (c->joined)
        MPI_Finalize();
    c->joined = 0;
    free(c->sent);
    c->sent = NULL;
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

static void send_level(RsCluster* c, int to, int tag, int level)
{
    /* one int: sent eagerly, so this returns without waiting for the receiver */
    if (MPI_Send(&level, 1, MPI_INT, to, tag, MPI_COMM_WORLD) == MPI_SUCCESS)
        c->sent[to]++;
}

static void receive_one(RsCluster* c, int source, int tag)
{
    int got = 0;
    if (MPI_Recv(&got, 1, MPI_INT, source, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE) != MPI_SUCCESS)
        return;
    c->received++;
    c->level = got > c->level ? got : c->level;
}

/* Every stop message that has arrived, of either tag (rank 0 gets asks, the others stops). */
static void receive_arrived(RsCluster* c)
{
    for (;;) {
        int waiting = 0;
        MPI_Status st;
        if (MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &waiting, &st) != MPI_SUCCESS || !waiting)
            return;
        receive_one(c, st.MPI_SOURCE, st.MPI_TAG);
    }
}

int rs_cluster_stop_level(RsCluster* c, int own_level)
{
    if (!c->joined || c->size == 1)
        return own_level;
    receive_arrived(c);
    c->level = own_level > c->level ? own_level : c->level;
    if (c->rank == 0) {
        if (c->level > c->sent_level) {
            for (int r = 1; r < c->size; ++r)
                send_level(c, r, RS_TAG_STOP, c->level);
            c->sent_level = c->level;
        }
    } else if (own_level > c->sent_level) {
        send_level(c, 0, RS_TAG_ASK, own_level);
        c->sent_level = own_level;
    }
    return c->level;
}

int rs_cluster_wait_all(RsCluster* c, int (*own_level)(void))
{
    if (!c->joined || c->size == 1)
        return 0;
    MPI_Request barrier;
    if (MPI_Ibarrier(MPI_COMM_WORLD, &barrier) != MPI_SUCCESS)
        return -1;
    for (;;) {
        rs_cluster_stop_level(c, own_level());
        int done = 0;
        if (MPI_Test(&barrier, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return -1;
        if (done)
            break;
        struct timespec pause = {0, 2000000}; /* 2 ms: an interrupt reaches the others at once */
        nanosleep(&pause, NULL);
    }
    /* every rank has entered the barrier and this one sends no more; a rank still in its loop
     * may send a last stop, which it counts before it joins this sum */
    long* total = calloc((size_t)c->size, sizeof *total);
    if (!total || MPI_Allreduce(c->sent, total, c->size, MPI_LONG, MPI_SUM, MPI_COMM_WORLD) != MPI_SUCCESS) {
        free(total);
        return -1;
    }
    int status = 0;
    while (c->received < total[c->rank] && status == 0) {
        MPI_Status st;
        if (MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st) != MPI_SUCCESS)
            status = -1;
        else
            receive_one(c, st.MPI_SOURCE, st.MPI_TAG);
    }
    free(total);
    return status;
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
