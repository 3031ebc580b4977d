/*
 * Key cache: when to use an entry and when to check the key file
 * (keycache.h). The entry and reference formats, the directory and the
 * size cap are keycache_entry.c and keycache_dir.c.
 *
 * A load finds the content its key file holds and then that content's
 * entry. When the path's reference has a stamp and the file has exactly
 * the identity it records (device, inode, size, mtime and ctime to the
 * ns), the content is the reference's and only the entry is read. Else,
 * with a reference, the file is hashed while the entry of the reference's
 * content is read (two threads), and a hit needs both to agree; without
 * one, or when the file's content changed, the file is hashed first and
 * the entry of what it holds looked up (another path may have made it).
 * A stamp is written only when the file cannot have changed since without
 * its ctime changing: the file's identity was the same before and after
 * the hash, the file system keeps ctime itself (ext4, xfs, btrfs, tmpfs,
 * ...), and its mtime and ctime were more than KC_RACY_NS older than the
 * hash's start. That last rule is git's "racy clean" rule: a change made
 * within the same clock tick as the recorded ctime would leave ctime as it
 * was, so a ctime that recent is not trusted. Without an entry the key
 * file is read and checked as without a cache and, to store the entry,
 * hashed once more while the entry is written: the entry goes in place
 * only when both hashes agree, so it never holds a key the file was not
 * while it was being read (a file rewritten in place meanwhile fails the
 * load instead).
 */
#include "groth16/keycache.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "groth16/keycache_entry.h"
#include "groth16/params.h"
#include "groth16/zkey.h"
#include "util/file.h"
#include "util/par.h"
#include "util/progress.h"
#include "util/sha256.h"

const char *sp_kc_outcome_str(sp_kc_outcome o)
{
    switch (o) {
    case SP_KC_HIT: return "hit";
    case SP_KC_MISS: return "miss";
    case SP_KC_STALE: return "stale";
    case SP_KC_WEAKER: return "weaker";
    case SP_KC_DAMAGED: return "damaged";
    case SP_KC_UNUSABLE: return "unusable";
    }
    return "?";
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int64_t ns_of(struct timespec t) { return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec; }

static int64_t realtime_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return ns_of(t);
}

/* How much older than the hash a key file's mtime and ctime must be for its
 * stamp to be written (file systems keep time to a clock tick at best). */
#define KC_RACY_NS ((int64_t)2000000000)
int64_t sp_kc_debug_racy_ns = KC_RACY_NS;

/* Everything one load holds. */
typedef struct {
    const sp_kc_request *rq;
    sp_kc_report *rep;
    const uint8_t *data; /* the key file's bytes */
    size_t len;
    void *map; /* our own mapping of them, or NULL */
    int fd;    /* the key file when we opened it (else -1) */
    struct stat st; /* its identity, taken before anything read it */
    int stampable;  /* fd >= 0 and its file system keeps ctime */
    int64_t hash_ns; /* realtime when the hash of sha began */
    const char *dir;
    int dirfd;
    char name[KC_NAME_MAX];     /* the entry of the content sha (or the reference's) */
    char ref_name[KC_NAME_MAX]; /* the key file's reference */
    kc_ref ref;                 /* what it said, when have_ref */
    int have_ref;
    kc_head want; /* the binding fields this load needs */
    uint8_t sha[32];
    int have_sha;
} kc_load;

/* ---- the key file ---- */

static kc_stamp stamp_of(const struct stat *st, int64_t hashed_ns)
{
    kc_stamp s = {.dev = (uint64_t)st->st_dev, .ino = (uint64_t)st->st_ino, .size = (uint64_t)st->st_size,
                  .mtime_ns = ns_of(st->st_mtim), .ctime_ns = ns_of(st->st_ctim), .hashed_ns = hashed_ns};
    return s;
}

/* The key file has the identity stamp s records. */
static int same_identity(const kc_stamp *s, const struct stat *st)
{
    kc_stamp now = stamp_of(st, 0);
    return s->dev == now.dev && s->ino == now.ino && s->size == now.size && s->mtime_ns == now.mtime_ns &&
           s->ctime_ns == now.ctime_ns;
}

/* The reference's stamp, when the rules at the top allow one: *s filled
 * and 1, else 0. */
static int stamp_now(kc_stamp *s, const kc_load *L)
{
    struct stat now;
    int64_t limit = L->hash_ns - sp_kc_debug_racy_ns;
    if (!L->stampable || ns_of(L->st.st_mtim) >= limit || ns_of(L->st.st_ctim) >= limit || fstat(L->fd, &now) != 0)
        return 0;
    *s = stamp_of(&L->st, L->hash_ns);
    return same_identity(s, &now); /* else changed while it was hashed */
}

/* After the key file's content L->sha was found in entry L->name (read or
 * written): points the file's reference at it, with a stamp when allowed,
 * unless the reference says so already. */
static void write_ref(kc_load *L)
{
    kc_stamp s;
    int stamped = L->rep->identity ? L->ref.stamped : stamp_now(&s, L);
    /* nothing new: the same content and entry, and no stamp to add (a
     * stamp of an earlier identity stays: no file can have it again) */
    if (L->have_ref && !memcmp(L->ref.src_sha, L->sha, 32) && !strcmp(L->ref.entry, L->name) &&
        (L->rep->identity || !stamped))
        return;
    kc_ref *r = &L->ref;
    memcpy(r->src_sha, L->sha, 32);
    r->stamped = stamped;
    if (stamped && !L->rep->identity)
        r->stamp = s;
    snprintf(r->entry, sizeof r->entry, "%s", L->name);
    memcpy(r->path, L->want.path, sizeof L->want.path);
    if (kc_ref_put(L->dirfd, L->ref_name, r) == 0) {
        L->have_ref = 1;
        L->rep->stamped = stamped && !L->rep->identity;
    }
}

/* L->name (and the report's entry path) for content sha. */
static void name_entry(kc_load *L, const uint8_t sha[32])
{
    kc_entry_name(L->name, L->want.build, L->rq->kind, L->want.density, sha);
    int w = snprintf(L->rep->entry, sizeof L->rep->entry, "%s/%s", L->dir, L->name);
    if (w < 0 || (size_t)w >= sizeof L->rep->entry)
        L->rep->entry[0] = 0;
}

static sp_status source_map(kc_load *L, char err[SP_ERR_LEN])
{
    if (L->rq->data) {
        L->data = L->rq->data;
        L->len = L->rq->len;
        return SP_OK;
    }
    int fd;
    uint64_t size;
    const char *what = L->rq->kind == SP_KC_ZKEY ? "zkey" : "params";
    sp_status st = sp_file_open_regular(&fd, &size, L->rq->path, what, err);
    if (st != SP_OK)
        return st;
    if (size == 0) { /* nothing to cache: the plain reader says what is wrong */
        close(fd);
        return SP_OK;
    }
    if (size > SIZE_MAX) {
        snprintf(err, SP_ERR_LEN, "%s: %.200s: too large", what, L->rq->path);
        close(fd);
        return SP_ERR_IO;
    }
    void *m = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
    int e = errno;
    if (m == MAP_FAILED) {
        close(fd);
        snprintf(err, SP_ERR_LEN, "%s: %.200s: mmap: %s", what, L->rq->path, strerror(e));
        return SP_ERR_IO;
    }
    L->fd = fd;
    L->stampable = fstat(fd, &L->st) == 0 && (uint64_t)L->st.st_size == size && kc_keeps_ctime(fd);
    L->map = m;
    L->data = m;
    L->len = (size_t)size;
    return SP_OK;
}

/* The key file checked from its bytes, as without a cache. */
static sp_status parse(sp_g16_pk *pk, const kc_load *L, char err[SP_ERR_LEN])
{
    const sp_kc_request *rq = L->rq;
    if (rq->kind == SP_KC_ZKEY)
        return sp_zkey_parse(pk, NULL, L->data, L->len, rq->flags, rq->threads, err);
    return sp_bp_params_parse(pk, L->data, L->len, rq->density, rq->flags, rq->threads, err);
}

/* ---- two things at once ---- */

typedef void (*task_fn)(void *);

typedef struct {
    task_fn f[2];
    void *ctx[2];
} two_tasks;

static void two_worker(sp_par *par, int tid, void *vctx)
{
    two_tasks *t = vctx;
    t->f[tid](t->ctx[tid]);
    if (par->nthreads == 1)
        t->f[1](t->ctx[1]);
}

/* Runs f0(c0) and f1(c1), on two threads when threads >= 2. */
static void run_two(int threads, task_fn f0, void *c0, task_fn f1, void *c1)
{
    two_tasks t = {{f0, f1}, {c0, c1}};
    sp_par_run(threads >= 2 ? 2 : 1, two_worker, &t);
}

typedef struct {
    const kc_load *L;
    int report; /* count the bytes in the progress line */
    uint8_t out[32];
    double seconds;
    int64_t started_ns; /* realtime */
} hash_task;

static void hash_run(void *vctx)
{
    enum { PIECE = 16 << 20 };
    hash_task *h = vctx;
    double t0 = now_s();
    h->started_ns = realtime_ns();
    sp_sha256_ctx c;
    sp_sha256_init(&c);
    for (size_t at = 0; at < h->L->len; at += PIECE) {
        size_t k = h->L->len - at < PIECE ? h->L->len - at : PIECE;
        sp_sha256_update(&c, h->L->data + at, k);
        if (h->report)
            sp_progress_add(k);
    }
    sp_sha256_final(h->out, &c);
    h->seconds = now_s() - t0;
}

/* ---- a hit ---- */

typedef struct {
    sp_g16_pk *pk;
    int fd;
    const kc_head *head;
    const uint8_t *raw;
    int threads; /* to read it with */
    sp_status st;
    char why[SP_ERR_LEN];
    double seconds;
} read_task;

static void read_run(void *vctx)
{
    read_task *r = vctx;
    double t0 = now_s();
    r->st = kc_entry_read(r->pk, r->fd, r->head, r->raw, r->threads > 0 ? r->threads : 1, r->why);
    r->seconds = now_s() - t0;
}

static void damaged(kc_load *L, const char *why)
{
    L->rep->outcome = SP_KC_DAMAGED;
    snprintf(L->rep->warning, SP_ERR_LEN, "key cache: entry %.60s ignored (%.120s); key checked again", L->name,
             why);
}

/* Opens entry L->name for content sha: its descriptor, or -1 with
 * rep->outcome saying why not (MISS, WEAKER, DAMAGED). */
static int open_entry(kc_head *h, uint8_t raw[KC_HEAD], kc_load *L, const uint8_t sha[32])
{
    kc_verdict v;
    struct stat est;
    int fd = kc_entry_open(h, raw, &est, &v, L->dirfd, L->name);
    L->rep->outcome = v.outcome;
    if (fd < 0) {
        if (v.outcome == SP_KC_DAMAGED)
            damaged(L, v.why);
        return -1;
    }
    if (h->kind != L->want.kind || memcmp(h->density, L->want.density, 32))
        damaged(L, "made for another key kind or circuit");
    else if (h->src_size != L->len || memcmp(h->src_sha, sha, 32))
        damaged(L, "it holds another key than its name says");
    else if (h->level < L->want.level)
        L->rep->outcome = SP_KC_WEAKER;
    else
        return fd;
    close(fd);
    return -1;
}

/* Reads the entry of L->sha (the file's content, known): a hit, or why not. */
static sp_status read_known(sp_g16_pk *pk, kc_load *L)
{
    kc_head h;
    uint8_t raw[KC_HEAD];
    name_entry(L, L->sha);
    int fd = open_entry(&h, raw, L, L->sha);
    if (fd < 0)
        return SP_OK;
    read_task rt = {.pk = pk, .fd = fd, .head = &h, .raw = raw, .threads = L->rq->threads};
    sp_progress_begin("key: reading the cached key", KC_HEAD + h.payload + KC_TRAILER);
    read_run(&rt);
    sp_progress_end();
    L->rep->t_entry = rt.seconds;
    if (rt.st == SP_OK) {
        L->rep->outcome = SP_KC_HIT;
        kc_touch(fd);
        write_ref(L);
    } else if (rt.st == SP_ERR_FORMAT) {
        damaged(L, rt.why);
    }
    close(fd);
    return rt.st == SP_ERR_NOMEM ? SP_ERR_NOMEM : SP_OK;
}

/* Hashes the key file into L->sha (with the progress line). */
static void hash_file(kc_load *L)
{
    hash_task ht = {.L = L, .report = 1};
    sp_progress_begin("key: hashing it for the cache", L->len);
    hash_run(&ht);
    sp_progress_end();
    memcpy(L->sha, ht.out, 32);
    L->have_sha = 1;
    L->hash_ns = ht.started_ns;
    L->rep->t_hash += ht.seconds;
}

/* With a reference but no stamp to trust: hashes the key file while
 * reading the entry of the reference's content. Returns as read_known;
 * rep->outcome STALE when the file holds another content now. */
static sp_status read_hashing(sp_g16_pk *pk, kc_load *L)
{
    kc_head h;
    uint8_t raw[KC_HEAD];
    name_entry(L, L->ref.src_sha);
    int fd = open_entry(&h, raw, L, L->ref.src_sha);
    hash_task ht = {.L = L, .report = 1};
    read_task rt = {.pk = pk, .fd = fd, .head = &h, .raw = raw, .st = SP_ERR_FORMAT};
    if (fd < 0) {
        hash_file(L);
    } else {
        sp_progress_begin("key: reading the cached key", L->len + KC_HEAD + h.payload + KC_TRAILER);
        run_two(L->rq->threads, hash_run, &ht, read_run, &rt);
        sp_progress_end();
        memcpy(L->sha, ht.out, 32);
        L->have_sha = 1;
        L->hash_ns = ht.started_ns;
        L->rep->t_hash = ht.seconds;
        L->rep->t_entry = rt.seconds;
    }
    if (memcmp(L->sha, L->ref.src_sha, 32) != 0) {
        if (rt.st == SP_OK)
            sp_g16_pk_free(pk);
        L->rep->outcome = SP_KC_STALE;
        L->rep->warning[0] = 0; /* an entry of the old content, damaged or not, is not this load's concern */
    } else if (fd >= 0 && rt.st == SP_OK) {
        L->rep->outcome = SP_KC_HIT;
        kc_touch(fd);
        write_ref(L);
    } else if (fd >= 0 && rt.st == SP_ERR_FORMAT) {
        damaged(L, rt.why);
    }
    if (fd >= 0)
        close(fd);
    return rt.st == SP_ERR_NOMEM ? SP_ERR_NOMEM : SP_OK;
}

/*
 * Looks for the key's entry. Returns SP_OK with rep->outcome saying whether
 * *pk was filled (SP_KC_HIT) or why not; SP_ERR_NOMEM when the key does not
 * fit. Unless a hit, L->sha holds the file's content when have_sha.
 */
static sp_status try_entry(sp_g16_pk *pk, kc_load *L)
{
    L->have_ref = kc_ref_get(&L->ref, L->dirfd, L->ref_name) == 0;
    if (L->have_ref && L->stampable && L->ref.stamped && same_identity(&L->ref.stamp, &L->st)) {
        /* the file is as it was when it was hashed to this content (a
         * damaged entry is checked again below, hashing then) */
        memcpy(L->sha, L->ref.src_sha, 32);
        L->have_sha = 1;
        L->rep->identity = 1;
        return read_known(pk, L);
    }
    if (L->have_ref) {
        sp_status st = read_hashing(pk, L);
        if (st != SP_OK || L->rep->outcome != SP_KC_STALE)
            return st;
    } else {
        hash_file(L);
    }
    /* the content is known now: its entry, which another path may have made */
    sp_kc_outcome was = L->rep->outcome;
    sp_status st = read_known(pk, L);
    if (was == SP_KC_STALE && L->rep->outcome == SP_KC_MISS)
        L->rep->outcome = SP_KC_STALE;
    return st;
}

/* ---- a miss: check the key file, then store its entry ---- */

typedef struct {
    sp_g16_pk *pk;
    const kc_load *L;
    sp_status st;
    char *err;
    double seconds;
} parse_task;

static void parse_run(void *vctx)
{
    parse_task *p = vctx;
    double t0 = now_s();
    p->st = parse(p->pk, p->L, p->err);
    p->seconds = now_s() - t0;
}

typedef struct {
    kc_load *L;
    const sp_g16_pk *pk;
    kc_pending pend;
    sp_status st;
    char why[SP_ERR_LEN];
} write_task;

static void write_run(void *vctx)
{
    write_task *w = vctx;
    kc_head h;
    kc_head_of(&h, w->pk);
    h.kind = w->L->want.kind;
    h.level = w->L->want.level;
    h.src_size = w->L->len;
    memcpy(h.src_sha, w->L->sha, 32);
    memcpy(h.density, w->L->want.density, 32);
    h.created = (int64_t)time(NULL);
    memcpy(h.path, w->L->want.path, sizeof h.path);
    w->st = kc_entry_write(&w->pend, w->L->dirfd, w->L->name, &h, w->pk, w->why);
}

void (*sp_kc_debug_after_check)(void);

/* Writes the entry while hashing the key file again; publishes it when
 * the two hashes agree. Returns SP_OK, or SP_ERR_IO when the file changed. */
static sp_status store_entry(const sp_g16_pk *pk, kc_load *L, char err[SP_ERR_LEN])
{
    double t0 = now_s();
    if (sp_kc_debug_after_check)
        sp_kc_debug_after_check();
    hash_task again = {.L = L};
    write_task w = {.L = L, .pk = pk};
    kc_head size;
    kc_head_of(&size, pk);
    uint64_t bytes = KC_HEAD + size.payload + KC_TRAILER, total = 0;
    sp_kc_report *rep = L->rep;
    rep->max_bytes = L->rq->max_bytes ? L->rq->max_bytes : SP_KC_DEFAULT_MAX;
    if (bytes > rep->max_bytes) {
        snprintf(rep->warning, SP_ERR_LEN,
                 "key cache: not stored: its entry would take %.1f MiB, more than the cache's cap of %.1f MiB",
                 (double)bytes / (1 << 20), (double)rep->max_bytes / (1 << 20));
        return SP_OK;
    }
    kc_evict(&total, &rep->evicted, L->dirfd, rep->max_bytes, bytes, L->name);
    sp_progress_begin("key: writing its cache entry", bytes);
    run_two(L->rq->threads, hash_run, &again, write_run, &w);
    sp_progress_end();
    if (memcmp(again.out, L->sha, 32) != 0) {
        if (w.st == SP_OK)
            kc_entry_drop(&w.pend, L->dirfd);
        snprintf(err, SP_ERR_LEN, "%.200s changed while it was being read; try again", L->rq->path);
        return SP_ERR_IO;
    }
    if (w.st == SP_OK)
        w.st = kc_entry_publish(&w.pend, L->dirfd, L->name, w.why);
    if (w.st == SP_OK) {
        rep->stored = 1;
        rep->entry_bytes = bytes;
        rep->cache_bytes = total + bytes;
        write_ref(L);
    } else
        snprintf(L->rep->warning, SP_ERR_LEN, "key cache: not stored in %.100s: %.120s", L->dir, w.why);
    L->rep->t_store = now_s() - t0;
    return SP_OK;
}

static sp_status check_and_store(sp_g16_pk *pk, kc_load *L, char err[SP_ERR_LEN])
{
    parse_task pt = {.pk = pk, .L = L, .err = err};
    int store = L->rq->store && L->dirfd >= 0;
    if (store && !L->have_sha) {
        hash_task ht = {.L = L};
        run_two(L->rq->threads, parse_run, &pt, hash_run, &ht);
        memcpy(L->sha, ht.out, 32);
        L->have_sha = 1;
        L->hash_ns = ht.started_ns;
        L->rep->t_hash = ht.seconds;
        name_entry(L, L->sha);
    } else {
        parse_run(&pt);
    }
    L->rep->t_check = pt.seconds;
    if (pt.st != SP_OK || !store)
        return pt.st;
    sp_status st = store_entry(pk, L, err);
    if (st != SP_OK)
        sp_g16_pk_free(pk);
    return st;
}

/* ---- the load ---- */

/* The binding fields, the entry's name and the directory. */
static void prepare(kc_load *L, const char *dir)
{
    const sp_kc_request *rq = L->rq;
    char canon[PATH_MAX];
    if (!realpath(rq->path, canon))
        snprintf(canon, sizeof canon, "%s", rq->path);
    memset(&L->want, 0, sizeof L->want);
    kc_build_fingerprint(L->want.build);
    L->want.kind = (uint32_t)rq->kind;
    L->want.level = rq->flags & SP_G16_SKIP_SUBGROUP_CHECK ? KC_LEVEL_CURVE : KC_LEVEL_SUBGROUP;
    kc_density_digest(L->want.density, rq->kind == SP_KC_PARAMS ? rq->density : NULL);
    size_t n = strlen(canon) < sizeof L->want.path ? strlen(canon) : sizeof L->want.path - 1;
    memcpy(L->want.path, canon, n); /* information only: a long path is cut */
    L->want.path[n] = 0;
    kc_ref_name(L->ref_name, L->want.build, rq->kind, L->want.density, canon);
    L->dirfd = kc_dir_open(dir, L->rep->warning);
    if (L->dirfd < 0)
        L->rep->outcome = SP_KC_UNUSABLE;
}

sp_status sp_kc_load(sp_g16_pk *pk, sp_kc_report *rep, const char *dir, const sp_kc_request *rq,
                     char err[SP_ERR_LEN])
{
    kc_load L;
    memset(pk, 0, sizeof *pk);
    memset(rep, 0, sizeof *rep);
    memset(&L, 0, sizeof L);
    L.rq = rq;
    L.rep = rep;
    L.dir = dir;
    L.dirfd = -1;
    L.fd = -1;
    sp_status st = source_map(&L, err);
    if (st != SP_OK)
        return st;
    if (L.len == 0)
        return rq->kind == SP_KC_ZKEY ? sp_zkey_read(pk, NULL, rq->path, rq->flags, rq->threads, err)
                                      : sp_bp_params_read(pk, rq->path, rq->density, rq->flags, rq->threads, err);
    prepare(&L, dir);
    if (L.dirfd >= 0)
        st = try_entry(pk, &L);
    if (st == SP_OK && rep->outcome != SP_KC_HIT)
        st = check_and_store(pk, &L, err);
    if (st == SP_ERR_NOMEM && !*err)
        snprintf(err, SP_ERR_LEN, "out of memory for the key");
    if (L.dirfd >= 0)
        close(L.dirfd);
    if (L.map)
        munmap(L.map, L.len);
    if (L.fd >= 0)
        close(L.fd);
    return st;
}
