/*
 * The H step of the Groth16 prover: from the QAP evaluations a, b, c on the
 * domain D (size n, from synth.h) to the scalars of the H multi-scalar
 * multiplication. The two ecosystems bake H into their keys differently,
 * so each has its own function (docs/algorithms.md §2). Both overwrite
 * a, b, c (they are the scratch space) and run every transform and
 * pointwise pass on nthreads threads; pause (NULL: none) is a pause point
 * between the transforms (util/par.h).
 */
#ifndef SP_NTT_HSTEP_H
#define SP_NTT_HSTEP_H

#include "field/field.h"
#include "ntt/ntt.h"
#include "util/par.h"

/*
 * snarkjs / circom zkeys (H bases = odd 2n-point Lagrange basis / delta).
 * On input: a, b, c hold evaluations on D; d uses SP_NTT_ROOTS_SNARKJS for
 *   a byte-compatible result.
 * On output: h[j] = A(x_j) * B(x_j) - C(x_j) with x_j = omega_2n * omega^j
 *   (the odd 2n-th roots); no division by Z. h may alias a, b or c.
 */
void sp_h_snarkjs(sp_fr *h, sp_fr *a, sp_fr *b, sp_fr *c, const sp_ntt_domain *d, int nthreads,
                  const sp_pause *pause);

/*
 * bellperson / bellman parameters (H bases = tau^i * Z(tau) / delta).
 * On input: a, b, c hold evaluations on D; d uses SP_NTT_ROOTS_ZKCRYPTO
 *   for keys made by bellperson (the roots fix which polynomials a, b, c
 *   are). The coset shift is the family generator d->gen (7).
 * On output: h[i] is the coefficient of X^i of H(X) = (A(X)B(X) - C(X)) /
 *   Z(X), Z = X^n - 1, for i < n. When c = a*b on D the division is exact
 *   and h[n-1] = 0: the MSM uses h[0..n-2] (bellperson's n-1 bases).
 *   h may alias a, b or c.
 */
void sp_h_bellperson(sp_fr *h, sp_fr *a, sp_fr *b, sp_fr *c, const sp_ntt_domain *d, int nthreads,
                     const sp_pause *pause);

#endif
