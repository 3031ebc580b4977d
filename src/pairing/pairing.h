/*
 * The optimal ate pairing of the build's curve, e: G1 x G2 -> GT in Fp12.
 *
 * BLS12-381: parameter x = -0xd201000000010000; G2 lives on the M-type
 * sextic twist y^2 = x^3 + 4(1 + u). The Miller loop runs over the bits of
 * |x| and ends with a conjugation (x < 0); each line is a sparse Fp12
 * element of shape 0, 1, 4 (see fp12.h). The final exponentiation raises
 * to 3 (p^12 - 1) / r: easy part with Frobenius and one inversion, hard
 * part by the Hayashida-Hayasaka-Teruya chain 3 Phi_12(p) / r = (x-1)^2
 * (x+p) (x^2+p^2-1) + 3 with cyclotomic squarings. The factor 3 is the
 * convention of zkcrypto bls12_381 and blst: e(G1, G2) equals their
 * published value (checked in tests/test_pairing.c).
 *
 * BN254: parameter x = 4965661367192848881; G2 lives on the D-type twist
 * y^2 = x^3 + 3/(9 + u). The Miller loop runs over 6x + 2 in non-adjacent
 * form (adding Q or -Q), then adds psi(Q) and -psi^2(Q) (psi = untwist o
 * Frobenius o twist, curve.h); lines have shape 0, 3, 4. The final
 * exponentiation raises to 2x (6x^2 + 3x + 1) (p^12 - 1) / r (the hard
 * part of Fuentes-Castaneda, Knapp and Rodriguez-Henriquez), the value
 * @noble/curves and arkworks compute (tests/vectors/noble_bn254.txt).
 *
 * On both curves the extra factor is prime to r, so it changes no equation
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

#if SP_CURVE_BN254
/* Lines in one Miller loop: 65 doublings + 21 additions (6x + 2 has 22
 * nonzero digits in NAF) + the two steps with psi(Q) and -psi^2(Q). */
#define SP_PAIRING_LINES 88
#else
/* Lines in one Miller loop: 63 doublings + 5 additions (|x| has 6 bits set). */
#define SP_PAIRING_LINES 68
#endif

/* A G2 point with its Miller-loop line coefficients precomputed, for a Q
 * used in many pairings (the Groth16 verifying key). About 19.6 KB
 * (BLS12-381), 16.9 KB (BN254). */
typedef struct {
    sp_fp2 ell[SP_PAIRING_LINES][3]; /* line: ell0, ell1 xP, ell2 yP at the twist's positions */
    int is_inf;
} sp_g2_prepared;

/* On output: *r holds the line coefficients of q (or is_inf = 1). */
void sp_g2_prepare(sp_g2_prepared *r, const sp_g2_affine *q);

/* r = the Miller loop value f(P) (f_{x,Q} for BLS12-381, f_{6x+2,Q} times
 * the two extra lines for BN254), before the final exponentiation. */
void sp_miller_loop(sp_fp12 *r, const sp_g1_affine *p, const sp_g2_affine *q);

/* r = prod_i f_{x,q[i]}(p[i]) over n pairs with one shared squaring chain
 * (n = 0 gives 1). No allocation. */
void sp_multi_miller_loop(sp_fp12 *r, const sp_g1_affine *p, const sp_g2_affine *q, size_t n);

/* Same with prepared G2 points. */
void sp_multi_miller_loop_prepared(sp_fp12 *r, const sp_g1_affine *p, const sp_g2_prepared *q,
                                   size_t n);

/* r = f^(c (p^12 - 1) / r), c = 3 (BLS12-381) or 2x (6x^2 + 3x + 1)
 * (BN254). f = 0 gives 0. */
void sp_final_exp(sp_fp12 *r, const sp_fp12 *f);

/* r = e(p, q) = final_exp(miller_loop(p, q)). */
void sp_pairing(sp_fp12 *r, const sp_g1_affine *p, const sp_g2_affine *q);

/* Returns 1 when prod_i e(p[i], q[i]) = 1 (n = 0 included), else 0: one
 * multi Miller loop and one final exponentiation. */
int sp_pairing_product_is_one(const sp_g1_affine *p, const sp_g2_affine *q, size_t n);

/* Same with prepared G2 points. */
int sp_pairing_product_is_one_prepared(const sp_g1_affine *p, const sp_g2_prepared *q, size_t n);

#endif
