/*
 * The daemon's shared types: struct sp_dmn and the plain records it holds
 * (circuits, jobs, the tracker, connections). No functions: each layer's
 * header declares its own, above this one (not an interface: only
 * daemon.h is):
 *
 *   types.h      these types
 *   state.h      settings.c (the reloadable settings, the token check),
 *                state.c (the state directory)
 *   services.h   registry.c, keypath.c, jobs.c, tracker.c, restore.c,
 *                the farm's life (farm/worker.c; its parts: farm/farm.h)
 *   transport.h  http.c: HTTP without routes
 *   api.h        the routes: api.c, api_circuits.c, status.c, page.c,
 *                farm/api.c, and routes.c's table
 *   daemon.h     server.c: the daemon's life
 *
 * A file includes its own layer's header and lower ones, and calls only
 * into its layer and lower ones (tools/check-layers.sh). Below them all
 * sit the parts that know no sp_dmn: config.h, native.h, wasmcirc.h,
 * wire.h, form.h, log.h and the farm's queue (farm/queue.h).
 *
 * The daemon is an HTTP front over one in-process engine:
 *
 *   listeners (libmicrohttpd, one thread per connection, http.c)
 *     -> routes (api.c: circuits, jobs, prove; status.c: status, metrics)
 *     -> registry (registry.c: circuits and their residency tier)
 *     -> job table (jobs.c) -> engine (engine/engine.h)
 *   engine notifier thread -> jobs_on_done: result JSON, references dropped
 *   engine TIMELINE -> pipe -> tracker thread (tracker.c): timings,
 *     histograms, the recent-partition waterfall the status page draws
 *   main thread (server.c): signals (SIGTERM/SIGINT drain or cancel,
 *     SIGHUP reload) and a 250 ms housekeeping tick (key demotion, expiry
 *     of finished jobs).
 *
 * Handlers run on connection threads and may block (a key load, an
 * await); connections are bounded by max_connections per listener.
 *
 * Locks. submit_mu -> jobs.mu. jobs.mu is held around sp_engine_submit,
 * sp_engine_cancel and status snapshots, so the engine's locks nest inside
 * it (the engine calls back without its locks held). reg.mu is never held
 * across an engine call; trk.mu, cfg_mu and conn_mu are leaves. No lock is held
 * while a key is parsed or a result is encoded.
 */
#ifndef SP_DAEMON_TYPES_H
#define SP_DAEMON_TYPES_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "daemon/config.h"
#include "daemon/native.h"
#include "daemon/ops.h"
#include "daemon/wasmcirc.h"
#include "daemon/wire.h"
#include "engine/engine.h"

typedef struct sp_dmn sp_dmn;
struct sp_dmn_farm;  /* farm/farm.h */
struct sp_dmn_route; /* transport.h */

/* ---- circuits (registry.c) ---- */

/* Where a circuit's key stands: on disk only, its files mapped, or parsed
 * and registered with the engine. */
typedef enum { SP_DMN_TIER_COLD = 0, SP_DMN_TIER_WARM = 1, SP_DMN_TIER_HOT = 2 } sp_dmn_tier;

/* Where a circuit came from: the configuration, POST /v1/circuits by path,
 * or an upload (only the last two are kept in the state directory). */
typedef enum { SP_DMN_SRC_CONFIG = 0, SP_DMN_SRC_API = 1, SP_DMN_SRC_UPLOAD = 2 } sp_dmn_circ_source;

/* What a circuit's jobs carry: .wtns witnesses, native inputs (a seed and
 * a partition each: daemon/native.h), or input.json texts for a circuit
 * registered with its .wasm (daemon/wasmcirc.h). */
typedef enum { SP_DMN_TAKES_WITNESS = 0, SP_DMN_TAKES_SEEDS = 1, SP_DMN_TAKES_INPUT_JSON = 2 } sp_dmn_takes;

typedef struct dcircuit {
    char id[64];
    char zkey[SP_DMN_CONF_PATH], params[SP_DMN_CONF_PATH], r1cs[SP_DMN_CONF_PATH];
    sp_dmn_circ_source source;
    int preload;
    /* a native circuit (its jobs carry inputs): as given, and open from
     * registration to the entry's end; nat NULL for any other circuit */
    sp_dmn_native native;
    sp_dmn_native_circ *nat;
    /* a circuit with its witness generator (its jobs carry input.json):
     * the .wasm, read and checked at registration; wc NULL without one */
    char wasm[SP_DMN_CONF_PATH];
    sp_dmn_wasmc *wc;
    /* facts read at registration, so requests are checked even when cold */
    uint32_t n_vars, n_public, domain_size;
    uint64_t file_bytes;       /* key file (+ r1cs) on disk */
    sp_dmn_tier tier;
    int busy;                  /* a promotion or demotion is running (outside reg.mu) */
    size_t refs;               /* jobs submitted and not finished */
    double last_used_ms;
    /* hot: parsed (the curve's, daemon/ops.h) and registered with the engine; NULL otherwise */
    sp_dmn_key *key;
    size_t hot_bytes;
    /* warm (and hot): the files mapped */
    void *map_key, *map_cs;
    size_t map_key_len, map_cs_len;
    /* counters */
    double last_load_ms;
    int last_key_cache;        /* what the key cache did at the last load (sp_kc_outcome; 0 = off) */
    uint64_t loads, demotions;
    uint64_t proofs_ok, proofs_failed, jobs_ok, jobs_failed, jobs_cancelled;
    int registering;           /* being added: visible to duplicate checks only */
    uint64_t gen;              /* which registration this is (a number no other one of this run has) */
    struct dcircuit *next;
} dcircuit;

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;          /* busy flags cleared */
    dcircuit *head;
    size_t n;
    size_t hot_bytes, warm_bytes;
    uint64_t next_gen;          /* the last registration's gen */
} dregistry;

/* ---- jobs (jobs.c) ---- */

typedef struct djob {
    sp_dmn *d;
    char id[40];
    char request_id[128];
    char circuit_id[64];
    uint8_t payload[32];       /* SHA-256 of its circuit and inputs: a reused request id is compared with it */
    int has_payload;           /* 0: a result restored without one (never equal) */
    char client[40];           /* who submitted it (sp_dmn_auth; "" restored): its unfinished jobs are limited */
    dcircuit *circ;            /* referenced until the job finishes */
    int priority;
    size_t n_parts;
    char *json;                /* a .wasm circuit's job: its input.json texts, back to back, until it finished */
    sp_dmn_wasm_input *json_in; /* n_parts pointers into json (what the engine copies) */
    sp_engine_job *ej;         /* NULL once finished (the handle is released in on_done) */
    int finished;
    sp_status status;
    char err[SP_ERR_LEN];
    char *result;              /* JSON text once finished */
    size_t result_len;
    double t_submit, t_done;   /* sp_dmn_wire_now_ms */
    double t_submit_unix;      /* wall clock ms (kept in the state directory) */
    int client_cancelled;      /* DELETE /v1/jobs/ID (not a shutdown) */
    int watchers;              /* HTTP threads reading it: not reaped while > 0 */
    size_t queue_pos;          /* unfinished jobs of at least its priority when it was queued */
    atomic_int percent;        /* the highest progress percent answered (it never goes back) */
    struct djob *prev, *next;
} djob;

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;         /* a job finished, or the daemon is stopping */
    djob *head, *tail;
    size_t n, n_live;
    uint64_t next_id;
    char tag[8];               /* per-start random tag in job ids */
} djobs;

/* ---- the TIMELINE reader (tracker.c) ---- */

#define SP_DMN_TRK_BARS 1024
#define SP_DMN_TRK_DONE 4096
#define SP_DMN_TRK_BUCKETS 16

typedef enum {
    SP_DMN_STAGE_QUEUE = 0,
    SP_DMN_STAGE_SYNTH,
    SP_DMN_STAGE_GPU,
    SP_DMN_STAGE_FINISH,
    SP_DMN_STAGE_TOTAL,
    SP_DMN_STAGE_N
} sp_dmn_stage;

typedef struct {
    uint64_t seq;
    uint32_t part;
    int kind;                  /* 0 synth, 1 lock wait, 2 gpu, 3 finish */
    int lane;                  /* index into lanes */
    double t0, t1;             /* engine ms; t1 < 0 while running */
    char job[40];
    int steps;                 /* device bars: the backend's steps reported so far (DEV_STAGE) */
    char step[24];             /* and the last one's name */
} trk_bar;

typedef struct {
    uint64_t seq;
    char job[40];
    double t_submit, t_first_synth, t_done;
    double synth_ms, gpu_ms, finish_ms;
    size_t n_parts, n_proved;  /* partitions (JOB_SUBMIT) and those finished (FINISH_END) */
    int done;
} trk_job;

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;         /* a JOB_DONE arrived */
    pthread_t thread;
    int running;
    int fd, wfd;               /* read and write ends of the pipe (-1 when closed) */
    FILE *tee;                 /* the configured timeline file, or NULL */
    int n_synth, n_gpu_workers, n_finish, n_dev;
    trk_bar bars[SP_DMN_TRK_BARS];
    size_t bar_next;
    trk_job jobs[SP_DMN_TRK_DONE];  /* ring by seq % SP_DMN_TRK_DONE */
    /* histograms (seconds) per stage */
    uint64_t hist[SP_DMN_STAGE_N][SP_DMN_TRK_BUCKETS + 1];
    double hist_sum[SP_DMN_STAGE_N];
    uint64_t hist_count[SP_DMN_STAGE_N];
    uint64_t lines;
    int steps_per_call;        /* the backend's steps in the last device call that ended (0: none yet) */
    int (*side_stage)(const char *stage); /* the curve's sp_backend_side_stage (set at start) */
} dtracker;

/* ---- the daemon ---- */

#define SP_DMN_HTTP_CODES 8 /* counted classes: 2xx 400 401 404 409 413 other-4xx 5xx */

/* One open connection (http.c), for the header and body deadlines. */
typedef struct dconn {
    int fd;
    double deadline;           /* sp_dmn_wire_now_ms; 0 = none (a request being answered) */
    int bad_url;               /* the request's URL held a control byte (its thread only) */
    struct dconn *prev, *next;
} dconn;

typedef struct {
    int fd;
    sp_dmn_addr addr;              /* as bound (port 0 resolved) */
    char text[SP_DMN_CONF_PATH];
    void *mhd;                 /* struct MHD_Daemon * */
    sp_dmn *d;
    int loopback;              /* TCP on a loopback address: Host must be a loopback name (no token) */
} dlistener;

struct sp_dmn {
    const sp_dmn_ops *ops;        /* the curve it proves (daemon/ops.h) */
    sp_dmn_conf cfg;              /* live configuration; reloadable fields under cfg_mu */
    pthread_mutex_t cfg_mu;
    char token[4096];          /* "" = no auth; under cfg_mu */
    char (*client_tokens)[4096]; /* cfg.n_clients tokens, in cfg.clients' order; under cfg_mu */
    int argc;
    char **argv;
    sp_engine *eng;
    struct sp_dmn_farm *farm;      /* farm.queue set: the farm node (farm/worker.c); else NULL */
    dregistry reg;
    djobs jobs;
    dtracker trk;
    dlistener ls[SP_DMN_CONF_MAX_LISTEN];
    int n_ls;
    char upload_dir[SP_DMN_CONF_PATH];
    int upload_dir_temp;       /* a private temporary directory, removed at exit */
    atomic_int draining;       /* no new jobs */
    atomic_int stopping;       /* waits end now */
    atomic_int paused;
    int state_lock_fd;         /* state_dir/daemon.lock, locked (-1: none) */
    double t_start;            /* sp_dmn_wire_now_ms at start */
    size_t engine_budget;      /* the engine's resolved byte budget */
    size_t body_cap;           /* server.body_memory resolved: taken out of engine.budget */
    atomic_size_t body_bytes;  /* bytes of request bodies reserved now (http.c) */
    pthread_mutex_t submit_mu; /* one submission at a time: request-id check, state file, engine */
    pthread_mutex_t conn_mu;   /* conns (a leaf) */
    dconn *conns;
    const struct sp_dmn_route *routes; /* what the transport dispatches to (sp_dmn_http_start) */
    size_t n_routes;
    atomic_ullong conns_cut;   /* connections closed for a late header or body */
    atomic_ullong http_codes[SP_DMN_HTTP_CODES];
    atomic_ullong requests, rejected_submits;
    atomic_int active_requests; /* requests read and not yet fully answered */
};

#endif
