/*
 * One batch of affine bucket additions for G1 and G2 on eight lanes of AVX-512 IFMA (field/fpv_ifma.h): the same additions, with the
 * same results limb for limb, as msm_tmpl.h's flush. Lane k takes items k,
 * k + 8, k + 16, ...: each lane keeps its own running product of the x
 * differences, the eight totals are inverted together with one scalar
 * inversion, and the backward pass gives every item its 1/dx. Items past
 * nq in the last group are padded with dx = 1 and not written back. The
 * flush itself is affine_ifma_tmpl.h, once per group; the loads, stores and
 * lane transfers per field are here. Variable time (public data).
 */
#include <string.h>

#include "curve/curve.h"
#include "msm/msm_internal.h"

#if SP_MSM_IFMA
#include "field/fp2.h"
#include "field/fpv_ifma.h"

size_t sp_msm_ifma_scratch_bytes(size_t qcap) { return 2 * ((qcap + 7) / 8) * sizeof(sp_fp2v); }

/* The Fp at byte offset off of each lane's address (lanes outside live:
 * Montgomery's 1 when one, else 0). */
SP_IFMA_INLINE void fp_load(sp_fpv *r, __m512i addr, __mmask8 live, int one, int off)
{
    static const uint64_t mont_one[FPV_NW] = SP_FP_MONT_ONE_INIT;
    __m512i w[FPV_NW];
    SP_FPV_UNROLL
    for (int j = 0; j < FPV_NW; j++)
        w[j] = _mm512_mask_i64gather_epi64(_mm512_set1_epi64(one ? (long long)mont_one[j] : 0), live, addr,
                                           (const void *)(uintptr_t)(off + 8 * j), 1);
    fpv_from_words(r, w);
}

SP_IFMA_INLINE void fp_store(__m512i addr, __mmask8 live, const sp_fpv *a, int off)
{
    sp_fpv t;
    __m512i w[FPV_NW];
    fpv_reduce(&t, a);
    fpv_to_words(w, &t);
    SP_FPV_UNROLL
    for (int j = 0; j < FPV_NW; j++)
        _mm512_mask_i64scatter_epi64((void *)(uintptr_t)(off + 8 * j), live, addr, w[j], 1);
}

SP_IFMA_INLINE void fp_blend(sp_fpv *r, __mmask8 m, const sp_fpv *a, const sp_fpv *b)
{
    SP_FPV_UNROLL
    for (int j = 0; j < FPV_NL; j++)
        r->l[j] = _mm512_mask_blend_epi64(m, a->l[j], b->l[j]);
}

/* Between the lanes and eight sp_fp (fully reduced). */
SP_IFMA_INLINE void fp_to_lanes(sp_fp out[8], const sp_fpv *a)
{
    sp_fpv t;
    __m512i w[FPV_NW];
    uint64_t l[FPV_NW][8];
    fpv_reduce(&t, a);
    fpv_to_words(w, &t);
    for (int j = 0; j < FPV_NW; j++)
        _mm512_storeu_si512(l[j], w[j]);
    for (int k = 0; k < 8; k++)
        for (int j = 0; j < FPV_NW; j++)
            out[k].l[j] = l[j][k];
}

SP_IFMA_INLINE void fp_from_lanes(sp_fpv *r, const sp_fp in[8])
{
    __m512i w[FPV_NW];
    uint64_t l[FPV_NW][8];
    for (int k = 0; k < 8; k++)
        for (int j = 0; j < FPV_NW; j++)
            l[j][k] = in[k].l[j];
    for (int j = 0; j < FPV_NW; j++)
        w[j] = _mm512_loadu_si512(l[j]);
    fpv_from_words(r, w);
}

/* The same for Fp2: c0 at off, c1 after it. */
SP_IFMA_INLINE void fp2_load(sp_fp2v *r, __m512i addr, __mmask8 live, int one, int off)
{
    fp_load(&r->c0, addr, live, one, off);
    fp_load(&r->c1, addr, live, 0, off + (int)sizeof(sp_fp));
}

SP_IFMA_INLINE void fp2_store(__m512i addr, __mmask8 live, const sp_fp2v *a, int off)
{
    fp_store(addr, live, &a->c0, off);
    fp_store(addr, live, &a->c1, off + (int)sizeof(sp_fp));
}

SP_IFMA_INLINE void fp2_blend(sp_fp2v *r, __mmask8 m, const sp_fp2v *a, const sp_fp2v *b)
{
    fp_blend(&r->c0, m, &a->c0, &b->c0);
    fp_blend(&r->c1, m, &a->c1, &b->c1);
}

SP_IFMA_INLINE void fp2_to_lanes(sp_fp2 out[8], const sp_fp2v *a)
{
    sp_fp c0[8], c1[8];
    fp_to_lanes(c0, &a->c0);
    fp_to_lanes(c1, &a->c1);
    for (int k = 0; k < 8; k++)
        out[k].c0 = c0[k], out[k].c1 = c1[k];
}

SP_IFMA_INLINE void fp2_from_lanes(sp_fp2v *r, const sp_fp2 in[8])
{
    sp_fp c0[8], c1[8];
    for (int k = 0; k < 8; k++)
        c0[k] = in[k].c0, c1[k] = in[k].c1;
    fp_from_lanes(&r->c0, c0);
    fp_from_lanes(&r->c1, c1);
}

/* Addresses of group g's buckets (base + index * size) and points, and
 * which lanes hold items. */
SP_IFMA_INLINE void group_addr(__m512i *ba, __m512i *pa, __mmask8 *live, const char *base, size_t size,
                               const uint32_t *qb, const void *const *qp, size_t nq, size_t g)
{
    size_t i = 8 * g, k = nq - i < 8 ? nq - i : 8;
    uint64_t b[8] = {0};
    for (size_t j = 0; j < k; j++)
        b[j] = (uint64_t)(uintptr_t)(base + qb[i + j] * size);
    *live = (__mmask8)((1u << k) - 1);
    *ba = _mm512_loadu_si512(b);
    *pa = _mm512_maskz_loadu_epi64(*live, qp + i);
}

/* The negation flags of group g as a lane mask. */
SP_IFMA_INLINE __mmask8 group_neg(const uint8_t *qn, size_t nq, size_t g)
{
    uint64_t nb = 0;
    memcpy(&nb, qn + 8 * g, nq - 8 * g < 8 ? nq - 8 * g : 8);
    return _mm512_test_epi64_mask(_mm512_cvtepu8_epi64(_mm_cvtsi64_si128((long long)nb)), _mm512_set1_epi64(0xff));
}

#define AI_FN sp_msm_g1_flush_ifma
#define AI_AFF sp_g1_affine
#define VT sp_fpv
#define ST sp_fp
#define V_(op) fpv_##op
#define L_(op) fp_##op
#define S_(op) sp_fp_##op
#include "msm/affine_ifma_tmpl.h"

#define AI_FN sp_msm_g2_flush_ifma
#define AI_AFF sp_g2_affine
#define VT sp_fp2v
#define ST sp_fp2
#define V_(op) fp2v_##op
#define L_(op) fp2_##op
#define S_(op) sp_fp2_##op
#include "msm/affine_ifma_tmpl.h"
#endif
