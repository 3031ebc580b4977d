/*
 * The proving engine: many Groth16 proofs at once, with synthesis on the
 * CPU overlapping device work, under one memory budget. A daemon, the
 * CLI and the bench tool drive it in-process. Every function here is
 * thread-safe.
 *
 * The engine is curve-neutral, compiled once for both curves: an engine
 * proves on the curve whose table of operations it is created with
 * (synth/ops.h; a caller passes its own build's table), and names that
 * curve's types (keys, witnesses, proofs) without knowing their layout.
 *
 * A job is one or more partitions (witnesses of one registered circuit);
 * each partition becomes one proof, and the job's proofs come back in
 * partition order. A partition flows through these stages (ARCHITECTURE.md,
 * "The engine", has the picture and who owns which memory):
 *
 *   submit -> dispatch queue --(dispatcher: reserve bytes from the budget)-->
 *   synthesis worker (a, b, c) -> GPU queue -> GPU worker (device lock held
 *   only around sp_g16_prove_device) -> finish queue -> finish worker
 *   (CPU G2 MSM, r and s, assembly, verification) -> job done.
 *
 * The three queues are ordered by (priority: higher first, job age: older
 * first, partition index: lower first). The dispatcher is the only thread
 * that takes memory: it waits while the budget is spent instead of
 * failing. A partition that fails fails its job only; the job's other
 * partitions are dropped at their next stage boundary.
 *
 * TIMELINE: when configured, every stage writes a line
 *   TIMELINE,<ms since engine start>,<EVENT>,<job>,<key=value,...>
 * (events: ENGINE_START, JOB_SUBMIT, DISPATCH (reservation taken),
 * SYNTH_START, SYNTH_END, GPU_QUEUE, GPU_PICKUP, GPU_START (device lock
 * taken), DEV_STAGE (one stage the backend reports, stage=NAME,ms=...:
 * groth16/backend.h lists the names, e.g. h, msm_a, msm_b2 on the CPU,
 * copy_ab, h_ntt, wit_up on a GPU), GPU_END (lock released),
 * FINISH_START, FINISH_END, PART_FAIL, JOB_CANCEL, JOB_DONE, ENGINE_STOP;
 * <job> is "j<seq>", or "-" for the engine's own events).
 * `snarkpipe waterfall` reads them (waterfall.h).
 */
#ifndef SP_ENGINE_ENGINE_H
#define SP_ENGINE_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include "snarkpipe.h"
#include "synth/ops.h"

typedef struct sp_engine sp_engine;
typedef struct sp_engine_job sp_engine_job;

typedef struct {
    /* Memory: the byte budget the dispatcher reserves from (a, b, c and
     * the prover's scratch of every partition in flight, plus the idle
     * buffer pool). 0 = MemTotal minus a margin (sp_engine_default_budget). */
    size_t budget_bytes;

    /* Parallelism. */
    int max_parallel_synthesis; /* synthesis workers (default 2) */
    int synth_threads;          /* threads of one synthesis (0 = every core) */
    int gpu_workers_per_device; /* workers sharing one device lock (default 2) */
    int finish_threads;            /* threads of the finish stage's CPU G2 MSM (0 = min(32, cores)) */
    int finish_workers;         /* partitions finishing at once (0 = one per device) */
    int backend_threads;        /* host threads of a backend's own work, e.g. the CPU backend's
                                   H step and MSMs (0 = all cores) */
    /* Comma-separated backend names (backend.h): "cpu", "cuda:0,cuda:1",
     * "auto"; "cuda:all" every CUDA device present. Default "cpu". One
     * device lock and gpu_workers_per_device workers per device (at most
     * 64). A partition goes to whichever device frees first among those
     * its circuit's key is attached to. */
    const char *backends;
    int g2_on_device;           /* 1: the G2 MSM runs on the device inside the lock (in the
                                   backend's prove call); 0 (default): on the finish pool */
    int split_msm;              /* 0/1-aware witness MSMs (default 1) */

    /* Checks. */
    int verify_proofs; /* every proof verified before its job completes (default 1) */
    int check_witness; /* synthesis checks every constraint when the circuit was registered with
                          its r1cs (default 1); without it a bad witness is caught by verification.
                          A native circuit's is checked in synthesis only when proofs are not
                          verified; else made again with the check when its proof fails, to
                          name the constraint */

    /* Observability: NULL = no timeline; "-" = stderr; else a file
     * (truncated at create). */
    const char *timeline_path;

    /* Memory discipline, each behind a switch so its effect can be
     * measured (default: all on). */
    int serialized_free;  /* large buffers are freed by one background thread, one at a time */
    int pinned_pool;      /* a, b, c buffers come from a reusable pool of backend host memory
                             (pinned on a GPU), counted in the budget, shrunk when the budget
                             needs room */
    int bw_throttle;      /* synthesis yields between chunks while a CPU G2 MSM runs */
    int two_step_release; /* a, b, c and their share of the reservation go back when the device
                             has them; the rest when the partition completes. Off: all at
                             completion */
    size_t pool_max_bytes; /* cap on idle pool bytes (0 = only the budget limits it) */
    int pool_prefill;      /* a, b, c blocks made when a circuit is registered, so the first
                              proofs do not wait for pinning (-1 = one per synthesis worker and
                              per GPU worker; 0 = none; always within the budget) */

    /* Bounds, so that nothing grows without limit under load. */
    size_t max_jobs;       /* jobs held: submitted and not yet released (default 1024) */
    size_t max_partitions; /* partitions of jobs not yet finished, queued or in flight
                              (default 4096); sizes the queues, which never grow */
} sp_engine_config;

/* Returns the defaults documented above (budget_bytes 0, i.e. automatic). */
sp_engine_config sp_engine_config_default(void);

/* MemTotal from /proc/meminfo minus a margin (max(1 GiB, 10%)); 4 GiB
 * when MemTotal cannot be read. */
size_t sp_engine_default_budget(void);

/*
 * Starts an engine: opens the backends, starts every thread.
 * On input: ops the curve every circuit, witness and proof of this engine
 *   is of (synth/ops.h); borrowed for the engine's life.
 * On output: *e a running engine (stop it with sp_engine_destroy); NULL on
 *   failure.
 * Returns SP_OK, SP_ERR_INVALID_ARG (a config value out of range, err says
 *   which), SP_ERR_UNSUPPORTED / SP_ERR_GPU (a backend cannot be opened),
 *   SP_ERR_IO (timeline file), SP_ERR_NOMEM.
 */
sp_status sp_engine_create(sp_engine **e, const sp_synth_ops *ops, const sp_engine_config *cfg,
                           char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/*
 * Orderly shutdown: cancels every job (status SP_ERR_CANCELLED), lets the
 * running stages reach their next boundary, runs the pending on_done
 * callbacks, joins every thread, frees every buffer and every job (all
 * job handles become invalid), detaches the keys from the backends and
 * closes them. No other thread may be inside an engine call (an await
 * included) when it starts. NULL is allowed.
 */
void sp_engine_destroy(sp_engine *e);

/*
 * Registers a circuit under id (at most 63 bytes of [A-Za-z0-9._:-]).
 * On input: pk a proving key of the engine's curve; cs its constraint
 *   system, or NULL when the key carries the QAP matrices (pk->has_qap).
 *   Both are borrowed: they must stay valid and unchanged until
 *   sp_engine_unregister or sp_engine_destroy.
 * Work done once: the verifying key is prepared, an NTT domain built, and
 *   the key attached to every backend (a GPU backend makes it resident).
 *   A device that refuses the key (a KEY_ATTACH line with its status) is
 *   left out for this circuit: its partitions run on the others only.
 * Returns SP_OK, SP_ERR_INVALID_ARG (bad or duplicate id, cs does not
 *   match pk, neither QAP nor cs), a backend's key_attach status (when no
 *   device takes the key),
 *   SP_ERR_NOMEM; err says which.
 */
sp_status sp_engine_register(sp_engine *e, const char *id, const sp_g16_pk *pk, const sp_r1cs *cs,
                             char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/*
 * Registers a native circuit (circuit/native.h) under id: its jobs carry
 * inputs instead of witnesses, and their synthesis is the circuit's
 * witness generation (the witness and a, b, c in one pass, on
 * synth_threads threads; constraints checked as check_witness says).
 * nat and pk are borrowed as for sp_engine_register. The witness is made
 * in the partition's a, b, c block, after c (pooled with it, counted in
 * its bytes).
 * Returns as sp_engine_register; SP_ERR_INVALID_ARG also when nat's sizes
 *   do not match pk.
 */
sp_status sp_engine_register_native(sp_engine *e, const char *id, const sp_g16_pk *pk, const sp_native_circuit *nat,
                                    char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/*
 * Warm start for circuit id: makes up to `blocks` a, b, c blocks of its
 * size now (-1: one per synthesis and GPU worker), within the budget, so
 * that the first proofs find them ready (pinning takes seconds per GiB).
 * Registration does this itself per the config's pool_prefill; call it
 * when that is 0, e.g. once something else has given memory back.
 * Returns how many blocks were made (0 for an unknown id).
 */
size_t sp_engine_warm(sp_engine *e, const char *id, int blocks);

/* Removes a circuit that no job uses any more: every job of it must have
 * been released (waits for the on_done callbacks of released jobs still
 * running, so do not call it from one). Detaches the key from the
 * backends; afterwards the caller may free pk and cs.
 * Returns SP_OK or SP_ERR_INVALID_ARG (unknown id, or a job of it not yet
 * released). */
sp_status sp_engine_unregister(sp_engine *e, const char *id, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* Called once per job, after the job finished (sp_engine_await would
 * return 1), from the engine's notifier thread (never a pipeline thread)
 * without engine locks. It may call sp_engine_await, _release, _submit,
 * _cancel, _status_get; not _destroy. Jobs' callbacks run one at a time,
 * in the order the jobs finished. */
typedef void (*sp_engine_done_fn)(void *ctx, sp_engine_job *job);

typedef struct {
    const char *circuit_id;
    size_t n_partitions;    /* >= 1 */
    sp_fr *const *witness;  /* n_partitions witnesses (full: w[0] = 1, then the public wires);
                               NULL for a native circuit */
    size_t witness_len;     /* values in each: must equal the key's n_vars */
    int owns_witness;       /* 1: the engine takes the arrays (free()d once the device has
                               used them, or on failure); 0: the caller keeps them valid
                               until the job finished */
    int priority;           /* higher first; 0 is normal */
    const char *request_id; /* NULL, or a unique id (at most 127 bytes): a second job with
                               the id of a job not yet released is rejected */
    sp_engine_done_fn on_done; /* NULL, or see above */
    void *on_done_ctx;
    const void *const *inputs; /* native circuits only: n_partitions inputs of nat->input_size
                                  bytes each, copied at submit */
} sp_engine_job_desc;

/*
 * Submits a job.
 * On output: *job its handle, valid until sp_engine_job_release (or
 *   sp_engine_destroy); NULL on failure. On failure the witnesses stay
 *   the caller's, whatever owns_witness says.
 * Returns SP_OK; SP_ERR_INVALID_ARG (unknown circuit, no partitions, a
 *   witness of the wrong length, duplicate request id, shutting down);
 *   SP_ERR_NOMEM (the limits max_jobs / max_partitions are reached
 *   -- retry later -- a partition needs more than the whole budget, or
 *   memory); err says which.
 */
sp_status sp_engine_submit(sp_engine *e, const sp_engine_job_desc *desc, sp_engine_job **job,
                           char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* Cancels a job: queued partitions are dropped at once, running ones at
 * their next stage boundary, and their memory goes back to the budget.
 * The job then finishes with SP_ERR_CANCELLED (unless it had already
 * finished). Cancelling twice is harmless. */
void sp_engine_cancel(sp_engine *e, sp_engine_job *job);

typedef struct {
    sp_status status;      /* SP_OK, SP_ERR_CANCELLED, or the failing partition's status */
    char err[SP_ERR_LEN];  /* "" or "partition 3: ..." */
    size_t n_partitions;
    /* SP_OK only: n_partitions proofs in partition order, and their public
     * signals (row k = witness k's wires 1..n_public), of the engine's
     * curve (arrays of its sp_g16_proof and sp_fr); owned by the job,
     * valid until it is released. */
    const sp_g16_proof *proofs;
    const sp_fr *public_signals;
    uint32_t n_public;
    int verified;          /* every proof was verified */
    double submit_ms, done_ms; /* engine clock (ms since start) */
    uint64_t job_seq;      /* the job's number, as in the timeline ("j<seq>") */
} sp_engine_result;

/*
 * Waits for a job to finish, at most timeout_ms milliseconds (< 0: no
 * limit; 0: just look).
 * Returns 1 when it has finished (then *res, when not NULL, is filled), 0
 * when the time ran out.
 */
int sp_engine_await(sp_engine *e, sp_engine_job *job, long timeout_ms, sp_engine_result *res);

/* Gives the handle back: a running job is cancelled first; its memory is
 * freed once nothing uses it. The handle must not be used afterwards. */
void sp_engine_job_release(sp_engine *e, sp_engine_job *job);

/* Frees the idle buffers of the pool and waits until every free handed
 * to the freeing thread is done (their bytes have left the budget). */
void sp_engine_trim(sp_engine *e);

/* paused = 1: the dispatcher starts no new partition (those running go on
 * to the end; jobs can still be submitted); 0: resume. For maintenance,
 * and for tests that need a known queue. */
void sp_engine_pause(sp_engine *e, int paused);

/* ---- status snapshot ---- */

typedef enum {
    SP_PART_QUEUED = 0,  /* waiting for the dispatcher */
    SP_PART_SYNTH,       /* memory reserved; synthesis running */
    SP_PART_SYNTH_DONE,  /* a, b, c ready, in the GPU queue */
    SP_PART_GPU,         /* taken by a GPU worker (waiting for the lock, or on the device) */
    SP_PART_FINISH,      /* in the finish queue or finishing */
    SP_PART_DONE,
    SP_PART_FAILED,
    SP_PART_CANCELLED
} sp_engine_part_state;

/* "queued", "synthesizing", ... */
const char *sp_engine_part_state_str(sp_engine_part_state s);

typedef struct {
    sp_engine_part_state state;
    double synth_ms, gpu_ms, finish_ms; /* stage durations so far (0 when not run) */
    int device;            /* index into sp_engine_status.devices of the device that ran (or runs)
                              its device call; -1 before one took it */
} sp_engine_part_status;

typedef struct {
    uint64_t seq;
    char request_id[128];
    char circuit_id[64];
    int priority;
    int finished;
    sp_status status; /* when finished */
    size_t n_partitions, n_done;
    double age_ms;
    sp_engine_part_status *parts; /* n_partitions */
} sp_engine_job_status;

typedef struct {
    char name[40];           /* the backend's name ("cpu", "cuda:1"); the k-th device of a repeated
                                name is "name#k" (cpu,cpu: "cpu" and "cpu#2") */
    int workers;
    int busy;                /* workers holding a partition */
    double lock_held_ms;     /* total time the device lock was held */
    uint64_t partitions;     /* device calls made */
    uint64_t preemptions;    /* calls suspended for one of higher priority (pausable backends) */
    int memory_known;        /* 0 for backends without device memory (cpu) */
    size_t resident_bytes;   /* device memory held for attached keys */
    size_t free_bytes;       /* device memory free now (under SP_CUDA_MEM_LIMIT, if set) */
    size_t streamed_bytes;   /* attached key arrays that did not fit: kept in pinned host
                              * memory and streamed to the device by every MSM */
    size_t keys;             /* circuits whose key is attached here */
} sp_engine_device_status;

typedef struct {
    double uptime_ms;
    /* memory */
    size_t budget_total, budget_used, budget_high_water;
    size_t pool_idle_bytes, pool_buffers, freeing_bytes;
    size_t reserved_bytes; /* held by partitions in flight */
    /* queues and workers */
    size_t queued, gpu_queued, finish_queued;
    int synth_workers, synth_busy, finish_workers, finish_busy;
    int throttled; /* G2 MSMs running now (the throttle flag) */
    unsigned long synth_yields;
    size_t n_devices;
    sp_engine_device_status *devices;
    /* counters since start */
    uint64_t jobs_submitted, jobs_done, jobs_failed, jobs_cancelled, partitions_proved, proofs_verified;
    uint64_t finish_preemptions; /* finishes run first at another's pause point (higher priority) */
    /* jobs not yet released */
    size_t n_jobs;
    sp_engine_job_status *jobs;
} sp_engine_status;

/* On output: *st a consistent snapshot (free with sp_engine_status_free).
 * Returns SP_OK or SP_ERR_NOMEM. */
sp_status sp_engine_status_get(sp_engine *e, sp_engine_status *st) SP_WARN_UNUSED;
void sp_engine_status_free(sp_engine_status *st);

/* On input: array, where the host copy of one of a registered circuit's
 * key arrays starts (pk->a, ->b1, ->b2, ->c or ->h). When every backend
 * of the engine holds that array in device memory, each is told that the
 * host copy goes away (its MSMs over it then run on the device or fail,
 * never on the CPU) and 1 is returned: the key's owner may then give the
 * copy's pages back, provided nothing else reads it (the G2 MSM on the
 * host, g2_on_device=0, reads b2). Otherwise returns 0 and nothing changes
 * (always with a backend without device memory, cpu). */
int sp_engine_key_release_host(sp_engine *e, const void *array);

/* The bytes one partition of a registered circuit reserves: a, b, c
 * (abc; with a native circuit's witness) and the prover's other buffers
 * (rest). Returns SP_ERR_INVALID_ARG
 * for an unknown id. */
sp_status sp_engine_partition_bytes(sp_engine *e, const char *circuit_id, size_t *abc, size_t *rest) SP_WARN_UNUSED;

#endif
