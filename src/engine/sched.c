/*
 * The pipeline threads (internal.h has the locking and ownership rules):
 *
 *   dispatcher   takes the best queued partition when a synthesis worker
 *                is idle and the budget has room for it; waits otherwise
 *   synthesis    a, b, c for one partition (chunked: throttle and cancel)
 *   GPU workers  gpu_workers_per_device per device, one device token each,
 *                held only around the backend call (ops->prove_device),
 *                handed to a call of higher priority at a pause point on
 *                pausable backends (device.c)
 *   finish       CPU G2 MSM (finish_threads threads), r, s, assembly, verify;
 *                at the G2 MSM's pause points a finish worker runs the
 *                finish of a queued partition of strictly higher priority
 *                first, its own threads waiting (one level: that finish
 *                is not paused in turn)
 *   notifier     runs the jobs' on_done callbacks, off the pipeline
 *
 * Every stage begins by looking at its job's abort flag: a cancelled or
 * failed job's partition is dropped there and its memory returned.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/internal.h"

#define TL(e, ev, seq, ...) sp_timeline_emit((e)->tl, ev, seq, __VA_ARGS__)

/* ---- partition and job endings (all under mu) ---- */

static void job_finish_locked(sp_engine *e, job *j)
{
    j->finished = 1;
    j->t_done = eng_ms(e);
    if (!j->failed && !j->cancelled) {
        j->status = SP_OK;
        j->verified = e->cfg.verify_proofs;
        e->c_done++;
    } else if (j->cancelled) {
        e->c_cancelled++;
    } else {
        e->c_failed++;
    }
    const char *how = j->status == SP_OK ? "ok" : j->cancelled ? "cancelled" : "failed";
    TL(e, "JOB_DONE", j->seq, "status=%s,partitions=%zu,ms=%.3f", how, j->n_parts, j->t_done - j->t_submit);
    pthread_cond_broadcast(&e->cv_done);
    if (j->on_done) {
        j->pins++;
        j->next_notify = NULL;
        if (e->notify_tail)
            e->notify_tail->next_notify = j;
        else
            e->notify_head = j;
        e->notify_tail = j;
        pthread_cond_signal(&e->cv_notify);
    }
}

/* p has reached a final state. */
static void part_terminal_locked(sp_engine *e, part *p)
{
    job *j = p->job;
    sp_eng_dev_part_done_locked(e, p);
    e->live_parts--;
    if (++j->n_terminal == j->n_parts)
        job_finish_locked(e, j);
}

/* Returns everything p holds (memory, witness, partial) into t. */
static void part_release_locked(sp_engine *e, part *p, trash *t)
{
    if (p->heap)
        sp_eng_heap_remove(p->heap, p);
    sp_eng_mem_release_all_locked(e, p, t);
    sp_eng_mem_trash_witness_locked(e, p, t);
    e->ops->partial_free(p->partial); /* small: the witness scalars of the G2 MSM */
    p->partial = NULL;
}

/* Drops p because its job was aborted. */
static void part_drop_locked(sp_engine *e, part *p, trash *t)
{
    part_release_locked(e, p, t);
    p->state = SP_PART_CANCELLED;
    part_terminal_locked(e, p);
}

/* Ends p after stage status st: cancelled when its job is aborted or st is
 * SP_ERR_CANCELLED, else failed (which fails the job). */
static void part_stop_locked(sp_engine *e, part *p, sp_status st, const char *msg, trash *t)
{
    job *j = p->job;
    if (st == SP_OK || st == SP_ERR_CANCELLED || atomic_load(&j->abort)) {
        part_drop_locked(e, p, t);
        return;
    }
    char why[SP_ERR_LEN];
    snprintf(why, sizeof why, "partition %u: %s", p->index, msg);
    TL(e, "PART_FAIL", j->seq, "partition=%u,status=%s", p->index, sp_status_str(st));
    part_release_locked(e, p, t);
    p->state = SP_PART_FAILED;
    sp_eng_sched_abort_job_locked(e, j, st, why, t);
    part_terminal_locked(e, p);
}

void sp_eng_sched_abort_job_locked(sp_engine *e, job *j, sp_status st, const char *msg, trash *t)
{
    if (j->finished || atomic_load(&j->abort))
        return;
    j->status = st;
    snprintf(j->err, sizeof j->err, "%s", msg);
    if (st == SP_ERR_CANCELLED) {
        j->cancelled = 1;
        TL(e, "JOB_CANCEL", j->seq, "done=%zu", j->n_done);
    } else {
        j->failed = 1;
    }
    atomic_store(&j->abort, 1);
    /* Partitions waiting in a queue go now; running ones at their next
     * boundary. A drop may finish the job, never free it (that needs the
     * caller's release), so the loop may go on reading j. */
    for (size_t k = 0; k < j->n_parts; k++) {
        part *p = &j->parts[k];
        if (p->heap)
            part_drop_locked(e, p, t);
    }
}

void sp_eng_sched_maybe_free_job_locked(sp_engine *e, job *j, trash *t)
{
    if (!j->released || !j->finished || j->pins)
        return;
    for (size_t k = 0; k < j->n_parts; k++)
        sp_eng_mem_trash_witness_locked(e, &j->parts[k], t);
    if (j->prev)
        j->prev->next = j->next;
    else
        e->jobs = j->next;
    if (j->next)
        j->next->prev = j->prev;
    else
        e->jobs_tail = j->prev;
    e->n_jobs--;
    j->circ->jobs--;
    pthread_cond_broadcast(&e->cv_done); /* sp_engine_unregister waits for this */
    free(j->parts);
    free(j->proofs);
    free(j->publics);
    free(j->inputs);
    free(j);
}

/* ---- dispatcher ---- */

static worker *idle_synth_locked(sp_engine *e)
{
    for (int i = 0; i < e->n_synth; i++)
        if (!e->synth[i].cur)
            return &e->synth[i];
    return NULL;
}

/* One dispatch attempt: 1 when a partition went to a worker. */
static int dispatch_one_locked(sp_engine *e, trash *t)
{
    part *p = sp_eng_heap_top(&e->dq);
    worker *w = idle_synth_locked(e);
    if (!p || !w || e->paused)
        return 0;
    /* The pool grows only while nothing waits for a device: pinning a new
     * block stalls every device call of the process while it runs (the
     * driver holds its lock, for about a second per GiB),
     * and synthesis further ahead of the devices gains nothing. So the
     * pool stays within synthesis workers + GPU workers blocks of a size,
     * what pool_prefill makes by default. */
    if (e->cfg.pinned_pool && e->gq.n && !sp_eng_mem_has_idle_locked(e, p->job->circ->info.abc_bytes))
        return 0;
    if (!sp_eng_mem_reserve_locked(e, p, t)) {
        if (e->blocked_since < 0)
            e->blocked_since = eng_ms(e);
        return 0;
    }
    double waited = e->blocked_since < 0 ? 0 : eng_ms(e) - e->blocked_since;
    e->blocked_since = -1;
    sp_eng_heap_remove(&e->dq, p);
    p->state = SP_PART_SYNTH;
    w->cur = p;
    e->synth_busy++;
    TL(e, "DISPATCH", p->job->seq, "partition=%u,slot=%d,reserve=%zu,budget_wait_ms=%.3f", p->index, w->id,
       p->res_abc + p->res_rest, waited);
    pthread_cond_signal(&w->cv);
    return 1;
}

static void *dispatcher_main(void *arg)
{
    sp_engine *e = arg;
    trash t = {0};
    pthread_mutex_lock(&e->mu);
    while (!e->stopping) {
        if (dispatch_one_locked(e, &t))
            continue;
        if (t.head) { /* pool blocks evicted to make room: free them, retry */
            pthread_mutex_unlock(&e->mu);
            sp_eng_mem_dispose(e, &t);
            pthread_mutex_lock(&e->mu);
            continue;
        }
        pthread_cond_wait(&e->cv_dispatch, &e->mu);
    }
    pthread_mutex_unlock(&e->mu);
    sp_eng_mem_dispose(e, &t);
    return NULL;
}

/* ---- synthesis ---- */

static sp_status synth_run(sp_engine *e, worker *w, part *p, char err[SP_ERR_LEN])
{
    const circuit *c = p->job->circ;
    if (!p->abc && !(p->abc = sp_eng_mem_alloc_abc(e, c->info.abc_bytes))) {
        snprintf(err, SP_ERR_LEN, "out of memory for a, b, c (%zu bytes)", c->info.abc_bytes);
        return SP_ERR_NOMEM;
    }
    sp_synth_ctl ctl = {e->cfg.bw_throttle ? &e->throttle : NULL, &p->job->abort, 0, &e->yields};
    int check = e->cfg.check_witness;
    if (c->info.native) { /* the witness in the block, after a, b, c (sp_synth_circ_info) */
        p->w = fr_at(e, p->abc, c->info.witness_at / e->ops->fr_bytes);
        /* With every proof verified, a bad witness is caught there and
         * named by native_recheck; checking here too cost as much as half
         * the synthesis. */
        check = check && !e->cfg.verify_proofs;
    }
    return e->ops->synth(c->sc, p->abc, p->w, p->input, e->cfg.synth_threads, check, &ctl, err);
}

static void synth_one(sp_engine *e, worker *w, part *p)
{
    job *j = p->job;
    char err[SP_ERR_LEN] = "";
    sp_status st = SP_ERR_CANCELLED;
    double ms = 0;
    if (!atomic_load(&j->abort)) {
        double t0 = eng_ms(e);
        TL(e, "SYNTH_START", j->seq, "partition=%u,slot=%d", p->index, w->id);
        st = synth_run(e, w, p, err);
        ms = eng_ms(e) - t0;
        TL(e, "SYNTH_END", j->seq, "partition=%u,slot=%d,synth_ms=%.3f,status=%s", p->index, w->id, ms,
           sp_status_str(st));
    }
    trash t = {0};
    pthread_mutex_lock(&e->mu);
    p->synth_ms = ms; /* under mu: the status snapshot reads it */
    if (st == SP_OK && !atomic_load(&j->abort)) {
        if (j->circ->info.native) { /* public signals: wires 1..n_public of the witness just made */
            uint32_t npub = j->circ->info.n_public;
            memcpy(fr_at(e, j->publics, (size_t)p->index * npub), fr_at(e, p->w, 1), e->ops->fr_bytes * npub);
        }
        p->state = SP_PART_SYNTH_DONE;
        sp_eng_heap_push(&e->gq, p);
        TL(e, "GPU_QUEUE", j->seq, "partition=%u,depth=%zu", p->index, e->gq.n);
        /* every GPU worker looks: the partition may suit only some devices */
        pthread_cond_broadcast(&e->cv_gpu);
    } else {
        part_stop_locked(e, p, st, err, &t);
    }
    w->cur = NULL;
    e->synth_busy--;
    pthread_cond_signal(&e->cv_dispatch);
    pthread_mutex_unlock(&e->mu);
    sp_eng_mem_dispose(e, &t);
}

static void *synth_main(void *arg)
{
    worker *w = arg;
    sp_engine *e = w->e;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        while (!w->cur && !e->stopping)
            pthread_cond_wait(&w->cv, &e->mu);
        if (!w->cur)
            break;
        part *p = w->cur;
        pthread_mutex_unlock(&e->mu);
        synth_one(e, w, p);
        pthread_mutex_lock(&e->mu);
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

/* ---- GPU workers ---- */

/* The GPU worker whose device call runs on this thread (a backend reports
 * its stages from the calling thread, or from threads of its own while
 * its call is the device's only one). */
static _Thread_local worker *tl_caller;

/* A stage the backend reported (groth16/backend.h names them): one
 * DEV_STAGE line, less the part of the call's suspensions that fell within
 * the stage (a pause point may sit before a stage's start as well as
 * inside it). */
static void stage_done(void *ctx, const char *stage, double ms)
{
    device *d = ctx;
    sp_engine *e = d->e;
    worker *w = tl_caller && tl_caller->dev == d ? tl_caller : NULL;
    pthread_mutex_lock(&e->mu);
    for (int i = 0; !w && i < e->n_gpu; i++)
        if (d->owner == &e->gpu[i])
            w = &e->gpu[i];
    if (w) {
        double now = eng_ms(e), from = now - ms;
        for (int i = 0; i < w->n_pauses; i++) {
            double a = w->pauses[i].t0 > from ? w->pauses[i].t0 : from;
            if (w->pauses[i].t1 > a)
                ms -= w->pauses[i].t1 - a;
        }
        w->n_pauses = 0;
        ms = ms > 0 ? ms : 0;
    }
    pthread_mutex_unlock(&e->mu);
    if (!w)
        return;
    const part *p = w->stage_part;
    TL(e, "DEV_STAGE", p->job->seq, "partition=%u,gpu=%d,dev=%s,worker=%d,stage=%s,ms=%.3f", p->index,
       w->dev_index, d->label, w->local, stage, ms);
}

/* The device call, holding the device token; then, without it, the witness
 * scalars of a G2 MSM left to the finish stage. */
static sp_status gpu_call(sp_engine *e, worker *w, part *p, char err[SP_ERR_LEN])
{
    job *j = p->job;
    const circuit *c = j->circ;
    device *d = w->dev;
    sp_synth_prove_cfg o = {.backend = d->be, .threads = e->cfg.finish_threads, .split_msm = e->cfg.split_msm,
                            .g2_on_backend = e->cfg.g2_on_device, .pause = &w->pause};
    double t0 = eng_ms(e);
    pthread_mutex_lock(&e->mu);
    sp_eng_dev_call_begin_locked(e, w);
    pthread_mutex_unlock(&e->mu);
    double t1 = eng_ms(e);
    TL(e, "GPU_START", j->seq, "partition=%u,gpu=%d,dev=%s,worker=%d,lock_wait_ms=%.3f", p->index, w->dev_index,
       d->label, w->local, t1 - t0);
    tl_caller = w;
    sp_status st = e->ops->prove_device(&p->partial, c->sc, p->w, p->abc, &o, err);
    tl_caller = NULL;
    pthread_mutex_lock(&e->mu);
    double held = eng_ms(e) - t1 - w->paused_ms; /* the time this call had the device */
    sp_eng_dev_call_end_locked(e, w, 1); /* the device's next partition is taken now */
    p->gpu_ms = held;
    d->lock_held_ms += held;
    d->calls++;
    pthread_mutex_unlock(&e->mu);
    TL(e, "GPU_END", j->seq, "partition=%u,gpu=%d,dev=%s,worker=%d,gpu_ms=%.3f,status=%s", p->index, w->dev_index,
       d->label, w->local, held, sp_status_str(st));
    /* the finish's G2 scalars, made without the token */
    if (st == SP_OK && (st = e->ops->keep_scalars(p->partial, c->sc, p->w, &o, err)) != SP_OK)
        p->partial = NULL; /* freed by keep_scalars */
    return st;
}

static void gpu_one(sp_engine *e, worker *w, part *p)
{
    job *j = p->job;
    char err[SP_ERR_LEN] = "";
    sp_status st = SP_ERR_CANCELLED;
    int called = !atomic_load(&j->abort);
    if (called)
        st = gpu_call(e, w, p, err);
    trash t = {0};
    pthread_mutex_lock(&e->mu);
    if (!called)
        sp_eng_dev_call_end_locked(e, w, 0);
    if (st == SP_OK) {
        sp_eng_mem_trash_witness_locked(e, p, &t); /* the partial holds what finishing needs */
        if (e->cfg.two_step_release)
            sp_eng_mem_release_abc_locked(e, p, &t);
    }
    if (st == SP_OK && !atomic_load(&j->abort)) {
        p->state = SP_PART_FINISH;
        sp_eng_heap_push(&e->fq, p);
        pthread_cond_signal(&e->cv_finish);
    } else {
        part_stop_locked(e, p, st, err, &t);
    }
    w->dev->busy--;
    pthread_mutex_unlock(&e->mu);
    sp_eng_mem_dispose(e, &t);
}

static void *gpu_main(void *arg)
{
    worker *w = arg;
    sp_engine *e = w->e;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        part *p = NULL;
        while (!e->stopping && !(p = sp_eng_dev_claim_locked(e, w)))
            pthread_cond_wait(&e->cv_gpu, &e->mu);
        if (!p)
            break;
        pthread_cond_signal(&e->cv_dispatch); /* the pool may grow again (dispatch_one_locked) */
        p->state = SP_PART_GPU;
        p->dev = w->dev_index;
        w->dev->busy++;
        TL(e, "GPU_PICKUP", p->job->seq, "partition=%u,gpu=%d,dev=%s,worker=%d", p->index, w->dev_index,
           w->dev->label, w->local);
        pthread_mutex_unlock(&e->mu);
        gpu_one(e, w, p);
        pthread_mutex_lock(&e->mu);
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

/* ---- finish ---- */

/* A native circuit's proof that did not verify: its witness made again
 * with every constraint checked (the witness alone, in memory of its own),
 * so that err names the first failing constraint and its gadget; err is
 * left as it is when the witness satisfies (a wrong device result) or
 * cannot be made. */
static void native_recheck(sp_engine *e, part *p, char err[SP_ERR_LEN])
{
    char why[SP_ERR_LEN] = "";
    if (e->ops->native_check(p->job->circ->sc, p->input, e->cfg.synth_threads, &p->job->abort, why) ==
        SP_ERR_UNSATISFIED)
        snprintf(err, SP_ERR_LEN, "%s", why);
}

/* A finish in progress, as its G2 MSM's pause point sees it. */
typedef struct {
    sp_engine *e;
    worker *w;
    const part *p;
    atomic_int preempted; /* a preempting finish runs on one of this finish's threads */
    double paused_ms;     /* under mu: time spent on preempting finishes */
} fin_run;

static void finish_one(sp_engine *e, worker *w, part *p, int preempting);

/* The finish's pause point, from any of its G2 MSM's threads: when the
 * finish queue's first partition has a higher priority than this one, the
 * first thread here finishes it and the others wait for that. */
static void finish_pause(void *ctx)
{
    fin_run *f = ctx;
    sp_engine *e = f->e;
    int prio = f->p->job->priority;
    if (atomic_load_explicit(&e->fq.top_prio, memory_order_relaxed) <= prio && !atomic_load(&f->preempted))
        return;
    pthread_mutex_lock(&e->mu);
    while (atomic_load(&f->preempted))
        pthread_cond_wait(&e->cv_fin_pause, &e->mu);
    part *q = sp_eng_heap_top(&e->fq);
    if (!q || q->job->priority <= prio) {
        pthread_mutex_unlock(&e->mu);
        return;
    }
    sp_eng_heap_pop(&e->fq);
    atomic_store(&f->preempted, 1);
    e->c_fin_preempted++;
    double t0 = eng_ms(e);
    TL(e, "FIN_PAUSE", f->p->job->seq, "partition=%u,fin=%d,for=j%llu", f->p->index, f->w->id,
       (unsigned long long)q->job->seq);
    pthread_mutex_unlock(&e->mu);
    finish_one(e, f->w, q, 1);
    pthread_mutex_lock(&e->mu);
    double ms = eng_ms(e) - t0;
    f->paused_ms += ms;
    TL(e, "FIN_RESUME", f->p->job->seq, "partition=%u,fin=%d,paused_ms=%.3f", f->p->index, f->w->id, ms);
    atomic_store(&f->preempted, 0);
    pthread_cond_broadcast(&e->cv_fin_pause);
    pthread_mutex_unlock(&e->mu);
}

/* G2 MSM (when deferred, with the pause point given), r and s, assembly,
 * then verification. */
static sp_status finish_run(sp_engine *e, part *p, const sp_pause *pause, sp_g16_proof *proof,
                            char err[SP_ERR_LEN])
{
    job *j = p->job;
    const circuit *c = j->circ;
    sp_synth_prove_cfg o = {.threads = e->cfg.finish_threads, .split_msm = e->cfg.split_msm, .pause = pause};
    int throttle = e->cfg.bw_throttle && !e->ops->partial_has_g2(p->partial);
    if (throttle)
        atomic_fetch_add(&e->throttle, 1);
    sp_status st = e->ops->finish(proof, p->partial, c->sc, &o, err);
    if (throttle)
        atomic_fetch_sub(&e->throttle, 1);
    p->partial = NULL; /* finish released it */
    if (st != SP_OK || !e->cfg.verify_proofs)
        return st;
    int valid = 0;
    const sp_fr *pub = fr_at(e, j->publics, (size_t)p->index * c->info.n_public);
    st = e->ops->verify(&valid, c->sc, proof, pub, err);
    if (st == SP_OK && !valid) {
        snprintf(err, SP_ERR_LEN, "the proof does not verify (a witness that does not satisfy the circuit, "
                                  "or a wrong device result)");
        st = SP_ERR_UNSATISFIED;
        if (c->info.native && e->cfg.check_witness)
            native_recheck(e, p, err);
    }
    return st;
}

/* Finishes p on worker w's thread. A preempting finish (run from another
 * finish's pause point) is timed in lane finish_workers + w->id and has
 * no pause point of its own; a worker's own finish_ms excludes the time
 * its pause point spent on preempting ones. */
static void finish_one(sp_engine *e, worker *w, part *p, int preempting)
{
    job *j = p->job;
    char err[SP_ERR_LEN] = "";
    sp_status st = SP_ERR_CANCELLED;
    double ms = 0;
    int lane = preempting ? e->n_finish + w->id : w->id;
    fin_run f = {.e = e, .w = w, .p = p};
    atomic_init(&f.preempted, 0);
    const sp_pause pause = {finish_pause, &f};
    if (!atomic_load(&j->abort)) {
        double t0 = eng_ms(e);
        TL(e, "FINISH_START", j->seq, "partition=%u,fin=%d", p->index, lane);
        /* into its place in the job: read only once every partition is done */
        st = finish_run(e, p, preempting ? NULL : &pause, proof_at(e, j, p->index), err);
        ms = eng_ms(e) - t0 - f.paused_ms; /* its threads are joined: f is no longer shared */
        TL(e, "FINISH_END", j->seq, "partition=%u,fin=%d,finish_ms=%.3f,verified=%d,status=%s", p->index, lane, ms,
           st == SP_OK && e->cfg.verify_proofs, sp_status_str(st));
    }
    trash t = {0};
    pthread_mutex_lock(&e->mu);
    p->finish_ms = ms;
    e->finish_busy -= !preempting; /* a preempting finish runs on a busy worker */
    if (st == SP_OK && !atomic_load(&j->abort)) {
        j->n_done++;
        e->c_proved++;
        e->c_verified += e->cfg.verify_proofs != 0;
        part_release_locked(e, p, &t);
        p->state = SP_PART_DONE;
        part_terminal_locked(e, p);
    } else {
        part_stop_locked(e, p, st, err, &t);
    }
    pthread_mutex_unlock(&e->mu);
    sp_eng_mem_dispose(e, &t);
}

static void *finish_main(void *arg)
{
    worker *w = arg;
    sp_engine *e = w->e;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        while (!e->fq.n && !e->stopping)
            pthread_cond_wait(&e->cv_finish, &e->mu);
        part *p = sp_eng_heap_pop(&e->fq);
        if (!p)
            break;
        e->finish_busy++;
        pthread_mutex_unlock(&e->mu);
        finish_one(e, w, p, 0);
        pthread_mutex_lock(&e->mu);
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

/* ---- notifier ---- */

static void *notifier_main(void *arg)
{
    sp_engine *e = arg;
    trash t = {0};
    pthread_mutex_lock(&e->mu);
    for (;;) {
        while (!e->notify_head && !e->stopping)
            pthread_cond_wait(&e->cv_notify, &e->mu);
        job *j = e->notify_head;
        if (!j)
            break; /* stopping, and every callback has run */
        e->notify_head = j->next_notify;
        if (!e->notify_head)
            e->notify_tail = NULL;
        pthread_mutex_unlock(&e->mu);
        j->on_done(j->on_done_ctx, j);
        pthread_mutex_lock(&e->mu);
        j->pins--;
        sp_eng_sched_maybe_free_job_locked(e, j, &t);
        if (t.head) {
            pthread_mutex_unlock(&e->mu);
            sp_eng_mem_dispose(e, &t);
            pthread_mutex_lock(&e->mu);
        }
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

/* ---- start and stop ---- */

static sp_status start_workers(sp_engine *e, worker *ws, int n, void *(*fn)(void *))
{
    for (int i = 0; i < n; i++) {
        if (pthread_create(&ws[i].th, NULL, fn, &ws[i]) != 0)
            return SP_ERR_NOMEM;
        ws[i].started = 1;
    }
    return SP_OK;
}

sp_status sp_eng_sched_start(sp_engine *e, char err[SP_ERR_LEN])
{
    int per = e->cfg.gpu_workers_per_device;
    for (int i = 0; i < e->n_synth; i++) {
        e->synth[i] = (worker){.e = e, .id = i};
        pthread_cond_init(&e->synth[i].cv, NULL);
    }
    for (int i = 0; i < e->n_gpu; i++)
        e->gpu[i] = (worker){.e = e, .id = i, .dev = &e->dev[i / per], .dev_index = i / per, .local = i % per};
    for (size_t i = 0; i < e->n_dev; i++) {
        e->dev[i].e = e;
        e->ops->backend_set_hook(e->dev[i].be, stage_done, &e->dev[i]); /* the engine uses its backends alone */
    }
    for (int i = 0; i < e->n_finish; i++)
        e->finish[i] = (worker){.e = e, .id = i};
    sp_status st = SP_OK;
    if (pthread_create(&e->dispatcher, NULL, dispatcher_main, e) != 0)
        st = SP_ERR_NOMEM;
    else
        e->dispatcher_started = 1;
    if (st == SP_OK && pthread_create(&e->notifier, NULL, notifier_main, e) != 0)
        st = SP_ERR_NOMEM;
    else if (st == SP_OK)
        e->notifier_started = 1;
    if (st == SP_OK)
        st = start_workers(e, e->synth, e->n_synth, synth_main);
    if (st == SP_OK)
        st = start_workers(e, e->gpu, e->n_gpu, gpu_main);
    if (st == SP_OK)
        st = start_workers(e, e->finish, e->n_finish, finish_main);
    if (st != SP_OK)
        snprintf(err, SP_ERR_LEN, "cannot start the engine's threads");
    return st;
}

static void join_workers(worker *ws, int n)
{
    for (int i = 0; ws && i < n; i++)
        if (ws[i].started)
            pthread_join(ws[i].th, NULL);
}

void sp_eng_sched_stop(sp_engine *e)
{
    pthread_mutex_lock(&e->mu);
    e->stopping = 1;
    pthread_cond_broadcast(&e->cv_dispatch);
    pthread_cond_broadcast(&e->cv_gpu);
    pthread_cond_broadcast(&e->cv_finish);
    pthread_cond_broadcast(&e->cv_notify);
    for (int i = 0; e->synth && i < e->n_synth; i++)
        pthread_cond_signal(&e->synth[i].cv);
    pthread_mutex_unlock(&e->mu);
    if (e->dispatcher_started)
        pthread_join(e->dispatcher, NULL);
    join_workers(e->synth, e->n_synth);
    join_workers(e->gpu, e->n_gpu);
    join_workers(e->finish, e->n_finish);
    if (e->notifier_started)
        pthread_join(e->notifier, NULL);
    for (int i = 0; e->synth && i < e->n_synth; i++)
        pthread_cond_destroy(&e->synth[i].cv);
}
