/*
 * XYZZ points to affine in bulk, one inversion per run of points
 * (Montgomery's trick): the fixed-base multiplication of the setup
 * (fixed_base.cu) and the precomputed MSM tables (msm/table.cu) both end
 * with many XYZZ points that must be stored affine.
 */
#ifndef SP_GPU_CURVE_BATCH_CUH
#define SP_GPU_CURVE_BATCH_CUH

#include "xyzz.cuh"
#include "gpu/field/inverse.cuh"

namespace SP_CURVE_NS {

#define SP_CB_THREADS 128 /* the block size xyzz_to_affine_runs is launched with */

/*
 * out[j] = p[j] in affine form for j < m, infinity (ZZ = 0) as (0, 0): one
 * thread per run of RUN points: the prefix products of ZZZ (kept in the
 * output's x until it is written), one Fermat inversion per run, then
 * backwards 1/ZZZ and 1/ZZ = (1/ZZZ)^2 ZZ^2 (ZZ^3 = ZZZ^2), x = X/ZZ,
 * y = Y/ZZZ. Infinity stays out of the products. Launch with
 * sp_cu_blocks(ceil(m / RUN), SP_CB_THREADS) blocks of SP_CB_THREADS.
 */
template <class F, int RUN>
__global__ void __launch_bounds__(SP_CB_THREADS)
xyzz_to_affine_runs(affine_t<F> *out, const xyzz_t<F> *p, size_t m)
{
    size_t lo = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * RUN;
    if (lo >= m)
        return;
    size_t hi = m - lo < RUN ? m : lo + RUN;
    F acc, inv;
    f_set_one(acc);
    for (size_t j = lo; j < hi; j++) {
        if (f_is_zero(p[j].zz))
            continue;
        out[j].x = acc; /* the product of the ZZZ before j */
        f_mul(acc, acc, p[j].zzz);
    }
    f_inv_fermat(inv, acc);
    for (size_t j = hi; j-- > lo;) {
        xyzz_t<F> q = p[j];
        if (f_is_zero(q.zz)) {
            f_set_zero(out[j].x);
            f_set_zero(out[j].y);
            continue;
        }
        F iz3, iz2, t;
        f_mul(iz3, inv, out[j].x); /* 1 / ZZZ_j */
        f_mul(inv, inv, q.zzz);
        f_sqr(iz2, iz3);
        f_sqr(t, q.zz);
        f_mul(iz2, iz2, t);        /* ZZ^2 / ZZZ^2 = 1 / ZZ */
        f_mul(out[j].x, q.x, iz2);
        f_mul(out[j].y, q.y, iz3);
    }
}

} // namespace SP_CURVE_NS

#endif
