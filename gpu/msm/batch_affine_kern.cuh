/*
 * The round kernels of the batch-affine accumulation (batch_affine.cuh,
 * which includes this file alone; batch_affine.cu documents the rounds): the elements
 * and pairs of a round, b2_dens (the denominators and their products), the
 * sums (b2_apply), and their launch shapes.
 */
#ifndef SP_GPU_MSM_B2_KERN_CUH
#define SP_GPU_MSM_B2_KERN_CUH

#include "affine_sum.cuh"

namespace SP_CURVE_NS {

#define B2_THREADS 256 /* threads per block of the round kernels */
/* ba_top's block: as many threads as keep the inversion out of local
 * memory (ptxas -v: 1024 threads leave 64 registers, and G1 spills) */
template <class F> struct b2_top_threads { enum { N = 512 }; };
template <int M> struct b2_top_threads<fp2_tm<M> > { enum { N = 256 }; };
/* Blocks per SM for b2_apply: G1 at 2 (128 registers; unbounded it takes
 * 130 and gets 1 block), G2 at 1 (it needs 255). b2_dens waits on memory,
 * but at 4 blocks (64 registers) it spills: G1 at 2, G2 at 1 (at 2 it
 * spills too). */
template <class F> struct b2_apply_blocks { enum { N = 2 }; };
template <int M> struct b2_apply_blocks<fp2_tm<M> > { enum { N = 1 }; };
template <class F> struct b2_dens_blocks { enum { N = 2 }; };
template <int M> struct b2_dens_blocks<fp2_tm<M> > { enum { N = 1 }; };
/* Items per thread at most (S): more items a thread, fewer block products
 * for ba_top's threads to multiply in series. The scratch is sized for
 * B2_ITEMS_SIZED items a thread (more threads than the rounds run). */
#define B2_MAX_ITEMS 128
#define B2_ITEMS_SIZED 32

typedef fp_tm<SP_MUL_EO> b2_fp;
/* G2's rounds multiply in Fp2 by two sums of products with one reduction
 * each (field.cuh, SP_MUL_EO_SUM); its bucket reduction by Karatsuba (the
 * XYZZ reduction kernels, at 255 registers with stack frames, run slower
 * with the sums). */
typedef fp2_tm<SP_MUL_EO> b2_fp2;
typedef fp2_tm<SP_MUL_EO_SUM> b2_fp2s;
template <class F> struct b2_reduce_field { typedef F type; };
template <> struct b2_reduce_field<b2_fp2s> { typedef b2_fp2 type; };

/* ---- what the batch inverts ---- */

/* G2's batch inversion runs over the denominators' norms,
 * N(den) = den0^2 + den1^2 in Fp, with 1/den = conj(den) / N(den). N(den)
 * is 0 only for den = 0 (-1 is not a square mod p: p = 3 mod 4 for both
 * curves). The running products, the block scans and the round's one
 * inversion are then Fp's, 1 product where an Fp2 one is 3, and an
 * addition costs 12 Fp products in the sums instead of 14. D, the field
 * the batch inverts: F in G1, the half of an Fp2 in G2 (b2_half). */
template <class F> struct b2_half { typedef F type; };
template <int M> struct b2_half<fp2_tm<M> > { typedef fp_tm<M> type; };

/* n = what the batch inverts for den: den itself, or its norm. */
template <class F> static __device__ __forceinline__ void b2_norm(F &n, const F &den) { n = den; }
template <int M>
static __device__ __forceinline__ void b2_norm(fp_tm<M> &n, const fp2_tm<M> &den)
{
    mont_mul_eo_sum<fp_desc>(n.w, den.c0.w, den.c0.w, den.c1.w, den.c1.w);
}

/* id = 1/den from idn = 1/n (b2_norm's n of den): idn, or conj(den) idn. */
template <class F>
static __device__ __forceinline__ void b2_unnorm(F &id, const F &den, const F &idn)
{
    (void)den;
    id = idn;
}
template <int M>
static __device__ __forceinline__ void b2_unnorm(fp2_tm<M> &id, const fp2_tm<M> &den,
                                                 const fp_tm<M> &idn)
{
    f_mul(id.c0, den.c0, idn);
    f_mul(id.c1, den.c1, idn);
    f_neg(id.c1, id.c1);
}

/* n for den from its slot (pn: b2_dens's product before it, then with the
 * norms the norm, which b2_dens made): den itself without them. */
template <class F>
static __device__ __forceinline__ void b2_slot_norm(F &n, const F *pn, const F &den)
{
    (void)pn;
    n = den;
}
template <int M>
static __device__ __forceinline__ void b2_slot_norm(fp_tm<M> &n, const fp_tm<M> *pn,
                                                    const fp2_tm<M> &den)
{
    (void)den;
    n = pn[1];
}

/* ---- elements and pairs ---- */

/* A round's input: element e is point e of pts, or in round 0 (pts NULL)
 * record e of the group: base vals[e] & 0x7fffffff, negated when bit 31. */
template <class F> struct b2_src {
    const affine_t<F> *pts;
    const affine_t<F> *bases;
    const uint32_t *vals;
};

/* Element e's point and sign, with round 0's record v = vals[e] already
 * read (unused when pts is set). */
template <class F>
static __device__ __forceinline__ const affine_t<F> *b2_addr_v(const b2_src<F> &s, uint32_t e,
                                                               uint32_t v, uint32_t *neg)
{
    if (s.pts) {
        *neg = 0;
        return s.pts + e;
    }
    *neg = v >> 31;
    return s.bases + (v & 0x7fffffffu);
}

template <class F>
static __device__ __forceinline__ const affine_t<F> *b2_addr(const b2_src<F> &s, uint32_t e,
                                                             uint32_t *neg)
{
    return b2_addr_v(s, e, s.pts ? 0u : s.vals[e], neg);
}

template <class F>
static __device__ __forceinline__ void b2_load(affine_t<F> &p, const affine_t<F> *a, uint32_t neg)
{
    p = *a;
    if (neg && !aff_is_inf(p))
        f_neg(p.y, p.y);
}

/* Item classes (the slot header's second word): affine_sum.cuh's BA_ classes
 * of a pair, B2_SINGLE (an odd last element, copied), B2_ADDX (an
 * addition that the x coordinates decided: both non-zero, so neither
 * point is infinity, and different, so den = x1 - x0). */
enum { B2_SINGLE = BA_ADD + 1, B2_ADDX };

/* The class and denominator of the pair (e0, e0 + 1) from the whole points
 * (ba_classify), out of line: their registers stay out of b2_dens. */
template <class F>
static __device__ __noinline__ int b2_den_whole(b2_src<F> s, uint32_t e0, F &den)
{
    uint32_t n0, n1;
    const affine_t<F> *a0 = b2_addr(s, e0, &n0), *a1 = b2_addr(s, e0 + 1, &n1);
    affine_t<F> p, q;
    F num;
    b2_load(p, a0, n0);
    b2_load(q, a1, n1);
    return ba_classify(p, q, num, den);
}

/* The class and denominator of the pair (e0, e0 + 1) whose x coordinates
 * are x0, x1: B2_ADDX when they decide it (the common case), else
 * b2_den_whole's. */
template <class F>
static __device__ __forceinline__ int b2_den(const b2_src<F> &s, uint32_t e0, const F &x0,
                                             const F &x1, F &den)
{
    if (!f_is_zero(x0) && !f_is_zero(x1)) {
        f_sub(den, x1, x0);
        if (!f_is_zero(den))
            return B2_ADDX;
    }
    return b2_den_whole(s, e0, den);
}

/* The 16-byte header after the first coordinate of an output slot. */
template <class F>
static __device__ __forceinline__ uint4 *b2_hdr(affine_t<F> *slot)
{
    return (uint4 *)((char *)slot + sizeof(F));
}

/* ---- the round kernels ---- */

/* The lists of a round: bucket b holds elements beg[b] .. beg[b] + len[b]
 * - 1; its items (and next list) start at nbeg[b]; item i belongs to
 * bucket ibkt[i]. A kernel takes the items [i0, end) (a chain's share of
 * the round); its thread t the items i0 + t + k T, k < S. */
struct b2_lists {
    const uint32_t *len, *beg, *nbeg, *ibkt;
    size_t i0, end;
    unsigned S;
};

/* Item i's pair: its first element e0, and whether it has a second. */
static __device__ __forceinline__ bool b2_item(const b2_lists &L, size_t i, uint32_t *e0)
{
    const uint32_t b = L.ibkt[i], j = (uint32_t)i - L.nbeg[b];
    *e0 = L.beg[b] + 2 * j;
    return 2 * j + 1 < L.len[b];
}

/* The x coordinates of elements e0 and e0 + 1 (a sign changes y only). */
template <class F>
static __device__ __forceinline__ void b2_xs(const b2_src<F> &s, uint32_t e0, F &x0, F &x1)
{
    uint32_t n;
    x0 = b2_addr(s, e0, &n)->x;
    x1 = b2_addr(s, e0 + 1, &n)->x;
}

/* An item's slot header (first element e0, class cls), and for an
 * addition the product of the thread's earlier denominators (acc) in its
 * slot before acc takes den (with the norms: the product of the norms,
 * then den's norm after it). */
template <class F, class D>
static __device__ __forceinline__ void b2_dens_store(affine_t<F> &slot, uint32_t e0, uint32_t cls,
                                                     const F &den, D &acc)
{
    if (cls == BA_ADD || cls == B2_ADDX) {
        D n, *pn = (D *)&slot.x;
        b2_norm(n, den);
        pn[0] = acc;
        if constexpr (sizeof(D) < sizeof(F))
            pn[1] = n;
        f_mul(acc, acc, n);
    }
    *b2_hdr(&slot) = make_uint4(e0, cls, 0, 0);
}

/* b2_dens_store for the pair (e0, e0 + 1) with x coordinates x0, x1 when
 * two, else for a single element. */
template <class F, class D>
static __device__ __forceinline__ void b2_dens_put(const b2_src<F> &s, affine_t<F> &slot, uint32_t e0,
                                                   bool two, const F &x0, const F &x1, D &acc)
{
    uint32_t cls = B2_SINGLE;
    F den;
    if (two)
        cls = b2_den(s, e0, x0, x1, den);
    b2_dens_store(slot, e0, cls, den, acc);
}

/* The end of a b2_dens kernel: ex[t] = the product of the block's other
 * threads' acc, bt[block] = the block's product. */
template <class D>
static __device__ __forceinline__ void b2_dens_end(const D &acc, D *ex, D *bt, size_t t)
{
    __shared__ D sp[B2_THREADS], ss[B2_THREADS];
    D others, total;
    ba_block_others(acc, sp, ss, &others, &total);
    ex[t] = others;
    if (threadIdx.x == 0)
        bt[blockIdx.x] = total;
}

/* Items k and k + 1 of the thread at once, their loads issued together
 * (the kernel waits on dependent loads: bucket, list, record, point). */
template <class F, class D>
__global__ void __launch_bounds__(B2_THREADS, b2_dens_blocks<F>::N)
b2_dens(b2_src<F> src, b2_lists L, affine_t<F> *out, D *ex, D *bt)
{
    const size_t T = (size_t)gridDim.x * blockDim.x, t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    D acc;
    f_set_one(acc);
    for (unsigned k = 0; k < L.S; k += 2) {
        const size_t i = L.i0 + t + k * T, i1 = i + T;
        if (i >= L.end)
            break;
        const bool has1 = k + 1 < L.S && i1 < L.end;
        uint32_t e0, e1 = 0;
        const bool two = b2_item(L, i, &e0), two1 = has1 && b2_item(L, i1, &e1);
        F x0, x1, y0, y1;
        if (two)
            b2_xs(src, e0, x0, x1);
        if (two1)
            b2_xs(src, e1, y0, y1);
        b2_dens_put(src, out[i], e0, two, x0, x1, acc);
        if (has1)
            b2_dens_put(src, out[i1], e1, two1, y0, y1, acc);
    }
    b2_dens_end(acc, ex, bt, t);
}

/* An item's header and round 0's records (v0, v1: vals of its elements;
 * unread when the round reads points): what b2_apply_pipe carries from
 * step to step. */
struct b2_ahead {
    uint4 h;
    uint32_t v0, v1;
};

/* a's records from its header (round 0 only). */
template <class F>
static __device__ __forceinline__ void b2_records(const b2_src<F> &s, b2_ahead &a)
{
    a.v0 = a.v1 = 0;
    if (!s.pts) {
        a.v0 = s.vals[a.h.x];
        if (a.h.y != B2_SINGLE)
            a.v1 = s.vals[a.h.x + 1];
    }
}

/* The points and signs of a's elements (*a1 NULL for a single). */
template <class F>
static __device__ __forceinline__ void b2_ahead_at(const b2_src<F> &s, const b2_ahead &a,
                                                   const affine_t<F> **a0, uint32_t *n0,
                                                   const affine_t<F> **a1, uint32_t *n1)
{
    *a0 = b2_addr_v(s, a.h.x, a.v0, n0);
    *a1 = 0;
    *n1 = 0;
    if (a.h.y != B2_SINGLE)
        *a1 = b2_addr_v(s, a.h.x + 1, a.v1, n1);
}

/* An item's sum r from its points (at a0, sign n0, and unless its class
 * cls is B2_SINGLE at a1, sign n1), however they add (copies, infinity,
 * doubling, addition); an addition takes 1/den from inv (the inverse of
 * the product of the thread's denominators, or norms, up to this one) and
 * its slot's pn[0] (the product of those before it; b2_slot_norm), and
 * leaves in inv the inverse of the product up to the one before. */
template <class F, class D>
static __device__ __forceinline__ void b2_sum_at(const affine_t<F> *a0, uint32_t n0,
                                                 const affine_t<F> *a1, uint32_t n1, uint32_t cls,
                                                 const D *pn, D &inv, affine_t<F> &r)
{
    affine_t<F> p;
    b2_load(p, a0, n0);
    if (cls == B2_SINGLE) {
        r = p;
        return;
    }
    affine_t<F> q;
    b2_load(q, a1, n1);
    F num, den, id;
    const int how = ba_classify(p, q, num, den);
    if (how == BA_ADD) {
        D n, idn;
        b2_slot_norm(n, pn, den);
        f_mul(idn, inv, pn[0]);
        f_mul(inv, inv, n);
        b2_unnorm(id, den, idn);
    }
    ba_sum(r, how, p, q, num, id);
}

/* A prefetch that stays after the stores before it (the "memory"
 * clobber): its address comes from loads issued a whole sum earlier. */
static __device__ __forceinline__ void b2_prefetch_late(const void *p)
{
    asm volatile("prefetch.global.L2 [%0];" ::"l"(p) : "memory");
}

/* b2_apply's loop, with the chain of loads before an item's points (its
 * slot's header, then in round 0 its records) issued steps ahead: step k
 * sums item k (header and records in registers), with the records of item
 * k - 1 and the header of item k - 2 in flight, and after its sum, when
 * those have arrived, sends item k - 1's points and slot to L2 (a loop
 * that loads an item when its turn comes stalls each step on its header
 * and records before the sum can start). */
template <class F, class D>
static __device__ __forceinline__ void b2_apply_pipe(const b2_src<F> &src, affine_t<F> *out,
                                                     size_t t, size_t T, int k, D &inv)
{
    b2_ahead c, n, nn; /* items k, k - 1, k - 2 */
    n.h = nn.h = make_uint4(0, 0, 0, 0);
    n.v0 = n.v1 = 0;
    c.h = *b2_hdr(&out[t + (size_t)k * T]);
    b2_records(src, c);
    if (k > 0)
        n.h = *b2_hdr(&out[t + (size_t)(k - 1) * T]);
    for (; k >= 0; k--) {
        const size_t i = t + (size_t)k * T;
        if (k > 0)
            b2_records(src, n);
        if (k > 1)
            nn.h = *b2_hdr(&out[i - 2 * T]);
        const affine_t<F> *a0, *a1;
        uint32_t n0, n1;
        b2_ahead_at(src, c, &a0, &n0, &a1, &n1);
        affine_t<F> r;
        b2_sum_at(a0, n0, a1, n1, c.h.y, (const D *)&out[i].x, inv, r);
        out[i] = r;
        if (k > 0) {
            b2_ahead_at(src, n, &a0, &n0, &a1, &n1);
            b2_prefetch_late(&out[i - T]);
            b2_prefetch_late(a0);
            if (a1)
                b2_prefetch_late(a1);
        }
        c = n;
        n = nn;
    }
}

/* The sums: thread t walks its items backwards; for the j-th addition,
 * 1/den_j = (1 / product of den_0..j) * (product of den_0..j-1, in the
 * slot), and 1 / product of den_0..j-1 = that times den_j (D: the field
 * the batch inverts, b2_half). Thread t's block product is b2_dens's
 * block t / B2_THREADS. */
template <class F, class D>
__global__ void __launch_bounds__(B2_THREADS, b2_apply_blocks<F>::N)
b2_apply(b2_src<F> src, size_t i0, size_t end, unsigned S, affine_t<F> *out, const D *ex,
         const D *ibt)
{
    const size_t M = end - i0;
    out += i0; /* item i0 + t + k T */
    const size_t T = (size_t)gridDim.x * blockDim.x, t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= M)
        return;
    D inv;
    f_mul(inv, ibt[t / B2_THREADS], ex[t]);
    int k = (int)((M - 1 - t) / T);
    if (k > (int)S - 1)
        k = (int)S - 1;
    b2_apply_pipe(src, out, t, T, k, inv);
}

} // namespace SP_CURVE_NS

#endif
