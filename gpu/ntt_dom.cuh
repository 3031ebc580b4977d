/*
 * The device NTT domain, shared by the two NTT implementations: ntt.cu
 * (a bit-reversal pass, then passes of 10 and 5 stages, in place) and
 * ntt_fused.cu (passes of up to SP_NTTF_MAX_STAGES stages with the bit
 * reversal folded into the first, out of place through a scratch buffer).
 */
#ifndef SP_GPU_NTT_DOM_CUH
#define SP_GPU_NTT_DOM_CUH

#include "cu_util.cuh"
#include "field.cuh"

struct sp_cuda_ntt_domain {
    unsigned log_n;
    size_t n;
    fr_t *tw;     /* w^j, j < n/2 (NULL when n == 1) */
    fr_t *tw_inv; /* w^-j */
    sp_fr n_inv;
};

/*
 * The fused transform (ntt_fused.cu): the contract of sp_cuda_ntt, for
 * log_n >= 1 and a_dev device memory. Uses the scratch slot
 * SP_XSCR_NTT (n elements) when it needs more than one pass; returns
 * SP_ERR_NOMEM, a untouched, when there is no room for it.
 */
sp_status sp_cu_ntt_fused(sp_cuda *ctx, const sp_cuda_ntt_domain *d, sp_fr *a_dev, int inverse);

#endif
