/*
 * Inversion in Fp and Fp2, for the places that invert once for a whole
 * batch (Montgomery's trick):
 *   f_inv_fermat  a^(p-2): the same instructions for every input, so the
 *                 lanes of a warp stay together; the runs of XYZZ points
 *                 made affine (curve/to_affine.cuh: the fixed-base
 *                 multiplication, the MSM tables), one inversion per lane.
 *   f_inv_var     binary extended Euclid: its branches depend on the value
 *                 (variable time: for public data only, like everything
 *                 an MSM's accumulation touches), ~10x shorter in one
 *                 thread; the one inversion per round of the batch-affine
 *                 MSM accumulation (msm/affine_sum.cuh: ba_top), where
 *                 one thread's latency is the whole GPU's wait.
 */
#ifndef SP_GPU_FIELD_INV_CUH
#define SP_GPU_FIELD_INV_CUH

#include "field.cuh"

namespace SP_CURVE_NS {

/* r = a^(p-2) = 1/a in Fp (0 for a = 0): square and multiply over the bits
 * of p - 2, most significant first. r may alias a. */
template <int M>
static __device__ __noinline__ void f_inv_fermat(fp_tm<M> &r, const fp_tm<M> &a)
{
    constexpr uint64_t p[SP_FP_LIMBS] = SP_FP_MODULUS_INIT;
    fp_tm<M> x;
    f_set_one(x);
#pragma unroll 1
    for (int l = SP_FP_LIMBS - 1; l >= 0; l--) {
        const uint64_t e = l == 0 ? p[0] - 2 : p[l]; /* p[0] > 2: no borrow */
#pragma unroll 1
        for (int b = 63; b >= 0; b--) {
            f_sqr(x, x);
            if ((e >> b) & 1)
                f_mul(x, x, a);
        }
    }
    r = x;
}

/* ---- f_inv_var's word operations (N words, little-endian) ---- */

template <int N> static __device__ __forceinline__ bool inv_is_one(const uint32_t *a)
{
    uint32_t o = a[0] ^ 1;
#pragma unroll
    for (int j = 1; j < N; j++)
        o |= a[j];
    return o == 0;
}

/* a >= b */
template <int N> static __device__ __forceinline__ bool inv_geq(const uint32_t *a, const uint32_t *b)
{
    uint32_t t = sub_cc(a[0], b[0]);
#pragma unroll
    for (int j = 1; j < N; j++)
        t = subc_cc(a[j], b[j]);
    (void)t;
    return subc(0, 0) == 0; /* no borrow */
}

/* a -= b (a >= b) */
template <int N> static __device__ __forceinline__ void inv_sub(uint32_t *a, const uint32_t *b)
{
    a[0] = sub_cc(a[0], b[0]);
#pragma unroll
    for (int j = 1; j < N; j++)
        a[j] = subc_cc(a[j], b[j]);
}

/* a = a / 2 (a even), and x = x / 2 mod p (x < p; x + p < 2^(32N): the
 * spare bit) */
template <class D>
static __device__ __forceinline__ void inv_halve(uint32_t *a, uint32_t *x)
{
    constexpr int N = D::N;
#pragma unroll
    for (int j = 0; j < N - 1; j++)
        a[j] = __funnelshift_r(a[j], a[j + 1], 1);
    a[N - 1] >>= 1;
    if (x[0] & 1) {
        x[0] = add_cc(x[0], D::p(0));
#pragma unroll
        for (int j = 1; j < N; j++)
            x[j] = addc_cc(x[j], D::p(j));
    }
#pragma unroll
    for (int j = 0; j < N - 1; j++)
        x[j] = __funnelshift_r(x[j], x[j + 1], 1);
    x[N - 1] >>= 1;
}

/*
 * r = 1/a in Fp (0 for a = 0), variable time. On the words of the
 * Montgomery form A = a R: u = A, v = p, x1 = 1, x2 = 0 keep A x1 = u and
 * A x2 = v (mod p); halving the even one of u, v (and its x) and
 * subtracting the smaller from the larger ends at u = 1 or v = 1 with
 * x = A^-1 = a^-1 R^-1; two products by R^2 give a^-1 R, the Montgomery
 * form of 1/a. r may alias a.
 */
template <int M>
static __device__ __noinline__ void f_inv_var(fp_tm<M> &r, const fp_tm<M> &a)
{
    typedef fp_desc D;
    constexpr int N = D::N;
    if (f_is_zero(a)) {
        f_set_zero(r);
        return;
    }
    uint32_t u[N], v[N], x1[N], x2[N];
#pragma unroll
    for (int j = 0; j < N; j++)
        u[j] = a.w[j], v[j] = D::p(j), x1[j] = 0, x2[j] = 0;
    x1[0] = 1;
#pragma unroll 1
    while (!inv_is_one<N>(u) && !inv_is_one<N>(v)) {
#pragma unroll 1
        while (!(u[0] & 1))
            inv_halve<D>(u, x1);
#pragma unroll 1
        while (!(v[0] & 1))
            inv_halve<D>(v, x2);
        if (inv_geq<N>(u, v)) {
            inv_sub<N>(u, v);
            mont_sub<D>(x1, x1, x2);
        } else {
            inv_sub<N>(v, u);
            mont_sub<D>(x2, x2, x1);
        }
    }
    constexpr uint64_t r2[SP_FP_LIMBS] = SP_FP_MONT_R2_INIT;
    fp_tm<M> x, k;
    const uint32_t *xs = inv_is_one<N>(u) ? x1 : x2;
#pragma unroll
    for (int j = 0; j < N; j++)
        x.w[j] = xs[j], k.w[j] = (uint32_t)(r2[j >> 1] >> (32 * (j & 1)));
    f_mul(x, x, k); /* A^-1 R^2 / R = a^-1 */
    f_mul(r, x, k); /* a^-1 R */
}

/* 1/(c0 + c1 u) = (c0 - c1 u) / (c0^2 + c1^2), as u^2 = -1 (0 for 0),
 * the norm's inverse by FP_INV. r may alias a. */
template <int M, void (*FP_INV)(fp_tm<M> &, const fp_tm<M> &)>
static __device__ __forceinline__ void f_inv_fp2(fp2_tm<M> &r, const fp2_tm<M> &a)
{
    fp_tm<M> n, t;
    f_sqr(n, a.c0);
    f_sqr(t, a.c1);
    f_add(n, n, t);
    FP_INV(n, n);
    f_mul(r.c0, a.c0, n);
    f_mul(t, a.c1, n);
    f_neg(r.c1, t);
}

template <int M>
static __device__ __noinline__ void f_inv_fermat(fp2_tm<M> &r, const fp2_tm<M> &a)
{
    f_inv_fp2<M, f_inv_fermat<M> >(r, a);
}

template <int M>
static __device__ __noinline__ void f_inv_var(fp2_tm<M> &r, const fp2_tm<M> &a)
{
    f_inv_fp2<M, f_inv_var<M> >(r, a);
}

} // namespace SP_CURVE_NS

#endif
