/*
 * The Groth16 setup of a circuit from a powers-of-tau ceremony: the key
 * `snarkjs groth16 setup` (= `snarkjs zkey new`) writes, the start of a
 * circuit's phase 2. Nothing secret is involved: every point is a
 * combination of the ceremony's points, and delta = 1 until the first
 * `zkey contribute`. The key is the same as snarkjs': the points, the QAP
 * coefficients and the circuit hash (csHash, BLAKE2b-512 over the key's
 * points as snarkjs hashes them), which `snarkjs zkey verify` recomputes.
 * Written with sp_zkey_write_setup it is byte for byte snarkjs' file.
 */
#ifndef SP_GROTH16_PTAU_SETUP_H
#define SP_GROTH16_PTAU_SETUP_H

#include "snarkpipe.h"
#include "groth16/keys.h"
#include "groth16/ptau.h"
#include "r1cs/r1cs.h"

/*
 * On input: cs a circuit of this build's curve; ptau an opened .ptau of a
 *   power at least the circuit's domain (2^k >= constraints + public
 *   signals + 1); threads >= 1. Prepared for phase 2, its Lagrange points
 *   are read (sections 12..15); if not, they are computed from the powers
 *   as `snarkjs powersoftau prepare phase2` would (an inverse DFT over the
 *   points, for the circuit's domain only): the same key either way.
 * On output: *pk a snarkjs-convention key with its QAP matrices and, as
 *   pk->mpc, section 10 of a new key (the csHash, no contributions); the
 *   caller frees it with sp_g16_pk_free. Zeroed on failure.
 * Returns SP_OK, SP_ERR_UNSUPPORTED (ptau too small for the circuit), SP_ERR_INVALID_ARG (domain beyond SP_NTT_MAX_LOG), a
 *   point's status from sp_ptau_read_points, SP_ERR_NOMEM; err says why
 *   and what to do.
 */
sp_status sp_g16_setup_ptau(sp_g16_pk *pk, const sp_r1cs *cs, const sp_ptau *ptau, int threads,
                            char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* As sp_g16_setup_ptau, the heavy sums on be (groth16/backend.h: its
 * ptau_ members, where it has them; NULL: the CPU); the same key. Also
 * returns the device's error, SP_ERR_GPU. */
typedef struct sp_backend sp_backend;
sp_status sp_g16_setup_ptau_be(sp_g16_pk *pk, const sp_r1cs *cs, const sp_ptau *ptau, sp_backend *be, int threads,
                               char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* The domain snarkjs gives a circuit: log2 of the smallest power of two
 * >= n_constraints + n_public + 1 (at least 1). */
unsigned sp_g16_ptau_domain_log(const sp_r1cs_header *h);

#endif
