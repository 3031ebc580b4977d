/* Fork-join helper: see par.h. */
#include "util/par.h"

#include <stdatomic.h>
#include <stdlib.h>

typedef struct {
    sp_par par;
    sp_par_fn fn;
    void *ctx;
    /* Workers wait at this gate until the final thread count is known, so a
     * failed pthread_create never leaves a barrier sized for absent threads. */
    pthread_mutex_t lock;
    pthread_cond_t go;
    int ready;
} par_job;

typedef struct {
    par_job *job;
    int tid;
} par_arg;

static void *worker(void *p)
{
    par_arg *a = p;
    par_job *j = a->job;
    pthread_mutex_lock(&j->lock);
    while (!j->ready)
        pthread_cond_wait(&j->go, &j->lock);
    pthread_mutex_unlock(&j->lock);
    j->fn(&j->par, a->tid, j->ctx); /* every started thread has tid < nthreads */
    return NULL;
}

void sp_par_run(int nthreads, sp_par_fn fn, void *ctx)
{
    if (nthreads < 1)
        nthreads = 1;
    if (nthreads > SP_PAR_MAX_THREADS)
        nthreads = SP_PAR_MAX_THREADS;
    par_job job = {.fn = fn, .ctx = ctx, .ready = 0};
    pthread_t th[SP_PAR_MAX_THREADS];
    par_arg args[SP_PAR_MAX_THREADS];
    pthread_mutex_init(&job.lock, NULL);
    pthread_cond_init(&job.go, NULL);
    int started = 1;
    for (int t = 1; t < nthreads; t++) {
        args[t].job = &job;
        args[t].tid = t;
        if (pthread_create(&th[t], NULL, worker, &args[t]) != 0)
            break;
        started++;
    }
    job.par.nthreads = started;
    pthread_barrier_init(&job.par.barrier, NULL, (unsigned)started);
    pthread_mutex_lock(&job.lock);
    job.ready = 1;
    pthread_cond_broadcast(&job.go);
    pthread_mutex_unlock(&job.lock);
    fn(&job.par, 0, ctx);
    for (int t = 1; t < started; t++)
        pthread_join(th[t], NULL);
    pthread_barrier_destroy(&job.par.barrier);
    pthread_cond_destroy(&job.go);
    pthread_mutex_destroy(&job.lock);
}

void sp_par_sync(sp_par *par)
{
    if (par->nthreads > 1)
        pthread_barrier_wait(&par->barrier);
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
    sp_par_task_fn fn;
    void *ctx;
    size_t ntasks;
    atomic_size_t next;
} task_pool;

typedef struct {
    task_pool *p;
    int tid;
} task_arg;

static void *task_worker(void *arg)
{
    task_arg *a = arg;
    task_pool *p = a->p;
    for (;;) {
        size_t t = atomic_fetch_add_explicit(&p->next, 1, memory_order_relaxed);
        if (t >= p->ntasks)
            break;
        p->fn(p->ctx, a->tid, t);
    }
    return NULL;
}

void sp_par_tasks(int threads, size_t ntasks, sp_par_task_fn fn, void *ctx)
{
    task_pool p = {.fn = fn, .ctx = ctx, .ntasks = ntasks};
    atomic_init(&p.next, 0);
    if (threads > SP_PAR_MAX_THREADS)
        threads = SP_PAR_MAX_THREADS;
    if ((size_t)threads > ntasks)
        threads = (int)ntasks;
    pthread_t th[SP_PAR_MAX_THREADS];
    task_arg args[SP_PAR_MAX_THREADS];
    int started = 1;
    for (int t = 1; t < threads; t++) {
        args[t].p = &p;
        args[t].tid = t;
        if (pthread_create(&th[t], NULL, task_worker, &args[t]) != 0)
            break;
        started++;
    }
    args[0].p = &p;
    args[0].tid = 0;
    task_worker(&args[0]);
    for (int t = 1; t < started; t++)
        pthread_join(th[t], NULL);
}
