/* Non-blocking, regular-files-only open; atomic replacement (file.h). */
#include "util/file.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

sp_status sp_file_open_regular(int *fd, uint64_t *size, const char *path, const char *what, char err[SP_ERR_LEN])
{
    *fd = -1;
    *size = 0;
    /* O_NONBLOCK: open(2) of a FIFO returns at once instead of waiting for
     * a writer; O_NOCTTY: a terminal never becomes ours. */
    int f = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (f < 0) {
        if (err)
            snprintf(err, SP_ERR_LEN, "%s: cannot open %.200s: %s", what, path, strerror(errno));
        return SP_ERR_IO;
    }
    struct stat st;
    if (fstat(f, &st) != 0 || !S_ISREG(st.st_mode)) {
        if (err)
            snprintf(err, SP_ERR_LEN, "%s: %.200s is not a regular file", what, path);
        close(f);
        return SP_ERR_IO;
    }
    int fl = fcntl(f, F_GETFL);
    if (fl < 0 || fcntl(f, F_SETFL, fl & ~O_NONBLOCK) != 0) {
        if (err)
            snprintf(err, SP_ERR_LEN, "%s: %.200s: %s", what, path, strerror(errno));
        close(f);
        return SP_ERR_IO;
    }
    *fd = f;
    *size = (uint64_t)st.st_size;
    return SP_OK;
}

FILE *sp_file_fopen_regular(const char *path, const char *mode, const char *what, char err[SP_ERR_LEN])
{
    int fd;
    uint64_t size;
    if (sp_file_open_regular(&fd, &size, path, what, err) != SP_OK)
        return NULL;
    FILE *f = fdopen(fd, mode);
    if (!f) {
        if (err)
            snprintf(err, SP_ERR_LEN, "%s: %.200s: %s", what, path, strerror(errno));
        close(fd);
    }
    return f;
}

/* The directory part of path ("." when there is none), for its fsync. */
static void dir_of(char *out, size_t out_len, const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(out, out_len, ".");
    else if (slash == path)
        snprintf(out, out_len, "/");
    else
        snprintf(out, out_len, "%.*s", (int)(slash - path), path);
}

static int write_all(int fd, const struct iovec *iov, int n)
{
    for (int i = 0; i < n; i++) {
        const uint8_t *p = iov[i].iov_base;
        size_t len = iov[i].iov_len;
        while (len > 0) {
            ssize_t k = write(fd, p, len);
            if (k < 0 && errno == EINTR)
                continue;
            if (k <= 0)
                return -1;
            p += k;
            len -= (size_t)k;
        }
    }
    return 0;
}

int sp_file_is_atomic_tmp(const char *name)
{
    const char *t = NULL; /* the last ".tmp-" */
    for (const char *p = strstr(name, ".tmp-"); p; p = strstr(p + 1, ".tmp-"))
        t = p;
    if (!t || t == name)
        return 0;
    size_t a = strspn(t + 5, "0123456789");
    const char *u = t + 5 + a;
    return a > 0 && *u == '-' && u[1] && strspn(u + 1, "0123456789") == strlen(u + 1);
}

/* Creates a fresh temporary file next to target: its descriptor, and its
 * name in tmp; -1 with errno on failure. */
static int open_tmp_beside(char *tmp, size_t tmp_len, const char *target, mode_t mode)
{
    for (unsigned n = 0; n < 100; n++) {
        if ((size_t)snprintf(tmp, tmp_len, "%s.tmp-%ld-%u", target, (long)getpid(), n) >= tmp_len) {
            errno = ENAMETOOLONG;
            return -1;
        }
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

sp_status sp_file_write_atomic(const char *path, const void *data, size_t len, const char *what, char err[SP_ERR_LEN])
{
    struct iovec v = {(void *)data, len};
    return sp_file_write_atomicv(path, &v, 1, 0666, what, err);
}

/* durable: the file's bytes and then the directory fsync'ed (write_atomicv);
 * else neither (sp_file_replace). */
static sp_status replace(const char *path, const struct iovec *iov, int n, unsigned new_mode, int durable,
                         const char *what, char err[SP_ERR_LEN])
{
    char target[PATH_MAX], tmp[PATH_MAX + 48], dir[PATH_MAX];
    struct stat st;
    int exists = lstat(path, &st) == 0;
    if (!exists && errno != ENOENT)
        goto fail_errno;
    if (exists && S_ISLNK(st.st_mode)) {
        /* Write through the link: the file it names is what gets replaced. */
        if (!realpath(path, target) || stat(target, &st) != 0)
            goto fail_errno;
    } else if ((size_t)snprintf(target, sizeof target, "%s", path) >= sizeof target) {
        errno = ENAMETOOLONG;
        goto fail_errno;
    }
    if (exists && !S_ISREG(st.st_mode)) {
        if (err)
            snprintf(err, SP_ERR_LEN, "%s: %.200s exists and is not a regular file", what, path);
        return SP_ERR_IO;
    }
    int fd = open_tmp_beside(tmp, sizeof tmp, target, exists ? (st.st_mode & 0777) : (mode_t)(new_mode & 0777));
    if (fd < 0)
        goto fail_errno;
    /* open() applied the umask; a replaced file keeps its own bits. */
    int ok = (!exists || fchmod(fd, st.st_mode & 0777) == 0) && write_all(fd, iov, n) == 0 &&
             (!durable || fsync(fd) == 0);
    int e = errno;
    if (close(fd) != 0 && ok) {
        ok = 0;
        e = errno;
    }
    if (ok && rename(tmp, target) != 0) {
        ok = 0;
        e = errno;
    }
    if (!ok) {
        unlink(tmp);
        errno = e;
        goto fail_errno;
    }
    if (!durable)
        return SP_OK;
    /* The rename is durable once the directory is: a failure here leaves
     * the new file in place, so it is reported but nothing is undone. */
    dir_of(dir, sizeof dir, target);
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0 || fsync(dfd) != 0) {
        e = errno;
        if (dfd >= 0)
            close(dfd);
        errno = e;
        goto fail_errno;
    }
    close(dfd);
    return SP_OK;
fail_errno:
    if (err)
        snprintf(err, SP_ERR_LEN, "%s: %.200s: %s", what, path, strerror(errno));
    return SP_ERR_IO;
}

sp_status sp_file_write_atomicv(const char *path, const struct iovec *iov, int n, unsigned new_mode, const char *what,
                                char err[SP_ERR_LEN])
{
    return replace(path, iov, n, new_mode, 1, what, err);
}

sp_status sp_file_replace(const char *path, const void *data, size_t len, const char *what, char err[SP_ERR_LEN])
{
    struct iovec v = {(void *)data, len};
    return replace(path, &v, 1, 0666, 0, what, err);
}
