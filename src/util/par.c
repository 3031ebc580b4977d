/*
 * Fork-join helper (par.h) over a pool of persistent workers.
 *
 * A proof makes ~33 parallel calls; starting and joining threads for each
 * (stack mapping, clone, exit, unmapping with its TLB shootdown) cost ~1%
 * of a 2^14 proof, so workers, once started, wait for the next call. The
 * pool is a list of idle workers: a call takes what it needs from it and
 * starts new workers only for the rest, and each worker goes back on the
 * list when its part is done. So concurrent calls (the engine's workers)
 * and nested ones (a call from inside a worker) need no special case: the
 * pool grows to the most workers ever busy at once, and never shrinks.
 *
 * Each worker sleeps on its own condition variable; a call's caller waits
 * for its helpers on the call's own. Waking a sleeping thread costs tens of
 * microseconds on a VM's idle CPU, and a proof's calls and barriers come
 * back to back, so every wait first spins for up to SPIN_NS (pause
 * instructions) and sleeps only after. Workers block every signal (they are
 * started with a full mask), so they never take a signal meant for the
 * process's own threads (the daemon's main loop waits for SIGTERM). After a
 * fork the child has none of the workers: an atfork handler empties the
 * list there.
 */
#include "util/par.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

/* How long a wait spins before it sleeps. */
#define SPIN_NS 50000

static int64_t mono_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* A spin's budget: spin_more pauses once and says whether to go on, until
 * SPIN_NS have passed (the clock read every 64 pauses, ~2-5 us). */
typedef struct {
    unsigned i;
    int64_t end;
} spin_budget;

static int spin_more(spin_budget *b)
{
    cpu_relax();
    if ((++b->i & 63) == 0) {
        int64_t t = mono_ns();
        if (!b->end)
            b->end = t + SPIN_NS;
        else if (t >= b->end)
            return 0;
    }
    return 1;
}

/* Spins until (*v != x) == differ (returns 1) or SPIN_NS pass (returns 0). */
static int spin_on(atomic_uint *v, unsigned x, int differ)
{
    spin_budget b = {0, 0};
    do {
        if ((atomic_load_explicit(v, memory_order_acquire) != x) == differ)
            return 1;
    } while (spin_more(&b));
    return 0;
}

/* One call: what its helpers run, and how many have not finished. */
typedef struct par_call par_call;
struct par_call {
    void (*body)(par_call *c, int tid);
    pthread_mutex_t lock;
    pthread_cond_t done; /* signalled when pending reaches 0 */
    atomic_uint pending; /* helpers not finished; drops under lock */
};

typedef struct worker worker;
struct worker {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    _Atomic(par_call *) call; /* the call to help, NULL while idle; set under lock */
    int tid;                  /* set under lock before call */
    worker *next;             /* in the idle list */
};

static pthread_mutex_t pool_lock_ = PTHREAD_MUTEX_INITIALIZER;
static worker *idle_;
static pthread_once_t atfork_once_ = PTHREAD_ONCE_INIT;

static void before_fork(void) { pthread_mutex_lock(&pool_lock_); }
static void after_fork_parent(void) { pthread_mutex_unlock(&pool_lock_); }
static void after_fork_child(void)
{
    idle_ = NULL; /* the workers stayed in the parent (their memory is lost here) */
    pthread_mutex_unlock(&pool_lock_);
}
static void register_atfork(void) { pthread_atfork(before_fork, after_fork_parent, after_fork_child); }

/* Spins until w is handed a call or SPIN_NS pass. */
static void spin_for_call(worker *w)
{
    spin_budget b = {0, 0};
    while (!atomic_load_explicit(&w->call, memory_order_acquire) && spin_more(&b))
        ;
}

static void *worker_main(void *p)
{
    worker *w = p;
    for (;;) {
        spin_for_call(w);
        pthread_mutex_lock(&w->lock);
        while (!atomic_load_explicit(&w->call, memory_order_acquire))
            pthread_cond_wait(&w->wake, &w->lock);
        par_call *c = atomic_load_explicit(&w->call, memory_order_acquire);
        int tid = w->tid;
        atomic_store_explicit(&w->call, NULL, memory_order_relaxed);
        pthread_mutex_unlock(&w->lock);
        c->body(c, tid);
        /* Back on the list before the caller can return, so that its next
         * call finds this worker instead of starting another. */
        pthread_mutex_lock(&pool_lock_);
        w->next = idle_;
        idle_ = w;
        pthread_mutex_unlock(&pool_lock_);
        pthread_mutex_lock(&c->lock);
        if (atomic_fetch_sub_explicit(&c->pending, 1, memory_order_acq_rel) == 1)
            pthread_cond_signal(&c->done);
        pthread_mutex_unlock(&c->lock); /* c is the caller's from here on */
    }
    return NULL;
}

/* A new worker, started with every signal blocked; NULL when the system
 * refuses. */
static worker *worker_start(void)
{
    worker *w = malloc(sizeof *w);
    if (!w)
        return NULL;
    atomic_init(&w->call, NULL);
    w->next = NULL;
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->wake, NULL);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_t th;
    int rc = pthread_create(&th, NULL, worker_main, w);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        pthread_cond_destroy(&w->wake);
        pthread_mutex_destroy(&w->lock);
        free(w);
        return NULL;
    }
    pthread_detach(th);
    return w;
}

/* Takes up to `want` workers (idle ones first); returns how many. */
static int acquire(worker **ws, int want)
{
    pthread_once(&atfork_once_, register_atfork);
    int got = 0;
    pthread_mutex_lock(&pool_lock_);
    while (got < want && idle_) {
        ws[got++] = idle_;
        idle_ = idle_->next;
    }
    pthread_mutex_unlock(&pool_lock_);
    while (got < want && (ws[got] = worker_start()) != NULL)
        got++;
    return got;
}

/* Runs c->body on the caller (tid 0) and the n helpers (tids 1..n), and
 * returns when all have finished. */
static void run_call(par_call *c, worker **ws, int n)
{
    pthread_mutex_init(&c->lock, NULL);
    pthread_cond_init(&c->done, NULL);
    atomic_init(&c->pending, (unsigned)n);
    for (int i = 0; i < n; i++) {
        pthread_mutex_lock(&ws[i]->lock);
        ws[i]->tid = i + 1;
        atomic_store_explicit(&ws[i]->call, c, memory_order_release);
        pthread_cond_signal(&ws[i]->wake);
        pthread_mutex_unlock(&ws[i]->lock);
    }
    c->body(c, 0);
    if (n)
        spin_on(&c->pending, 0, 0); /* until none is left */
    /* the lock, even when all are done: the last helper has then left it */
    pthread_mutex_lock(&c->lock);
    while (atomic_load_explicit(&c->pending, memory_order_acquire))
        pthread_cond_wait(&c->done, &c->lock);
    pthread_mutex_unlock(&c->lock);
    pthread_cond_destroy(&c->done);
    pthread_mutex_destroy(&c->lock);
}

/* ---- fork-join ---- */

/* sp_par_sync's barrier: waiters spin a little, then sleep. */
struct sp_par_barrier {
    atomic_uint arrived, gen;
    unsigned n;
    pthread_mutex_t lock;
    pthread_cond_t cv;
};

typedef struct {
    par_call call; /* first: the body gets &call */
    sp_par par;
    struct sp_par_barrier bar;
    sp_par_fn fn;
    void *ctx;
} par_job;

static void job_body(par_call *c, int tid)
{
    par_job *j = (par_job *)c;
    j->fn(&j->par, tid, j->ctx);
}

void sp_par_run(int nthreads, sp_par_fn fn, void *ctx)
{
    if (nthreads < 1)
        nthreads = 1;
    if (nthreads > SP_PAR_MAX_THREADS)
        nthreads = SP_PAR_MAX_THREADS;
    par_job j = {.call = {.body = job_body}, .fn = fn, .ctx = ctx};
    worker *ws[SP_PAR_MAX_THREADS];
    int helpers = acquire(ws, nthreads - 1);
    j.par.nthreads = helpers + 1; /* known before anyone runs: the barrier fits */
    struct sp_par_barrier *b = &j.bar;
    j.par.barrier = b;
    atomic_init(&b->arrived, 0);
    atomic_init(&b->gen, 0);
    b->n = (unsigned)j.par.nthreads;
    pthread_mutex_init(&b->lock, NULL);
    pthread_cond_init(&b->cv, NULL);
    run_call(&j.call, ws, helpers);
    pthread_cond_destroy(&b->cv);
    pthread_mutex_destroy(&b->lock);
}

/* The last to arrive resets the count, then opens the next generation;
 * the others wait for the generation to change (those that pass can only
 * arrive again after the reset). The acq_rel count and the release/acquire
 * generation order everyone's writes before the barrier before everyone's
 * reads after it. */
void sp_par_sync(sp_par *par)
{
    struct sp_par_barrier *b = par->barrier;
    if (par->nthreads <= 1)
        return;
    unsigned g = atomic_load_explicit(&b->gen, memory_order_acquire);
    if (atomic_fetch_add_explicit(&b->arrived, 1, memory_order_acq_rel) + 1 == b->n) {
        atomic_store_explicit(&b->arrived, 0, memory_order_relaxed);
        pthread_mutex_lock(&b->lock);
        atomic_store_explicit(&b->gen, g + 1, memory_order_release);
        pthread_cond_broadcast(&b->cv);
        pthread_mutex_unlock(&b->lock);
        return;
    }
    if (spin_on(&b->gen, g, 1))
        return;
    pthread_mutex_lock(&b->lock);
    while (atomic_load_explicit(&b->gen, memory_order_acquire) == g)
        pthread_cond_wait(&b->cv, &b->lock);
    pthread_mutex_unlock(&b->lock);
}

void sp_par_range(size_t *lo, size_t *hi, size_t n, int tid, int nt)
{
    size_t q = n / (size_t)nt, r = n % (size_t)nt, t = (size_t)tid;
    *lo = t * q + (t < r ? t : r);
    *hi = *lo + q + (t < r ? 1 : 0);
}

int sp_par_threads_for(int nthreads, size_t n, size_t grain)
{
    size_t want = grain ? n / grain : n;
    if (want < 1)
        want = 1;
    if (nthreads < 1)
        nthreads = 1;
    return (size_t)nthreads < want ? nthreads : (int)want;
}

/* ---- dynamic tasks ---- */

typedef struct {
    par_call call; /* first, as above */
    sp_par_task_fn fn;
    void *ctx;
    size_t ntasks;
    atomic_size_t next;
} task_job;

static void task_body(par_call *c, int tid)
{
    task_job *p = (task_job *)c;
    for (;;) {
        size_t t = atomic_fetch_add_explicit(&p->next, 1, memory_order_relaxed);
        if (t >= p->ntasks)
            break;
        p->fn(p->ctx, tid, t);
    }
}

void sp_par_tasks(int threads, size_t ntasks, sp_par_task_fn fn, void *ctx)
{
    task_job p = {.call = {.body = task_body}, .fn = fn, .ctx = ctx, .ntasks = ntasks};
    atomic_init(&p.next, 0);
    if (threads > SP_PAR_MAX_THREADS)
        threads = SP_PAR_MAX_THREADS;
    if ((size_t)threads > ntasks)
        threads = (int)ntasks;
    worker *ws[SP_PAR_MAX_THREADS];
    int helpers = threads > 1 ? acquire(ws, threads - 1) : 0;
    run_call(&p.call, ws, helpers);
}
