/*
 * x86-64 Montgomery multiplication and squaring for Fp (6 limbs) and Fr
 * (4 limbs) with mulx/adcx/adox (BMI2 + ADX). Contracts in fp_asm.h.
 *
 * Method: CIOS, fully unrolled. Round i adds a*b[i] into the accumulator
 * t with two independent carry chains (adcx collects the low halves, adox
 * the high halves), then adds q*m with q = t[0]*n0 so the low limb
 * vanishes, and drops it. The register names rotate instead of moving
 * data. Both moduli have their top bit clear, so t < 2m < 2^(64n) between
 * rounds and t + a*b[i] + q*m < 2^(64(n+1)): n+1 registers hold it and
 * neither carry chain can run off the top. One conditional subtraction of
 * m at the end gives a reduced result.
 *
 * Only text handed to the assembler uses ADX/BMI2, so this file builds
 * without -madx; the callers check the CPU first (cpu.c).
 */
#include "field/fp_asm.h"

#if SP_HAVE_FP_ASM

#define SP_ADX __attribute__((target("adx,bmi2")))

static const uint64_t fp_m_[6] = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL,
                                  0x64774b84f38512bfULL, 0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};
static const uint64_t fp_n0_ = 0x89f3fffcfffcfffdULL;
static const uint64_t fr_m_[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL,
                                  0x73eda753299d7d48ULL};
static const uint64_t fr_n0_ = 0xfffffffeffffffffULL;

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

/* ---- Fp, 6 limbs ---------------------------------------------------------- */

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

SP_ADX void sp_fp_sqr_adx(uint64_t r[6], const uint64_t a[6])
{
    sp_fp_mul_adx(r, a, a);
}

/* ---- Fr, 4 limbs ---------------------------------------------------------- */

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
    : [r] "r"(r), [n0] "m"(fr_n0_), [m0] "m"(fr_m_[0]), [m1] "m"(fr_m_[1]),        \
      [m2] "m"(fr_m_[2]), [m3] "m"(fr_m_[3])                                       \
    : "cc", "memory"

SP_ADX void sp_fr_mul_adx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
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

SP_ADX void sp_fr_sqr_adx(uint64_t r[4], const uint64_t a[4])
{
    sp_fr_mul_adx(r, a, a);
}

#endif /* SP_HAVE_FP_ASM */
