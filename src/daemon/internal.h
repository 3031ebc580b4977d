/*
 * The daemon's state, shared by its files (not an interface: only
 * daemon.h is). The daemon is an HTTP front over one in-process engine:
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
#ifndef SP_DAEMON_INTERNAL_H
#define SP_DAEMON_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include "circuit/porep.h"
#include "daemon/config.h"
#include "daemon/native.h"
#include "daemon/wasmcirc.h"
#include "daemon/wire.h"
#include "engine/engine.h"
#include "groth16/keys.h"
#include "r1cs/r1cs.h"
#include "util/json.h"

typedef struct sp_dmn sp_dmn;

/* ---- registry.c: circuits and key residency ---- */

typedef enum { SP_DMN_TIER_COLD = 0, SP_DMN_TIER_WARM = 1, SP_DMN_TIER_HOT = 2 } sp_dmn_tier;
const char *sp_dmn_tier_name(sp_dmn_tier t);

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
    /* hot: parsed and registered with the engine */
    sp_g16_pk pk;
    sp_r1cs cs;
    int has_cs;
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

/* What a registration names. */
typedef struct {
    const char *id;
    const char *zkey, *params, *r1cs; /* NULL or "" when absent */
    int preload;
    sp_dmn_circ_source source;
    int restoring;                    /* from the state directory: its file is there already */
    const sp_dmn_native *native;         /* NULL, or a native circuit (zkey only) */
    const char *wasm;                 /* NULL or "", or the circuit's .wasm (beside a zkey) */
} reg_spec;

/* Registers a circuit: reserves the id, checks the files (headers; the
 * r1cs against the key; all of the key when preload, before any other key
 * is demoted to make room), adds it COLD or HOT and records it in the state
 * directory (source api/upload). A native circuit is opened first (its
 * parameters resolved) and its key must have the circuit's wires and
 * public inputs. Returns an HTTP code: 201, 400 (bad spec or unreadable
 * file), 409 (id taken), 422 (bad key, r1cs of another circuit, native
 * parameters the circuit refuses, a key of another native shape), 500 (the state directory cannot record it: nothing changed),
 * 507 (keys.max_circuits reached); err says why. */
int sp_dmn_reg_add(sp_dmn *d, const reg_spec *s, char err[SP_ERR_LEN]);
/* The two halves of sp_dmn_reg_add, for uploads: the id is taken (visible to
 * duplicate checks only) before the files are written, so two uploads
 * under one id never touch each other's files. reserve returns 0 (*out
 * set), 400, 409 or 507; add_reserved finishes (or abandons) it and
 * returns as sp_dmn_reg_add; abandon drops a reservation. */
int sp_dmn_reg_reserve(sp_dmn *d, const char *id, sp_dmn_circ_source src, dcircuit **out, char err[SP_ERR_LEN]);
int sp_dmn_reg_add_reserved(sp_dmn *d, dcircuit *c, const reg_spec *s, char err[SP_ERR_LEN]);
void sp_dmn_reg_abandon(sp_dmn *d, dcircuit *c);
/* A refusal of a file of the other curve ("zkey is for bn254 (bn128) but
 * this is the bls12-381 prover", the readers' words) made to say how to
 * get a daemon of that curve ("... start one with `--curve bn254` (or
 * `[engine] curve = bn254`) for this <thing>"). Returns 1 when err was
 * such a refusal (and is rewritten), else 0 (err unchanged). */
int sp_dmn_curve_hint(char err[SP_ERR_LEN], const char *thing);
/* Registration by path (keypath.c): path must name a regular file under
 * keys.key_dirs (symbolic links resolved) unless keys.any_key_path. On
 * output: resolved the canonical path. Returns 0, or 403 with err (which
 * says the same whether or not the file exists outside those
 * directories), 400 (inside them but missing or not a regular file). */
int sp_dmn_reg_check_path(sp_dmn *d, const char *path, char *resolved, size_t resolved_len, char err[SP_ERR_LEN]);
/* SIGHUP: how circuit cc of the configuration stands in the registry:
 * 0 absent, 1 registered from it unchanged, 2 registered from an earlier
 * version of the section, 3 the id belongs to an API or upload circuit. */
int sp_dmn_reg_config_state(sp_dmn *d, const sp_dmn_conf_circuit *cc);
/* A registered circuit's wires and domain (read at registration) and
 * what its jobs carry; 0, or -1 when unknown. */
int sp_dmn_reg_facts(sp_dmn *d, const char *id, uint32_t *n_vars, uint32_t *domain_size, sp_dmn_takes *takes);
/* What circuit c's jobs carry. */
sp_dmn_takes sp_dmn_reg_takes(const dcircuit *c);
/* What identifies a circuit's content (the farm digests it): its files
 * and, for a native circuit, its resolved parameters; its wires and
 * public inputs. */
typedef struct {
    char zkey[SP_DMN_CONF_PATH], params[SP_DMN_CONF_PATH], r1cs[SP_DMN_CONF_PATH];
    int native;
    char native_ident[320];    /* native only: its kind and shape (sp_dmn_native_ident) */
    int has_wasm;              /* registered with a .wasm (a farm does not take those) */
    uint32_t n_vars, n_public;
    uint64_t gen;              /* the registration (dcircuit.gen): a new one may name other files */
} reg_ident;
/* Fills *out for circuit id; 0, or -1 when unknown. */
int sp_dmn_reg_ident(sp_dmn *d, const char *id, reg_ident *out);
/* The ids registered now: *ids a malloc'ed array (free it) of the
 * returned count (0 with *ids NULL when out of memory). */
size_t sp_dmn_reg_ids(sp_dmn *d, char (**ids)[64]);
/* Finds id, takes a reference and makes it HOT (loading it when needed).
 * Returns 200 (*out set), 404, 422 (the key failed to load), 503
 * (shutting down). */
int sp_dmn_reg_acquire(sp_dmn *d, const char *id, dcircuit **out, char err[SP_ERR_LEN]);
/* Drops a reference taken by sp_dmn_reg_acquire, counting the job's outcome. */
void sp_dmn_reg_release(sp_dmn *d, dcircuit *c, sp_status job_status, size_t n_parts);
/* Drops a reference that never became a job (submission refused). */
void sp_dmn_reg_unref(sp_dmn *d, dcircuit *c);
/* Writes the object describing circuit id; returns 0, or -1 when unknown. */
int sp_dmn_reg_describe(sp_dmn *d, const char *id, sp_json_writer *w);
/* 1 when id is registered (or being registered). */
int sp_dmn_reg_exists(sp_dmn *d, const char *id);
/* Evicts id: 200 (*freed set), 404, 409 (referenced or loading). */
int sp_dmn_reg_evict(sp_dmn *d, const char *id, size_t *freed, char err[SP_ERR_LEN]);
/* Housekeeping: idle demotion and both budgets. */
void sp_dmn_reg_tick(sp_dmn *d);
/* Writes {"circuits":[...], hot/warm bytes and budgets} members into an open object. */
void sp_dmn_reg_json(sp_dmn *d, sp_json_writer *w);
/* Prometheus lines of the per-circuit counters and key bytes. */
void sp_dmn_reg_metrics(sp_dmn *d, char **buf, size_t *len, size_t *cap);
/* Unregisters and frees everything (at shutdown, after the engine has no jobs). */
void sp_dmn_reg_free_all(sp_dmn *d);

/* ---- jobs.c: the job table ---- */

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

typedef struct {
    const char *request_id;    /* NULL or "" */
    int priority;
    sp_fr **witness;           /* n arrays of the circuit's n_vars values; taken on success */
    size_t n;
    const uint8_t *const *raw; /* the n .wtns files they came from (recorded in the state directory) */
    const size_t *raw_len;
    const char *id;            /* NULL: a new id; else the id of a job restored from the state directory */
    double t_submit_unix;      /* restored jobs: when it was accepted */
    const sp_porep_input *inputs; /* a native circuit's job: n inputs (copied), witness and raw NULL */
    int json_inputs;           /* a .wasm circuit's job: raw holds n input.json texts (copied), witness NULL */
} job_spec;

/* An accepted job read back from the state directory. */
typedef struct {
    const char *id, *circuit, *request_id;
    int priority;
    double submitted_ms;       /* wall clock */
    const uint8_t *const *w;   /* its .wtns files */
    const size_t *wl;
    size_t n;
    const sp_porep_input *inputs; /* a native job: its n inputs instead (w, wl NULL) */
    int json_inputs;           /* w holds input.json texts (a .wasm circuit's job) */
} restore_spec;

/* Submits: records the job in the state directory (its .wtns files or its
 * inputs, with fsync) and gives it to the engine. Returns 202 (*out a referenced job:
 * drop with sp_dmn_jobs_put), 200 (the request id names a job still held,
 * finished or not, of the same circuit and inputs: *out is that job, and
 * nothing new runs), 409 (it names one of other inputs), 413 (more partitions than the engine ever holds), 422 (a
 * partition larger than the whole engine budget), 500 (the state
 * directory cannot record it), 503 (engine full for now, or shutting
 * down), 400. The circuit reference passes to the job on success. */
int sp_dmn_jobs_submit(sp_dmn *d, dcircuit *c, const job_spec *s, djob **out, size_t *queue_pos, char err[SP_ERR_LEN]);
/* The same for a client (sp_dmn_auth's; NULL: none): also 429 when
 * max_queued > 0 and it has that many jobs not finished. */
int sp_dmn_jobs_submit_for(sp_dmn *d, const char *client, int max_queued, dcircuit *c, const job_spec *s, djob **out,
                           size_t *queue_pos, char err[SP_ERR_LEN]);
/* At start, from the state directory: resubmits an accepted job under its
 * id, or, when why_bad says it cannot run (or the circuit is gone, or a
 * witness is bad), records it as failed. */
void sp_dmn_jobs_restore(sp_dmn *d, const restore_spec *rs, const char *why_bad);
/* At start: a finished job's result (JSON text), finished age_ms ago;
 * payload its recorded digest (NULL when the file had none). */
void sp_dmn_jobs_adopt_result(sp_dmn *d, const char *id, sp_status st, const char *result, size_t len, double age_ms,
                              const uint8_t *payload);
/* 1 when a job has this job id (no reference taken). */
int sp_dmn_jobs_get_quiet(sp_dmn *d, const char *id);
/* Finds id (job id, else request id) and takes a watcher reference. */
djob *sp_dmn_jobs_get(sp_dmn *d, const char *id);
void sp_dmn_jobs_put(sp_dmn *d, djob *j);
/* Waits until j finished, the time ran out or the daemon stops.
 * Returns 1 when finished. */
int sp_dmn_jobs_wait(sp_dmn *d, djob *j, long wait_ms);
/* Cancels: sets *was_running; returns 0 when it was already finished. */
int sp_dmn_jobs_cancel(sp_dmn *d, djob *j, int *was_running);
void sp_dmn_jobs_cancel_all(sp_dmn *d);
size_t sp_dmn_jobs_live(sp_dmn *d);
/* Parts of a result, shared with the farm (farm/worker.c): "proofs" (n proofs,
 * the public signals row k at pub + k * n_public, each proof's node when
 * nodes is not NULL), "timings_ms" (stage times, null when not known),
 * and the "error" code of a failed job's status. */
void sp_dmn_jobs_proofs_json(sp_json_writer *w, const sp_g16_proof *proofs, const sp_fr *pub, size_t n,
                             uint32_t n_public, const char *const *nodes);
void sp_dmn_jobs_timings_json(sp_json_writer *w, const double *t, int known); /* SP_DMN_STAGE_N times */
const char *sp_dmn_jobs_error_code(sp_status st);
/*
 * The one reading of a job's .wtns: data[0..len) parsed and its count
 * checked against the circuit's n_vars (the circuit named id in messages).
 * On output: *w the values (free()) on SP_OK; NULL otherwise.
 * Returns SP_OK; SP_ERR_FORMAT (a count that is not n_vars) or the
 *   reader's status, with err saying why.
 */
sp_status sp_dmn_jobs_witness(sp_fr **w, const uint8_t *data, size_t len, uint32_t n_vars, const char *id,
                              char err[SP_ERR_LEN]);
/* Writes the members every job answer starts with: job_id, request_id
 * (when the client gave one) and circuit. */
void sp_dmn_jobs_json_head(sp_json_writer *w, const djob *j);
/* Writes the state of a pending job (engine snapshot) as a JSON object:
 * partition_states and its "progress" (jobs.c says how it is estimated). */
char *sp_dmn_jobs_pending_json(sp_dmn *d, djob *j, size_t *len);
/* A partition's state as the API names it: the engine's names, "device"
 * for its device call (whatever the backend: cpu, cuda). */
const char *sp_dmn_part_state_name(sp_engine_part_state s);
/* Drops finished jobs older than result_ttl (and the oldest beyond the cap). */
void sp_dmn_jobs_tick(sp_dmn *d);
void sp_dmn_jobs_free_all(sp_dmn *d);

/* ---- state.c: the state directory (one file per circuit and job) ---- */

int sp_dmn_state_on(const sp_dmn *d);
double sp_dmn_state_now_unix_ms(void);
/* Creates state_dir and takes its lock (state_dir/daemon.lock, held
 * until the process ends): a second daemon on one state directory would
 * run the first one's jobs again. Returns SP_OK, or SP_ERR_IO with err
 * (naming the pid of the daemon that holds the lock when that is why). */
sp_status sp_dmn_state_lock(sp_dmn *d, char err[SP_ERR_LEN]);
/* Creates state_dir and its circuits/, jobs/, uploads/; sets upload_dir. */
sp_status sp_dmn_state_init(sp_dmn *d, char err[SP_ERR_LEN]);
/* The paused state (POST /v1/pause) kept across restarts: state_dir/paused
 * exists while paused. set writes or removes it durably (SP_OK or the
 * error; nothing without a state directory); get says 1 when it exists. */
sp_status sp_dmn_state_set_paused(sp_dmn *d, int paused, char err[SP_ERR_LEN]);
int sp_dmn_state_paused(sp_dmn *d);
struct iovec;
/* Writes sub/name atomically and durably (tmp, fsync, rename, fsync dir). */
sp_status sp_dmn_state_put(sp_dmn *d, const char *sub, const char *name, const struct iovec *iov, int n,
                           char err[SP_ERR_LEN]);
/* Removes sub/name durably (a missing file is fine). */
sp_status sp_dmn_state_del(sp_dmn *d, const char *sub, const char *name, char err[SP_ERR_LEN]);
/* The path of sub/name (name NULL: of sub) in the state directory. */
void sp_dmn_state_path(char *out, size_t n, const sp_dmn *d, const char *sub, const char *name);
size_t sp_dmn_state_list(sp_dmn *d, const char *sub, const char *suffix, char ***names);
void sp_dmn_state_list_free(char **names, size_t n);
uint8_t *sp_dmn_state_read(sp_dmn *d, const char *sub, const char *name, size_t *len, char err[SP_ERR_LEN]);
void sp_dmn_state_sweep(sp_dmn *d, const char *sub, const char *suffix, int (*keep)(sp_dmn *, const char *));
/* circuits/<id>.json of an api or upload circuit (config ones: nothing). */
sp_status sp_dmn_state_circuit_save(sp_dmn *d, const dcircuit *c, char err[SP_ERR_LEN]);
sp_status sp_dmn_state_circuit_drop(sp_dmn *d, const dcircuit *c, char err[SP_ERR_LEN]);
/* jobs/<id>.job: the accepted job's header and .wtns files (w, wlen), or
 * for a native job its header holding the inputs (w NULL). */
sp_status sp_dmn_state_job_save(sp_dmn *d, const djob *j, const uint8_t *const *w, const size_t *wlen,
                                const sp_porep_input *inputs, char err[SP_ERR_LEN]);
/* jobs/<id>.result: j's status and result text. */
sp_status sp_dmn_state_job_result(sp_dmn *d, const djob *j, double done_unix_ms, char err[SP_ERR_LEN]);
/* Removes jobs/<id><ext> without waiting for the disk (see state.c). */
void sp_dmn_state_job_forget(sp_dmn *d, const char *id, const char *ext);

/* ---- restore.c: what the state directory holds, at start ---- */

/* In this order: circuits (after the configuration's), then jobs. */
void sp_dmn_restore_circuits(sp_dmn *d);
void sp_dmn_restore_jobs(sp_dmn *d);

/* ---- tracker.c: the TIMELINE reader ---- */

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
} dtracker;

/* Opens the pipe: *path_out the path the engine is to write to. */
sp_status sp_dmn_trk_open(sp_dmn *d, char *path_out, size_t path_len, char err[SP_ERR_LEN]);
/* After sp_engine_create: starts the reader. */
sp_status sp_dmn_trk_start(sp_dmn *d, char err[SP_ERR_LEN]);
/* After sp_engine_destroy (the engine closed its end): joins the reader. */
void sp_dmn_trk_stop(sp_dmn *d);
/* Timings of job seq; waits up to wait_ms for its JOB_DONE line.
 * Returns 1 when known. t[SP_DMN_STAGE_N] in ms. */
int sp_dmn_trk_job_timings(sp_dmn *d, uint64_t seq, long wait_ms, double t[SP_DMN_STAGE_N]);
/* Where the device call of partition part of job (the daemon's job id)
 * stands: *steps the backend's steps it reported so far, *of those of the
 * last device call that ended (0 when none has), step the last one's name
 * ("" before the first). Returns 1 when the call is known (running). */
int sp_dmn_trk_device_steps(sp_dmn *d, const char *job, uint32_t part, int *steps, int *of, char step[24]);
/* "waterfall": {...} member of the status object; its device lanes are
 * named after st's devices ("cpu0 w0", "cuda1 w0"). */
void sp_dmn_trk_json(sp_dmn *d, sp_json_writer *w, const sp_engine_status *st);
void sp_dmn_trk_metrics(sp_dmn *d, char **buf, size_t *len, size_t *cap);

/* ---- http.c ---- */

typedef struct dreq dreq; /* one request being answered */

/* Route handlers: each answers exactly once through sp_dmn_http_* below. */
typedef void (*route_fn)(sp_dmn *d, dreq *r);

const char *sp_dmn_req_path(const dreq *r);     /* the URL path */
const char *sp_dmn_req_method(const dreq *r);
const char *sp_dmn_req_arg(const dreq *r, const char *name);    /* query argument or NULL */
const char *sp_dmn_req_header(const dreq *r, const char *name); /* request header or NULL */
/* Who sent the request and its limit on queued jobs (sp_dmn_auth). */
const char *sp_dmn_req_client(const dreq *r, int *max_queued);
const uint8_t *sp_dmn_req_body(const dreq *r, size_t *len);

/* Answers with body (malloc'ed, taken) of content type ct. */
void sp_dmn_http_send(dreq *r, int code, const char *ct, char *body, size_t len);
/* Answers with a static body (not freed). */
void sp_dmn_http_send_static(dreq *r, int code, const char *ct, const char *body, size_t len);
/* Answers {"error": code_str, "detail": detail} with HTTP code. */
void sp_dmn_http_error(dreq *r, int code, const char *error, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Adds a header to the response about to be sent (before sp_dmn_http_send). */
void sp_dmn_http_header(dreq *r, const char *name, const char *value);
/* Finishes w and sends it (500 when out of memory). */
void sp_dmn_http_send_json(dreq *r, int code, sp_json_writer *w);

/* What handlers read of a request: whether the request's Content-Type is type (a
 * prefix, any case); a member of o that is a string, else NULL; the body
 * parsed as a JSON object (NULL after answering 400 malformed_json: free
 * the document with sp_json_free); the last segment of the path (an id). */
int sp_dmn_req_is_type(const dreq *r, const char *type);
const char *sp_dmn_json_str(const sp_json_val *o, const char *k);
sp_json_doc *sp_dmn_req_json(dreq *r);
const char *sp_dmn_req_last_segment(const dreq *r);

/* One entry of the route table the transport is started with: method and
 * path (ending in '*': any one segment after the prefix), the handler,
 * whether it is served without the token, and a check made before the
 * body is read (NULL: none), which may answer through r (413, 422) and
 * returns 1 when it did. */
typedef struct {
    const char *method, *path;
    route_fn fn;
    int open;
    int (*early)(sp_dmn *d, dreq *r, unsigned long long content_length);
} sp_dmn_route;

/* Starts the listeners, dispatching by routes (n_routes entries, which
 * outlive the daemon). */
sp_status sp_dmn_http_start(sp_dmn *d, const sp_dmn_route *routes, size_t n_routes, char err[SP_ERR_LEN]);
/* Housekeeping tick: closes connections whose headers or body are late
 * (server.header_timeout, server.body_timeout), however busy they look. */
void sp_dmn_http_tick(sp_dmn *d);
/* Stops accepting connections, then waits (at most wait_ms) until the
 * requests in progress have been answered. */
void sp_dmn_http_quiesce(sp_dmn *d, long wait_ms);
void sp_dmn_http_stop(sp_dmn *d);

/* ---- api.c, api_circuits.c, status.c: the routes ---- */

void sp_dmn_api_circuits_list(sp_dmn *d, dreq *r);
void sp_dmn_api_circuits_add(sp_dmn *d, dreq *r);
void sp_dmn_api_circuits_delete(sp_dmn *d, dreq *r);
void sp_dmn_api_jobs_submit(sp_dmn *d, dreq *r);
void sp_dmn_api_jobs_get(sp_dmn *d, dreq *r);
void sp_dmn_api_jobs_cancel(sp_dmn *d, dreq *r);
void sp_dmn_api_prove(sp_dmn *d, dreq *r);
void sp_dmn_api_pause(sp_dmn *d, dreq *r);
void sp_dmn_api_resume(sp_dmn *d, dreq *r);
/* Before the body of POST /v1/jobs or /v1/prove is read: answers 413 when
 * Content-Length is over what the named circuit's witnesses can take,
 * 422 when one partition of it can never fit the engine budget. Returns
 * 1 when it answered. */
int sp_dmn_api_jobs_early(sp_dmn *d, dreq *r, unsigned long long content_length);
void sp_dmn_api_page(sp_dmn *d, dreq *r);
void sp_dmn_api_healthz(sp_dmn *d, dreq *r);
void sp_dmn_api_readyz(sp_dmn *d, dreq *r);
void sp_dmn_api_status(sp_dmn *d, dreq *r);
void sp_dmn_api_metrics(sp_dmn *d, dreq *r);

/* routes.c: the route table of the API. */
extern const sp_dmn_route sp_dmn_routes[];
extern const size_t sp_dmn_n_routes;

/* page.c */
extern const char sp_dmn_page_html[];

/* ---- farm/worker.c, farm/api.c: a farm of daemons on one queue database ----
 * With farm.queue set, jobs go to the database (daemon/farm/queue.h) and every
 * daemon of the farm proves partitions of the circuits it has; without
 * it (the default) none of this runs. */

struct sp_dmn_farm;
/* 1 when this daemon is a farm node. */
int sp_dmn_farm_on(const sp_dmn *d);
/* 1 while the farm's worker is connected to the queue database, 0 while
 * it is not, -1 when this daemon is no farm node. */
int sp_dmn_farm_connected(sp_dmn *d);
/* After the engine runs and the circuits are registered: connects (the
 * schema migrated), starts the worker. SP_OK, or an error with err (the
 * daemon does not start). */
sp_status sp_dmn_farm_start(sp_dmn *d, char err[SP_ERR_LEN]);
/* Shutdown: no more claims; with cancel, the partitions in flight are
 * cancelled and handed back to the queue. */
void sp_dmn_farm_drain(sp_dmn *d, int cancel);
/* Claims held and not yet settled in the database. */
size_t sp_dmn_farm_live(sp_dmn *d);
/* Makes the worker look for work and the awaiting requests read their
 * jobs again, at once (after a resume; at shutdown, d->stopping set). */
void sp_dmn_farm_nudge(sp_dmn *d);
/* Stops the farm: what is held goes back to the queue, the node leaves. */
void sp_dmn_farm_stop(sp_dmn *d);

/* A circuit a farm job names: one registered here (by its id), or any
 * circuit of the farm by its content digest (64 lowercase hex digits, as
 * GET /v1/status shows them), whose facts a node that has it recorded in
 * the database. */
typedef struct {
    char digest[65];
    uint32_t n_vars, n_public;
    int native;
} farm_circuit;
/* 200 (*out set), 404 (neither), 503 (the database is away), 500; err. */
int sp_dmn_farm_lookup(sp_dmn *d, const char *circuit, farm_circuit *out, char err[SP_ERR_LEN]);

/* A job for the farm, checked by the caller (api.c). */
typedef struct {
    const farm_circuit *fc;
    const char *circuit, *request_id; /* circuit: as the client named it (shown in answers) */
    int priority;
    size_t n;
    const uint8_t *const *input;   /* n .wtns files, or n native inputs of 12 bytes (seed, partition; LE) */
    const size_t *input_len;
    const uint8_t *const *expect_pub; /* .wtns jobs: each witness's public inputs (n_public * 32 bytes) */
    const char *client;            /* sp_dmn_auth's: "" = this node's own */
    int max_queued;                /* the client's limit on queued jobs in the farm (0 = none) */
} farm_job;
/* Puts j in the queue: 202 (id set), 200 (id: the job the request id
 * names, which proves what j does: nothing queued), 409 (id: the job the
 * request id names, which proves something else), 429, 503, 500; err
 * says why. */
int sp_dmn_farm_submit(sp_dmn *d, const farm_job *j, char id[40], uint64_t *ahead, char err[SP_ERR_LEN]);
/* GET /v1/jobs/KEY (and /v1/prove's wait, strict: codes by outcome). */
void sp_dmn_farm_api_get(sp_dmn *d, dreq *r, const char *key, long wait_ms, int strict);
/* DELETE /v1/jobs/KEY. */
void sp_dmn_farm_api_cancel(sp_dmn *d, dreq *r, const char *key);
/* The "farm" member of /v1/status, and the farm's metrics. */
void sp_dmn_farm_status_json(sp_dmn *d, sp_json_writer *w);
void sp_dmn_farm_metrics(sp_dmn *d, char **buf, size_t *len, size_t *cap);

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
    const sp_dmn_route *routes; /* what the transport dispatches to (sp_dmn_http_start) */
    size_t n_routes;
    atomic_ullong conns_cut;   /* connections closed for a late header or body */
    atomic_ullong http_codes[SP_DMN_HTTP_CODES];
    atomic_ullong requests, rejected_submits;
    atomic_int active_requests; /* requests read and not yet fully answered */
};

/* The key residency settings (reloadable), read together under cfg_mu. */
typedef struct {
    size_t hot_budget, warm_budget; /* hot_budget resolved (auto = engine budget / 4) */
    long min_idle_ms, idle_demote_ms;
    int skip_subgroup_check, load_threads;
    char cache_dir[SP_DMN_CONF_PATH]; /* keys.cache_dir; "" = no key cache */
    size_t cache_max;                 /* keys.cache_max */
} key_policy;
void sp_dmn_key_policy(sp_dmn *d, key_policy *p);
/* server.header_timeout and body_timeout (reloadable). */
void sp_dmn_deadlines(sp_dmn *d, long *header_ms, long *body_ms);

/* Reloadable settings read under cfg_mu. */
size_t sp_dmn_max_body(sp_dmn *d);
long sp_dmn_max_wait(sp_dmn *d);
/* Copies the token ("" = none) under cfg_mu. */
void sp_dmn_token(sp_dmn *d, char *out, size_t out_len);
/* 1 when requests need a bearer token (server.token_file or a [client.NAME]). */
int sp_dmn_auth_on(sp_dmn *d);
/*
 * Who a request's bearer token (NULL: none) names, compared in the same
 * time whatever its first wrong byte.
 * Returns 1 when it may come in: *client "" when the daemon takes no
 * token, else "token:" and a digest of the token (never the token; the
 * farm counts a client by it, across nodes), *max_queued its limit on
 * queued jobs (a [client.NAME]'s max_queued; on a farm node,
 * farm.max_queued_per_client for server.token_file or no token; else 0 =
 * none). 0 when it may not.
 */
#define SP_DMN_CLIENT_LEN 40
int sp_dmn_auth(sp_dmn *d, const char *bearer, char client[SP_DMN_CLIENT_LEN], int *max_queued);


#endif
