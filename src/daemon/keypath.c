/*
 * Which files POST /v1/circuits may register by path (services.h).
 *
 * Registering by path makes the daemon open a file of the client's
 * choosing with the daemon's rights: without a limit that is a file
 * oracle (which files exist, which are readable, and, before the readers
 * stopped quoting magic numbers, their first bytes). So it is an operator
 * decision: only regular files under the directories of keys.key_dirs,
 * checked twice, as written (so that a path outside gets the same answer
 * whether or not the file exists) and once symbolic links are resolved
 * (so that a link inside cannot point outside). The links are resolved
 * even when what they lead to is missing: a link to a file outside is
 * refused the same way whether that file exists or not. keys.any_key_path = yes
 * restores the old, unlimited behaviour for trusted clients. Uploads and
 * [circuit.*] sections are not limited: the first brings its own bytes,
 * the second is the operator's own file.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "daemon/services.h"

/* 1 when path, as written, lies strictly below dir: dir + '/' + a rest
 * with no empty, "." or ".." component. */
static int below(const char *path, const char *dir, size_t dl)
{
    while (dl > 1 && dir[dl - 1] == '/')
        dl--;
    if (dl == 0 || dir[0] != '/' || strncmp(path, dir, dl) != 0 || (dl > 1 && path[dl] != '/'))
        return 0;
    const char *rest = path + (dl > 1 ? dl + 1 : 1);
    if (!*rest)
        return 0;
    for (const char *p = rest; *p;) {
        size_t n = strcspn(p, "/");
        if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
            return 0;
        p += n + (p[n] == '/');
    }
    return 1;
}

/* 1 when path lies below one of the ':'-separated dirs (resolved: their realpath). */
static int below_any(const char *path, const char *dirs, int resolved)
{
    for (const char *p = dirs; *p;) {
        size_t n = strcspn(p, ":");
        char d[PATH_MAX], real[PATH_MAX];
        if (n > 0 && n < sizeof d) {
            memcpy(d, p, n);
            d[n] = 0;
            if (!resolved && below(path, d, n))
                return 1;
            if (resolved && realpath(d, real) && below(path, real, strlen(real)))
                return 1;
        }
        p += n + (p[n] == ':');
    }
    return 0;
}

/* Resolves path as realpath(3) does, except that from the first
 * component that does not exist on, the rest is kept as written. On
 * output: out the result, *exists whether every component exists.
 * Returns 0, or -1 (a loop of links, or a path too long). */
static int resolve_lenient(char out[PATH_MAX], int *exists, const char *path)
{
    char todo[PATH_MAX], link[PATH_MAX], next[PATH_MAX];
    int links = 0;
    *exists = 1;
    if (snprintf(todo, sizeof todo, "%s", path) >= (int)sizeof todo || todo[0] != '/')
        return -1;
    strcpy(out, "/");
    const char *p = todo;
    for (;;) {
        while (*p == '/')
            p++;
        if (!*p)
            return 0;
        size_t n = strcspn(p, "/"), ol = strlen(out);
        if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.')) {
            if (n == 2 && ol > 1) /* up one: out never ends with '/' but for the root */
                out[strrchr(out, '/') == out ? 1 : (size_t)(strrchr(out, '/') - out)] = 0;
            p += n;
            continue;
        }
        if (ol + 1 + n >= PATH_MAX)
            return -1;
        snprintf(out + ol, PATH_MAX - ol, "%s%.*s", ol > 1 ? "/" : "", (int)n, p);
        p += n;
        struct stat st;
        if (lstat(out, &st) != 0) { /* missing, or not to be looked into: the rest as written */
            *exists = 0;
            size_t l = strlen(out);
            return l + strlen(p) < PATH_MAX ? (strcat(out, p), 0) : -1;
        }
        if (!S_ISLNK(st.st_mode))
            continue;
        ssize_t k = readlink(out, link, sizeof link - 1);
        if (k < 0 || ++links > 40)
            return -1;
        link[k] = 0;
        if (link[0] == '/')
            strcpy(out, "/");
        else
            out[strrchr(out, '/') == out ? 1 : (size_t)(strrchr(out, '/') - out)] = 0;
        if (snprintf(next, sizeof next, "%s/%s", link, p) >= (int)sizeof next)
            return -1;
        strcpy(todo, next);
        p = todo;
    }
}

int sp_dmn_reg_check_path(sp_dmn *d, const char *path, char *resolved, size_t resolved_len, char err[SP_ERR_LEN])
{
    char dirs[SP_DMN_CONF_PATH], real[PATH_MAX];
    pthread_mutex_lock(&d->cfg_mu);
    snprintf(dirs, sizeof dirs, "%s", d->cfg.key_dirs);
    int any = d->cfg.any_key_path;
    pthread_mutex_unlock(&d->cfg_mu);
    if (path[0] != '/') {
        snprintf(err, SP_ERR_LEN, "give an absolute path");
        return 400;
    }
    if (!any && !below_any(path, dirs, 0)) {
        if (dirs[0])
            snprintf(err, SP_ERR_LEN, "registration by path reads only files under the directories of "
                     "keys.key_dirs; upload the file instead (multipart/form-data)");
        else
            snprintf(err, SP_ERR_LEN, "registration by path is off (keys.key_dirs is empty); upload the file "
                     "instead (multipart/form-data)");
        return 403;
    }
    int exists = 0;
    if (resolve_lenient(real, &exists, path) != 0) {
        snprintf(err, SP_ERR_LEN, "%.200s cannot be resolved (a loop of links, or too long)", path);
        return 400;
    }
    if (!any && !below_any(real, dirs, 1)) { /* before looking whether it exists */
        snprintf(err, SP_ERR_LEN, "%.200s leads outside the directories of keys.key_dirs", path);
        return 403;
    }
    if (!exists || !realpath(path, real)) {
        snprintf(err, SP_ERR_LEN, "%.200s: %s", path, strerror(exists ? errno : ENOENT));
        return 400;
    }
    struct stat st;
    if (stat(real, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, SP_ERR_LEN, "%.200s is not a regular file", path);
        return 400;
    }
    if (strlen(real) >= resolved_len) {
        snprintf(err, SP_ERR_LEN, "path longer than %zu bytes", resolved_len - 1);
        return 400;
    }
    memcpy(resolved, real, strlen(real) + 1);
    return 0;
}
