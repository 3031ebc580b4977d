/*
 * The device NTT domain, shared by the three forms of the transform:
 * ntt.cu (a bit-reversal pass, then passes of 10 and 5 stages, in place),
 * radix4.cu (passes of up to SP_NTTF_MAX_STAGES stages with the bit
 * reversal folded into the first, out of place through a scratch vector)
 * and column_twiddles.cu (the same passes with column twiddles applied
 * once per element and the stages' twiddles from shared memory).
 */
#ifndef SP_GPU_NTT_DOM_CUH
#define SP_GPU_NTT_DOM_CUH

#include "gpu/core/context.cuh"
#include "gpu/field/field.cuh"

/* sp_cuda.h's type, global for its C API (the rest is in the curve's
 * namespace) */
struct sp_cuda_ntt_domain {
    unsigned log_n;
    size_t n;
    SP_CURVE_NS::fr_t *tw;     /* w^j, j < n/2 (NULL when n == 1) */
    SP_CURVE_NS::fr_t *tw_inv; /* w^-j */
    sp_fr n_inv;
    /* column_twiddles.cu's factors of its second pass (from SP_NTTS_MIN_LOG; else
     * NULL): w^(i 2^sh) and w^(-i 2^sh) / n, i < 2^(k0 + k1 - 1), with k0,
     * k1 the first two passes' stages and sh = log_n - k0 - k1 */
    SP_CURVE_NS::fr_t *fs_tab, *fs_tab_inv;
};

namespace SP_CURVE_NS {

#define SP_NTTF_MAX_STAGES 9 /* stages per fused pass */
#define SP_NTTS_LOG_COLS 2   /* column_twiddles.cu: 4 columns per block */
#define SP_NTTS_MIN_LOG 12   /* column_twiddles.cu: from 2^12 (smaller: radix4.cu) */

/* The passes' split of log_n stages: returns the number of passes, ks[i]
 * the stages of pass i, as even as possible, at most SP_NTTF_MAX_STAGES
 * each (radix4.cu). */
unsigned sp_cu_ntt_passes(unsigned log_n, unsigned *ks);

/* *p = the context's NTT scratch vector, grown to bytes; SP_ERR_NOMEM (the
 * CUDA error cleared) when the device has no room for it (radix4.cu). */
sp_status sp_cu_ntt_scratch(sp_cuda *ctx, size_t bytes, void **p);

/* Makes d's fs_tab and fs_tab_inv from its twiddles when log_n >=
 * SP_NTTS_MIN_LOG (column_twiddles.cu); leaves them NULL below. */
sp_status sp_cu_ntt_fs_tables(sp_cuda *ctx, sp_cuda_ntt_domain *d);

/*
 * The passes in rounds of two stages (radix4.cu): the contract of
 * sp_cuda_ntt, for log_n >= 1 and a_dev device memory. Uses the scratch
 * slot SP_XSCR_NTT (n elements) when it needs more than one pass; returns
 * SP_ERR_NOMEM, a untouched, when there is no room for it.
 */
sp_status sp_cu_ntt_radix4(sp_cuda *ctx, const sp_cuda_ntt_domain *d, sp_fr *a_dev, int inverse);

/* The passes with column twiddles (column_twiddles.cu): as
 * sp_cu_ntt_radix4, for domains with fs_tab (log_n >= SP_NTTS_MIN_LOG). */
sp_status sp_cu_ntt_columns(sp_cuda *ctx, const sp_cuda_ntt_domain *d, sp_fr *a_dev, int inverse);

} // namespace SP_CURVE_NS

#endif
