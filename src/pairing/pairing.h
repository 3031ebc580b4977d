/*
 * The optimal ate pairing of BLS12-381, e: G1 x G2 -> GT in Fp12.
 *
 * Parameter x = -0xd201000000010000; G2 lives on the M-type
 * sextic twist y^2 = x^3 + 4(1 + u). The Miller loop runs over the bits of
 * |x| with T in homogeneous projective coordinates on the twist (no
 * inversions); each line is a sparse Fp12 element of shape 0, 1, 4 (see
 * fp12.h). The final exponentiation raises to 3 (p^12 - 1) / r: easy part
 * with Frobenius and one inversion, hard part by the Hayashida-Hayasaka-
 * Teruya chain 3 Phi_12(p) / r = (x-1)^2 (x+p) (x^2+p^2-1) + 3 with
 * cyclotomic squarings. The factor 3 is the convention of zkcrypto
 * bls12_381 and blst: e(G1, G2) equals their published value (checked in
 * tests/test_pairing.c), and since gcd(3, r) = 1 it changes no equation
 * between pairings. Miller-loop values themselves carry line scalings that
 * only the final exponentiation removes; compare values after it.
 *
 * Inputs: affine points, infinity = (0, 0). A pair with either point at
 * infinity contributes 1. Points must be on their curves and in the order-r
 * subgroups (the caller checks this when decoding); other points give
 * meaningless values but never crash. Everything here runs on public data
 * and is not constant time.
 */
#ifndef SP_PAIRING_PAIRING_H
#define SP_PAIRING_PAIRING_H

#include <stddef.h>
#include "curve/curve.h"
#include "field/fp12.h"

/* Lines in one Miller loop: 63 doublings + 5 additions (|x| has 6 bits set). */
#define SP_PAIRING_LINES 68

/* A G2 point with its Miller-loop line coefficients precomputed, for a Q
 * used in many pairings (the Groth16 verifying key). About 19.6 KB. */
typedef struct {
    sp_fp2 ell[SP_PAIRING_LINES][3]; /* line = ell0 + (ell1 xP) v + (ell2 yP) vw */
    int is_inf;
} sp_g2_prepared;

/* On output: *r holds the line coefficients of q (or is_inf = 1). */
void sp_g2_prepare(sp_g2_prepared *r, const sp_g2_affine *q);

/* r = f_{x,Q}(P), the Miller loop value before the final exponentiation. */
void sp_miller_loop(sp_fp12 *r, const sp_g1_affine *p, const sp_g2_affine *q);

/* r = prod_i f_{x,q[i]}(p[i]) over n pairs with one shared squaring chain
 * (n = 0 gives 1). No allocation. */
void sp_multi_miller_loop(sp_fp12 *r, const sp_g1_affine *p, const sp_g2_affine *q, size_t n);

/* Same with prepared G2 points. */
void sp_multi_miller_loop_prepared(sp_fp12 *r, const sp_g1_affine *p, const sp_g2_prepared *q,
                                   size_t n);

/* r = f^(3 (p^12 - 1) / r). f = 0 gives 0. */
void sp_final_exp(sp_fp12 *r, const sp_fp12 *f);

/* r = e(p, q) = final_exp(miller_loop(p, q)). */
void sp_pairing(sp_fp12 *r, const sp_g1_affine *p, const sp_g2_affine *q);

/* Returns 1 when prod_i e(p[i], q[i]) = 1 (n = 0 included), else 0: one
 * multi Miller loop and one final exponentiation. */
int sp_pairing_product_is_one(const sp_g1_affine *p, const sp_g2_affine *q, size_t n);

/* Same with prepared G2 points. */
int sp_pairing_product_is_one_prepared(const sp_g1_affine *p, const sp_g2_prepared *q, size_t n);

#endif
