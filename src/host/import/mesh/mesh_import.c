/* mesh_import.c - a mesh file into scene triangles through assimp (see mesh_import.h): the
 * import process and its supervision. Host C11 (POSIX).
 *
 * assimp runs in a child process. Fuzzing found inputs on which assimp 5.2 (Debian 12) aborts
 * on an internal assertion or loops forever; no check of ours can anticipate all of them, and
 * "no input file may crash raystream". So the child imports the file and streams materials and
 * triangles back through a pipe (mesh_child.c writes, mesh_records.c reads; mesh_stream.h has
 * the records); the parent turns them into scene primitives. A child that dies by a signal, or
 * does not finish within the import time limit (RAYSTREAM_MESH_TIMEOUT seconds, default 300),
 * becomes an error message naming the file; raystream itself keeps running.
 *
 * Every file the import touches must be a regular file: the parent checks the mesh file itself
 * before forking (a FIFO would block the open forever), and the child gives assimp an IO system
 * that refuses anything else. The child dies with the parent (PR_SET_PDEATHSIG), and the parent
 * kills and reaps it on every path out, so no import process is ever orphaned. PLY headers are
 * checked first: their element counts must fit the file's size, since assimp allocates for the
 * counts before reading the data.
 */
#define _POSIX_C_SOURCE 200809L
#include "host/import/mesh/mesh_import.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "host/import/mesh/mesh_stream.h"
#include "host/import/mesh/ply_header.h"
#include "host/io/safe_file.h"
#include "host/util/clock.h"

static int has_extension(const char* path, const char* ext)
{
    size_t n = strlen(path), m = strlen(ext);
    return n >= m && strcasecmp(path + n - m, ext) == 0;
}

static double import_timeout(void)
{
    const char* s = getenv("RAYSTREAM_MESH_TIMEOUT");
    double t = s ? atof(s) : 0.0;
    return t > 0.0 ? t : 300.0;
}

int rs_mesh_import(RsScene* scene, const char* path, const char* where, const RsTransform* xf,
                   int32_t material_override, RsFileList* files_read, RsError* err)
{
    char why[512];
    uint64_t size = 0;
    FILE* probe = rs_file_open_regular(path, UINT64_MAX, &size, why, sizeof why);
    if (!probe)
        return rs_error_set(err, "%s: cannot read '%s': %s", where, path, why);
    int bad_ply = has_extension(path, ".ply") && rs_ply_header_check(probe, size, why, sizeof why);
    fclose(probe);
    if (bad_ply)
        return rs_error_set(err, "%s: cannot import '%s': %s", where, path, why);
    if (rs_file_list_add(files_read, path, err))
        return -1;

    int fds[2];
    if (pipe(fds) != 0)
        return rs_error_set(err, "%s: cannot start the mesh import: %s", where, strerror(errno));
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return rs_error_set(err, "%s: cannot start the mesh import: %s", where, strerror(errno));
    }
    if (pid == 0) {
#ifdef __linux__
        /* die with the parent, however it ends (an interrupt, SIGKILL): an import nobody reads
         * must not run on; the check after it covers a parent that died before the call */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
        if (getppid() != parent)
            _exit(1);
        /* die plainly on assimp's faults: no inherited crash handlers (a fuzzer's, a debugger's);
         * and the parent's interrupt handlers are not ours: the parent decides */
        int fatal[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGINT, SIGTERM};
        for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; ++i)
            signal(fatal[i], SIG_DFL);
        close(fds[0]);
        FILE* out = fdopen(fds[1], "wb");
        if (out) {
            rs_mesh_child_import(path, out);
            fclose(out);
        }
        _exit(0); /* no atexit handlers: the parent owns everything else */
    }
    close(fds[1]);
    size_t before = scene->prims.count;
    double timeout = import_timeout();
    RsMeshReader* r = calloc(1, sizeof *r);
    int done = 0, status = -1;
    if (!r) {
        rs_error_set(err, "%s: out of memory importing '%s'", where, path);
    } else {
        r->fd = fds[0];
        r->deadline = rs_clock_seconds() + timeout;
        status = rs_mesh_read_records(r, scene, path, where, xf, material_override, files_read, &done, err);
    }
    close(fds[0]);
    /* every way out but a finished import (an error in the records, the time limit, out of
     * memory) kills the child first, so that waiting for it cannot block */
    if (!done)
        kill(pid, SIGKILL);
    int child_status = 0;
    while (waitpid(pid, &child_status, 0) < 0 && errno == EINTR) {
    }
    if (status == 0 && r && r->timed_out)
        status = rs_error_set(err, "%s: assimp did not finish reading '%s' within %.0f s (a malformed file?)", where,
                              path, timeout);
    else if (status == 0 && !done && WIFSIGNALED(child_status) &&
             (WTERMSIG(child_status) == SIGINT || WTERMSIG(child_status) == SIGTERM))
        status = rs_error_set(err, "%s: the import of '%s' was interrupted", where, path);
    else if (status == 0 && !done && WIFSIGNALED(child_status) && WTERMSIG(child_status) != SIGKILL)
        status = rs_error_set(err, "%s: assimp crashed reading '%s' (signal %d): the file is malformed", where, path,
                              WTERMSIG(child_status));
    else if (status == 0 && !done)
        status = rs_error_set(err, "%s: the import of '%s' ended early", where, path);
    free(r);
    if (status)
        return -1;
    if (scene->prims.count == before)
        return rs_error_set(err, "%s: '%s' contains no triangles with any area", where, path);
    return 0;
}
