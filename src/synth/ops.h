/*
 * What the engine needs from a curve, as one table of operations, so that
 * the engine (src/engine/) is compiled once and drives either curve's
 * prover (ARCHITECTURE.md, "Curves"). Each curve's build defines one
 * table, sp_synth_curve_ops (synth/ops.c); in the two-curve binary the
 * BN254 one is sp_bn254_synth_curve_ops, renamed with the rest of its
 * instance.
 *
 * This header is curve-neutral: it includes nothing whose layout depends
 * on the curve, and names the curve's types (sp_fr, sp_g16_pk,
 * sp_g16_proof, ...) as incomplete structs. The engine only holds
 * pointers to them and sizes them with the table's fr_bytes and
 * proof_size; anything that reads or computes on them goes through the
 * table. A caller that includes the curve's own headers sees the complete
 * types under the same names.
 */
#ifndef SP_SYNTH_OPS_H
#define SP_SYNTH_OPS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include "snarkpipe.h"
#include "util/par.h"

typedef struct sp_fr sp_fr;                         /* field/field.h */
typedef struct sp_g16_pk sp_g16_pk;                 /* groth16/keys.h */
typedef struct sp_g16_proof sp_g16_proof;           /* groth16/keys.h */
typedef struct sp_g16_partial sp_g16_partial;       /* groth16/prove.h */
typedef struct sp_r1cs sp_r1cs;                     /* r1cs/r1cs.h */
typedef struct sp_native_circuit sp_native_circuit; /* circuit/native.h */
typedef struct sp_backend sp_backend;               /* groth16/backend.h */
/* A circuit ready to prove: the key and circuit (borrowed), its prepared
 * verifying key and NTT domain (owned). */
typedef struct sp_synth_circ sp_synth_circ;

/*
 * How the engine steers a synthesis (NULL = no steering). Rows are handed
 * out a chunk at a time, dynamically, so a slow thread does not hold up
 * the others; between two chunks every thread
 *   - yields the CPU while *throttle > 0: the engine raises it during the
 *     memory-bound CPU G2 MSM of another partition, so the two do not
 *     fight over memory bandwidth (docs/algorithms.md §5);
 *   - stops when *cancel != 0 (a cancelled or failed job).
 */
typedef struct {
    const atomic_int *throttle; /* NULL, or > 0: yield between chunks */
    const atomic_int *cancel;   /* NULL, or != 0: stop at the next chunk */
    size_t chunk_rows;          /* 0 = SP_SYNTH_CHUNK_ROWS */
    atomic_ulong *yields;       /* NULL, or counts the yields made */
} sp_synth_ctl;

/* A circuit's sizes, as sp_synth_ops.open reports them. */
typedef struct {
    uint64_t n_vars;    /* wires, ONE included: each witness's length */
    uint32_t n_public;  /* public signals: wires 1..n_public */
    uint32_t domain_size;
    int native;         /* 1: a native circuit (inputs, not witnesses) */
    size_t input_size;  /* native: bytes of one partition's input; else 0 */
    /* One partition's memory: abc_bytes for the a, b, c block (3 *
     * domain_size values; a native circuit's witness after them, at
     * witness_at), rest_bytes an upper estimate of the prover's other
     * buffers (witness and H scalars, the split MSM's index list, the
     * MSMs' bucket and endomorphism scratch). */
    size_t abc_bytes, rest_bytes, witness_at;
} sp_synth_circ_info;

/* The prover's options for one partition's device call and finish. */
typedef struct {
    sp_backend *backend;    /* the device call's backend (unused by finish) */
    int threads;            /* host threads of the G2 MSM and its scalars */
    int split_msm;          /* 0/1-aware witness MSMs */
    int g2_on_backend;      /* 1: the G2 MSM in the device call; 0: in finish */
    const sp_pause *pause;  /* NULL, or the pause point of the call's work */
} sp_synth_prove_cfg;

typedef struct {
    size_t fr_bytes;   /* one sp_fr */
    size_t proof_size; /* one sp_g16_proof */

    /*
     * Prepares a circuit: checks that cs (or nat) matches pk, prepares the
     * verifying key, builds the NTT domain on threads threads, and sizes
     * a partition (sp_synth_circ_info) for G1 MSMs on backend_threads
     * threads and a G2 MSM on finish_threads.
     * On input: pk a proving key; exactly one of: cs its r1cs, nat a native
     *   circuit, or neither when pk holds its QAP matrices. All borrowed
     *   until close.
     * On output: *c (free with close) and *info; *c NULL on failure.
     * Returns SP_OK, SP_ERR_INVALID_ARG (a mismatch, no QAP and no cs, a
     *   native circuit without witness function or input size),
     *   SP_ERR_NOMEM, or the NTT domain's status; err says which.
     */
    sp_status (*open)(sp_synth_circ **c, sp_synth_circ_info *info, const sp_g16_pk *pk, const sp_r1cs *cs,
                      const sp_native_circuit *nat, int threads, int backend_threads, int finish_threads,
                      char err[SP_ERR_LEN]);
    void (*close)(sp_synth_circ *c); /* NULL allowed */

    /*
     * Synthesis of one partition into abc (abc_bytes): a, b, c from the
     * witness w over the r1cs (every constraint checked when check) or the
     * key's QAP, under ctl; for a native circuit, the witness made from
     * input at abc + witness_at and a, b, c in one pass (constraints
     * checked when check; ctl's cancel flag only).
     * Returns SP_OK, SP_ERR_UNSATISFIED (check; err names the constraint),
     *   SP_ERR_CANCELLED, SP_ERR_INVALID_ARG, SP_ERR_NOMEM.
     */
    sp_status (*synth)(const sp_synth_circ *c, void *abc, const sp_fr *w, const void *input, int threads, int check,
                       const sp_synth_ctl *ctl, char err[SP_ERR_LEN]);
    /* A native circuit's witness made again from input, alone, with every
     * constraint checked. Returns SP_OK, SP_ERR_UNSATISFIED (err names the
     * constraint and its gadget), SP_ERR_CANCELLED, SP_ERR_NOMEM. */
    sp_status (*native_check)(const sp_synth_circ *c, const void *input, int threads, const atomic_int *cancel,
                              char err[SP_ERR_LEN]);

    /*
     * The device call of one partition (groth16/prove.h,
     * sp_g16_prove_device): w the witness, abc as synth left it.
     * On output: *part the partial proof (free with partial_free, or give
     *   it to finish); NULL on failure.
     */
    sp_status (*prove_device)(sp_g16_partial **part, const sp_synth_circ *c, const sp_fr *w, void *abc,
                              const sp_synth_prove_cfg *cfg, char err[SP_ERR_LEN]);
    /* Then, without the device: the witness scalars a G2 MSM left to
     * finish needs (sp_g16_prove_keep_scalars). On failure part is freed. */
    sp_status (*keep_scalars)(sp_g16_partial *part, const sp_synth_circ *c, const sp_fr *w,
                              const sp_synth_prove_cfg *cfg, char err[SP_ERR_LEN]);
    int (*partial_has_g2)(const sp_g16_partial *part); /* 1: the G2 MSM is done */
    void (*partial_free)(sp_g16_partial *part);        /* NULL allowed */
    /* The rest of the proof (the G2 MSM when deferred, r and s, assembly)
     * into *proof; part is freed, whatever the result. */
    sp_status (*finish)(sp_g16_proof *proof, sp_g16_partial *part, const sp_synth_circ *c,
                        const sp_synth_prove_cfg *cfg, char err[SP_ERR_LEN]);
    /* *valid = 1 when proof verifies for the n_public signals pub. */
    sp_status (*verify)(int *valid, const sp_synth_circ *c, const sp_g16_proof *proof, const sp_fr *pub,
                        char err[SP_ERR_LEN]);

    /* The backends (groth16/backend.h), as the engine uses them. */
    sp_status (*backend_open)(sp_backend **be, const char *name, int threads, char err[SP_ERR_LEN]);
    int (*backend_count)(const char *prefix);
    void (*backend_close)(sp_backend *be);
    const char *(*backend_name)(const sp_backend *be);
    int (*backend_pausable)(const sp_backend *be);
    int (*backend_host_cores)(const sp_backend *be);
    /* Stages the backend reports go to hook(ctx, stage, ms). */
    void (*backend_set_hook)(sp_backend *be, void (*hook)(void *ctx, const char *stage, double ms), void *ctx);
    sp_status (*key_attach)(sp_backend *be, const sp_synth_circ *c, char err[SP_ERR_LEN]);
    void (*key_detach)(sp_backend *be, const sp_synth_circ *c);
    /* Device memory: held for keys, free now, and key arrays streamed
     * from pinned host memory (0 where the backend has none). */
    void (*backend_memory)(sp_backend *be, size_t *resident, size_t *free_bytes, size_t *streamed);
    /* 1 when be keeps the key array starting at array wholly in device
     * memory and can be told its host copy goes away. */
    int (*key_array_resident)(sp_backend *be, const void *array);
    int (*key_release_host)(sp_backend *be, const void *array);
    void *(*host_alloc)(sp_backend *be, size_t bytes);
    void (*host_free)(sp_backend *be, void *p, size_t bytes);
} sp_synth_ops;

/* This build's curve (synth/ops.c), for the callers in its instance: the
 * engine never names it, it is given the table (engine/engine.h). */
extern const sp_synth_ops sp_synth_curve_ops;

#endif
