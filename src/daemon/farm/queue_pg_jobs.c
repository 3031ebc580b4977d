/*
 * The farm's queue on PostgreSQL, continued (queue.h has the model,
 * queue_pg.h the statement helpers): jobs (submit, read, cancel),
 * partitions (claim, heartbeat, store, release), assembly, housekeeping
 * and notifications.
 */
#ifdef SP_WITH_PQ

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "daemon/farm/queue_pg.h"

#define TEXT_OF_(x) #x
#define TEXT_OF(x) TEXT_OF_(x)

/* ---- circuits ---- */

sp_status sp_dmn_q_circuit_put(sp_dmn_queue *q, const char *digest, const char *name, uint32_t n_vars,
                               uint32_t n_public, int native, char err[SP_ERR_LEN])
{
    qp p = {0};
    sp_dmn_qpg_text(&p, digest);
    sp_dmn_qpg_text(&p, name);
    sp_dmn_qpg_i64(&p, n_vars);
    sp_dmn_qpg_i64(&p, n_public);
    sp_dmn_qpg_text(&p, native ? "t" : "f");
    return sp_dmn_qpg_exec(q, "INSERT INTO sp_circuits (digest, name, n_vars, n_public, native)"
                          " VALUES ($1, $2, $3, $4, $5::boolean) ON CONFLICT (digest) DO NOTHING", &p, err);
}

int sp_dmn_q_circuit_get(sp_dmn_queue *q, const char *digest, uint32_t *n_vars, uint32_t *n_public, int *native,
                         char err[SP_ERR_LEN])
{
    qp p = {0};
    sp_dmn_qpg_text(&p, digest);
    PGresult *r = sp_dmn_qpg_query(q, "SELECT n_vars, n_public, native FROM sp_circuits WHERE digest = $1", &p, 0, err);
    if (!r)
        return sp_dmn_qpg_broken(q) ? 503 : 500;
    int found = PQntuples(r) == 1;
    if (found) {
        *n_vars = (uint32_t)sp_dmn_qpg_ll(r, 0, 0);
        *n_public = (uint32_t)sp_dmn_qpg_ll(r, 0, 1);
        *native = !strcmp(PQgetvalue(r, 0, 2), "t");
    } else {
        snprintf(err, SP_ERR_LEN, "no node of the farm has recorded a circuit of digest %.64s", digest);
    }
    PQclear(r);
    return found ? 200 : 404;
}

/* ---- jobs ---- */

/* Inside the submit's transaction: 429 when job's client already has
 * max_queued jobs queued, else 0 (503/500 on a database error). The
 * client's lock makes concurrent submits of one client count in turn. */
static int client_room(sp_dmn_queue *q, const sp_dmn_q_job *job, char err[SP_ERR_LEN])
{
    qp p = {0};
    sp_dmn_qpg_text(&p, job->client ? job->client : "");
    sp_dmn_qpg_i64(&p, job->max_queued);
    PGresult *r = sp_dmn_qpg_query(q, "SELECT pg_advisory_xact_lock(716513122, hashtext($1)),"
                                  " (SELECT count(*) FROM (SELECT 1 FROM sp_jobs WHERE client = $1 AND state = 'queued'"
                                  " LIMIT $2) s)", &p, 0, err);
    if (!r)
        return sp_dmn_qpg_broken(q) ? 503 : 500;
    long long n = sp_dmn_qpg_ll(r, 0, 1);
    PQclear(r);
    if (n < job->max_queued)
        return 0;
    snprintf(err, SP_ERR_LEN, "this client has %lld jobs queued in the farm, the most it may (farm.max_queued_per_client):"
             " await some first", n);
    return 429;
}

/* Outside a transaction: the job job->request_id names, compared with
 * job->payload: 200 (the same: *id), 409 (another: *id, err), 0 (none
 * kept), 503/500 on a database error. */
static int same_request(sp_dmn_queue *q, const sp_dmn_q_job *job, int64_t *id, char err[SP_ERR_LEN])
{
    qp k = {0};
    sp_dmn_qpg_text(&k, job->request_id);
    sp_dmn_qpg_bin(&k, job->payload, 32);
    PGresult *r = sp_dmn_qpg_query(q, "SELECT id, COALESCE(payload = $2, false), state FROM sp_jobs"
                                  " WHERE request_id = $1", &k, 0, err);
    if (!r)
        return sp_dmn_qpg_broken(q) ? 503 : 500;
    int code = 0;
    if (PQntuples(r) == 1) {
        *id = sp_dmn_qpg_ll(r, 0, 0);
        code = !strcmp(PQgetvalue(r, 0, 1), "t") ? 200 : 409;
        if (code == 409)
            snprintf(err, SP_ERR_LEN, "request_id '%.40s' names job f%lld (%s), whose circuit or inputs are not these;"
                     " GET /v1/jobs/%.40s reads it", job->request_id, (long long)*id,
                     strcmp(PQgetvalue(r, 0, 2), "queued") ? "finished" : "not finished", job->request_id);
    }
    PQclear(r);
    return code;
}

int sp_dmn_q_submit(sp_dmn_queue *q, const sp_dmn_q_job *job, int64_t *id, uint64_t *ahead, char err[SP_ERR_LEN])
{
    *id = 0;
    *ahead = 0;
    int have_rid = job->request_id && *job->request_id;
    if (sp_dmn_qpg_exec(q, "BEGIN", NULL, err) != SP_OK)
        return sp_dmn_qpg_broken(q) ? 503 : 500;
    int code = job->max_queued > 0 ? client_room(q, job, err) : 0;
    if (code) {
        sp_dmn_qpg_rollback(q);
        /* a client at its limit that sends a job again gets that job */
        int same = code == 429 && have_rid ? same_request(q, job, id, err) : 0;
        return same ? same : code;
    }
    qp p = {0};
    sp_dmn_qpg_text(&p, have_rid ? job->request_id : NULL);
    sp_dmn_qpg_text(&p, job->digest);
    sp_dmn_qpg_text(&p, job->circuit);
    sp_dmn_qpg_text(&p, job->native ? "t" : "f");
    sp_dmn_qpg_i64(&p, job->n_public);
    sp_dmn_qpg_i64(&p, job->priority);
    sp_dmn_qpg_i64(&p, (int64_t)job->n);
    sp_dmn_qpg_text(&p, job->node);
    sp_dmn_qpg_text(&p, job->client ? job->client : "");
    sp_dmn_qpg_i64(&p, job->keep_ms);
    sp_dmn_qpg_i64(&p, job->deadline_ms);
    sp_dmn_qpg_bin(&p, job->payload, 32);
    PGresult *r = sp_dmn_qpg_query(q, "INSERT INTO sp_jobs (request_id, circuit_digest, circuit_name, native, n_public, priority,"
                           " n_parts, n_left, submitted_by, client, keep_ms, deadline_at, payload)"
                           " VALUES ($1, $2, $3, $4::boolean, $5, $6, $7, $7, $8, $9, $10,"
                           " CASE WHEN $11::bigint > 0 THEN now() + $11::bigint * interval '1 millisecond' END, $12)"
                           " RETURNING id", &p, 0, err);
    if (!r) {
        int dup = !strcmp(q->sqlstate, "23505");
        sp_dmn_qpg_rollback(q);
        if (!dup)
            return sp_dmn_qpg_broken(q) ? 503 : 500;
        /* the row that won is committed: the unique index waited for it */
        code = same_request(q, job, id, err);
        if (!code)
            snprintf(err, SP_ERR_LEN, "request_id '%.60s' names a job that went meanwhile: submit again", job->request_id);
        return code ? code : 503;
    }
    int64_t jid = sp_dmn_qpg_ll(r, 0, 0);
    PQclear(r);
    sp_status st = SP_OK;
    for (size_t k = 0; k < job->n && st == SP_OK; k++) {
        qp a = {0};
        sp_dmn_qpg_i64(&a, jid);
        sp_dmn_qpg_i64(&a, (int64_t)k);
        sp_dmn_qpg_text(&a, job->digest);
        sp_dmn_qpg_i64(&a, job->priority);
        sp_dmn_qpg_bin(&a, job->input[k], job->input_len[k]);
        if (job->expect_pub)
            sp_dmn_qpg_bin(&a, job->expect_pub[k], (size_t)job->n_public * 32);
        else
            sp_dmn_qpg_text(&a, NULL);
        st = sp_dmn_qpg_exec(q, "INSERT INTO sp_parts (job_id, idx, circuit_digest, priority, input, expect_pub)"
                     " VALUES ($1, $2, $3, $4, $5, $6)", &a, err);
    }
    qp w = {0};
    sp_dmn_qpg_i64(&w, jid);
    sp_dmn_qpg_i64(&w, job->priority);
    sp_dmn_qpg_text(&w, job->digest);
    /* counted up to SP_DMN_Q_AHEAD_MAX, so that a submit stays cheap behind any backlog */
    r = st == SP_OK ? sp_dmn_qpg_query(q, "SELECT (SELECT count(*) FROM (SELECT 1 FROM sp_jobs WHERE state = 'queued'"
                               " AND priority >= $2 AND id < $1 LIMIT " TEXT_OF(SP_DMN_Q_AHEAD_MAX) ") a),"
                               " pg_notify('sp_work', $3)", &w, 0, err) : NULL;
    if (r)
        *ahead = (uint64_t)sp_dmn_qpg_ll(r, 0, 0);
    PQclear(r);
    if (!r || sp_dmn_qpg_exec(q, "COMMIT", NULL, err) != SP_OK) {
        sp_dmn_qpg_rollback(q);
        return sp_dmn_qpg_broken(q) ? 503 : 500;
    }
    *id = jid;
    return 202;
}

static sp_dmn_qj_state state_of(const char *s)
{
    return !strcmp(s, "completed") ? SP_DMN_QJ_COMPLETED : !strcmp(s, "failed") ? SP_DMN_QJ_FAILED
         : !strcmp(s, "cancelled") ? SP_DMN_QJ_CANCELLED : SP_DMN_QJ_QUEUED;
}

/* 1 and *id when key is "f<digits>". */
static int job_number(const char *key, int64_t *id)
{
    if (key[0] != 'f' || !key[1] || strspn(key + 1, "0123456789") != strlen(key + 1) || strlen(key) > 19)
        return 0;
    *id = atoll(key + 1);
    return 1;
}

static int parts_of(sp_dmn_queue *q, sp_dmn_q_jobinfo *in, char err[SP_ERR_LEN])
{
    qp p = {0};
    sp_dmn_qpg_i64(&p, in->id);
    PGresult *r = sp_dmn_qpg_query(q, "SELECT state, split_part(COALESCE(CASE WHEN state = 'done' THEN proved_by ELSE claimed_by"
                           " END, ''), '/', 1) FROM sp_parts WHERE job_id = $1 ORDER BY idx", &p, 0, err);
    if (!r)
        return sp_dmn_qpg_broken(q) ? 503 : 500;
    size_t n = (size_t)PQntuples(r), m = n > in->n_parts ? n : in->n_parts;
    in->part_state = calloc(m ? m : 1, sizeof *in->part_state);
    in->part_node = calloc(m ? m : 1, sizeof *in->part_node);
    if (!in->part_state || !in->part_node) {
        PQclear(r);
        snprintf(err, SP_ERR_LEN, "out of memory");
        return 503;
    }
    for (size_t k = 0; k < n && k < in->n_parts; k++) {
        snprintf(in->part_state[k], sizeof in->part_state[k], "%s", PQgetvalue(r, (int)k, 0));
        snprintf(in->part_node[k], sizeof in->part_node[k], "%s", PQgetvalue(r, (int)k, 1));
    }
    PQclear(r);
    return 200;
}

/* The job's attempts, the latest SP_DMN_Q_MAX_ATTEMPTS_SHOWN, oldest first. */
static int attempts_of(sp_dmn_queue *q, sp_dmn_q_jobinfo *in, char err[SP_ERR_LEN])
{
    qp p = {0};
    sp_dmn_qpg_i64(&p, in->id);
    sp_dmn_qpg_i64(&p, SP_DMN_Q_MAX_ATTEMPTS_SHOWN);
    PGresult *r = sp_dmn_qpg_query(q, "SELECT * FROM (SELECT a.idx, a.epoch, a.node,"
        " (extract(epoch FROM a.started_at - j.submitted_at) * 1000)::float8,"
        " COALESCE((extract(epoch FROM a.ended_at - j.submitted_at) * 1000)::float8, -1), a.outcome, a.error"
        " FROM sp_attempts a JOIN sp_jobs j ON j.id = a.job_id WHERE a.job_id = $1"
        " ORDER BY a.started_at DESC, a.idx DESC LIMIT $2) t ORDER BY 4, 1", &p, 0, err);
    if (!r)
        return sp_dmn_qpg_broken(q) ? 503 : 500;
    size_t n = (size_t)PQntuples(r);
    in->att = calloc(n ? n : 1, sizeof *in->att);
    if (!in->att) {
        PQclear(r);
        snprintf(err, SP_ERR_LEN, "out of memory");
        return 503;
    }
    for (size_t k = 0; k < n; k++) {
        sp_dmn_q_attempt *a = &in->att[k];
        int row = (int)k;
        a->idx = (uint32_t)sp_dmn_qpg_ll(r, row, 0);
        a->epoch = sp_dmn_qpg_ll(r, row, 1);
        snprintf(a->node, sizeof a->node, "%s", PQgetvalue(r, row, 2));
        a->start_ms = atof(PQgetvalue(r, row, 3));
        a->end_ms = atof(PQgetvalue(r, row, 4));
        snprintf(a->outcome, sizeof a->outcome, "%s", PQgetvalue(r, row, 5));
        snprintf(a->error, sizeof a->error, "%s", PQgetvalue(r, row, 6));
    }
    in->n_att = n;
    PQclear(r);
    return 200;
}

int sp_dmn_q_job_get(sp_dmn_queue *q, const char *key, int parts, int attempts, sp_dmn_q_jobinfo *in,
                     char err[SP_ERR_LEN])
{
    memset(in, 0, sizeof *in);
    int64_t id = 0;
    qp p = {0};
    sp_dmn_qpg_text(&p, key);
    sp_dmn_qpg_i64(&p, job_number(key, &id) ? id : -1);
    /* a job id first, then a request id (as the single daemon looks them up) */
    PGresult *r = sp_dmn_qpg_query(q, "SELECT id, COALESCE(request_id, ''), circuit_name, state, n_parts,"
                                  " COALESCE(error, ''), COALESCE(detail, ''), result,"
                                  " (extract(epoch FROM now() - submitted_at) * 1000)::float8,"
                                  " COALESCE((extract(epoch FROM finished_at - submitted_at) * 1000)::float8, 0)"
                                  " FROM sp_jobs WHERE id = $2 OR request_id = $1 ORDER BY id = $2 DESC LIMIT 1",
                               &p, 0, err);
    if (!r)
        return sp_dmn_qpg_broken(q) ? 503 : 500;
    if (!PQntuples(r)) {
        PQclear(r);
        snprintf(err, SP_ERR_LEN, "no job '%.100s' (finished jobs are kept for server.result_ttl)", key);
        return 404;
    }
    in->id = sp_dmn_qpg_ll(r, 0, 0);
    snprintf(in->request_id, sizeof in->request_id, "%s", PQgetvalue(r, 0, 1));
    snprintf(in->circuit, sizeof in->circuit, "%s", PQgetvalue(r, 0, 2));
    in->state = state_of(PQgetvalue(r, 0, 3));
    in->n_parts = (size_t)sp_dmn_qpg_ll(r, 0, 4);
    snprintf(in->error, sizeof in->error, "%s", PQgetvalue(r, 0, 5));
    snprintf(in->detail, sizeof in->detail, "%s", PQgetvalue(r, 0, 6));
    in->age_ms = atof(PQgetvalue(r, 0, 8));
    in->total_ms = atof(PQgetvalue(r, 0, 9));
    if (!PQgetisnull(r, 0, 7)) {
        in->result_len = (size_t)PQgetlength(r, 0, 7);
        in->result = malloc(in->result_len + 1);
        if (in->result)
            memcpy(in->result, PQgetvalue(r, 0, 7), in->result_len + 1);
    }
    PQclear(r);
    if (in->state == SP_DMN_QJ_COMPLETED && !in->result) {
        snprintf(err, SP_ERR_LEN, "out of memory for the result of job f%lld", (long long)in->id);
        sp_dmn_q_jobinfo_free(in);
        return 503;
    }
    int code = parts && in->state == SP_DMN_QJ_QUEUED ? parts_of(q, in, err) : 200;
    if (code == 200 && attempts)
        code = attempts_of(q, in, err);
    if (code != 200)
        sp_dmn_q_jobinfo_free(in);
    return code;
}

void sp_dmn_q_jobinfo_free(sp_dmn_q_jobinfo *in)
{
    free(in->result);
    free(in->part_state);
    free(in->part_node);
    free(in->att);
    in->att = NULL;
    in->n_att = 0;
    in->result = NULL;
    in->part_state = NULL;
    in->part_node = NULL;
}

int sp_dmn_q_cancel(sp_dmn_queue *q, int64_t id, int *cancelled, int *was_running, sp_dmn_qj_state *state,
                    char err[SP_ERR_LEN])
{
    *cancelled = *was_running = 0;
    qp p = {0};
    sp_dmn_qpg_i64(&p, id);
    PGresult *r = sp_dmn_qpg_query(q,
        "WITH j AS (UPDATE sp_jobs SET state = 'cancelled', error = 'cancelled', detail = 'cancelled by a client',"
        "  finished_at = now() WHERE id = $1 AND state = 'queued' RETURNING id),"
        " c AS (UPDATE sp_parts SET state = 'cancelled' WHERE job_id IN (SELECT id FROM j)"
        "  AND state IN ('queued', 'claimed') RETURNING 1),"
        " a AS (UPDATE sp_attempts SET ended_at = now(), outcome = 'cancelled' WHERE job_id IN (SELECT id FROM j)"
        "  AND ended_at IS NULL RETURNING 1)"
        " SELECT (SELECT count(*) FROM j), (SELECT count(*) FROM sp_parts WHERE job_id = $1"
        "  AND state IN ('claimed', 'done')), (SELECT state FROM sp_jobs WHERE id = $1), (SELECT count(*) FROM c),"
        "  (SELECT count(*) FROM (SELECT pg_notify('sp_done', 'f' || id), pg_notify('sp_cancel', 'f' || id) FROM j) n)",
        &p, 0, err);
    if (!r)
        return sp_dmn_qpg_broken(q) ? 503 : 500;
    int found = !PQgetisnull(r, 0, 2);
    *cancelled = sp_dmn_qpg_ll(r, 0, 0) > 0;
    *was_running = sp_dmn_qpg_ll(r, 0, 1) > 0;
    *state = *cancelled ? SP_DMN_QJ_CANCELLED : found ? state_of(PQgetvalue(r, 0, 2)) : SP_DMN_QJ_QUEUED;
    PQclear(r);
    if (!found) {
        snprintf(err, SP_ERR_LEN, "no job 'f%lld'", (long long)id);
        return 404;
    }
    return 200;
}

/* ---- partitions ---- */

/* A claimed partition that nobody holds any more: its lease ran out, or
 * its instance is gone or unknown (a hostile or stale row). $L is the
 * lease in ms. */
#define NOT_HELD(L)                                                                                     \
    "(p.lease_until IS NULL OR p.lease_until < now() OR NOT EXISTS (SELECT 1 FROM sp_nodes n"          \
    " WHERE n.instance = p.claimed_by AND n.last_seen > now() - " L "::bigint * interval '1 millisecond'))"

/* Each digest's queued partitions are read from the partial index
 * sp_parts_queue in the claim's order (an index scan stopping after max
 * unlocked rows, never a sort of the queue); the best max of those whose
 * memory fits are claimed. */
static const char CLAIM_SQL[] =
    "WITH d AS (SELECT * FROM unnest($2::text[], $6::bigint[]) AS d(digest, bytes)),"
    " c AS (SELECT x.job_id, x.idx, x.priority, d.bytes FROM d CROSS JOIN LATERAL"
    "  (SELECT p.job_id, p.idx, p.priority FROM sp_parts p WHERE p.circuit_digest = d.digest AND p.state = 'queued'"
    "   AND p.attempts < $5 ORDER BY p.priority DESC, p.job_id, p.idx LIMIT $3 FOR UPDATE SKIP LOCKED) x),"
    " k AS (SELECT job_id, idx FROM (SELECT job_id, idx, sum(bytes) OVER w AS run, row_number() OVER w AS nth FROM c"
    "  WINDOW w AS (ORDER BY priority DESC, job_id, idx ROWS UNBOUNDED PRECEDING)) s WHERE run <= $7 AND nth <= $3),"
    " u AS (UPDATE sp_parts p SET state = 'claimed', claimed_by = $1, epoch = p.epoch + 1, attempts = p.attempts + 1,"
    "  lease_until = now() + $4::bigint * interval '1 millisecond', claimed_at = now(),"
    "  first_claim = COALESCE(p.first_claim, now())"
    "  FROM k WHERE p.job_id = k.job_id AND p.idx = k.idx"
    "  RETURNING p.job_id, p.idx, p.epoch, p.attempts, p.circuit_digest, p.input, p.expect_pub),"
    " a AS (INSERT INTO sp_attempts (job_id, idx, epoch, node) SELECT job_id, idx, epoch, $1 FROM u)"
    " SELECT job_id, idx, epoch, attempts, circuit_digest, input, expect_pub FROM u";

/* "{a,b,...}" of n unsigned integers. */
static char *u64_array(const uint64_t *v, size_t n)
{
    size_t cap = n * 22 + 3, len = 0;
    char *b = malloc(cap);
    if (!b)
        return NULL;
    b[len++] = '{';
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(b + len, cap - len, "%s%llu", i ? "," : "",
                                (unsigned long long)(v[i] > INT64_MAX ? INT64_MAX : v[i]));
    snprintf(b + len, cap - len, "}");
    return b;
}

sp_status sp_dmn_q_claim_parts(sp_dmn_queue *q, const char *inst, const char *const *dig, const uint64_t *bytes,
                               size_t n_dig, size_t max, uint64_t room_bytes, long lease_ms, int max_attempts,
                               sp_dmn_q_claim **out, size_t *n, char err[SP_ERR_LEN])
{
    *out = NULL;
    *n = 0;
    if (!max || !n_dig)
        return SP_OK;
    char *digs = sp_dmn_qpg_digests(dig, n_dig, err), *b = digs ? u64_array(bytes, n_dig) : NULL;
    if (!b) {
        free(digs);
        if (digs)
            snprintf(err, SP_ERR_LEN, "out of memory");
        return digs ? SP_ERR_NOMEM : SP_ERR_INVALID_ARG;
    }
    qp p = {0};
    sp_dmn_qpg_text(&p, inst);
    sp_dmn_qpg_text(&p, digs);
    sp_dmn_qpg_i64(&p, (int64_t)max);
    sp_dmn_qpg_i64(&p, lease_ms);
    sp_dmn_qpg_i64(&p, max_attempts);
    sp_dmn_qpg_text(&p, b);
    sp_dmn_qpg_i64(&p, room_bytes > INT64_MAX ? INT64_MAX : (int64_t)room_bytes);
    PGresult *r = sp_dmn_qpg_run_prepared(q, 0, CLAIM_SQL, &p, 1, PGRES_TUPLES_OK, err);
    free(b);
    free(digs);
    if (!r)
        return SP_ERR_IO;
    size_t rows = (size_t)PQntuples(r);
    sp_dmn_q_claim *c = rows ? calloc(rows, sizeof *c) : NULL;
    if (rows && !c) {
        PQclear(r);
        snprintf(err, SP_ERR_LEN, "out of memory for %zu claims", rows);
        return SP_ERR_NOMEM; /* the claims lapse with their lease */
    }
    for (size_t i = 0; i < rows; i++) {
        int row = (int)i;
        c[i].job = sp_dmn_qpg_i64_at(r, row, 0);
        c[i].idx = (uint32_t)sp_dmn_qpg_i32_at(r, row, 1);
        c[i].epoch = sp_dmn_qpg_i64_at(r, row, 2);
        c[i].attempts = sp_dmn_qpg_i32_at(r, row, 3);
        snprintf(c[i].digest, sizeof c[i].digest, "%.*s", PQgetlength(r, row, 4), PQgetvalue(r, row, 4));
        c[i].input = sp_dmn_qpg_dup(r, row, 5, &c[i].input_len);
        c[i].expect_pub = sp_dmn_qpg_dup(r, row, 6, &c[i].expect_pub_len);
    }
    PQclear(r);
    *out = c;
    *n = rows;
    return SP_OK;
}

void sp_dmn_q_claims_free(sp_dmn_q_claim *c, size_t n)
{
    for (size_t i = 0; c && i < n; i++) {
        free(c[i].input);
        free(c[i].expect_pub);
    }
    free(c);
}

sp_status sp_dmn_q_reap(sp_dmn_queue *q, long lease_ms, size_t *n, char err[SP_ERR_LEN])
{
    *n = 0;
    qp p = {0};
    sp_dmn_qpg_i64(&p, lease_ms);
    PGresult *r = sp_dmn_qpg_query(q,
        "WITH r AS (UPDATE sp_parts p SET state = 'queued', claimed_by = NULL, lease_until = NULL,"
        "  last_error = 'its claim by ' || p.claimed_by || ' lapsed (the lease ran out or the node went)'"
        "  WHERE p.state = 'claimed' AND " NOT_HELD("$1") " RETURNING p.job_id, p.idx, p.epoch),"
        " a AS (UPDATE sp_attempts a SET ended_at = now(), outcome = 'expired',"
        "  error = 'the lease ran out or the node went' FROM r"
        "  WHERE a.job_id = r.job_id AND a.idx = r.idx AND a.epoch = r.epoch AND a.ended_at IS NULL RETURNING 1)"
        " SELECT (SELECT count(*) FROM r), (SELECT count(*) FROM a),"
        "  (SELECT count(*) FROM (SELECT pg_notify('sp_work', '') FROM r LIMIT 1) n)", &p, 0, err);
    if (!r)
        return SP_ERR_IO;
    *n = (size_t)sp_dmn_qpg_ll(r, 0, 0);
    PQclear(r);
    return SP_OK;
}

/* "{a,b,...}" of n integers picked by get. */
static char *int_array(const sp_dmn_q_hold *h, size_t n, int which)
{
    size_t cap = n * 22 + 3, len = 0;
    char *b = malloc(cap);
    if (!b)
        return NULL;
    b[len++] = '{';
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(b + len, cap - len, "%s%lld", i ? "," : "",
                                which == 0 ? (long long)h[i].job : which == 1 ? (long long)h[i].idx
                                                                              : (long long)h[i].epoch);
    snprintf(b + len, cap - len, "}");
    return b;
}

sp_status sp_dmn_q_heartbeat(sp_dmn_queue *q, const char *inst, const char *name, int capacity, const char *const *dig,
                             size_t n_dig, long keep_ms, long lease_ms, sp_dmn_q_hold *h, size_t n, int *node_lost,
                             char err[SP_ERR_LEN])
{
    *node_lost = 0;
    char *digs = sp_dmn_qpg_digests(dig, n_dig, err);
    if (!digs)
        return SP_ERR_INVALID_ARG;
    qp p = {0};
    sp_dmn_qpg_text(&p, inst);
    sp_dmn_qpg_i64(&p, capacity);
    sp_dmn_qpg_text(&p, digs);
    sp_dmn_qpg_i64(&p, keep_ms);
    PGresult *r = sp_dmn_qpg_run(q, "UPDATE sp_nodes SET last_seen = now(), capacity = $2, digests = $3::text[],"
                         " keep_ms = $4 WHERE instance = $1", &p, 0, PGRES_COMMAND_OK, err);
    sp_status st = r ? SP_OK : SP_ERR_IO;
    if (r && !strcmp(PQcmdTuples(r), "0")) { /* the row went (a janitor after a long outage): make it again */
        *node_lost = 1;
        st = sp_dmn_qpg_node_row(q, inst, name, capacity, digs, keep_ms, err);
    }
    PQclear(r);
    free(digs);
    for (size_t i = 0; i < n; i++)
        h[i].held = 0;
    if (st != SP_OK || !n)
        return st;
    char *a = int_array(h, n, 0), *b = int_array(h, n, 1), *c = int_array(h, n, 2);
    qp u = {0};
    sp_dmn_qpg_text(&u, inst);
    sp_dmn_qpg_i64(&u, lease_ms);
    sp_dmn_qpg_text(&u, a);
    sp_dmn_qpg_text(&u, b);
    sp_dmn_qpg_text(&u, c);
    r = a && b && c ? sp_dmn_qpg_query(q, "UPDATE sp_parts p SET lease_until = now() + $2::bigint * interval '1 millisecond'"
                               " FROM unnest($3::bigint[], $4::int[], $5::bigint[]) AS h(job_id, idx, epoch)"
                               " WHERE p.job_id = h.job_id AND p.idx = h.idx AND p.epoch = h.epoch"
                               " AND p.claimed_by = $1 AND p.state = 'claimed' RETURNING p.job_id, p.idx", &u, 0, err)
                    : NULL;
    free(a);
    free(b);
    free(c);
    if (!r)
        return SP_ERR_IO;
    for (int row = 0; row < PQntuples(r); row++) {
        int64_t job = sp_dmn_qpg_ll(r, row, 0);
        uint32_t idx = (uint32_t)sp_dmn_qpg_ll(r, row, 1);
        for (size_t i = 0; i < n; i++)
            if (h[i].job == job && h[i].idx == idx)
                h[i].held = 1;
    }
    PQclear(r);
    return SP_OK;
}

sp_status sp_dmn_q_store(sp_dmn_queue *q, const char *inst, const sp_dmn_q_claim *c, const sp_dmn_q_proof *pr,
                         int *stored, int *last, char err[SP_ERR_LEN])
{
    *stored = *last = 0;
    qp p = {0};
    sp_dmn_qpg_i64(&p, c->job);
    sp_dmn_qpg_i64(&p, c->idx);
    sp_dmn_qpg_i64(&p, c->epoch);
    sp_dmn_qpg_text(&p, inst);
    sp_dmn_qpg_bin(&p, pr->proof, 192);
    sp_dmn_qpg_bin(&p, pr->publics, pr->publics_len);
    sp_dmn_qpg_f64(&p, pr->synth_ms);
    sp_dmn_qpg_f64(&p, pr->gpu_ms);
    sp_dmn_qpg_f64(&p, pr->finish_ms);
    /* the job's n_left, under its row lock, tells exactly one store that
     * it was the last; a job whose count is unknown (NULL) counts */
    PGresult *r = sp_dmn_qpg_query(q,
        "WITH s AS (UPDATE sp_parts SET state = 'done', proof = $5, publics = $6, proved_by = $4, synth_ms = $7,"
        "  gpu_ms = $8, finish_ms = $9, lease_until = NULL"
        "  WHERE job_id = $1 AND idx = $2 AND epoch = $3 AND claimed_by = $4 AND state = 'claimed' RETURNING 1),"
        " a AS (UPDATE sp_attempts SET ended_at = now(),"
        "  outcome = CASE WHEN EXISTS (SELECT 1 FROM s) THEN 'proved' ELSE 'late' END,"
        "  error = CASE WHEN EXISTS (SELECT 1 FROM s) THEN '' ELSE 'its proof came after the claim was lost' END"
        "  WHERE job_id = $1 AND idx = $2 AND epoch = $3 AND ended_at IS NULL RETURNING 1),"
        " j AS (UPDATE sp_jobs SET n_left = n_left - 1 WHERE id = $1 AND EXISTS (SELECT 1 FROM s) RETURNING n_left)"
        " SELECT (SELECT count(*) FROM s), (SELECT n_left FROM j),"
        "  (SELECT count(*) FROM sp_parts q WHERE q.job_id = $1 AND q.idx <> $2 AND q.state <> 'done')", &p, 0, err);
    if (!r)
        return SP_ERR_IO;
    *stored = sp_dmn_qpg_ll(r, 0, 0) > 0;
    *last = *stored && (PQgetisnull(r, 0, 1) ? sp_dmn_qpg_ll(r, 0, 2) == 0 : sp_dmn_qpg_ll(r, 0, 1) <= 0);
    PQclear(r);
    return SP_OK;
}

/* Fails partition (job, idx) and its job in one statement; `where` picks
 * the partition row (fenced by epoch for a claim, by attempts for the
 * janitor). Returns rows changed in *done. */
static sp_status fail_part(sp_dmn_queue *q, const qp *p, const char *where, int *done, char err[SP_ERR_LEN])
{
    char sql[2048];
    snprintf(sql, sizeof sql,
        "WITH f AS (UPDATE sp_parts p SET state = 'failed', last_error = $5 WHERE %s RETURNING job_id),"
        " j AS (UPDATE sp_jobs SET state = 'failed', error = $6, detail = $7, finished_at = now()"
        "  WHERE id IN (SELECT job_id FROM f) AND state = 'queued' RETURNING id),"
        " c AS (UPDATE sp_parts SET state = 'cancelled' WHERE job_id IN (SELECT id FROM j) AND idx <> $2"
        "  AND state IN ('queued', 'claimed') RETURNING 1),"
        " a AS (UPDATE sp_attempts SET ended_at = now(), outcome = CASE WHEN idx = $2 THEN $6 ELSE 'cancelled' END,"
        "  error = CASE WHEN idx = $2 THEN left($5, 200) ELSE 'its job failed' END"
        "  WHERE job_id IN (SELECT job_id FROM f) AND ended_at IS NULL RETURNING 1)"
        " SELECT (SELECT count(*) FROM f), (SELECT count(*) FROM c),"
        "  (SELECT count(*) FROM (SELECT pg_notify('sp_done', 'f' || id), pg_notify('sp_cancel', 'f' || id) FROM j) n)",
        where);
    PGresult *r = sp_dmn_qpg_query(q, sql, p, 0, err);
    if (!r)
        return SP_ERR_IO;
    *done = sp_dmn_qpg_ll(r, 0, 0) > 0;
    PQclear(r);
    return SP_OK;
}

sp_status sp_dmn_q_release(sp_dmn_queue *q, const char *inst, const sp_dmn_q_claim *c, int fail, int count_attempt,
                           int max_attempts, const char *code, const char *why, int *done, char err[SP_ERR_LEN])
{
    *done = 0;
    char detail[SP_ERR_LEN];
    if (!fail && count_attempt && c->attempts >= max_attempts) {
        fail = 1;
        snprintf(detail, sizeof detail, "partition %u: failed on %d claims; the last: %.180s", c->idx, c->attempts,
                 why);
    } else {
        snprintf(detail, sizeof detail, "partition %u: %.200s", c->idx, why);
    }
    qp p = {0};
    sp_dmn_qpg_i64(&p, c->job);
    sp_dmn_qpg_i64(&p, c->idx);
    sp_dmn_qpg_i64(&p, c->epoch);
    sp_dmn_qpg_text(&p, inst);
    sp_dmn_qpg_text(&p, why);
    if (fail) {
        sp_dmn_qpg_text(&p, code);
        sp_dmn_qpg_text(&p, detail);
        return fail_part(q, &p, "job_id = $1 AND idx = $2 AND epoch = $3 AND claimed_by = $4 AND state = 'claimed'",
                         done, err);
    }
    sp_dmn_qpg_i64(&p, count_attempt ? 0 : 1);
    sp_dmn_qpg_text(&p, count_attempt ? code : "handed_back");
    PGresult *r = sp_dmn_qpg_query(q,
        "WITH r AS (UPDATE sp_parts SET state = 'queued', claimed_by = NULL, lease_until = NULL, last_error = $5,"
        "  attempts = greatest(attempts - $6, 0)"
        "  WHERE job_id = $1 AND idx = $2 AND epoch = $3 AND claimed_by = $4 AND state = 'claimed' RETURNING 1),"
        " a AS (UPDATE sp_attempts SET ended_at = now(), outcome = $7, error = left($5, 200)"
        "  WHERE job_id = $1 AND idx = $2 AND epoch = $3 AND ended_at IS NULL AND EXISTS (SELECT 1 FROM r) RETURNING 1)"
        " SELECT (SELECT count(*) FROM r), (SELECT count(*) FROM (SELECT pg_notify('sp_work', '') FROM r) n)",
        &p, 0, err);
    if (!r)
        return SP_ERR_IO;
    *done = sp_dmn_qpg_ll(r, 0, 0) > 0;
    PQclear(r);
    return SP_OK;
}

/* ---- assembly ---- */

/* Applies a verdict inside the assembly transaction. */
static sp_status apply_verdict(sp_dmn_queue *q, int64_t id, const sp_dmn_q_verdict *v, int *outcome,
                               char err[SP_ERR_LEN])
{
    qp p = {0};
    sp_dmn_qpg_i64(&p, id);
    if (v->ok) {
        sp_dmn_qpg_text(&p, v->result);
        PGresult *r = sp_dmn_qpg_query(q, "WITH u AS (UPDATE sp_jobs SET state = 'completed', result = $2, finished_at = now()"
                               " WHERE id = $1 RETURNING id) SELECT (SELECT count(*) FROM u),"
                               " (SELECT count(*) FROM (SELECT pg_notify('sp_done', 'f' || id) FROM u) n)", &p, 0, err);
        PQclear(r);
        *outcome = 1;
        return r ? SP_OK : SP_ERR_IO;
    }
    size_t cap = v->n_bad * 12 + 3, len = 0;
    char *arr = malloc(cap);
    if (!arr) {
        snprintf(err, SP_ERR_LEN, "out of memory");
        return SP_ERR_NOMEM;
    }
    arr[len++] = '{';
    for (size_t i = 0; i < v->n_bad; i++)
        len += (size_t)snprintf(arr + len, cap - len, "%s%u", i ? "," : "", v->bad[i]);
    snprintf(arr + len, cap - len, "}");
    sp_dmn_qpg_text(&p, arr);
    PGresult *r = sp_dmn_qpg_query(q, "WITH u AS (UPDATE sp_parts SET state = 'queued', proof = NULL, publics = NULL,"
                           " proved_by = NULL, claimed_by = NULL, lease_until = NULL,"
                           " last_error = 'its stored proof did not verify when the job was assembled'"
                           " WHERE job_id = $1 AND idx = ANY($2::int[]) AND state = 'done' RETURNING 1),"
                           " j AS (UPDATE sp_jobs SET n_left = n_left + (SELECT count(*) FROM u) WHERE id = $1"
                           " RETURNING 1)"
                           " SELECT (SELECT count(*) FROM u),"
                           " (SELECT count(*) FROM (SELECT pg_notify('sp_work', '') FROM u LIMIT 1) n)", &p, 0, err);
    free(arr);
    PQclear(r);
    *outcome = 2;
    return r ? SP_OK : SP_ERR_IO;
}

/* Reads the job (locked) and its partitions, asks fn, applies. */
static sp_status assemble_tx(sp_dmn_queue *q, int64_t id, sp_dmn_q_assemble_fn fn, void *ctx, int *outcome,
                             char err[SP_ERR_LEN])
{
    qp p = {0};
    sp_dmn_qpg_i64(&p, id);
    PGresult *j = sp_dmn_qpg_query(q, "SELECT state, COALESCE(request_id, ''), circuit_name, circuit_digest, n_parts,"
                           " (extract(epoch FROM now() - submitted_at) * 1000)::float8"
                           " FROM sp_jobs WHERE id = $1 FOR UPDATE", &p, 0, err);
    if (!j)
        return SP_ERR_IO;
    if (!PQntuples(j) || strcmp(PQgetvalue(j, 0, 0), "queued")) {
        PQclear(j);
        return SP_OK;
    }
    PGresult *r = sp_dmn_qpg_query(q, "SELECT p.idx, p.state, p.proof, p.publics, p.expect_pub, COALESCE(p.proved_by, ''),"
                           " p.synth_ms, p.gpu_ms, p.finish_ms,"
                           " (extract(epoch FROM p.first_claim - j.submitted_at) * 1000)::float8"
                           " FROM sp_parts p JOIN sp_jobs j ON j.id = p.job_id WHERE p.job_id = $1 ORDER BY p.idx",
                        &p, 1, err);
    size_t n = (size_t)sp_dmn_qpg_ll(j, 0, 4), rows = r ? (size_t)PQntuples(r) : 0;
    sp_dmn_q_part *parts = r && rows == n ? calloc(n, sizeof *parts) : NULL;
    int ready = parts != NULL;
    double first = -1;
    for (size_t k = 0; ready && k < n; k++) {
        int row = (int)k;
        sp_dmn_q_part *x = &parts[k];
        ready = !strcmp(PQgetvalue(r, row, 1), "done") && (uint32_t)sp_dmn_qpg_i32_at(r, row, 0) == k;
        x->idx = (uint32_t)k;
        x->proof = PQgetlength(r, row, 2) == 192 ? (const uint8_t *)PQgetvalue(r, row, 2) : NULL;
        x->publics = (const uint8_t *)PQgetvalue(r, row, 3);
        x->publics_len = (size_t)PQgetlength(r, row, 3);
        x->expect_pub = PQgetisnull(r, row, 4) ? NULL : (const uint8_t *)PQgetvalue(r, row, 4);
        x->expect_pub_len = (size_t)PQgetlength(r, row, 4);
        x->proved_by = PQgetvalue(r, row, 5);
        x->synth_ms = sp_dmn_qpg_f64_at(r, row, 6);
        x->gpu_ms = sp_dmn_qpg_f64_at(r, row, 7);
        x->finish_ms = sp_dmn_qpg_f64_at(r, row, 8);
        double fc = sp_dmn_qpg_f64_at(r, row, 9);
        if (!PQgetisnull(r, row, 9) && (first < 0 || fc < first))
            first = fc;
    }
    sp_status st = r ? SP_OK : SP_ERR_IO;
    if (r && !ready) { /* its count of partitions left was wrong or unknown: right it (under the job's lock) */
        PGresult *u = sp_dmn_qpg_query(q, "UPDATE sp_jobs SET n_left = (SELECT count(*) FROM sp_parts WHERE job_id = $1"
                                      " AND state <> 'done') WHERE id = $1 RETURNING 1", &p, 0, err);
        st = u ? SP_OK : SP_ERR_IO;
        PQclear(u);
    }
    if (ready) {
        sp_dmn_q_asm_job aj = {id, PQgetvalue(j, 0, 1), PQgetvalue(j, 0, 2), PQgetvalue(j, 0, 3), n,
                           first < 0 ? 0 : first, atof(PQgetvalue(j, 0, 5))};
        sp_dmn_q_verdict v = {0};
        fn(ctx, &aj, parts, &v);
        if (v.ok || v.n_bad)
            st = apply_verdict(q, id, &v, outcome, err);
        free(v.result);
        free(v.bad);
    }
    free(parts);
    PQclear(r);
    PQclear(j);
    return st;
}

sp_status sp_dmn_q_assemble(sp_dmn_queue *q, int64_t id, sp_dmn_q_assemble_fn fn, void *ctx, int *outcome,
                            char err[SP_ERR_LEN])
{
    *outcome = 0;
    if (sp_dmn_qpg_exec(q, "BEGIN", NULL, err) != SP_OK)
        return SP_ERR_IO;
    sp_status st = assemble_tx(q, id, fn, ctx, outcome, err);
    if (st == SP_OK && sp_dmn_qpg_exec(q, "COMMIT", NULL, err) != SP_OK)
        st = SP_ERR_IO;
    if (st != SP_OK) {
        *outcome = 0;
        sp_dmn_qpg_rollback(q);
    }
    return st;
}

sp_status sp_dmn_q_ready_jobs(sp_dmn_queue *q, const char *const *dig, size_t n_dig, int64_t *ids, size_t max,
                              size_t *n, char err[SP_ERR_LEN])
{
    *n = 0;
    if (!n_dig || !max)
        return SP_OK;
    char *digs = sp_dmn_qpg_digests(dig, n_dig, err);
    if (!digs)
        return SP_ERR_INVALID_ARG;
    qp p = {0};
    sp_dmn_qpg_text(&p, digs);
    sp_dmn_qpg_i64(&p, (int64_t)max);
    PGresult *r = sp_dmn_qpg_query(q, "SELECT j.id FROM sp_jobs j WHERE j.state = 'queued'"
                           " AND (j.n_left IS NULL OR j.n_left <= 0) AND j.circuit_digest = ANY($1::text[])"
                           " ORDER BY j.id LIMIT $2", &p, 0, err);
    free(digs);
    if (!r)
        return SP_ERR_IO;
    for (int i = 0; i < PQntuples(r) && (size_t)i < max; i++)
        ids[(*n)++] = sp_dmn_qpg_ll(r, i, 0);
    PQclear(r);
    return SP_OK;
}

/* Fails the jobs with a queued partition that used up its attempts. */
static sp_status fail_exhausted(sp_dmn_queue *q, int max_attempts, size_t *failed, char err[SP_ERR_LEN])
{
    qp p = {0};
    sp_dmn_qpg_i64(&p, max_attempts);
    PGresult *r = sp_dmn_qpg_query(q, "SELECT p.job_id, p.idx, p.attempts, COALESCE(p.last_error, '') FROM sp_parts p"
                           " WHERE p.state = 'queued' AND p.attempts > 0 AND p.attempts >= $1 LIMIT 100", &p, 0, err);
    if (!r)
        return SP_ERR_IO;
    sp_status st = SP_OK;
    for (int i = 0; i < PQntuples(r) && st == SP_OK; i++) {
        char why[SP_ERR_LEN], detail[SP_ERR_LEN];
        const char *last = PQgetvalue(r, i, 3);
        snprintf(why, sizeof why, "claimed %s times without a proof%s%.150s", PQgetvalue(r, i, 2), *last ? "; last: "
                 : "", last);
        snprintf(detail, sizeof detail, "partition %.12s: %.200s", PQgetvalue(r, i, 1), why);
        qp f = {0};
        sp_dmn_qpg_text(&f, PQgetvalue(r, i, 0));
        sp_dmn_qpg_text(&f, PQgetvalue(r, i, 1));
        sp_dmn_qpg_i64(&f, max_attempts);
        sp_dmn_qpg_i64(&f, 0);
        sp_dmn_qpg_text(&f, why);
        sp_dmn_qpg_text(&f, "prove_failed");
        sp_dmn_qpg_text(&f, detail);
        int done = 0;
        st = fail_part(q, &f, "p.job_id = $1 AND p.idx = $2 AND p.state = 'queued' AND p.attempts >= $3"
                              " AND p.attempts > $4", &done, err);
        *failed += (size_t)done;
    }
    PQclear(r);
    return st;
}

/* Fails the jobs past their deadline with a partition still queued. */
static sp_status fail_late(sp_dmn_queue *q, long lease_ms, size_t *late, char err[SP_ERR_LEN])
{
    qp p = {0};
    sp_dmn_qpg_i64(&p, lease_ms);
    PGresult *r = sp_dmn_qpg_query(q,
        "WITH l AS (SELECT j.id, (SELECT count(*) FROM sp_parts p WHERE p.job_id = j.id AND p.state = 'queued') AS waiting,"
        "  (SELECT count(*) FROM sp_nodes n WHERE j.circuit_digest = ANY(n.digests)"
        "   AND n.last_seen > now() - $1::bigint * interval '1 millisecond') AS provers"
        "  FROM sp_jobs j WHERE j.state = 'queued' AND j.deadline_at < now()"
        "  AND EXISTS (SELECT 1 FROM sp_parts p WHERE p.job_id = j.id AND p.state = 'queued')"
        "  ORDER BY j.deadline_at LIMIT 100),"
        " j AS (UPDATE sp_jobs j SET state = 'failed', error = 'deadline_passed', finished_at = now(),"
        "  detail = l.waiting || ' of its ' || j.n_parts || ' partitions were still queued at its deadline (farm.job_deadline): '"
        "  || CASE WHEN l.provers = 0 THEN 'no live node of the farm proves its circuit'"
        "  ELSE l.provers || ' live node(s) prove its circuit but none took them in time' END"
        "  FROM l WHERE j.id = l.id AND j.state = 'queued' RETURNING j.id),"
        " c AS (UPDATE sp_parts SET state = 'cancelled' WHERE job_id IN (SELECT id FROM j)"
        "  AND state IN ('queued', 'claimed') RETURNING 1),"
        " a AS (UPDATE sp_attempts SET ended_at = now(), outcome = 'cancelled', error = 'its job passed its deadline'"
        "  WHERE job_id IN (SELECT id FROM j) AND ended_at IS NULL RETURNING 1)"
        " SELECT (SELECT count(*) FROM j),"
        "  (SELECT count(*) FROM (SELECT pg_notify('sp_done', 'f' || id), pg_notify('sp_cancel', 'f' || id) FROM j) n)",
        &p, 0, err);
    if (!r)
        return SP_ERR_IO;
    *late = (size_t)sp_dmn_qpg_ll(r, 0, 0);
    PQclear(r);
    return SP_OK;
}

sp_status sp_dmn_q_janitor(sp_dmn_queue *q, int max_attempts, long keep_ms, long lease_ms, size_t *failed,
                           size_t *late, char err[SP_ERR_LEN])
{
    *failed = *late = 0;
    if (fail_exhausted(q, max_attempts, failed, err) != SP_OK || fail_late(q, lease_ms, late, err) != SP_OK)
        return SP_ERR_IO;
    /* kept for the longest retention asked: the job's own, this node's and every node's in the farm */
    qp t = {0};
    sp_dmn_qpg_i64(&t, keep_ms);
    if (sp_dmn_qpg_exec(q, "WITH m AS (SELECT greatest($1::bigint, (SELECT max(keep_ms) FROM sp_nodes)) AS ms),"
                " gone AS (DELETE FROM sp_jobs WHERE id IN (SELECT id FROM sp_jobs, m WHERE state <> 'queued'"
                " AND finished_at < now() - m.ms * interval '1 millisecond'"
                " AND finished_at < now() - keep_ms * interval '1 millisecond' LIMIT 1000) RETURNING id)"
                " DELETE FROM sp_attempts WHERE job_id IN (SELECT id FROM gone)", &t, err) != SP_OK)
        return SP_ERR_IO;
    qp l = {0};
    sp_dmn_qpg_i64(&l, lease_ms);
    return sp_dmn_qpg_exec(q, "DELETE FROM sp_nodes WHERE last_seen < now() - 10 * $1::bigint * interval '1 millisecond'", &l,
                err);
}

/* ---- notifications ---- */

int sp_dmn_q_socket(const sp_dmn_queue *q) { return sp_dmn_qpg_broken(q) ? -1 : PQsocket(q->c); }

sp_status sp_dmn_q_drain_notifies(sp_dmn_queue *q, int *work, int *cancel, void (*on_done)(void *ctx, int64_t id),
                                  void *ctx)
{
    if (sp_dmn_qpg_broken(q) || !PQconsumeInput(q->c))
        return SP_ERR_IO;
    PGnotify *n;
    while ((n = PQnotifies(q->c))) {
        int64_t id = 0;
        if (!strcmp(n->relname, "sp_work"))
            ++*work;
        else if (!strcmp(n->relname, "sp_done"))
            on_done(ctx, job_number(n->extra, &id) ? id : 0);
        else if (!strcmp(n->relname, "sp_cancel"))
            ++*cancel;
        PQfreemem(n);
    }
    return sp_dmn_qpg_broken(q) ? SP_ERR_IO : SP_OK;
}

#endif
