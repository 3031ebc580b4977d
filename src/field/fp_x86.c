/*
 * x86-64 arithmetic for Fp and Fr: Montgomery multiplication with
 * mulx/adcx/adox (BMI2 + ADX), and modular add, subtract and negate with
 * adc/sbb/cmov. Contracts in fp_asm.h. Two sizes: 6 limbs (the BLS12-381
 * Fp) and 4 limbs (Fr of both curves and the BN254 Fp), the 4-limb code
 * written once (static always-inline bodies taking the modulus) and
 * instantiated per field, so each entry point addresses its own modulus.
 *
 * Multiplication: CIOS, fully unrolled. Round i adds a*b[i] into the
 * accumulator t with two independent carry chains (adcx collects the low
 * halves, adox the high halves), then adds q*m with q = t[0]*n0 so the low
 * limb vanishes, and drops it. The register names rotate instead of
 * moving data. Both moduli have their top bit clear, so t < 2m < 2^(64n)
 * between rounds and t + a*b[i] + q*m < 2^(64(n+1)): n+1 registers hold
 * it and neither carry chain can run off the top. One conditional
 * subtraction of m at the end gives a reduced result.
 *
 * Only text handed to the assembler uses ADX/BMI2, so this file builds
 * without -madx; the callers check the CPU first (cpu.c). The moduli (from
 * consts.h, the build's curve) are file-local arrays here so that the asm
 * addresses them RIP-relative without spending a register (the always-
 * inline bodies receive constant addresses, which the compiler folds into
 * the memory operands); the tests compare this path with the portable one.
 */
#include "field/consts.h"
#include "field/fp_asm.h"

#if SP_HAVE_FP_ASM

#define SP_ADX __attribute__((target("adx,bmi2")))
#define SP_ADX_INLINE static inline __attribute__((always_inline, target("adx,bmi2")))
#define SP_X86_INLINE static inline __attribute__((always_inline))

static const uint64_t fp_m_[SP_FP_LIMBS] = SP_FP_MODULUS_INIT;
static const uint64_t fp_n0_ = SP_FP_N0;
static const uint64_t fr_m_[4] = SP_FR_MODULUS_INIT;
static const uint64_t fr_n0_ = SP_FR_N0;

#define S(x) "%[" #x "]"

/* lo:hi = a[off/8] * rdx; x += lo on the CF chain, y += hi on the OF chain. */
#define MA(off, x, y)                                                              \
    "mulxq " #off "(%[a]), %[lo], %[hi]\n\t"                                       \
    "adcxq %[lo], " S(x) "\n\t"                                                    \
    "adoxq %[hi], " S(y) "\n\t"
/* The same with the modulus limb m_j as the other factor. */
#define MM(j, x, y)                                                                \
    "mulxq " S(j) ", %[lo], %[hi]\n\t"                                             \
    "adcxq %[lo], " S(x) "\n\t"                                                    \
    "adoxq %[hi], " S(y) "\n\t"

/* ---- 6 limbs: the BLS12-381 Fp ------------------------------------------- */

#if SP_FP_LIMBS == 6

/* t0..t6 = a * b[0]. */
#define FP_FIRST                                                                   \
    "movq 0(%[b]), %%rdx\n\t"                                                      \
    "mulxq 0(%[a]), %[t0], %[t1]\n\t"                                              \
    "mulxq 8(%[a]), %[lo], %[t2]\n\t"                                              \
    "addq %[lo], %[t1]\n\t"                                                        \
    "mulxq 16(%[a]), %[lo], %[t3]\n\t"                                             \
    "adcq %[lo], %[t2]\n\t"                                                        \
    "mulxq 24(%[a]), %[lo], %[t4]\n\t"                                             \
    "adcq %[lo], %[t3]\n\t"                                                        \
    "mulxq 32(%[a]), %[lo], %[t5]\n\t"                                             \
    "adcq %[lo], %[t4]\n\t"                                                        \
    "mulxq 40(%[a]), %[lo], %[t6]\n\t"                                             \
    "adcq %[lo], %[t5]\n\t"                                                        \
    "adcq $0, %[t6]\n\t"

/* x0..x6 = x0..x5 + a * b[off/8] (x6 is free on entry). */
#define FP_MULADD(off, x0, x1, x2, x3, x4, x5, x6)                                 \
    "movq " #off "(%[b]), %%rdx\n\t"                                               \
    "xorq " S(x6) ", " S(x6) "\n\t"                                                \
    MA(0, x0, x1) MA(8, x1, x2) MA(16, x2, x3) MA(24, x3, x4) MA(32, x4, x5)       \
    MA(40, x5, x6)                                                                 \
    "adcq $0, " S(x6) "\n\t"

/* x0..x6 += q*m with q = x0*n0; afterwards x0 = 0 and x1..x6 is the result. */
#define FP_REDUCE(x0, x1, x2, x3, x4, x5, x6)                                      \
    "movq " S(x0) ", %%rdx\n\t"                                                    \
    "imulq %[n0], %%rdx\n\t"                                                       \
    "xorq %[lo], %[lo]\n\t"                                                        \
    MM(m0, x0, x1) MM(m1, x1, x2) MM(m2, x2, x3) MM(m3, x3, x4) MM(m4, x4, x5)     \
    MM(m5, x5, x6)                                                                 \
    "adcq $0, " S(x6) "\n\t"

/* r = x - m if x >= m else x, x in x0..x5; y0..y5 are scratch. */
#define FP_FINAL(x0, x1, x2, x3, x4, x5, y0, y1, y2, y3, y4, y5)                   \
    "movq " S(x0) ", " S(y0) "\n\t" "movq " S(x1) ", " S(y1) "\n\t"                \
    "movq " S(x2) ", " S(y2) "\n\t" "movq " S(x3) ", " S(y3) "\n\t"                \
    "movq " S(x4) ", " S(y4) "\n\t" "movq " S(x5) ", " S(y5) "\n\t"                \
    "subq %[m0], " S(y0) "\n\t" "sbbq %[m1], " S(y1) "\n\t"                        \
    "sbbq %[m2], " S(y2) "\n\t" "sbbq %[m3], " S(y3) "\n\t"                        \
    "sbbq %[m4], " S(y4) "\n\t" "sbbq %[m5], " S(y5) "\n\t"                        \
    "cmovcq " S(x0) ", " S(y0) "\n\t" "cmovcq " S(x1) ", " S(y1) "\n\t"            \
    "cmovcq " S(x2) ", " S(y2) "\n\t" "cmovcq " S(x3) ", " S(y3) "\n\t"            \
    "cmovcq " S(x4) ", " S(y4) "\n\t" "cmovcq " S(x5) ", " S(y5) "\n\t"            \
    "movq " S(y0) ", 0(%[r])\n\t" "movq " S(y1) ", 8(%[r])\n\t"                    \
    "movq " S(y2) ", 16(%[r])\n\t" "movq " S(y3) ", 24(%[r])\n\t"                  \
    "movq " S(y4) ", 32(%[r])\n\t" "movq " S(y5) ", 40(%[r])\n\t"

#define FP_OPERANDS                                                                \
    : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3),              \
      [t4] "=&r"(t4), [t5] "=&r"(t5), [t6] "=&r"(t6), [lo] "=&r"(lo),              \
      [hi] "=&r"(hi), [d] "=&d"(d), [a] "+r"(a), [b] "+r"(b)                       \
    : [r] "r"(r), [n0] "m"(fp_n0_), [m0] "m"(fp_m_[0]), [m1] "m"(fp_m_[1]),        \
      [m2] "m"(fp_m_[2]), [m3] "m"(fp_m_[3]), [m4] "m"(fp_m_[4]), [m5] "m"(fp_m_[5]) \
    : "cc", "memory"

SP_ADX void sp_fp_mul_adx(uint64_t r[6], const uint64_t a[6], const uint64_t b[6])
{
    uint64_t t0, t1, t2, t3, t4, t5, t6, lo, hi, d;
    __asm__ volatile(
        FP_FIRST
        FP_REDUCE(t0, t1, t2, t3, t4, t5, t6)
        FP_MULADD(8, t1, t2, t3, t4, t5, t6, t0)
        FP_REDUCE(t1, t2, t3, t4, t5, t6, t0)
        FP_MULADD(16, t2, t3, t4, t5, t6, t0, t1)
        FP_REDUCE(t2, t3, t4, t5, t6, t0, t1)
        FP_MULADD(24, t3, t4, t5, t6, t0, t1, t2)
        FP_REDUCE(t3, t4, t5, t6, t0, t1, t2)
        FP_MULADD(32, t4, t5, t6, t0, t1, t2, t3)
        FP_REDUCE(t4, t5, t6, t0, t1, t2, t3)
        FP_MULADD(40, t5, t6, t0, t1, t2, t3, t4)
        FP_REDUCE(t5, t6, t0, t1, t2, t3, t4)
        FP_FINAL(t6, t0, t1, t2, t3, t4, t5, lo, hi, d, a, b)
        FP_OPERANDS);
}

/* Squaring is the product with itself. A dedicated 12-limb square plus
 * separate reduction (63 multiplications instead of 78) measured no faster
 * here: the time is set by the serial q = t0*n0 chain of the reduction,
 * which both have, not by the multiplier. */
SP_ADX void sp_fp_sqr_adx(uint64_t r[6], const uint64_t a[6]) { sp_fp_mul_adx(r, a, a); }
#endif

/* ---- 4 limbs: Fr, and the BN254 Fp ---------------------------------------- */

#define FR_FIRST                                                                   \
    "movq 0(%[b]), %%rdx\n\t"                                                      \
    "mulxq 0(%[a]), %[t0], %[t1]\n\t"                                              \
    "mulxq 8(%[a]), %[lo], %[t2]\n\t"                                              \
    "addq %[lo], %[t1]\n\t"                                                        \
    "mulxq 16(%[a]), %[lo], %[t3]\n\t"                                             \
    "adcq %[lo], %[t2]\n\t"                                                        \
    "mulxq 24(%[a]), %[lo], %[t4]\n\t"                                             \
    "adcq %[lo], %[t3]\n\t"                                                        \
    "adcq $0, %[t4]\n\t"

#define FR_MULADD(off, x0, x1, x2, x3, x4)                                         \
    "movq " #off "(%[b]), %%rdx\n\t"                                               \
    "xorq " S(x4) ", " S(x4) "\n\t"                                                \
    MA(0, x0, x1) MA(8, x1, x2) MA(16, x2, x3) MA(24, x3, x4)                      \
    "adcq $0, " S(x4) "\n\t"

#define FR_REDUCE(x0, x1, x2, x3, x4)                                              \
    "movq " S(x0) ", %%rdx\n\t"                                                    \
    "imulq %[n0], %%rdx\n\t"                                                       \
    "xorq %[lo], %[lo]\n\t"                                                        \
    MM(m0, x0, x1) MM(m1, x1, x2) MM(m2, x2, x3) MM(m3, x3, x4)                    \
    "adcq $0, " S(x4) "\n\t"

#define FR_FINAL(x0, x1, x2, x3, y0, y1, y2, y3)                                   \
    "movq " S(x0) ", " S(y0) "\n\t" "movq " S(x1) ", " S(y1) "\n\t"                \
    "movq " S(x2) ", " S(y2) "\n\t" "movq " S(x3) ", " S(y3) "\n\t"                \
    "subq %[m0], " S(y0) "\n\t" "sbbq %[m1], " S(y1) "\n\t"                        \
    "sbbq %[m2], " S(y2) "\n\t" "sbbq %[m3], " S(y3) "\n\t"                        \
    "cmovcq " S(x0) ", " S(y0) "\n\t" "cmovcq " S(x1) ", " S(y1) "\n\t"            \
    "cmovcq " S(x2) ", " S(y2) "\n\t" "cmovcq " S(x3) ", " S(y3) "\n\t"            \
    "movq " S(y0) ", 0(%[r])\n\t" "movq " S(y1) ", 8(%[r])\n\t"                    \
    "movq " S(y2) ", 16(%[r])\n\t" "movq " S(y3) ", 24(%[r])\n\t"

#define FR_OPERANDS                                                                \
    : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3),              \
      [t4] "=&r"(t4), [lo] "=&r"(lo), [hi] "=&r"(hi), [d] "=&d"(d),                \
      [a] "+r"(a), [b] "+r"(b)                                                     \
    : [r] "r"(r), [n0] "m"(*n0), [m0] "m"(m[0]), [m1] "m"(m[1]),                   \
      [m2] "m"(m[2]), [m3] "m"(m[3])                                               \
    : "cc", "memory"

/* r = a b / 2^256 mod m, n0 = -m^-1 mod 2^64. */
SP_ADX_INLINE void mul4_(uint64_t r[4], const uint64_t a[4], const uint64_t b[4], const uint64_t m[4],
                         const uint64_t *n0)
{
    uint64_t t0, t1, t2, t3, t4, lo, hi, d;
    __asm__ volatile(
        FR_FIRST
        FR_REDUCE(t0, t1, t2, t3, t4)
        FR_MULADD(8, t1, t2, t3, t4, t0)
        FR_REDUCE(t1, t2, t3, t4, t0)
        FR_MULADD(16, t2, t3, t4, t0, t1)
        FR_REDUCE(t2, t3, t4, t0, t1)
        FR_MULADD(24, t3, t4, t0, t1, t2)
        FR_REDUCE(t3, t4, t0, t1, t2)
        FR_FINAL(t4, t0, t1, t2, t3, lo, hi, d)
        FR_OPERANDS);
}

/* ---- add, sub, neg: baseline x86-64 (adc/sbb/cmov), no ADX needed ------- */

#define LD(off, x) "movq " #off "(%[a]), " S(x) "\n\t"
#define ST(off, x) "movq " S(x) ", " #off "(%[r])\n\t"
#define MV(x, y) "movq " S(x) ", " S(y) "\n\t"
#define OP(op, src, x) #op "q " src ", " S(x) "\n\t"
#define CMOVC(x, y) "cmovcq " S(x) ", " S(y) "\n\t"
#define MASK(j, x, mask) "movq " S(j) ", " S(x) "\n\t" "andq " S(mask) ", " S(x) "\n\t"

#if SP_FP_LIMBS == 6
/* Modular add, n = 6: s = a + b (no carry out: m < 2^383), y = s - m,
 * keep s when that borrowed. The pointers a, b double as scratch. */
void sp_fp_add_x86(uint64_t r[6], const uint64_t a[6], const uint64_t b[6])
{
    uint64_t s0, s1, s2, s3, s4, s5, y0, y1, y2, y3;
    __asm__ volatile(
        LD(0, s0) LD(8, s1) LD(16, s2) LD(24, s3) LD(32, s4) LD(40, s5)
        OP(add, "0(%[b])", s0) OP(adc, "8(%[b])", s1) OP(adc, "16(%[b])", s2)
        OP(adc, "24(%[b])", s3) OP(adc, "32(%[b])", s4) OP(adc, "40(%[b])", s5)
        MV(s0, y0) MV(s1, y1) MV(s2, y2) MV(s3, y3) MV(s4, a) MV(s5, b)
        OP(sub, S(m0), y0) OP(sbb, S(m1), y1) OP(sbb, S(m2), y2)
        OP(sbb, S(m3), y3) OP(sbb, S(m4), a) OP(sbb, S(m5), b)
        CMOVC(s0, y0) CMOVC(s1, y1) CMOVC(s2, y2) CMOVC(s3, y3) CMOVC(s4, a) CMOVC(s5, b)
        ST(0, y0) ST(8, y1) ST(16, y2) ST(24, y3) ST(32, a) ST(40, b)
        : [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3), [s4] "=&r"(s4),
          [s5] "=&r"(s5), [y0] "=&r"(y0), [y1] "=&r"(y1), [y2] "=&r"(y2), [y3] "=&r"(y3),
          [a] "+r"(a), [b] "+r"(b)
        : [r] "r"(r), [m0] "m"(fp_m_[0]), [m1] "m"(fp_m_[1]), [m2] "m"(fp_m_[2]),
          [m3] "m"(fp_m_[3]), [m4] "m"(fp_m_[4]), [m5] "m"(fp_m_[5])
        : "cc", "memory");
}

/* Modular subtract, n = 6: s = a - b, then add m masked by the borrow.
 * The mask lives in the last mask register (b) until it masks itself. */
void sp_fp_sub_x86(uint64_t r[6], const uint64_t a[6], const uint64_t b[6])
{
    uint64_t s0, s1, s2, s3, s4, s5, u0, u1, u2, u3;
    __asm__ volatile(
        LD(0, s0) LD(8, s1) LD(16, s2) LD(24, s3) LD(32, s4) LD(40, s5)
        OP(sub, "0(%[b])", s0) OP(sbb, "8(%[b])", s1) OP(sbb, "16(%[b])", s2)
        OP(sbb, "24(%[b])", s3) OP(sbb, "32(%[b])", s4) OP(sbb, "40(%[b])", s5)
        OP(sbb, S(b), b)
        MASK(m0, u0, b) MASK(m1, u1, b) MASK(m2, u2, b) MASK(m3, u3, b) MASK(m4, a, b)
        OP(and, S(m5), b)
        OP(add, S(u0), s0) OP(adc, S(u1), s1) OP(adc, S(u2), s2)
        OP(adc, S(u3), s3) OP(adc, S(a), s4) OP(adc, S(b), s5)
        ST(0, s0) ST(8, s1) ST(16, s2) ST(24, s3) ST(32, s4) ST(40, s5)
        : [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3), [s4] "=&r"(s4),
          [s5] "=&r"(s5), [u0] "=&r"(u0), [u1] "=&r"(u1), [u2] "=&r"(u2), [u3] "=&r"(u3),
          [a] "+r"(a), [b] "+r"(b)
        : [r] "r"(r), [m0] "m"(fp_m_[0]), [m1] "m"(fp_m_[1]), [m2] "m"(fp_m_[2]),
          [m3] "m"(fp_m_[3]), [m4] "m"(fp_m_[4]), [m5] "m"(fp_m_[5])
        : "cc", "memory");
}

/* Modular negate, n = 6: m - a, masked to 0 when a = 0. */
void sp_fp_neg_x86(uint64_t r[6], const uint64_t a[6])
{
    uint64_t s0, s1, s2, s3, s4, s5, z;
    __asm__ volatile(
        "movq %[m0], %[s0]\n\t" "movq %[m1], %[s1]\n\t" "movq %[m2], %[s2]\n\t"
        "movq %[m3], %[s3]\n\t" "movq %[m4], %[s4]\n\t" "movq %[m5], %[s5]\n\t"
        OP(sub, "0(%[a])", s0) OP(sbb, "8(%[a])", s1) OP(sbb, "16(%[a])", s2)
        OP(sbb, "24(%[a])", s3) OP(sbb, "32(%[a])", s4) OP(sbb, "40(%[a])", s5)
        LD(0, z) OP(or, "8(%[a])", z) OP(or, "16(%[a])", z)
        OP(or, "24(%[a])", z) OP(or, "32(%[a])", z) OP(or, "40(%[a])", z)
        "negq %[z]\n\t" OP(sbb, S(z), z) /* z = a != 0 ? ~0 : 0 */
        OP(and, S(z), s0) OP(and, S(z), s1) OP(and, S(z), s2)
        OP(and, S(z), s3) OP(and, S(z), s4) OP(and, S(z), s5)
        ST(0, s0) ST(8, s1) ST(16, s2) ST(24, s3) ST(32, s4) ST(40, s5)
        : [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3), [s4] "=&r"(s4),
          [s5] "=&r"(s5), [z] "=&r"(z)
        : [r] "r"(r), [a] "r"(a), [m0] "m"(fp_m_[0]), [m1] "m"(fp_m_[1]), [m2] "m"(fp_m_[2]),
          [m3] "m"(fp_m_[3]), [m4] "m"(fp_m_[4]), [m5] "m"(fp_m_[5])
        : "cc", "memory");
}

#endif

/* Modular add, n = 4: as for n = 6 (m < 2^255, so no carry out). */
SP_X86_INLINE void add4_(uint64_t r[4], const uint64_t a[4], const uint64_t b[4], const uint64_t m[4])
{
    uint64_t s0, s1, s2, s3, y0, y1;
    __asm__ volatile(
        LD(0, s0) LD(8, s1) LD(16, s2) LD(24, s3)
        OP(add, "0(%[b])", s0) OP(adc, "8(%[b])", s1) OP(adc, "16(%[b])", s2)
        OP(adc, "24(%[b])", s3)
        MV(s0, y0) MV(s1, y1) MV(s2, a) MV(s3, b)
        OP(sub, S(m0), y0) OP(sbb, S(m1), y1) OP(sbb, S(m2), a) OP(sbb, S(m3), b)
        CMOVC(s0, y0) CMOVC(s1, y1) CMOVC(s2, a) CMOVC(s3, b)
        ST(0, y0) ST(8, y1) ST(16, a) ST(24, b)
        : [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3),
          [y0] "=&r"(y0), [y1] "=&r"(y1), [a] "+r"(a), [b] "+r"(b)
        : [r] "r"(r), [m0] "m"(m[0]), [m1] "m"(m[1]), [m2] "m"(m[2]),
          [m3] "m"(m[3])
        : "cc", "memory");
}

SP_X86_INLINE void sub4_(uint64_t r[4], const uint64_t a[4], const uint64_t b[4], const uint64_t m[4])
{
    uint64_t s0, s1, s2, s3, u0, u1;
    __asm__ volatile(
        LD(0, s0) LD(8, s1) LD(16, s2) LD(24, s3)
        OP(sub, "0(%[b])", s0) OP(sbb, "8(%[b])", s1) OP(sbb, "16(%[b])", s2)
        OP(sbb, "24(%[b])", s3)
        OP(sbb, S(b), b)
        MASK(m0, u0, b) MASK(m1, u1, b) MASK(m2, a, b) OP(and, S(m3), b)
        OP(add, S(u0), s0) OP(adc, S(u1), s1) OP(adc, S(a), s2) OP(adc, S(b), s3)
        ST(0, s0) ST(8, s1) ST(16, s2) ST(24, s3)
        : [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3),
          [u0] "=&r"(u0), [u1] "=&r"(u1), [a] "+r"(a), [b] "+r"(b)
        : [r] "r"(r), [m0] "m"(m[0]), [m1] "m"(m[1]), [m2] "m"(m[2]),
          [m3] "m"(m[3])
        : "cc", "memory");
}

SP_X86_INLINE void neg4_(uint64_t r[4], const uint64_t a[4], const uint64_t m[4])
{
    uint64_t s0, s1, s2, s3, z;
    __asm__ volatile(
        "movq %[m0], %[s0]\n\t" "movq %[m1], %[s1]\n\t" "movq %[m2], %[s2]\n\t"
        "movq %[m3], %[s3]\n\t"
        OP(sub, "0(%[a])", s0) OP(sbb, "8(%[a])", s1) OP(sbb, "16(%[a])", s2)
        OP(sbb, "24(%[a])", s3)
        LD(0, z) OP(or, "8(%[a])", z) OP(or, "16(%[a])", z) OP(or, "24(%[a])", z)
        "negq %[z]\n\t" OP(sbb, S(z), z)
        OP(and, S(z), s0) OP(and, S(z), s1) OP(and, S(z), s2) OP(and, S(z), s3)
        ST(0, s0) ST(8, s1) ST(16, s2) ST(24, s3)
        : [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3), [z] "=&r"(z)
        : [r] "r"(r), [a] "r"(a), [m0] "m"(m[0]), [m1] "m"(m[1]), [m2] "m"(m[2]),
          [m3] "m"(m[3])
        : "cc", "memory");
}

/* The 4-limb entry points of one field F with modulus M and n0 N0. */
#define SP_X86_FIELD4(F, M, N0)                                                                      \
    SP_ADX void sp_##F##_mul_adx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])            \
    {                                                                                                \
        mul4_(r, a, b, M, &N0);                                                                      \
    }                                                                                                \
    /* Squaring is the product with itself (see sp_fp_sqr_adx above). */                             \
    SP_ADX void sp_##F##_sqr_adx(uint64_t r[4], const uint64_t a[4]) { mul4_(r, a, a, M, &N0); }    \
    void sp_##F##_add_x86(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) { add4_(r, a, b, M); } \
    void sp_##F##_sub_x86(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) { sub4_(r, a, b, M); } \
    void sp_##F##_neg_x86(uint64_t r[4], const uint64_t a[4]) { neg4_(r, a, M); }

SP_X86_FIELD4(fr, fr_m_, fr_n0_)
#if SP_FP_LIMBS == 4
SP_X86_FIELD4(fp, fp_m_, fp_n0_)
#endif

#endif /* SP_HAVE_FP_ASM */
