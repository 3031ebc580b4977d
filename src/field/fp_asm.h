/*
 * x86-64 assembly entry points for Fp and Fr Montgomery multiplication
 * (mulx/adcx/adox). Compiled only on x86-64 GCC/Clang; used only when
 * sp_field_asm_active() reports the CPU has ADX and BMI2.
 * Contract: the same as sp_mont_mul in mont.h (reduced in, reduced out,
 * r may alias a or b).
 */
#ifndef SP_FIELD_FP_ASM_H
#define SP_FIELD_FP_ASM_H

#include <stdint.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(SP_PORTABLE_ONLY)
#define SP_HAVE_FP_ASM 1
#else
#define SP_HAVE_FP_ASM 0
#endif

#if SP_HAVE_FP_ASM
void sp_fp_mul_adx(uint64_t r[6], const uint64_t a[6], const uint64_t b[6]);
void sp_fp_sqr_adx(uint64_t r[6], const uint64_t a[6]);
void sp_fr_mul_adx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
void sp_fr_sqr_adx(uint64_t r[4], const uint64_t a[4]);
#endif

#endif
