/* Fp, the BLS12-381 base field: instantiation of field_tmpl.h plus sqrt. */
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

int sp_fp_sqrt(sp_fp *r, const sp_fp *a)
{
    /* (p + 1) / 4 */
    static const uint64_t e[SP_FP_LIMBS] = {0xee7fbfffffffeaabULL, 0x07aaffffac54ffffULL,
                                            0xd9cc34a83dac3d89ULL, 0xd91dd2e13ce144afULL,
                                            0x92c6e9ed90d2eb35ULL, 0x0680447a8e5ff9a6ULL};
    sp_fp s, c;
    sp_fp_pow_public_(&s, a, e, SP_FP_LIMBS); /* public exponent */
    sp_fp_sqr(&c, &s);
    *r = s;
    return sp_fp_eq(&c, a);
}

int sp_fp_is_lexicographically_largest(const sp_fp *a)
{
    /* (p - 1) / 2 */
    static const uint64_t half[SP_FP_LIMBS] = {0xdcff7fffffffd555ULL, 0x0f55ffff58a9ffffULL,
                                               0xb39869507b587b12ULL, 0xb23ba5c279c2895fULL,
                                               0x258dd3db21a5d66bULL, 0x0d0088f51cbff34dULL};
    uint64_t l[SP_FP_LIMBS];
    sp_fp_to_canonical(l, a);
    return sp_limbs_lt(half, l, SP_FP_LIMBS);
}
