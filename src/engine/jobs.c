/* Jobs: submit, cancel, await, release; trim and the status snapshot (engine.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "engine/internal.h"
#include "util/clock.h"

static job *find_request_locked(sp_engine *e, const char *rid)
{
    for (job *j = e->jobs; j; j = j->next)
        if (!j->released && j->request_id[0] && strcmp(j->request_id, rid) == 0)
            return j;
    return NULL;
}

/* Checks desc against the engine's state and limits. */
static sp_status admit_locked(sp_engine *e, const sp_engine_job_desc *d, circuit **cp, char err[SP_ERR_LEN])
{
    circuit *c = NULL;
    if (e->closing) {
        snprintf(err, SP_ERR_LEN, "the engine is shutting down");
        return SP_ERR_INVALID_ARG;
    }
    for (circuit *x = e->circuits; d->circuit_id && x; x = x->next)
        if (strcmp(x->id, d->circuit_id) == 0)
            c = x;
    if (!c) {
        snprintf(err, SP_ERR_LEN, "no circuit '%s' is registered", d->circuit_id ? d->circuit_id : "(null)");
        return SP_ERR_INVALID_ARG;
    }
    if (c->info.native) {
        if (d->n_partitions < 1 || !d->inputs || d->witness) {
            snprintf(err, SP_ERR_LEN, "a job of native circuit '%s' needs at least one input and no witness", c->id);
            return SP_ERR_INVALID_ARG;
        }
        for (size_t k = 0; k < d->n_partitions; k++)
            if (!d->inputs[k]) {
                snprintf(err, SP_ERR_LEN, "input %zu is missing", k);
                return SP_ERR_INVALID_ARG;
            }
    } else {
        if (d->n_partitions < 1 || !d->witness || d->witness_len != c->info.n_vars) {
            snprintf(err, SP_ERR_LEN, "a job needs at least one witness of %llu values (got %zu of %zu)",
                     (unsigned long long)c->info.n_vars, d->n_partitions, d->witness_len);
            return SP_ERR_INVALID_ARG;
        }
        for (size_t k = 0; k < d->n_partitions; k++)
            if (!d->witness[k]) {
                snprintf(err, SP_ERR_LEN, "witness %zu is missing", k);
                return SP_ERR_INVALID_ARG;
            }
    }
    if (d->request_id && (!*d->request_id || strlen(d->request_id) > 127 || find_request_locked(e, d->request_id))) {
        snprintf(err, SP_ERR_LEN, "request id '%.127s' is empty, too long or already in use", d->request_id);
        return SP_ERR_INVALID_ARG;
    }
    if (e->n_held >= e->cfg.max_jobs || e->live_parts + d->n_partitions > e->cfg.max_partitions) {
        snprintf(err, SP_ERR_LEN, "engine full: %zu jobs held (limit %zu), %zu partitions in flight (limit %zu)",
                 e->n_held, e->cfg.max_jobs, e->live_parts, e->cfg.max_partitions);
        return SP_ERR_NOMEM;
    }
    if (c->info.abc_bytes + c->info.rest_bytes > e->budget_total) {
        snprintf(err, SP_ERR_LEN, "a partition of '%s' needs %zu bytes, more than the whole budget (%zu)", c->id,
                 c->info.abc_bytes + c->info.rest_bytes, e->budget_total);
        return SP_ERR_NOMEM;
    }
    *cp = c;
    return SP_OK;
}

static job *job_alloc(const sp_engine *e, size_t n, uint32_t n_pub, size_t input_size)
{
    job *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->parts = calloc(n, sizeof *j->parts);
    j->proofs = calloc(n, e->ops->proof_size);
    j->publics = calloc(n * n_pub + 1, e->ops->fr_bytes);
    j->inputs = input_size ? malloc(n * input_size) : NULL;
    if (!j->parts || !j->proofs || !j->publics || (input_size && !j->inputs)) {
        free(j->parts);
        free(j->proofs);
        free(j->publics);
        free(j->inputs);
        free(j);
        return NULL;
    }
    return j;
}

/* Fills j from d and queues its partitions. */
static void job_enqueue_locked(sp_engine *e, job *j, circuit *c, const sp_engine_job_desc *d)
{
    uint32_t npub = c->info.n_public;
    j->seq = ++e->next_seq;
    j->circ = c;
    j->priority = d->priority;
    j->n_parts = d->n_partitions;
    j->owns_witness = c->info.native ? 1 : d->owns_witness; /* a native witness is the engine's */
    j->on_done = d->on_done;
    j->on_done_ctx = d->on_done_ctx;
    j->t_submit = eng_ms(e);
    atomic_init(&j->abort, 0);
    if (d->request_id)
        snprintf(j->request_id, sizeof j->request_id, "%s", d->request_id);
    for (size_t k = 0; k < j->n_parts; k++) {
        part *p = &j->parts[k];
        p->job = j;
        p->index = (uint32_t)k;
        p->state = SP_PART_QUEUED;
        p->dev = -1;
        if (c->info.native) { /* the public signals come with the witness, from synthesis */
            size_t sz = c->info.input_size;
            memcpy((char *)j->inputs + k * sz, d->inputs[k], sz);
            p->input = (char *)j->inputs + k * sz;
        } else {
            p->w = d->witness[k];
            memcpy(fr_at(e, j->publics, k * npub), fr_at(e, p->w, 1), e->ops->fr_bytes * npub); /* wires 1..npub */
        }
        sp_eng_heap_push(&e->dq, p);
    }
    j->prev = e->jobs_tail;
    if (e->jobs_tail)
        e->jobs_tail->next = j;
    else
        e->jobs = j;
    e->jobs_tail = j;
    e->n_jobs++;
    e->n_held++;
    e->live_parts += j->n_parts;
    e->c_submitted++;
    c->jobs++;
    c->held++;
}

sp_status sp_engine_submit(sp_engine *e, const sp_engine_job_desc *d, sp_engine_job **out, char err[SP_ERR_LEN])
{
    *out = NULL;
    circuit *c = NULL;
    pthread_mutex_lock(&e->mu);
    sp_status st = admit_locked(e, d, &c, err);
    job *j = st == SP_OK ? job_alloc(e, d->n_partitions, c->info.n_public, c->info.input_size) : NULL;
    if (st == SP_OK && !j) {
        snprintf(err, SP_ERR_LEN, "out of memory for a job of %zu partitions", d->n_partitions);
        st = SP_ERR_NOMEM;
    }
    if (st == SP_OK) {
        job_enqueue_locked(e, j, c, d);
        char rid[128];
        sp_timeline_clean(rid, sizeof rid, j->request_id);
        sp_timeline_emit(e->tl, "JOB_SUBMIT", j->seq, "partitions=%zu,priority=%d,circuit=%s,request=%s", j->n_parts,
                         j->priority, c->id, rid[0] ? rid : "-");
        pthread_cond_signal(&e->cv_dispatch);
        *out = j;
    }
    pthread_mutex_unlock(&e->mu);
    return st;
}

void sp_engine_cancel(sp_engine *e, sp_engine_job *job_)
{
    job *j = job_;
    trash t = {0};
    pthread_mutex_lock(&e->mu);
    sp_eng_sched_abort_job_locked(e, j, SP_ERR_CANCELLED, "cancelled", &t);
    pthread_mutex_unlock(&e->mu);
    sp_eng_mem_dispose(e, &t);
}

static void fill_result(const job *j, sp_engine_result *r)
{
    memset(r, 0, sizeof *r);
    r->status = j->status;
    snprintf(r->err, sizeof r->err, "%s", j->err);
    r->n_partitions = j->n_parts;
    r->n_public = j->circ->info.n_public;
    if (j->status == SP_OK) {
        r->proofs = (const sp_g16_proof *)j->proofs;
        r->public_signals = (const sp_fr *)j->publics;
        r->verified = j->verified;
    }
    r->submit_ms = j->t_submit;
    r->done_ms = j->t_done;
    r->job_seq = j->seq;
}

int sp_engine_await(sp_engine *e, sp_engine_job *job_, long timeout_ms, sp_engine_result *res)
{
    job *j = job_;
    struct timespec dl = sp_clock_after(CLOCK_MONOTONIC, timeout_ms); /* e->cv_done runs on CLOCK_MONOTONIC */
    pthread_mutex_lock(&e->mu);
    while (!j->finished && timeout_ms != 0) {
        if (timeout_ms < 0)
            pthread_cond_wait(&e->cv_done, &e->mu);
        else if (pthread_cond_timedwait(&e->cv_done, &e->mu, &dl) == ETIMEDOUT)
            break;
    }
    int done = j->finished;
    if (done && res)
        fill_result(j, res);
    pthread_mutex_unlock(&e->mu);
    return done;
}

void sp_engine_job_release(sp_engine *e, sp_engine_job *job_)
{
    job *j = job_;
    trash t = {0};
    pthread_mutex_lock(&e->mu);
    sp_eng_sched_abort_job_locked(e, j, SP_ERR_CANCELLED, "released before it finished", &t);
    j->released = 1;
    e->n_held--;
    j->circ->held--;
    sp_eng_sched_maybe_free_job_locked(e, j, &t);
    pthread_mutex_unlock(&e->mu);
    sp_eng_mem_dispose(e, &t);
}

void sp_engine_trim(sp_engine *e)
{
    trash t = {0};
    pthread_mutex_lock(&e->mu);
    sp_eng_mem_pool_drain_locked(e, &t);
    pthread_mutex_unlock(&e->mu);
    sp_eng_mem_dispose(e, &t);
    pthread_mutex_lock(&e->mu);
    while (e->freeing) /* frees handed to the freer finish in bounded time */
        pthread_cond_wait(&e->cv_freed, &e->mu);
    pthread_mutex_unlock(&e->mu);
}

void sp_engine_pause(sp_engine *e, int paused)
{
    pthread_mutex_lock(&e->mu);
    e->paused = paused != 0;
    pthread_cond_signal(&e->cv_dispatch);
    pthread_mutex_unlock(&e->mu);
}

/* ---- status ---- */

static sp_status snapshot_jobs_locked(sp_engine *e, sp_engine_status *st)
{
    st->jobs = calloc(e->n_jobs + 1, sizeof *st->jobs);
    if (!st->jobs)
        return SP_ERR_NOMEM;
    double now = eng_ms(e);
    for (job *j = e->jobs; j; j = j->next) {
        if (j->released)
            continue;
        sp_engine_job_status *js = &st->jobs[st->n_jobs];
        if (!(js->parts = calloc(j->n_parts, sizeof *js->parts)))
            return SP_ERR_NOMEM;
        st->n_jobs++;
        js->seq = j->seq;
        snprintf(js->request_id, sizeof js->request_id, "%s", j->request_id);
        snprintf(js->circuit_id, sizeof js->circuit_id, "%s", j->circ->id);
        js->priority = j->priority;
        js->finished = j->finished;
        js->status = j->status;
        js->n_partitions = j->n_parts;
        js->n_done = j->n_done;
        js->age_ms = (j->finished ? j->t_done : now) - j->t_submit;
        for (size_t k = 0; k < j->n_parts; k++) {
            const part *p = &j->parts[k];
            js->parts[k] = (sp_engine_part_status){p->state, p->synth_ms, p->gpu_ms, p->finish_ms, p->dev};
        }
    }
    return SP_OK;
}

static void snapshot_engine_locked(sp_engine *e, sp_engine_status *st)
{
    st->uptime_ms = eng_ms(e);
    st->budget_total = e->budget_total;
    st->budget_used = e->budget_used;
    st->budget_high_water = e->budget_hwm;
    st->pool_idle_bytes = e->pool_idle;
    st->pool_buffers = e->pool_count;
    st->freeing_bytes = e->freeing;
    st->reserved_bytes = e->reserved;
    st->queued = e->dq.n;
    st->gpu_queued = e->gq.n;
    st->finish_queued = e->fq.n;
    st->synth_workers = e->n_synth;
    st->synth_busy = e->synth_busy;
    st->finish_workers = e->n_finish;
    st->finish_busy = e->finish_busy;
    st->throttled = atomic_load(&e->throttle);
    st->synth_yields = atomic_load(&e->yields);
    st->jobs_submitted = e->c_submitted;
    st->jobs_done = e->c_done;
    st->jobs_failed = e->c_failed;
    st->jobs_cancelled = e->c_cancelled;
    st->partitions_proved = e->c_proved;
    st->proofs_verified = e->c_verified;
    st->finish_preemptions = e->c_fin_preempted;
    for (size_t i = 0; i < e->n_dev; i++) {
        sp_engine_device_status *d = &st->devices[i];
        snprintf(d->name, sizeof d->name, "%s", e->dev[i].label);
        d->keys = e->dev[i].keys;
        d->workers = e->cfg.gpu_workers_per_device;
        d->busy = e->dev[i].busy;
        d->lock_held_ms = e->dev[i].lock_held_ms;
        d->partitions = e->dev[i].calls;
        d->preemptions = e->dev[i].preemptions;
    }
}

sp_status sp_engine_status_get(sp_engine *e, sp_engine_status *st)
{
    memset(st, 0, sizeof *st);
    pthread_mutex_lock(&e->mu);
    st->n_devices = e->n_dev;
    st->devices = calloc(e->n_dev, sizeof *st->devices);
    sp_status s = st->devices ? snapshot_jobs_locked(e, st) : SP_ERR_NOMEM;
    if (s == SP_OK)
        snapshot_engine_locked(e, st);
    pthread_mutex_unlock(&e->mu);
    /* Device memory is asked outside e->mu: a backend takes its own lock,
     * which a GPU worker holds while it may call back into the engine. */
    for (size_t i = 0; s == SP_OK && i < st->n_devices; i++) {
        sp_engine_device_status *d = &st->devices[i];
        e->ops->backend_memory(e->dev[i].be, &d->resident_bytes, &d->free_bytes, &d->streamed_bytes);
        d->memory_known = d->resident_bytes > 0 || d->free_bytes > 0 || d->streamed_bytes > 0;
    }
    if (s != SP_OK)
        sp_engine_status_free(st);
    return s;
}

int sp_engine_key_release_host(sp_engine *e, const void *array)
{
    int all = array && e->n_dev > 0;
    for (size_t i = 0; all && i < e->n_dev; i++)
        all = e->ops->key_array_resident(e->dev[i].be, array);
    for (size_t i = 0; all && i < e->n_dev; i++)
        all = e->ops->key_release_host(e->dev[i].be, array);
    return all;
}

void sp_engine_status_free(sp_engine_status *st)
{
    for (size_t i = 0; st->jobs && i < st->n_jobs; i++)
        free(st->jobs[i].parts);
    free(st->jobs);
    free(st->devices);
    memset(st, 0, sizeof *st);
}
