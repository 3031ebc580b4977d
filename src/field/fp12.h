/*
 * Fp12 = Fp6[w] / (w^2 - v): the top of the tower, where pairing values
 * live. An element is c0 + c1*w. Coefficient positions 0..5 (used by
 * the sparse product names) are c0.c0, c0.c1, c0.c2, c1.c0, c1.c1, c1.c2,
 * i.e. the coefficients of 1, v, v^2, w, vw, v^2w over Fp2.
 * Same conventions as field.h: outputs may alias inputs, constant time
 * unless named _var.
 */
#ifndef SP_FIELD_FP12_H
#define SP_FIELD_FP12_H

#include "field/fp6.h"

typedef struct { sp_fp6 c0, c1; } sp_fp12;

void sp_fp12_add(sp_fp12 *r, const sp_fp12 *a, const sp_fp12 *b);
void sp_fp12_sub(sp_fp12 *r, const sp_fp12 *a, const sp_fp12 *b);
void sp_fp12_neg(sp_fp12 *r, const sp_fp12 *a);
void sp_fp12_mul(sp_fp12 *r, const sp_fp12 *a, const sp_fp12 *b);
void sp_fp12_sqr(sp_fp12 *r, const sp_fp12 *a);
/* r = 1/a; 1/0 = 0. */
void sp_fp12_inv(sp_fp12 *r, const sp_fp12 *a);
/* r = c0 - c1 w = a^(p^6); the inverse when a is in the cyclotomic subgroup. */
void sp_fp12_conj(sp_fp12 *r, const sp_fp12 *a);
/* r = a^(p^k) for any k >= 0 (period 12); k = 1, 2, 3 are one step each. */
void sp_fp12_frobenius(sp_fp12 *r, const sp_fp12 *a, unsigned k);
/* r = a * (b0 + b1 v + b4 vw): the shape of a Miller-loop line value on
 * an M-type twist (BLS12-381). */
void sp_fp12_mul_by_014(sp_fp12 *r, const sp_fp12 *a, const sp_fp2 *b0, const sp_fp2 *b1,
                        const sp_fp2 *b4);
/* r = a * (b0 + b3 w + b4 vw): the shape of a Miller-loop line value on
 * a D-type twist (BN254). */
void sp_fp12_mul_by_034(sp_fp12 *r, const sp_fp12 *a, const sp_fp2 *b0, const sp_fp2 *b3,
                        const sp_fp2 *b4);
/* r = a^2, valid only for a in the cyclotomic subgroup (a^(p^4 - p^2 + 1)
 * = 1, e.g. any a^((p^6-1)(p^2+1))); Granger-Scott, about half the cost of
 * sp_fp12_sqr. On other inputs the result is meaningless. */
void sp_fp12_cyclotomic_sqr(sp_fp12 *r, const sp_fp12 *a);
/* r = a^e, e as e_len little-endian limbs; variable time in e (public
 * exponents only). */
void sp_fp12_pow_var(sp_fp12 *r, const sp_fp12 *a, const uint64_t *e, size_t e_len);
int sp_fp12_is_zero(const sp_fp12 *a);
int sp_fp12_is_one(const sp_fp12 *a);
int sp_fp12_eq(const sp_fp12 *a, const sp_fp12 *b);
void sp_fp12_set_zero(sp_fp12 *r);
void sp_fp12_set_one(sp_fp12 *r);
void sp_fp12_cmov(sp_fp12 *r, const sp_fp12 *a, int c);
void sp_fp12_random(sp_fp12 *r, sp_rng *rng);

#endif
