/*
 * XYZZ addition for the reduction trees of msm/pippenger.cu and msm/split.cu
 * (crowded-bucket fix-up, the split MSM's sum of ones), where adding two
 * equal partial sums is common (equal bases, equal scalars).
 *
 * Why not plain xyzz_add: there the doubling runs as a call from inside
 * the (noinline) addition, two calls deep, and the first device run of
 * the tree fix-up faulted ("illegal memory access") in G2 exactly when
 * equal partial sums met (all bases equal); G1, and G2 with distinct
 * partial sums, were exact. The call pattern that the rest of the MSM
 * has run for G2 without fault is one call deep (xyzz_dbl from a kernel,
 * xyzz_add whose doubling branch is not taken). So the equal-x cases are
 * decided here, inline, and each branch makes one call.
 */
#ifndef SP_GPU_MSM_ADD_CUH
#define SP_GPU_MSM_ADD_CUH

#include "xyzz.cuh"

namespace SP_CURVE_NS {

/* acc += q (both XYZZ); same result as xyzz_add. */
template <class F>
static __device__ __forceinline__ void xyzz_add_flat(xyzz_t<F> &acc, const xyzz_t<F> &q)
{
    if (xyzz_is_inf(q))
        return;
    if (xyzz_is_inf(acc)) {
        acc = q;
        return;
    }
    F a, b;
    f_mul(a, acc.x, q.zz);
    f_mul(b, q.x, acc.zz);
    f_sub(a, a, b);
    if (!f_is_zero(a)) { /* different x: the general addition, no doubling inside */
        xyzz_add(acc, q);
        return;
    }
    f_mul(a, acc.y, q.zzz);
    f_mul(b, q.y, acc.zzz);
    f_sub(a, a, b);
    if (f_is_zero(a))
        xyzz_dbl(acc, acc); /* acc == q */
    else
        xyzz_set_inf(acc); /* acc == -q */
}

} // namespace SP_CURVE_NS

#endif
