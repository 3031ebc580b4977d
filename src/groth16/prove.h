/*
 * The Groth16 prover's core: from the QAP evaluations a, b, c of one
 * witness and the proving key to a proof. Synthesis (witness -> a, b, c)
 * happens above this layer (synth/), so the engine can run it on other
 * threads, or another machine, than the MSMs.
 *
 * The recipe (docs/algorithms.md §1; bellperson is the same apart
 * from the H step):
 *   A = alpha1 + sum w_i A_i + r delta1
 *   B = beta2 + sum w_i B2_i + s delta2           (and B1 in G1 with beta1, delta1)
 *   C = sum_{i > nPub} w_i C_i + sum h_j H_j + s A + r B1 - r s delta1
 */
#ifndef SP_GROTH16_PROVE_H
#define SP_GROTH16_PROVE_H

#include "snarkpipe.h"
#include "groth16/backend.h"
#include "groth16/keys.h"
#include "ntt/ntt.h"

typedef struct {
    int threads;   /* 0 = all online cores (for the CPU parts) */
    int split_msm; /* 1: witness MSMs skip 0 and add 1 without multiplying */
    /* Where the H step and the G1 MSMs run; NULL = a CPU backend. */
    sp_backend *backend;
    /* 1: the G2 MSM runs on the backend in the start phase; 0: on the CPU
     * in the finish phase (the engine overlaps it with the next proof's
     * device work). */
    int g2_on_backend;
    /* INSECURE, for byte-exact tests only: when non-NULL, r and s are these
     * values instead of fresh ones from the OS CSPRNG. A proof made with
     * known r and s reveals the witness. */
    const sp_fr *insecure_fixed_r, *insecure_fixed_s;
    /* Deferred a, b, c (sp_backend_proof's fill): when set, the a, b, c
     * and d given to the start functions are made by fill during the
     * backend call (d is then NULL at the call), so a backend can overlap
     * their making with the witness MSMs. NULL: ready at the call. */
    sp_status (*fill)(void *fill_ctx, const sp_ntt_domain **d, char err[SP_ERR_LEN]);
    void *fill_ctx;
    /* A pause point, or NULL: the start functions' backend call's
     * (sp_backend_proof's pause), and finish's G2 MSM's when it runs one. */
    const sp_pause *pause;
} sp_g16_prove_opts;

/* Returns threads 0, split_msm 1, no backend (CPU), g2_on_backend 1,
 * fresh r and s, no fill, no pause point. */
sp_g16_prove_opts sp_g16_prove_opts_default(void);

/*
 * A proof in two halves, so the engine can hold the device only for the
 * first: start runs the H step and the MSMs in one backend call
 * (sp_backend.prove; the G2 MSM too when g2_on_backend); finish runs what
 * is left on the CPU (the G2 MSM otherwise), draws r and s and assembles
 * the proof.
 * Ownership: start fills *part (which may own a copy of the witness
 * scalars for the deferred G2 MSM); finish or sp_g16_partial_free
 * releases it. Start does not keep pointers to a, b, c or w.
 */
typedef struct sp_g16_partial { /* tagged: synth/ops.h names it */
    sp_g1_jac a, b1, c, h;
    sp_g2_jac b2;
    int have_b2;     /* b2 already computed */
    sp_scalar *ws;   /* witness scalars for the deferred G2 MSM, or NULL */
    size_t n_ws;
} sp_g16_partial;

/* Same inputs and failure cases as sp_g16_prove; on failure *part holds
 * nothing to free. sp_g16_prove_device followed by
 * sp_g16_prove_keep_scalars. */
sp_status sp_g16_prove_start(sp_g16_partial *part, const sp_g16_pk *pk, const sp_fr *w, size_t w_len, sp_fr *a,
                             sp_fr *b, sp_fr *c, const sp_ntt_domain *d, const sp_g16_prove_opts *opts,
                             char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* The start phase in its two parts, so that the engine holds the device
 * only for the first: the backend call (as sp_g16_prove_start, but with
 * g2_on_backend 0 *part does not yet hold the scalars the finish needs),
 * then, when the G2 MSM was left to finish, the witness scalars it needs
 * made on the host (opts->threads threads; w as given to the first part;
 * nothing to do when the G2 MSM is done). keep_scalars returns SP_OK or
 * SP_ERR_NOMEM (*part unchanged, still to be freed by the caller). */
sp_status sp_g16_prove_device(sp_g16_partial *part, const sp_g16_pk *pk, const sp_fr *w, size_t w_len, sp_fr *a,
                              sp_fr *b, sp_fr *c, const sp_ntt_domain *d, const sp_g16_prove_opts *opts,
                              char err[SP_ERR_LEN]) SP_WARN_UNUSED;
sp_status sp_g16_prove_keep_scalars(sp_g16_partial *part, const sp_fr *w, size_t w_len, const sp_g16_prove_opts *opts,
                                    char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* On output: *proof; *part is released in every case. */
sp_status sp_g16_prove_finish(sp_g16_proof *proof, sp_g16_partial *part, const sp_g16_pk *pk,
                              const sp_g16_prove_opts *opts, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

void sp_g16_partial_free(sp_g16_partial *part);

/* Progress (util/progress.h): the units sp_g16_prove_start and _finish add
 * to the current stage for a proof with pk, as each step ends (the H step,
 * then each MSM, named as the stage's part). */
uint64_t sp_g16_prove_progress_units(const sp_g16_pk *pk);

/*
 * start + finish in one call.
 * On input: w holds w_len = pk->n_vars witness values (w[0] = 1); a, b, c
 *   hold the n = pk->domain_size QAP evaluations (synth.h) and are used
 *   as scratch (overwritten; a backend may use c = a * b instead of
 *   reading c: see sp_backend_proof); d is a domain of size n with the
 *   roots family sp_g16_roots_for(pk). With opts->fill, a, b, c and d
 *   are made by fill during the call instead (fill's errors are returned).
 * On output: *proof (affine points); untouched on error.
 * Returns SP_OK, SP_ERR_INVALID_ARG (sizes or domain do not match the key,
 *   err says which), SP_ERR_NOMEM, SP_ERR_IO (no randomness from the OS),
 *   or the backend's error (SP_ERR_GPU).
 */
sp_status sp_g16_prove(sp_g16_proof *proof, const sp_g16_pk *pk, const sp_fr *w, size_t w_len, sp_fr *a,
                       sp_fr *b, sp_fr *c, const sp_ntt_domain *d, const sp_g16_prove_opts *opts,
                       char err[SP_ERR_LEN]) SP_WARN_UNUSED;

#endif
