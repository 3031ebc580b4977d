/* Fp, the base field of the build's curve: instantiation of field_tmpl.h plus sqrt. */
#include <string.h>
#include "field/field.h"
#include "field/consts.h"
#include "field/fp_asm.h"

#define F fp
#define N SP_FP_LIMBS
#define MODULUS_NAME FP
#define MODULUS SP_FP_MODULUS_INIT
#define MONT_ONE SP_FP_MONT_ONE_INIT
#define MONT_R2 SP_FP_MONT_R2_INIT
#define N0 SP_FP_N0
#define DEC_MAX SP_FP_DEC_MAX
#if SP_HAVE_FP_ASM
#define ASM_MUL sp_fp_mul_adx
#define ASM_SQR sp_fp_sqr_adx
#define ASM_ADD sp_fp_add_x86
#define ASM_SUB sp_fp_sub_x86
#define ASM_NEG sp_fp_neg_x86
#endif
#include "field/field_tmpl.h"

void sp_fp_exp_from_p(uint64_t e[SP_FP_LIMBS], int k, unsigned s)
{
    /* p's limb 0 is far from 0 and from 2^64 on both curves: no carry. */
    uint64_t t[SP_FP_LIMBS];
    memcpy(t, mod_, sizeof t);
    t[0] += (uint64_t)(int64_t)k;
    for (int i = 0; i < SP_FP_LIMBS; i++)
        e[i] = (t[i] >> s) | (i + 1 < SP_FP_LIMBS ? t[i + 1] << (64 - s) : 0);
}

int sp_fp_sqrt(sp_fp *r, const sp_fp *a)
{
    uint64_t e[SP_FP_LIMBS];
    sp_fp s, c;
    sp_fp_exp_from_p(e, 1, 2);                /* (p + 1) / 4 */
    sp_fp_pow_public_(&s, a, e, SP_FP_LIMBS); /* public exponent */
    sp_fp_sqr(&c, &s);
    *r = s;
    return sp_fp_eq(&c, a);
}

int sp_fp_is_lexicographically_largest(const sp_fp *a)
{
    uint64_t half[SP_FP_LIMBS], l[SP_FP_LIMBS];
    sp_fp_exp_from_p(half, -1, 1); /* (p - 1) / 2 */
    sp_fp_to_canonical(l, a);
    return sp_limbs_lt(half, l, SP_FP_LIMBS);
}
