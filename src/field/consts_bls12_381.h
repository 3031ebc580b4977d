/* BLS12-381: the constants named in consts.h (include that, not this). */
#ifndef SP_FIELD_CONSTS_BLS12_381_H
#define SP_FIELD_CONSTS_BLS12_381_H

#define SP_CURVE_NAME "bls12-381"
#define SP_CURVE_SNARKJS "bls12381"
#define SP_CURVE_NS sp_bls12_381

#define SP_FP_LIMBS 6
#define SP_FP_BYTES 48
#define SP_FP_DEC_MAX 120 /* 116 digits + NUL, rounded up */
#define SP_FR_LIMBS 4
#define SP_FR_BYTES 32
#define SP_FR_DEC_MAX 80 /* 77 digits + NUL, rounded up */

/* p = 0x1a0111ea397fe69a...b9feffffffffaaab (381 bits) */
#define SP_FP_MODULUS_INIT                                                      \
    {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL,       \
     0x64774b84f38512bfULL, 0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL}
#define SP_FP_MONT_ONE_INIT                                                     \
    {0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,       \
     0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}
#define SP_FP_MONT_R2_INIT                                                      \
    {0xf4df1f341c341746ULL, 0x0a76e6a609d104f1ULL, 0x8de5476c4c95b6d5ULL,       \
     0x67eb88a9939d83c0ULL, 0x9a793e85b519952dULL, 0x11988fe592cae3aaULL}
#define SP_FP_N0 0x89f3fffcfffcfffdULL

/* r = 0x73eda753299d7d48...ffffffff00000001 (255 bits) */
#define SP_FR_MODULUS_INIT                                                      \
    {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL,       \
     0x73eda753299d7d48ULL}
#define SP_FR_MONT_ONE_INIT                                                     \
    {0x00000001fffffffeULL, 0x5884b7fa00034802ULL, 0x998c4fefecbc4ff5ULL,       \
     0x1824b159acc5056fULL}
#define SP_FR_MONT_R2_INIT                                                      \
    {0xc999e990f3f29c6dULL, 0x2b6cedcb87925c23ULL, 0x05d314967254398fULL,       \
     0x0748d9d99f59ff11ULL}
#define SP_FR_N0 0xfffffffeffffffffULL

#endif
