/*
 * The round kernels of the batch-affine items (msm_ba2.cu, which includes
 * this file alone and documents the rounds): the elements and pairs of a
 * round, b2_dens (the denominators and their products), the sums
 * (b2_apply, and G2's over two lanes, b2_apply_l2) in the forms
 * sp_cuda_set_ba_form selects, and their launch shapes.
 */
#ifndef SP_GPU_MSM_B2_KERN_CUH
#define SP_GPU_MSM_B2_KERN_CUH

#include "field_lanes.cuh"
#include "msm_ba.cuh"

#define B2_THREADS 256 /* threads per block of the round kernels */
/* ba_top's block: as many threads as keep the inversion out of local
 * memory (ptxas -v: 1024 threads leave 64 registers, and G1 spills) */
template <class F> struct b2_top_threads { enum { N = 512 }; };
template <int M> struct b2_top_threads<fp2_tm<M> > { enum { N = 256 }; };
/* Blocks per SM for b2_apply: G1 at 2 (128 registers; 130 unbounded gave
 * 1 block), G2 at 1 (it needs 255). b2_dens waits on memory (ncu on the
 * H200: 25% occupancy, 58% of its cycles waiting for loads), but at 4
 * blocks (64 registers, ~400 bytes of spills) it ran 1.5x slower than at
 * 2 (98 registers): G1 at 2, G2 at 1 (182 registers; with
 * SP_BA_G2_NORM too: at 2, 168-412 bytes of spills). */
template <class F> struct b2_apply_blocks { enum { N = 2 }; };
template <int M> struct b2_apply_blocks<fp2_tm<M> > { enum { N = 1 }; };
template <class F> struct b2_dens_blocks { enum { N = 2 }; };
template <int M> struct b2_dens_blocks<fp2_tm<M> > { enum { N = 1 }; };
/* The lean sums (SP_BA_APPLY_LEAN) in G2 only: G1's lean kernel ran 5%
 * slower than its whole-points one on the H200 (bench/NOTES.md; the
 * re-reads cost more than the registers saved, at the same 2 blocks per
 * SM), and at one block per SM more both groups' lean kernels spilled
 * (G1 80 registers and 172 bytes, G2 128 and 528) and ran 25-35% slower.
 * SP_BA_APPLY_128: the sums in blocks of 128 threads, G2's lean ones 3
 * per SM (12 warps against 8, 168 registers), G1's 5 (20 warps against
 * 16). */
template <class F> struct b2_lean { enum { ON = 0 }; };
template <int M> struct b2_lean<fp2_tm<M> > { enum { ON = 1 }; };
/* SP_BA_APPLY_LANES: G2's lean sums over two lanes (field_lanes.cuh), with
 * the Fp2 sums of products only (their split is even; Karatsuba keeps
 * one lane). */
template <class F> struct b2_lanes { enum { ON = 0, M = 0 }; };
template <> struct b2_lanes<fp2_tm<SP_MUL_EO_SUM> > { enum { ON = 1, M = SP_MUL_EO_SUM }; };
/* Items per thread at most (S): with SP_BA_WIDE_ITEMS 128, else 32.
 * ba_top's threads each multiply a run of the round's block products
 * (~M / (S 256 512) of them, in series, twice): 4x shorter runs. */
#define B2_MAX_ITEMS 128
#define B2_ITEMS_NARROW 32

typedef fp_tm<SP_MUL_EO> b2_fp;
/* G2's two Fp2 multiplications (sp_cuda_set_fp2_mul: 0 Karatsuba, 1 sums
 * of products; field.cuh) */
typedef fp2_tm<SP_MUL_EO> b2_fp2;
typedef fp2_tm<SP_MUL_EO_SUM> b2_fp2s;
/* The bucket reduction's field: the sums' form only in the rounds (the
 * XYZZ reduction kernels, at 255 registers with stack frames, ran 13-25%
 * slower with it on the H200: bench/NOTES.md), Karatsuba there. */
template <class F> struct b2_reduce_field { typedef F type; };
template <> struct b2_reduce_field<b2_fp2s> { typedef b2_fp2 type; };

/* ---- what the batch inverts ---- */

/* SP_BA_G2_NORM: G2's batch inversion over the denominators' norms,
 * N(den) = den0^2 + den1^2 in Fp, with 1/den = conj(den) / N(den). N(den)
 * is 0 only for den = 0 (-1 is not a square mod p: p = 3 mod 4 for both
 * curves). The running products, the block scans and the round's one
 * inversion are then Fp's, 1 product where an Fp2 one is 3, and an
 * addition costs 12 Fp products in the sums instead of 14. D, the field
 * the batch inverts: F, or with the norms the half of an Fp2 (b2_half;
 * G1 has no half, so the form is G1's kernels unchanged). */
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

/* Item classes (the slot header's second word): msm_ba.cuh's BA_ classes
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
 * the round, msm_ba2.cu); its thread t the items i0 + t + k T, k < S. */
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

/* PAIR (sp_cuda_set_ba_form's SP_BA_DENS_PAIR): items k and k + 1 of the
 * thread at once, their loads issued together (the kernel waits on
 * dependent loads: bucket, list, record, point). */
template <class F, class D, bool PAIR>
__global__ void __launch_bounds__(B2_THREADS, b2_dens_blocks<F>::N)
b2_dens(b2_src<F> src, b2_lists L, affine_t<F> *out, D *ex, D *bt)
{
    const size_t T = (size_t)gridDim.x * blockDim.x, t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    D acc;
    f_set_one(acc);
    for (unsigned k = 0; k < L.S; k += PAIR ? 2 : 1) {
        const size_t i = L.i0 + t + k * T, i1 = i + T;
        if (i >= L.end)
            break;
        const bool has1 = PAIR && k + 1 < L.S && i1 < L.end;
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

/* Item i's pair in one word (SP_BA_DENS_PIPE): its first element, and bit
 * 31 when it has a second (b2_item; group records < 2^31), for the items
 * [i0, end). head may be L.ibkt itself: each thread reads and writes its
 * own item only. */
__global__ void b2_heads(uint32_t *head, b2_lists L)
{
    const size_t i = L.i0 + (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= L.end)
        return;
    uint32_t e0;
    const bool two = b2_item(L, i, &e0);
    head[i] = e0 | (uint32_t)two << 31;
}

/* One item at each level of b2_dens_pipe's chain of loads, as step k
 * leaves them for step k + 1 (and, in e0/two, item k + 1's until step
 * k + 1 reads them as its own item's): */
template <class F> struct b2_chain {
    uint32_t h;               /* item k + 3: its head (b2_heads) */
    uint32_t e0, two, v0, v1; /* item k + 2: first element, a pair?, records (round 0) */
    F x0, x1;                 /* item k + 1: the x coordinates */
};

/* Step k of b2_dens_pipe over chains C (what step k - 1 loaded) and N
 * (loaded now, read by step k + 1): item k's denominator from C's x
 * coordinates, then the next level of the chain issued for items
 * k + 1 .. k + 3 (so C's x are dead before N's arrive), then item k's
 * product and slot (K items, item j is t + j T; k is negative in the
 * prologue: only items 0 .. K - 1 load or count). */
template <class F, class D>
static __device__ __forceinline__ void b2_dens_step(const b2_src<F> &src, const uint32_t *head,
                                                    affine_t<F> *out, int k, int K, size_t t,
                                                    size_t T, b2_chain<F> &C, b2_chain<F> &N,
                                                    D &acc)
{
    const uint32_t e0k = N.e0; /* item k's, from step k - 2 */
    uint32_t cls = B2_SINGLE;
    F den;
    const bool own = k >= 0 && k < K; /* the loop's last pair of steps may pass K */
    if (own && N.two)
        cls = b2_den(src, e0k, C.x0, C.x1, den);
    if (k + 1 >= 0 && k + 1 < K && C.two) {  /* x of item k + 1 */
        const affine_t<F> *a0, *a1;
        if (src.pts) {
            a0 = src.pts + C.e0;
            a1 = a0 + 1;
        } else {
            a0 = src.bases + (C.v0 & 0x7fffffffu);
            a1 = src.bases + (C.v1 & 0x7fffffffu);
        }
        N.x0 = a0->x;
        N.x1 = a1->x;
    }
    if (k + 2 >= 0 && k + 2 < K) { /* item k + 2's records */
        N.e0 = C.h & 0x7fffffffu;
        N.two = C.h >> 31;
        if (!src.pts && N.two) {
            N.v0 = src.vals[N.e0];
            N.v1 = src.vals[N.e0 + 1];
        }
    }
    if (k + 3 < K) /* item k + 3's head */
        N.h = head[t + (size_t)(k + 3) * T];
    if (own)
        b2_dens_store(out[t + (size_t)k * T], e0k, cls, den, acc);
}

/* SP_BA_DENS_PIPE: b2_dens with the thread's items in a software pipeline
 * along their chain of dependent loads (head -> records -> x
 * coordinates; b2_heads resolved item -> bucket -> lists beforehand, at
 * full occupancy): each step issues one level of the chain for each of
 * three items ahead, so a step waits for one load's latency where an item
 * waited for all of them in series. The two chains alternate by step (no
 * register moves that would wait for loads in flight). */
template <class F, class D>
__global__ void __launch_bounds__(B2_THREADS, b2_dens_blocks<F>::N)
b2_dens_pipe(b2_src<F> src, const uint32_t *head, b2_lists L, affine_t<F> *out, D *ex, D *bt)
{
    const size_t M = L.end - L.i0; /* the steps count items from i0 */
    head += L.i0;
    out += L.i0;
    const size_t T = (size_t)gridDim.x * blockDim.x, t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    int K = 0;
    if (t < M) {
        const size_t k = (M - 1 - t) / T + 1;
        K = (int)(k < L.S ? k : L.S);
    }
    D acc;
    f_set_one(acc);
    b2_chain<F> A, B;
    A.e0 = B.e0 = A.two = B.two = 0;
    for (int k = -3; k < K; k += 2) {
        b2_dens_step(src, head, out, k, K, t, T, A, B, acc);
        b2_dens_step(src, head, out, k + 1, K, t, T, B, A, acc);
    }
    b2_dens_end(acc, ex, bt, t);
}

static __device__ __forceinline__ void b2_prefetch(const void *p)
{
    asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
}

/* The points of the item in slot (the next one a thread sums) on their
 * way to L2. */
template <class F>
static __device__ __forceinline__ void b2_prefetch_item(const b2_src<F> &src, affine_t<F> *slot)
{
    const uint4 hn = *b2_hdr(slot);
    uint32_t ng;
    b2_prefetch(b2_addr(src, hn.x, &ng));
    if (hn.y != B2_SINGLE)
        b2_prefetch(b2_addr(src, hn.x + 1, &ng));
}

/* An item's header and round 0's records (v0, v1: vals of its elements;
 * unread when the round reads points): what b2_sum_any reads before the
 * points, and what SP_BA_APPLY_PIPE carries from step to step. */
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

/* b2_sum_at for the item whose slot header is h. */
template <class F, class D>
static __device__ __forceinline__ void b2_sum_any(const b2_src<F> &src, uint4 h, const D *pn,
                                                  D &inv, affine_t<F> &r)
{
    b2_ahead a;
    a.h = h;
    b2_records(src, a);
    const affine_t<F> *a0, *a1;
    uint32_t n0, n1;
    b2_ahead_at(src, a, &a0, &n0, &a1, &n1);
    b2_sum_at(a0, n0, a1, n1, h.y, pn, inv, r);
}

/* The lean path's rare items, out of line: their registers (both points
 * whole) stay out of the kernel's common path. */
template <class F>
static __device__ __noinline__ void b2_sum_other(b2_src<F> src, uint4 h, const F *pn, F &inv,
                                                 affine_t<F> &r)
{
    b2_sum_any(src, h, pn, inv, r);
}

/* r = *p by loads the compiler leaves where they are written: the lean
 * path reads a coordinate again (L1) instead of holding it in registers
 * across the products. */
template <class F>
static __device__ __forceinline__ void b2_ld(F &r, const F *p)
{
    static_assert(sizeof(F) % 16 == 0, "16-byte words");
    uint4 *d = (uint4 *)&r;
    const uint4 *s = (const uint4 *)p;
#pragma unroll
    for (int j = 0; j < (int)(sizeof(F) / 16); j++)
        asm volatile("ld.global.v4.u32 {%0, %1, %2, %3}, [%4];"
                     : "=r"(d[j].x), "=r"(d[j].y), "=r"(d[j].z), "=r"(d[j].w)
                     : "l"(s + j));
}

/* A B2_ADDX item's sum (x coordinates non-zero and different) with four
 * field elements live at most: den, 1/den, inv, one coordinate read
 * again where needed; y1' = y1 or -y1 by the records' signs n0, n1. */
template <class F>
static __device__ __forceinline__ void b2_sum_addx(const b2_src<F> &src, uint32_t e0, const F &pre,
                                                   F &inv, affine_t<F> &r)
{
    uint32_t n0, n1;
    const affine_t<F> *a0 = b2_addr(src, e0, &n0), *a1 = b2_addr(src, e0 + 1, &n1);
    F d, e, t;
    b2_ld(d, &a1->x);
    b2_ld(t, &a0->x);
    f_sub(d, d, t);   /* den */
    f_mul(e, inv, pre); /* 1 / den */
    f_mul(inv, inv, d);
    b2_ld(d, &a1->y);
    b2_ld(t, &a0->y);
    if (n0 == n1)
        f_sub(d, d, t);
    else
        f_add(d, d, t);
    if (n1)
        f_neg(d, d);  /* num = y1' - y0' */
    f_mul(e, d, e);   /* lambda */
    f_sqr(d, e);
    b2_ld(t, &a0->x);
    f_sub(d, d, t);
    b2_ld(t, &a1->x);
    f_sub(r.x, d, t); /* x3 = lambda^2 - x0 - x1 */
    b2_ld(t, &a0->x);
    f_sub(t, t, r.x);
    f_mul(e, e, t);   /* lambda (x0 - x3) */
    b2_ld(t, &a0->y);
    if (n0)
        f_add(r.y, e, t);
    else
        f_sub(r.y, e, t); /* y3 = lambda (x0 - x3) - y0' */
}

/* A prefetch that stays after the stores before it (the "memory"
 * clobber): its address comes from loads issued a whole sum earlier. */
static __device__ __forceinline__ void b2_prefetch_late(const void *p)
{
    asm volatile("prefetch.global.L2 [%0];" ::"l"(p) : "memory");
}

/* SP_BA_APPLY_PIPE: b2_apply's loop with the chain of loads before an
 * item's points (its slot's header, then in round 0 its records) issued
 * steps ahead: step k sums item k (header and records in registers), with
 * the records of item k - 1 and the header of item k - 2 in flight, and
 * after its sum, when those have arrived, sends item k - 1's points and
 * slot to L2. (b2_apply's own loop stalls each step on the next item's
 * header and records before its sum can start.) */
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
 * the batch inverts, b2_half). LEAN (sp_cuda_set_ba_form's
 * SP_BA_APPLY_LEAN; D = F): B2_ADDX items by b2_sum_addx, the rest out
 * of line; PIPE: b2_apply_pipe's loop. Blocks of THREADS threads,
 * BLOCKS per SM; thread t's block product is b2_dens's block t /
 * B2_THREADS. */
template <class F, class D, bool LEAN, int THREADS, int BLOCKS, bool PIPE = false>
__global__ void __launch_bounds__(THREADS, BLOCKS)
b2_apply(b2_src<F> src, size_t i0, size_t end, unsigned S, affine_t<F> *out, const D *ex,
         const D *ibt)
{
    static_assert(!LEAN || sizeof(D) == sizeof(F), "the lean sums invert den itself");
    static_assert(!(LEAN && PIPE), "the pipelined loop sums whole points");
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
    if constexpr (PIPE) {
        b2_apply_pipe(src, out, t, T, k, inv);
    } else {
        for (; k >= 0; k--) {
            const size_t i = t + (size_t)k * T;
            const uint4 h = *b2_hdr(&out[i]);
            if (k > 0)
                b2_prefetch_item(src, &out[i - T]);
            affine_t<F> r;
            if constexpr (!LEAN)
                b2_sum_any(src, h, (const D *)&out[i].x, inv, r);
            else if (h.y == B2_ADDX)
                b2_sum_addx(src, h.x, out[i].x, inv, r);
            else
                b2_sum_other(src, h, &out[i].x, inv, r);
            out[i] = r;
        }
    }
}

/* This lane's half of coordinate c of point a, read again (b2_ld). */
template <int M>
static __device__ __forceinline__ void l2_ld(fp_tm<M> &r, const fp2_tm<M> &c, unsigned h)
{
    b2_ld(r, l2_at(&c, h));
}

/* b2_sum_addx over two lanes (field_lanes.cuh): this lane's halves of
 * the sum r, and of inv. */
template <int M>
static __device__ __forceinline__ void b2_sum_addx_l2(const b2_src<fp2_tm<M> > &src, uint32_t e0,
                                                      const fp_tm<M> &pre, fp_tm<M> &inv,
                                                      fp_tm<M> &rx, fp_tm<M> &ry, unsigned mask,
                                                      unsigned h)
{
    uint32_t n0, n1;
    const affine_t<fp2_tm<M> > *a0 = b2_addr(src, e0, &n0), *a1 = b2_addr(src, e0 + 1, &n1);
    fp_tm<M> d, e, t;
    l2_ld(d, a1->x, h);
    l2_ld(t, a0->x, h);
    f_sub(d, d, t); /* den */
    l2_mul(e, inv, pre, mask, h);
    l2_mul(inv, inv, d, mask, h);
    l2_ld(d, a1->y, h);
    l2_ld(t, a0->y, h);
    if (n0 == n1)
        f_sub(d, d, t);
    else
        f_add(d, d, t);
    if (n1)
        f_neg(d, d); /* num */
    l2_mul(e, d, e, mask, h); /* lambda */
    l2_sqr(d, e, mask, h);
    l2_ld(t, a0->x, h);
    f_sub(d, d, t);
    l2_ld(t, a1->x, h);
    f_sub(rx, d, t);
    l2_ld(t, a0->x, h);
    f_sub(t, t, rx);
    l2_mul(e, e, t, mask, h);
    l2_ld(t, a0->y, h);
    if (n0)
        f_add(ry, e, t);
    else
        f_sub(ry, e, t);
}

/* b2_apply's lean G2 sums over two lanes (SP_BA_APPLY_LANES): lanes 2j and
 * 2j + 1 are b2_dens's thread j of the same position, each holding one
 * half of every Fp2 element; the rare items are made whole by both lanes
 * (b2_sum_other, out of line) and each keeps its half. */
template <int M>
__global__ void __launch_bounds__(B2_THREADS, 2)
b2_apply_l2(b2_src<fp2_tm<M> > src, size_t i0, size_t end, unsigned S, affine_t<fp2_tm<M> > *out,
            const fp2_tm<M> *ex, const fp2_tm<M> *ibt)
{
    typedef fp2_tm<M> F;
    const size_t Mc = end - i0;
    out += i0; /* item i0 + t + k T */
    const unsigned h = l2_half(), mask = l2_mask();
    const size_t T = (size_t)gridDim.x * blockDim.x / 2,
                 t = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) >> 1;
    if (t >= Mc)
        return; /* both lanes of a pair */
    fp_tm<M> inv = *l2_at(&ibt[t / B2_THREADS], h), x = *l2_at(&ex[t], h);
    l2_mul(inv, inv, x, mask, h);
    int k = (int)((Mc - 1 - t) / T);
    if (k > (int)S - 1)
        k = (int)S - 1;
    for (; k >= 0; k--) {
        const size_t i = t + (size_t)k * T;
        const uint4 hd = *b2_hdr(&out[i]);
        if (k > 0 && h == 0)
            b2_prefetch_item(src, &out[i - T]);
        fp_tm<M> rx, ry;
        if (hd.y == B2_ADDX) {
            b2_sum_addx_l2(src, hd.x, *l2_at(&out[i].x, h), inv, rx, ry, mask, h);
        } else {
            F fi, pre = out[i].x;
            affine_t<F> r;
            l2_join(fi, inv, mask, h);
            b2_sum_other(src, hd, &pre, fi, r);
            inv = *l2_at(&fi, h);
            rx = *l2_at(&r.x, h);
            ry = *l2_at(&r.y, h);
        }
        __syncwarp(mask); /* both lanes read the slot (header, pre) before either writes */
        *l2_at(&out[i].x, h) = rx;
        *l2_at(&out[i].y, h) = ry;
    }
}

#endif
