/* The G2 instantiation of pippenger.cuh's phase 5: the bucket reductions
 * of the XYZZ accumulation (xyzz_acc_g2.cu) and of the batch-affine one
 * (batch_affine_g2.cu), which share their kernels. */
#include "pippenger.cuh"

namespace SP_CURVE_NS {

typedef fp2_tm<SP_MUL_EO> fp2e_t;

sp_status sp_cu_msm_reduce(sp_cuda *ctx, xyzz_t<fp2e_t> *win, const xyzz_t<fp2e_t> *bk, unsigned c,
                           unsigned nwin, unsigned log_l)
{
    return msm_reduce_phase<fp2e_t>(ctx, win, bk, c, nwin, log_l);
}

sp_status sp_cu_msm_reduce_split(sp_cuda *ctx, xyzz_t<fp2e_t> *win, const affine_t<fp2e_t> *bk,
                                 unsigned c, unsigned nwin, msm_join *j)
{
    return msm_reduce_split<fp2e_t>(ctx, win, bk, c, nwin, j);
}

} // namespace SP_CURVE_NS
