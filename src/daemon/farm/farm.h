/*
 * The farm's state, shared by worker.c (the worker that claims, proves and
 * stores partitions), its parts (circuits.c, assemble.c, pool.c) and api.c
 * (the HTTP side: submit, await, cancel, status). A service (its rank is
 * services.h's): not an interface: services.h declares the node's life
 * that the rest of the daemon calls, api.h the HTTP side; queue.h is the
 * database.
 *
 * Threads and locks. The worker thread owns its database connection (it
 * LISTENs there too); the starter thread turns claims into engine jobs
 * (loading keys and parsing witnesses can take long, and the worker must
 * keep renewing leases meanwhile); the engine's notifier thread ends them
 * (claim_done); HTTP threads take connections from a small pool. f->mu
 * guards the claims list, the circuits list, the pool and the counters;
 * it is a leaf except that the worker, holding it, may call
 * sp_engine_cancel (the engine calls back without its own locks held, so
 * the order f->mu -> engine is the only one).
 */
#ifndef SP_DAEMON_FARM_H
#define SP_DAEMON_FARM_H

#include <pthread.h>
#include "daemon/services.h"
#include "daemon/farm/queue.h"

#define SP_DMN_FARM_POOL 16       /* HTTP connections at most */
#define SP_DMN_FARM_DONE_RING 256 /* job endings an awaiter can tell apart between two looks */

typedef enum {
    FC_STARTING = 0,          /* claimed; the starter has not made it an engine job yet */
    FC_RUNNING,               /* in the engine */
    FC_DONE,                  /* proved and verified: to store */
    FC_FAILED                 /* to release (queued again) or to fail for good */
} fc_state;

typedef struct fclaim {
    struct sp_dmn_farm *f;
    sp_dmn_q_claim c;             /* c.input freed once started */
    fc_state state;
    int taken;                /* the starter works on it */
    int lost;                 /* no longer ours (heartbeat): dropped without a write */
    int given_up;             /* lost because it stalled or overran here: the node claims nothing
                                 more until it ends (a wedged prover is fed no more work) */
    int permanent;            /* FC_FAILED: the input itself is bad (the job fails at once) */
    int by_us;                /* FC_FAILED: cancelled by this node's shutdown (not an attempt) */
    uint64_t bytes;           /* its weight against farm.memory (its circuit's partition bytes) */
    double claimed_ms;        /* sp_dmn_wire_now_ms when claimed (farm.max_run counts from here) */
    double progress_ms;       /* when it last moved to a next stage (farm.progress_timeout) */
    int stage;                /* the stage it was last seen in (worker.c's stage_of) */
    dcircuit *circ;           /* referenced while in the engine */
    sp_engine_job *ej;        /* set while the engine holds it */
    uint8_t proof[192];
    uint8_t *publics;
    size_t publics_len;
    double synth_ms, gpu_ms, finish_ms;
    sp_status status;         /* FC_FAILED: why (its error code in the job's answer) */
    char err[SP_ERR_LEN];
    struct fclaim *next;
} fclaim;

/* A registered circuit as the farm knows it: its content digest. */
typedef struct fcirc {
    char id[64];
    uint64_t gen;             /* the registration digested (a new one of the id: digested again) */
    char digest[SP_DMN_Q_DIGEST_HEX];
    uint32_t n_vars, n_public;
    int native;
    int have_pvk;             /* set from the key when it was first loaded for a claim */
    sp_dmn_pvk *pvk;
    int gone;                 /* unregistered, or replaced by a newer entry */
    int recorded;             /* its facts are in the database (sp_circuits) */
    uint64_t part_bytes;      /* what one partition reserves in the engine (0: not known yet, the key
                                 never loaded here) */
    struct fcirc *next;
} fcirc;

typedef struct sp_dmn_farm {
    sp_dmn *d;
    char conninfo[SP_DMN_CONF_PATH];
    char desc[256];           /* conninfo without its password */
    char name[64], inst[96];  /* node id; instance = node id + "/" + random hex */
    long lease_ms, poll_ms, progress_ms, max_run_ms;
    int capacity, max_attempts;
    uint64_t memory;          /* bytes of partitions held at once (farm.memory) */
    char wedge[64];           /* tests: claims of this circuit id ("*": all) never start ($SP_FARM_TEST_WEDGE) */
    sp_dmn_queue *q;              /* the worker's connection */
    pthread_t worker, starter;
    int worker_started, starter_started;
    int wake[2];              /* pipe: anything written wakes the worker */

    pthread_mutex_t mu;
    pthread_cond_t cv_start;  /* the starter: a claim to start, or stop */
    pthread_cond_t cv_done;   /* awaiters: done_gen moved */
    pthread_cond_t cv_pool;   /* a pool connection came back */
    pthread_cond_t cv_idle;   /* no engine job of the farm running (stop waits) */
    uint64_t done_gen;        /* job endings heard of (NOTIFY sp_done) and poll ticks, counted */
    int64_t done_ring[SP_DMN_FARM_DONE_RING]; /* entry g % RING: the job of ending g; 0 = a poll tick
                                             (every awaiter looks again) */
    fclaim *claims;
    size_t n_claims, n_engine;
    fcirc *circs;
    int draining, cancel_all, stopping, connected, refresh;
    sp_dmn_queue *pool[SP_DMN_FARM_POOL];
    int pool_busy[SP_DMN_FARM_POOL], pool_n, pool_max;
    double pool_seen_ms[SP_DMN_FARM_POOL];  /* each connection's statement time and count already added */
    uint64_t pool_seen_calls[SP_DMN_FARM_POOL], pool_seen_rec[SP_DMN_FARM_POOL];
    double http_ms;           /* the HTTP side's statement time, count and reconnections */
    uint64_t http_calls, http_reconnects;
    /* counters since start */
    uint64_t claimed, stored, fenced, released, failed, lost, assembled, rejected, db_errors, node_restarts;
    uint64_t stalled, overran, reaped;
    double wk_ms;             /* the worker connection's statement time, count and reconnections, */
    uint64_t wk_calls, wk_reconnects; /* published by the worker after each pass */
} sp_dmn_farm;

/* circuits.c: the circuit cache. Returns the entry of registered circuit
 * id (digested now when it is a registration the cache has not seen;
 * entries stay until the farm stops, so the pointer stays valid), or NULL
 * with err (unknown id, I/O). The HTTP side digests on demand, the
 * starter on refresh. A key file changed in place while registered is
 * not noticed (the registry does not either): register it again. */
const fcirc *sp_dmn_farm_circuit(sp_dmn_farm *f, const char *id, char err[SP_ERR_LEN]);
/* Brings the cache in line with the registry (new, changed, gone ids). */
void sp_dmn_farm_refresh(sp_dmn_farm *f);
/* The distinct digests this node proves (with_pvk: only those whose
 * verifying key it holds): *out a malloc'ed array of pointers into the
 * entries. _locked: f->mu held. */
size_t sp_dmn_farm_digests_locked(sp_dmn_farm *f, int with_pvk, const char ***out);
size_t sp_dmn_farm_digests(sp_dmn_farm *f, int with_pvk, const char ***out);
/* bytes[i]: what a partition of dig[i] reserves here (0: not known yet);
 * f->mu held. */
void sp_dmn_farm_bytes_locked(sp_dmn_farm *f, const char *const *dig, size_t n, uint64_t *bytes);
/* A live entry of digest (with_pvk: holding its verifying key), or NULL;
 * f->mu held. */
fcirc *sp_dmn_farm_by_digest_locked(sp_dmn_farm *f, const char *digest, int with_pvk);

/* assemble.c: assembles job id (every proof verified again); logs. */
void sp_dmn_farm_assemble(sp_dmn_farm *f, int64_t id, char err[SP_ERR_LEN]);

/* worker.c: wakes the worker. */
void sp_dmn_farm_wake(sp_dmn_farm *f);
/* worker.c: job id ended (0: everyone look again): wakes the awaiters. */
void sp_dmn_farm_job_ended(sp_dmn_farm *f, int64_t id);

/* pool.c: adds k to counter *c under f->mu. */
void sp_dmn_farm_count(sp_dmn_farm *f, uint64_t *c, uint64_t k);
/* pool.c: a pool connection (connected) or NULL with err (503). */
sp_dmn_queue *sp_dmn_farm_conn_get(sp_dmn_farm *f, char err[SP_ERR_LEN]);
void sp_dmn_farm_conn_put(sp_dmn_farm *f, sp_dmn_queue *q);

#endif
