/* The setup from a .ptau on the device in G2 (ptau.cuh). */
#include "ptau.cuh"

namespace SP_CURVE_NS {

extern "C" sp_status sp_cuda_ptau_comb_g2(sp_cuda *ctx, sp_g2_affine *out, size_t n, const sp_ptau_sparse *t, int nt)
{
    return pt_comb<pt_fp2, sp_g2_affine>(ctx, out, n, t, nt);
}

extern "C" sp_status sp_cuda_ptau_intt_g2(sp_cuda *ctx, sp_g2_affine *out, const sp_g2_affine *in, unsigned log_n,
                                          const sp_scalar *tw, const sp_scalar *pre)
{
    return pt_intt<pt_fp2, sp_g2_affine>(ctx, out, in, log_n, tw, pre);
}

} // namespace SP_CURVE_NS
