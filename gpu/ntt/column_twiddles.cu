/*
 * The NTT passes with column twiddles, the by-size choice from 2^22
 * (sp_cuda.h): the passes of radix4.cu (same split of the stages, the bit
 * reversal folded into the first pass, out of place through the scratch
 * vector), with the twiddles of a pass's stages out of a table of 2^(k-1)
 * entries in shared memory instead of one global load per butterfly.
 *
 * Why: in radix4.cu every butterfly of stage s loads its twiddle
 * w_(2^(s+1))^(x mod 2^s) from the domain's table (n/2 elements, 1 GiB at
 * 2^26), and the product waits for that load: the passes run
 * latency-bound. Here, in a pass over stages [s0, s0 + k) where element
 * x = c + j 2^s0 + high 2^(s0+k) (c < 2^s0 its column), the twiddle of
 * stage s0 + q is w_(2^(s0+q+1))^c * w_(2^(q+1))^(j mod 2^q): the first
 * factor is taken out of the butterflies by multiplying element j of
 * column c by zeta_c^rev_k(j), zeta_c = w_(2^(s0+k))^c, once as the pass
 * loads it (four-step FFT); what remains is, per column, a plain
 * 2^k-point transform whose twiddles w_(2^k)^i all blocks share. The
 * multiplications balance: the 2^k - 1 non-trivial scale factors of a
 * column replace the butterflies that become trivial (w^0) in its
 * sub-transform. The first pass (s0 = 0) has no column factor.
 *
 * The scale factor of element (c, j) is w^e with e = c rev_k(j) 2^(log_n -
 * s0 - k) mod n, read as +-tw[e mod n/2] (w^(n/2) = -1). The second pass
 * reads it from a compact table of the domain (w^(i 2^(log_n - s0 - k)),
 * at most 2^17 entries, 4 MiB) whose inverse entries include 1/n: the
 * inverse's scaling costs no product of its own. Later passes (2^19 and
 * up) read the domain's table.
 *
 * Inside a pass: the block's elements go to shared memory with
 * asynchronous copies (all in flight at once); each butterfly goes through
 * shared memory (two elements live, mont_mul_eox products of
 * mont_eo_fr.cuh), with two block-wide barriers per pass (ntts_own_unit,
 * then ntts_rounds_warp2's warp-local stages). Blocks of at most 256
 * threads, four per SM: the 9-stage passes take 2 columns (2^9 x 2
 * elements, 256 threads), the others 4 (ntts_log_cols, ntts_at_c).
 *
 * Shared layout: the block's 2^k rows of 4 columns, row j's columns
 * permuted by l ^ sw(j) (an XOR of j's bit pairs), so that the rows that
 * one warp reads in a stage (2^q apart) fall on different banks without
 * padding; then the 2^(k-1) twiddles.
 */
#include <string.h>
#include "gpu/field/mont_eo_fr.cuh"
#include "domain.cuh"

namespace SP_CURVE_NS {

#define SP_NTTS_THREADS 256 /* at most, per block; four blocks per SM */

/* Column position of (row j, column l) in the shared rows. */
static __device__ __forceinline__ uint32_t ntts_at(uint32_t j, uint32_t l)
{
    const uint32_t f = j ^ (j >> 2) ^ (j >> 4) ^ (j >> 6) ^ (j >> 8);
    return (j << SP_NTTS_LOG_COLS) | (l ^ (f & 3));
}

/* Position of (row j, column l) in a block of 2^LC columns (the 9-stage
 * passes run with LC = 1): the 4-column layout with row j >> (2 - LC) and
 * column (j's low 2 - LC bits, l), so that rows lo + 4 m of one column (a
 * warp group of ntts_rounds_warp2) still spread over the four swizzled
 * slots of a row. Setting bit p >= 2 - LC of j sets bit p - (2 - LC) of
 * that row. */
template <int LC>
static __device__ __forceinline__ uint32_t ntts_at_c(uint32_t j, uint32_t l)
{
    static_assert(LC >= 0 && LC <= 2, "blocks of 1, 2 or 4 columns");
    if constexpr (LC == 2)
        return ntts_at(j, l);
    else
        return ntts_at(j >> (2 - LC), ((j & ((1u << (2 - LC)) - 1)) << LC) | l);
}

static __device__ __forceinline__ uint32_t ntts_rev(uint32_t x, unsigned bits)
{
    return bits ? __brev(x) >> (32 - bits) : 0;
}

static __device__ __forceinline__ void ntts_copy_async(void *smem, const void *gmem)
{
    const unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(gmem) : "memory");
}

template <class F>
static __device__ __forceinline__ void ntts_neg_if(F &x, bool neg)
{
    F y;
    f_neg(y, x);
    if (neg)
        x = y;
}


/* (x0, x1) = (x0 + t, x0 - t) for a product t already made. */
template <class F>
static __device__ __forceinline__ void ntts_bfly(F &x0, F &x1, const F &t)
{
    f_sub(x1, x0, t);
    f_add(x0, x0, t);
}


/* Shared-memory load the compiler may not replace by a value it kept in
 * registers (the butterflies re-read what the same thread stored, to keep
 * two elements live); "memory" keeps it after the stores
 * before it. ntts_lds_at takes a 32-bit shared-memory byte address. */
template <class F>
static __device__ __forceinline__ void ntts_lds_at(F &x, uint32_t a)
{
    static_assert(sizeof(F) == 32, "8-word elements");
    asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(x.w[0]), "=r"(x.w[1]), "=r"(x.w[2]), "=r"(x.w[3])
                 : "r"(a)
                 : "memory");
    asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4 + 16];"
                 : "=r"(x.w[4]), "=r"(x.w[5]), "=r"(x.w[6]), "=r"(x.w[7])
                 : "r"(a)
                 : "memory");
}

template <class F>
static __device__ __forceinline__ void ntts_lds(F &x, const F *p)
{
    ntts_lds_at(x, (uint32_t)__cvta_generic_to_shared(p));
}

/* One butterfly through shared memory: rows at a0, a1 of s, twiddle *w
 * (NULL: w^0), through registers and back. */
template <class F>
static __device__ __forceinline__ void ntts_pair(F *s, uint32_t a0, uint32_t a1, const F *w)
{
    F x0, x1;
    ntts_lds(x0, &s[a0]);
    ntts_lds(x1, &s[a1]);
    F t = x1;
    if (w) {
        const F ww = *w;
        fx_mul(t, x1, ww);
    }
    ntts_bfly(x0, x1, t);
    s[a0] = x0;
    s[a1] = x1;
}


/*
 * The butterflies (ntts_pair) with two block-wide barriers
 * per pass instead of one per round. Thread tid owns one unit of the first
 * round (rows 4 (tid >> 2) + m, m < 4, of column tid & 3): it copies those
 * four elements itself, scales them and does stages 0 and 1 on them with
 * no barrier (3 of the 4 butterflies are w^0, the fourth takes w_4). Then
 * stages 2..k-1 mix rows 4 apart only: rows lo + 4 m of column l (lo < 4)
 * form one of 16 groups of 2^(k-2) elements, whose 2^(k-3) butterflies
 * per stage go to 2^(k-4) neighbouring lanes of one warp (two each), so
 * those stages need a __syncwarp each, not a barrier. The stages'
 * twiddles differ from lane to lane; their table is swizzled as the rows
 * are (ntts_tw_at) so that lanes reading entries 2^s apart spread over the
 * banks. A lane's two butterflies are b = 2i, 2i + 1 of its group's
 * stage: in the lo = 0 groups, where the w^0 butterflies are, stage 3 then
 * costs each lane one product.
 */

/* Position of w_(2^k)^i in the shared twiddle table. */
static __device__ __forceinline__ uint32_t ntts_tw_at(uint32_t i)
{
    return ntts_at(i >> 2, i & 3);
}

/* Column factor of the element (row j, column c):
 * *f = +-tab[...], *neg its sign. */
template <class F>
static __device__ __forceinline__ void ntts_factor(F &f, bool &neg, const F *tab, unsigned k,
                                                   uint32_t j, size_t c, unsigned sh, unsigned bits)
{
    const size_t ex = (c * ntts_rev(j, k)) << sh;
    neg = (ex >> (bits - 1)) & 1;
    f = tab[ex & (((size_t)1 << (bits - 1)) - 1)];
}

/* Rows j, j + 1 (positions a0, a1) of column c times their
 * factors, then their stage-0 butterfly (w^0). Each factor is read just
 * before its product: one factor live, not two (64 registers). */
template <class F>
static __device__ __forceinline__ void ntts_pair_scaled(F *s, uint32_t a0, uint32_t a1,
                                                        const F *tab, unsigned k, uint32_t j,
                                                        size_t c, unsigned sh, unsigned bits)
{
    F x0, x1, f;
    bool neg;
    ntts_factor(f, neg, tab, k, j, c, sh, bits);
    ntts_lds(x0, &s[a0]);
    fx_mul(x0, x0, f);
    ntts_neg_if(x0, neg);
    ntts_factor(f, neg, tab, k, j + 1, c, sh, bits);
    ntts_lds(x1, &s[a1]);
    fx_mul(x1, x1, f);
    ntts_neg_if(x1, neg);
    const F t = x1;
    ntts_bfly(x0, x1, t);
    s[a0] = x0;
    s[a1] = x1;
}

/* The thread's own unit (rows 4 (tid >> LC) + m of column tid mod 2^LC):
 * (scale when stab, then) stages 0 and 1. w4 is w_4 in global memory (the
 * shared table is not complete before a barrier). */
template <class F, int LC = SP_NTTS_LOG_COLS>
static __device__ __forceinline__ void ntts_own_unit(F *s, const F *stab, const F *w4, unsigned k,
                                                     size_t col0, unsigned sh, unsigned bits)
{
    const uint32_t l = threadIdx.x & ((1u << LC) - 1), j0 = (threadIdx.x >> LC) << 2;
    const uint32_t a0 = ntts_at_c<LC>(j0, l), a1 = ntts_at_c<LC>(j0 + 1, l),
                   a2 = ntts_at_c<LC>(j0 + 2, l), a3 = ntts_at_c<LC>(j0 + 3, l);
    if (stab) {
        ntts_pair_scaled(s, a0, a1, stab, k, j0, col0 + l, sh, bits);
        ntts_pair_scaled(s, a2, a3, stab, k, j0 + 2, col0 + l, sh, bits);
    } else {
        ntts_pair(s, a0, a1, (const F *)0);
        ntts_pair(s, a2, a3, (const F *)0);
    }
    ntts_pair(s, a0, a2, (const F *)0);
    ntts_pair(s, a1, a3, w4);
}


/* Element stores at 32-bit shared-memory byte addresses, as ntts_lds_at
 * loads (no 64-bit pointer arithmetic per butterfly). */
template <class F>
static __device__ __forceinline__ void ntts_sts_at(uint32_t a, const F &x)
{
    asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(x.w[0]), "r"(x.w[1]),
                 "r"(x.w[2]), "r"(x.w[3])
                 : "memory");
    asm volatile("st.shared.v4.u32 [%0 + 16], {%1, %2, %3, %4};" ::"r"(a), "r"(x.w[4]),
                 "r"(x.w[5]), "r"(x.w[6]), "r"(x.w[7])
                 : "memory");
}

/* ntts_pair at byte addresses p0, p1; the twiddle at pw unless triv. */
template <class F>
static __device__ __forceinline__ void ntts_pair_at(uint32_t p0, uint32_t p1, uint32_t pw,
                                                    bool triv)
{
    F x0, x1;
    ntts_lds_at(x0, p0);
    ntts_lds_at(x1, p1);
    F t = x1;
    if (!triv) {
        F ww;
        ntts_lds_at(ww, pw);
        fx_mul(t, x1, ww);
    }
    ntts_bfly(x0, x1, t);
    ntts_sts_at(p0, x0);
    ntts_sts_at(p1, x1);
}

/*
 * Stages 2..k-1 in warp-local groups (see above; 2^k threads, 4 <= k),
 * the positions derived instead of recomputed: per stage a lane computes the position of its first butterfly's upper row
 * (b = 2i) and of its twiddle once; the other three rows and the second
 * twiddle differ from them by one set bit of the row (or twiddle index),
 * which moves the position by a power of 2 and flips one bit of the
 * column swizzle: setting bit p (>= 2) of row j turns ntts_at(j, l) into
 * (ntts_at(j, l) + 2^(p+2)) ^ 2^(p & 1), and of a twiddle index i turns
 * ntts_tw_at(i) into (ntts_tw_at(i) + 2^p) ^ 2^(p & 1). The partner row
 * is j + 2^q (bit q clear in j); the second butterfly's rows are the
 * first's + 8 at t = q - 2 = 0 and + 4 above (b = 2i even), its twiddle
 * the same at t = 0 and with bit k + 1 - q set above. In blocks of 2^LC
 * columns the groups are (lo, l < 2^LC) and a row's bit p is bit
 * p - (2 - LC) of the 4-column layout's row (ntts_at_c): the same rules
 * with p - (2 - LC) for p (tools/ntt_fs_model.py checks both forms).
 */
template <class F, int LC = SP_NTTS_LOG_COLS>
static __device__ __forceinline__ void ntts_rounds_warp2(F *s, const F *sw, unsigned k)
{
    constexpr unsigned D = 2 - LC;
    const unsigned lg = k - 4;
    const uint32_t grp = threadIdx.x >> lg, i = threadIdx.x & ((1u << lg) - 1);
    const uint32_t l = grp & ((1u << LC) - 1), lo = grp >> LC;
    const uint32_t sb = (uint32_t)__cvta_generic_to_shared(s),
                   wb = (uint32_t)__cvta_generic_to_shared(sw);
    const uint32_t b = 2 * i;
    for (unsigned q = 2; q < k; q++) {
        const unsigned t = q - 2;
        const uint32_t tm = (1u << t) - 1;
        const uint32_t m0 = ((b >> t) << (t + 1)) | (b & tm), j = lo | (m0 << 2);
        const uint32_t pa = ntts_at_c<LC>(j, l),
                       pb = (pa + (1u << (q - D + 2))) ^ (1u << ((q - D) & 1));
        const uint32_t e = (lo | ((b & tm) << 2)) << (k - 1 - q), pe = ntts_tw_at(e);
        const unsigned p = k + 1 - q; /* t >= 1: the second twiddle's extra bit */
        const uint32_t pe2 = t ? (pe + (1u << p)) ^ (1u << (p & 1)) : pe;
        /* second butterfly's rows: row bit 3 at t = 0, bit 2 above */
        const unsigned pd = (t ? 2u : 3u) - D;
        const uint32_t d = 4u << pd, x = 1u << (pd & 1);
        ntts_pair_at<F>(sb + 32 * pa, sb + 32 * pb, wb + 32 * pe, e == 0);
        ntts_pair_at<F>(sb + 32 * ((pa + d) ^ x), sb + 32 * ((pb + d) ^ x), wb + 32 * pe2,
                        t == 0 && e == 0);
        __syncwarp();
    }
}


/*
 * One pass: stages [s0, s0 + k) of the block's 2^k x 2^LC elements (LC = 2
 * but 1 in the 9-stage passes: ntts_log_cols), read from src, written to
 * dst (not src in the first pass); the first pass gathers its rows from
 * bit-reversed positions as radix4.cu's does. Later passes scale by the
 * column factors from stab (ntts_factor: sh, bits).
 */
template <class F, int LC = SP_NTTS_LOG_COLS>
__global__ void __launch_bounds__(SP_NTTS_THREADS, 4)
ntts_pass(F *dst, const F *src, const F *tw, const F *stab, unsigned log_n, unsigned s0, unsigned k,
          unsigned sh, unsigned bits)
{
    extern __shared__ __align__(16) unsigned char ntts_smem[];
    F *s = (F *)ntts_smem;
    F *sw = s + ((size_t)1 << (k + LC));
    const uint32_t total = 1u << (k + LC), cmask = (1u << LC) - 1;
    const unsigned tid = threadIdx.x, nthr = blockDim.x, lh = log_n - k;
    const int first = s0 == 0;
    size_t g0 = 0, col0 = 0, high = 0;
    if (first) {
        g0 = (size_t)blockIdx.x << LC;
    } else {
        const unsigned lhigh = log_n - s0 - k;
        high = blockIdx.x & (((size_t)1 << lhigh) - 1);
        col0 = ((size_t)blockIdx.x >> lhigh) << LC;
    }
    for (uint32_t e = tid, m = 0; e < total; e += nthr, m++) { /* columns fastest: runs of 2^LC */
        /* the thread's own unit (rows 4 (tid >> LC) + m, column tid mod 2^LC) */
        const uint32_t j = ((tid >> LC) << 2) | m, l = tid & cmask;
        const size_t g = first ? ((size_t)ntts_rev(j, k) << lh) | (g0 + l)
                               : (col0 + l) | ((size_t)j << s0) | (high << (s0 + k));
        F *d = &s[ntts_at_c<LC>(j, l)];
        ntts_copy_async(d, &src[g]);
        ntts_copy_async((unsigned char *)d + 16, (const unsigned char *)&src[g] + 16);
    }
    for (uint32_t i = tid; i < (1u << (k - 1)); i += nthr)
        sw[ntts_tw_at(i)] = tw[(size_t)i << lh]; /* w_(2^k)^i */
    asm volatile("cp.async.wait_all;" ::: "memory");
    ntts_own_unit<F, LC>(s, first ? (const F *)0 : stab, &tw[(size_t)1 << (k - 2 + lh)], k, col0, sh,
                         bits);
    __syncthreads();
    ntts_rounds_warp2<F, LC>(s, sw, k);
    __syncthreads();
    for (uint32_t e = tid; e < total; e += nthr) {
        uint32_t j, l;
        size_t g;
        if (first) { /* rows fastest: a column is a run of 2^k in dst */
            j = e & ((1u << k) - 1), l = e >> k;
            g = j | ((size_t)ntts_rev((uint32_t)(g0 + l), lh) << k);
        } else {
            j = e >> LC, l = e & cmask;
            g = (col0 + l) | ((size_t)j << s0) | (high << (s0 + k));
        }
        dst[g] = s[ntts_at_c<LC>(j, l)];
    }
}

/* The second pass's factors: tab[i] = w^(i 2^sh) for i < count, times c
 * when scale (1/n for the inverse). */
template <class F>
__global__ void ntts_table(F *tab, const F *tw, size_t count, unsigned sh, int scale, F c)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    F x = tw[i << sh];
    if (scale)
        f_mul(x, x, c);
    tab[i] = x;
}

sp_status sp_cu_ntt_fs_tables(sp_cuda *ctx, sp_cuda_ntt_domain *d)
{
    unsigned ks[32];
    if (d->log_n < SP_NTTS_MIN_LOG || sp_cu_ntt_passes(d->log_n, ks) < 2)
        return SP_OK;
    const unsigned bits = ks[0] + ks[1], sh = d->log_n - bits;
    const size_t count = (size_t)1 << (bits - 1);
    SP_CU(ctx, cudaMalloc(&d->fs_tab, count * sizeof(fr_t)));
    SP_CU(ctx, cudaMalloc(&d->fs_tab_inv, count * sizeof(fr_t)));
    fr_t ninv;
    memcpy(&ninv, &d->n_inv, sizeof ninv);
    const unsigned blocks = sp_cu_blocks(count, 256);
    ntts_table<fr_t><<<blocks, 256, 0, ctx->stream>>>(d->fs_tab, d->tw, count, sh, 0, ninv);
    SP_CU_LAUNCHED(ctx, "ntts_table");
    ntts_table<fr_t><<<blocks, 256, 0, ctx->stream>>>(d->fs_tab_inv, d->tw_inv, count, sh, 1, ninv);
    SP_CU_LAUNCHED(ctx, "ntts_table");
    SP_CU(ctx, cudaStreamSynchronize(ctx->stream));
    return SP_OK;
}

/* The kernel's attributes: room for the largest pass's shared memory, and
 * all of the SM's unified memory as shared (four blocks per SM). */
template <class F, int LC>
static sp_status ntts_attrs(sp_cuda *ctx)
{
    const size_t smem_max = (((size_t)1 << (SP_NTTF_MAX_STAGES + LC)) +
                             ((size_t)1 << (SP_NTTF_MAX_STAGES - 1))) * sizeof(F);
    SP_CU(ctx, cudaFuncSetAttribute(ntts_pass<F, LC>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    (int)smem_max));
    SP_CU(ctx, cudaFuncSetAttribute(ntts_pass<F, LC>, cudaFuncAttributePreferredSharedMemoryCarveout,
                                    (int)cudaSharedmemCarveoutMaxShared));
    return SP_OK;
}

/* log2 of the columns of a k-stage pass's blocks: 4 columns, but 2 where
 * the pass's 2^(k+LC-2) threads would exceed SP_NTTS_THREADS (the 9-stage
 * passes; 1 beyond, which the split of the stages never makes). */
static unsigned ntts_log_cols(unsigned k)
{
    const unsigned lt = 8; /* log2 SP_NTTS_THREADS */
    return k + SP_NTTS_LOG_COLS - 2 <= lt ? SP_NTTS_LOG_COLS : k <= lt + 2 ? lt + 2 - k : 0;
}

template <class F>
static sp_status ntts_run(sp_cuda *ctx, const sp_cuda_ntt_domain *d, F *a, int inverse)
{
    const unsigned log_n = d->log_n;
    unsigned ks[32];
    const unsigned np = sp_cu_ntt_passes(log_n, ks);
    for (unsigned i = 0; i < np; i++) /* 16 <= 2^k, 2^(k+LC-2) <= SP_NTTS_THREADS */
        if (ks[i] < 4 || (1u << (ks[i] + ntts_log_cols(ks[i]))) > 4u * SP_NTTS_THREADS)
            return SP_ERR_INVALID_ARG;
    SP_TRY((ntts_attrs<F, SP_NTTS_LOG_COLS>(ctx)));
    SP_TRY((ntts_attrs<F, 1>(ctx)));
    const F *tw = (const F *)(inverse ? d->tw_inv : d->tw);
    const F *tab1 = (const F *)(inverse ? d->fs_tab_inv : d->fs_tab);
    void *p;
    SP_TRY(sp_cu_ntt_scratch(ctx, d->n * sizeof(F), &p));
    F *tmp = (F *)p;
    unsigned s0 = 0;
    for (unsigned i = 0; i < np; i++) {
        const unsigned k = ks[i];
        const F *src = i == 0 ? a : tmp;
        F *dst = i + 1 == np ? a : tmp;
        /* factors: the compact table in pass 1, the domain's in later ones */
        const F *stab = i == 1 ? tab1 : tw;
        const unsigned bits = i == 1 ? s0 + k : log_n, sh = i == 1 ? 0 : log_n - s0 - k;
        const unsigned lc = ntts_log_cols(k);
        const unsigned units = 1u << (k + lc - 2);
        const unsigned thr = units < SP_NTTS_THREADS ? units : SP_NTTS_THREADS;
        const unsigned blocks = (unsigned)(d->n >> (k + lc));
        const size_t smem = (((size_t)1 << (k + lc)) + ((size_t)1 << (k - 1))) * sizeof(F);
        if (lc == 1)
            ntts_pass<F, 1><<<blocks, thr, smem, ctx->stream>>>(dst, src, tw, stab, log_n, s0, k, sh,
                                                                 bits);
        else
            ntts_pass<F><<<blocks, thr, smem, ctx->stream>>>(dst, src, tw, stab, log_n, s0, k, sh,
                                                              bits);
        SP_CU_LAUNCHED(ctx, "ntts_pass");
        s0 += k;
    }
    SP_CU(ctx, cudaStreamSynchronize(ctx->stream));
    return SP_OK;
}

sp_status sp_cu_ntt_columns(sp_cuda *ctx, const sp_cuda_ntt_domain *d, sp_fr *a_dev, int inverse)
{
    return ntts_run(ctx, d, (fr_tm<SP_MUL_EO> *)a_dev, inverse);
}

} // namespace SP_CURVE_NS
