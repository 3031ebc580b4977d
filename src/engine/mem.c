/*
 * The engine's memory: one byte budget, the pool of idle a, b, c blocks,
 * and the way buffers are freed (internal.h).
 *
 * Accounting, always under mu:
 *   budget_used = reserved (held by partitions)
 *               + pool_idle (idle blocks kept for reuse)
 *               + freeing (handed to be freed, not yet freed)
 * and budget_used <= budget_total at every moment: the only increase is
 * sp_eng_mem_reserve_locked, which checks first. Bytes leave the budget only
 * after free() returned, so the budget bounds real memory, not intentions.
 */
#include <stdlib.h>
#include <unistd.h>
#include "engine/internal.h"
#include "util/par.h"

/* An idle pool block starts with this node. */
typedef struct pool_node {
    struct pool_node *next;
    size_t bytes;
} pool_node;

static void take(sp_engine *e, size_t bytes)
{
    e->budget_used += bytes;
    if (e->budget_used > e->budget_hwm)
        e->budget_hwm = e->budget_used;
}

/* Removes and returns an idle block of exactly `bytes`, or NULL. When
 * peek, leaves it in the pool. */
static pool_node *pool_find(sp_engine *e, size_t bytes, int peek)
{
    for (pool_node **pp = (pool_node **)&e->pool_head; *pp; pp = &(*pp)->next) {
        pool_node *n = *pp;
        if (n->bytes != bytes)
            continue;
        if (!peek) {
            *pp = n->next;
            e->pool_count--;
            e->pool_idle -= bytes;
        }
        return n;
    }
    return NULL;
}

/* Written into the first bytes of a buffer waiting in a trash list. */
typedef struct trash_node {
    struct trash_node *next;
    size_t bytes, budget;
    int host; /* allocated with the first backend's host_alloc (ops) */
} trash_node;

static void trash_add(trash *t, void *p, size_t bytes, size_t budget, int host)
{
    trash_node *n = p;
    n->next = t->head;
    n->bytes = bytes;
    n->budget = budget;
    n->host = host;
    t->head = n;
}

/* Moves idle blocks other than keep to t until need more bytes would fit
 * once they are freed. */
static void pool_evict(sp_engine *e, size_t need, const pool_node *keep, trash *t)
{
    pool_node **pp = (pool_node **)&e->pool_head;
    while (*pp && e->budget_used - e->freeing + need > e->budget_total) {
        pool_node *n = *pp;
        if (n == keep) {
            pp = &n->next;
            continue;
        }
        *pp = n->next;
        e->pool_count--;
        e->pool_idle -= n->bytes;
        e->freeing += n->bytes;
        trash_add(t, n, n->bytes, n->bytes, 1);
    }
}

int sp_eng_mem_has_idle_locked(sp_engine *e, size_t abc_bytes) { return pool_find(e, abc_bytes, 1) != NULL; }

int sp_eng_mem_reserve_locked(sp_engine *e, part *p, trash *t)
{
    const circuit *c = p->job->circ;
    pool_node *blk = e->cfg.pinned_pool ? pool_find(e, c->info.abc_bytes, 1) : NULL;
    size_t need = c->info.rest_bytes + (blk ? 0 : c->info.abc_bytes);
    if (e->budget_used + need > e->budget_total) {
        if (e->cfg.pinned_pool)
            pool_evict(e, need, blk, t);
        return 0; /* evicted blocks count until freed: try again then */
    }
    if (blk) { /* the block's bytes move from the pool to the partition */
        pool_find(e, c->info.abc_bytes, 0);
        e->reserved += c->info.abc_bytes;
        p->abc = blk;
    }
    take(e, need);
    e->reserved += need;
    p->res_abc = c->info.abc_bytes;
    p->res_rest = c->info.rest_bytes;
    return 1;
}

void sp_eng_mem_release_abc_locked(sp_engine *e, part *p, trash *t)
{
    size_t abc = p->res_abc;
    if (!abc)
        return;
    e->reserved -= abc;
    p->res_abc = 0;
    if (!p->abc) { /* never allocated */
        e->budget_used -= abc;
    } else if (e->cfg.pinned_pool && !e->stopping &&
               (!e->cfg.pool_max_bytes || e->pool_idle + abc <= e->cfg.pool_max_bytes)) {
        pool_node *n = p->abc;
        n->bytes = abc;
        n->next = e->pool_head;
        e->pool_head = n;
        e->pool_count++;
        e->pool_idle += abc;
    } else {
        e->freeing += abc;
        trash_add(t, p->abc, abc, abc, e->cfg.pinned_pool);
    }
    p->abc = NULL;
    pthread_cond_signal(&e->cv_dispatch);
}

void sp_eng_mem_release_all_locked(sp_engine *e, part *p, trash *t)
{
    sp_eng_mem_release_abc_locked(e, p, t);
    if (p->res_rest) {
        e->reserved -= p->res_rest;
        e->budget_used -= p->res_rest;
        p->res_rest = 0;
        pthread_cond_signal(&e->cv_dispatch);
    }
}

void sp_eng_mem_pool_drain_locked(sp_engine *e, trash *t)
{
    while (e->pool_head) {
        pool_node *n = e->pool_head;
        e->pool_head = n->next;
        e->pool_count--;
        e->pool_idle -= n->bytes;
        e->freeing += n->bytes;
        trash_add(t, n, n->bytes, n->bytes, 1);
    }
}

void sp_eng_mem_trash_witness_locked(sp_engine *e, part *p, trash *t)
{
    const circuit *c = p->job->circ;
    if (p->w && p->job->owns_witness && !c->info.native) /* a native one lives in the a, b, c block */
        trash_add(t, p->w, e->ops->fr_bytes * c->info.n_vars, 0, 0);
    p->w = NULL;
}

static void free_plain(void *ctx, void *p, size_t bytes) { free(p); }

/* ctx: the engine, whose first backend's host memory the pool is */
static void free_host(void *ctx, void *p, size_t bytes)
{
    const sp_engine *e = ctx;
    e->ops->host_free(e->dev[0].be, p, bytes);
}

void sp_eng_mem_freed_cb(void *ctx, size_t budget_bytes)
{
    sp_engine *e = ctx;
    if (!budget_bytes)
        return;
    pthread_mutex_lock(&e->mu);
    e->freeing -= budget_bytes;
    e->budget_used -= budget_bytes;
    pthread_cond_signal(&e->cv_dispatch);
    pthread_cond_broadcast(&e->cv_freed); /* sp_engine_trim */
    pthread_mutex_unlock(&e->mu);
}

void sp_eng_mem_dispose(sp_engine *e, trash *t)
{
    size_t done = 0;
    while (t->head) {
        trash_node n = *(trash_node *)t->head, *p = t->head; /* copy: the node lives in the buffer */
        t->head = n.next;
        sp_freer_free_fn fn = n.host ? free_host : free_plain;
        if (e->cfg.serialized_free) {
            sp_freer_push(e->freer, p, n.bytes, n.budget, fn, e);
        } else {
            fn(e, p, n.bytes);
            done += n.budget;
        }
    }
    sp_eng_mem_freed_cb(e, done);
}

typedef struct {
    unsigned char *p;
    size_t bytes, page;
} touch_job;

static void touch_part(sp_par *par, int tid, void *ctx)
{
    const touch_job *t = ctx;
    size_t lo, hi;
    sp_par_range(&lo, &hi, (t->bytes + t->page - 1) / t->page, tid, par->nthreads);
    for (size_t i = lo; i < hi; i++)
        t->p[i * t->page] = 0;
}

/* Writes one byte of every page of a new block, so that the first
 * synthesis into it does not take a fault per page (pinned memory is
 * resident already; plain malloc'd memory is not). Its contents do not
 * matter: synthesis writes every value. */
static void touch_pages(sp_engine *e, void *blk, size_t bytes)
{
    long page = sysconf(_SC_PAGESIZE);
    touch_job t = {blk, bytes, page > 0 ? (size_t)page : 4096};
    sp_par_run(e->cfg.synth_threads, touch_part, &t);
}

size_t sp_eng_mem_prefill(sp_engine *e, size_t abc_bytes, size_t rest_bytes, size_t n)
{
    size_t made = 0;
    while (made < n && e->cfg.pinned_pool) {
        /* the bytes are taken first (never over the budget, room left for one
         * partition's other buffers), the slow pinning done without mu */
        pthread_mutex_lock(&e->mu);
        int room = e->budget_used + abc_bytes + rest_bytes <= e->budget_total;
        if (room)
            take(e, abc_bytes);
        pthread_mutex_unlock(&e->mu);
        if (!room)
            break;
        pool_node *blk = sp_eng_mem_alloc_abc(e, abc_bytes);
        if (blk)
            touch_pages(e, blk, abc_bytes);
        pthread_mutex_lock(&e->mu);
        if (blk) {
            blk->bytes = abc_bytes;
            blk->next = e->pool_head;
            e->pool_head = blk;
            e->pool_count++;
            e->pool_idle += abc_bytes;
            made++;
        } else {
            e->budget_used -= abc_bytes;
        }
        pthread_cond_signal(&e->cv_dispatch);
        pthread_mutex_unlock(&e->mu);
        if (!blk)
            break;
    }
    return made;
}

void *sp_eng_mem_alloc_abc(sp_engine *e, size_t bytes)
{
    return e->cfg.pinned_pool ? e->ops->host_alloc(e->dev[0].be, bytes) : malloc(bytes);
}
