/*
 * The farm's queue: jobs and their partitions kept in a database that
 * every daemon of a farm shares. This header is the whole
 * interface the daemon uses; daemon/farm/queue_pg.c implements it on
 * PostgreSQL through libpq, and is built only when libpq is installed
 * (without it sp_dmn_q_open says so). Nothing here knows HTTP or the engine.
 *
 * The model (ARCHITECTURE.md, "The farm", has the tables):
 *   - a job is a row with its circuit's content digest (SHA-256 of the
 *     key, not a name), its partitions rows holding each input (a .wtns
 *     file, or a native circuit's seed and partition number);
 *   - a daemon (a node; one row per running instance) claims queued
 *     partitions of the digests it has registered, at most as many as it
 *     can take (in claims and in bytes of its memory budget), reading a
 *     partial index of queued partitions in priority and age order with
 *     FOR UPDATE SKIP LOCKED, each claim bumping the partition's epoch
 *     (the fencing token) and opening a row of sp_attempts; it renews the
 *     leases only of the claims whose proving makes progress (the caller
 *     decides); a claim whose lease ran out, or whose instance is gone or
 *     unknown, is queued again by any node (sp_dmn_q_reap);
 *   - a proof is stored only by the instance holding the claim of that
 *     epoch, so a late writer whose claim was taken over changes nothing
 *     (never a proof counted twice); a job completes when every partition
 *     holds a proof the assembling node verified again (a bad one is
 *     queued again);
 *   - a job may carry a deadline (failed when a partition of it is still
 *     queued then), its submitter's client id (queued jobs per client are
 *     limited) and its submitter's result retention; finished jobs are
 *     deleted only after the longest retention of the job and of every
 *     live node;
 *   - NOTIFY wakes the nodes (channel sp_work: new or released work;
 *     sp_done: a job finished, payload its id; sp_cancel: a job was
 *     cancelled); nodes also poll, since a notification is lost while a
 *     connection is down.
 * Every statement is parameterized (PQexecParams); a schema version is
 * kept in the database and migrated forward under an advisory lock.
 *
 * One sp_dmn_queue is one connection, used by one thread at a time. A call
 * that finds the connection broken returns SP_ERR_IO; sp_dmn_q_ensure then
 * reconnects, no more often than a backoff allows (100 ms doubling to
 * 5 s). Messages never hold the password (sp_dmn_q_describe).
 */
#ifndef SP_DAEMON_QUEUE_H
#define SP_DAEMON_QUEUE_H

#include <stddef.h>
#include <stdint.h>
#include "snarkpipe.h"

typedef struct sp_dmn_queue sp_dmn_queue;

#define SP_DMN_Q_DIGEST_HEX 65  /* 64 hex digits of a SHA-256 and a NUL */
#define SP_DMN_Q_SCHEMA 3       /* the schema version this code writes */

/* 1 when the queue is built in (libpq was found), else 0. */
int sp_dmn_q_available(void);

/* A connection string without its password, for logs and status: the
 * host, port, database and user it names ("?" parts when unreadable). */
void sp_dmn_q_describe(char *out, size_t out_len, const char *conninfo);

/*
 * Connects to conninfo (a postgresql:// URI or key=value pairs); with
 * migrate, creates or upgrades the schema first (at most one node at a
 * time, under an advisory lock).
 * Returns SP_OK (*q set), SP_ERR_UNSUPPORTED (built without libpq),
 *   SP_ERR_IO (cannot connect), SP_ERR_FORMAT (the schema is newer than
 *   this code: err says which versions), SP_ERR_NOMEM.
 */
sp_status sp_dmn_q_open(sp_dmn_queue **q, const char *conninfo, int migrate, char err[SP_ERR_LEN]) SP_WARN_UNUSED;
void sp_dmn_q_close(sp_dmn_queue *q);
/* Reconnects a broken connection when the backoff allows (and LISTENs
 * again when it listened). Returns SP_OK when connected. */
sp_status sp_dmn_q_ensure(sp_dmn_queue *q, char err[SP_ERR_LEN]);
/* 1 while connected. */
int sp_dmn_q_connected(const sp_dmn_queue *q);
/* Time spent in statements and their number since open (for the farm's
 * overhead figures), and the reconnections made. */
void sp_dmn_q_stats(const sp_dmn_queue *q, double *ms, uint64_t *calls, uint64_t *reconnects);

/* ---- nodes ---- */

/* Takes node `name`'s lock on q's connection (a session advisory lock:
 * held while the connection lives, gone with a daemon that died), so that
 * two live daemons never share a node id. Again after each reconnection.
 * Returns SP_OK, SP_ERR_INVALID_ARG (another live connection holds it:
 * err says so) or SP_ERR_IO. */
sp_status sp_dmn_q_node_lock(sp_dmn_queue *q, const char *name, char err[SP_ERR_LEN]);

/*
 * Starts instance `inst` of node `name` (or renews its row): capacity,
 * the circuit digests it proves (n_dig of them) and how long it asks
 * finished jobs to be kept (keep_ms). Earlier instances of
 * the same name are gone (a restart of this host): their rows go and
 * their claims are queued again at once.
 * On output: *released the partitions so released; *recent 1 when such an
 * instance was seen within lease_ms (two live daemons with one node id?).
 */
sp_status sp_dmn_q_node_up(sp_dmn_queue *q, const char *inst, const char *name, int capacity, const char *const *dig,
                           size_t n_dig, long keep_ms, long lease_ms, size_t *released, int *recent,
                           char err[SP_ERR_LEN]);
/* A clean exit: the instance's claims are queued again (not counted as
 * attempts) and its row goes. */
sp_status sp_dmn_q_node_down(sp_dmn_queue *q, const char *inst, char err[SP_ERR_LEN]);

/* ---- circuits: what any node needs to take a job for a digest ---- */

/* Records (once per digest) what a job of this circuit carries: its
 * wires, public inputs and kind; name is the recording node's id for it
 * (shown only). */
sp_status sp_dmn_q_circuit_put(sp_dmn_queue *q, const char *digest, const char *name, uint32_t n_vars,
                               uint32_t n_public, int native, char err[SP_ERR_LEN]);
/* What a node recorded for digest: 200 (facts set), 404, 503, 500. */
int sp_dmn_q_circuit_get(sp_dmn_queue *q, const char *digest, uint32_t *n_vars, uint32_t *n_public, int *native,
                         char err[SP_ERR_LEN]);

/* ---- submitting and reading jobs ---- */

typedef struct {
    const char *request_id;   /* NULL or "": none */
    const uint8_t *payload;   /* 32 bytes: a digest of what the job proves (circuit digest, inputs); a
                                 request_id used again is answered by comparing it */
    const char *circuit;      /* the name the submitter gave (shown only) */
    const char *digest;       /* the circuit's content digest (claims match it) */
    int native;               /* inputs are native inputs, not .wtns files */
    int priority;
    uint32_t n_public;
    size_t n;                 /* partitions */
    const uint8_t *const *input; /* n inputs */
    const size_t *input_len;
    const uint8_t *const *expect_pub; /* NULL, or n rows of n_public * 32 bytes (canonical
                                         little-endian): what each proof's publics must be */
    const char *node;         /* the submitting node's name */
    const char *client;       /* who submitted it (queued jobs are limited per client) */
    int max_queued;           /* the client's queued jobs at most (0: no limit) */
    long keep_ms;             /* the submitter's retention of finished jobs */
    long deadline_ms;         /* > 0: fails when a partition is still queued this long after submission */
} sp_dmn_q_job;

/*
 * Inserts a job and its partitions (one transaction) and wakes the nodes.
 * Returns 202 (*id its number, *ahead the unfinished jobs of at least its
 * priority before it, counted up to SP_DMN_Q_AHEAD_MAX), 200 (request_id names a job still kept with
 * this payload, submitted by any node: *id is that job, nothing inserted), 409 (request_id names a kept
 * job with another payload: *id is that job, err says so), 429 (the client has max_queued jobs queued: err), 503 (the database is unreachable: err), 500 (another
 * database error: err).
 */
#define SP_DMN_Q_AHEAD_MAX 10000
int sp_dmn_q_submit(sp_dmn_queue *q, const sp_dmn_q_job *job, int64_t *id, uint64_t *ahead, char err[SP_ERR_LEN]);

typedef enum { SP_DMN_QJ_QUEUED = 0, SP_DMN_QJ_COMPLETED, SP_DMN_QJ_FAILED, SP_DMN_QJ_CANCELLED } sp_dmn_qj_state;

typedef struct {
    int64_t id;
    char request_id[128];
    char circuit[72];         /* as the job names it: an id, or a digest (64) */
    sp_dmn_qj_state state;
    size_t n_parts;
    char error[32], detail[SP_ERR_LEN];
    char *result;             /* completed: the result JSON text (free() it), else NULL */
    size_t result_len;
    double age_ms;            /* since submission (database clock) */
    double total_ms;          /* submission to the end (finished jobs), else 0 */
    /* pending jobs: each partition's state ("queued", "claimed", "done",
     * "failed", "cancelled") and the node that holds or proved it ("" none) */
    char (*part_state)[12];
    char (*part_node)[64];
    struct sp_dmn_q_attempt *att; /* with attempts: the claims made, oldest first */
    size_t n_att;
} sp_dmn_q_jobinfo;

/* One claim of a partition (sp_attempts): the node instance, when it
 * began and ended (ms since the job's submission; end < 0 while open),
 * and how it ended: "proved", "late" (its proof came after the claim was
 * taken over), "expired" (its lease ran out or its node went), "stalled"
 * (no progress within farm.progress_timeout), "run_limit" (ran past
 * farm.max_run), "handed_back" (its node stopped), "cancelled", or the
 * error code of a failure ("" while open). */
typedef struct sp_dmn_q_attempt {
    uint32_t idx;
    int64_t epoch;
    char node[96];
    double start_ms, end_ms;
    char outcome[24];
    char error[200];
} sp_dmn_q_attempt;

/*
 * Reads job `key`: "f<number>" is a job id, anything else a request id.
 * With parts, a pending job's partition states too; with attempts, its
 * attempts (at most SP_DMN_Q_MAX_ATTEMPTS_SHOWN, the latest).
 * Returns 200 (*info filled; free with sp_dmn_q_jobinfo_free), 404, 503, 500.
 */
#define SP_DMN_Q_MAX_ATTEMPTS_SHOWN 256
int sp_dmn_q_job_get(sp_dmn_queue *q, const char *key, int parts, int attempts, sp_dmn_q_jobinfo *info,
                     char err[SP_ERR_LEN]);
void sp_dmn_q_jobinfo_free(sp_dmn_q_jobinfo *info);

/*
 * Cancels job id unless it finished: its partitions stop being claimable,
 * the nodes working on them are told (sp_cancel) and drop them.
 * Returns 200 (*cancelled 1 when this call cancelled it, *was_running 1
 * when a partition was claimed or proved; *state the state it ends in),
 * 404, 503, 500.
 */
int sp_dmn_q_cancel(sp_dmn_queue *q, int64_t id, int *cancelled, int *was_running, sp_dmn_qj_state *state,
                    char err[SP_ERR_LEN]);

/* ---- working on partitions ---- */

typedef struct {
    int64_t job;
    uint32_t idx;
    int64_t epoch;            /* the fencing token of this claim */
    int attempts;             /* claims of this partition so far, this one included */
    char digest[SP_DMN_Q_DIGEST_HEX];
    uint8_t *input;           /* malloc'ed; the caller frees it */
    size_t input_len;
    uint8_t *expect_pub;      /* malloc'ed or NULL */
    size_t expect_pub_len;
} sp_dmn_q_claim;

/*
 * Claims queued partitions of the given digests (fewer than max_attempts
 * claims so far), best first (priority, then the oldest job, then the
 * partition index), for lease_ms: at most max of them, and only a prefix
 * of that order whose memory fits room_bytes (a partition of dig[i]
 * weighs bytes[i]). Each claim opens a row of the attempts table.
 * On output: *out n claims (free with sp_dmn_q_claims_free).
 */
sp_status sp_dmn_q_claim_parts(sp_dmn_queue *q, const char *inst, const char *const *dig, const uint64_t *bytes,
                               size_t n_dig, size_t max, uint64_t room_bytes, long lease_ms, int max_attempts,
                               sp_dmn_q_claim **out, size_t *n, char err[SP_ERR_LEN]);

/* Queues again every claim nobody holds any more (its lease ran out, or
 * its instance is gone or unknown, judged with lease_ms), closing its
 * attempt as "expired", and wakes the nodes. *n the claims so queued. */
sp_status sp_dmn_q_reap(sp_dmn_queue *q, long lease_ms, size_t *n, char err[SP_ERR_LEN]);
void sp_dmn_q_claims_free(sp_dmn_q_claim *c, size_t n);

typedef struct {
    int64_t job;
    uint32_t idx;
    int64_t epoch;
    int held;                 /* output of sp_dmn_q_heartbeat */
} sp_dmn_q_hold;

/* Renews the instance's row and the leases of the partitions given
 * (h[0..n): those it holds and works on); h[i].held = 0 for one that is
 * no longer its claim (taken over, cancelled, failed). *node_lost 1 when
 * the instance's row had gone (it is made again). */
sp_status sp_dmn_q_heartbeat(sp_dmn_queue *q, const char *inst, const char *name, int capacity, const char *const *dig,
                             size_t n_dig, long keep_ms, long lease_ms, sp_dmn_q_hold *h, size_t n, int *node_lost,
                             char err[SP_ERR_LEN]);

typedef struct {
    const uint8_t *proof;     /* the 192-byte bellperson encoding */
    const uint8_t *publics;   /* n_public * 32 bytes, canonical little-endian */
    size_t publics_len;
    double synth_ms, gpu_ms, finish_ms;
} sp_dmn_q_proof;

/* Stores the proof of a claim (fenced: only under the same epoch, by the
 * same instance, while claimed). *stored 0 when the claim was no longer
 * ours (nothing changed); *last 1 when every other partition of the job
 * has its proof (the job is ready to assemble). */
sp_status sp_dmn_q_store(sp_dmn_queue *q, const char *inst, const sp_dmn_q_claim *c, const sp_dmn_q_proof *p,
                         int *stored, int *last, char err[SP_ERR_LEN]);

/* Gives a claim up (fenced). fail = 0: queued again for any node,
 * counted as an attempt when count_attempt (then, when it was the
 * max_attempts-th claim, the job fails instead); fail = 1: the partition
 * failed for good. A failing job gets code and why; the attempt ends
 * with code as its outcome ("handed_back" when not counted). *done 0
 * when the claim was no longer ours. */
sp_status sp_dmn_q_release(sp_dmn_queue *q, const char *inst, const sp_dmn_q_claim *c, int fail, int count_attempt,
                           int max_attempts, const char *code, const char *why, int *done, char err[SP_ERR_LEN]);

/* One partition of a job being assembled. */
typedef struct {
    uint32_t idx;
    const uint8_t *proof;     /* NULL when absent or not 192 bytes */
    const uint8_t *publics, *expect_pub; /* as stored (expect_pub NULL for native jobs) */
    size_t publics_len, expect_pub_len;
    const char *proved_by;
    double synth_ms, gpu_ms, finish_ms;
} sp_dmn_q_part;

typedef struct {
    int64_t id;
    const char *request_id, *circuit, *digest;
    size_t n_parts;
    double queue_wait_ms;     /* submission to the first claim */
    double total_ms;          /* submission to now */
} sp_dmn_q_asm_job;

/*
 * The verdict of an assembly callback: ok = 1 with the result text
 * (malloc'ed, taken) completes the job; else the n_bad partitions listed
 * in bad (their proofs did not verify) are queued again.
 */
typedef struct {
    int ok;
    char *result;
    size_t result_len;
    uint32_t *bad;
    size_t n_bad;
} sp_dmn_q_verdict;

typedef void (*sp_dmn_q_assemble_fn)(void *ctx, const sp_dmn_q_asm_job *job, const sp_dmn_q_part *parts,
                                     sp_dmn_q_verdict *v);

/*
 * Assembles job id in one transaction holding its row: when it is still
 * queued and every partition has a proof, calls fn with them and applies
 * its verdict (completed, or the bad partitions queued again; nodes
 * woken either way). *outcome: 0 not ready or finished already, 1
 * completed, 2 partitions queued again.
 */
sp_status sp_dmn_q_assemble(sp_dmn_queue *q, int64_t id, sp_dmn_q_assemble_fn fn, void *ctx, int *outcome,
                            char err[SP_ERR_LEN]);

/* Jobs of these digests whose partitions all have proofs but which are
 * not finished (their assembler died): at most max ids into ids. */
sp_status sp_dmn_q_ready_jobs(sp_dmn_queue *q, const char *const *dig, size_t n_dig, int64_t *ids, size_t max,
                              size_t *n, char err[SP_ERR_LEN]);

/* Housekeeping: fails the jobs with a queued partition claimed
 * max_attempts times (*failed) and the jobs past their deadline with a
 * partition still queued (*late; the reason says whether any live node
 * proves the circuit); deletes finished jobs older than the longest of
 * their own retention, keep_ms and every node's, and instance rows not
 * seen for 10 leases. */
sp_status sp_dmn_q_janitor(sp_dmn_queue *q, int max_attempts, long keep_ms, long lease_ms, size_t *failed,
                           size_t *late, char err[SP_ERR_LEN]);

/* ---- notifications ---- */

/* LISTENs on sp_work, sp_done and sp_cancel (again after a reconnect). */
sp_status sp_dmn_q_listen(sp_dmn_queue *q, char err[SP_ERR_LEN]);
/* The socket to poll for notifications (-1 when disconnected). */
int sp_dmn_q_socket(const sp_dmn_queue *q);
/* Reads what arrived: sp_work and sp_cancel counted (added to *work,
 * *cancel), each sp_done given to on_done with the job's number (0 when
 * its payload is not "f<number>"). Returns SP_OK, or SP_ERR_IO when the
 * connection broke. */
sp_status sp_dmn_q_drain_notifies(sp_dmn_queue *q, int *work, int *cancel, void (*on_done)(void *ctx, int64_t id),
                                  void *ctx);

#endif
