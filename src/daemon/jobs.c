/*
 * The daemon's job table (services.h).
 *
 * DESIGN. Each submitted job has a djob entry, found by its job id
 * ("j<n>.<tag>", the tag random per start so ids of an earlier run never
 * name a job of this one) or by the client's request id. The entry owns:
 *   - the engine handle, until the job finishes: jobs_on_done (engine
 *     notifier thread) builds the result JSON, releases the handle, drops
 *     the circuit reference, then marks the entry finished and wakes the
 *     waiters. Witness arrays belong to the engine from submission on.
 *   - the result text, until the entry is reaped: result_ttl after it
 *     finished and when no HTTP thread watches it (watchers).
 * Cancellation calls sp_engine_cancel under jobs.mu while the handle is
 * still set, so it never touches a released handle; the job then finishes
 * through on_done like any other, with status "cancelled". The engine's
 * request id of every job is the daemon's job id, which is how status
 * snapshots and TIMELINE lines are matched back to entries.
 *
 * DURABILITY (state.c). With a state directory, a job is written there
 * (its .wtns files, fsync'ed) before the engine gets it and before the
 * client hears 202; its result replaces that file when it ends. After a
 * crash the jobs without a result run again under their ids, and results
 * still within result_ttl are served again. A request id names one job
 * while the daemon holds it (running, or finished and kept): a client
 * that lost the answer to its submit retries with the same request id
 * and is answered with that job (the same circuit and inputs: their
 * SHA-256 is kept with the job and its result) or 409 (other ones); so no
 * job runs twice.
 * Jobs cancelled by a shutdown (not by their client) keep their file and
 * run after the restart.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "daemon/services.h"
#include "daemon/log.h"
#include "util/clock.h"
#include "util/sha256.h"

#define FINISHED_KEPT_MAX 8192 /* finished entries kept at most, whatever result_ttl says */

static void unlink_locked(djobs *t, djob *j)
{
    if (j->prev)
        j->prev->next = j->next;
    else
        t->head = j->next;
    if (j->next)
        j->next->prev = j->prev;
    else
        t->tail = j->prev;
    t->n--;
}

static void free_inputs(djob *j)
{
    free(j->json);
    free(j->json_in);
    j->json = NULL;
    j->json_in = NULL;
}

static void free_job(djob *j)
{
    free_inputs(j);
    free(j->result);
    free(j);
}

/* ---- the input ---- */

sp_status sp_dmn_jobs_witness(const sp_dmn_ops *ops, sp_fr **w, const uint8_t *data, size_t len, uint32_t n_vars,
                              const char *id, char err[SP_ERR_LEN])
{
    size_t n = 0;
    sp_status st = ops->wtns_parse(w, &n, data, len, err);
    if (st != SP_OK)
        sp_dmn_curve_hint(ops, err, "witness");
    if (st == SP_OK && n != n_vars) {
        snprintf(err, SP_ERR_LEN, "it holds %zu values; circuit '%s' takes %u (its nVars)", n, id, n_vars);
        free(*w);
        st = SP_ERR_FORMAT;
    }
    if (st != SP_OK)
        *w = NULL;
    return st;
}

/* ---- the result ---- */

const char *sp_dmn_jobs_error_code(sp_status st)
{
    switch (st) {
    case SP_ERR_UNSATISFIED: return "unsatisfied";
    case SP_ERR_GPU: return "device_error";
    case SP_ERR_NOMEM: return "out_of_memory";
    case SP_ERR_CANCELLED: return "cancelled";
    case SP_ERR_BAD_ENCODING: return "bad_input"; /* an input.json its circuit's .wasm refused */
    default: return "prove_failed";
    }
}

/* Emits the JSON text (as produced by an encoder) as a value of w. */
static void emit_text(sp_json_writer *w, char *text, size_t len)
{
    sp_json_doc *doc = NULL;
    if (text && sp_json_parse(&doc, text, len, NULL, NULL, 0) == SP_OK)
        sp_json_emit(w, sp_json_root(doc));
    else
        w->failed = 1;
    sp_json_free(doc);
    free(text);
}

void sp_dmn_jobs_proofs_json(const sp_dmn_ops *ops, sp_json_writer *w, const sp_g16_proof *proofs, const sp_fr *pub,
                             size_t n, uint32_t n_public, const char *const *nodes)
{
    sp_jw_key(w, "proofs");
    sp_jw_begin_array(w);
    for (size_t k = 0; k < n; k++) {
        char *text = NULL, b64[SP_DMN_BP_PROOF_BYTES / 3 * 4 + 4];
        size_t len = 0;
        uint8_t bp[SP_DMN_BP_PROOF_BYTES];
        sp_jw_begin_object(w);
        sp_jw_key(w, "partition");
        sp_jw_u64(w, k);
        sp_jw_key(w, "proof");
        if (ops->proof_json(&text, &len, proofs, k) != SP_OK)
            text = NULL;
        emit_text(w, text, len);
        sp_jw_key(w, "public");
        if (ops->public_json(&text, &len, pub, k * n_public, n_public) != SP_OK)
            text = NULL;
        emit_text(w, text, len);
        if (ops->has_bp) { /* bellperson's encoding is BLS12-381's */
            ops->bp_encode(bp, proofs, k);
            sp_dmn_b64_encode(b64, bp, sizeof bp);
            sp_jw_key(w, "bellperson");
            sp_jw_string(w, b64);
        }
        if (nodes) {
            sp_jw_key(w, "node");
            sp_jw_string(w, nodes[k]);
        }
        sp_jw_end_object(w);
    }
    sp_jw_end_array(w);
}

void sp_dmn_jobs_timings_json(sp_json_writer *w, const double *t, int known)
{
    static const char *names[SP_DMN_STAGE_N] = {"queue_wait", "synthesis", "device", "finish", "total"};
    sp_jw_key(w, "timings_ms");
    sp_jw_begin_object(w);
    for (int s = 0; s < SP_DMN_STAGE_N; s++) {
        sp_jw_key(w, names[s]);
        if (known)
            sp_jw_double(w, t[s]);
        else
            sp_jw_number(w, "null");
    }
    sp_jw_end_object(w);
}

void sp_dmn_jobs_json_head(sp_json_writer *w, const djob *j)
{
    sp_jw_key(w, "job_id");
    sp_jw_string(w, j->id);
    if (*j->request_id) {
        sp_jw_key(w, "request_id");
        sp_jw_string(w, j->request_id);
    }
    sp_jw_key(w, "circuit");
    sp_jw_string(w, j->circuit_id);
}

static char *result_json(const djob *j, const sp_engine_result *res, const double t[SP_DMN_STAGE_N], int known,
                         size_t *len)
{
    sp_json_writer w;
    sp_jw_init(&w, 0);
    sp_jw_begin_object(&w);
    sp_dmn_jobs_json_head(&w, j);
    sp_jw_key(&w, "status");
    sp_jw_string(&w, res->status == SP_OK ? "completed" : res->status == SP_ERR_CANCELLED ? "cancelled" : "failed");
    if (res->status != SP_OK) {
        sp_jw_key(&w, "error");
        sp_jw_string(&w, sp_dmn_jobs_error_code(res->status));
        sp_jw_key(&w, "detail");
        sp_jw_string(&w, res->err[0] ? res->err : sp_status_str(res->status));
    }
    sp_jw_key(&w, "partitions");
    sp_jw_u64(&w, res->n_partitions);
    if (res->status == SP_OK) {
        sp_jw_key(&w, "verified");
        sp_jw_bool(&w, res->verified);
        sp_dmn_jobs_proofs_json(j->d->ops, &w, res->proofs, res->public_signals, res->n_partitions, res->n_public,
                                NULL);
    }
    sp_dmn_jobs_timings_json(&w, t, known);
    sp_jw_end_object(&w);
    char *out = NULL;
    if (sp_jw_finish(&out, len, &w) != SP_OK)
        return NULL;
    return out;
}

/* The state directory learns that j ended: its result replaces its inputs.
 * A job cancelled by the shutdown keeps its inputs, to run after the
 * restart. A result that cannot be written leaves the inputs (the job runs
 * again after a restart) and is logged; the client reads it from memory. */
static void record_end(sp_dmn *d, const djob *j, int by_shutdown)
{
    char err[SP_ERR_LEN];
    if (!sp_dmn_state_on(d) || !j->result)
        return;
    if (by_shutdown) {
        SP_DMN_LOGI("job %s: stopped by the shutdown; it runs again after the restart", j->id);
        return;
    }
    if (sp_dmn_state_job_result(d, j, sp_dmn_state_now_unix_ms(), err) == SP_OK)
        sp_dmn_state_job_forget(d, j->id, ".job");
}

/* Engine notifier thread, once per job. */
static void jobs_on_done(void *ctx, sp_engine_job *ej)
{
    djob *j = ctx;
    sp_dmn *d = j->d;
    sp_engine_result res;
    if (!sp_engine_await(d->eng, ej, 0, &res)) { /* cannot happen: the engine calls us once it finished */
        SP_DMN_LOGE("job %s: notified before it finished", j->id);
        return;
    }
    double t[SP_DMN_STAGE_N] = {0};
    int known = sp_dmn_trk_job_timings(d, res.job_seq, 2000, t);
    size_t len = 0;
    char *text = result_json(j, &res, t, known, &len);
    if (!text)
        SP_DMN_LOGE("job %s: out of memory for its result", j->id);
    pthread_mutex_lock(&d->jobs.mu);
    j->ej = NULL; /* from here on, cancel leaves it alone */
    pthread_mutex_unlock(&d->jobs.mu);
    sp_engine_job_release(d->eng, ej);
    free_inputs(j); /* the engine is done with the input.json texts it pointed to */
    /* The circuit reference goes before the entry reads finished, so a
     * client that saw its job finish can evict the circuit at once. */
    sp_dmn_reg_release(d, j->circ, res.status, res.n_partitions);
    if (res.status == SP_OK)
        SP_DMN_LOGI("job %s: completed (%zu proof%s, %.1f ms)", j->id, res.n_partitions, res.n_partitions == 1 ? "" : "s",
                    res.done_ms - res.submit_ms);
    else
        SP_DMN_LOGI("job %s: %s after %.1f ms: %s", j->id, res.status == SP_ERR_CANCELLED ? "cancelled" : "failed",
                    res.done_ms - res.submit_ms, res.err[0] ? res.err : sp_status_str(res.status));
    pthread_mutex_lock(&d->jobs.mu);
    int by_shutdown = res.status == SP_ERR_CANCELLED && !j->client_cancelled && atomic_load(&d->draining);
    j->status = text ? res.status : SP_ERR_NOMEM;
    snprintf(j->err, sizeof j->err, "%s", text ? res.err : "out of memory for the result");
    j->result = text;
    j->result_len = len;
    pthread_mutex_unlock(&d->jobs.mu);
    record_end(d, j, by_shutdown);
    pthread_mutex_lock(&d->jobs.mu);
    j->t_done = sp_dmn_wire_now_ms();
    j->finished = 1;
    j->circ = NULL;
    d->jobs.n_live--;
    pthread_cond_broadcast(&d->jobs.cv);
    pthread_mutex_unlock(&d->jobs.mu);
}

/* ---- submit, find, wait, cancel ---- */

/* SHA-256 of what a job proves: its circuit and each partition's
 * witness values, native input or input.json text (the priority is not
 * part of it). */
static void payload_digest(const sp_dmn_ops *ops, uint8_t out[32], const char *circuit, const job_spec *s,
                           uint32_t n_vars)
{
    sp_sha256_ctx h;
    uint8_t b[32];
    sp_sha256_init(&h);
    sp_sha256_update(&h, circuit, strlen(circuit) + 1);
    for (size_t k = 0; k < s->n; k++) {
        if (s->json_inputs) {
            uint64_t l = s->raw_len[k];
            for (int i = 0; i < 8; i++)
                b[i] = (uint8_t)(l >> (8 * i));
            sp_sha256_update(&h, b, 8);
            sp_sha256_update(&h, s->raw[k], s->raw_len[k]);
            continue;
        }
        if (s->inputs) {
            for (int i = 0; i < 8; i++)
                b[i] = (uint8_t)(s->inputs[k].seed >> (8 * i));
            for (int i = 0; i < 4; i++)
                b[8 + i] = (uint8_t)(s->inputs[k].partition >> (8 * i));
            sp_sha256_update(&h, b, 12);
            continue;
        }
        for (uint32_t i = 0; i < n_vars; i++) {
            ops->fr_to_bytes(b, s->witness[k], i);
            sp_sha256_update(&h, b, 32);
        }
    }
    sp_sha256_final(out, &h);
}

static djob *find_request_locked(djobs *t, const char *rid)
{
    for (djob *j = t->head; j; j = j->next)
        if (!strcmp(j->request_id, rid))
            return j;
    return NULL;
}

static void append_locked(djobs *t, djob *j)
{
    j->prev = t->tail;
    if (t->tail)
        t->tail->next = j;
    else
        t->head = j;
    t->tail = j;
    t->n++;
}

/* Refusals no retry can cure: a 4xx, never 503 + Retry-After (a client
 * that retries on 503 would loop for ever). */
static int never_fits(sp_dmn *d, const dcircuit *c, size_t n, char err[SP_ERR_LEN])
{
    size_t abc = 0, rest = 0;
    if (n > d->cfg.eng.max_partitions) {
        snprintf(err, SP_ERR_LEN, "the job has %zu partitions; this engine holds at most %zu "
                 "(engine.max_partitions): split it", n, d->cfg.eng.max_partitions);
        return 413;
    }
    if (sp_engine_partition_bytes(d->eng, c->id, &abc, &rest) == SP_OK && abc + rest > d->engine_budget) {
        snprintf(err, SP_ERR_LEN, "a partition of '%s' needs %zu bytes, more than the whole engine budget (%zu, "
                 "engine.budget)", c->id, abc + rest, d->engine_budget);
        return 422;
    }
    return 0;
}

/* 1 when client already has max jobs not finished (err says so). */
static int client_full_locked(const djobs *t, const char *client, int max, char err[SP_ERR_LEN])
{
    int n = 0;
    for (const djob *x = t->head; x; x = x->next)
        n += !x->finished && !strcmp(x->client, client);
    if (n < max)
        return 0;
    snprintf(err, SP_ERR_LEN, "this client has %d jobs not finished, the most it may (its max_queued): await some "
             "first", n);
    return 1;
}

/* Under submit_mu: the checks, the id, the state file, the engine. */
static int submit_locked(sp_dmn *d, dcircuit *c, const job_spec *s, int max_queued, djob *j, djob **again,
                         size_t *queue_pos, char err[SP_ERR_LEN])
{
    pthread_mutex_lock(&d->jobs.mu);
    djob *held = *j->request_id ? find_request_locked(&d->jobs, j->request_id) : NULL;
    if (held && held->has_payload && !memcmp(held->payload, j->payload, 32)) { /* a retry: its job, once */
        held->watchers++;
        *again = held;
        pthread_mutex_unlock(&d->jobs.mu);
        return 200;
    }
    if (atomic_load(&d->draining) || held) {
        if (held)
            snprintf(err, SP_ERR_LEN, "request_id '%.40s' names job %.40s (%s), whose circuit or inputs are not "
                     "these; GET /v1/jobs/%.40s reads it", j->request_id, held->id, held->finished ? "finished"
                     : "not finished", j->request_id);
        else
            snprintf(err, SP_ERR_LEN, "the daemon is shutting down and takes no new jobs");
        pthread_mutex_unlock(&d->jobs.mu);
        return held ? 409 : 503;
    }
    if (max_queued > 0 && client_full_locked(&d->jobs, j->client, max_queued, err)) {
        pthread_mutex_unlock(&d->jobs.mu);
        return 429;
    }
    if (s->id)
        snprintf(j->id, sizeof j->id, "%s", s->id);
    else
        snprintf(j->id, sizeof j->id, "j%llu.%s", (unsigned long long)++d->jobs.next_id, d->jobs.tag);
    pthread_mutex_unlock(&d->jobs.mu);
    /* Durable before the engine has it and before the client hears 202. */
    if (!s->id && (s->raw || s->inputs) && sp_dmn_state_job_save(d, j, s->raw, s->raw_len, s->inputs, err) != SP_OK)
        return 500;
    /* The engine copies each input at submit; it takes one pointer per partition. */
    int native = s->inputs || s->json_inputs;
    const void **in = native ? calloc(s->n, sizeof *in) : NULL;
    for (size_t k = 0; in && k < s->n; k++)
        in[k] = s->inputs ? (const void *)&s->inputs[k] : (const void *)&j->json_in[k];
    pthread_mutex_lock(&d->jobs.mu);
    size_t ahead = 0;
    for (djob *x = d->jobs.head; x; x = x->next)
        ahead += !x->finished && x->priority >= j->priority;
    sp_engine_job_desc desc = {c->id, s->n, (sp_fr *const *)s->witness, native ? 0 : c->n_vars, 1, s->priority,
                               j->id, jobs_on_done, j, (const void *const *)in};
    sp_status st = atomic_load(&d->draining) ? SP_ERR_CANCELLED
                 : native && !in ? SP_ERR_NOMEM : sp_engine_submit(d->eng, &desc, &j->ej, err);
    if (st == SP_ERR_NOMEM && native && !in)
        snprintf(err, SP_ERR_LEN, "out of memory");
    if (st == SP_OK) {
        append_locked(&d->jobs, j);
        d->jobs.n_live++;
    } else if (st == SP_ERR_CANCELLED) {
        snprintf(err, SP_ERR_LEN, "the daemon is shutting down and takes no new jobs");
    }
    pthread_mutex_unlock(&d->jobs.mu);
    free(in);
    if (st != SP_OK) {
        if (!s->id)
            sp_dmn_state_job_forget(d, j->id, ".job");
        return st == SP_ERR_NOMEM || st == SP_ERR_CANCELLED ? 503 : 400;
    }
    *queue_pos = ahead;
    return 202;
}

/* A .wasm circuit's job keeps its input.json texts (the engine copies
 * only pointers to them) until it finished. 0, or -1 out of memory. */
static int keep_texts(djob *j, const job_spec *s)
{
    size_t total = 0;
    for (size_t k = 0; k < s->n; k++)
        total += s->raw_len[k];
    j->json = malloc(total + 1);
    j->json_in = calloc(s->n, sizeof *j->json_in);
    if (!j->json || !j->json_in) {
        free_inputs(j);
        return -1;
    }
    for (size_t k = 0, at = 0; k < s->n; at += s->raw_len[k], k++) {
        memcpy(j->json + at, s->raw[k], s->raw_len[k]);
        j->json_in[k] = (sp_dmn_wasm_input){j->json + at, s->raw_len[k]};
    }
    return 0;
}

int sp_dmn_jobs_submit(sp_dmn *d, dcircuit *c, const job_spec *s, djob **out, size_t *queue_pos, char err[SP_ERR_LEN])
{
    return sp_dmn_jobs_submit_for(d, NULL, 0, c, s, out, queue_pos, err);
}

int sp_dmn_jobs_submit_for(sp_dmn *d, const char *client, int max_queued, dcircuit *c, const job_spec *s, djob **out,
                           size_t *queue_pos, char err[SP_ERR_LEN])
{
    *out = NULL;
    if (s->request_id && strlen(s->request_id) > 127) {
        snprintf(err, SP_ERR_LEN, "request_id longer than 127 bytes");
        return 400;
    }
    int code = never_fits(d, c, s->n, err);
    if (code)
        return code;
    djob *j = calloc(1, sizeof *j);
    if (!j) {
        snprintf(err, SP_ERR_LEN, "out of memory");
        return 503;
    }
    j->d = d;
    j->circ = c;
    j->priority = s->priority;
    j->n_parts = s->n;
    j->t_submit = sp_dmn_wire_now_ms();
    j->t_submit_unix = s->id ? s->t_submit_unix : sp_dmn_state_now_unix_ms();
    j->watchers = 1;
    snprintf(j->circuit_id, sizeof j->circuit_id, "%s", c->id);
    snprintf(j->request_id, sizeof j->request_id, "%s", s->request_id ? s->request_id : "");
    snprintf(j->client, sizeof j->client, "%s", client ? client : "");
    payload_digest(d->ops, j->payload, c->id, s, c->n_vars);
    j->has_payload = 1;
    if (s->json_inputs && keep_texts(j, s)) {
        free(j);
        snprintf(err, SP_ERR_LEN, "out of memory");
        return 503;
    }
    pthread_mutex_lock(&d->submit_mu);
    code = submit_locked(d, c, s, max_queued, j, out, queue_pos, err);
    pthread_mutex_unlock(&d->submit_mu);
    if (code != 202) {
        free_job(j);
        return code;
    }
    SP_DMN_LOGI("job %s: submitted (circuit %s, %zu partition%s, priority %d%s%s%s)", j->id, c->id, s->n,
                s->n == 1 ? "" : "s", s->priority, *j->request_id ? ", request_id '" : "",
                *j->request_id ? j->request_id : "", *j->request_id ? "'" : "");
    *out = j;
    return 202;
}

/* A finished entry holding result (taken); the state directory gets it too when record. */
static void add_finished(sp_dmn *d, const char *id, const char *rid, const char *circuit, size_t n_parts,
                         sp_status st, char *result, size_t len, double age_ms, const uint8_t *payload)
{
    djob *j = calloc(1, sizeof *j);
    if (!j) {
        free(result);
        return;
    }
    j->d = d;
    snprintf(j->id, sizeof j->id, "%s", id);
    snprintf(j->request_id, sizeof j->request_id, "%s", rid ? rid : "");
    snprintf(j->circuit_id, sizeof j->circuit_id, "%s", circuit ? circuit : "");
    j->n_parts = n_parts;
    if ((j->has_payload = payload != NULL))
        memcpy(j->payload, payload, 32);
    j->status = st;
    j->result = result;
    j->result_len = len;
    j->finished = 1;
    j->t_done = j->t_submit = sp_dmn_wire_now_ms() - (age_ms > 0 ? age_ms : 0);
    pthread_mutex_lock(&d->jobs.mu);
    append_locked(&d->jobs, j);
    pthread_mutex_unlock(&d->jobs.mu);
}

void sp_dmn_jobs_adopt_result(sp_dmn *d, const char *id, sp_status st, const char *result, size_t len, double age_ms,
                              const uint8_t *payload)
{
    sp_json_doc *doc = NULL;
    char *copy = malloc(len + 1);
    if (!copy || sp_json_parse(&doc, result, len, NULL, NULL, 0) != SP_OK) {
        SP_DMN_LOGE("state: the result of job %s is unreadable; dropped", id);
        sp_dmn_state_job_forget(d, id, ".result");
        free(copy);
        return;
    }
    const sp_json_val *o = sp_json_root(doc), *rid = sp_json_get(o, "request_id"), *c = sp_json_get(o, "circuit"),
                      *np = sp_json_get(o, "partitions");
    memcpy(copy, result, len);
    copy[len] = 0;
    add_finished(d, id, rid && rid->type == SP_JSON_STRING ? rid->text : NULL,
                 c && c->type == SP_JSON_STRING ? c->text : NULL, np && np->type == SP_JSON_NUMBER ?
                 (size_t)strtoull(np->text, NULL, 10) : 0, st, copy, len, age_ms, payload);
    sp_json_free(doc);
}

/* Records restored job rs as failed (why), in the table and the state directory. */
static void restore_failed(sp_dmn *d, const restore_spec *rs, const char *why)
{
    sp_engine_result res;
    memset(&res, 0, sizeof res);
    res.status = SP_ERR_IO;
    res.n_partitions = rs->n;
    snprintf(res.err, sizeof res.err, "after a restart: %.200s", why);
    djob tmp;
    memset(&tmp, 0, sizeof tmp);
    snprintf(tmp.id, sizeof tmp.id, "%s", rs->id);
    snprintf(tmp.request_id, sizeof tmp.request_id, "%s", rs->request_id);
    snprintf(tmp.circuit_id, sizeof tmp.circuit_id, "%s", rs->circuit);
    double t[SP_DMN_STAGE_N] = {0};
    size_t len = 0;
    char *text = result_json(&tmp, &res, t, 0, &len);
    if (!text)
        return;
    SP_DMN_LOGE("job %s: cannot run again: %s", rs->id, why);
    tmp.status = res.status;
    tmp.result = text;
    tmp.result_len = len;
    char err[SP_ERR_LEN];
    if (sp_dmn_state_job_result(d, &tmp, sp_dmn_state_now_unix_ms(), err) == SP_OK)
        sp_dmn_state_job_forget(d, rs->id, ".job");
    add_finished(d, rs->id, rs->request_id, rs->circuit, rs->n, res.status, text, len, 0, NULL);
}

void sp_dmn_jobs_restore(sp_dmn *d, const restore_spec *rs, const char *why_bad)
{
    char err[SP_ERR_LEN] = "";
    dcircuit *c = NULL;
    sp_fr **w = NULL;
    size_t k = 0;
    if (why_bad)
        snprintf(err, sizeof err, "%s", why_bad);
    else if (sp_dmn_reg_acquire(d, rs->circuit, &c, err) != 200)
        c = NULL;
    else if (sp_dmn_reg_takes(c) != (rs->inputs ? SP_DMN_TAKES_SEEDS : rs->json_inputs ? SP_DMN_TAKES_INPUT_JSON
                                                                                        : SP_DMN_TAKES_WITNESS))
        snprintf(err, sizeof err, "circuit '%s' was registered again as another kind (its jobs carry %s now)", c->id,
                 sp_dmn_reg_takes(c) == SP_DMN_TAKES_SEEDS ? "native inputs" : sp_dmn_reg_takes(c) ==
                 SP_DMN_TAKES_INPUT_JSON ? "input.json" : "witnesses");
    else if (!rs->inputs && !rs->json_inputs && (w = calloc(rs->n, sizeof *w)))
        for (k = 0; k < rs->n; k++) {
            char why[SP_ERR_LEN];
            if (sp_dmn_jobs_witness(d->ops, &w[k], rs->w[k], rs->wl[k], c->n_vars, c->id, why) != SP_OK) {
                snprintf(err, sizeof err, "witness %zu: %.200s", k, why);
                break;
            }
        }
    if (c && !err[0] && (rs->inputs || rs->json_inputs || (w && k == rs->n))) {
        job_spec s = {rs->request_id[0] ? rs->request_id : NULL, rs->priority, w, rs->n,
                      rs->json_inputs ? rs->w : NULL, rs->json_inputs ? rs->wl : NULL, rs->id, rs->submitted_ms,
                      rs->inputs, rs->json_inputs};
        djob *j = NULL;
        size_t qpos = 0;
        if (sp_dmn_jobs_submit(d, c, &s, &j, &qpos, err) == 202) {
            SP_DMN_LOGI("job %s: accepted before the restart; queued again (%s, %zu partitions)", j->id, c->id, rs->n);
            sp_dmn_jobs_put(d, j);
            free(w);
            return;
        }
    }
    for (size_t i = 0; w && i < k; i++) /* not taken: parsing stopped at k, or the submit failed */
        free(w[i]);
    free(w);
    if (c)
        sp_dmn_reg_unref(d, c);
    restore_failed(d, rs, err[0] ? err : "it could not be read");
}

int sp_dmn_jobs_get_quiet(sp_dmn *d, const char *id)
{
    pthread_mutex_lock(&d->jobs.mu);
    djob *j = d->jobs.head;
    while (j && strcmp(j->id, id))
        j = j->next;
    pthread_mutex_unlock(&d->jobs.mu);
    return j != NULL;
}

djob *sp_dmn_jobs_get(sp_dmn *d, const char *id)
{
    pthread_mutex_lock(&d->jobs.mu);
    djob *j = d->jobs.head;
    while (j && strcmp(j->id, id))
        j = j->next;
    for (djob *x = d->jobs.tail; !j && x; x = x->prev) /* newest job with that request id */
        if (!strcmp(x->request_id, id))
            j = x;
    if (j)
        j->watchers++;
    pthread_mutex_unlock(&d->jobs.mu);
    return j;
}

void sp_dmn_jobs_put(sp_dmn *d, djob *j)
{
    pthread_mutex_lock(&d->jobs.mu);
    j->watchers--;
    pthread_mutex_unlock(&d->jobs.mu);
}

int sp_dmn_jobs_wait(sp_dmn *d, djob *j, long wait_ms)
{
    struct timespec dl = sp_clock_after(CLOCK_REALTIME, wait_ms);
    pthread_mutex_lock(&d->jobs.mu);
    while (!j->finished && wait_ms > 0 && !atomic_load(&d->stopping))
        if (pthread_cond_timedwait(&d->jobs.cv, &d->jobs.mu, &dl) == ETIMEDOUT)
            break;
    int done = j->finished;
    pthread_mutex_unlock(&d->jobs.mu);
    return done;
}

/* 1 when some partition of the engine job called id has left the queue. */
static int running_in_engine(sp_dmn *d, const char *id)
{
    sp_engine_status st;
    int running = 0;
    if (sp_engine_status_get(d->eng, &st) != SP_OK)
        return 0;
    for (size_t i = 0; i < st.n_jobs; i++)
        if (!strcmp(st.jobs[i].request_id, id))
            for (size_t k = 0; k < st.jobs[i].n_partitions; k++)
                running |= st.jobs[i].parts[k].state != SP_PART_QUEUED;
    sp_engine_status_free(&st);
    return running;
}

int sp_dmn_jobs_cancel(sp_dmn *d, djob *j, int *was_running)
{
    *was_running = 0;
    pthread_mutex_lock(&d->jobs.mu);
    int live = j->ej != NULL;
    if (live) {
        j->client_cancelled = 1;
        *was_running = running_in_engine(d, j->id);
        sp_engine_cancel(d->eng, j->ej);
    }
    pthread_mutex_unlock(&d->jobs.mu);
    if (live)
        SP_DMN_LOGI("job %s: cancel requested (%s)", j->id, *was_running ? "running" : "queued");
    return live;
}

void sp_dmn_jobs_cancel_all(sp_dmn *d)
{
    pthread_mutex_lock(&d->jobs.mu);
    for (djob *j = d->jobs.head; j; j = j->next)
        if (j->ej)
            sp_engine_cancel(d->eng, j->ej);
    pthread_mutex_unlock(&d->jobs.mu);
}

size_t sp_dmn_jobs_live(sp_dmn *d)
{
    pthread_mutex_lock(&d->jobs.mu);
    size_t n = d->jobs.n_live;
    pthread_mutex_unlock(&d->jobs.mu);
    return n;
}

const char *sp_dmn_part_state_name(sp_engine_part_state s)
{
    return s == SP_PART_GPU ? "device" : sp_engine_part_state_str(s);
}

/*
 * Progress. A pending job's "progress" is an estimate from the stages its
 * partitions have reached, not from time (stages differ in length from
 * one circuit and device to the next). Each partition counts:
 *   queued 0, synthesis 5, device_queue 25, device 30 + 55 x the
 *   backend's steps reported / the steps of the last device call that
 *   ended (at most 80), finish 90, done, failed and cancelled 100;
 * the job's percent is their mean (never less than it was answered
 * before), and its stage that of its first partition not finished. A partition on the device is at "device:STEP",
 * STEP the last step the backend reported done ("device" before the first).
 */
static int part_progress(sp_dmn *d, const djob *j, uint32_t k, sp_engine_part_state s, char stage[48])
{
    static const char *const names[] = {"queued", "synthesis", "device_queue", "device", "finish", "done",
                                        "failed", "cancelled"};
    static const int pct[] = {0, 5, 25, 30, 90, 100, 100, 100};
    if ((unsigned)s >= sizeof pct / sizeof pct[0]) {
        snprintf(stage, 48, "unknown");
        return 0;
    }
    snprintf(stage, 48, "%s", names[s]);
    int steps = 0, of = 0;
    char step[24];
    if (s != SP_PART_GPU || !sp_dmn_trk_device_steps(d, j->id, k, &steps, &of, step) || !step[0])
        return pct[s];
    snprintf(stage, 48, "device:%s", step);
    int p = 30 + (of > 0 ? 55 * steps / of : 0);
    return p < 80 ? p : 80;
}

static void progress_json(sp_dmn *d, sp_json_writer *w, djob *j, const sp_engine_job_status *js)
{
    size_t n = js ? js->n_partitions : j->n_parts, done = 0, sum = 0, first = n;
    char stage[48], job_stage[48] = "queued";
    sp_jw_key(w, "progress");
    sp_jw_begin_object(w);
    sp_jw_key(w, "per_partition");
    sp_jw_begin_array(w);
    for (size_t k = 0; js && k < n; k++) {
        sp_engine_part_state s = js->parts[k].state;
        int p = part_progress(d, j, (uint32_t)k, s, stage);
        done += s == SP_PART_DONE;
        sum += (size_t)p;
        if (first == n && s != SP_PART_DONE) {
            first = k;
            snprintf(job_stage, sizeof job_stage, "%s", stage);
        }
        sp_jw_begin_object(w);
        sp_jw_key(w, "stage");
        sp_jw_string(w, stage);
        sp_jw_key(w, "percent");
        sp_jw_u64(w, (uint64_t)p);
        sp_jw_end_object(w);
    }
    sp_jw_end_array(w);
    sp_jw_key(w, "partitions");
    sp_jw_u64(w, n);
    sp_jw_key(w, "partitions_done");
    sp_jw_u64(w, done);
    sp_jw_key(w, "stage");
    sp_jw_string(w, js && first == n ? "done" : job_stage);
    /* an estimate: a later call of another step count must not move it back */
    int pct = js && n ? (int)(sum / n) : 0, seen = atomic_load(&j->percent);
    while (pct > seen && !atomic_compare_exchange_weak(&j->percent, &seen, pct))
        ;
    sp_jw_key(w, "percent");
    sp_jw_u64(w, (uint64_t)(pct > seen ? pct : seen));
    sp_jw_end_object(w);
}

char *sp_dmn_jobs_pending_json(sp_dmn *d, djob *j, size_t *len)
{
    sp_engine_status st;
    int have = sp_engine_status_get(d->eng, &st) == SP_OK;
    const sp_engine_job_status *js = NULL;
    for (size_t i = 0; have && i < st.n_jobs && !js; i++)
        if (!strcmp(st.jobs[i].request_id, j->id))
            js = &st.jobs[i];
    sp_json_writer w;
    sp_jw_init(&w, 0);
    sp_jw_begin_object(&w);
    sp_dmn_jobs_json_head(&w, j);
    sp_jw_key(&w, "status");
    sp_jw_string(&w, "pending");
    sp_jw_key(&w, "age_ms");
    sp_jw_double(&w, sp_dmn_wire_now_ms() - j->t_submit);
    sp_jw_key(&w, "partition_states");
    sp_jw_begin_array(&w);
    for (size_t k = 0; js && k < js->n_partitions; k++)
        sp_jw_string(&w, sp_dmn_part_state_name(js->parts[k].state));
    sp_jw_end_array(&w);
    progress_json(d, &w, j, js);
    sp_jw_end_object(&w);
    if (have)
        sp_engine_status_free(&st);
    char *out = NULL;
    return sp_jw_finish(&out, len, &w) == SP_OK ? out : NULL;
}

void sp_dmn_jobs_tick(sp_dmn *d)
{
    double now = sp_dmn_wire_now_ms();
    long ttl = d->cfg.result_ttl_ms;
    pthread_mutex_lock(&d->jobs.mu);
    size_t finished = d->jobs.n - d->jobs.n_live;
    for (djob *j = d->jobs.head, *next; j; j = next) {
        next = j->next;
        if (!j->finished || j->watchers)
            continue;
        if (now - j->t_done >= (double)ttl || finished > FINISHED_KEPT_MAX) {
            sp_dmn_state_job_forget(d, j->id, ".result");
            unlink_locked(&d->jobs, j);
            free_job(j);
            finished--;
        }
    }
    pthread_mutex_unlock(&d->jobs.mu);
}

void sp_dmn_jobs_free_all(sp_dmn *d)
{
    pthread_mutex_lock(&d->jobs.mu);
    for (djob *j = d->jobs.head, *next; j; j = next) {
        next = j->next;
        free_job(j);
    }
    d->jobs.head = d->jobs.tail = NULL;
    d->jobs.n = d->jobs.n_live = 0;
    pthread_mutex_unlock(&d->jobs.mu);
}
