/*
 * The engine's internal structures, shared by engine.c (API), sched.c
 * (the pipeline threads) and mem.c (budget, pool, frees). Not installed.
 *
 * DESIGN
 * Locking: one engine mutex `mu` guards every field below that is not
 * marked otherwise: queues, job and partition states, the budget, the
 * pool, counters. It is never held across long work (synthesis, device
 * calls, finishing, verification, free()). Each device has a token,
 * `owner` (under mu, waited for on cv_dev), held around the device call
 * (ops->prove_device; and key attach/detach) but not locked across it:
 * so a call on a pausable backend can hand it to a call of higher
 * priority at a pause point and wait there (device, below).
 * The freer's and the timeline's locks are leaves (nothing is taken while
 * holding them). Threads wait on condition variables, never poll.
 *
 * Curves: everything of the curve goes through e->ops (synth/ops.h); a
 * witness, public signal or proof is bytes of ops->fr_bytes or
 * ops->proof_size here (fr_at, proof_at).
 *
 * Ownership: a job owns its partitions, proofs and public signals; a
 * partition owns its a, b, c block and its reservation from when the
 * dispatcher reserves until they are released (GPU handoff or
 * completion), and its sp_g16_partial from the device call until
 * finishing. Exactly one thread works on a partition at a time: the one
 * that took it from a queue (or the dispatcher's assignment).
 *
 * Cancellation: a job's `abort` flag is raised by cancel or by a failing
 * partition; queued partitions are removed at once, a running stage sees
 * the flag at its next boundary (synthesis also between chunks) and drops
 * its partition, returning its memory.
 */
#ifndef SP_ENGINE_INTERNAL_H
#define SP_ENGINE_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include "engine/engine.h"
#include "engine/freer.h"
#include "engine/timeline.h"
#include "synth/ops.h"

typedef struct part part;
typedef struct sp_engine_job job; /* the public handle is the job itself */
typedef struct circuit circuit;

/* A priority heap of partitions keyed (priority desc, job seq asc, index asc). */
typedef struct {
    part **a;
    size_t n, cap;
    atomic_int top_prio;   /* the first one's priority, INT_MIN when empty: read without mu */
} part_heap;

struct part {
    job *job;
    uint32_t index;
    sp_engine_part_state state;
    part_heap *heap;       /* the queue that holds it, or NULL */
    size_t hpos;           /* its position there */
    sp_fr *w;              /* witness (job->owns_witness: freed after the device call); a native
                              circuit's is made by synthesis in the a, b, c block, after c */
    const void *input;     /* a native circuit's input (in job->inputs), else NULL */
    void *abc;             /* a, b, c: one block of 3 * domain_size values (and a native
                              circuit's witness), or NULL */
    size_t res_abc;        /* budget bytes held for the a, b, c block (0 once released) */
    size_t res_rest;       /* budget bytes held for the prover's other buffers */
    sp_g16_partial *partial; /* from the device call until finishing, or NULL */
    int dev;               /* the device that ran (or runs) its device call, -1 before */
    double synth_ms, gpu_ms, finish_ms;
};

struct sp_engine_job {
    uint64_t seq;
    circuit *circ;
    char request_id[128];  /* "" when none */
    int priority;
    size_t n_parts;
    part *parts;
    int owns_witness;
    unsigned char *proofs; /* n_parts proofs (ops->proof_size bytes each), in partition order */
    unsigned char *publics; /* n_parts * n_public values (ops->fr_bytes each) */
    void *inputs;          /* native circuits: n_parts inputs, copied at submit */
    size_t n_terminal, n_done;
    atomic_int abort;      /* raised by cancel or a failure; read by synthesis chunks */
    int cancelled, failed, finished, released, verified;
    int pins;              /* threads using the job outside mu (notifier) */
    sp_status status;
    char err[SP_ERR_LEN];
    double t_submit, t_done;
    sp_engine_done_fn on_done;
    void *on_done_ctx;
    job *prev, *next;      /* the engine's list of jobs not yet freed */
    job *next_notify;      /* the notifier's list */
};

struct circuit {
    char id[64];
    sp_synth_circ *sc;     /* the key and circuit, prepared (ops->open) */
    sp_synth_circ_info info; /* its sizes, and the bytes of one partition */
    uint64_t dev_mask;     /* bit i: the key is attached to device i (set before the circuit is
                              listed, constant after), the only devices its partitions go to */
    size_t jobs;           /* jobs not yet freed that use it */
    size_t held;           /* of those, jobs not yet released */
    circuit *next;
};

/* At most this many devices: a circuit's device set is one 64-bit mask. */
#define SP_ENG_MAX_DEVICES 64

typedef struct worker worker;

/*
 * A device. Preemption, on a backend that is `pausable` only: while a call
 * runs (`running` its partition), a worker may take a queued partition of
 * strictly higher priority (it becomes the `preemptor`, claimed 2) and
 * raise `stop`; the running call, at its next pause point (backend.h),
 * hands the token to it and waits as `suspended`, its memory kept, until
 * the preemptor's call ends (on a backend on the host's cores: until the
 * preemptor's partition is done, its finish too, as `holder`). One
 * preemption at a time; a preemptor is never preempted.
 */
typedef struct {
    sp_engine *e;
    sp_backend *be;
    char label[40];        /* the backend's name; "name#k" for the k-th device of a repeated name */
    const void *owner;     /* under mu: the worker whose call holds the device, the engine (key attach
                              or detach), or NULL: free */
    double lock_held_ms;   /* under mu */
    uint64_t calls;        /* under mu */
    uint64_t preemptions;  /* under mu: calls suspended at a pause point */
    int busy;              /* under mu */
    int claimed;           /* under mu: partitions taken for this device whose call has not ended (0,
                              1, or 2 with a preemptor); a worker takes one only at 0 (or to preempt),
                              so the next one is chosen when the device frees (the best queued then,
                              e.g. a job of higher priority that came during the call) */
    const part *running;   /* under mu: the partition of the claimed call that is not the preemptor's */
    worker *preemptor;     /* under mu */
    worker *suspended;     /* under mu: the call held at a pause point for the preemptor */
    const part *holder;    /* under mu: the preemptor's partition, while the suspended call waits
                              for its end (host_cores backends) */
    atomic_int stop;       /* a preemptor waits: the running call stops at its next pause point */
    size_t keys;           /* circuits attached here, under mu */
} device;

struct worker {
    sp_engine *e;
    int id;                /* slot, GPU worker or finish worker number */
    device *dev;           /* GPU workers only */
    int dev_index, local;  /* GPU workers: device number, worker number on it */
    pthread_t th;
    int started;
    part *cur;             /* synthesis: assigned by the dispatcher */
    pthread_cond_t cv;     /* synthesis: wakes the worker when cur is assigned */
    /* GPU workers, for the call in progress: */
    const part *stage_part; /* the partition whose stages the backend reports */
    sp_pause pause;        /* the call's pause point (sched.c) */
    int preempting;        /* under mu: the worker is its device's preemptor */
    double paused_ms;      /* under mu: time suspended so far in this call */
    /* under mu: the suspensions since the last stage report, [t0, t1) in
     * engine ms (the last one stretched over any beyond the room) */
    struct { double t0, t1; } pauses[8];
    int n_pauses;
    double pause_t0;       /* under mu: when the current suspension began */
};

/* Buffers to free once mu is released (mem.c): a list threaded through
 * the buffers themselves (every buffer is at least 32 bytes: one Fr), so
 * collecting them under mu never allocates. */
typedef struct {
    void *head;
} trash;

struct sp_engine {
    const sp_synth_ops *ops; /* the curve */
    sp_engine_config cfg;
    char backends[256];
    pthread_mutex_t mu;
    pthread_cond_t cv_dispatch, cv_gpu, cv_dev, cv_finish, cv_done, cv_notify, cv_freed;
    pthread_cond_t cv_fin_pause; /* a finish's threads waiting for the finish that preempted it */
    int closing;           /* destroy started: no new jobs */
    int stopping;          /* every job finished: threads exit */
    int paused;            /* sp_engine_pause */
    double t0;             /* monotonic ms at creation */
    sp_timeline *tl;
    sp_freer *freer;

    /* budget (mem.c) */
    size_t budget_total, budget_used, budget_hwm, reserved, pool_idle, freeing;
    /* pool of idle a, b, c blocks: a list threaded through the blocks */
    void *pool_head;
    size_t pool_count;

    part_heap dq, gq, fq;  /* dispatch, GPU and finish queues */
    size_t live_parts;     /* partitions of jobs not finished */
    circuit *circuits;
    job *jobs, *jobs_tail;
    size_t n_jobs;         /* jobs not yet freed */
    size_t n_held;         /* jobs not yet released (max_jobs bounds it) */
    uint64_t next_seq;
    double blocked_since;  /* when the dispatcher began waiting for budget, or < 0 */
    job *notify_head, *notify_tail;

    int n_synth, synth_busy;
    worker *synth;
    size_t n_dev;
    device *dev;
    int n_gpu;
    worker *gpu;
    int n_finish, finish_busy;
    worker *finish;
    pthread_t dispatcher, notifier;
    int dispatcher_started, notifier_started;

    atomic_int throttle;   /* G2 MSMs running (bw_throttle) */
    atomic_ulong yields;
    uint64_t c_submitted, c_done, c_failed, c_cancelled, c_proved, c_verified;
    uint64_t c_fin_preempted; /* finishes run at another finish's pause point */
};

/* ---- engine clock (sp_engine_now_ms: timeline.h) ---- */
static inline double eng_ms(const sp_engine *e) { return sp_engine_now_ms() - e->t0; }

/* The k-th value of an array of the curve's sp_fr, and the k-th proof of
 * a job. */
static inline sp_fr *fr_at(const sp_engine *e, const void *v, size_t k)
{
    return (sp_fr *)((const unsigned char *)v + k * e->ops->fr_bytes);
}
static inline sp_g16_proof *proof_at(const sp_engine *e, const job *j, size_t k)
{
    return (sp_g16_proof *)(j->proofs + k * e->ops->proof_size);
}

/* ---- heap.c (every heap operation keeps part->heap and hpos current) ---- */
sp_status sp_eng_heap_init(part_heap *h, size_t cap);
void sp_eng_heap_free(part_heap *h);
void sp_eng_heap_push(part_heap *h, part *p);   /* cap is sized so this never overflows */
part *sp_eng_heap_top(const part_heap *h);
part *sp_eng_heap_pop(part_heap *h);
void sp_eng_heap_remove(part_heap *h, part *p);
/* The queues' order: 1 when x goes before y. */
int sp_eng_heap_before(const part *x, const part *y);

/* ---- mem.c (all _locked functions need mu) ---- */
/* Reserves memory for p if the budget allows (shrinking the pool into t
 * if needed): returns 1 and sets p->res_abc, p->res_rest (and p->abc when
 * the pool had a block), or 0. */
int sp_eng_mem_reserve_locked(sp_engine *e, part *p, trash *t);
/* 1 when the pool has an idle block of abc_bytes. */
int sp_eng_mem_has_idle_locked(sp_engine *e, size_t abc_bytes);
/* Gives p's a, b, c block back (pool or trash) with its share of the
 * reservation. */
void sp_eng_mem_release_abc_locked(sp_engine *e, part *p, trash *t);
/* Gives back the rest of p's reservation (the block too, if still held). */
void sp_eng_mem_release_all_locked(sp_engine *e, part *p, trash *t);
/* Moves every idle pool block to t. */
void sp_eng_mem_pool_drain_locked(sp_engine *e, trash *t);
/* Adds a witness to t (no budget bytes). */
void sp_eng_mem_trash_witness_locked(sp_engine *e, part *p, trash *t);
/* Frees what t holds (call without mu): through the freer when
 * serialized_free, else here; budget bytes go back after the free. */
void sp_eng_mem_dispose(sp_engine *e, trash *t);
/* Allocates an a, b, c block of `bytes` (call without mu). */
void *sp_eng_mem_alloc_abc(sp_engine *e, size_t bytes);
/* Warm start: up to n idle a, b, c blocks of abc_bytes made now (pinned on
 * a GPU: seconds per GiB, which would otherwise stall the first proofs'
 * device calls), each only while the budget keeps room for rest_bytes
 * more. Takes mu itself. Returns how many were made. */
size_t sp_eng_mem_prefill(sp_engine *e, size_t abc_bytes, size_t rest_bytes, size_t n);
/* Freer callback: the freed bytes leave the budget. */
void sp_eng_mem_freed_cb(void *ctx, size_t budget_bytes);

/* ---- device.c (all need mu) ---- */
/* The device token (device.owner): waits on cv_dev until d is free, then
 * holds it for who; gives it back. */
void sp_eng_dev_take_locked(sp_engine *e, device *d, const void *who);
void sp_eng_dev_give_locked(sp_engine *e, device *d);
/* The partition GPU worker w takes off the GPU queue for its device, or
 * NULL: the best one whose key the device has, when no call is claimed
 * there; or, to preempt the running call (pausable backends), the best
 * one when its priority is above the running partition's. Sets
 * w->stage_part and w->pause for the call. */
part *sp_eng_dev_claim_locked(sp_engine *e, worker *w);
/* Around w's device call: begin takes the token (waiting for it); end
 * gives it back (to the call w suspended, if any) and ends the claim;
 * called 0: the claimed call was never made (end alone). */
void sp_eng_dev_call_begin_locked(sp_engine *e, worker *w);
void sp_eng_dev_call_end_locked(sp_engine *e, worker *w, int called);
/* p has reached a final state: a call suspended until then resumes. */
void sp_eng_dev_part_done_locked(sp_engine *e, const part *p);

/* ---- sched.c ---- */
sp_status sp_eng_sched_start(sp_engine *e, char err[SP_ERR_LEN]);
void sp_eng_sched_stop(sp_engine *e);
/* Cancel or fail job j: drops its queued partitions into t, raises abort,
 * finishes the job when nothing of it runs. */
void sp_eng_sched_abort_job_locked(sp_engine *e, job *j, sp_status st, const char *msg, trash *t);
/* Frees a job whose handle was released and which has finished. */
void sp_eng_sched_maybe_free_job_locked(sp_engine *e, job *j, trash *t);

#endif
