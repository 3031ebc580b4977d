/*
 * One whole proof in one call: witness -> a, b, c (synthesis, on the CPU)
 * -> H step and MSMs on the backend the options name (groth16/prove.h; a
 * CPU backend when none) -> proof and public signals. This is what
 * `snarkpipe prove` and `snarkpipe bench prove` run; the engine runs the
 * same steps as pipeline stages across many proofs (engine/engine.h).
 */
#ifndef SP_SYNTH_PROVER_H
#define SP_SYNTH_PROVER_H

#include <stddef.h>
#include "snarkpipe.h"
#include "circuit/native.h"
#include "groth16/keys.h"
#include "groth16/prove.h"
#include "r1cs/r1cs.h"
#include "synth/synth.h"

/*
 * a = A.w, b = B.w over the key's own QAP matrices (zkey section 4, rows
 * over the whole domain, input rows included), and c = a * b row by row,
 * as snarkjs computes them, under ctl (synth.h; NULL = no steering).
 * On input: pk->has_qap; w has pk->n_vars values; a, b, c have
 *   pk->domain_size entries. nthreads >= 1.
 * Returns SP_OK, SP_ERR_INVALID_ARG (no QAP in the key, wrong length) or
 *   SP_ERR_CANCELLED (ctl's cancel flag).
 */
sp_status sp_synth_abc_from_key(sp_fr *a, sp_fr *b, sp_fr *c, const sp_g16_pk *pk, const sp_fr *w, size_t w_len,
                                int nthreads, const sp_synth_ctl *ctl, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/*
 * Whether a circuit fits a key.
 * On input: pk; nat a native circuit, or NULL; cs the circuit when nat is
 *   NULL, or NULL to synthesize from the key's QAP.
 * Returns SP_OK when the circuit has the key's wires and public signals
 *   and its rows (constraints, one per public signal, one for ONE) fit the
 *   key's domain, or, with neither circuit, when the key carries its QAP;
 *   else SP_ERR_INVALID_ARG, the mismatch named in err.
 */
sp_status sp_synth_check_circuit(const sp_g16_pk *pk, const sp_r1cs *cs, const sp_native_circuit *nat,
                                 char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/*
 * Proves one witness.
 * On input: pk from a reader or the setup; cs the circuit, required when
 *   the key carries no QAP (bellperson keys), else optional: when given,
 *   synthesis runs over cs (with check != 0 every constraint is checked
 *   first and a failing one is named in err); w the full witness.
 * On output: *proof; public[0..pk->vk.n_public) = w[1..n_public] when
 *   public is not NULL.
 * Returns SP_OK, SP_ERR_UNSATISFIED (check), SP_ERR_INVALID_ARG (sizes,
 *   missing circuit, a circuit that does not fit the key:
 *   sp_synth_check_circuit), SP_ERR_NOMEM, SP_ERR_IO (no OS randomness).
 */
sp_status sp_synth_prove(sp_g16_proof *proof, sp_fr *public_signals, const sp_g16_pk *pk, const sp_r1cs *cs,
                         const sp_fr *w, size_t w_len, int check, const sp_g16_prove_opts *opts,
                         char err[SP_ERR_LEN]) SP_WARN_UNUSED;

#endif
