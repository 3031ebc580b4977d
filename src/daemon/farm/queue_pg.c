/*
 * The farm's queue on PostgreSQL through libpq (queue.h has the model;
 * ARCHITECTURE.md, "The farm", the tables): connecting, statements,
 * the schema, nodes, LISTEN. queue_pg_jobs.c has jobs and partitions. Built with
 * libpq when pkg-config finds it (SP_WITH_PQ); without it queue_none.c
 * stands in and sp_dmn_q_open says why.
 *
 * Statements that must change several rows together are one statement
 * (data-modifying CTEs) or one transaction (queue_pg.h has the rest).
 */
#ifdef SP_WITH_PQ

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "daemon/farm/queue_pg.h"
#include "daemon/log.h"
#include "daemon/wire.h"

#define ADVISORY_KEY "7165131224739948864" /* the schema migration lock, any constant */
#define BACKOFF_MIN_MS 100.0
#define BACKOFF_MAX_MS 5000.0

int sp_dmn_q_available(void) { return 1; }

/* ---- connection strings ---- */

void sp_dmn_q_describe(char *out, size_t out_len, const char *conninfo)
{
    char *e = NULL;
    PQconninfoOption *o = PQconninfoParse(conninfo, &e);
    const char *host = "", *port = "", *db = "", *user = "";
    for (PQconninfoOption *p = o; p && p->keyword; p++) {
        if (!p->val)
            continue;
        if (!strcmp(p->keyword, "host") || (!*host && !strcmp(p->keyword, "hostaddr")))
            host = p->val;
        else if (!strcmp(p->keyword, "port"))
            port = p->val;
        else if (!strcmp(p->keyword, "dbname"))
            db = p->val;
        else if (!strcmp(p->keyword, "user"))
            user = p->val;
    }
    if (o)
        snprintf(out, out_len, "postgresql host=%.100s port=%.10s dbname=%.60s user=%.60s", *host ? host : "(default)",
                 *port ? port : "(default)", *db ? db : "(default)", *user ? user : "(default)");
    else
        snprintf(out, out_len, "postgresql (an unreadable connection string)");
    PQconninfoFree(o);
    PQfreemem(e);
}

/* ---- statements ---- */

void sp_dmn_qpg_text(qp *p, const char *s)
{
    p->v[p->n] = s;
    p->len[p->n] = 0;
    p->fmt[p->n++] = 0;
}

void sp_dmn_qpg_bin(qp *p, const void *b, size_t n)
{
    p->v[p->n] = b;
    p->len[p->n] = (int)n;
    p->fmt[p->n++] = 1;
}

void sp_dmn_qpg_i64(qp *p, int64_t x)
{
    snprintf(p->num[p->n], sizeof p->num[p->n], "%lld", (long long)x);
    sp_dmn_qpg_text(p, p->num[p->n]);
}

void sp_dmn_qpg_f64(qp *p, double x)
{
    snprintf(p->num[p->n], sizeof p->num[p->n], "%.6f", x >= 0 && x < 1e15 ? x : 0.0);
    sp_dmn_qpg_text(p, p->num[p->n]);
}

int sp_dmn_qpg_broken(const sp_dmn_queue *q) { return !q->c || PQstatus(q->c) != CONNECTION_OK; }

static PGresult *ended(sp_dmn_queue *q, PGresult *r, ExecStatusType want, char err[SP_ERR_LEN]);

/* Tries of a statement that PostgreSQL aborted to break a deadlock or a
 * serialization conflict. Statements of the queue lock the rows of jobs,
 * partitions and attempts in different orders (a cancel takes the job,
 * then its partitions; a stored proof its partition, then the job), so
 * such an abort is an expected outcome under load, not a failure. */
#define RUN_TRIES 5

/* 1 when r failed for a deadlock (40P01) or a serialization conflict
 * (40001) and the statement was its own transaction (the session is idle
 * again): it was rolled back whole and may run again as it was. r is
 * cleared then. */
static int run_again(sp_dmn_queue *q, PGresult *r)
{
    const char *st = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    if (!st || (strcmp(st, "40P01") && strcmp(st, "40001")) || PQtransactionStatus(q->c) != PQTRANS_IDLE)
        return 0;
    SP_DMN_LOGI("farm: the queue database rolled a statement back (%s); running it again",
                !strcmp(st, "40P01") ? "a deadlock" : "a serialization conflict");
    PQclear(r);
    return 1;
}

/* One statement; returns its result when it succeeded as want (NULL
 * otherwise, with err and q->sqlstate set). binary: results in binary. */
PGresult *sp_dmn_qpg_run(sp_dmn_queue *q, const char *sql, const qp *p, int binary, ExecStatusType want,
                         char err[SP_ERR_LEN])
{
    q->sqlstate[0] = 0;
    if (sp_dmn_qpg_broken(q)) {
        snprintf(err, SP_ERR_LEN, "the queue database is not connected");
        return NULL;
    }
    double t0 = sp_dmn_wire_now_ms();
    PGresult *r = NULL;
    for (int t = 0; t < RUN_TRIES; t++) {
        r = PQexecParams(q->c, sql, p ? p->n : 0, NULL, p ? p->v : NULL, p ? p->len : NULL, p ? p->fmt : NULL,
                         binary);
        if (t + 1 == RUN_TRIES || !run_again(q, r))
            break;
    }
    q->ms += sp_dmn_wire_now_ms() - t0;
    q->calls++;
    return ended(q, r, want, err);
}

PGresult *sp_dmn_qpg_run_prepared(sp_dmn_queue *q, unsigned k, const char *sql, const qp *p, int binary,
                                  ExecStatusType want, char err[SP_ERR_LEN])
{
    char name[16];
    snprintf(name, sizeof name, "sp_q%u", k);
    q->sqlstate[0] = 0;
    if (sp_dmn_qpg_broken(q)) {
        snprintf(err, SP_ERR_LEN, "the queue database is not connected");
        return NULL;
    }
    double t0 = sp_dmn_wire_now_ms();
    PGresult *r = NULL;
    for (int again = 0, t = 0; again < 2 && t < RUN_TRIES; t++) {
        if (!(q->prepared >> k & 1)) {
            /* planned for its parameters at every run: a plan made once for
             * any parameters may read the whole queue */
            if (!q->prepared)
                PQclear(PQexec(q->c, "SET plan_cache_mode = force_custom_plan"));
            PGresult *pr = PQprepare(q->c, name, sql, p ? p->n : 0, NULL);
            int ok = pr && PQresultStatus(pr) == PGRES_COMMAND_OK;
            if (!ok) {
                q->ms += sp_dmn_wire_now_ms() - t0;
                q->calls++;
                return ended(q, pr, want, err);
            }
            PQclear(pr);
            q->prepared |= 1u << k;
        }
        r = PQexecPrepared(q->c, name, p ? p->n : 0, p ? p->v : NULL, p ? p->len : NULL, p ? p->fmt : NULL, binary);
        const char *st = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
        if (st && !strcmp(st, "26000")) { /* not prepared on this session (one that replaced it) */
            PQclear(r);
            r = NULL;
            q->prepared &= ~(1u << k);
            again++;
        } else if (t + 1 < RUN_TRIES && run_again(q, r)) {
            r = NULL;
        } else {
            break;
        }
    }
    q->ms += sp_dmn_wire_now_ms() - t0;
    q->calls++;
    return ended(q, r, want, err);
}

/* The end of a statement: r when it ended as want, else NULL with err and q->sqlstate. */
static PGresult *ended(sp_dmn_queue *q, PGresult *r, ExecStatusType want, char err[SP_ERR_LEN])
{
    if (r && PQresultStatus(r) == want)
        return r;
    const char *st = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    snprintf(q->sqlstate, sizeof q->sqlstate, "%s", st ? st : "");
    const char *m = r ? PQresultErrorMessage(r) : PQerrorMessage(q->c);
    snprintf(err, SP_ERR_LEN, "queue database: %.*s", (int)strcspn(m && *m ? m : "no answer", "\n"),
             m && *m ? m : "no answer");
    PQclear(r);
    return NULL;
}

/* A statement whose result is not read. */
sp_status sp_dmn_qpg_exec(sp_dmn_queue *q, const char *sql, const qp *p, char err[SP_ERR_LEN])
{
    PGresult *r = sp_dmn_qpg_run(q, sql, p, 0, PGRES_COMMAND_OK, err);
    PQclear(r);
    return r ? SP_OK : SP_ERR_IO;
}

/* SELECT-like statements: PGRES_TUPLES_OK. */
PGresult *sp_dmn_qpg_query(sp_dmn_queue *q, const char *sql, const qp *p, int binary, char err[SP_ERR_LEN])
{
    return sp_dmn_qpg_run(q, sql, p, binary, PGRES_TUPLES_OK, err);
}

void sp_dmn_qpg_rollback(sp_dmn_queue *q)
{
    char e[SP_ERR_LEN];
    if (!sp_dmn_qpg_broken(q))
        sp_dmn_qpg_exec(q, "ROLLBACK", NULL, e);
}

/* Text results. */
long long sp_dmn_qpg_ll(const PGresult *r, int row, int col) { return atoll(PQgetvalue(r, row, col)); }

/* Binary results (network byte order). */
static uint64_t be_u(const PGresult *r, int row, int col, int bytes)
{
    const unsigned char *v = (const unsigned char *)PQgetvalue(r, row, col);
    uint64_t x = 0;
    if (PQgetlength(r, row, col) != bytes)
        return 0;
    for (int i = 0; i < bytes; i++)
        x = x << 8 | v[i];
    return x;
}

int64_t sp_dmn_qpg_i64_at(const PGresult *r, int row, int col) { return (int64_t)be_u(r, row, col, 8); }
int32_t sp_dmn_qpg_i32_at(const PGresult *r, int row, int col) { return (int32_t)be_u(r, row, col, 4); }

double sp_dmn_qpg_f64_at(const PGresult *r, int row, int col)
{
    uint64_t u = be_u(r, row, col, 8);
    double x;
    memcpy(&x, &u, sizeof x);
    return PQgetisnull(r, row, col) ? 0 : x;
}

/* A malloc'ed copy of a bytea value (binary results); NULL when NULL. */
uint8_t *sp_dmn_qpg_dup(const PGresult *r, int row, int col, size_t *len)
{
    *len = 0;
    if (PQgetisnull(r, row, col))
        return NULL;
    size_t n = (size_t)PQgetlength(r, row, col);
    uint8_t *b = malloc(n ? n : 1);
    if (b) {
        memcpy(b, PQgetvalue(r, row, col), n);
        *len = n;
    }
    return b;
}

/* "{a,b}" of digests (hex: nothing to escape) into buf. */
static int text_array(char *buf, size_t cap, const char *const *s, size_t n)
{
    size_t len = 0;
    buf[len++] = '{';
    for (size_t i = 0; i < n; i++) {
        size_t k = strlen(s[i]);
        if (k != SP_DMN_Q_DIGEST_HEX - 1 || strspn(s[i], "0123456789abcdef") != k || len + k + 3 > cap)
            return -1;
        if (i)
            buf[len++] = ',';
        memcpy(buf + len, s[i], k);
        len += k;
    }
    buf[len++] = '}';
    buf[len] = 0;
    return 0;
}

/* ---- schema ---- */

/* Version 1: nodes, jobs, partitions. Each step is one migration, run in
 * a transaction with the version bump. */
static const char *const schema_v1[] = {
    "CREATE TABLE sp_nodes ("
    " instance text PRIMARY KEY, name text NOT NULL,"
    " started_at timestamptz NOT NULL DEFAULT now(), last_seen timestamptz NOT NULL DEFAULT now(),"
    " capacity int NOT NULL DEFAULT 0, digests text[] NOT NULL DEFAULT '{}')",
    "CREATE INDEX sp_nodes_name ON sp_nodes (name)",
    "CREATE TABLE sp_circuits ("
    " digest text PRIMARY KEY, name text NOT NULL, n_vars int NOT NULL, n_public int NOT NULL,"
    " native boolean NOT NULL, recorded_at timestamptz NOT NULL DEFAULT now())",
    "CREATE TABLE sp_jobs ("
    " id bigserial PRIMARY KEY, request_id text UNIQUE,"
    " circuit_digest text NOT NULL, circuit_name text NOT NULL, native boolean NOT NULL,"
    " n_public int NOT NULL, priority int NOT NULL, n_parts int NOT NULL CHECK (n_parts > 0),"
    " state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'completed', 'failed', 'cancelled')),"
    " error text, detail text, result text, submitted_by text NOT NULL,"
    " submitted_at timestamptz NOT NULL DEFAULT now(), finished_at timestamptz)",
    "CREATE INDEX sp_jobs_open ON sp_jobs (circuit_digest, id) WHERE state = 'queued'",
    "CREATE INDEX sp_jobs_finished ON sp_jobs (finished_at) WHERE state <> 'queued'",
    "CREATE TABLE sp_parts ("
    " job_id bigint NOT NULL REFERENCES sp_jobs (id) ON DELETE CASCADE, idx int NOT NULL,"
    " circuit_digest text NOT NULL, priority int NOT NULL,"
    " state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'claimed', 'done', 'failed', 'cancelled')),"
    " input bytea NOT NULL, expect_pub bytea,"
    " epoch bigint NOT NULL DEFAULT 0, attempts int NOT NULL DEFAULT 0,"
    " claimed_by text, lease_until timestamptz, first_claim timestamptz,"
    " proof bytea, publics bytea, proved_by text, synth_ms float8, gpu_ms float8, finish_ms float8,"
    " last_error text, PRIMARY KEY (job_id, idx))",
    /* inputs are stored as they are: compressing a witness costs the server
     * milliseconds per 100 KB, more than storing it saves */
    "ALTER TABLE sp_parts ALTER COLUMN input SET STORAGE EXTERNAL",
    "CREATE INDEX sp_parts_claimable ON sp_parts (circuit_digest, priority DESC, job_id, idx)"
    " WHERE state IN ('queued', 'claimed')",
    "CREATE INDEX sp_parts_holder ON sp_parts (claimed_by) WHERE state = 'claimed'",
    NULL};

/* Version 2: claims read a partial index of the queued partitions in
 * the claim's order (expired claims are queued again by a separate
 * statement instead of being scanned for); a job counts its partitions
 * without a proof (n_left: NULL when unknown, then counted), so that
 * ready jobs are found by an index; attempts, deadlines, clients and
 * retention. */
static const char *const schema_v2[] = {
    "ALTER TABLE sp_nodes ADD COLUMN keep_ms bigint NOT NULL DEFAULT 0",
    "ALTER TABLE sp_jobs ADD COLUMN n_left int, ADD COLUMN keep_ms bigint NOT NULL DEFAULT 0,"
    " ADD COLUMN deadline_at timestamptz, ADD COLUMN client text NOT NULL DEFAULT ''",
    "UPDATE sp_jobs j SET n_left = (SELECT count(*) FROM sp_parts p WHERE p.job_id = j.id AND p.state <> 'done')"
    " WHERE j.state = 'queued'",
    "ALTER TABLE sp_parts ADD COLUMN claimed_at timestamptz",
    "CREATE TABLE sp_attempts ("
    " job_id bigint NOT NULL REFERENCES sp_jobs (id) ON DELETE CASCADE, idx int NOT NULL, epoch bigint NOT NULL,"
    " node text NOT NULL, started_at timestamptz NOT NULL DEFAULT now(), ended_at timestamptz,"
    " outcome text NOT NULL DEFAULT '', error text NOT NULL DEFAULT '', PRIMARY KEY (job_id, idx, epoch))",
    "INSERT INTO sp_attempts (job_id, idx, epoch, node) SELECT job_id, idx, epoch, claimed_by FROM sp_parts"
    " WHERE state = 'claimed' AND claimed_by IS NOT NULL",
    "DROP INDEX sp_parts_claimable",
    "CREATE INDEX sp_parts_queue ON sp_parts (circuit_digest, priority DESC, job_id, idx) WHERE state = 'queued'",
    "CREATE INDEX sp_parts_retried ON sp_parts (job_id, idx) WHERE state = 'queued' AND attempts > 0",
    "CREATE INDEX sp_jobs_ready ON sp_jobs (id) WHERE state = 'queued' AND (n_left IS NULL OR n_left <= 0)",
    "CREATE INDEX sp_jobs_deadline ON sp_jobs (deadline_at) WHERE state = 'queued' AND deadline_at IS NOT NULL",
    "CREATE INDEX sp_jobs_client ON sp_jobs (client) WHERE state = 'queued'",
    NULL};

/* Version 3: a job records a digest of what it proves, so that a
 * request_id used again, on any node, is answered by comparing it; an
 * attempt no longer checks its job's row (a key-share lock of the job at
 * every claim, which the claim need not take: it holds the job's
 * partition rows), and the janitor deletes a job's attempts with it. */
static const char *const schema_v3[] = {
    "ALTER TABLE sp_jobs ADD COLUMN payload bytea",
    "ALTER TABLE sp_attempts DROP CONSTRAINT IF EXISTS sp_attempts_job_id_fkey",
    NULL};

static const char *const *const migrations[SP_DMN_Q_SCHEMA] = {schema_v1, schema_v2, schema_v3};

static sp_status migrate_locked(sp_dmn_queue *q, char err[SP_ERR_LEN])
{
    if (sp_dmn_qpg_exec(q, "CREATE TABLE IF NOT EXISTS sp_meta (key text PRIMARY KEY, value text NOT NULL)", NULL, err))
        return SP_ERR_IO;
    PGresult *r = sp_dmn_qpg_query(q, "SELECT value FROM sp_meta WHERE key = 'schema_version'", NULL, 0, err);
    if (!r)
        return SP_ERR_IO;
    long long v = PQntuples(r) ? sp_dmn_qpg_ll(r, 0, 0) : 0;
    PQclear(r);
    if (v > SP_DMN_Q_SCHEMA || v < 0) {
        snprintf(err, SP_ERR_LEN, "the queue database has schema version %lld; this snarkpipe knows versions up "
                 "to %d: upgrade snarkpipe", v, SP_DMN_Q_SCHEMA);
        return SP_ERR_FORMAT;
    }
    /* SP_QUEUE_SCHEMA_STOP=N stops at version N (the migration's test
     * makes an old database with it) */
    const char *stop = getenv("SP_QUEUE_SCHEMA_STOP");
    long long target = stop && atoll(stop) > 0 && atoll(stop) < SP_DMN_Q_SCHEMA ? atoll(stop) : SP_DMN_Q_SCHEMA;
    for (long long to = v + 1; to <= target; to++) {
        sp_status st = sp_dmn_qpg_exec(q, "BEGIN", NULL, err);
        for (const char *const *s = migrations[to - 1]; st == SP_OK && *s; s++)
            st = sp_dmn_qpg_exec(q, *s, NULL, err);
        qp p = {0};
        sp_dmn_qpg_i64(&p, to);
        if (st == SP_OK)
            st = sp_dmn_qpg_exec(q, "INSERT INTO sp_meta (key, value) VALUES ('schema_version', $1)"
                         " ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value", &p, err);
        if (st == SP_OK)
            st = sp_dmn_qpg_exec(q, "COMMIT", NULL, err);
        if (st != SP_OK) {
            sp_dmn_qpg_rollback(q);
            return st;
        }
    }
    if (target < SP_DMN_Q_SCHEMA) {
        snprintf(err, SP_ERR_LEN, "the queue database is left at schema version %lld (SP_QUEUE_SCHEMA_STOP)", target);
        return SP_ERR_FORMAT;
    }
    return SP_OK;
}

static sp_status migrate(sp_dmn_queue *q, char err[SP_ERR_LEN])
{
    PGresult *r = sp_dmn_qpg_query(q, "SELECT pg_advisory_lock(" ADVISORY_KEY ")", NULL, 0, err);
    if (!r)
        return SP_ERR_IO;
    PQclear(r);
    sp_status st = migrate_locked(q, err);
    char e2[SP_ERR_LEN];
    PQclear(sp_dmn_qpg_query(q, "SELECT pg_advisory_unlock(" ADVISORY_KEY ")", NULL, 0, e2));
    return st;
}

/* ---- connecting ---- */

sp_status sp_dmn_q_open(sp_dmn_queue **out, const char *conninfo, int migrate_now, char err[SP_ERR_LEN])
{
    *out = NULL;
    sp_dmn_queue *q = calloc(1, sizeof *q);
    if (!q) {
        snprintf(err, SP_ERR_LEN, "out of memory");
        return SP_ERR_NOMEM;
    }
    /* Defaults first: what the connection string says overrides them. */
    const char *keys[] = {"connect_timeout", "application_name", "keepalives_idle", "dbname", NULL};
    const char *vals[] = {"10", "snarkpipe", "30", conninfo, NULL};
    q->c = PQconnectdbParams(keys, vals, 1);
    q->backoff = BACKOFF_MIN_MS;
    if (!q->c || PQstatus(q->c) != CONNECTION_OK) {
        const char *m = q->c ? PQerrorMessage(q->c) : "out of memory";
        char desc[200];
        sp_dmn_q_describe(desc, sizeof desc, conninfo);
        snprintf(err, SP_ERR_LEN, "cannot connect to the queue database (%s): %.*s", desc, (int)strcspn(m, "\n"), m);
        sp_dmn_q_close(q);
        return SP_ERR_IO;
    }
    sp_status st = migrate_now ? migrate(q, err) : SP_OK;
    if (st != SP_OK) {
        sp_dmn_q_close(q);
        return st;
    }
    *out = q;
    return SP_OK;
}

void sp_dmn_q_close(sp_dmn_queue *q)
{
    if (!q)
        return;
    if (q->c)
        PQfinish(q->c);
    free(q);
}

int sp_dmn_q_connected(const sp_dmn_queue *q) { return q && !sp_dmn_qpg_broken(q); }

void sp_dmn_q_stats(const sp_dmn_queue *q, double *ms, uint64_t *calls, uint64_t *reconnects)
{
    *ms = q ? q->ms : 0;
    *calls = q ? q->calls : 0;
    *reconnects = q ? q->reconnects : 0;
}

/* An idle connection whose server went away (a restart) has its socket
 * readable (the goodbye message, then EOF): read it now, so that the next
 * statement goes to a fresh connection instead of failing on the old one. */
static void look_idle(sp_dmn_queue *q)
{
    struct pollfd p = {PQsocket(q->c), POLLIN, 0};
    if (p.fd >= 0 && poll(&p, 1, 0) > 0 && !q->listening)
        PQconsumeInput(q->c);
}

sp_status sp_dmn_q_ensure(sp_dmn_queue *q, char err[SP_ERR_LEN])
{
    if (!sp_dmn_qpg_broken(q))
        look_idle(q);
    if (!sp_dmn_qpg_broken(q))
        return SP_OK;
    double now = sp_dmn_wire_now_ms();
    if (now < q->next_try) {
        snprintf(err, SP_ERR_LEN, "the queue database is unreachable (next try in %.0f ms)", q->next_try - now);
        return SP_ERR_IO;
    }
    PQreset(q->c);
    q->prepared = 0; /* a new session */
    if (sp_dmn_qpg_broken(q)) {
        const char *m = PQerrorMessage(q->c);
        snprintf(err, SP_ERR_LEN, "the queue database is unreachable: %.*s", (int)strcspn(m, "\n"), m);
        q->next_try = sp_dmn_wire_now_ms() + q->backoff;
        q->backoff = q->backoff * 2 < BACKOFF_MAX_MS ? q->backoff * 2 : BACKOFF_MAX_MS;
        return SP_ERR_IO;
    }
    q->reconnects++;
    q->backoff = BACKOFF_MIN_MS;
    q->next_try = 0;
    return q->listening ? sp_dmn_q_listen(q, err) : SP_OK;
}

/* ---- nodes ---- */

/* Renews (or makes) the instance's row. */
sp_status sp_dmn_qpg_node_row(sp_dmn_queue *q, const char *inst, const char *name, int capacity, const char *digs,
                              long keep_ms, char err[SP_ERR_LEN])
{
    qp p = {0};
    sp_dmn_qpg_text(&p, inst);
    sp_dmn_qpg_text(&p, name);
    sp_dmn_qpg_i64(&p, capacity);
    sp_dmn_qpg_text(&p, digs);
    sp_dmn_qpg_i64(&p, keep_ms);
    return sp_dmn_qpg_exec(q, "INSERT INTO sp_nodes (instance, name, capacity, digests, keep_ms)"
                   " VALUES ($1, $2, $3, $4::text[], $5) ON CONFLICT (instance) DO UPDATE SET last_seen = now(),"
                   " capacity = EXCLUDED.capacity, digests = EXCLUDED.digests, keep_ms = EXCLUDED.keep_ms", &p, err);
}

char *sp_dmn_qpg_digests(const char *const *dig, size_t n, char err[SP_ERR_LEN])
{
    size_t cap = n * SP_DMN_Q_DIGEST_HEX + 4;
    char *b = malloc(cap);
    if (!b || text_array(b, cap, dig, n)) {
        free(b);
        snprintf(err, SP_ERR_LEN, "bad circuit digest list");
        return NULL;
    }
    return b;
}

sp_status sp_dmn_q_node_lock(sp_dmn_queue *q, const char *name, char err[SP_ERR_LEN])
{
    qp p = {0};
    sp_dmn_qpg_text(&p, name);
    PGresult *r = sp_dmn_qpg_query(q, "SELECT pg_try_advisory_lock(716513123, hashtext($1))", &p, 0, err);
    if (!r)
        return SP_ERR_IO;
    int held = strcmp(PQgetvalue(r, 0, 0), "t") == 0;
    PQclear(r);
    if (held)
        return SP_OK;
    snprintf(err, SP_ERR_LEN, "node id '%.64s' is in use by a live daemon of this farm (it holds the id's lock in the "
             "queue database): give each daemon its own farm.node_id", name);
    return SP_ERR_INVALID_ARG;
}

sp_status sp_dmn_q_node_up(sp_dmn_queue *q, const char *inst, const char *name, int capacity, const char *const *dig,
                           size_t n_dig, long keep_ms, long lease_ms, size_t *released, int *recent,
                           char err[SP_ERR_LEN])
{
    *released = 0;
    *recent = 0;
    char *digs = sp_dmn_qpg_digests(dig, n_dig, err);
    if (!digs)
        return SP_ERR_INVALID_ARG;
    sp_status st = sp_dmn_qpg_node_row(q, inst, name, capacity, digs, keep_ms, err);
    free(digs);
    if (st != SP_OK)
        return st;
    qp p = {0};
    sp_dmn_qpg_text(&p, inst);
    sp_dmn_qpg_text(&p, name);
    sp_dmn_qpg_i64(&p, lease_ms);
    PGresult *r = sp_dmn_qpg_query(q,
        "WITH old AS (DELETE FROM sp_nodes WHERE name = $2 AND instance <> $1 RETURNING instance, last_seen),"
        " rel AS (UPDATE sp_parts SET state = 'queued', claimed_by = NULL, lease_until = NULL"
        "  WHERE state = 'claimed' AND claimed_by IN (SELECT instance FROM old) RETURNING job_id, idx, epoch),"
        " att AS (UPDATE sp_attempts a SET ended_at = now(), outcome = 'expired', error = 'its node restarted'"
        "  FROM rel WHERE a.job_id = rel.job_id AND a.idx = rel.idx AND a.epoch = rel.epoch AND a.ended_at IS NULL"
        "  RETURNING 1)"
        " SELECT (SELECT count(*) FROM rel),"
        "  (SELECT count(*) FROM old WHERE last_seen > now() - $3::bigint * interval '1 millisecond'),"
        "  (SELECT count(*) FROM (SELECT pg_notify('sp_work', '') FROM rel LIMIT 1) n)", &p, 0, err);
    if (!r)
        return SP_ERR_IO;
    *released = (size_t)sp_dmn_qpg_ll(r, 0, 0);
    *recent = sp_dmn_qpg_ll(r, 0, 1) > 0;
    PQclear(r);
    return SP_OK;
}

sp_status sp_dmn_q_node_down(sp_dmn_queue *q, const char *inst, char err[SP_ERR_LEN])
{
    qp p = {0};
    sp_dmn_qpg_text(&p, inst);
    PGresult *r = sp_dmn_qpg_query(q,
        "WITH rel AS (UPDATE sp_parts SET state = 'queued', claimed_by = NULL, lease_until = NULL,"
        "  attempts = greatest(attempts - 1, 0) WHERE state = 'claimed' AND claimed_by = $1"
        "  RETURNING job_id, idx, epoch),"
        " att AS (UPDATE sp_attempts a SET ended_at = now(), outcome = 'handed_back', error = 'its node stopped'"
        "  FROM rel WHERE a.job_id = rel.job_id AND a.idx = rel.idx AND a.epoch = rel.epoch AND a.ended_at IS NULL"
        "  RETURNING 1),"
        " gone AS (DELETE FROM sp_nodes WHERE instance = $1 RETURNING 1)"
        " SELECT (SELECT count(*) FROM rel), (SELECT count(*) FROM gone), (SELECT count(*) FROM att),"
        "  (SELECT count(*) FROM (SELECT pg_notify('sp_work', '') FROM rel LIMIT 1) n)", &p, 0, err);
    PQclear(r);
    return r ? SP_OK : SP_ERR_IO;
}

/* ---- notifications ---- */

sp_status sp_dmn_q_listen(sp_dmn_queue *q, char err[SP_ERR_LEN])
{
    static const char *const ch[] = {"LISTEN sp_work", "LISTEN sp_done", "LISTEN sp_cancel"};
    for (int i = 0; i < 3; i++)
        if (sp_dmn_qpg_exec(q, ch[i], NULL, err) != SP_OK)
            return SP_ERR_IO;
    q->listening = 1;
    return SP_OK;
}

#endif
