/* Key cache: the size cap and the listing (keycache_entry.h). */
#include "groth16/keycache_entry.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "r1cs/binfile.h"
#include "util/crc32c.h"
#include "util/rng.h"

void kc_touch(int fd)
{
    (void)futimens(fd, NULL);
}

/* ---- the size cap ---- */

typedef struct {
    char name[KC_NAME_MAX];
    uint64_t bytes;
    struct timespec used;
} kc_item;

/* Oldest first; the name breaks ties so the order is the same for every process. */
static int by_use(const void *x, const void *y)
{
    const kc_item *a = x, *b = y;
    if (a->used.tv_sec != b->used.tv_sec)
        return a->used.tv_sec < b->used.tv_sec ? -1 : 1;
    if (a->used.tv_nsec != b->used.tv_nsec)
        return a->used.tv_nsec < b->used.tv_nsec ? -1 : 1;
    return strcmp(a->name, b->name);
}

/* The entries of the directory (names, sizes, mtimes) into a new array
 * (*items, free()); *n of them, *total their bytes. Returns 0 or -1. */
static int entries_of(kc_item **items, size_t *n, uint64_t *total, int dirfd)
{
    int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    size_t cap = 0;
    *items = NULL;
    *n = 0;
    *total = 0;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        struct stat st;
        if (!kc_is_entry_name(e->d_name) || strlen(e->d_name) >= KC_NAME_MAX ||
            fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (*n == cap) {
            size_t grow = cap ? 2 * cap : 16;
            kc_item *m = realloc(*items, grow * sizeof *m);
            if (!m)
                break;
            *items = m;
            cap = grow;
        }
        kc_item *it = &(*items)[(*n)++];
        memcpy(it->name, e->d_name, strlen(e->d_name) + 1); /* length checked above */
        it->bytes = (uint64_t)st.st_size;
        it->used = st.st_mtim;
        *total += it->bytes;
    }
    closedir(d);
    return 0;
}

/* Removes the references whose entry no longer exists. */
static void drop_dangling_refs(int dirfd)
{
    int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    kc_ref *r = malloc(sizeof *r);
    struct dirent *e;
    while (d && r && (e = readdir(d)) != NULL) {
        struct stat st;
        if (kc_is_ref_name(e->d_name) && kc_ref_get(r, dirfd, e->d_name) == 0 &&
            fstatat(dirfd, r->entry, &st, AT_SYMLINK_NOFOLLOW) != 0 && errno == ENOENT)
            unlinkat(dirfd, e->d_name, 0);
    }
    free(r);
    if (d)
        closedir(d);
    else if (fd >= 0)
        close(fd);
}

void kc_evict(uint64_t *total, size_t *evicted, int dirfd, uint64_t cap, uint64_t incoming, const char *keep)
{
    kc_item *items;
    size_t n;
    *evicted = 0;
    if (entries_of(&items, &n, total, dirfd) != 0)
        return;
    if (n) /* items is NULL for an empty directory */
        qsort(items, n, sizeof *items, by_use);
    for (size_t i = 0; keep && i < n; i++)
        if (!strcmp(items[i].name, keep))
            *total -= items[i].bytes; /* replaced by the incoming entry */
    for (size_t i = 0; i < n && *total + incoming > cap; i++) {
        if (keep && !strcmp(items[i].name, keep))
            continue;
        if (unlinkat(dirfd, items[i].name, 0) == 0 || errno == ENOENT) {
            *total -= items[i].bytes;
            (*evicted)++;
        }
    }
    free(items);
    if (*evicted)
        drop_dangling_refs(dirfd);
}
