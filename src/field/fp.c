/* Fp, the BLS12-381 base field: instantiation of field_tmpl.h plus sqrt. */
#include "field/field.h"
#include "field/fp_asm.h"

#define F fp
#define N SP_FP_LIMBS
#define MODULUS_NAME FP
#define MODULUS {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL, \
                 0x64774b84f38512bfULL, 0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL}
#define MONT_ONE {0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL, \
                  0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}
#define MONT_R2 {0xf4df1f341c341746ULL, 0x0a76e6a609d104f1ULL, 0x8de5476c4c95b6d5ULL, \
                 0x67eb88a9939d83c0ULL, 0x9a793e85b519952dULL, 0x11988fe592cae3aaULL}
#define N0 0x89f3fffcfffcfffdULL
#define DEC_MAX SP_FP_DEC_MAX
#if SP_HAVE_FP_ASM
#define ASM_MUL sp_fp_mul_adx
#define ASM_SQR sp_fp_sqr_adx
#endif
#include "field/field_tmpl.h"

int sp_fp_sqrt(sp_fp *r, const sp_fp *a)
{
    /* (p + 1) / 4 */
    static const uint64_t e[SP_FP_LIMBS] = {0xee7fbfffffffeaabULL, 0x07aaffffac54ffffULL,
                                            0xd9cc34a83dac3d89ULL, 0xd91dd2e13ce144afULL,
                                            0x92c6e9ed90d2eb35ULL, 0x0680447a8e5ff9a6ULL};
    sp_fp s, c;
    sp_fp_pow(&s, a, e, SP_FP_LIMBS);
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
