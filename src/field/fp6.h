/*
 * Fp6 = Fp2[v] / (v^3 - xi): the middle of the tower, xi = 1 + u for
 * BLS12-381, 9 + u for BN254 (sp_fp2_mul_by_nonresidue).
 * An element is c0 + c1*v + c2*v^2. Same conventions as field.h: outputs may
 * alias inputs, constant time unless named _var.
 */
#ifndef SP_FIELD_FP6_H
#define SP_FIELD_FP6_H

#include "field/fp2.h"

typedef struct { sp_fp2 c0, c1, c2; } sp_fp6;

void sp_fp6_add(sp_fp6 *r, const sp_fp6 *a, const sp_fp6 *b);
void sp_fp6_sub(sp_fp6 *r, const sp_fp6 *a, const sp_fp6 *b);
void sp_fp6_neg(sp_fp6 *r, const sp_fp6 *a);
void sp_fp6_dbl(sp_fp6 *r, const sp_fp6 *a);
void sp_fp6_mul(sp_fp6 *r, const sp_fp6 *a, const sp_fp6 *b);
void sp_fp6_sqr(sp_fp6 *r, const sp_fp6 *a);
/* r = 1/a; 1/0 = 0. */
void sp_fp6_inv(sp_fp6 *r, const sp_fp6 *a);
/* r = a * v (v^3 = xi), the non-residue that builds Fp12. */
void sp_fp6_mul_by_nonresidue(sp_fp6 *r, const sp_fp6 *a);
/* r = a * b for b in Fp2. */
void sp_fp6_mul_fp2(sp_fp6 *r, const sp_fp6 *a, const sp_fp2 *b);
/* Sparse products for line functions: r = a * (b0 + b1 v), r = a * (b1 v). */
void sp_fp6_mul_by_01(sp_fp6 *r, const sp_fp6 *a, const sp_fp2 *b0, const sp_fp2 *b1);
void sp_fp6_mul_by_1(sp_fp6 *r, const sp_fp6 *a, const sp_fp2 *b1);
/* r = a^(p^k) for any k >= 0 (period 6); k = 1, 2, 3 are one step each. */
void sp_fp6_frobenius(sp_fp6 *r, const sp_fp6 *a, unsigned k);
int sp_fp6_is_zero(const sp_fp6 *a);
int sp_fp6_is_one(const sp_fp6 *a);
int sp_fp6_eq(const sp_fp6 *a, const sp_fp6 *b);
void sp_fp6_set_zero(sp_fp6 *r);
void sp_fp6_set_one(sp_fp6 *r);
void sp_fp6_cmov(sp_fp6 *r, const sp_fp6 *a, int c);
void sp_fp6_random(sp_fp6 *r, sp_rng *rng);

#endif
