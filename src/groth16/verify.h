/*
 * Groth16 verification on BLS12-381, single and batched.
 *
 * A proof (A, B, C) with public inputs x_1..x_l is valid for a key when
 *   e(A, B) = e(alpha1, beta2) * e(cpub, gamma2) * e(C, delta2),
 *   cpub = IC_0 + sum_i x_i IC_i,
 * the check snarkjs' groth16 verify and bellperson make. It runs as one
 * multi-Miller loop over (A, B), (-cpub, gamma2), (-C, delta2) and one
 * final exponentiation, compared with the precomputed e(alpha1, beta2).
 *
 * Unlike snarkjs we also check that the proof points are in the order-r
 * subgroups (snarkjs checks the curve only); a point outside is reported as
 * malformed input, not as an invalid proof.
 *
 * Results: the sp_status says whether the question could be asked (SP_OK)
 * or the input was malformed; *valid answers it (1 valid, 0 invalid) and
 * is 0 whenever the status is not SP_OK.
 */
#ifndef SP_GROTH16_VERIFY_H
#define SP_GROTH16_VERIFY_H

#include <stddef.h>
#include "snarkpipe.h"
#include "groth16/keys.h"
#include "pairing/pairing.h"
#include "r1cs/binfile.h"

/* A verifying key made ready for many verifications. Owns its arrays;
 * read-only after sp_g16_pvk_init, so several threads may verify with one
 * pvk at once. */
typedef struct {
    sp_fp12 alphabeta;        /* e(alpha1, beta2) */
    sp_g2_prepared *lines;    /* [0] = gamma2, [1] = delta2, prepared */
    uint32_t n_public;
    sp_g1_affine *ic;         /* n_public + 1 points (a copy) */
} sp_g16_pvk;

/*
 * On input: vk with alpha1, beta2, gamma2, delta2 and IC (beta1, delta1 are
 *   not used and may be anything).
 * On output: *pvk ready (free with sp_g16_pvk_free); zeroed on failure.
 * Returns SP_OK, SP_ERR_NOT_ON_CURVE / SP_ERR_NOT_IN_SUBGROUP (a key point;
 *   err names it), SP_ERR_FORMAT (alpha1, beta2, gamma2 or delta2 at
 *   infinity), SP_ERR_NOMEM.
 */
sp_status sp_g16_pvk_init(sp_g16_pvk *pvk, const sp_g16_vk *vk, char err[SP_ERR_LEN]) SP_WARN_UNUSED;
void sp_g16_pvk_free(sp_g16_pvk *pvk);

/*
 * Verifies one proof.
 * On input: pub[0..n_pub) the public inputs (outputs first, then public
 *   inputs: public.json order), in Montgomery form (hence < r).
 * On output: *valid = 1 when the proof verifies, else 0.
 * Returns SP_OK, or SP_ERR_INVALID_ARG (n_pub != pvk->n_public),
 *   SP_ERR_NOT_ON_CURVE / SP_ERR_NOT_IN_SUBGROUP (a proof point), or
 *   SP_ERR_NOMEM; err (may be NULL) says what.
 */
sp_status sp_g16_verify(int *valid, const sp_g16_pvk *pvk, const sp_g16_proof *proof, const sp_fr *pub,
                        size_t n_pub, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/*
 * Verifies n_proofs proofs for one key at once: with random 128-bit
 * z_k (from the OS; never zero),
 *   prod_k e(z_k A_k, B_k) = e(alpha1, beta2)^(sum z_k)
 *                           * e(sum_k z_k cpub_k, gamma2) * e(sum_k z_k C_k, delta2),
 * i.e. n_proofs + 2 Miller loops sharing one squaring chain and one final
 * exponentiation. An invalid proof makes the batch fail except with
 * probability about 2^-127; the batch does not say which proof failed
 * (verify them one by one for that).
 * On input: pub holds n_proofs rows of n_pub inputs (row k at pub + k*n_pub).
 * On output: *valid = 1 when every proof verifies (n_proofs = 0 included).
 * Returns as sp_g16_verify (err names the proof index), or SP_ERR_IO when
 *   the OS randomness fails.
 */
sp_status sp_g16_verify_batch(int *valid, const sp_g16_pvk *pvk, const sp_g16_proof *proofs, size_t n_proofs,
                              const sp_fr *pub, size_t n_pub, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

#endif
