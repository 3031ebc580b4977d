/*
 * The farm's worker (farm.h has the threads and locks, queue.h
 * the database model, ARCHITECTURE.md "The farm" the whole picture).
 *
 * One loop on the worker thread: keep the connection (reconnecting with
 * backoff), store what the engine finished (fenced by the claim's epoch),
 * assemble the jobs whose last proof it stored (every proof verified
 * again), renew the leases of what it holds while it makes progress
 * (heartbeat, every lease / 3, and at once when a job was cancelled: a
 * claim that moved to no next stage within farm.progress_timeout, or ran
 * past farm.max_run, is given up instead), queue again the claims of
 * nodes that went (reap), claim as many partitions as its engine has room
 * for in count and in bytes (farm.memory), and sleep on the connection's socket (LISTEN) and a
 * wake-up pipe until a notification, a finished partition or the next
 * poll. Each partition is a one-partition engine job whose proof the
 * engine verifies before it comes back.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "daemon/farm/farm.h"
#include "daemon/log.h"
#include "util/rng.h"

#define READY_SWEEP 16        /* orphaned ready jobs looked at per poll */
#define JANITOR_POLLS 4        /* housekeeping every 4 polls */

void sp_dmn_farm_wake(sp_dmn_farm *f)
{
    char b = 1;
    ssize_t k = write(f->wake[1], &b, 1); /* non-blocking: a full pipe already wakes it */
    (void)k;
}

/* ---- claims: into the engine (starter thread) and back (notifier) ---- */

/* The engine finished fc's job (notifier thread). */
static void claim_done(void *ctx, sp_engine_job *ej)
{
    fclaim *fc = ctx;
    sp_dmn_farm *f = fc->f;
    sp_dmn *d = f->d;
    sp_engine_result res;
    double t[SP_DMN_STAGE_N] = {0};
    sp_engine_await(d->eng, ej, 0, &res);
    uint8_t *pub = NULL;
    size_t npub = res.n_public;
    if (res.status == SP_OK) {
        sp_dmn_trk_job_timings(d, res.job_seq, 1000, t);
        pub = malloc(npub ? npub * 32 : 1);
        for (size_t i = 0; pub && i < npub; i++)
            d->ops->fr_to_bytes(pub + 32 * i, res.public_signals, i);
    }
    pthread_mutex_lock(&f->mu);
    fc->ej = NULL; /* from here on, cancel leaves it alone */
    if (res.status == SP_OK && pub) {
        d->ops->bp_encode(fc->proof, res.proofs, 0);
        fc->publics = pub;
        fc->publics_len = npub * 32;
        fc->synth_ms = t[SP_DMN_STAGE_SYNTH];
        fc->gpu_ms = t[SP_DMN_STAGE_GPU];
        fc->finish_ms = t[SP_DMN_STAGE_FINISH];
        fc->state = FC_DONE;
    } else {
        free(pub);
        snprintf(fc->err, sizeof fc->err, "%s", res.status == SP_OK ? "out of memory" : res.err);
        fc->status = res.status == SP_OK ? SP_ERR_NOMEM : res.status;
        fc->by_us = res.status == SP_ERR_CANCELLED;
        fc->state = FC_FAILED;
    }
    dcircuit *c = fc->circ;
    fc->circ = NULL;
    f->n_engine--;
    pthread_cond_broadcast(&f->cv_idle);
    pthread_mutex_unlock(&f->mu);
    sp_engine_job_release(d->eng, ej);
    sp_dmn_reg_release(d, c, res.status, 1);
    sp_dmn_farm_wake(f);
}

/* Marks fc failed before it reached the engine: permanent (its input is
 * bad), by_us (this node is shutting down: not an attempt), or neither. */
static void start_failed(sp_dmn_farm *f, fclaim *fc, int permanent, int by_us, const char *what, const char *why)
{
    pthread_mutex_lock(&f->mu);
    snprintf(fc->err, sizeof fc->err, "%s%s", what, why);
    fc->status = permanent ? SP_ERR_FORMAT : SP_ERR_IO;
    fc->permanent = permanent;
    fc->by_us = by_us;
    fc->state = FC_FAILED;
    pthread_mutex_unlock(&f->mu);
}

/* The input of a claim as the engine takes it: a parsed witness (whose
 * public inputs must be those the job recorded) or a native input.
 * Returns 0, or -1 with err (the partition's input is bad). */
static int decode_input(const sp_dmn_ops *ops, const fclaim *fc, const dcircuit *c, sp_fr **w, sp_dmn_native_input *in,
                        char err[SP_ERR_LEN])
{
    const sp_dmn_q_claim *q = &fc->c;
    if (c->nat) {
        if (q->input_len != 12) {
            snprintf(err, SP_ERR_LEN, "a native input is 12 bytes, not %zu", q->input_len);
            return -1;
        }
        uint64_t s = 0;
        uint32_t p = 0;
        for (int i = 7; i >= 0; i--)
            s = s << 8 | q->input[i];
        for (int i = 11; i >= 8; i--)
            p = p << 8 | q->input[i];
        *in = (sp_dmn_native_input){s, p};
        return 0;
    }
    if (sp_dmn_jobs_witness(ops, w, q->input, q->input_len, c->n_vars, c->id, err) != SP_OK)
        return -1;
    int same = q->expect_pub && q->expect_pub_len == (size_t)c->n_public * 32;
    for (uint32_t i = 0; same && i < c->n_public; i++) {
        uint8_t b[32];
        ops->fr_to_bytes(b, *w, 1 + i);
        same = !memcmp(b, q->expect_pub + 32 * i, 32);
    }
    if (!same) {
        snprintf(err, SP_ERR_LEN, "the partition's recorded public inputs are not its witness's");
        free(*w);
        *w = NULL;
        return -1;
    }
    return 0;
}

/* The test hook $SP_FARM_TEST_WEDGE: a prover that hangs, neither
 * proving nor failing, until the node stops. Returns 1 then. */
static int wedged(sp_dmn_farm *f)
{
    SP_DMN_LOGW("farm: SP_FARM_TEST_WEDGE: this claim hangs until the node stops");
    pthread_mutex_lock(&f->mu);
    while (!f->stopping)
        pthread_cond_wait(&f->cv_start, &f->mu);
    pthread_mutex_unlock(&f->mu);
    return 1;
}

/* Loads the circuit (a reference), keeps its verifying key for assembly,
 * decodes the input, submits a one-partition engine job. */
static void start_claim(sp_dmn_farm *f, fclaim *fc)
{
    sp_dmn *d = f->d;
    char err[SP_ERR_LEN] = "", id[64] = "";
    pthread_mutex_lock(&f->mu);
    fcirc *fcc = sp_dmn_farm_by_digest_locked(f, fc->c.digest, 0);
    if (fcc)
        snprintf(id, sizeof id, "%s", fcc->id);
    pthread_mutex_unlock(&f->mu);
    dcircuit *c = NULL;
    if (!*id)
        return start_failed(f, fc, 0, 0, "this node no longer has the circuit", "");
    if (*f->wedge && (!strcmp(f->wedge, "*") || !strcmp(f->wedge, id)) && wedged(f))
        return start_failed(f, fc, 0, 1, "the node stopped", "");
    if (sp_dmn_reg_acquire(d, id, &c, err) != 200)
        return start_failed(f, fc, 0, 0, "its key did not load here: ", err);
    size_t abc = 0, rest = 0;
    int sized = sp_engine_partition_bytes(d->eng, c->id, &abc, &rest) == SP_OK;
    pthread_mutex_lock(&f->mu);
    if (!fcc->have_pvk && d->ops->pvk_init(&fcc->pvk, c->key, err) == SP_OK)
        fcc->have_pvk = 1;
    if (sized) /* its true weight, from now on and for the claims to come */
        fc->bytes = fcc->part_bytes = abc + rest;
    pthread_mutex_unlock(&f->mu);
    sp_fr *w = NULL;
    sp_dmn_native_input in;
    if (decode_input(d->ops, fc, c, &w, &in, err)) {
        sp_dmn_reg_unref(d, c);
        return start_failed(f, fc, 1, 0, "bad input: ", err);
    }
    const void *inp = &in;
    char rid[64]; /* how status and the TIMELINE's readers name it: job, partition, claim */
    snprintf(rid, sizeof rid, "f%lld.%u.%lld", (long long)fc->c.job, fc->c.idx, (long long)fc->c.epoch);
    sp_engine_job_desc desc = {c->id, 1, c->nat ? NULL : &w, c->nat ? 0 : c->n_vars, 1, 0, rid, claim_done, fc,
                               c->nat ? &inp : NULL};
    pthread_mutex_lock(&f->mu);
    fc->circ = c;
    f->n_engine++;
    sp_status st = f->cancel_all ? SP_ERR_CANCELLED : sp_engine_submit(d->eng, &desc, &fc->ej, err);
    if (st == SP_OK) {
        fc->state = FC_RUNNING;
        if (fc->lost)
            sp_engine_cancel(d->eng, fc->ej);
    } else {
        fc->circ = NULL;
        f->n_engine--;
        pthread_cond_broadcast(&f->cv_idle);
    }
    pthread_mutex_unlock(&f->mu);
    if (st != SP_OK) {
        free(w);
        sp_dmn_reg_unref(d, c);
        start_failed(f, fc, 0, st == SP_ERR_CANCELLED, "the engine refused it: ",
                     st == SP_ERR_CANCELLED ? "shutting down" : err);
    }
}

static void *starter_main(void *arg)
{
    sp_dmn_farm *f = arg;
    pthread_mutex_lock(&f->mu);
    for (;;) {
        fclaim *fc = NULL;
        while (!f->stopping && !f->refresh) {
            for (fc = f->claims; fc && (fc->state != FC_STARTING || fc->taken); fc = fc->next)
                ;
            if (fc)
                break;
            pthread_cond_wait(&f->cv_start, &f->mu);
        }
        if (f->stopping)
            break;
        if (!fc) { /* a refresh of the circuit cache */
            f->refresh = 0;
            pthread_mutex_unlock(&f->mu);
            sp_dmn_farm_refresh(f);
            pthread_mutex_lock(&f->mu);
            continue;
        }
        fc->taken = 1;
        pthread_mutex_unlock(&f->mu);
        start_claim(f, fc);
        pthread_mutex_lock(&f->mu);
        free(fc->c.input);
        fc->c.input = NULL;
        fc->taken = 0; /* the worker may settle it now */
        pthread_mutex_unlock(&f->mu);
        sp_dmn_farm_wake(f);
        pthread_mutex_lock(&f->mu);
    }
    pthread_mutex_unlock(&f->mu);
    return NULL;
}

/* ---- the worker: store, release, heartbeat, claim, assemble ---- */

/* Jobs whose last proof this node stored: assembled next. */
typedef struct {
    int64_t ids[256];
    size_t n;
} asm_list;

static void asm_add(asm_list *a, int64_t id)
{
    for (size_t i = 0; i < a->n; i++)
        if (a->ids[i] == id)
            return;
    if (a->n < sizeof a->ids / sizeof a->ids[0])
        a->ids[a->n++] = id;
}

static void fclaim_free(fclaim *fc)
{
    free(fc->publics);
    free(fc->c.input);
    free(fc->c.expect_pub);
    free(fc);
}

/* Writes what fc ended with; returns 0 when done with it, -1 when the
 * database failed (try again later). */
static int settle(sp_dmn_farm *f, fclaim *fc, asm_list *a)
{
    char err[SP_ERR_LEN];
    int done = 0, last = 0;
    sp_status st;
    if (fc->state == FC_DONE) {
        sp_dmn_q_proof p = {fc->proof, fc->publics, fc->publics_len, fc->synth_ms, fc->gpu_ms, fc->finish_ms};
        st = sp_dmn_q_store(f->q, f->inst, &fc->c, &p, &done, &last, err);
        if (st == SP_OK) {
            sp_dmn_farm_count(f, done ? &f->stored : &f->fenced, 1);
            if (!done)
                SP_DMN_LOGW("farm: the proof of f%lld partition %u came too late (cancelled or taken over): dropped",
                            (long long)fc->c.job, fc->c.idx);
            if (last)
                asm_add(a, fc->c.job);
        }
    } else {
        int fail = fc->permanent, counted = !fc->by_us;
        const char *code = fail ? "bad_input" : sp_dmn_jobs_error_code(fc->status);
        st = sp_dmn_q_release(f->q, f->inst, &fc->c, fail, counted, f->max_attempts, code, fc->err, &done, err);
        if (st == SP_OK) {
            sp_dmn_farm_count(f, fail ? &f->failed : &f->released, done);
            SP_DMN_LOGI("farm: f%lld partition %u %s: %s", (long long)fc->c.job, fc->c.idx,
                        fail ? "failed for good" : fc->by_us ? "handed back" : "failed here, queued again", fc->err);
        }
    }
    if (st != SP_OK) {
        sp_dmn_farm_count(f, &f->db_errors, 1);
        SP_DMN_LOGW("farm: %s", err);
        return -1;
    }
    return 0;
}

/* Settles every claim that ended; lost ones go without a write. */
static void settle_all(sp_dmn_farm *f, asm_list *a)
{
    for (;;) {
        pthread_mutex_lock(&f->mu);
        fclaim **pp = &f->claims, *fc = NULL;
        for (; *pp; pp = &(*pp)->next)
            if (((*pp)->state == FC_DONE || (*pp)->state == FC_FAILED) && !(*pp)->taken)
                break;
        fc = *pp;
        if (fc && fc->lost) {
            *pp = fc->next; /* no longer ours: dropped without a write */
            f->n_claims--;
            f->lost += fc->lost;
            pthread_mutex_unlock(&f->mu);
            fclaim_free(fc);
            continue;
        }
        pthread_mutex_unlock(&f->mu);
        if (!fc || !f->connected || settle(f, fc, a) != 0)
            return;
        pthread_mutex_lock(&f->mu);
        for (pp = &f->claims; *pp != fc; pp = &(*pp)->next)
            ;
        *pp = fc->next;
        f->n_claims--;
        pthread_mutex_unlock(&f->mu);
        fclaim_free(fc);
    }
}

/* fc, claimed but never started (the starter has stopped, or it was
 * given up), handed back: not an attempt. Under f->mu. */
static void hand_back_locked(fclaim *fc)
{
    fc->state = FC_FAILED;
    fc->by_us = 1;
    snprintf(fc->err, sizeof fc->err, "the node stopped before starting it");
}

/* The stage a claim is in, as progress is judged: waiting for the
 * starter, being started (key, input), each engine state, ended. */
static int stage_of(const fclaim *fc, int engine_state)
{
    switch (fc->state) {
    case FC_STARTING:
        return fc->taken;
    case FC_RUNNING:
        return 10 + engine_state; /* 9: in the engine, its state not known */
    default:
        return 100;
    }
}

/* The engine state of each running claim's partition (-1 when unknown),
 * into eng[] in list order; f->mu held. */
static void engine_states_locked(sp_dmn_farm *f, const sp_engine_status *es, int *eng)
{
    size_t i = 0;
    for (fclaim *fc = f->claims; fc; fc = fc->next, i++) {
        eng[i] = -1;
        char rid[64];
        snprintf(rid, sizeof rid, "f%lld.%u.%lld", (long long)fc->c.job, fc->c.idx, (long long)fc->c.epoch);
        for (size_t k = 0; es && fc->state == FC_RUNNING && k < es->n_jobs; k++)
            if (!strcmp(es->jobs[k].request_id, rid) && es->jobs[k].n_partitions)
                eng[i] = (int)es->jobs[k].parts[0].state;
    }
}

/* A claim given up by this node: released (fenced) as an attempt. */
typedef struct {
    sp_dmn_q_claim c;
    const char *code;
    char why[160];
} give_up;

/* Sorts the claims not yet settled: those that made progress within
 * farm.progress_timeout and stay within farm.max_run go to h (renewed);
 * the others are marked lost (their engine jobs cancelled) and go to g
 * (given up). f->mu held. */
static void judge_locked(sp_dmn_farm *f, const int *eng, double now, sp_dmn_q_hold *h, size_t *nh, give_up *g,
                         size_t *ng)
{
    size_t i = 0;
    for (fclaim *fc = f->claims; fc; fc = fc->next, i++) {
        if (fc->lost)
            continue;
        int st = stage_of(fc, eng[i]);
        if (st != fc->stage) {
            fc->stage = st;
            fc->progress_ms = now;
        }
        int open = fc->state == FC_STARTING || fc->state == FC_RUNNING;
        int overran = open && f->max_run_ms > 0 && now - fc->claimed_ms > (double)f->max_run_ms;
        int stalled = open && now - fc->progress_ms > (double)f->progress_ms;
        if (!overran && !stalled) {
            h[(*nh)++] = (sp_dmn_q_hold){fc->c.job, fc->c.idx, fc->c.epoch, 0};
            continue;
        }
        give_up *x = &g[(*ng)++];
        x->c = (sp_dmn_q_claim){.job = fc->c.job, .idx = fc->c.idx, .epoch = fc->c.epoch, .attempts = fc->c.attempts};
        x->code = overran ? "run_limit" : "stalled";
        if (overran)
            snprintf(x->why, sizeof x->why, "ran past farm.max_run (%ld ms) on node %s", f->max_run_ms, f->name);
        else
            snprintf(x->why, sizeof x->why, "no progress for %ld ms (farm.progress_timeout) on node %s, %s",
                     f->progress_ms, f->name, fc->state == FC_RUNNING && eng[i] >= 0
                     ? sp_engine_part_state_str((sp_engine_part_state)eng[i]) : "starting");
        fc->lost = fc->given_up = 1;
        if (fc->ej)
            sp_engine_cancel(f->d->eng, fc->ej);
        if (fc->state == FC_STARTING && !fc->taken) /* never to start: dropped at the next settle */
            hand_back_locked(fc);
    }
}

/* Gives up the claims in g: queued again for another node (an attempt). */
static void give_up_all(sp_dmn_farm *f, const give_up *g, size_t n)
{
    char err[SP_ERR_LEN];
    for (size_t i = 0; i < n; i++) {
        int done = 0;
        sp_status st = sp_dmn_q_release(f->q, f->inst, &g[i].c, 0, 1, f->max_attempts, g[i].code, g[i].why, &done,
                                        err);
        sp_dmn_farm_count(f, !strcmp(g[i].code, "stalled") ? &f->stalled : &f->overran, 1);
        if (st != SP_OK)
            SP_DMN_LOGW("farm: giving up f%lld partition %u: %s (its lease lapses instead)", (long long)g[i].c.job,
                        g[i].c.idx, err);
        else
            SP_DMN_LOGW("farm: f%lld partition %u given up: %s", (long long)g[i].c.job, g[i].c.idx, g[i].why);
    }
}

/* Renews the leases of the claims that make progress; gives up the
 * others; those no longer ours are marked lost (their engine jobs
 * cancelled: a cancelled job, a claim taken over after a lease ran out). */
static sp_status heartbeat(sp_dmn_farm *f, char err[SP_ERR_LEN])
{
    sp_engine_status es;
    int have_es = sp_engine_status_get(f->d->eng, &es) == SP_OK;
    pthread_mutex_lock(&f->mu);
    size_t n = 0, ng = 0, m = f->n_claims ? f->n_claims : 1;
    sp_dmn_q_hold *h = malloc(m * sizeof *h);
    give_up *g = malloc(m * sizeof *g);
    int *eng = malloc(m * sizeof *eng);
    if (h && g && eng) {
        engine_states_locked(f, have_es ? &es : NULL, eng);
        judge_locked(f, eng, sp_dmn_wire_now_ms(), h, &n, g, &ng);
    }
    const char **dig = NULL;
    size_t nd = sp_dmn_farm_digests_locked(f, 0, &dig);
    pthread_mutex_unlock(&f->mu);
    free(eng);
    if (have_es)
        sp_engine_status_free(&es);
    int node_lost = 0;
    sp_status st = h && g && dig ? sp_dmn_q_heartbeat(f->q, f->inst, f->name, f->capacity, dig, nd,
                                                      f->d->cfg.result_ttl_ms, f->lease_ms, h, n, &node_lost, err)
                                 : SP_ERR_NOMEM;
    free(dig);
    if (st == SP_OK && node_lost) {
        sp_dmn_farm_count(f, &f->node_restarts, 1);
        SP_DMN_LOGW("farm: this node's row was gone from the database (an outage longer than 10 leases?); made again");
    }
    if (g)
        give_up_all(f, g, ng);
    pthread_mutex_lock(&f->mu);
    for (size_t i = 0; st == SP_OK && i < n; i++) {
        if (h[i].held)
            continue;
        for (fclaim *fc = f->claims; fc; fc = fc->next)
            if (fc->c.job == h[i].job && fc->c.idx == h[i].idx && fc->c.epoch == h[i].epoch && !fc->lost) {
                fc->lost = 1;
                if (fc->ej)
                    sp_engine_cancel(f->d->eng, fc->ej);
                SP_DMN_LOGI("farm: f%lld partition %u is no longer this node's (cancelled or taken over): dropped",
                            (long long)fc->c.job, fc->c.idx);
            }
    }
    pthread_mutex_unlock(&f->mu);
    free(h);
    free(g);
    return st;
}


/* The digests to claim and what a partition of each weighs; those that
 * can never fit farm.memory here are left out, one whose weight is not
 * known yet (its key never loaded here) weighs all the room left (so it
 * is claimed alone, and its first start tells). f->mu held. Returns the
 * count (dig and bytes malloc'ed, or NULL when none). */
static size_t claim_digests_locked(sp_dmn_farm *f, uint64_t room_bytes, const char ***dig, uint64_t **bytes)
{
    size_t nd = sp_dmn_farm_digests_locked(f, 0, dig), k = 0;
    *bytes = nd ? malloc(nd * sizeof **bytes) : NULL;
    if (!*bytes) {
        free(*dig);
        *dig = NULL;
        return 0;
    }
    sp_dmn_farm_bytes_locked(f, *dig, nd, *bytes);
    for (size_t i = 0; i < nd; i++) {
        if ((*bytes)[i] > f->memory)
            continue;
        (*dig)[k] = (*dig)[i];
        (*bytes)[k++] = (*bytes)[i] ? (*bytes)[i] : room_bytes;
    }
    return k;
}

static sp_status claim_some(sp_dmn_farm *f, char err[SP_ERR_LEN])
{
    pthread_mutex_lock(&f->mu);
    /* paused (POST /v1/pause): claim nothing, so that others take the work */
    int hold = f->draining || atomic_load(&f->d->paused);
    size_t room = hold || (size_t)f->capacity <= f->n_claims ? 0 : (size_t)f->capacity - f->n_claims;
    uint64_t held = 0; /* what the claims not yet ended weigh, lost ones included (still in the engine) */
    for (fclaim *fc = f->claims; fc; fc = fc->next) {
        held += fc->bytes;
        room = fc->given_up && !(fc->state == FC_FAILED && !fc->taken) ? 0 : room;
    }
    uint64_t room_bytes = held < f->memory ? f->memory - held : 0;
    const char **dig = NULL;
    uint64_t *bytes = NULL;
    size_t nd = room && room_bytes ? claim_digests_locked(f, room_bytes, &dig, &bytes) : 0;
    pthread_mutex_unlock(&f->mu);
    if (!nd) {
        free(dig);
        free(bytes);
        return SP_OK;
    }
    sp_dmn_q_claim *c = NULL;
    size_t n = 0;
    sp_status st = sp_dmn_q_claim_parts(f->q, f->inst, dig, bytes, nd, room, room_bytes, f->lease_ms,
                                        f->max_attempts, &c, &n, err);
    double now = sp_dmn_wire_now_ms();
    pthread_mutex_lock(&f->mu);
    for (size_t i = 0; st == SP_OK && i < n; i++) {
        fclaim *fc = calloc(1, sizeof *fc);
        if (!fc) /* its lease lapses and another node takes it */
            continue;
        fc->f = f;
        fc->c = c[i];
        c[i].input = c[i].expect_pub = NULL; /* moved */
        fc->state = FC_STARTING;
        for (size_t k = 0; k < nd; k++)
            if (!strcmp(dig[k], fc->c.digest))
                fc->bytes = bytes[k];
        fc->claimed_ms = fc->progress_ms = now;
        if (f->stopping) /* claimed while the node stopped: nobody starts it any more */
            hand_back_locked(fc);
        fc->next = f->claims;
        f->claims = fc;
        f->n_claims++;
        f->claimed++;
        SP_DMN_LOGD("farm: claimed f%lld partition %u (epoch %lld, attempt %d)", (long long)fc->c.job, fc->c.idx,
                    (long long)fc->c.epoch, fc->c.attempts);
    }
    pthread_cond_signal(&f->cv_start);
    pthread_mutex_unlock(&f->mu);
    free(dig);
    free(bytes);
    sp_dmn_q_claims_free(c, n);
    return st;
}

/* ---- the loop ---- */

/* Connected, or reconnected now (then *fresh: the instance's row made
 * again and the notifications listened to, by sp_dmn_q_ensure). Returns 1
 * when connected. Reconnection attempts follow the queue's backoff. */
static int keep_connected(sp_dmn_farm *f, int *fresh)
{
    char err[SP_ERR_LEN];
    *fresh = 0;
    if (f->connected && sp_dmn_q_connected(f->q))
        return 1;
    if (f->connected) {
        pthread_mutex_lock(&f->mu);
        f->connected = 0;
        pthread_mutex_unlock(&f->mu);
        SP_DMN_LOGW("farm: lost the queue database (%s); reconnecting", f->desc);
    }
    sp_status st = sp_dmn_q_ensure(f->q, err);
    if (st == SP_OK && (st = sp_dmn_q_node_lock(f->q, f->name, err)) == SP_ERR_INVALID_ARG) /* a new session */
        SP_DMN_LOGE("farm: %s", err);
    const char **dig = NULL;
    size_t nd = st == SP_OK ? sp_dmn_farm_digests(f, 0, &dig) : 0, released = 0;
    int recent = 0;
    if (st == SP_OK)
        st = dig ? sp_dmn_q_node_up(f->q, f->inst, f->name, f->capacity, dig, nd, f->d->cfg.result_ttl_ms,
                                    f->lease_ms, &released, &recent, err)
                 : SP_ERR_NOMEM;
    free(dig);
    if (st != SP_OK)
        return 0;
    if (released)
        SP_DMN_LOGI("farm: %zu partition(s) claimed by an earlier run of node %s queued again", released, f->name);
    if (recent)
        SP_DMN_LOGW("farm: an earlier instance of node %s was alive within the last lease and did not leave (it "
                    "died?)", f->name);
    pthread_mutex_lock(&f->mu);
    f->connected = 1;
    pthread_mutex_unlock(&f->mu);
    SP_DMN_LOGI("farm: connected to the queue (%s) as %s", f->desc, f->inst);
    *fresh = 1;
    return 1;
}

void sp_dmn_farm_job_ended(sp_dmn_farm *f, int64_t id)
{
    pthread_mutex_lock(&f->mu);
    f->done_ring[++f->done_gen % SP_DMN_FARM_DONE_RING] = id;
    pthread_cond_broadcast(&f->cv_done);
    pthread_mutex_unlock(&f->mu);
}

static void on_done(void *ctx, int64_t id) { sp_dmn_farm_job_ended(ctx, id); }

/* Sleeps until the socket or the wake-up pipe is readable, or timeout. */
static void wait_events(sp_dmn_farm *f, double timeout_ms, int *work, int *cancel)
{
    struct pollfd p[2] = {{f->wake[0], POLLIN, 0}, {sp_dmn_q_socket(f->q), POLLIN, 0}};
    int np = p[1].fd >= 0 ? 2 : 1;
    int t = timeout_ms < 0 ? 0 : timeout_ms > 60000 ? 60000 : (int)timeout_ms + 1;
    if (poll(p, (nfds_t)np, t) > 0 && (p[0].revents & POLLIN)) {
        char buf[64];
        while (read(f->wake[0], buf, sizeof buf) > 0)
            ;
        *work = 1; /* a claim ended: room for another */
    }
    if (np == 2)
        sp_dmn_q_drain_notifies(f->q, work, cancel, on_done, f); /* a broken connection: keep_connected sees it next */
}

typedef struct {
    double next_hb, next_poll, next_janitor;
    int want_claim;
} loop_clock;

/* One pass of the loop's database work, connected. */
static void pass(sp_dmn_farm *f, loop_clock *k, int fresh)
{
    char err[SP_ERR_LEN];
    asm_list a = {.n = 0};
    double now = sp_dmn_wire_now_ms();
    if (fresh) {
        k->next_hb = 0;
        k->want_claim = 1;
    }
    settle_all(f, &a);
    for (size_t i = 0; i < a.n; i++)
        sp_dmn_farm_assemble(f, a.ids[i], err);
    if (now >= k->next_hb) {
        size_t reaped = 0;
        if (heartbeat(f, err) != SP_OK || sp_dmn_q_reap(f->q, f->lease_ms, &reaped, err) != SP_OK) {
            sp_dmn_farm_count(f, &f->db_errors, 1);
            SP_DMN_LOGW("farm: heartbeat: %s", err);
        }
        if (reaped) {
            sp_dmn_farm_count(f, &f->reaped, reaped);
            SP_DMN_LOGI("farm: %zu claim(s) whose lease ran out or whose node went queued again", reaped);
            k->want_claim = 1;
        }
        k->next_hb = now + (double)f->lease_ms / 3;
    }
    if (now >= k->next_poll) { /* the fallback for notifications lost while a connection was down */
        const char **dig = NULL;
        int64_t ids[READY_SWEEP];
        size_t nd = sp_dmn_farm_digests(f, 1, &dig), n = 0;
        if (dig && sp_dmn_q_ready_jobs(f->q, dig, nd, ids, READY_SWEEP, &n, err) == SP_OK)
            for (size_t i = 0; i < n; i++)
                sp_dmn_farm_assemble(f, ids[i], err);
        free(dig);
        pthread_mutex_lock(&f->mu);
        f->refresh = 1; /* circuits registered or evicted meanwhile */
        pthread_cond_broadcast(&f->cv_start);
        pthread_mutex_unlock(&f->mu);
        sp_dmn_farm_job_ended(f, 0); /* awaiters look again: a notification may have been lost */
        k->want_claim = 1;
        k->next_poll = now + (double)f->poll_ms;
    }
    if (now >= k->next_janitor) {
        size_t failed = 0, late = 0;
        if (sp_dmn_q_janitor(f->q, f->max_attempts, f->d->cfg.result_ttl_ms, f->lease_ms, &failed, &late, err) != SP_OK)
            SP_DMN_LOGW("farm: housekeeping: %s", err);
        if (failed)
            SP_DMN_LOGW("farm: %zu job(s) failed: a partition was claimed %d times without a proof", failed,
                        f->max_attempts);
        if (late)
            SP_DMN_LOGW("farm: %zu job(s) failed: past their deadline with partitions nobody took", late);
        k->next_janitor = now + JANITOR_POLLS * (double)f->poll_ms;
    }
    if (k->want_claim) {
        k->want_claim = 0;
        if (claim_some(f, err) != SP_OK) {
            sp_dmn_farm_count(f, &f->db_errors, 1);
            SP_DMN_LOGW("farm: claim: %s", err);
        }
    }
}

static void *worker_main(void *arg)
{
    sp_dmn_farm *f = arg;
    loop_clock k = {0, 0, 0, 1};
    for (;;) {
        pthread_mutex_lock(&f->mu);
        int stop = f->stopping && !f->n_claims;
        pthread_mutex_unlock(&f->mu);
        if (stop)
            break;
        int fresh = 0, work = 0, cancel = 0;
        if (keep_connected(f, &fresh))
            pass(f, &k, fresh);
        double ms;
        uint64_t calls, rec;
        sp_dmn_q_stats(f->q, &ms, &calls, &rec);
        pthread_mutex_lock(&f->mu);
        f->wk_ms = ms;
        f->wk_calls = calls;
        f->wk_reconnects = rec;
        pthread_mutex_unlock(&f->mu);
        double now = sp_dmn_wire_now_ms(), next = k.next_poll < k.next_hb ? k.next_poll : k.next_hb;
        if (!f->connected)
            next = now + 100;
        wait_events(f, k.want_claim ? 0 : next - now, &work, &cancel);
        if (work)
            k.want_claim = 1;
        if (cancel)
            k.next_hb = 0; /* a job was cancelled: see at once which claims went */
        pthread_mutex_lock(&f->mu);
        if (f->cancel_all && !f->connected) /* shutting down without the database: leases lapse */
            for (fclaim **pp = &f->claims; *pp;) {
                fclaim *fc = *pp;
                if ((fc->state == FC_DONE || fc->state == FC_FAILED) && !fc->taken) {
                    *pp = fc->next;
                    f->n_claims--;
                    fclaim_free(fc);
                } else {
                    pp = &fc->next;
                }
            }
        pthread_mutex_unlock(&f->mu);
    }
    char err[SP_ERR_LEN];
    if (f->connected && sp_dmn_q_node_down(f->q, f->inst, err) != SP_OK)
        SP_DMN_LOGW("farm: leaving the farm: %s", err);
    return NULL;
}

/* ---- start, drain, stop ---- */

/* The node id: farm.node_id, else the host name (made of the id characters). */
static void node_name(sp_dmn_farm *f, const char *cfg)
{
    char host[256] = "";
    if (*cfg)
        snprintf(host, sizeof host, "%s", cfg);
    else if (gethostname(host, sizeof host - 1) != 0 || !*host)
        snprintf(host, sizeof host, "node");
    size_t n = 0;
    for (const char *p = host; *p && n < sizeof f->name - 1; p++)
        f->name[n++] = strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-", *p) ? *p : '-';
    f->name[n] = 0;
    uint8_t r[4] = {0};
    if (sp_os_random(r, sizeof r) != SP_OK) {
        unsigned x = (unsigned)getpid() ^ (unsigned)sp_dmn_wire_now_ms();
        memcpy(r, &x, sizeof r);
    }
    snprintf(f->inst, sizeof f->inst, "%s/%02x%02x%02x%02x", f->name, r[0], r[1], r[2], r[3]);
}

static void farm_free(sp_dmn_farm *f)
{
    for (int i = 0; i < f->pool_n; i++)
        sp_dmn_q_close(f->pool[i]);
    sp_dmn_q_close(f->q);
    while (f->circs) {
        fcirc *c = f->circs;
        f->circs = c->next;
        if (c->have_pvk)
            f->d->ops->pvk_free(c->pvk);
        free(c);
    }
    if (f->wake[0] >= 0)
        close(f->wake[0]);
    if (f->wake[1] >= 0)
        close(f->wake[1]);
    pthread_mutex_destroy(&f->mu);
    pthread_cond_destroy(&f->cv_start);
    pthread_cond_destroy(&f->cv_done);
    pthread_cond_destroy(&f->cv_pool);
    pthread_cond_destroy(&f->cv_idle);
    free(f);
}

sp_status sp_dmn_farm_start(sp_dmn *d, char err[SP_ERR_LEN])
{
    const sp_dmn_conf *cfg = &d->cfg;
    if (!d->cfg.eng.verify_proofs) {
        snprintf(err, SP_ERR_LEN, "the farm stores verified proofs only: engine.verify_proofs must stay on");
        return SP_ERR_INVALID_ARG;
    }
    sp_dmn_farm *f = calloc(1, sizeof *f);
    if (!f) {
        snprintf(err, SP_ERR_LEN, "out of memory");
        return SP_ERR_NOMEM;
    }
    f->d = d;
    f->wake[0] = f->wake[1] = -1;
    pthread_mutex_init(&f->mu, NULL);
    pthread_cond_init(&f->cv_start, NULL);
    pthread_cond_init(&f->cv_done, NULL);
    pthread_cond_init(&f->cv_pool, NULL);
    pthread_cond_init(&f->cv_idle, NULL);
    snprintf(f->conninfo, sizeof f->conninfo, "%s", cfg->queue);
    sp_dmn_q_describe(f->desc, sizeof f->desc, cfg->queue);
    node_name(f, cfg->node_id);
    f->lease_ms = cfg->lease_ms;
    f->poll_ms = cfg->poll_ms;
    f->progress_ms = cfg->progress_timeout_ms;
    f->max_run_ms = cfg->max_run_ms;
    f->memory = cfg->farm_memory ? cfg->farm_memory : d->engine_budget;
    const char *wedge = getenv("SP_FARM_TEST_WEDGE");
    snprintf(f->wedge, sizeof f->wedge, "%s", wedge ? wedge : "");
    f->max_attempts = cfg->max_attempts;
    f->pool_max = cfg->db_connections;
    sp_engine_status es;
    f->capacity = cfg->max_claims;
    if (!f->capacity && sp_engine_status_get(d->eng, &es) == SP_OK) { /* what keeps every worker busy */
        f->capacity = es.synth_workers + (int)es.n_devices * cfg->eng.gpu_workers_per_device;
        sp_engine_status_free(&es);
    }
    if (f->capacity < 1)
        f->capacity = 1;
    sp_status st = pipe2(f->wake, O_CLOEXEC | O_NONBLOCK) == 0 ? SP_OK : SP_ERR_IO;
    if (st != SP_OK)
        snprintf(err, SP_ERR_LEN, "pipe: %s", strerror(errno));
    if (st == SP_OK)
        st = sp_dmn_q_open(&f->q, f->conninfo, 1, err);
    if (st == SP_OK) /* a live daemon with this node id: this one does not start */
        st = sp_dmn_q_node_lock(f->q, f->name, err);
    if (st == SP_OK)
        st = sp_dmn_q_listen(f->q, err);
    if (st == SP_OK) {
        sp_dmn_farm_refresh(f);
        d->farm = f;
        if (pthread_create(&f->starter, NULL, starter_main, f) == 0)
            f->starter_started = 1;
        if (f->starter_started && pthread_create(&f->worker, NULL, worker_main, f) == 0)
            f->worker_started = 1;
        if (!f->worker_started) {
            snprintf(err, SP_ERR_LEN, "cannot start the farm's threads");
            sp_dmn_farm_stop(d);
            return SP_ERR_NOMEM;
        }
        SP_DMN_LOGI("farm: node %s (instance %s) on %s: up to %d partitions and %llu bytes at once, lease %ld ms, "
                    "poll %ld ms, progress timeout %ld ms", f->name, f->inst, f->desc, f->capacity,
                    (unsigned long long)f->memory, f->lease_ms, f->poll_ms, f->progress_ms);
        return SP_OK;
    }
    farm_free(f);
    return st;
}

void sp_dmn_farm_drain(sp_dmn *d, int cancel)
{
    sp_dmn_farm *f = d->farm;
    if (!f)
        return;
    pthread_mutex_lock(&f->mu);
    f->draining = 1;
    if (cancel) {
        f->cancel_all = 1;
        for (fclaim *fc = f->claims; fc; fc = fc->next)
            if (fc->ej)
                sp_engine_cancel(d->eng, fc->ej);
    }
    pthread_mutex_unlock(&f->mu);
    sp_dmn_farm_wake(f);
}

void sp_dmn_farm_nudge(sp_dmn *d)
{
    if (!d->farm)
        return;
    sp_dmn_farm_wake(d->farm);
    sp_dmn_farm_job_ended(d->farm, 0);
}

size_t sp_dmn_farm_live(sp_dmn *d)
{
    sp_dmn_farm *f = d->farm;
    if (!f)
        return 0;
    pthread_mutex_lock(&f->mu);
    size_t n = 0; /* lost ones are owed to nobody: a drain does not wait for a wedged prover */
    for (fclaim *fc = f->claims; fc; fc = fc->next)
        n += !fc->lost;
    pthread_mutex_unlock(&f->mu);
    return n;
}

void sp_dmn_farm_stop(sp_dmn *d)
{
    sp_dmn_farm *f = d->farm;
    if (!f)
        return;
    sp_dmn_farm_drain(d, 1);
    pthread_mutex_lock(&f->mu);
    f->stopping = 1;
    pthread_cond_broadcast(&f->cv_start);
    pthread_cond_broadcast(&f->cv_done);
    pthread_cond_broadcast(&f->cv_pool);
    pthread_mutex_unlock(&f->mu);
    if (f->starter_started)
        pthread_join(f->starter, NULL);
    pthread_mutex_lock(&f->mu);
    for (fclaim *fc = f->claims; fc; fc = fc->next) /* never started: handed back */
        if (fc->state == FC_STARTING)
            hand_back_locked(fc);
    while (f->n_engine) /* cancelled above; their callbacks settle them */
        pthread_cond_wait(&f->cv_idle, &f->mu);
    pthread_mutex_unlock(&f->mu);
    sp_dmn_farm_wake(f);
    if (f->worker_started)
        pthread_join(f->worker, NULL);
    d->farm = NULL;
    farm_free(f);
}
