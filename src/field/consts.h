/*
 * The Montgomery constants of the two BLS12-381 prime fields, as
 * initialisers of little-endian uint64_t limb arrays (R = 2^384 for Fp,
 * 2^256 for Fr).
 *
 * One source for every backend: the CPU fields (fp.c, fr.c through
 * field_tmpl.h) and the CUDA backend (gpu/field.cuh), which reads each
 * 64-bit limb as two 32-bit words, low word first. Plain macros so that
 * both C11 and CUDA C++ can use them in constant expressions.
 */
#ifndef SP_FIELD_CONSTS_H
#define SP_FIELD_CONSTS_H

/* p = 0x1a0111ea397fe69a...b9feffffffffaaab (381 bits) */
#define SP_FP_MODULUS_INIT                                                      \
    {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL,       \
     0x64774b84f38512bfULL, 0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL}
/* R mod p */
#define SP_FP_MONT_ONE_INIT                                                     \
    {0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,       \
     0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}
/* R^2 mod p */
#define SP_FP_MONT_R2_INIT                                                      \
    {0xf4df1f341c341746ULL, 0x0a76e6a609d104f1ULL, 0x8de5476c4c95b6d5ULL,       \
     0x67eb88a9939d83c0ULL, 0x9a793e85b519952dULL, 0x11988fe592cae3aaULL}
/* -p^-1 mod 2^64 (its low 32 bits are -p^-1 mod 2^32) */
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
