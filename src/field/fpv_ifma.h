/*
 * Eight Fp elements at once with AVX-512 IFMA (vpmadd52luq/vpmadd52huq):
 * the batched additions of the MSM do six independent products per point,
 * which eight lanes of 52-bit multiply-adds run two to three times as fast
 * as mulx does one by one. Both curves: Fp of SP_FP_LIMBS = 4 (BN254) or 6
 * (BLS12-381) 64-bit words, as FPV_NL = 5 or 8 limbs of 52 bits.
 *
 * An sp_fpv holds lane k's element in l[0..FPV_NL)[k], radix 2^52: every
 * limb below 2^52, the value below 2p ("lazily reduced"). Elements are in
 * the same Montgomery form as sp_fp (R = 2^(64 SP_FP_LIMBS)): fpv_mul
 * returns a b / R mod p, so values move between the two representations by
 * regrouping bits only (fpv_from_words, fpv_to_words). This needs
 * p < R / 4 (both curves: a product of two values below 2p is then below
 * 2p again). Every function here needs a CPU with AVX-512F and IFMA
 * (sp_field_ifma_active()); callers compile with SP_IFMA on the calling
 * function so that these inline. Constant time (no branch or memory
 * access depends on the values).
 */
#ifndef SP_FIELD_FPV_IFMA_H
#define SP_FIELD_FPV_IFMA_H

#include "field/field.h"
#include "field/fp_asm.h"

#if SP_HAVE_FP_ASM
#define SP_HAVE_FPV_IFMA 1
#include <immintrin.h>

#define SP_IFMA __attribute__((target("avx512f,avx512ifma")))
#define SP_IFMA_INLINE static inline __attribute__((always_inline, target("avx512f,avx512ifma")))

#define FPV_NW SP_FP_LIMBS                  /* 64-bit words of an sp_fp */
#define FPV_NL ((64 * FPV_NW + 51) / 52) /* 52-bit limbs (4p < R fits) */
/* Montgomery's reduction takes 52 bits per limb and, in the last of the
 * FPV_NL steps, what is left of R's 64 FPV_NW bits. */
#define FPV_LAST (64 * FPV_NW - 52 * (FPV_NL - 1))

typedef struct {
    __m512i l[FPV_NL];
} sp_fpv;

#define SP_FPV_MASK52 ((1ULL << 52) - 1)
/* Every loop here runs a fixed few times over limbs: unrolled, the limbs
 * stay in registers instead of an array on the stack. */
#define SP_FPV_UNROLL _Pragma("GCC unroll 20")

/* Limb i (bits 52 i .. 52 i + 51) of the FPV_NW-word number w. */
SP_IFMA_INLINE uint64_t fpv_word_limb_(const uint64_t *w, int i)
{
    int q = 52 * i / 64, off = 52 * i % 64;
    uint64_t v = q < FPV_NW ? w[q] >> off : 0;
    if (off > 12 && q + 1 < FPV_NW)
        v |= w[q + 1] << (64 - off);
    return v & SP_FPV_MASK52;
}

/* p (k = 0) or 2p (k = 1) as radix-2^52 limbs, broadcast. */
SP_IFMA_INLINE __m512i fpv_const_limb_(int k, int i)
{
    static const uint64_t m[FPV_NW] = SP_FP_MODULUS_INIT;
    uint64_t w[FPV_NW];
    SP_FPV_UNROLL
    for (int j = 0; j < FPV_NW; j++) /* 2p < 2^(64 FPV_NW): no word is lost */
        w[j] = k ? m[j] << 1 | (j ? m[j - 1] >> 63 : 0) : m[j];
    return _mm512_set1_epi64((long long)fpv_word_limb_(w, i));
}

/* From FPV_NW 64-bit words per lane (w[j] lane k = word j of element k,
 * the sp_fp limbs, a value below 2^(64 FPV_NW)) to radix 2^52. */
SP_IFMA_INLINE void fpv_from_words(sp_fpv *r, const __m512i w[FPV_NW])
{
    const __m512i m = _mm512_set1_epi64((long long)SP_FPV_MASK52);
    SP_FPV_UNROLL
    for (int i = 0; i < FPV_NL; i++) {
        int q = 52 * i / 64, off = 52 * i % 64;
        __m512i v = q < FPV_NW ? _mm512_srli_epi64(w[q], (unsigned)off) : _mm512_setzero_si512();
        if (off > 12 && q + 1 < FPV_NW)
            v = _mm512_or_si512(v, _mm512_slli_epi64(w[q + 1], (unsigned)(64 - off)));
        r->l[i] = _mm512_and_si512(v, m);
    }
}

/* The inverse of fpv_from_words, for a value below 2^(64 FPV_NW) (fully
 * reduced, fpv_reduce, to match sp_fp). */
SP_IFMA_INLINE void fpv_to_words(__m512i w[FPV_NW], const sp_fpv *a)
{
    SP_FPV_UNROLL
    for (int q = 0; q < FPV_NW; q++) {
        __m512i v = _mm512_setzero_si512();
        SP_FPV_UNROLL
        for (int i = 0; i < FPV_NL; i++) {
            int lo = 52 * i - 64 * q; /* limb i's first bit, relative to word q */
            if (lo <= -52 || lo >= 64)
                continue;
            v = _mm512_or_si512(v, lo < 0 ? _mm512_srli_epi64(a->l[i], (unsigned)-lo)
                                          : _mm512_slli_epi64(a->l[i], (unsigned)lo));
        }
        w[q] = v;
    }
}

/* Limbs with carries pending (each a signed 64-bit value, the whole of
 * magnitude below 2^(52 FPV_NL)): every limb but the top one in [0, 2^52)
 * afterwards, the top one carrying the whole's sign. */
SP_IFMA_INLINE void fpv_carry_(__m512i s[FPV_NL])
{
    const __m512i m = _mm512_set1_epi64((long long)SP_FPV_MASK52);
    SP_FPV_UNROLL
    for (int i = 0; i < FPV_NL - 1; i++) {
        s[i + 1] = _mm512_add_epi64(s[i + 1], _mm512_srai_epi64(s[i], 52));
        s[i] = _mm512_and_si512(s[i], m);
    }
}

/* r = s - k (k = p or 2p, limbs from fpv_const_limb_) when that is not
 * negative, else s; s given as limbs below 2^52 but the top one, with a
 * value below 2k. */
SP_IFMA_INLINE void fpv_csub_(sp_fpv *r, const __m512i s[FPV_NL], int k)
{
    __m512i d[FPV_NL];
    SP_FPV_UNROLL
    for (int i = 0; i < FPV_NL; i++)
        d[i] = _mm512_sub_epi64(s[i], fpv_const_limb_(k, i));
    fpv_carry_(d);
    __mmask8 neg = _mm512_cmplt_epi64_mask(d[FPV_NL - 1], _mm512_setzero_si512());
    SP_FPV_UNROLL
    for (int i = 0; i < FPV_NL; i++)
        r->l[i] = _mm512_mask_blend_epi64(neg, d[i], s[i]);
}

/* r = a + b mod p, below 2p. */
SP_IFMA_INLINE void fpv_add(sp_fpv *r, const sp_fpv *a, const sp_fpv *b)
{
    __m512i s[FPV_NL];
    SP_FPV_UNROLL
    for (int i = 0; i < FPV_NL; i++)
        s[i] = _mm512_add_epi64(a->l[i], b->l[i]);
    fpv_carry_(s);
    fpv_csub_(r, s, 1);
}

/* r = a - b mod p, below 2p: a + 2p - b is below 4p, then less 2p if it can. */
SP_IFMA_INLINE void fpv_sub(sp_fpv *r, const sp_fpv *a, const sp_fpv *b)
{
    __m512i s[FPV_NL];
    SP_FPV_UNROLL
    for (int i = 0; i < FPV_NL; i++)
        s[i] = _mm512_sub_epi64(_mm512_add_epi64(a->l[i], fpv_const_limb_(1, i)), b->l[i]);
    fpv_carry_(s);
    fpv_csub_(r, s, 1);
}

/* r = a fully reduced (below p), as sp_fp keeps it. */
SP_IFMA_INLINE void fpv_reduce(sp_fpv *r, const sp_fpv *a)
{
    fpv_csub_(r, a->l, 0);
}

/*
 * r = a b / R mod p, below 2p, for a, b below 2p. The product's columns,
 * then Montgomery reduction one 52-bit column at a time, the last by
 * FPV_LAST bits only (52 (FPV_NL - 1) + FPV_LAST = log2 R, sp_fp's R).
 * The result is below a b / R + p < 4p^2 / R + p < 2p since p < R / 4.
 */
SP_IFMA_INLINE void fpv_mul(sp_fpv *r, const sp_fpv *a, const sp_fpv *b)
{
    const __m512i m52 = _mm512_set1_epi64((long long)SP_FPV_MASK52);
    const __m512i n0 = _mm512_set1_epi64((long long)(SP_FP_N0 & SP_FPV_MASK52));
    const __m512i z = _mm512_setzero_si512();
    __m512i t[2 * FPV_NL + 1];
    SP_FPV_UNROLL
    for (int i = 0; i < 2 * FPV_NL + 1; i++)
        t[i] = z;
    SP_FPV_UNROLL
    for (int i = 0; i < FPV_NL; i++) {
        SP_FPV_UNROLL
        for (int j = 0; j < FPV_NL; j++) {
            t[i + j] = _mm512_madd52lo_epu64(t[i + j], a->l[i], b->l[j]);
            t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], a->l[i], b->l[j]);
        }
    }
    SP_FPV_UNROLL
    for (int k = 0; k < FPV_NL; k++) {
        t[k + 1] = _mm512_add_epi64(t[k + 1], _mm512_srli_epi64(t[k], 52));
        t[k] = _mm512_and_si512(t[k], m52);
        __m512i q = _mm512_madd52lo_epu64(z, t[k], n0);
        if (k == FPV_NL - 1)
            q = _mm512_and_si512(q, _mm512_set1_epi64((long long)((1ULL << FPV_LAST) - 1)));
        SP_FPV_UNROLL
        for (int j = 0; j < FPV_NL; j++) {
            t[k + j] = _mm512_madd52lo_epu64(t[k + j], q, fpv_const_limb_(0, j));
            t[k + j + 1] = _mm512_madd52hi_epu64(t[k + j + 1], q, fpv_const_limb_(0, j));
        }
        if (k < FPV_NL - 1)
            t[k + 1] = _mm512_add_epi64(t[k + 1], _mm512_srli_epi64(t[k], 52));
    }
    /* t[FPV_NL - 1]'s low FPV_LAST bits are 0 now: carry the upper columns
     * to 52-bit limbs and shift the whole right by FPV_LAST bits. */
    SP_FPV_UNROLL
    for (int k = FPV_NL - 1; k < 2 * FPV_NL - 1; k++) {
        t[k + 1] = _mm512_add_epi64(t[k + 1], _mm512_srli_epi64(t[k], 52));
        t[k] = _mm512_and_si512(t[k], m52);
    }
    SP_FPV_UNROLL
    for (int j = 0; j < FPV_NL; j++)
        r->l[j] = _mm512_or_si512(_mm512_srli_epi64(t[FPV_NL - 1 + j], FPV_LAST),
                                  _mm512_and_si512(_mm512_slli_epi64(t[FPV_NL + j], 52 - FPV_LAST), m52));
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
