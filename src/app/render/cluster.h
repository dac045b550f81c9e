/* cluster.h - `mpirun -np N raystream render ...`: the processes (MPI ranks) that share one
 * render, and the few messages they exchange.
 *
 * Host C11, application layer. Built on OpenMPI when meson finds it (-Dmpi=auto|enabled|
 * disabled: cluster_mpi.c), else as one process (cluster_stub.c). A process joins the cluster
 * only when a launcher started it (OMPI_COMM_WORLD_SIZE or PMI_SIZE is set); otherwise it is
 * rank 0 of 1 and no MPI call is made. The render splits the image's spans between the ranks
 * (renderer.h, rs_renderer_set_share); rank 0 prints progress, gathers the film and writes
 * the outputs and checkpoints. Messages go only through the ranks' ticks and rs_cluster_wait_all,
 * on the thread that called MPI_Init (MPI_THREAD_FUNNELED).
 */
#ifndef RS_APP_CLUSTER_H
#define RS_APP_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

#include "host/render/renderer.h"

typedef struct RsCluster {
    int rank, size;
    int joined; /* MPI_Init was called */
    /* the stop protocol (cluster_mpi.c): the job's stop level as this rank knows it, the
     * highest level it has sent, and its messages, counted so that none is left unreceived */
    int level, sent_level;
    long* sent; /* per destination rank */
    long received;
} RsCluster;

/* Whether this raystream was built with MPI. */
int rs_cluster_built(void);
/* Joins the cluster if a launcher started this process; 0 on success (also when alone). */
int rs_cluster_join(RsCluster* c);
void rs_cluster_leave(RsCluster* c);
/* Ends every rank of the job at once (after a rank has said why). */
void rs_cluster_abort(RsCluster* c, int code);

/* Several ranks on one host, with every GPU asked for (no --devices): each rank takes its own,
 * GPU d going to the host's local rank d % ranks_on_this_host (OpenMPI's local rank), so two
 * ranks on a 2-GPU host use one GPU each. Leaves an explicit --devices alone. */
void rs_cluster_local_devices(const RsCluster* c, RsRendererConfig* config);

/* Interrupts agreed among the ranks. Stop levels: 0 none, 1 at the sample pass in flight, 2
 * after the wave in flight. From every rank's tick during the render: passes this rank's own
 * level (from its signals) on and returns the job's, the highest any rank has asked for, which
 * rank 0 sends to every rank. So a signal to any rank stops every rank, and rank 0 writes what
 * they all traced. Never blocks. */
int rs_cluster_stop_level(RsCluster* c, int own_level);
/* After this rank's trace: waits until every rank has finished its own, still passing this
 * rank's signals on (a rank that finished early, rank 0 above all, must not sit deaf in a
 * collective while the others trace on), then receives every stop message still in flight, so
 * that the collectives that follow and MPI_Finalize find none. own_level is called while
 * waiting. 0, or -1 when MPI fails. */
int rs_cluster_wait_all(RsCluster* c, int (*own_level)(void));

/* Rank 0's text, copied to every rank (rank 0's own call returns a copy too): how the ranks
 * agree on the render's settings before rendering (render_settings.h). The caller frees it;
 * NULL (with a message printed) on failure. bytes: this rank's text's length; *out_bytes: rank
 * 0's. Every rank must call it. */
char* rs_cluster_share_text(RsCluster* c, const char* text, size_t bytes, size_t* out_bytes);

/* Sums every rank's film (entries: pixels times planes) into rank 0's (each pixel is non-zero on one rank only, so the sum is
 * that rank's value exactly). */
int rs_cluster_sum_film(RsCluster* c, RsFloat4* film, size_t entries);
/* Sums counters into rank 0's, and the largest of a flag into every rank's. */
int rs_cluster_sum_u64(RsCluster* c, uint64_t* values, int count);
int rs_cluster_max_int(RsCluster* c, int* value);

#endif /* RS_APP_CLUSTER_H */
