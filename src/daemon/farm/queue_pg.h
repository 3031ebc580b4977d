/*
 * Shared by the two files of the PostgreSQL queue (queue_pg.c: connecting,
 * statements, schema, nodes; queue_pg_jobs.c: jobs, partitions, assembly,
 * notifications). Private to them; queue.h is the interface.
 *
 * Statements: sp_dmn_qpg_run is PQexecParams with the parameters gathered in a
 * qp (text, or binary for bytea; never text pasted into SQL), timed; a
 * failure leaves NULL, err (libpq's first line, which never holds the
 * password) and q->sqlstate. Results are read as text (sp_dmn_qpg_ll) or, for
 * the statements that fetch bytea, in binary (sp_dmn_qpg_*_at, sp_dmn_qpg_dup).
 */
#ifndef SP_DAEMON_QUEUE_PG_H
#define SP_DAEMON_QUEUE_PG_H

#include <libpq-fe.h>
#include "daemon/farm/queue.h"

#define SP_DMN_QPG_MAX_PARAMS 12

struct sp_dmn_queue {
    PGconn *c;
    int listening;
    double next_try, backoff;   /* sp_dmn_wire_now_ms of the next reconnection allowed */
    double ms;                  /* time in statements */
    uint64_t calls, reconnects;
    char sqlstate[6];           /* of the last failed statement */
    unsigned prepared;          /* bit k: statement k prepared on this connection (sp_dmn_qpg_run_prepared) */
};

/* The parameters of one statement (at most SP_DMN_QPG_MAX_PARAMS). */
typedef struct {
    const char *v[SP_DMN_QPG_MAX_PARAMS];
    int len[SP_DMN_QPG_MAX_PARAMS], fmt[SP_DMN_QPG_MAX_PARAMS];
    char num[SP_DMN_QPG_MAX_PARAMS][24];
    int n;
} qp;

void sp_dmn_qpg_text(qp *p, const char *s);            /* NULL: SQL NULL */
void sp_dmn_qpg_bin(qp *p, const void *b, size_t n);   /* bytea */
void sp_dmn_qpg_i64(qp *p, int64_t x);
void sp_dmn_qpg_f64(qp *p, double x);

/* 1 when the connection is not usable. */
int sp_dmn_qpg_broken(const sp_dmn_queue *q);
/* One statement: its result when it ended as want, else NULL (err). */
PGresult *sp_dmn_qpg_run(sp_dmn_queue *q, const char *sql, const qp *p, int binary, ExecStatusType want,
                         char err[SP_ERR_LEN]);
/* The same through a named prepared statement (k < 32 its number, the
 * same sql every time): parsed once per connection, so a statement run
 * often (the claim) is not parsed again at each call. */
PGresult *sp_dmn_qpg_run_prepared(sp_dmn_queue *q, unsigned k, const char *sql, const qp *p, int binary,
                                  ExecStatusType want, char err[SP_ERR_LEN]);
/* A statement whose result is not read: SP_OK or SP_ERR_IO. */
sp_status sp_dmn_qpg_exec(sp_dmn_queue *q, const char *sql, const qp *p, char err[SP_ERR_LEN]);
/* A statement returning rows. */
PGresult *sp_dmn_qpg_query(sp_dmn_queue *q, const char *sql, const qp *p, int binary, char err[SP_ERR_LEN]);
/* ROLLBACK, when connected (after a failed statement in a transaction). */
void sp_dmn_qpg_rollback(sp_dmn_queue *q);

long long sp_dmn_qpg_ll(const PGresult *r, int row, int col);    /* text results */
int64_t sp_dmn_qpg_i64_at(const PGresult *r, int row, int col);  /* binary results */
int32_t sp_dmn_qpg_i32_at(const PGresult *r, int row, int col);
double sp_dmn_qpg_f64_at(const PGresult *r, int row, int col);   /* 0 for NULL */
uint8_t *sp_dmn_qpg_dup(const PGresult *r, int row, int col, size_t *len); /* a malloc'ed bytea, NULL for NULL */

/* Makes or renews instance inst's row (digs: a text[] literal; keep_ms
 * the retention of finished jobs it asks for). */
sp_status sp_dmn_qpg_node_row(sp_dmn_queue *q, const char *inst, const char *name, int capacity, const char *digs,
                              long keep_ms, char err[SP_ERR_LEN]);

/* The digests as a text[] literal "{d1,d2}" (malloc'ed; each must be 64
 * lowercase hex digits), or NULL with err. */
char *sp_dmn_qpg_digests(const char *const *dig, size_t n, char err[SP_ERR_LEN]);

#endif
