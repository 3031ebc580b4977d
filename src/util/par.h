/*
 * A minimal fork-join helper for the data-parallel loops of the layers
 * above (pthreads). The helper threads are a process-wide pool: started
 * when first needed, then kept waiting for the next call (par.c). Calls may
 * run at once from several threads and may nest (a worker may call again).
 */
#ifndef SP_UTIL_PAR_H
#define SP_UTIL_PAR_H

#include <stddef.h>

/* The barrier of sp_par_sync (par.c; opaque here, so that C++ sources,
 * the CUDA ones, can include this header: its fields are C11 atomics). */
struct sp_par_barrier;

/* Shared state handed to every worker of one sp_par_run call. */
typedef struct {
    int nthreads;                   /* how many workers actually run */
    struct sp_par_barrier *barrier; /* sized to nthreads; see sp_par_sync */
} sp_par;

/* A worker: tid in [0, par->nthreads). */
typedef void (*sp_par_fn)(sp_par *par, int tid, void *ctx);

/*
 * Runs fn on up to nthreads threads (the caller's thread is tid 0) and
 * returns when all have finished.
 * On input: nthreads >= 1 (values < 1 are treated as 1).
 * On output: fn has run once per tid. When the system refuses to start
 *   threads, fewer workers run (at least one); par->nthreads always says
 *   how many, so work split by it is always complete. Never fails.
 */
void sp_par_run(int nthreads, sp_par_fn fn, void *ctx);

/* Barrier across all workers of the current sp_par_run call. */
void sp_par_sync(sp_par *par);

/* [*lo, *hi): the tid-th of nt near-equal contiguous parts of [0, n). */
void sp_par_range(size_t *lo, size_t *hi, size_t n, int tid, int nt);

/* Thread count worth using for n units of work of about `grain` units per
 * thread minimum: min(nthreads, max(1, n / grain)). */
int sp_par_threads_for(int nthreads, size_t n, size_t grain);

/* A task of sp_par_tasks: tid in [0, workers), task in [0, ntasks). */
typedef void (*sp_par_task_fn)(void *ctx, int tid, size_t task);

/* The most workers one sp_par_tasks call starts. */
#define SP_PAR_MAX_THREADS 256

/*
 * Runs fn once for every task < ntasks on up to `threads` workers (capped
 * at ntasks and SP_PAR_MAX_THREADS; the caller's thread is tid 0) that
 * take tasks from one shared counter, so uneven tasks balance themselves.
 * A worker that cannot be started is no loss: the others take its tasks.
 * Returns when every task has run. Never fails.
 */
void sp_par_tasks(int threads, size_t ntasks, sp_par_task_fn fn, void *ctx);

/*
 * A pause point for long parallel work that another, more urgent job may
 * need to interrupt (the engine suspends a proof so that a higher-priority
 * one takes the device). Work that accepts one calls sp_pause_point at
 * places where it holds nothing another computation could need, from any
 * of its threads, several at once. fn returns when the work may go on: at
 * once, or after the interruption ended.
 */
typedef struct {
    void (*fn)(void *ctx);
    void *ctx;
} sp_pause;

static inline void sp_pause_point(const sp_pause *p)
{
    if (p && p->fn)
        p->fn(p->ctx);
}

#endif
