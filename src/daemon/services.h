/*
 * The daemon's services, above state.h: what the routes and the daemon's
 * life call to do the work. The registry (registry.c, keypath.c): circuits
 * and their key residency. The job table (jobs.c): jobs on the engine and
 * their results. The tracker (tracker.c): the engine's TIMELINE read into
 * job timings, histograms and the waterfall. restore.c: the state
 * directory's circuits and jobs given back to the registry and the job
 * table at start. The farm (farm/, its parts in farm/farm.h): a node's
 * life on the queue database. Calls among them go one way: the tracker
 * and the registry below the job table, those below restore.c and the
 * farm. Nothing here answers a request (transport.h, api.h).
 */
#ifndef SP_DAEMON_SERVICES_H
#define SP_DAEMON_SERVICES_H

#include "daemon/state.h"
#include "util/json.h"

/* ---- registry.c: circuits and key residency ---- */

/* The tier's name as answers show it: "cold", "warm" or "hot". */
const char *sp_dmn_tier_name(sp_dmn_tier t);

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
int sp_dmn_curve_hint(const sp_dmn_ops *ops, char err[SP_ERR_LEN], const char *thing);
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

typedef struct {
    const char *request_id;    /* NULL or "" */
    int priority;
    sp_fr **witness;           /* n arrays of the circuit's n_vars values; taken on success */
    size_t n;
    const uint8_t *const *raw; /* the n .wtns files they came from (recorded in the state directory) */
    const size_t *raw_len;
    const char *id;            /* NULL: a new id; else the id of a job restored from the state directory */
    double t_submit_unix;      /* restored jobs: when it was accepted */
    const sp_dmn_native_input *inputs; /* a native circuit's job: n inputs (copied), witness and raw NULL */
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
    const sp_dmn_native_input *inputs; /* a native job: its n inputs instead (w, wl NULL) */
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
/* Finds id (job id, else request id) and takes a watcher reference (the
 * job is not reaped while it is held). Returns the job, or NULL. */
djob *sp_dmn_jobs_get(sp_dmn *d, const char *id);
/* Drops a watcher reference taken by sp_dmn_jobs_get or sp_dmn_jobs_submit. */
void sp_dmn_jobs_put(sp_dmn *d, djob *j);
/* Waits until j finished, the time ran out or the daemon stops.
 * Returns 1 when finished. */
int sp_dmn_jobs_wait(sp_dmn *d, djob *j, long wait_ms);
/* Cancels: sets *was_running; returns 0 when it was already finished. */
int sp_dmn_jobs_cancel(sp_dmn *d, djob *j, int *was_running);
/* Shutdown: asks the engine to cancel every job it still holds. */
void sp_dmn_jobs_cancel_all(sp_dmn *d);
/* The jobs accepted and not finished. */
size_t sp_dmn_jobs_live(sp_dmn *d);
/* Parts of a result, shared with the farm (farm/worker.c): "proofs" (n proofs,
 * the public signals row k at pub + k * n_public, each proof's node when
 * nodes is not NULL), "timings_ms" (stage times, null when not known),
 * and the "error" code of a failed job's status. */
void sp_dmn_jobs_proofs_json(const sp_dmn_ops *ops, sp_json_writer *w, const sp_g16_proof *proofs, const sp_fr *pub,
                             size_t n, uint32_t n_public, const char *const *nodes);
void sp_dmn_jobs_timings_json(sp_json_writer *w, const double *t, int known); /* SP_DMN_STAGE_N times */
const char *sp_dmn_jobs_error_code(sp_status st);
/*
 * The one reading of a job's .wtns: data[0..len) parsed and its count
 * checked against the circuit's n_vars (the circuit named id in messages).
 * On output: *w the values (free()) on SP_OK; NULL otherwise.
 * Returns SP_OK; SP_ERR_FORMAT (a count that is not n_vars) or the
 *   reader's status, with err saying why.
 */
sp_status sp_dmn_jobs_witness(const sp_dmn_ops *ops, sp_fr **w, const uint8_t *data, size_t len, uint32_t n_vars,
                              const char *id, char err[SP_ERR_LEN]);
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
/* Frees every job (at shutdown, after the engine has none). */
void sp_dmn_jobs_free_all(sp_dmn *d);

/* ---- restore.c: what the state directory holds, at start ---- */

/* In this order: circuits (after the configuration's), then jobs. */
void sp_dmn_restore_circuits(sp_dmn *d);
void sp_dmn_restore_jobs(sp_dmn *d);

/* ---- tracker.c: the TIMELINE reader ---- */

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
/* Prometheus lines of the stage histograms, appended to *buf (sp_buf). */
void sp_dmn_trk_metrics(sp_dmn *d, char **buf, size_t *len, size_t *cap);

/* ---- farm/worker.c: a farm of daemons on one queue database ----
 * With farm.queue set, jobs go to the database (daemon/farm/queue.h) and every
 * daemon of the farm proves partitions of the circuits it has; without
 * it (the default) none of this runs. */

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

#endif
