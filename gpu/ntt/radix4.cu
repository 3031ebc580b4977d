/*
 * The NTT in passes of up to SP_NTTF_MAX_STAGES (9) stages, the by-size
 * choice below 2^22 (sp_cuda.h): the decimation-in-time transform of
 * ntt.cu's in-place form, same result, in fewer passes over device memory.
 *
 * Why: the in-place form makes 1 + 1 + ceil((log_n - 10) / 5) passes (bit
 * reversal, 10 stages, then 5 per pass), and the bit reversal's swaps
 * touch a random 32-byte element each. Here 2^26 takes 3 passes, and the
 * bit reversal is part of the first: its block gathers the elements of its
 * sub-transforms from their bit-reversed positions, in runs of 2^t
 * consecutive elements (the low bits of a position are the high bits of
 * its reversal, so 2^t sub-transforms whose indices have consecutive
 * reversals read 2^t neighbours for each row). The reversal moves elements
 * between blocks, so the first pass cannot write in place: it writes to a
 * scratch vector, middle passes work in place there, the last writes back.
 * The inverse's factor 1/n is applied by the last pass as it writes.
 *
 * Inside a pass the stages run in rounds of two (radix 4, nttf_rounds):
 * a thread keeps 4 elements in registers across two stages, one barrier
 * and one shared-memory round trip per round. The products are
 * mont_eo_fr.cuh's (r's low words as additions).
 *
 * Layout of a pass over stages [s0, s0 + k): a block owns 2^t "columns"
 * and 2^k rows; element (row j, column l) is the logical element
 *   first pass (s0 = 0):  x = j | rev_lh(g0 + l) << k, read from position
 *                         rev_k(j) << lh | (g0 + l), lh = log_n - k;
 *   later passes:         x = (col0 + l) | j << s0 | high << (s0 + k),
 * where logical x is the position in the bit-reversed input of a plain DIT
 * transform; stage s mixes x and x + 2^s with twiddle w_(2^(s+1))^(x mod
 * 2^s) = tw[(x mod 2^s) << (log_n - 1 - s)]. Shared rows are padded by
 * one element (32 bytes) so that column-wise accesses spread over banks.
 */
#include <string.h>
#include "gpu/field/mont_eo_fr.cuh"
#include "domain.cuh"

namespace SP_CURVE_NS {

#define SP_NTTF_LOG_COLS 2   /* 2^t columns: 128-byte runs in memory */
#define SP_NTTF_ROUND 2      /* stages per round in registers */
#define SP_NTTF_THREADS 512

static __device__ __forceinline__ uint32_t nttf_rev(uint32_t x, unsigned bits)
{
    return bits ? __brev(x) >> (32 - bits) : 0;
}

/* Global position of element (j, l) of this block. */
struct nttf_map {
    unsigned log_n, s0, k, t, lh;
    int first;
    size_t g0, col0, high; /* first pass: g0; later: col0, high */

    __device__ __forceinline__ size_t src(uint32_t j, uint32_t l) const
    {
        if (first)
            return ((size_t)nttf_rev(j, k) << lh) | (g0 + l);
        return (col0 + l) | ((size_t)j << s0) | (high << (s0 + k));
    }
    __device__ __forceinline__ size_t dst(uint32_t j, uint32_t l) const
    {
        if (first)
            return j | ((size_t)nttf_rev((uint32_t)(g0 + l), lh) << k);
        return src(j, l);
    }
};

template <class F>
static __device__ __forceinline__ F x_zero()
{
    F z;
    f_set_zero(z);
    return z;
}

template <class F>
static __device__ __forceinline__ void nttf_butterfly(F &a0, F &a1, const F &w, bool trivial)
{
    F t = a1;
    if (!trivial)
        fx_mul(t, a1, w);
    f_sub(a1, a0, t);
    f_add(a0, a0, t);
}

/*
 * Rounds of up to G stages in registers: a thread takes the 2^g elements
 * that stages [q0, q0 + g) of the pass mix in one column (rows base + m
 * 2^q0, m < 2^g, base with bits q0 .. q0 + g - 1 clear), does the g stages
 * on them (stage q0 + a pairs m and m + 2^a) and writes them back: one
 * barrier and one shared-memory round trip per round instead of per stage.
 * The row j0 of a pair decides its twiddle
 * as in a radix-2 stage: (col | (j0 mod 2^(q0 + a)) << s0) << (log_n - 1 -
 * st), with col the column's logical index col0 + l (0 in the first pass,
 * where the columns are the high bits: first != 0).
 */
template <class F, int G>
static __device__ __forceinline__ void nttf_rounds(F *s, const F *tw, unsigned log_n, unsigned s0,
                                                   unsigned k, unsigned t, unsigned stride,
                                                   int first, size_t col0)
{
    const unsigned cols = 1u << t, tid = threadIdx.x;
    for (unsigned q0 = 0; q0 < k; q0 += G) {
        const unsigned g = k - q0 < (unsigned)G ? k - q0 : (unsigned)G;
        const uint32_t ngroups = 1u << (k + t - g);
        for (uint32_t gi = tid; gi < ngroups; gi += blockDim.x) {
            const uint32_t l = gi & (cols - 1), p = gi >> t;
            const uint32_t base = ((p >> q0) << (q0 + g)) | (p & ((1u << q0) - 1));
            F v[1 << G];
#pragma unroll
            for (int m = 0; m < (1 << G); m++)
                if (m < (1 << g))
                    v[m] = s[(base + ((uint32_t)m << q0)) * stride + l];
#pragma unroll
            for (int a = 0; a < G; a++) {
                if (a >= (int)g)
                    break;
                const unsigned st = s0 + q0 + a;
#pragma unroll
                for (int m = 0; m < (1 << G); m++) {
                    if (m >= (1 << g) || (m >> a) & 1)
                        continue;
                    const uint32_t j0 = base + ((uint32_t)m << q0);
                    const size_t ktw = (first ? 0 : col0 + l) |
                                       ((size_t)(j0 & ((1u << (q0 + a)) - 1)) << s0);
                    const bool trivial = ktw == 0; /* w^0 = 1: stage 0 entirely */
                    F w = x_zero<F>();
                    if (!trivial)
                        w = tw[ktw << (log_n - 1 - st)];
                    nttf_butterfly(v[m], v[m + (1 << a)], w, trivial);
                }
            }
#pragma unroll
            for (int m = 0; m < (1 << G); m++)
                if (m < (1 << g))
                    s[(base + ((uint32_t)m << q0)) * stride + l] = v[m];
        }
        __syncthreads();
    }
}

/*
 * One pass: stages [s0, s0 + k) of the 2^k x 2^t elements of each block,
 * read from src, written to dst (which may be src except in the first
 * pass of several); with scale, every written element is multiplied by c.
 */
template <class F, int G>
__global__ void __launch_bounds__(SP_NTTF_THREADS, 2) /* 64 registers */
nttf_pass(F *dst, const F *src, const F *tw, unsigned log_n, unsigned s0, unsigned k, unsigned t,
          int scale, F c)
{
    extern __shared__ __align__(16) unsigned char nttf_smem[];
    F *s = (F *)nttf_smem;
    const unsigned cols = 1u << t, stride = cols + (t ? 1 : 0), tid = threadIdx.x;
    const uint32_t total = 1u << (k + t);
    nttf_map mp;
    mp.log_n = log_n, mp.s0 = s0, mp.k = k, mp.t = t, mp.first = s0 == 0;
    mp.lh = log_n - k;
    if (mp.first) {
        mp.g0 = (size_t)blockIdx.x << t;
        mp.col0 = mp.high = 0;
    } else {
        const unsigned lhigh = log_n - s0 - k;
        mp.high = blockIdx.x & (((size_t)1 << lhigh) - 1);
        mp.col0 = ((size_t)blockIdx.x >> lhigh) << t;
        mp.g0 = 0;
    }
    /* columns fastest: each row is a run of 2^t neighbours in src */
    for (uint32_t e = tid; e < total; e += blockDim.x) {
        uint32_t j = e >> t, l = e & (cols - 1);
        s[j * stride + l] = src[mp.src(j, l)];
    }
    __syncthreads();
    nttf_rounds<F, G>(s, tw, log_n, s0, k, t, stride, mp.first, mp.col0);
    /* first pass: rows fastest (a column is a run of 2^k in dst); later:
     * columns fastest, as read */
    for (uint32_t e = tid; e < total; e += blockDim.x) {
        uint32_t j, l;
        if (mp.first)
            j = e & ((1u << k) - 1), l = e >> k;
        else
            j = e >> t, l = e & (cols - 1);
        F v = s[j * stride + l];
        if (scale)
            fx_mul(v, v, c);
        dst[mp.dst(j, l)] = v;
    }
}

unsigned sp_cu_ntt_passes(unsigned log_n, unsigned *k)
{
    unsigned np = (log_n + SP_NTTF_MAX_STAGES - 1) / SP_NTTF_MAX_STAGES;
    for (unsigned i = 0; i < np; i++)
        k[i] = log_n / np + (i < log_n % np ? 1 : 0);
    return np;
}

/* The caller runs the in-place form when this says SP_ERR_NOMEM. */
sp_status sp_cu_ntt_scratch(sp_cuda *ctx, size_t bytes, void **p)
{
    if (ctx->xscr_cap[SP_XSCR_NTT] < bytes) {
        SP_CU(ctx, cudaStreamSynchronize(ctx->stream));
        SP_CU(ctx, cudaFree(ctx->xscr[SP_XSCR_NTT]));
        ctx->xscr[SP_XSCR_NTT] = NULL;
        ctx->xscr_cap[SP_XSCR_NTT] = 0;
        cudaError_t e = cudaMalloc(&ctx->xscr[SP_XSCR_NTT], bytes);
        if (e == cudaErrorMemoryAllocation) {
            cudaGetLastError();
            ctx->xscr[SP_XSCR_NTT] = NULL;
            return SP_ERR_NOMEM;
        }
        SP_CU(ctx, e);
        ctx->xscr_cap[SP_XSCR_NTT] = bytes;
    }
    *p = ctx->xscr[SP_XSCR_NTT];
    return SP_OK;
}

template <class F, int G>
static sp_status nttf_run(sp_cuda *ctx, const sp_cuda_ntt_domain *d, F *a, int inverse,
                          unsigned tc)
{
    /* the opt-in to more than 48 KiB of shared memory (per device: cheap) */
    const size_t smem_max = (((size_t)1 << (SP_NTTF_MAX_STAGES + tc)) +
                             ((size_t)1 << SP_NTTF_MAX_STAGES)) * sizeof(F);
    SP_CU(ctx, cudaFuncSetAttribute(nttf_pass<F, G>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    (int)smem_max));
    const unsigned log_n = d->log_n;
    const F *tw = (const F *)(inverse ? d->tw_inv : d->tw);
    unsigned ks[32];
    const unsigned np = sp_cu_ntt_passes(log_n, ks);
    F *tmp = a;
    if (np > 1) {
        void *p;
        SP_TRY(sp_cu_ntt_scratch(ctx, d->n * sizeof(F), &p));
        tmp = (F *)p;
    }
    F c, one;
    memcpy(&c, &d->n_inv, sizeof c);
    memset(&one, 0, sizeof one);
    unsigned s0 = 0;
    for (unsigned i = 0; i < np; i++) {
        const unsigned k = ks[i], room = i == 0 ? log_n - k : s0;
        const unsigned t = room < tc ? room : tc;
        const F *src = i == 0 ? a : tmp;
        F *dst = i + 1 == np ? a : tmp;
        const int last = i + 1 == np;
        const unsigned blocks = (unsigned)(d->n >> (k + t));
        const unsigned lt = k + t - (k < (unsigned)G ? k : (unsigned)G); /* log2 of the groups */
        const unsigned thr = lt < 9 ? 1u << lt : SP_NTTF_THREADS;
        const size_t smem = (((size_t)1 << (k + t)) + (t ? (size_t)1 << k : 0)) * sizeof(F);
        nttf_pass<F, G><<<blocks, thr, smem, ctx->stream>>>(dst, src, tw, log_n, s0, k, t,
                                                            inverse && last,
                                                            inverse && last ? c : one);
        SP_CU_LAUNCHED(ctx, "nttf_pass");
        s0 += k;
    }
    SP_CU(ctx, cudaStreamSynchronize(ctx->stream));
    return SP_OK;
}

sp_status sp_cu_ntt_radix4(sp_cuda *ctx, const sp_cuda_ntt_domain *d, sp_fr *a_dev, int inverse)
{
    return nttf_run<fr_tm<SP_MUL_EO>, SP_NTTF_ROUND>(ctx, d, (fr_tm<SP_MUL_EO> *)a_dev, inverse,
                                                     SP_NTTF_LOG_COLS);
}

} // namespace SP_CURVE_NS
