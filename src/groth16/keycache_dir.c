/* Key cache: references from key paths to contents, and the size cap (keycache_entry.h). */
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

static const char REF_MAGIC[8] = {'S', 'P', 'K', 'C', 'R', 'E', 'F', '1'};

enum { REF_SHA = 8, REF_STAMP = 40, REF_ENTRY = 104, REF_LEN = 200, REF_PATH = 204 };

int kc_ref_get(kc_ref *r, int dirfd, const char *name)
{
    uint8_t b[REF_PATH + SP_KC_PATH + 4];
    int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return -1;
    struct stat st;
    ssize_t n = -1;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() && !(st.st_mode & 022))
        n = pread(fd, b, sizeof b, 0);
    close(fd);
    if (n < REF_PATH + 4 || memcmp(b, REF_MAGIC, 8))
        return -1;
    uint32_t len = sp_bin_le32(b + REF_LEN);
    if (len >= SP_KC_PATH || (size_t)n != REF_PATH + (size_t)len + 4 ||
        sp_bin_le32(b + REF_PATH + len) != sp_crc32c(0, b, REF_PATH + len) || b[REF_ENTRY + KC_NAME_MAX - 1])
        return -1;
    memset(r, 0, sizeof *r);
    memcpy(r->src_sha, b + REF_SHA, 32);
    r->stamped = kc_stamp_get(&r->stamp, b + REF_STAMP, r->src_sha) == 0;
    memcpy(r->entry, b + REF_ENTRY, KC_NAME_MAX);
    memcpy(r->path, b + REF_PATH, len);
    r->path[len] = 0;
    return 0;
}

int kc_ref_put(int dirfd, const char *name, const kc_ref *r)
{
    uint8_t b[REF_PATH + SP_KC_PATH + 4], rnd[8] = {0};
    char tmp[KC_NAME_MAX + 32];
    size_t len = strnlen(r->path, SP_KC_PATH - 1);
    memset(b, 0, REF_PATH);
    memcpy(b, REF_MAGIC, 8);
    memcpy(b + REF_SHA, r->src_sha, 32);
    if (r->stamped)
        kc_stamp_pack(b + REF_STAMP, &r->stamp, r->src_sha);
    snprintf((char *)b + REF_ENTRY, KC_NAME_MAX, "%s", r->entry);
    sp_bin_put_u32(b + REF_LEN, (uint32_t)len);
    memcpy(b + REF_PATH, r->path, len);
    sp_bin_put_u32(b + REF_PATH + len, sp_crc32c(0, b, REF_PATH + len));
    if (sp_os_random(rnd, sizeof rnd) != SP_OK) { /* a name collision would only make this write fail */
        pid_t pid = getpid();
        memcpy(rnd, &pid, sizeof pid);
    }
    int w = snprintf(tmp, sizeof tmp, ".%s.tmp-%02x%02x%02x%02x%02x%02x%02x%02x", name, rnd[0], rnd[1], rnd[2],
                     rnd[3], rnd[4], rnd[5], rnd[6], rnd[7]);
    if (w < 0 || (size_t)w >= sizeof tmp)
        return -1;
    int fd = openat(dirfd, tmp, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        return -1;
    size_t total = REF_PATH + len + 4;
    int ok = write(fd, b, total) == (ssize_t)total;
    ok = close(fd) == 0 && ok;
    if (!ok || renameat(dirfd, tmp, dirfd, name) != 0) {
        unlinkat(dirfd, tmp, 0);
        return -1;
    }
    return 0;
}

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
        snprintf(it->name, sizeof it->name, "%s", e->d_name);
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
