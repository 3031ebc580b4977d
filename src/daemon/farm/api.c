/*
 * The farm's HTTP side (farm.h): with farm.queue set, POST /v1/jobs and
 * /v1/prove put the job in the shared database (any node that has the
 * circuit proves its partitions), GET and DELETE /v1/jobs/ID read and
 * cancel it there, from any daemon of the farm; /v1/status and /metrics
 * gain the farm's figures. Statements run on the farm's pool of
 * connections (pool.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "daemon/api.h"
#include "daemon/farm/farm.h"
#include "daemon/log.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/sha256.h"

/* ---- submit ---- */

int sp_dmn_farm_lookup(sp_dmn *d, const char *circuit, farm_circuit *out, char err[SP_ERR_LEN])
{
    sp_dmn_farm *f = d->farm;
    memset(out, 0, sizeof *out);
    if (sp_dmn_reg_exists(d, circuit)) {
        const fcirc *c = sp_dmn_farm_circuit(f, circuit, err);
        if (!c)
            return 503; /* registered, but its key cannot be read now */
        snprintf(out->digest, sizeof out->digest, "%s", c->digest);
        out->n_vars = c->n_vars;
        out->n_public = c->n_public;
        out->native = c->native;
        return 200;
    }
    if (strlen(circuit) != SP_DMN_Q_DIGEST_HEX - 1 || strspn(circuit, "0123456789abcdef") != SP_DMN_Q_DIGEST_HEX - 1) {
        snprintf(err, SP_ERR_LEN, "no circuit '%.100s' is registered on this node (name a circuit of the farm by "
                 "its digest, 64 hex digits, on a node without it)", circuit);
        return 404;
    }
    int code = 503;
    for (int again = 0; again < 2 && code == 503; again++) { /* once more on a connection cut meanwhile */
        sp_dmn_queue *q = sp_dmn_farm_conn_get(f, err);
        if (!q)
            return 503;
        code = sp_dmn_q_circuit_get(q, circuit, &out->n_vars, &out->n_public, &out->native, err);
        int cut = !sp_dmn_q_connected(q);
        sp_dmn_farm_conn_put(f, q);
        if (!cut)
            break;
    }
    if (code == 200)
        snprintf(out->digest, sizeof out->digest, "%s", circuit);
    return code;
}

/* What a job proves, as a request_id used again is compared: the
 * circuit by content (nodes name it their own ways) and each input's
 * bytes; not its priority. */
static void payload_digest(uint8_t out[32], const farm_job *j)
{
    sp_sha256_ctx h;
    uint8_t b[8];
    sp_sha256_init(&h);
    sp_sha256_update(&h, "snarkpipe farm job\n", 19);
    sp_sha256_update(&h, j->fc->digest, strlen(j->fc->digest) + 1);
    for (size_t k = 0; k < j->n; k++) {
        for (int i = 0; i < 8; i++)
            b[i] = (uint8_t)((uint64_t)j->input_len[k] >> (8 * i));
        sp_sha256_update(&h, b, 8);
        sp_sha256_update(&h, j->input[k], j->input_len[k]);
    }
    sp_sha256_final(out, &h);
}

int sp_dmn_farm_submit(sp_dmn *d, const farm_job *j, char id[40], uint64_t *ahead, char err[SP_ERR_LEN])
{
    sp_dmn_farm *f = d->farm;
    char client[SP_DMN_CLIENT_LEN];
    uint8_t payload[32];
    snprintf(client, sizeof client, *j->client ? "%s" : "node:%.33s", *j->client ? j->client : f->name);
    payload_digest(payload, j);
    sp_dmn_q_job qj = {j->request_id, payload, j->circuit, j->fc->digest, j->fc->native, j->priority, j->fc->n_public, j->n,
                   j->input, j->input_len, j->expect_pub, f->name, client, j->max_queued,
                   d->cfg.result_ttl_ms, d->cfg.job_deadline_ms};
    sp_dmn_queue *q = sp_dmn_farm_conn_get(f, err);
    if (!q)
        return 503;
    int64_t jid = 0;
    int code = sp_dmn_q_submit(q, &qj, &jid, ahead, err);
    sp_dmn_farm_conn_put(f, q);
    if (code == 202 || code == 200 || code == 409)
        snprintf(id, 40, "f%lld", (long long)jid);
    if (code == 202)
        SP_DMN_LOGD("farm: job f%lld submitted (%s, %zu partitions, priority %d)", (long long)jid, j->circuit, j->n,
                    j->priority);
    return code;
}

/* ---- await, read, cancel ---- */

static const char *state_name(sp_dmn_qj_state s)
{
    return s == SP_DMN_QJ_COMPLETED   ? "completed"
           : s == SP_DMN_QJ_FAILED    ? "failed"
           : s == SP_DMN_QJ_CANCELLED ? "cancelled"
                                      : "pending";
}

static void head(sp_json_writer *w, const sp_dmn_q_jobinfo *in)
{
    char id[32];
    snprintf(id, sizeof id, "f%lld", (long long)in->id);
    sp_jw_key(w, "job_id");
    sp_jw_string(w, id);
    if (*in->request_id) {
        sp_jw_key(w, "request_id");
        sp_jw_string(w, in->request_id);
    }
    sp_jw_key(w, "circuit");
    sp_jw_string(w, in->circuit);
}

/* "attempts": each claim of the job's partitions (sp_dmn_q_attempt). */
static void attempts_json(sp_json_writer *w, const sp_dmn_q_jobinfo *in)
{
    sp_jw_key(w, "attempts");
    sp_jw_begin_array(w);
    for (size_t i = 0; i < in->n_att; i++) {
        const sp_dmn_q_attempt *a = &in->att[i];
        sp_jw_begin_object(w);
        sp_jw_key(w, "partition");
        sp_jw_u64(w, a->idx);
        sp_jw_key(w, "claim");
        sp_jw_u64(w, (uint64_t)a->epoch);
        sp_jw_key(w, "node");
        sp_jw_string(w, a->node);
        sp_jw_key(w, "start_ms");
        sp_jw_double(w, a->start_ms);
        if (a->end_ms >= 0) {
            sp_jw_key(w, "end_ms");
            sp_jw_double(w, a->end_ms);
        }
        sp_jw_key(w, "outcome");
        sp_jw_string(w, *a->outcome ? a->outcome : "running");
        if (*a->error) {
            sp_jw_key(w, "error");
            sp_jw_string(w, a->error);
        }
        sp_jw_end_object(w);
    }
    sp_jw_end_array(w);
}

/* A failed or cancelled job's answer (the result of a completed one is
 * stored whole by its assembler). */
static void ended(sp_json_writer *w, const sp_dmn_q_jobinfo *in)
{
    double t[SP_DMN_STAGE_N] = {0, 0, 0, 0, in->total_ms};
    sp_jw_begin_object(w);
    head(w, in);
    sp_jw_key(w, "status");
    sp_jw_string(w, state_name(in->state));
    sp_jw_key(w, "error");
    sp_jw_string(w, *in->error ? in->error : state_name(in->state));
    sp_jw_key(w, "detail");
    sp_jw_string(w, in->detail);
    sp_jw_key(w, "partitions");
    sp_jw_u64(w, in->n_parts);
    sp_dmn_jobs_timings_json(w, t, 1);
    if (in->att)
        attempts_json(w, in);
    sp_jw_end_object(w);
}

static void pending(sp_json_writer *w, const sp_dmn_q_jobinfo *in)
{
    sp_jw_begin_object(w);
    head(w, in);
    sp_jw_key(w, "status");
    sp_jw_string(w, "pending");
    sp_jw_key(w, "age_ms");
    sp_jw_double(w, in->age_ms);
    sp_jw_key(w, "partitions");
    sp_jw_u64(w, in->n_parts);
    sp_jw_key(w, "partition_states");
    sp_jw_begin_array(w);
    for (size_t k = 0; in->part_state && k < in->n_parts; k++)
        sp_jw_string(w, in->part_state[k]);
    sp_jw_end_array(w);
    sp_jw_key(w, "partition_nodes"); /* who holds or proved each ("" none) */
    sp_jw_begin_array(w);
    for (size_t k = 0; in->part_node && k < in->n_parts; k++)
        sp_jw_string(w, in->part_node[k]);
    sp_jw_end_array(w);
    if (in->att)
        attempts_json(w, in);
    sp_jw_end_object(w);
}

/* One look at job key (with parts, its partitions' states too): 200 with
 * *in, or an HTTP error code (err). */
static int look(sp_dmn_farm *f, const char *key, int parts, int attempts, sp_dmn_q_jobinfo *in, char err[SP_ERR_LEN])
{
    int code = 503;
    for (int again = 0; again < 2 && code == 503; again++) { /* once more on a connection cut meanwhile */
        sp_dmn_queue *q = sp_dmn_farm_conn_get(f, err);
        if (!q)
            return 503;
        code = sp_dmn_q_job_get(q, key, parts, attempts, in, err);
        int cut = !sp_dmn_q_connected(q);
        sp_dmn_farm_conn_put(f, q);
        if (!cut)
            break;
    }
    return code;
}

/* Waits until job id may have ended: its sp_done notification (or one
 * this node's ring lost track of), a poll tick of the worker, poll_ms, or
 * the deadline. *gen: the endings already looked at. */
static void wait_for(sp_dmn_farm *f, int64_t id, uint64_t *gen, double deadline)
{
    double until = sp_dmn_wire_now_ms() + (double)f->poll_ms;
    if (until > deadline)
        until = deadline;
    struct timespec dl = sp_clock_after(CLOCK_REALTIME, (long)(until - sp_dmn_wire_now_ms()) + 1);
    pthread_mutex_lock(&f->mu);
    while (!f->stopping) {
        if (f->done_gen - *gen >= SP_DMN_FARM_DONE_RING)
            break; /* too many endings to tell: look */
        int hit = 0;
        for (uint64_t g = *gen + 1; g <= f->done_gen && !hit; g++)
            hit = f->done_ring[g % SP_DMN_FARM_DONE_RING] == id || f->done_ring[g % SP_DMN_FARM_DONE_RING] == 0;
        *gen = f->done_gen;
        if (hit || pthread_cond_timedwait(&f->cv_done, &f->mu, &dl) != 0)
            break;
    }
    pthread_mutex_unlock(&f->mu);
}

/* A completed job's stored result (an object) with "attempts" added
 * before its closing brace; left as it is when out of memory. */
static void with_attempts(sp_dmn_q_jobinfo *in)
{
    sp_json_writer w;
    sp_jw_init(&w, 0);
    sp_jw_begin_object(&w);
    attempts_json(&w, in);
    sp_jw_end_object(&w);
    size_t n = 0;
    char *a = NULL;
    if (sp_jw_finish(&a, &n, &w) != SP_OK)
        a = NULL;
    size_t end = in->result_len;
    while (end && in->result[end - 1] != '}')
        end--;
    char *b = a && end > 1 && n > 2 ? malloc(end + n) : NULL;
    if (b) { /* result up to its '}', a comma, the attempts object's inside, '}' */
        memcpy(b, in->result, end - 1);
        b[end - 1] = ',';
        memcpy(b + end, a + 1, n - 1);
        b[end + n - 1] = 0;
        free(in->result);
        in->result = b;
        in->result_len = end + n - 1;
    }
    free(a);
}

static void answer(dreq *r, int code, const char *error, const char *err)
{
    if (code == 503)
        sp_dmn_http_header(r, "Retry-After", "1");
    sp_dmn_http_error(r, code, error, "%s", err);
}

void sp_dmn_farm_api_get(sp_dmn *d, dreq *r, const char *key, long wait_ms, int strict)
{
    sp_dmn_farm *f = d->farm;
    char err[SP_ERR_LEN];
    double deadline = sp_dmn_wire_now_ms() + (double)wait_ms;
    sp_dmn_q_jobinfo in;
    int code;
    pthread_mutex_lock(&f->mu);
    uint64_t gen = f->done_gen;
    pthread_mutex_unlock(&f->mu);
    for (;;) {
        code = look(f, key, 0, 0, &in, err);
        if (code != 200 || in.state != SP_DMN_QJ_QUEUED || sp_dmn_wire_now_ms() >= deadline ||
            atomic_load(&d->stopping))
            break;
        int64_t id = in.id;
        sp_dmn_q_jobinfo_free(&in);
        wait_for(f, id, &gen, deadline);
    }
    /* ?attempts=1: with the claims of its partitions (a failed job always) */
    const char *aa = sp_dmn_req_arg(r, "attempts");
    int att = aa && (!strcmp(aa, "1") || !strcmp(aa, "true"));
    if (code == 200 && ((in.state == SP_DMN_QJ_QUEUED && !strict) || att || in.state == SP_DMN_QJ_FAILED)) {
        sp_dmn_q_jobinfo_free(&in); /* looked at again, with its partitions' states or its attempts */
        code = look(f, key, !strict, att || in.state == SP_DMN_QJ_FAILED, &in, err);
    }
    if (code != 200) {
        answer(r, code, code == 404 ? "unknown_job" : "queue_unavailable", err);
        return;
    }
    if (in.state == SP_DMN_QJ_COMPLETED) {
        if (in.att)
            with_attempts(&in);
        sp_dmn_http_send(r, 200, "application/json", in.result, in.result_len);
        in.result = NULL; /* taken */
        sp_dmn_q_jobinfo_free(&in);
        return;
    }
    sp_json_writer w;
    sp_jw_init(&w, 0);
    if (in.state == SP_DMN_QJ_QUEUED) {
        if (strict) { /* prove: the wait ran out */
            sp_jw_begin_object(&w);
            head(&w, &in);
            sp_jw_key(&w, "partitions");
            sp_jw_u64(&w, in.n_parts);
            sp_jw_key(&w, "status");
            sp_jw_string(&w, "pending");
            sp_jw_end_object(&w);
        } else {
            pending(&w, &in);
        }
        code = strict ? 202 : 200;
    } else {
        ended(&w, &in);
        code = !strict ? 200 : in.state == SP_DMN_QJ_CANCELLED ? 409 : !strcmp(in.error, "unsatisfied") ? 422 : 500;
    }
    sp_dmn_q_jobinfo_free(&in);
    sp_dmn_http_send_json(r, code, &w);
}

void sp_dmn_farm_api_cancel(sp_dmn *d, dreq *r, const char *key)
{
    sp_dmn_farm *f = d->farm;
    char err[SP_ERR_LEN];
    sp_dmn_q_jobinfo in;
    int code = look(f, key, 0, 0, &in, err); /* a request id names the job too */
    if (code != 200) {
        answer(r, code, code == 404 ? "unknown_job" : "queue_unavailable", err);
        return;
    }
    int64_t id = in.id;
    sp_dmn_q_jobinfo_free(&in);
    int cancelled = 0, was_running = 0;
    sp_dmn_qj_state st = SP_DMN_QJ_QUEUED;
    code = 503;
    for (int again = 0; again < 2 && code == 503; again++) { /* a repeat finds it cancelled: harmless */
        sp_dmn_queue *q = sp_dmn_farm_conn_get(f, err);
        if (!q)
            break;
        code = sp_dmn_q_cancel(q, id, &cancelled, &was_running, &st, err);
        int cut = !sp_dmn_q_connected(q);
        sp_dmn_farm_conn_put(f, q);
        if (!cut)
            break;
    }
    if (code != 200) {
        answer(r, code, code == 404 ? "unknown_job" : "queue_unavailable", err);
        return;
    }
    if (cancelled)
        SP_DMN_LOGI("farm: job f%lld: cancel requested (%s)", (long long)id, was_running ? "running" : "queued");
    char jid[32];
    snprintf(jid, sizeof jid, "f%lld", (long long)id);
    sp_json_writer w;
    sp_jw_init(&w, 0);
    sp_jw_begin_object(&w);
    sp_jw_key(&w, "job_id");
    sp_jw_string(&w, jid);
    sp_jw_key(&w, "cancelled");
    sp_jw_bool(&w, cancelled);
    sp_jw_key(&w, "was_running");
    sp_jw_bool(&w, was_running);
    sp_jw_key(&w, "status");
    sp_jw_string(&w, state_name(st));
    sp_jw_end_object(&w);
    sp_dmn_http_send_json(r, 200, &w);
}

/* ---- status and metrics ---- */

int sp_dmn_farm_connected(sp_dmn *d)
{
    sp_dmn_farm *f = d->farm;
    if (!f)
        return -1;
    pthread_mutex_lock(&f->mu);
    int c = f->connected;
    pthread_mutex_unlock(&f->mu);
    return c;
}

typedef struct {
    int connected;
    size_t claims, engine;
    uint64_t claimed, stored, fenced, released, failed, lost, assembled, rejected, db_errors, node_restarts;
    uint64_t stalled, overran, reaped;
    double wk_ms, http_ms;    /* statement time: the worker's (proving), the HTTP side's (clients) */
    uint64_t wk_calls, http_calls, reconnects;
} farm_figures;

static void figures(sp_dmn_farm *f, farm_figures *x)
{
    pthread_mutex_lock(&f->mu);
    *x = (farm_figures){f->connected, f->n_claims, f->n_engine, f->claimed, f->stored, f->fenced, f->released,
                        f->failed, f->lost, f->assembled, f->rejected, f->db_errors, f->node_restarts, f->stalled,
                        f->overran, f->reaped, f->wk_ms, f->http_ms, f->wk_calls, f->http_calls,
                        f->wk_reconnects + f->http_reconnects};
    pthread_mutex_unlock(&f->mu);
}

void sp_dmn_farm_status_json(sp_dmn *d, sp_json_writer *w)
{
    sp_dmn_farm *f = d->farm;
    if (!f)
        return;
    farm_figures x;
    figures(f, &x);
    sp_jw_key(w, "farm");
    sp_jw_begin_object(w);
    sp_jw_key(w, "node");
    sp_jw_string(w, f->name);
    sp_jw_key(w, "instance");
    sp_jw_string(w, f->inst);
    sp_jw_key(w, "queue");
    sp_jw_string(w, f->desc);
    sp_jw_key(w, "connected");
    sp_jw_bool(w, x.connected);
    sp_jw_key(w, "capacity");
    sp_jw_u64(w, (uint64_t)f->capacity);
    sp_jw_key(w, "claims_held");
    sp_jw_u64(w, x.claims);
    sp_jw_key(w, "memory");
    sp_jw_u64(w, f->memory);
    static const char *names[] = {"claimed", "stored", "fenced", "released", "failed", "lost", "assembled",
                                  "rejected_at_assembly", "db_errors", "db_reconnects", "db_statements_worker",
                                  "db_statements_http", "stalled", "over_max_run", "reaped"};
    uint64_t v[] = {x.claimed, x.stored, x.fenced, x.released, x.failed, x.lost, x.assembled, x.rejected,
                    x.db_errors, x.reconnects, x.wk_calls, x.http_calls, x.stalled, x.overran, x.reaped};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        sp_jw_key(w, names[i]);
        sp_jw_u64(w, v[i]);
    }
    sp_jw_key(w, "db_ms_worker");
    sp_jw_double(w, x.wk_ms);
    sp_jw_key(w, "db_ms_http");
    sp_jw_double(w, x.http_ms);
    sp_jw_key(w, "circuits");
    sp_jw_begin_array(w);
    pthread_mutex_lock(&f->mu);
    for (const fcirc *c = f->circs; c; c = c->next)
        if (!c->gone) {
            sp_jw_begin_object(w);
            sp_jw_key(w, "id");
            sp_jw_string(w, c->id);
            sp_jw_key(w, "digest");
            sp_jw_string(w, c->digest);
            sp_jw_key(w, "partition_bytes"); /* its weight against farm.memory (0: not known yet) */
            sp_jw_u64(w, c->part_bytes);
            sp_jw_end_object(w);
        }
    pthread_mutex_unlock(&f->mu);
    sp_jw_end_array(w);
    sp_jw_end_object(w);
}

void sp_dmn_farm_metrics(sp_dmn *d, char **b, size_t *len, size_t *cap)
{
    sp_dmn_farm *f = d->farm;
    if (!f)
        return;
    farm_figures x;
    figures(f, &x);
    sp_buf_printf(b, len, cap, "# HELP snarkpipe_farm_connected 1 while the farm's queue database is reachable.\n"
                  "# TYPE snarkpipe_farm_connected gauge\nsnarkpipe_farm_connected %d\n"
                  "# HELP snarkpipe_farm_claims_held Partitions this node holds a claim on.\n"
                  "# TYPE snarkpipe_farm_claims_held gauge\nsnarkpipe_farm_claims_held %zu\n",
                  x.connected, x.claims);
    static const char *const what[][2] = {
        {"claims", "Partitions claimed."},
        {"proofs_stored", "Proofs stored (verified, under a claim still held)."},
        {"proofs_fenced", "Proofs dropped: their claim had been taken over (the partition was proved elsewhere)."},
        {"partitions_released", "Claims handed back to the queue (a failure here, or a shutdown)."},
        {"partitions_failed", "Partitions failed for good here (their input is bad)."},
        {"claims_lost", "Claims found taken over or cancelled, their work dropped."},
        {"jobs_assembled", "Jobs completed by this node (every proof verified again)."},
        {"proofs_rejected", "Assemblies that found stored proofs that do not verify (queued again)."},
        {"db_errors", "Failed database operations of the worker."},
        {"db_reconnects", "Reconnections to the database."},
        {"claims_stalled", "Claims given up: no progress within farm.progress_timeout."},
        {"claims_over_max_run", "Claims given up: running past farm.max_run."},
        {"claims_reaped", "Claims of other nodes (lease ran out, node gone) queued again by this node."}};
    uint64_t v[] = {x.claimed, x.stored, x.fenced, x.released, x.failed, x.lost, x.assembled, x.rejected,
                    x.db_errors, x.reconnects, x.stalled, x.overran, x.reaped};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        sp_buf_printf(b, len, cap, "# HELP snarkpipe_farm_%s_total %s\n# TYPE snarkpipe_farm_%s_total counter\n"
                      "snarkpipe_farm_%s_total %llu\n", what[i][0], what[i][1], what[i][0], what[i][0],
                      (unsigned long long)v[i]);
    sp_buf_printf(b, len, cap, "# HELP snarkpipe_farm_db_seconds_total Time in database statements: side=worker "
                  "(claims, proofs, leases, assembly), side=http (submit, await, cancel).\n"
                  "# TYPE snarkpipe_farm_db_seconds_total counter\n"
                  "snarkpipe_farm_db_seconds_total{side=\"worker\"} %.6f\nsnarkpipe_farm_db_seconds_total{side=\"http\"} "
                  "%.6f\n# HELP snarkpipe_farm_db_statements_total Database statements, by side.\n"
                  "# TYPE snarkpipe_farm_db_statements_total counter\n"
                  "snarkpipe_farm_db_statements_total{side=\"worker\"} %llu\n"
                  "snarkpipe_farm_db_statements_total{side=\"http\"} %llu\n", x.wk_ms / 1e3, x.http_ms / 1e3,
                  (unsigned long long)x.wk_calls, (unsigned long long)x.http_calls);
}
