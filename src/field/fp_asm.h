/*
 * x86-64 assembly entry points for the Fp (6 limbs for BLS12-381, 4 for
 * BN254) and Fr (4 limbs) arithmetic, in fp_x86.c. Compiled only on x86-64 GCC/Clang and not with
 * SP_PORTABLE_ONLY. Internal to the field layer: field_tmpl.h calls them
 * when sp_field_asm_on() says so, else the portable mont.h code.
 *
 *   mul_adx, sqr_adx   Montgomery product / square with mulx/adcx/adox;
 *                      need BMI2 + ADX (checked at run time, cpu.c).
 *   add_x86, sub_x86, neg_x86
 *                      modular add / subtract / negate; baseline x86-64.
 *
 * Contract for all: the same as the mont.h functions (inputs reduced,
 * output reduced, r may alias a or b). Constant time.
 */
#ifndef SP_FIELD_FP_ASM_H
#define SP_FIELD_FP_ASM_H

#include <stdint.h>
#include "field/field.h"
#include "util/cpu_switch.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(SP_PORTABLE_ONLY)
#define SP_HAVE_FP_ASM 1
#else
#define SP_HAVE_FP_ASM 0
#endif

#if SP_HAVE_FP_ASM
void sp_fp_mul_adx(uint64_t r[SP_FP_LIMBS], const uint64_t a[SP_FP_LIMBS], const uint64_t b[SP_FP_LIMBS]);
void sp_fp_sqr_adx(uint64_t r[SP_FP_LIMBS], const uint64_t a[SP_FP_LIMBS]);
void sp_fr_mul_adx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
void sp_fr_sqr_adx(uint64_t r[4], const uint64_t a[4]);
void sp_fp_add_x86(uint64_t r[SP_FP_LIMBS], const uint64_t a[SP_FP_LIMBS], const uint64_t b[SP_FP_LIMBS]);
void sp_fp_sub_x86(uint64_t r[SP_FP_LIMBS], const uint64_t a[SP_FP_LIMBS], const uint64_t b[SP_FP_LIMBS]);
void sp_fp_neg_x86(uint64_t r[SP_FP_LIMBS], const uint64_t a[SP_FP_LIMBS]);
void sp_fr_add_x86(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
void sp_fr_sub_x86(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
void sp_fr_neg_x86(uint64_t r[4], const uint64_t a[4]);
#endif

/* The run-time switch behind sp_field_asm_active() (cpu.c; its state: 1
 * assembly, 0 portable, -1 not decided yet). Read on every field
 * operation, so the common case is one relaxed load and a predictable
 * branch. */
extern sp_cpu_switch sp_field_asm;

static inline int sp_field_asm_on(void)
{
    int s = atomic_load_explicit(&sp_field_asm.state, memory_order_relaxed);
    return s < 0 ? sp_field_asm_active() : s;
}

#endif
