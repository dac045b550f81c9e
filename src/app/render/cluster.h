/* cluster.h - `mpirun -np N raystream render ...`: the processes (MPI ranks) that share one
 * render, and the few messages they exchange.
 *
 * Host C11, application layer. Built on OpenMPI when meson finds it (-Dmpi=auto|enabled|
 * disabled: cluster_mpi.c), else as one process (cluster_stub.c). A process joins the cluster
 * only when a launcher started it (OMPI_COMM_WORLD_SIZE or PMI_SIZE is set); otherwise it is
 * rank 0 of 1 and no MPI call is made. The render splits the image's spans between the ranks
 * (renderer.h, rs_renderer_set_share); rank 0 prints progress, gathers the film and writes
 * the outputs and checkpoints. Messages go only through rank 0's and the others' ticks, on the
 * thread that called MPI_Init (MPI_THREAD_FUNNELED).
 */
#ifndef RS_APP_CLUSTER_H
#define RS_APP_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

#include "host/render/renderer.h"

typedef struct RsCluster {
    int rank, size;
    int joined; /* MPI_Init was called */
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

/* Rank 0 tells the others to stop: level 1 at the sample pass in flight, 2 after the wave. */
void rs_cluster_send_stop(RsCluster* c, int level);
/* The others: the highest stop level rank 0 has sent so far (0: none). Never blocks. */
int rs_cluster_poll_stop(RsCluster* c);

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
