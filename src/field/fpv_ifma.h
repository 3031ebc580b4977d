/*
 * Eight Fp elements at once with AVX-512 IFMA (vpmadd52luq/vpmadd52huq),
 * for a 4-limb Fp (BN254) whose modulus p is below 2^254: the batched
 * additions of the MSM do six independent products per point, which eight
 * lanes of 52-bit multiply-adds run about three times as fast as mulx.
 *
 * An sp_fpv holds lane k's element in l[0..4][k], radix 2^52: every limb
 * below 2^52, the value below 2p ("lazily reduced"). Elements are in the
 * same Montgomery form as sp_fp (R = 2^256): fpv_mul returns a b / 2^256
 * mod p, so values move between the two representations by regrouping
 * bits only (fpv_from_words, fpv_to_words). Every function here needs a
 * CPU with AVX-512F and IFMA (sp_field_ifma_active()); callers compile
 * with SP_IFMA on the calling function so that these inline. Constant
 * time (no branch or memory access depends on the values).
 */
#ifndef SP_FIELD_FPV_IFMA_H
#define SP_FIELD_FPV_IFMA_H

#include "field/field.h"
#include "field/fp_asm.h"

#if SP_HAVE_FP_ASM && SP_FP_LIMBS == 4
#define SP_HAVE_FPV_IFMA 1
#include <immintrin.h>

#define SP_IFMA __attribute__((target("avx512f,avx512ifma")))
#define SP_IFMA_INLINE static inline __attribute__((always_inline, target("avx512f,avx512ifma")))

typedef struct {
    __m512i l[5];
} sp_fpv;

#define SP_FPV_MASK52 ((1ULL << 52) - 1)
/* Every loop here runs a fixed few times over limbs: unrolled, the limbs
 * stay in registers instead of an array on the stack. */
#define SP_FPV_UNROLL _Pragma("GCC unroll 16")

/* p (k = 0) or 2p (k = 1) as radix-2^52 limbs; R mod p (k = 2). */
SP_IFMA_INLINE __m512i fpv_const_limb_(int k, int i)
{
    static const uint64_t m[4] = SP_FP_MODULUS_INIT, one[4] = SP_FP_MONT_ONE_INIT;
    uint64_t w[5];
    const uint64_t *s = k == 2 ? one : m;
    unsigned sh = k == 1; /* 2p < 2^255: the doubling stays in 4 words */
    uint64_t x0 = s[0] << sh, x1 = s[1] << sh | (sh ? s[0] >> 63 : 0), x2 = s[2] << sh | (sh ? s[1] >> 63 : 0),
             x3 = s[3] << sh | (sh ? s[2] >> 63 : 0);
    w[0] = x0 & SP_FPV_MASK52;
    w[1] = (x0 >> 52 | x1 << 12) & SP_FPV_MASK52;
    w[2] = (x1 >> 40 | x2 << 24) & SP_FPV_MASK52;
    w[3] = (x2 >> 28 | x3 << 36) & SP_FPV_MASK52;
    w[4] = x3 >> 16;
    return _mm512_set1_epi64((long long)w[i]);
}

/* From four 64-bit words per lane (w[j] lane k = word j of element k, the
 * sp_fp limbs, a reduced value) to radix 2^52. */
SP_IFMA_INLINE void fpv_from_words(sp_fpv *r, const __m512i w[4])
{
    const __m512i m = _mm512_set1_epi64((long long)SP_FPV_MASK52);
    r->l[0] = _mm512_and_si512(w[0], m);
    r->l[1] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w[0], 52), _mm512_slli_epi64(w[1], 12)), m);
    r->l[2] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w[1], 40), _mm512_slli_epi64(w[2], 24)), m);
    r->l[3] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w[2], 28), _mm512_slli_epi64(w[3], 36)), m);
    r->l[4] = _mm512_srli_epi64(w[3], 16);
}

/* The inverse of fpv_from_words; a must be fully reduced (fpv_reduce). */
SP_IFMA_INLINE void fpv_to_words(__m512i w[4], const sp_fpv *a)
{
    w[0] = _mm512_or_si512(a->l[0], _mm512_slli_epi64(a->l[1], 52));
    w[1] = _mm512_or_si512(_mm512_srli_epi64(a->l[1], 12), _mm512_slli_epi64(a->l[2], 40));
    w[2] = _mm512_or_si512(_mm512_srli_epi64(a->l[2], 24), _mm512_slli_epi64(a->l[3], 28));
    w[3] = _mm512_or_si512(_mm512_srli_epi64(a->l[3], 36), _mm512_slli_epi64(a->l[4], 16));
}

/* r = s - k (k = p or 2p, limbs from fpv_const_limb_) when that is not
 * negative, else s; s given as limbs below 2^53 with a value below 2k. */
SP_IFMA_INLINE void fpv_csub_(sp_fpv *r, const __m512i s[5], int k)
{
    const __m512i m = _mm512_set1_epi64((long long)SP_FPV_MASK52);
    __m512i d[5], c = _mm512_setzero_si512();
    SP_FPV_UNROLL
    for (int i = 0; i < 5; i++) {
        d[i] = _mm512_add_epi64(_mm512_sub_epi64(s[i], fpv_const_limb_(k, i)), c);
        c = _mm512_srai_epi64(d[i], 52);
        if (i < 4)
            d[i] = _mm512_and_si512(d[i], m);
    }
    __mmask8 neg = _mm512_cmplt_epi64_mask(d[4], _mm512_setzero_si512());
    SP_FPV_UNROLL
    for (int i = 0; i < 5; i++)
        r->l[i] = _mm512_mask_blend_epi64(neg, d[i], s[i]);
}

/* Limbs below 2^64 with carries pending, value below 2^260: every limb
 * below 2^52 afterwards (the top one takes what is left). */
SP_IFMA_INLINE void fpv_carry_(__m512i s[5])
{
    const __m512i m = _mm512_set1_epi64((long long)SP_FPV_MASK52);
    SP_FPV_UNROLL
    for (int i = 0; i < 4; i++) {
        s[i + 1] = _mm512_add_epi64(s[i + 1], _mm512_srli_epi64(s[i], 52));
        s[i] = _mm512_and_si512(s[i], m);
    }
}

/* r = a + b mod p, below 2p. */
SP_IFMA_INLINE void fpv_add(sp_fpv *r, const sp_fpv *a, const sp_fpv *b)
{
    __m512i s[5];
    SP_FPV_UNROLL
    for (int i = 0; i < 5; i++)
        s[i] = _mm512_add_epi64(a->l[i], b->l[i]);
    fpv_carry_(s);
    fpv_csub_(r, s, 1);
}

/* r = a - b mod p, below 2p: a + 2p - b is below 4p, then less 2p if it can. */
SP_IFMA_INLINE void fpv_sub(sp_fpv *r, const sp_fpv *a, const sp_fpv *b)
{
    const __m512i m = _mm512_set1_epi64((long long)SP_FPV_MASK52);
    __m512i s[5], c = _mm512_setzero_si512();
    SP_FPV_UNROLL
    for (int i = 0; i < 5; i++) {
        s[i] = _mm512_add_epi64(_mm512_sub_epi64(_mm512_add_epi64(a->l[i], fpv_const_limb_(1, i)), b->l[i]), c);
        c = _mm512_srai_epi64(s[i], 52);
        if (i < 4)
            s[i] = _mm512_and_si512(s[i], m);
    }
    fpv_csub_(r, s, 1);
}

/* r = a fully reduced (below p), as sp_fp keeps it. */
SP_IFMA_INLINE void fpv_reduce(sp_fpv *r, const sp_fpv *a)
{
    fpv_csub_(r, a->l, 0);
}

/*
 * r = a b / 2^256 mod p, below 2p, for a, b below 2p. The product's ten
 * columns, then Montgomery reduction one 52-bit column at a time, the
 * fifth by 48 bits only (4 * 52 + 48 = 256, sp_fp's R). The result is
 * below a b / 2^256 + p < 4p^2 / 2^256 + p < 2p since p < 2^254.
 */
SP_IFMA_INLINE void fpv_mul(sp_fpv *r, const sp_fpv *a, const sp_fpv *b)
{
    const __m512i m52 = _mm512_set1_epi64((long long)SP_FPV_MASK52);
    const __m512i n0 = _mm512_set1_epi64((long long)(SP_FP_N0 & SP_FPV_MASK52));
    const __m512i z = _mm512_setzero_si512();
    __m512i t[11];
    SP_FPV_UNROLL
    for (int i = 0; i < 11; i++)
        t[i] = z;
    SP_FPV_UNROLL
    for (int i = 0; i < 5; i++)
        SP_FPV_UNROLL
        for (int j = 0; j < 5; j++) {
            t[i + j] = _mm512_madd52lo_epu64(t[i + j], a->l[i], b->l[j]);
            t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], a->l[i], b->l[j]);
        }
    SP_FPV_UNROLL
    for (int k = 0; k < 5; k++) {
        t[k + 1] = _mm512_add_epi64(t[k + 1], _mm512_srli_epi64(t[k], 52));
        t[k] = _mm512_and_si512(t[k], m52);
        __m512i q = _mm512_madd52lo_epu64(z, t[k], n0);
        if (k == 4)
            q = _mm512_and_si512(q, _mm512_set1_epi64((long long)((1ULL << 48) - 1)));
        SP_FPV_UNROLL
        for (int j = 0; j < 5; j++) {
            t[k + j] = _mm512_madd52lo_epu64(t[k + j], q, fpv_const_limb_(0, j));
            t[k + j + 1] = _mm512_madd52hi_epu64(t[k + j + 1], q, fpv_const_limb_(0, j));
        }
        if (k < 4)
            t[k + 1] = _mm512_add_epi64(t[k + 1], _mm512_srli_epi64(t[k], 52));
    }
    /* t[4]'s low 48 bits are 0 now; carry t[4..9] to 52-bit limbs and
     * shift the whole right by 48 bits within them. */
    SP_FPV_UNROLL
    for (int k = 4; k < 9; k++) {
        t[k + 1] = _mm512_add_epi64(t[k + 1], _mm512_srli_epi64(t[k], 52));
        t[k] = _mm512_and_si512(t[k], m52);
    }
    SP_FPV_UNROLL
    for (int j = 0; j < 5; j++)
        r->l[j] = _mm512_or_si512(_mm512_srli_epi64(t[4 + j], 48),
                                  _mm512_and_si512(_mm512_slli_epi64(t[5 + j], 4), m52));
}

/* Eight Fp2 = Fp[u]/(u^2 + 1) elements (both curves' G2 field), each
 * coefficient as in sp_fpv. */
typedef struct {
    sp_fpv c0, c1;
} sp_fp2v;

SP_IFMA_INLINE void fp2v_add(sp_fp2v *r, const sp_fp2v *a, const sp_fp2v *b)
{
    fpv_add(&r->c0, &a->c0, &b->c0);
    fpv_add(&r->c1, &a->c1, &b->c1);
}

SP_IFMA_INLINE void fp2v_sub(sp_fp2v *r, const sp_fp2v *a, const sp_fp2v *b)
{
    fpv_sub(&r->c0, &a->c0, &b->c0);
    fpv_sub(&r->c1, &a->c1, &b->c1);
}

SP_IFMA_INLINE void fp2v_reduce(sp_fp2v *r, const sp_fp2v *a)
{
    fpv_reduce(&r->c0, &a->c0);
    fpv_reduce(&r->c1, &a->c1);
}

/* (a0 + a1 u)(b0 + b1 u) = a0 b0 - a1 b1 + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) u */
SP_IFMA_INLINE void fp2v_mul(sp_fp2v *r, const sp_fp2v *a, const sp_fp2v *b)
{
    sp_fpv t0, t1, sa, sb;
    fpv_mul(&t0, &a->c0, &b->c0);
    fpv_mul(&t1, &a->c1, &b->c1);
    fpv_add(&sa, &a->c0, &a->c1);
    fpv_add(&sb, &b->c0, &b->c1);
    fpv_mul(&sa, &sa, &sb);
    fpv_sub(&sa, &sa, &t0);
    fpv_sub(&r->c1, &sa, &t1);
    fpv_sub(&r->c0, &t0, &t1);
}

#else
#define SP_HAVE_FPV_IFMA 0
#endif

#endif
