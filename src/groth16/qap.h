/*
 * The QAP of an R1CS evaluated at a point tau: the scalar half of the
 * development setup (setup.c turns these scalars into key points).
 *
 * Row layout (the same as synth.h describes for the prover): rows
 * 0..nC-1 are the constraints, rows nC+s for s = 0..nPub carry A = w_s
 * (the input-consistency rows that make the public inputs binding), the
 * remaining rows of the size-n domain are zero. A_i(X) = sum over rows of
 * A[row][i] * L_row(X), with L_row the Lagrange basis of the domain d
 * (its roots family decides which polynomials these are).
 */
#ifndef SP_GROTH16_QAP_H
#define SP_GROTH16_QAP_H

#include <stddef.h>
#include "snarkpipe.h"
#include "field/field.h"
#include "ntt/ntt.h"
#include "r1cs/r1cs.h"

/*
 * Every function below runs on up to `threads` threads (>= 1) and gives
 * the same result whatever that number.
 */

/*
 * On input: d of size n >= nC + nPub + 1 (else SP_ERR_INVALID_ARG); tau
 *   not an n-th root of unity (the caller draws it at random; such a tau is
 *   rejected with SP_ERR_INVALID_ARG so the caller can draw again).
 * On output: lag[j] = L_j(tau) for j < n (unspecified when refused).
 * Returns SP_OK or SP_ERR_INVALID_ARG.
 */
sp_status sp_qap_lagrange_at(sp_fr *lag, const sp_ntt_domain *d, const sp_fr *tau, int threads) SP_WARN_UNUSED;

/*
 * On input: lag from sp_qap_lagrange_at for a domain of n rows covering cs.
 * On output: a[i] = A_i(tau), b[i] = B_i(tau), c[i] = C_i(tau) for every
 *   wire i < n_wires (arrays of n_wires entries).
 * Returns SP_OK or SP_ERR_NOMEM (a, b, c unspecified). Scratch: 16 MiB.
 */
sp_status sp_qap_wires_at(sp_fr *a, sp_fr *b, sp_fr *c, const sp_r1cs *cs, const sp_fr *lag,
                          int threads) SP_WARN_UNUSED;

/* A sparse matrix for sp_qap_matrices_at: CSR rows over wire columns, each
 * entry's coefficient either val[k] or, when val is NULL, coef[kid[k]]
 * (the compact form of recorded native circuits, circuit/rec.h). */
typedef struct {
    const uint64_t *row; /* n_rows + 1 */
    size_t n_rows;
    uint64_t nnz;
    const uint32_t *col;
    const sp_fr *val;
    const uint32_t *kid;
    const sp_fr *coef;
} sp_qap_matrix;

/*
 * As sp_qap_wires_at for any three matrices of n_rows constraints over
 * n_wires wires with n_public public inputs: acc[0..3)[i] = A_i(tau),
 * B_i(tau), C_i(tau), the input-consistency rows included.
 * Returns SP_OK or SP_ERR_NOMEM. Scratch: 16 MiB.
 */
sp_status sp_qap_matrices_at(sp_fr *const acc[3], const sp_qap_matrix m[3], size_t n_wires, uint64_t n_rows,
                            uint32_t n_public, const sp_fr *lag, int threads) SP_WARN_UNUSED;

/*
 * The Lagrange basis of the 2n-point domain at the odd points, for the
 * snarkjs H bases: out[j] = L^(2n)_(2j+1)(tau), j < n, where the 2n-point
 * domain has root d->omega_2n. Same failure cases as sp_qap_lagrange_at.
 */
sp_status sp_qap_odd_lagrange_at(sp_fr *out, const sp_ntt_domain *d, const sp_fr *tau,
                                 int threads) SP_WARN_UNUSED;

/* r[i] = 1 / a[i] for i < n with one inversion (Montgomery's trick); every
 * a[i] must be nonzero. scratch holds n elements. r may equal a. */
void sp_fr_batch_inv(sp_fr *r, const sp_fr *a, sp_fr *scratch, size_t n);

#endif
