/*
 * Fp2 = Fp[u] / (u^2 + 1), the field of G2 coordinates.
 * An element is c0 + c1*u. Same conventions as field.h: reduced Montgomery
 * limbs, outputs may alias inputs, constant time unless named _var.
 */
#ifndef SP_FIELD_FP2_H
#define SP_FIELD_FP2_H

#include "field/field.h"

typedef struct { sp_fp c0, c1; } sp_fp2;

void sp_fp2_add(sp_fp2 *r, const sp_fp2 *a, const sp_fp2 *b);
void sp_fp2_sub(sp_fp2 *r, const sp_fp2 *a, const sp_fp2 *b);
void sp_fp2_neg(sp_fp2 *r, const sp_fp2 *a);
void sp_fp2_dbl(sp_fp2 *r, const sp_fp2 *a);
void sp_fp2_mul(sp_fp2 *r, const sp_fp2 *a, const sp_fp2 *b);
void sp_fp2_sqr(sp_fp2 *r, const sp_fp2 *a);
/* r = a * b for b in Fp. */
void sp_fp2_mul_fp(sp_fp2 *r, const sp_fp2 *a, const sp_fp *b);
/* r = a * xi, the non-residue that builds Fp6 and the twist: xi = 1 + u
 * for BLS12-381, 9 + u for BN254. */
void sp_fp2_mul_by_nonresidue(sp_fp2 *r, const sp_fp2 *a);
/* r = conjugate of a = a^p (the Frobenius map of Fp2). */
void sp_fp2_conj(sp_fp2 *r, const sp_fp2 *a);
/* r = 1/a; 1/0 = 0. */
void sp_fp2_inv(sp_fp2 *r, const sp_fp2 *a);
/* r = a^e, e as e_len little-endian limbs; time depends on e_len only. */
void sp_fp2_pow(sp_fp2 *r, const sp_fp2 *a, const uint64_t *e, size_t e_len);
/* Returns 1 and a square root in r when a is a square, else 0 (r unspecified). */
int sp_fp2_sqrt(sp_fp2 *r, const sp_fp2 *a);
int sp_fp2_is_zero(const sp_fp2 *a);
int sp_fp2_is_one(const sp_fp2 *a);
int sp_fp2_eq(const sp_fp2 *a, const sp_fp2 *b);
void sp_fp2_set_zero(sp_fp2 *r);
void sp_fp2_set_one(sp_fp2 *r);
void sp_fp2_cmov(sp_fp2 *r, const sp_fp2 *a, int c);
void sp_fp2_random(sp_fp2 *r, sp_rng *rng);
/* Zcash "lexicographically largest" rule for Fp2: compare c1, and c0 when
 * c1 is zero. */
int sp_fp2_is_lexicographically_largest(const sp_fp2 *a);

#endif
