/* cluster_stub.c - the cluster of a raystream built without MPI: one process (see cluster.h).
 * Host C11. Started by mpirun anyway, every process would render the whole image alone, so
 * that is refused. */
#include <stdlib.h>
#include <string.h>

#include "app/cli.h"
#include "app/render/cluster.h"

int rs_cluster_built(void) { return 0; }

int rs_cluster_join(RsCluster* c)
{
    c->rank = 0;
    c->size = 1;
    c->joined = 0;
    c->level = c->sent_level = 0;
    c->sent = NULL;
    c->received = 0;
    const char* n = getenv("OMPI_COMM_WORLD_SIZE");
    if (!n)
        n = getenv("PMI_SIZE");
    if (n && atoi(n) > 1) {
        rs_cli_error("started by an MPI launcher, but this raystream was built without MPI (rebuild with "
                     "-Dmpi=enabled after installing libopenmpi-dev)");
        return -1;
    }
    return 0;
}

void rs_cluster_leave(RsCluster* c) { (void)c; }
void rs_cluster_abort(RsCluster* c, int code)
{
    (void)c;
    exit(code);
}
void rs_cluster_local_devices(const RsCluster* c, RsRendererConfig* config)
{
    (void)c;
    (void)config;
}

int rs_cluster_stop_level(RsCluster* c, int own_level)
{
    (void)c;
    return own_level;
}
int rs_cluster_wait_all(RsCluster* c, int (*own_level)(void))
{
    (void)c;
    (void)own_level;
    return 0;
}
char* rs_cluster_share_text(RsCluster* c, const char* text, size_t bytes, size_t* out_bytes)
{
    (void)c;
    char* copy = malloc(bytes + 1);
    if (!copy) {
        rs_cli_error("out of memory sharing the render's settings");
        return NULL;
    }
    memcpy(copy, text, bytes);
    copy[bytes] = '\0';
    *out_bytes = bytes;
    return copy;
}
int rs_cluster_sum_film(RsCluster* c, RsFloat4* film, size_t pixels)
{
    (void)c;
    (void)film;
    (void)pixels;
    return 0;
}
int rs_cluster_sum_u64(RsCluster* c, uint64_t* values, int count)
{
    (void)c;
    (void)values;
    (void)count;
    return 0;
}
int rs_cluster_max_int(RsCluster* c, int* value)
{
    (void)c;
    (void)value;
    return 0;
}
