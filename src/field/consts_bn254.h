/* BN254 (alt_bn128, snarkjs "bn128"): the constants named in consts.h
 * (include that, not this). x = 4965661367192848881,
 * p = 36x^4 + 36x^3 + 24x^2 + 6x + 1, r = 36x^4 + 36x^3 + 18x^2 + 6x + 1. */
#ifndef SP_FIELD_CONSTS_BN254_H
#define SP_FIELD_CONSTS_BN254_H

#define SP_CURVE_NAME "bn254"
#define SP_CURVE_SNARKJS "bn128"
#define SP_CURVE_NS sp_bn254

#define SP_FP_LIMBS 4
#define SP_FP_BYTES 32
#define SP_FP_DEC_MAX 80 /* 77 digits + NUL, rounded up */
#define SP_FR_LIMBS 4
#define SP_FR_BYTES 32
#define SP_FR_DEC_MAX 80

/* p = 0x30644e72e131a029...3c208c16d87cfd47 (254 bits) */
#define SP_FP_MODULUS_INIT                                                      \
    {0x3c208c16d87cfd47ULL, 0x97816a916871ca8dULL, 0xb85045b68181585dULL,       \
     0x30644e72e131a029ULL}
#define SP_FP_MONT_ONE_INIT                                                     \
    {0xd35d438dc58f0d9dULL, 0x0a78eb28f5c70b3dULL, 0x666ea36f7879462cULL,       \
     0x0e0a77c19a07df2fULL}
#define SP_FP_MONT_R2_INIT                                                      \
    {0xf32cfc5b538afa89ULL, 0xb5e71911d44501fbULL, 0x47ab1eff0a417ff6ULL,       \
     0x06d89f71cab8351fULL}
#define SP_FP_N0 0x87d20782e4866389ULL

/* r = 0x30644e72e131a029...43e1f593f0000001 (254 bits) */
#define SP_FR_MODULUS_INIT                                                      \
    {0x43e1f593f0000001ULL, 0x2833e84879b97091ULL, 0xb85045b68181585dULL,       \
     0x30644e72e131a029ULL}
#define SP_FR_MONT_ONE_INIT                                                     \
    {0xac96341c4ffffffbULL, 0x36fc76959f60cd29ULL, 0x666ea36f7879462eULL,       \
     0x0e0a77c19a07df2fULL}
#define SP_FR_MONT_R2_INIT                                                      \
    {0x1bb8e645ae216da7ULL, 0x53fe3ab1e35c59e3ULL, 0x8c49833d53bb8085ULL,       \
     0x0216d0b17f4e44a5ULL}
#define SP_FR_N0 0xc2e1f593efffffffULL

#endif
