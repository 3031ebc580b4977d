/*
 * Synthesis in chunks, for the proving engine: the same a, b, c as
 * sp_synth_abc (synth.h) and sp_synth_abc_from_key (prover.h), computed a
 * chunk of rows at a time. Between two chunks every thread
 *   - yields the CPU while the throttle flag is raised: the engine raises
 *     it during the memory-bound CPU G2 MSM of another partition, so the
 *     two do not fight over memory bandwidth (docs/algorithms.md §5);
 *   - stops when the cancel flag is raised (a cancelled or failed job).
 * Chunks are handed out dynamically, so a slow thread does not hold up
 * the others.
 */
#ifndef SP_SYNTH_SYNTH_CHUNKED_H
#define SP_SYNTH_SYNTH_CHUNKED_H

#include <stdatomic.h>
#include <stddef.h>
#include "groth16/keys.h"
#include "r1cs/r1cs.h"

#define SP_SYNTH_CHUNK_ROWS 8192 /* default rows per chunk */

typedef struct {
    const atomic_int *throttle; /* NULL, or > 0: yield between chunks */
    const atomic_int *cancel;   /* NULL, or != 0: stop at the next chunk */
    size_t chunk_rows;          /* 0 = SP_SYNTH_CHUNK_ROWS */
    atomic_ulong *yields;       /* NULL, or counts the yields made */
} sp_synth_ctl;

/*
 * As sp_synth_abc (same inputs, outputs and statuses; *bad_row is the
 * first failing constraint), under the control of ctl (NULL = none).
 * Returns also SP_ERR_CANCELLED (err says so) when the cancel flag was
 * seen; a, b, c are then partly written.
 */
sp_status sp_synth_abc_chunked(sp_fr *a, sp_fr *b, sp_fr *c, size_t n, const sp_r1cs *cs, const sp_fr *w,
                               size_t w_len, int check, int nthreads, const sp_synth_ctl *ctl, size_t *bad_row,
                               char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/*
 * As sp_synth_abc_from_key (a = A.w, b = B.w over the key's QAP matrices,
 * c = a * b; a, b, c hold pk->domain_size entries), under ctl.
 * Returns SP_OK, SP_ERR_INVALID_ARG (no QAP in the key, wrong witness
 * length), SP_ERR_CANCELLED.
 */
sp_status sp_synth_abc_from_key_chunked(sp_fr *a, sp_fr *b, sp_fr *c, const sp_g16_pk *pk, const sp_fr *w,
                                        size_t w_len, int nthreads, const sp_synth_ctl *ctl,
                                        char err[SP_ERR_LEN]) SP_WARN_UNUSED;

#endif
