/* safe_file.c - regular-file reads with a size limit, atomic checked writes (see safe_file.h).
 * Host C11 (POSIX). */
#define _POSIX_C_SOURCE 200809L
#include "host/io/safe_file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char* file_kind(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a plain file";
}

static void describe_size(double bytes, char* out, size_t size)
{
    static const char* const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1024.0 && u < 4) {
        bytes /= 1024.0;
        ++u;
    }
    snprintf(out, size, u ? "%.1f %s" : "%.0f %s", bytes, units[u]);
}

FILE* rs_file_open_regular(const char* path, uint64_t max_bytes, uint64_t* size, char* why, size_t why_size)
{
    /* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, why_size, "%s", strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        snprintf(why, why_size, "%s", strerror(errno));
        close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(why, why_size, "not a regular file (%s)", file_kind(st.st_mode));
        close(fd);
        return NULL;
    }
    if ((uint64_t)st.st_size > max_bytes) {
        char have[32], limit[32];
        describe_size((double)st.st_size, have, sizeof have);
        describe_size((double)max_bytes, limit, sizeof limit);
        snprintf(why, why_size, "too large: %s, the limit is %s", have, limit);
        close(fd);
        return NULL;
    }
    int flags = fcntl(fd, F_GETFL);
    FILE* f = flags >= 0 && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 ? fdopen(fd, "rb") : NULL;
    if (!f) {
        snprintf(why, why_size, "%s", strerror(errno));
        close(fd);
        return NULL;
    }
    if (size)
        *size = (uint64_t)st.st_size;
    return f;
}

char* rs_file_read_all(const char* path, uint64_t max_bytes, size_t* size, char* why, size_t why_size)
{
    uint64_t expected = 0;
    FILE* f = rs_file_open_regular(path, max_bytes, &expected, why, why_size);
    if (!f)
        return NULL;
    /* one byte more than stat said: a file that grows while we read is read to the limit */
    size_t cap = (size_t)expected + 1, len = 0;
    char* text = malloc(cap + 1);
    while (text) {
        len += fread(text + len, 1, cap - len, f);
        if (len < cap || ferror(f) || len > max_bytes)
            break;
        char* grown = realloc(text, cap * 2 + 1);
        if (!grown) {
            free(text);
            text = NULL;
            break;
        }
        text = grown;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (!text || bad || len > max_bytes) {
        snprintf(why, why_size, "%s", !text ? "out of memory" : bad ? "read error" : "too large (it grew while read)");
        free(text);
        return NULL;
    }
    text[len] = '\0';
    *size = len;
    return text;
}

static char* temp_name(const char* path)
{
    size_t n = strlen(path) + 32;
    char* tmp = malloc(n);
    if (tmp)
        snprintf(tmp, n, "%s.tmp-%ld", path, (long)getpid());
    return tmp;
}

static int write_all(int fd, const void* data, size_t size)
{
    const char* p = data;
    while (size > 0) {
        ssize_t n = write(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = EIO;
            return -1;
        }
        p += n;
        size -= (size_t)n;
    }
    return 0;
}

/* The directory entry of a renamed file is durable only once its directory is synced. */
static void sync_directory(const char* path)
{
    const char* slash = strrchr(path, '/');
    char* dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    int fd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    if (fd >= 0) {
        fsync(fd); /* best effort: some file systems refuse it, and the data itself is synced */
        close(fd);
    }
    free(dir);
}

/* What stands at `path` that must not be replaced by a file: a directory, a device, a FIFO, a
 * socket (renaming over a device node would replace it for every program), or a read-only
 * file, which its owner protected. Writes the reason to why[] and returns -1; 0 when `path` is
 * free or a writable regular file. */
static int destination_taken(const char* path, char* why, size_t why_size)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return 0;
    if (!S_ISREG(st.st_mode)) {
        snprintf(why, why_size, "it is %s", file_kind(st.st_mode));
        return -1;
    }
    if (access(path, W_OK) != 0 && errno == EACCES) {
        snprintf(why, why_size, "the file is read-only");
        return -1;
    }
    return 0;
}

int rs_file_write_atomic(const char* path, const RsBytes* parts, int count, RsError* err)
{
    char why[64];
    if (destination_taken(path, why, sizeof why))
        return rs_error_set(err, "cannot write '%s': %s", path, why);
    char* tmp = temp_name(path);
    if (!tmp)
        return rs_error_set(err, "cannot write '%s': out of memory", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    int e = 0;
    if (fd < 0) {
        e = errno;
    } else {
        for (int i = 0; i < count && !e; ++i)
            if (write_all(fd, parts[i].data, parts[i].size) != 0)
                e = errno;
        if (!e && fsync(fd) != 0 && errno != EINVAL && errno != EROFS)
            e = errno; /* EINVAL: a file that cannot be synced (a pipe, /dev/null) */
        if (close(fd) != 0 && !e)
            e = errno;
        if (!e && rename(tmp, path) != 0)
            e = errno;
        if (e)
            unlink(tmp);
    }
    free(tmp);
    if (e)
        return rs_error_set(err, "cannot write '%s': %s", path, strerror(e));
    sync_directory(path);
    return 0;
}

int rs_file_check_writable(const char* path, RsError* err)
{
    char why[64];
    if (destination_taken(path, why, sizeof why))
        return rs_error_set(err, "cannot write '%s': %s", path, why);
    char* tmp = temp_name(path);
    if (!tmp)
        return rs_error_set(err, "cannot write '%s': out of memory", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    int e = fd < 0 ? errno : 0;
    if (fd >= 0) {
        close(fd);
        unlink(tmp);
    }
    free(tmp);
    return e ? rs_error_set(err, "cannot write '%s': %s", path, strerror(e)) : 0;
}

int rs_file_remove_stale_temps(const char* path)
{
    const char* slash = strrchr(path, '/');
    const char* base = slash ? slash + 1 : path;
    char* dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    DIR* d = dir ? opendir(dir) : NULL;
    int removed = 0;
    size_t base_len = strlen(base);
    for (struct dirent* e; d && (e = readdir(d)) != NULL;) {
        const char* name = e->d_name;
        if (strncmp(name, base, base_len) != 0 || strncmp(name + base_len, ".tmp-", 5) != 0)
            continue;
        char* end = NULL;
        long pid = strtol(name + base_len + 5, &end, 10);
        if (pid <= 0 || *end != '\0' || pid == (long)getpid())
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue; /* its writer may still be running */
        size_t n = strlen(dir) + strlen(name) + 2;
        char* full = malloc(n);
        if (full) {
            snprintf(full, n, "%s/%s", dir, name);
            removed += unlink(full) == 0;
            free(full);
        }
    }
    if (d)
        closedir(d);
    free(dir);
    return removed;
}
